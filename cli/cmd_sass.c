/*
 * cmd_sass.c -- `warpmem sass FILE`: the SASS memory instructions of a
 * module per source line (ptxas + nvdisasm, cached), or with --map how
 * each PTX memory instruction of a kernel maps onto them.
 */
#include "sass_tool.h"

#include <stdlib.h>
#include <string.h>

typedef struct sass_opts {
    const char *input, *arch_name, *kname;
    int json, map;
} sass_opts;

static const char *kind_name(wm_sass_kind k)
{
    switch (k) {
    case WM_SASS_SAME: return "same";
    case WM_SASS_LEAD: return "lead";
    case WM_SASS_MERGED: return "merged";
    case WM_SASS_SPLIT: return "split";
    case WM_SASS_UNMAPPED: return "unmapped";
    }
    return "?";
}

/* Per PTX memory instruction of kernel k: line, kind, width, text. */
static int print_map(const wm_ptx_module *m, size_t k, const cli_sass *c,
                     const char *profile)
{
    wm_sass_summary sum;
    wm_sass_plan_summary(c->plan, &sum);
    printf("SASS map (ptxas -arch %s, profile %s): %zu lines with memory "
           "accesses, %zu with merges (%zu PTX accesses merged away), %zu with "
           "splits, %zu unmapped\n",
           c->arch, profile, sum.lines, sum.merged, sum.insns_merged, sum.split,
           sum.unmapped);
    (void)k; /* the plan maps kernel k's instructions only */
    for (size_t i = 0; i < wm_ptx_ninsns(m); i++) {
        wm_ptx_where w;
        wm_sass_map mp = wm_sass_plan_insn(c->plan, i);
        if (!wm_ptx_where_insn(m, i, &w) || !mp.width)
            continue;
        printf("%s:%u  %-8s %2u B", *w.file ? w.file : "?", w.line,
               kind_name(mp.kind), mp.width);
        if (mp.kind == WM_SASS_LEAD)
            printf(" x%u", mp.merged);
        if (mp.kind == WM_SASS_SPLIT)
            printf(" /%u", mp.parts);
        for (unsigned j = 0; mp.kind == WM_SASS_SPLIT && j < 32; j++)
            if (mp.slots >> j & 1)
                printf(" +%u", j * mp.width);
        if (mp.kind == WM_SASS_LEAD && mp.shift)
            printf(" -%u", mp.shift);
        printf("  %-12s %s%s%s\n", *mp.opcode ? mp.opcode : "-", w.text,
               *mp.why ? "  -- " : "", mp.why);
    }
    return WM_EXIT_OK;
}

static int parse(int argc, char **argv, sass_opts *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            cli_help_command(stdout, "sass");
            return -1;
        }
        if (!strcmp(a, "--json"))
            o->json = 1;
        else if (!strcmp(a, "--map"))
            o->map = 1;
        else if ((!strcmp(a, "--arch") || !strcmp(a, "--kernel")) &&
                 i + 1 < argc)
            *(a[2] == 'a' ? &o->arch_name : &o->kname) = argv[++i];
        else if (a[0] == '-' && a[1])
            return cli_usage_error("sass: unknown option '%s'", a);
        else if (o->input)
            return cli_usage_error("sass: one kernel file only ('%s')", a);
        else
            o->input = a;
    }
    if (!o->input)
        return cli_usage_error("sass: no kernel file (try 'warpmem sass "
                               "--help')");
    return 0;
}

/* The kernel --kernel names, or the only one; SIZE_MAX after an error. */
static size_t pick_kernel(const wm_ptx_module *m, const sass_opts *o)
{
    size_t cand[2];
    size_t nc = wm_ptx_match_kernels(m, o->kname, cand, 2);
    if (nc == 1)
        return cand[0];
    cli_usage_error(nc ? "%s: name one kernel with --kernel"
                       : "%s: no such kernel (--kernel)",
                    o->input);
    return SIZE_MAX;
}

int wm_cmd_sass(int argc, char **argv)
{
    sass_opts o;
    memset(&o, 0, sizeof o);
    int r = parse(argc, argv, &o);
    if (r)
        return r < 0 ? WM_EXIT_OK : r;
    wm_arch arch;
    if (!cli_parse_arch(o.arch_name, &arch))
        return WM_EXIT_USAGE;
    char *src = NULL;
    size_t n = 0;
    wm_ptx_module *m = NULL;
    if (!cli_load_ptx(o.input, cli_cu_sm(o.arch_name, &arch), NULL, 0, &src,
                      &n, &m)) {
        wm_ptx_free(m);
        free(src);
        return WM_EXIT_INPUT;
    }
    char note[96];
    cli_pick_arch(m, o.arch_name, &arch, note, sizeof note);
    size_t k = o.map ? pick_kernel(m, &o) : SIZE_MAX;
    int rc = o.map && k == SIZE_MAX ? WM_EXIT_USAGE : WM_EXIT_OK;
    cli_sass c;
    memset(&c, 0, sizeof c);
    if (rc == WM_EXIT_OK) {
        int lv = cli_sass_setup(&c, CLI_LEVEL_SASS, m, k, src, n, arch.sm);
        rc = lv < 0 ? WM_EXIT_INPUT : WM_EXIT_OK;
    }
    if (rc == WM_EXIT_OK && o.map)
        rc = print_map(m, k, &c, note);
    else if (rc == WM_EXIT_OK &&
             wm_sass_print(stdout, c.sass, NULL,
                           o.json ? WM_FMT_JSON : WM_FMT_TEXT) != WM_OK)
        rc = cli_write_error("standard output", 0);
    cli_sass_free(&c);
    wm_ptx_free(m);
    free(src);
    return rc;
}
