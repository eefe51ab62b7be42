/*
 * test_html.c -- the HTML writers: escaping, the SVG drawings (golden
 * files pin their structure; element counts are checked against the
 * model), charts, the report over an aggregator (worst site first), I/O
 * errors.  With WM_ARTIFACT_DIR set it also writes report.html and
 * charts.html there for the XML and Chromium checks (tests/html_*.sh|py).
 */
#define _POSIX_C_SOURCE 200809L
#include "html_int.h"
#include "check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Run fn into a string (caller frees). */
#define CAPTURE(buf, len, stmt)                                               \
    do {                                                                      \
        FILE *cap_ = open_memstream(&(buf), &(len));                          \
        FILE *f = cap_;                                                       \
        stmt;                                                                 \
        fclose(cap_);                                                         \
    } while (0)

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

static wm_access strided(wm_space sp, unsigned size, uint64_t base,
                         int64_t stride)
{
    wm_access a;
    memset(&a, 0, sizeof a);
    a.space = sp;
    a.op = WM_OP_LD;
    a.size = size;
    a.mask = 0xffffffffu;
    for (unsigned i = 0; i < 32; i++)
        a.addr[i] = base + (uint64_t)((int64_t)i * stride);
    return a;
}

/* Compare text with a golden file; WM_UPDATE_GOLDEN=1 rewrites it. */
static void golden(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/tests/golden/%s", WM_SOURCE_DIR, name);
    const char *up = getenv("WM_UPDATE_GOLDEN");
    if (up && strcmp(up, "1") == 0) {
        FILE *f = fopen(path, "w");
        CHECK(f != NULL);
        if (f) {
            fputs(text, f);
            fclose(f);
        }
        return;
    }
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (!f)
        return;
    static char want[1 << 20];
    size_t n = fread(want, 1, sizeof want - 1, f);
    want[n] = '\0';
    fclose(f);
    int same = strcmp(want, text) == 0;
    CHECK(same);
    if (!same)
        fprintf(stderr, "  %s differs (run with WM_UPDATE_GOLDEN=1 to "
                        "accept)\n", path);
}

static void test_escape(void)
{
    char *b = NULL;
    size_t n = 0;
    CAPTURE(b, n, wmi_html_escape(f, "a<b & \"c\" 'd'>"));
    CHECK(strcmp(b, "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;") == 0);
    free(b);
    /* Controls dropped (tab/newline kept), bad UTF-8 -> U+FFFD, good
     * multibyte text and the arrow kept. */
    CAPTURE(b, n, wmi_html_escape(f, "x\x01y\tz\n\xff\xc3\xa9\xe2\x86\x92"
                                     "\xed\xa0\x80"));
    CHECK(strcmp(b, "xy\tz\n\xef\xbf\xbd\xc3\xa9\xe2\x86\x92"
                    "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd") == 0);
    free(b);
    CAPTURE(b, n, wmi_html_escape(f, NULL));
    CHECK(strcmp(b, "") == 0);
    free(b);
}

static void test_svg_banks(const wm_arch *arch)
{
    char *b = NULL;
    size_t n = 0;
    wm_access a = strided(WM_SPACE_SHARED, 4, 0, 128);
    CAPTURE(b, n, wmi_svg_banks(f, arch, &a));
    /* 32 lane cells in bank 0, its busiest-phase cell, legend swatch:
     * all in the 17+ colour. */
    CHECK_EQ(count(b, "fill=\"#7f0000\""), 34);
    CHECK_EQ(count(b, "fill=\"#8bc34a\""), 1); /* legend only */
    CHECK(strstr(b, "32 wavefronts (ideal 1), 32-way conflict") != NULL);
    CHECK(strstr(b, "phase 0: 32 wavefronts") != NULL);
    CHECK_EQ(count(b, "<svg "), 1);
    CHECK_EQ(count(b, "</svg>"), 1);
    golden("svg_banks_stride32.svg", b);
    free(b);

    /* Padded [32][33]: one green cell per lane, 32 green summary cells. */
    a = strided(WM_SPACE_SHARED, 4, 0, 132);
    CAPTURE(b, n, wmi_svg_banks(f, arch, &a));
    CHECK_EQ(count(b, "fill=\"#8bc34a\""), 32 + 32 + 1);
    CHECK(strstr(b, "1 wavefront (ideal 1), conflict-free") != NULL);
    free(b);

    /* 16-byte lanes: 4 phases of 8 lanes, 4 cells per lane, 32 summary
     * cells and the legend. */
    a = strided(WM_SPACE_SHARED, 16, 0, 16);
    CAPTURE(b, n, wmi_svg_banks(f, arch, &a));
    CHECK_EQ(count(b, "fill=\"#8bc34a\""), 128 + 32 + 1);
    CHECK_EQ(count(b, "wavefront</text>"), 4);
    CHECK_EQ(count(b, "stroke-width=\"1.5\""), 3); /* phase boundaries */
    free(b);
}

