/*
 * single.c -- argv -> one wm_access -> wm_count -> text / JSON / CSV, for
 * `warpmem global` and `warpmem shared`; JSON, CSV and the ncu-shaped CSVs
 * are the library's (wm_access_report).
 *
 * The access is given either as --stride S [--base B] (in elements of
 * --size bytes: lane i reads element B + i*S) or as --addrs a0,a1,...
 * (byte addresses, lane i takes the i-th).  Every rejected value names its
 * flag and exits 2.  --explain adds the advisor's diagnosis and fixes
 * (text or JSON); --html FILE writes the self-contained HTML report.
 */
#include "cli.h"
#include "single.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

typedef struct single_opts {
    wm_arch arch;
    wm_access acc;
    cli_output out; /* --format, --color, --explain, --html */
    int have_stride, have_addrs;
    int64_t stride;
    uint64_t base;
    unsigned naddrs;
} single_opts;

/* The help text is help.def's "global" or "shared" rows. */
static void usage(FILE *f, wm_space space)
{
    cli_help_command(f, space == WM_SPACE_SHARED ? "shared" : "global");
}

/* Parse --addrs "a0,a1,..." into o->acc.addr. */
static int parse_addrs(single_opts *o, const char *list)
{
    char item[64];
    const char *p = list;
    unsigned n = 0;
    if (*p == '\0')
        return cli_usage_error("--addrs: empty list"), 0;
    for (;;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == 0 || len >= sizeof item) {
            cli_usage_error("--addrs: empty or overlong item at position %u",
                            n);
            return 0;
        }
        if (n >= o->arch.warp_size) {
            unsigned total = n + 1;
            for (const char *q = end; q; q = strchr(q + 1, ','))
                total++;
            cli_usage_error("--addrs: %u addresses but the warp has %u "
                            "lanes",
                            total, o->arch.warp_size);
            return 0;
        }
        memcpy(item, p, len);
        item[len] = '\0';
        if (!cli_parse_u64("--addrs", item, &o->acc.addr[n]))
            return 0;
        n++;
        if (!end)
            break;
        p = end + 1;
    }
    o->naddrs = n;
    return 1;
}

/* Lanes 0..n-1 as a mask. */
static uint64_t lanes_mask(unsigned n)
{
    return n >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
}

/* Lane addresses from --stride/--base, checked for sign and overflow. */
static int stride_addrs(single_opts *o)
{
    if (o->base > (uint64_t)INT64_MAX) {
        cli_usage_error("--base: '%llu' is out of range",
                        (unsigned long long)o->base);
        return 0;
    }
    for (unsigned i = 0; i < o->arch.warp_size; i++) {
        int64_t elem, byte;
        o->acc.addr[i] = 0;
        if (!((o->acc.mask >> i) & 1u))
            continue;
        if (__builtin_mul_overflow((int64_t)i, o->stride, &elem) ||
            __builtin_add_overflow(elem, (int64_t)o->base, &elem) ||
            __builtin_mul_overflow(elem, (int64_t)o->acc.size, &byte)) {
            cli_usage_error("--stride: lane %u address overflows 64 bits", i);
            return 0;
        }
        if (byte < 0) {
            cli_usage_error("--stride: lane %u would access element %lld, "
                            "before address 0 (raise --base)",
                            i, (long long)elem);
            return 0;
        }
        o->acc.addr[i] = (uint64_t)byte;
    }
    return 1;
}

/* The option texts that are read once the whole command line is in
   (the arch first: --lanes and --mask depend on its warp size). */
typedef struct single_texts {
    const char *arch, *mask, *lanes, *addrs;
    int64_t size;
} single_texts;

/* --size V: 1, 2, 4, 8 or 16 bytes. */
static int parse_size(const char *v, int64_t *size)
{
    if (!cli_parse_i64("--size", v, 0, 1 << 20, size))
        return 0;
    if (*size != 1 && *size != 2 && *size != 4 && *size != 8 && *size != 16) {
        cli_usage_error("--size: '%s' must be 1, 2, 4, 8 or 16", v);
        return 0;
    }
    return 1;
}

/* --op V: ld or st. */
static int parse_op(const char *v, single_opts *o)
{
    if (strcmp(v, "ld") == 0)
        o->acc.op = WM_OP_LD;
    else if (strcmp(v, "st") == 0)
        o->acc.op = WM_OP_ST;
    else {
        cli_usage_error("--op: '%s' is not ld or st", v);
        return 0;
    }
    return 1;
}

/* The option at argv[*i] (and its value, *i moved past it): one branch per
   flag, read as a table of the command's flags. */
