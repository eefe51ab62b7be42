/*
 * sass_level.c -- the level of a run's or a lint's numbers: SASS when
 * ptxas and nvdisasm are found (auto) or asked for (--level sass), else
 * PTX; the module's SASS parsed and the kernel's plan made.
 */
#include "sass_tool.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int cli_sass_parse_level(const char *flag, const char *v, int *level)
{
    if (!strcmp(v, "auto"))
        *level = CLI_LEVEL_AUTO;
    else if (!strcmp(v, "sass"))
        *level = CLI_LEVEL_SASS;
    else if (!strcmp(v, "ptx"))
        *level = CLI_LEVEL_PTX;
    else
        return cli_usage_error("%s: '%s' is not auto, sass or ptx", flag, v),
               0;
    return 1;
}

/* The disassembly of m parsed into c->sass: 1; 0 with c->why; -1 when
   memory ran out (an error at every level: falling back to the PTX level
   would change the numbers without saying so). */
static int load(cli_sass *c, const wm_ptx_module *m, const char *src,
                size_t n, unsigned sm)
{
    cli_sass_tools t;
    if (!cli_sass_tools_find(&t, c->why, sizeof c->why))
        return 0;
    cli_sass_arch(m, sm, c->arch, sizeof c->arch);
    size_t len = 0;
    errno = 0;
    char *text = cli_sass_text(&t, src, n, c->arch, &len, c->why,
                               sizeof c->why);
    if (!text)
        return errno == ENOMEM ? -1 : 0;
    wm_diag d;
    wm_status st = wm_sass_parse(text, len, &c->sass, &d);
    free(text);
    if (st == WM_ERR_NOMEM)
        return -1;
    if (st != WM_OK) {
        snprintf(c->why, sizeof c->why, "the disassembly did not parse "
                 "(line %d: %s)", d.line, st == WM_ERR_PARSE ? d.msg
                                                           : wm_status_str(st));
        return 0;
    }
    return 1;
}

int cli_sass_setup(cli_sass *c, int level, const wm_ptx_module *m, size_t k,
                   const char *src, size_t n, unsigned sm)
{
    memset(c, 0, sizeof *c);
    const char *env = getenv("WARPMEM_LEVEL");
    if (level == CLI_LEVEL_AUTO && env && *env &&
        !cli_sass_parse_level("WARPMEM_LEVEL", env, &level))
        return -1;
    if (level == CLI_LEVEL_PTX) {
        snprintf(c->why, sizeof c->why, "--level ptx");
        return 0;
    }
    int got = load(c, m, src, n, sm);
    if (got < 0)
        return cli_error("out of memory"), -1;
    if (!got) {
        if (level == CLI_LEVEL_SASS)
            return cli_error("--level sass: %s", c->why), -1;
        return 0;
    }
    if (k != SIZE_MAX && wm_sass_plan_new(m, k, c->sass, &c->plan) != WM_OK) {
        cli_sass_free(c);
        return cli_error("out of memory"), -1;
    }
    return 1;
}

void cli_sass_free(cli_sass *c)
{
    wm_sass_plan_free(c->plan);
    wm_sass_free(c->sass);
    c->plan = NULL;
    c->sass = NULL;
}

int cli_run_sass_begin(cli_sass *c, int level, const wm_ptx_module *m,
                       size_t k, const char *src, size_t n, unsigned sm,
                       wm_agg *agg)
{
    int lv = cli_sass_setup(c, level, m, k, src, n, sm);
    if (lv > 0)
        wm_agg_set_sass(agg, c->plan);
    return lv;
}

int cli_run_sass_end(cli_sass *c, wm_agg **agg)
{
    if (!c->plan || !*agg)
        return 1;
    wm_agg *view;
    if (wm_agg_sass_view(*agg, &view) != WM_OK)
        return 0;
    wm_agg_free(*agg);
    *agg = view;
    return 1;
}