static void test_svg_sectors(const wm_arch *arch)
{
    char *b = NULL;
    size_t n = 0;
    const char *frame = "fill=\"#f1f3f6\" stroke=\"#4b5563\"";
    const char *empty = "stroke-dasharray=\"3 2\"";
    /* Misaligned run: 5 sectors in 2 lines, all slots shown (8). */
    wm_access a = strided(WM_SPACE_GLOBAL, 4, 4, 4);
    CAPTURE(b, n, wmi_svg_sectors(f, arch, &a));
    CHECK_EQ(count(b, frame), 5);
    CHECK_EQ(count(b, empty), 3);
    CHECK_EQ(count(b, "<path d=\"M") - count(b, "v4H"), 32); /* curves */
    CHECK(strstr(b, "5 sectors in 2 lines (ideal 4); 128 of 160 bytes") !=
          NULL);
    golden("svg_sectors_misaligned.svg", b);
    free(b);

    /* Column walk: 32 lines do not fit with empty slots: compact. */
    a = strided(WM_SPACE_GLOBAL, 4, 0x10000, 128);
    CAPTURE(b, n, wmi_svg_sectors(f, arch, &a));
    CHECK_EQ(count(b, frame), 32);
    CHECK_EQ(count(b, empty), 0);
    CHECK(strstr(b, "128 of 1024 bytes moved are used") != NULL);
    free(b);

    /* Half the lanes off: grey lanes, no curve for them. */
    a = strided(WM_SPACE_GLOBAL, 4, 0, 4);
    a.mask = 0x0000ffffu;
    CAPTURE(b, n, wmi_svg_sectors(f, arch, &a));
    CHECK_EQ(count(b, frame), 2);
    CHECK_EQ(count(b, "fill=\"#e5e7eb\""), 16);
    free(b);

    /* Local 8-byte lanes at the same offset: two words per lane, 16
     * sectors, each full. */
    a = strided(WM_SPACE_LOCAL, 8, 0, 0);
    wm_counts c;
    CHECK_EQ(wm_count(arch, &a, &c), WM_OK);
    CAPTURE(b, n, wmi_svg_sectors(f, arch, &a));
    CHECK_EQ(count(b, frame), c.sectors);
    free(b);
}

static void test_charts(void)
{
    char *b = NULL;
    size_t n = 0;
    double x[5] = {1, 2, 4, 8, 16}, y[5] = {100, 50, (double)NAN, 12.5, 6.25};
    double m[5] = {100, 50, 25, 12.5, 12.5};
    wm_series s[2] = {{"measured <a&b>", 5, x, y, 0},
                      {"sector model", 5, x, m, 1}};
    wm_chart c = {"Bandwidth vs stride", "stride", "GB/s", 1, 0, 0};
    CAPTURE(b, n, wmi_svg_line_chart(f, &c, s, 2));
    CHECK_EQ(count(b, "<circle"), 4 + 1); /* 4 points + legend marker */
    CHECK(strstr(b, "measured &lt;a&amp;b&gt;") != NULL);
    CHECK(strstr(b, ">sector model</text>") != NULL);
    CHECK_EQ(count(b, "stroke-dasharray=\"6 4\""), 2); /* line, legend */
    /* The NaN splits the measured line: two moves. */
    const char *g = strstr(b, "<g fill=\"none\"");
    CHECK(g != NULL);
    if (g) {
        const char *end = strstr(g, "\"/>");
        size_t moves = 0;
        for (const char *p = g; p < end; p++)
            moves += *p == 'M';
        CHECK_EQ(moves, 2);
    }
    CHECK(strstr(b, ">16</text>") != NULL); /* power-of-two ticks */
    free(b);

    const char *labels[3] = {"naive", "padded [32][33]", "swizzled"};
    double v[3] = {900, 3900, 3950}, p[3] = {537, 4300, 4300};
    wm_series bs[2] = {{"measured", 3, NULL, v, 0},
                       {"model", 3, NULL, p, 1}};
    wm_chart bc = {"Transpose", "kernel", "GB/s", 0, 0, 0};
    CAPTURE(b, n, wmi_svg_bar_chart(f, &bc, labels, 3, bs, 2));
    CHECK_EQ(count(b, "fill=\"#1f77b4\""), 3 + 1); /* bars + legend */
    CHECK(strstr(b, ">3950</text>") != NULL);
    CHECK(strstr(b, ">model</text>") != NULL); /* no "(model)" twice */
    free(b);
}