static int parse_option(int argc, char **argv, int *i, wm_space space,
                        single_opts *o, single_texts *t)
{
    const char *v;
    int r;
    if ((r = cli_opt(argc, argv, i, "--stride", NULL, &v))) {
        if (r < 0 || !cli_parse_i64("--stride", v, -(INT64_C(1) << 40),
                                    INT64_C(1) << 40, &o->stride))
            return 0;
        o->have_stride = 1;
    } else if ((r = cli_opt(argc, argv, i, "--base", NULL, &v))) {
        if (r < 0 || !cli_parse_u64("--base", v, &o->base))
            return 0;
        o->have_stride = 1;
    } else if ((r = cli_opt(argc, argv, i, "--addrs", NULL, &v))) {
        if (r < 0)
            return 0;
        t->addrs = v;
        o->have_addrs = 1;
    } else if ((r = cli_opt(argc, argv, i, "--size", NULL, &v))) {
        if (r < 0 || !parse_size(v, &t->size))
            return 0;
    } else if ((r = cli_opt(argc, argv, i, "--op", NULL, &v))) {
        if (r < 0 || !parse_op(v, o))
            return 0;
    } else if ((r = cli_opt(argc, argv, i, "--mask", NULL, &v))) {
        if (r < 0)
            return 0;
        t->mask = v;
    } else if ((r = cli_opt(argc, argv, i, "--lanes", NULL, &v))) {
        if (r < 0)
            return 0;
        t->lanes = v;
    } else if ((r = cli_opt(argc, argv, i, "--arch", NULL, &v))) {
        if (r < 0)
            return 0;
        t->arch = v;
    } else if ((r = cli_output_opt(argc, argv, i, &o->out))) {
        if (r < 0)
            return 0;
    } else if (space != WM_SPACE_SHARED &&
               cli_flag(argv, *i, "--local", NULL)) {
        o->acc.space = WM_SPACE_LOCAL;
    } else {
        cli_usage_error("%s: unknown option '%s' (see 'warpmem %s "
                        "--help')",
                        argv[0], argv[*i], argv[0]);
        cli_did_you_mean(argv[0], argv[*i]);
        return 0;
    }
    return 1;
}

/* The active lanes: the warp, or --lanes N of it, then --mask M. */
static int active_lanes(single_opts *o, const single_texts *t)
{
    int64_t lanes = 0;
    o->acc.mask = lanes_mask(o->arch.warp_size);
    if (t->lanes) {
        if (!cli_parse_i64("--lanes", t->lanes, 1, o->arch.warp_size,
                           &lanes))
            return 0;
        o->acc.mask = lanes_mask((unsigned)lanes);
    }
    if (t->mask) {
        uint64_t m;
        if (!cli_parse_u64("--mask", t->mask, &m))
            return 0;
        if (m & ~lanes_mask(o->arch.warp_size)) {
            cli_usage_error("--mask: '%s' names lanes beyond the %u-lane "
                            "warp",
                            t->mask, o->arch.warp_size);
            return 0;
        }
        o->acc.mask &= m;
        if (!o->acc.mask) {
            cli_usage_error("--mask: '%s' leaves no lane active", t->mask);
            return 0;
        }
    }
    return 1;
}

/* Lane addresses from --addrs: the listed lanes stay active, each
   aligned to the access size. */
static int listed_addrs(single_opts *o, const char *addrs_text)
{
    if (!parse_addrs(o, addrs_text))
        return 0;
    o->acc.mask &= lanes_mask(o->naddrs);
    if (!o->acc.mask) {
        cli_usage_error("--addrs: no listed lane is active");
        return 0;
    }
    for (unsigned i = 0; i < o->naddrs; i++)
        if (((o->acc.mask >> i) & 1u) &&
            o->acc.addr[i] % o->acc.size) {
            cli_usage_error("--addrs: lane %u address 0x%" PRIx64
                            " is not aligned to its %u-byte access "
                            "(--size %u)",
                            i, o->acc.addr[i], o->acc.size, o->acc.size);
            return 0;
        }
    return 1;
}

/* The command line to one access: options first, then the arch, the
   active lanes and the lane addresses, in that order. */