/* Source lines for the report test. */
static const char *source_line(void *ctx, const char *file, uint32_t line)
{
    static char buf[128];
    (void)ctx;
    snprintf(buf, sizeof buf, "%s line %u: out[x * W + y] = in[y * W + x];",
             file, line);
    return buf;
}

/* The lesson's cases as sites of one aggregator. */
static wm_agg *lesson_agg(const wm_arch *arch)
{
    wm_agg *g = wm_agg_new(arch);
    wm_access a = strided(WM_SPACE_GLOBAL, 4, 0x10000, 128);
    a.site = 1;
    wm_agg_add(g, &a, NULL);
    wm_agg_label(g, 1, "in[y * W + x] with threadIdx.x walking y",
                 "transpose.cu", 12);
    a = strided(WM_SPACE_SHARED, 4, 0, 128);
    a.site = 2;
    wm_agg_add(g, &a, NULL);
    wm_agg_label(g, 2, "tile[threadIdx.x][threadIdx.y]", "transpose.cu",
                 20);
    a = strided(WM_SPACE_GLOBAL, 4, 4, 4);
    a.site = 3;
    wm_agg_add(g, &a, NULL);
    wm_agg_label(g, 3, "a[i + 1]", "offset.cu", 7);
    a = strided(WM_SPACE_GLOBAL, 4, 0, 4);
    a.site = 4;
    wm_agg_add(g, &a, NULL);
    wm_agg_label(g, 4, "a[i] (float)", "copy.cu", 5);
    return g;
}