static int parse_args(int argc, char **argv, wm_space space, single_opts *o)
{
    single_texts t = {NULL, NULL, NULL, NULL, 4};
    memset(o, 0, sizeof *o);
    o->acc.space = space;
    o->acc.op = WM_OP_LD;
    o->stride = 1;
    cli_output_init(&o->out);
    for (int i = 1; i < argc; i++)
        if (!parse_option(argc, argv, &i, space, o, &t))
            return 0;
    if (!cli_output_check(&o->out))
        return 0;
    o->acc.size = (unsigned)t.size;
    if (!cli_parse_arch(t.arch, &o->arch))
        return 0;
    if (!active_lanes(o, &t))
        return 0;
    if (o->have_addrs && o->have_stride) {
        cli_usage_error("--addrs cannot be combined with --stride/--base");
        return 0;
    }
    if (o->have_addrs)
        return listed_addrs(o, t.addrs);
    return stride_addrs(o);
}

/* A shared access's phases: *plane lanes each (wm_shared_banks: twice
   wm_shared_phase_lanes where CC 7.x uniform pairs share bank slots),
   returning how many hold an active lane. */
static unsigned shared_phases(const wm_arch *arch, const wm_access *a,
                              unsigned *plane)
{
    int phase[WM_MAX_LANES];
    unsigned n = 0, used = 0;
    *plane = wm_shared_phase_lanes(arch, a->size);
    if (wm_shared_banks(arch, a, NULL, phase, NULL) != WM_OK)
        return 0;
    for (unsigned i = 0; i < arch->warp_size; i++)
        n += phase[i] == 0;
    if (!n) /* lane 0 is always in phase 0 */
        return 0;
    *plane = n;
    for (unsigned lo = 0; lo < arch->warp_size; lo += n)
        used += ((a->mask >> lo) & lanes_mask(n)) != 0;
    return used;
}

/* Requested bytes over what the wavefronts (or sectors) could carry; a
   wavefront carries pack lanes per bank slot. */
static double efficiency_pct(const wm_counts *c, const wm_arch *arch,
                             wm_space sp, unsigned pack)
{
    double moved = sp == WM_SPACE_SHARED
                       ? (double)c->wavefronts * arch->banks *
                             arch->bank_bytes * pack
                       : (double)c->sectors * arch->sector_bytes;
    return moved > 0 ? 100.0 * (double)c->bytes / moved : 0.0;
}

static void describe(FILE *f, const single_opts *o, const wm_counts *c)
{
    fprintf(f, "%s %s, %s, %u B per lane, %u of %u lanes active", o->arch.name,
            wm_space_name(o->acc.space), wm_op_name(o->acc.op), o->acc.size,
            c->active, o->arch.warp_size);
    if (o->have_addrs)
        fprintf(f, ", explicit addresses\n");
    else
        fprintf(f, ", stride %lld element%s (%lld B) from element %llu\n",
                (long long)o->stride, o->stride == 1 ? "" : "s",
                (long long)o->stride * (long long)o->acc.size,
                (unsigned long long)o->base);
}

static void print_text(const single_opts *o, const wm_counts *c)
{
    const wm_access *a = &o->acc;
    describe(stdout, o, c);
    wm_draw_access(stdout, &o->arch, a, o->out.color, cli_term_width());
    putchar('\n');
    if (a->space == WM_SPACE_SHARED) {
        unsigned plane, nph = shared_phases(&o->arch, a, &plane);
        unsigned pack = plane / wm_shared_phase_lanes(&o->arch, a->size);
        if (nph <= 1)
            printf("  wavefronts        %u   (ideal %u, %u-way busiest "
                   "bank)\n", c->wavefronts, c->ideal_wavefronts, c->nway);
        else /* the n-way metric counts the phases too: no "-way" here */
            printf("  wavefronts        %u   (ideal %u; %u phases of %u "
                   "lanes, at most %u word%s per bank in each)\n",
                   c->wavefronts, c->ideal_wavefronts, nph, plane, c->nway,
                   c->nway == 1 ? "" : "s");
        printf("  bank conflicts    %u%s\n", c->conflicts,
               c->conflicts ? "" : "   (conflict-free)");
        if (pack > 1)
            printf("  bytes requested   %llu in %u wavefronts of %u lanes "
                   "(%u per bank slot: uniform pairs) -> %.1f%% of shared "
                   "bandwidth\n",
                   (unsigned long long)c->bytes, c->wavefronts, plane, pack,
                   efficiency_pct(c, &o->arch, a->space, pack));
        else
            printf("  bytes requested   %llu in %u x %u B wavefronts -> "
                   "%.1f%% of shared bandwidth\n",
                   (unsigned long long)c->bytes, c->wavefronts,
                   o->arch.banks * o->arch.bank_bytes,
                   efficiency_pct(c, &o->arch, a->space, 1));
    } else {
        unsigned excess =
            c->sectors > c->ideal_sectors ? c->sectors - c->ideal_sectors : 0;
        printf("  requests          %u\n", c->requests);
        printf("  sectors           %u   (ideal %u, excessive %u)\n",
               c->sectors, c->ideal_sectors, excess);
        printf("  lines (tags)      %u\n", c->tags);
        printf("  bytes requested   %llu of %llu moved -> efficiency %.1f%%\n",
               (unsigned long long)c->bytes,
               (unsigned long long)c->sectors * o->arch.sector_bytes,
               efficiency_pct(c, &o->arch, a->space, 1));
    }
}

/* Totals of a one-access aggregator, for the metric writers. */
static int one_access_totals(const single_opts *o, wm_totals *t)
{
    wm_agg *g = wm_agg_new(&o->arch);
    if (!g)
        return 0;
    wm_status st = wm_agg_add(g, &o->acc, NULL);
    wm_agg_totals(g, t);
    wm_agg_free(g);
    return st == WM_OK;
}

static void print_metrics_text(const wm_totals *t)
{
    printf("\nNsight Compute metrics:\n");
    for (size_t i = 0; i < wm_metric_count(); i++) {
        if (!wm_metric_relevant(t, i))
            continue;
        double v = wm_metric_value(t, i);
        if (wm_metric_is_count(i))
            printf("  %-70s %.0f\n", wm_metric_name(i), v);
        else
            printf("  %-70s %.2f\n", wm_metric_name(i), v);
    }
}

/* --html FILE: a one-site report of this access. */
static int write_html(const single_opts *o, int argc, char **argv)
{
    char cmd[1024], label[160];
    wm_agg *g = wm_agg_new(&o->arch);
    if (!g)
        return cli_error("out of memory");
    wm_status st = wm_agg_add(g, &o->acc, NULL);
    if (st == WM_OK) {
        if (o->have_addrs)
            snprintf(label, sizeof label, "%s %s.%u, explicit addresses",
                     wm_space_name(o->acc.space), wm_op_name(o->acc.op),
                     o->acc.size * 8);
        else
            snprintf(label, sizeof label,
                     "%s %s.%u, lane i at element %llu + i * %lld",
                     wm_space_name(o->acc.space), wm_op_name(o->acc.op),
                     o->acc.size * 8, (unsigned long long)o->base,
                     (long long)o->stride);
        st = wm_agg_label(g, o->acc.site, label, "", 0);
    }
    cli_command_line(argc, argv, cmd, sizeof cmd);
    wm_html_opts opts = {0};
    opts.title = "warpmem report";
    opts.command = cmd;
    errno = 0;
    if (st == WM_OK)
        st = wm_html_report_file(o->out.html, g, &opts);
    wm_agg_free(g);
    if (st == WM_ERR_IO) {
        char what[1100];
        snprintf(what, sizeof what, "'%s' (--html)", o->out.html);
        return cli_write_error(what, errno);
    }
    if (st != WM_OK)
        return cli_error("--html: %s", wm_status_str(st));
    return WM_EXIT_OK;
}

int cli_single_access(int argc, char **argv, wm_space space)
{
    single_opts o;
    wm_counts c;
    wm_totals t;
    for (int i = 1; i < argc; i++)
        if (cli_is_help(argv[i])) {
            usage(stdout, space);
            return WM_EXIT_OK;
        }
    if (!parse_args(argc, argv, space, &o))
        return WM_EXIT_USAGE;
    wm_status st = wm_count(&o.arch, &o.acc, &c);
    if (st != WM_OK)
        return cli_error("%s", wm_status_str(st));
    if (!one_access_totals(&o, &t))
        return cli_error("out of memory");
    wm_advice adv;
    if (o.out.explain && (st = wm_advise(&o.arch, &o.acc, &adv)) != WM_OK)
        return cli_error("--explain: %s", wm_status_str(st));
    switch (o.out.format) {
    case WM_FMT_TEXT:
        print_text(&o, &c);
        if (o.out.explain) {
            putchar('\n');
            wm_advise_print(stdout, &adv, o.out.color, cli_term_width());
        }
        print_metrics_text(&t);
        break;
    case WM_FMT_JSON:
    case WM_FMT_CSV:
    case WM_FMT_NCU_CSV:
    case WM_FMT_NCU_RAW:
        st = wm_access_report(stdout, &o.arch, &o.acc, o.out.format,
                              o.out.explain);
        if (st == WM_ERR_IO)
            return cli_write_error("standard output", errno);
        if (st != WM_OK)
            return cli_error("%s", wm_status_str(st));
        break;
    }
    if (o.out.html)
        return write_html(&o, argc, argv);
    return WM_EXIT_OK;
}