static void test_report(const wm_arch *arch)
{
    char *b = NULL;
    size_t n = 0;
    wm_agg *g = lesson_agg(arch);
    wm_html_opts o = {0};
    o.title = "lesson <cases>";
    o.command = "warpmem demo --html x.html";
    o.source = source_line;
    wm_status st = WM_OK;
    CAPTURE(b, n, st = wm_html_report(f, g, &o));
    CHECK_EQ(st, WM_OK);
    /* Worst first: shared (31 excess), stride 32 (28), misaligned (1),
     * coalesced (0). */
    const char *s2 = strstr(b, "id=\"site-2-shared-ld\"");
    const char *s1 = strstr(b, "id=\"site-1-global-ld\"");
    const char *s3 = strstr(b, "id=\"site-3-global-ld\"");
    const char *s4 = strstr(b, "id=\"site-4-global-ld\"");
    CHECK(s1 && s2 && s3 && s4 && s2 < s1 && s1 < s3 && s3 < s4);
    CHECK(strstr(b, "<title>lesson &lt;cases&gt;</title>") != NULL);
    CHECK(strstr(b, "transpose.cu line 20: out[x") != NULL);
    CHECK(strstr(b, "32 \xe2\x86\x92 1 wavefronts per request") != NULL);
    CHECK(strstr(b, "32 \xe2\x86\x92 4 sectors per request") != NULL);
    CHECK(strstr(b, "5 \xe2\x86\x92 4 sectors per request") != NULL);
    CHECK(strstr(b, "4 \xe2\x86\x92 1 requests for the same 512 bytes") !=
          NULL);
    CHECK(strstr(b, "memory_l1_wavefronts_shared") != NULL);
    CHECK(strstr(b, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") !=
          NULL);
    CHECK(strstr(b, "<script") == NULL);
    /* Each site: its worst warp, and an after-drawing when a fix exists
     * (all four have one); the excess per line.  The worst line made one
     * request: no histogram. */
    CHECK_EQ(count(b, "<svg "), 9);
    CHECK(strstr(b, "id=\"excess-chart\"") != NULL);
    CHECK(strstr(b, "id=\"histogram\"") == NULL);
    /* The summary comes before the totals; one source row per line. */
    const char *sum = strstr(b, "<!-- summary -->");
    const char *tot = strstr(b, "<h2>Kernel totals</h2>");
    CHECK(sum && tot && sum < tot && sum < s2);
    CHECK_EQ(count(b, "<tr class=\"src"), 4);
    free(b);

    o.max_sites = 1;
    CAPTURE(b, n, st = wm_html_report(f, g, &o));
    CHECK_EQ(count(b, "<section class=\"site\""), 1);
    CHECK(strstr(b, "3 more lines not shown.") != NULL);
    /* rows of lines without a detail section carry no dangling link */
    CHECK_EQ(count(b, "<a href=\"#d"), 2); /* summary + its row */
    free(b);

    /* I/O errors are reported. */
    FILE *full = fopen("/dev/full", "w");
    if (full) {
        CHECK_EQ(wm_html_report(full, g, NULL), WM_ERR_IO);
        fclose(full);
    }
    CHECK_EQ(wm_html_report_file("/nonexistent-dir/x.html", g, NULL),
             WM_ERR_IO);
    CHECK_EQ(wm_html_report(NULL, g, NULL), WM_ERR_ARG);
    CHECK(wm_html_begin(NULL, "x") == NULL);
    CHECK_EQ(wm_html_end(NULL), WM_OK);
    wm_agg_free(g);
}

/* ---- the report's page model: rows, inlined lines, heat, histogram ---- */

static const char *file_line(void *ctx, const char *file, uint32_t line)
{
    static char buf[128];
    (void)ctx;
    snprintf(buf, sizeof buf, "    line %u of %s", line, file);
    return buf;
}

static uint32_t file_nlines(void *ctx, const char *file)
{
    (void)ctx;
    return strcmp(file, "k.cu") == 0 ? 14 : 0;
}

/* Site 5 is helper.cuh:3 inlined at k.cu:12. */
static int site_where(void *ctx, uint32_t site, wm_html_where *out)
{
    (void)ctx;
    out->ptx_line = 100 + site;
    out->ptx = site == 5 ? "ld.shared.f32 %f1, [%r1]" : "ld.global.f32 %f2, [%rd1]";
    if (site == 5) {
        out->call_file = "k.cu";
        out->call_line = 12;
    }
    return 1;
}

static wm_agg *page_agg(const wm_arch *arch)
{
    wm_agg *g = wm_agg_new(arch);
    wm_access a = strided(WM_SPACE_GLOBAL, 4, 0, 128); /* 32 sectors */
    a.site = 1;
    wm_agg_add(g, &a, NULL);
    a = strided(WM_SPACE_GLOBAL, 4, 0, 4); /* 4 sectors, the ideal */
    a.site = 1;
    wm_agg_add(g, &a, NULL);
    a.site = 2;
    wm_agg_add(g, &a, NULL);
    wm_agg_label(g, 1, "", "k.cu", 12);
    wm_agg_label(g, 2, "", "k.cu", 7);
    a = strided(WM_SPACE_SHARED, 4, 0, 128); /* 32-way conflict */
    a.site = 5;
    wm_agg_add(g, &a, NULL);
    wm_agg_label(g, 5, "", "helper.cuh", 3);
    a = strided(WM_SPACE_GLOBAL, 4, 0, 4);
    a.site = 6; /* code the compiler hoisted: k.cu, line 0 */
    wm_agg_add(g, &a, NULL);
    wm_agg_label(g, 6, "ld.global.f32 %f3, [%rd2]", "k.cu", 0);
    return g;
}

static void test_page(const wm_arch *arch)
{
    wm_agg *g = page_agg(arch);
    wm_html_opts o = {0};
    o.source = file_line;
    o.nlines = file_nlines;
    o.where = site_where;
    wmi_hpage p;
    CHECK_EQ(wmi_hpage_build(&p, g, &o), WM_OK);
    /* k.cu:7, k.cu:12 (with the inlined helper line under it) and the
       hoisted instruction's row */
    CHECK_EQ(p.nlines, 3);
    CHECK_EQ(p.nfiles, 1);
    const wmi_hline *l12 = wmi_hpage_find(&p, "k.cu", 12);
    const wmi_hline *l7 = wmi_hpage_find(&p, "k.cu", 7);
    CHECK(l12 && l7 && !wmi_hpage_find(&p, "helper.cuh", 3));
    if (l12 && l7) {
        CHECK_EQ(l12->count, 2);
        CHECK_EQ(l12->nsub, 1);
        CHECK(strcmp(p.subs[l12->sub].file, "helper.cuh") == 0);
        CHECK_EQ(p.subs[l12->sub].line, 3);
        /* 2 global requests: 32 + 4 sectors, ideal 8: 28 excessive */
        CHECK_EQ(l12->sec.requests, 2);
        CHECK_EQ(l12->sec.excessive_sectors, 28);
        CHECK_EQ(l12->shr.conflicts, 31);
        /* the kernel's excess is all this line's: full heat */
        CHECK(l12->heat == 1.0);
        CHECK_EQ(l12->rank, 1);
        /* shared: 31 of 32 wavefronts; global: 28 of 44 sectors */
        CHECK(fabs(l12->share - 31.0 / 32.0) < 1e-12);
        CHECK_EQ(l12->sev, WM_SEV_HIGH);
        CHECK_EQ(l7->rank, 0);
        CHECK(l7->heat == 0.0);
    }
    CHECK_EQ(p.nranked, 1);
    wmi_hpage_free(&p);

    char *b = NULL;
    size_t n = 0;
    wm_status st = WM_OK;
    CAPTURE(b, n, st = wm_html_report(f, g, &o));
    CHECK_EQ(st, WM_OK);
    /* every line of k.cu is a row, and the hoisted instruction one of its
       own; the helper row sits under line 12 */
    CHECK_EQ(count(b, "<tr class=\"src"), 15);
    const char *hoisted = strstr(b, "<h3>Instructions without a source "
                                    "line</h3>");
    CHECK(hoisted && strstr(hoisted, "id=\"sp6\"") &&
          strstr(hoisted, "ld.global.f32 %f3, [%rd2]"));
    CHECK(strstr(b, " data-lines=\"14\"") != NULL);
    const char *r12 = strstr(b, "<tr class=\"src hot\" id=\"s0-12\">");
    const char *inl = strstr(b, "<tr class=\"inl\">");
    const char *r13 = strstr(b, "id=\"s0-13\"");
    CHECK(r12 && inl && r13 && r12 < inl && inl < r13);
    CHECK(strstr(b, "inlined helper.cuh:3</span>     line 3 of helper.cuh") !=
          NULL);
    /* row 12: 3 requests (2 global, 1 shared), 18 / 4 sectors per request,
       32 / 1 wavefronts, 31 conflicts, 97% */
    CHECK(strstr(b, "<td>3</td><td>18.00 <span class=\"muted\">/ 4.00</span>"
                    "</td><td>32.00 <span class=\"muted\">/ 1.00</span></td>"
                    "<td>31</td><td class=\"t-high\">97%</td>") != NULL);
    /* both problems of the line in the summary, the worst first */
    const char *shr = strstr(b, "<b>shared ld:</b> 32-way bank conflict");
    const char *glb = strstr(b, "<b>global ld:</b> strided access");
    const char *end = strstr(b, "<!-- /summary -->");
    CHECK(shr && glb && end && glb < end && shr < end);
    CHECK(strstr(b, "31 excessive wavefronts: 97% of the kernel&#39;s 32 "
                    "shared wavefronts") != NULL ||
          strstr(b, "31 excessive wavefronts: 97% of the kernel's 32 shared "
                    "wavefronts") != NULL);
    CHECK(strstr(b, "28 excessive sectors: 64% of the kernel's 44 global "
                    "sectors") != NULL);
    /* k.cu:7 and the hoisted load are at the ideal, but 16-byte vectors
       would still help */
    CHECK(strstr(b, "2 lines at the ideal that the advisor would still "
                    "change (fewer requests for the same bytes): <a "
                    "href=\"#dp6\">site 6</a>, <a href=\"#d0-7\">k.cu:7</a>."
                    "</p>") != NULL);
    /* the PTX panel lists the three instructions in PTX order */
    const char *p1 = strstr(b, ">101</a>"), *p2 = strstr(b, ">102</a>"),
               *p5 = strstr(b, ">105</a>");
    CHECK(p1 && p2 && p5 && p1 < p2 && p2 < p5);
    /* the histogram of line 12's worst kind: its one shared request */
    CHECK(strstr(b, "wavefronts per request over the 1 requests of k.cu:12 "
                    "(shared ld)") != NULL);
    free(b);
    wm_agg_free(g);
}

/* The aggregator's per-request histogram behind the page's chart. */
static void test_hist(const wm_arch *arch)
{
    wm_agg *g = wm_agg_new(arch);
    wm_access a = strided(WM_SPACE_GLOBAL, 4, 0, 128);
    wm_agg_add(g, &a, NULL);
    wm_agg_add(g, &a, NULL);
    a = strided(WM_SPACE_GLOBAL, 4, 0, 4);
    wm_agg_add(g, &a, NULL);
    a = strided(WM_SPACE_GLOBAL, 8, 0, 64 * 8); /* 8-byte lanes, 32 lines */
    a.size = 8;
    wm_agg_add(g, &a, NULL);
    const uint32_t *h = wmi_agg_site_hist(g, 0);
    CHECK(h != NULL);
    if (h) {
        uint64_t total = 0;
        for (unsigned i = 0; i <= WM_HIST_MAX; i++)
            total += h[i];
        CHECK_EQ(total, 4);
        CHECK_EQ(h[32], 3); /* the two strided 4-byte and the 8-byte one */
        CHECK_EQ(h[4], 1);
    }
    CHECK(wmi_agg_site_hist(g, 1) == NULL);
    wm_agg_free(g);
}

/* Pages for the XML and Chromium checks. */
static void write_artifacts(const wm_arch *arch, const char *dir)
{
    char path[1024];
    wm_agg *g = lesson_agg(arch);
    wm_html_opts o = {0};
    o.title = "warpmem report: the lesson's cases";
    o.command = "test_html (lesson cases)";
    o.source = source_line;
    snprintf(path, sizeof path, "%s/report.html", dir);
    CHECK_EQ(wm_html_report_file(path, g, &o), WM_OK);
    wm_agg_free(g);

    snprintf(path, sizeof path, "%s/charts.html", dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    wm_html *h = wm_html_begin(f, "warpmem charts");
    wm_html_heading(h, 1, "Charts");
    wm_html_text(h, "Synthetic numbers: the chart API, not a measurement.");
    double x[8] = {1, 2, 4, 8, 16, 32, 64, 128}, y[8], m[8];
    for (int i = 0; i < 8; i++) {
        m[i] = 4000.0 * 4 / (x[i] < 8 ? 4 * x[i] : 32);
        y[i] = m[i] * 0.92;
    }
    wm_series s[2] = {{"copy", 8, x, y, 0}, {"sector model", 8, x, m, 1}};
    wm_chart c = {"Bandwidth vs stride", "stride (elements)", "GB/s", 1, 0,
                  0};
    wm_html_line_chart(h, &c, s, 2);
    const char *labels[4] = {"copy", "naive", "padded [32][33]", "swizzled"};
    double v[4] = {4000, 900, 3700, 3750}, p[4] = {4000, 500, 4000, 4000};
    wm_series bs[2] = {{"measured", 4, NULL, v, 0},
                       {"model", 4, NULL, p, 1}};
    wm_chart bc = {"Transpose", "kernel", "GB/s", 0, 0, 0};
    wm_html_bar_chart(h, &bc, labels, 4, bs, 2);
    wm_html_pre(h, "a < b && c > d");
    CHECK_EQ(wm_html_end(h), WM_OK);
    fclose(f);
}

int main(void)
{
    const wm_arch *arch = wm_arch_default();
    test_escape();
    test_svg_banks(arch);
    test_svg_sectors(arch);
    test_charts();
    test_report(arch);
    test_page(arch);
    test_hist(arch);
    const char *dir = getenv("WM_ARTIFACT_DIR");
    if (dir && *dir)
        write_artifacts(arch, dir);
    return check_done("test_html");
}
