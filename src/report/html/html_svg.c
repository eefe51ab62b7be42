/*
 * html_svg.c -- drawings of one warp access as inline SVG.
 *
 * Global/local: a lane -> sector map.  The warp's lanes form the top row;
 * below are the 32-byte sectors the access touches, grouped by 128-byte
 * line, each filled where lanes use its bytes; a curve joins every lane
 * to its sector.  Waste shows as empty sector space, scatter as crossing
 * curves.  Shared: a lane -> bank heatmap, one row per lane and one
 * column per bank, a cell coloured by how many distinct words its bank
 * serves in that lane's phase (docs/design/memory-model.md §2): a
 * conflict is a red column.  The numbers in the titles come from
 * wm_count(); the drawing only illustrates them.
 */
#include "html_int.h"

#include <math.h>

#define VIEW_W 960.0
#define LEFT 64.0
#define RIGHT 16.0
#define FONT "font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\""

void wmi_svg_num(FILE *f, double v)
{
    long long t = llround(v * 10.0);
    if (t < 0) {
        fputc('-', f);
        t = -t;
    }
    if (t % 10)
        fprintf(f, "%lld.%lld", t / 10, t % 10);
    else
        fprintf(f, "%lld", t / 10);
}

/* Attribute helper: name="number". */
static void attr(FILE *f, const char *name, double v)
{
    fprintf(f, " %s=\"", name);
    wmi_svg_num(f, v);
    fputc('"', f);
}

static void rect(FILE *f, double x, double y, double w, double h,
                 const char *style)
{
    if (w < 0.5) /* slots of a few pixels: a hairline, not an invalid size */
        w = 0.5;
    fputs("<rect", f);
    attr(f, "x", x);
    attr(f, "y", y);
    attr(f, "width", w);
    attr(f, "height", h);
    fprintf(f, " %s/>\n", style);
}

/* <text> at (x, y) with extra attributes and escaped content. */
static void text(FILE *f, double x, double y, const char *extra,
                 const char *s)
{
    fputs("<text", f);
    attr(f, "x", x);
    attr(f, "y", y);
    fprintf(f, "%s%s>", *extra ? " " : "", extra);
    wmi_html_escape(f, s);
    fputs("</text>\n", f);
}

/* Colour of the i-th touched sector: golden-angle hues keep neighbours
 * apart. */
static double hue(unsigned i)
{
    return fmod(205.0 + 137.508 * i, 360.0);
}

static void svg_open(FILE *f, double h, const char *label)
{
    fputs("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"map\"", f);
    fprintf(f, " viewBox=\"0 0 %d ", (int)VIEW_W);
    wmi_svg_num(f, h);
    fprintf(f, "\" width=\"%d\"", (int)VIEW_W);
    attr(f, "height", h);
    fputs(" role=\"img\" aria-label=\"", f);
    wmi_html_escape(f, label);
    fprintf(f, "\" " FONT " font-size=\"11\">\n");
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* Index of v in the sorted array s[n] (present by construction). */
static unsigned find(const uint64_t *s, unsigned n, uint64_t v)
{
    unsigned lo = 0, hi = n;
    while (hi - lo > 1) {
        unsigned mid = (lo + hi) / 2;
        if (s[mid] <= v)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/*
 * The byte ranges the cache sees for lane i: its access, or for local
 * memory its 4-byte words at their interleaved places
 * (docs/design/memory-model.md §1): word w of lane i sits at
 * (w * warp + i) * 4.  Returns the count.
 */
static unsigned pieces(const wm_arch *arch, const wm_access *a, unsigned i,
                       uint64_t start[4], unsigned len[4])
{
    if (a->space != WM_SPACE_LOCAL || a->size < 4) {
        uint64_t b = a->addr[i];
        if (a->space == WM_SPACE_LOCAL)
            b = ((b >> 2) * arch->warp_size + i) * 4 + (b & 3);
        start[0] = b;
        len[0] = a->size;
        return 1;
    }
    unsigned n = a->size / 4;
    for (unsigned k = 0; k < n; k++) {
        start[k] = ((a->addr[i] / 4 + k) * arch->warp_size + i) * 4;
        len[k] = 4;
    }
    return n;
}

/* ---- lane -> sector map ------------------------------------------------- */

/* A lane's pieces touch at most 4 sectors. */
enum { MAX_SECTORS = 4 * WM_MAX_LANES };

/* What the parts of the sector map share: the touched sectors and where
 * they are drawn. */
typedef struct secmap {
    const wm_arch *arch;
    const wm_access *a;
    unsigned n;       /* lanes */
    uint64_t m;       /* active lanes */
    unsigned sb, spl; /* sector bytes, sectors per line */
    unsigned nsec, nlines;
    uint64_t sec[MAX_SECTORS];     /* touched sectors, ascending */
    uint64_t line_of[MAX_SECTORS]; /* the line of sec[k] */
    double sx[MAX_SECTORS];        /* left edge of touched sector k */
    double aw, gap, sw; /* drawing width, gap between lines, slot width */
    double ys, hs;      /* top and height of the sector row */
    int full;           /* every sector of a touched line has a slot */
} secmap;

/* Distinct sectors of every piece's first and last byte (a piece spans at
 * most two: sectors are at least 16 bytes), and the lines they fall in. */
static void sec_collect(secmap *sm)
{
    unsigned nsec = 0;
    for (unsigned i = 0; i < sm->n; i++) {
        uint64_t ps[4];
        unsigned pl[4];
        if (!((sm->m >> i) & 1))
            continue;
        unsigned np = pieces(sm->arch, sm->a, i, ps, pl);
        for (unsigned k = 0; k < np; k++) {
            sm->sec[nsec++] = ps[k] / sm->sb;
            if ((ps[k] + pl[k] - 1) / sm->sb != ps[k] / sm->sb)
                sm->sec[nsec++] = (ps[k] + pl[k] - 1) / sm->sb;
        }
    }
    qsort(sm->sec, nsec, sizeof sm->sec[0], cmp_u64);
    unsigned k = 0;
    for (unsigned i = 0; i < nsec; i++)
        if (k == 0 || sm->sec[i] != sm->sec[k - 1])
            sm->sec[k++] = sm->sec[i];
    sm->nsec = k;
    sm->nlines = 0;
    for (unsigned i = 0; i < sm->nsec; i++) {
        sm->line_of[i] = sm->sec[i] / sm->spl;
        sm->nlines += i == 0 || sm->line_of[i] != sm->line_of[i - 1];
    }
}

/* Slots: every sector of each touched line when they fit, else only the
 * touched sectors with a gap between lines.  Returns the left edge of the
 * centred row. */
static double sec_layout(secmap *sm)
{
    sm->aw = VIEW_W - LEFT - RIGHT;
    sm->gap = 8;
    /* Many lines (a 64-lane warp of scattered 16-byte local accesses
       touches up to 256): narrower gaps keep half the row for the slots,
       whose width would otherwise go negative. */
    if (sm->nlines > 1 && (sm->nlines - 1) * sm->gap > sm->aw / 2)
        sm->gap = sm->aw / 2 / (sm->nlines - 1);
    sm->ys = 150;
    sm->hs = 36;
    sm->full = sm->nlines * sm->spl * 12.0 + (sm->nlines - 1) * sm->gap <=
               sm->aw;
    unsigned nslots = sm->full ? sm->nlines * sm->spl : sm->nsec;
    sm->sw = (sm->aw - (sm->nlines - 1) * sm->gap) / (nslots ? nslots : 1);
    if (sm->sw > 56)
        sm->sw = 56;
    double row_w = nslots * sm->sw + (sm->nlines - 1) * sm->gap;
    return LEFT + (sm->aw - row_w) / 2;
}

/* Places the touched sectors of one line from x on, *k the first of them;
 * in the full layout its untouched sectors show as dashed slots.  Returns
 * the line's right edge. */
static double sec_line(FILE *f, secmap *sm, uint64_t line, unsigned *k,
                       double x)
{
    unsigned s = *k;
    if (sm->full) {
        for (unsigned j = 0; j < sm->spl; j++) {
            uint64_t id = line * sm->spl + j;
            if (s < sm->nsec && sm->sec[s] == id)
                sm->sx[s++] = x;
            else
                rect(f, x + 1, sm->ys, sm->sw - 2, sm->hs,
                     "fill=\"none\" stroke=\"#b8bec8\" "
                     "stroke-dasharray=\"3 2\"");
            x += sm->sw;
        }
    } else {
        while (s < sm->nsec && sm->line_of[s] == line) {
            sm->sx[s++] = x;
            x += sm->sw;
        }
    }
    *k = s;
    return x;
}

/* Bracket under the l-th line's slots [gx, x) and its offset from the
 * first line; narrow lines label only every 2^j-th so labels don't
 * overlap. */
static void sec_bracket(FILE *f, const secmap *sm, unsigned l, uint64_t line,
                        double gx, double x)
{
    char lab[32];
    fprintf(f, "<path d=\"M");
    wmi_svg_num(f, gx + 1);
    fputc(' ', f);
    wmi_svg_num(f, sm->ys + sm->hs + 4);
    fputs("v4H", f);
    wmi_svg_num(f, x - 1);
    fputs("v-4\" fill=\"none\" stroke=\"#6b7280\"/>\n", f);
    unsigned every = 1;
    while ((x - gx + sm->gap) * every < 44 && every < sm->nlines)
        every *= 2;
    if (l % every != 0)
        return;
    snprintf(lab, sizeof lab, "+%llu",
             (unsigned long long)((line - sm->line_of[0]) *
                                  sm->arch->line_bytes));
    text(f, (gx + x) / 2, sm->ys + sm->hs + 20,
         "text-anchor=\"middle\" font-size=\"10\" fill=\"#4b5563\"", lab);
}

/* The slots of every touched line from x on, each with its bracket. */
static void sec_slots(FILE *f, secmap *sm, double x)
{
    unsigned k = 0;
    for (unsigned l = 0; k < sm->nsec; l++) {
        uint64_t line = sm->line_of[k];
        double gx = x;
        x = sec_line(f, sm, line, &k, x);
        sec_bracket(f, sm, l, line, gx, x);
        x += sm->gap;
    }
}

/* Sectors: a frame, then the bytes lanes use in the sector colour. */
static void sec_fill(FILE *f, const secmap *sm)
{
    for (unsigned s = 0; s < sm->nsec; s++) {
        char st[96];
        rect(f, sm->sx[s] + 1, sm->ys, sm->sw - 2, sm->hs,
             "fill=\"#f1f3f6\" stroke=\"#4b5563\"");
        snprintf(st, sizeof st, "fill=\"hsl(%.0f,65%%,50%%)\"", hue(s));
        for (unsigned i = 0; i < sm->n; i++) {
            uint64_t ps[4];
            unsigned pl[4];
            if (!((sm->m >> i) & 1))
                continue;
            unsigned np = pieces(sm->arch, sm->a, i, ps, pl);
            for (unsigned q = 0; q < np; q++) {
                uint64_t lo = sm->sec[s] * sm->sb, hi = lo + sm->sb;
                uint64_t b0 = ps[q] > lo ? ps[q] : lo;
                uint64_t b1 = ps[q] + pl[q] < hi ? ps[q] + pl[q] : hi;
                if (b0 >= b1)
                    continue;
                double inner = sm->sw - 4;
                rect(f, sm->sx[s] + 2 + inner * (double)(b0 - lo) / sm->sb,
                     sm->ys + 2, inner * (double)(b1 - b0) / sm->sb,
                     sm->hs - 4, st);
            }
        }
    }
}

/* The curve from a lane's bottom middle (cx, cy) to the top of touched
 * sector s, in the sector's colour. */
static void sec_curve(FILE *f, const secmap *sm, double cx, double cy,
                      unsigned s)
{
    fputs("<path d=\"M", f);
    wmi_svg_num(f, cx);
    fputc(' ', f);
    wmi_svg_num(f, cy);
    fputs("C", f);
    wmi_svg_num(f, cx);
    fputs(" 100 ", f);
    wmi_svg_num(f, sm->sx[s] + sm->sw / 2);
    fputs(" 100 ", f);
    wmi_svg_num(f, sm->sx[s] + sm->sw / 2);
    fputc(' ', f);
    wmi_svg_num(f, sm->ys);
    fprintf(f, "\" fill=\"none\" stroke=\"hsl(%.0f,65%%,42%%)\" "
               "stroke-width=\"1.3\" stroke-opacity=\"0.8\"/>\n",
            hue(s));
}

/* Lanes and the curves to their sectors: an active lane takes the colour
 * of the sector of its first byte. */
static void sec_lanes(FILE *f, const secmap *sm)
{
    double lw = sm->aw / sm->n, yl = 30, hl = 22;
    for (unsigned i = 0; i < sm->n; i++) {
        double x = LEFT + i * lw;
        char st[96], num[16];
        int on = (sm->m >> i) & 1;
        if (on) {
            uint64_t ps[4];
            unsigned pl[4];
            pieces(sm->arch, sm->a, i, ps, pl);
            unsigned s = find(sm->sec, sm->nsec, ps[0] / sm->sb);
            snprintf(st, sizeof st,
                     "fill=\"hsl(%.0f,70%%,86%%)\" stroke=\"#6b7280\"",
                     hue(s));
            sec_curve(f, sm, x + lw / 2, yl + hl, s);
        } else {
            snprintf(st, sizeof st, "fill=\"#e5e7eb\" stroke=\"#c4c8cf\"");
        }
        rect(f, x + 0.5, yl, lw - 1, hl, st);
        if (lw >= 12 || i % 4 == 0) {
            snprintf(num, sizeof num, "%u", i);
            text(f, x + lw / 2, yl + 15,
                 on ? "text-anchor=\"middle\" font-size=\"9\""
                    : "text-anchor=\"middle\" font-size=\"9\" "
                      "fill=\"#9ca3af\"",
                 num);
        }
    }
    text(f, 8, yl + 15, "font-size=\"11\" fill=\"#374151\"", "lanes");
}

void wmi_svg_sectors(FILE *f, const wm_arch *arch, const wm_access *a)
{
    secmap sm = {.arch = arch, .a = a, .n = arch->warp_size};
    wm_counts c;
    char title[256];

    sm.m = a->mask & wmi_lanes_mask(sm.n);
    sm.sb = arch->sector_bytes;
    sm.spl = arch->line_bytes / sm.sb;
    if (wm_count(arch, a, &c) != WM_OK)
        memset(&c, 0, sizeof c);
    sec_collect(&sm);

    uint64_t moved = (uint64_t)sm.nsec * sm.sb;
    snprintf(title, sizeof title,
             "lane \xe2\x86\x92 sector map: %u sector%s in %u line%s "
             "(ideal %u); %llu of %llu bytes moved are used",
             c.sectors, c.sectors == 1 ? "" : "s", c.tags,
             c.tags == 1 ? "" : "s", c.ideal_sectors,
             (unsigned long long)c.bytes, (unsigned long long)moved);
    svg_open(f, 230, title);
    text(f, LEFT, 18, "font-size=\"13\" font-weight=\"bold\"", title);
    sec_slots(f, &sm, sec_layout(&sm));
    sec_fill(f, &sm);
    sec_lanes(f, &sm);
    text(f, 8, sm.ys + 22, "font-size=\"11\" fill=\"#374151\"", "sectors");
    text(f, 8, sm.ys + sm.hs + 20, "font-size=\"10\" fill=\"#6b7280\"",
         "line +bytes");
    fputs("</svg>\n", f);
}

/* ---- lane -> bank heatmap ----------------------------------------------- */

/* Heat colour for the number of distinct words one bank serves. */
static const char *heat(unsigned words)
{
    return words <= 1   ? "#8bc34a"
           : words == 2 ? "#ffc107"
           : words <= 4 ? "#ff9800"
           : words <= 8 ? "#f4511e"
           : words <= 16 ? "#c62828"
                         : "#7f0000";
}

/* What the parts of the heatmap share: each lane's phase, the distinct
 * words per (phase, bank) and the grid's geometry. */
typedef struct heatmap {
    const wm_arch *arch;
    const wm_access *a;
    unsigned n, nb; /* lanes, banks */
    unsigned wpl;   /* bank words per lane */
    uint64_t m;     /* active lanes */
    int lane_phase[WM_MAX_LANES];
    unsigned nphase;
    unsigned count[WM_MAX_LANES][WM_MAX_BANKS]; /* [phase][bank] */
    double cw, ch; /* cell width and height */
    double y0, gh; /* top and height of the grid */
    double ysum;   /* top of the busiest-phase row */
} heatmap;

/* Each lane's phase; a bad phase counts as phase 0 so that the counts
 * below stay in bounds. */
static void bank_phases(heatmap *hm)
{
    if (wm_shared_banks(hm->arch, hm->a, NULL, hm->lane_phase, NULL) !=
        WM_OK)
        for (unsigned i = 0; i < WM_MAX_LANES; i++)
            hm->lane_phase[i] = 0;
    hm->nphase = 0;
    for (unsigned i = 0; i < hm->n; i++) {
        if (hm->lane_phase[i] < 0 || hm->lane_phase[i] >= WM_MAX_LANES)
            hm->lane_phase[i] = 0;
        if ((unsigned)hm->lane_phase[i] + 1 > hm->nphase)
            hm->nphase = (unsigned)hm->lane_phase[i] + 1;
    }
}

/* Distinct words per (phase, bank): a word counts once however many
 * lanes of the phase use it (broadcast). */
static void bank_count(heatmap *hm)
{
    unsigned bb = hm->arch->bank_bytes;
    const int *ph = hm->lane_phase;
    memset(hm->count, 0, sizeof hm->count);
    for (unsigned i = 0; i < hm->n; i++) {
        if (!((hm->m >> i) & 1))
            continue;
        for (unsigned k = 0; k < hm->wpl; k++) {
            uint64_t w = hm->a->addr[i] / bb + k;
            int seen = 0;
            for (unsigned j = 0; j < i && !seen; j++)
                if (((hm->m >> j) & 1) && ph[j] == ph[i])
                    for (unsigned q = 0; q < hm->wpl; q++)
                        seen |= hm->a->addr[j] / bb + q == w;
            if (!seen)
                hm->count[ph[i]][w % hm->nb]++;
        }
    }
}

static void bank_numbers(FILE *f, const heatmap *hm)
{
    char buf[16];
    for (unsigned b = 0; b < hm->nb; b++)
        if (hm->cw >= 16 || b % 4 == 0) {
            snprintf(buf, sizeof buf, "%u", b);
            text(f, LEFT + b * hm->cw + hm->cw / 2, hm->y0 - 6,
                 "text-anchor=\"middle\" font-size=\"9\" fill=\"#4b5563\"",
                 buf);
        }
    text(f, 8, hm->y0 - 6, "font-size=\"10\" fill=\"#374151\"", "bank");
}

/* Rows: inactive lanes greyed; cells of the banks a lane uses. */
static void bank_rows(FILE *f, const heatmap *hm)
{
    char buf[16];
    for (unsigned i = 0; i < hm->n; i++) {
        double y = hm->y0 + i * hm->ch;
        int on = (hm->m >> i) & 1;
        if (!on)
            rect(f, LEFT, y, hm->nb * hm->cw, hm->ch, "fill=\"#f3f4f6\"");
        if (hm->ch >= 12 || i % 4 == 0) {
            snprintf(buf, sizeof buf, "%u", i);
            text(f, LEFT - 6, y + hm->ch - 3,
                 on ? "text-anchor=\"end\" font-size=\"9\""
                    : "text-anchor=\"end\" font-size=\"9\" fill=\"#9ca3af\"",
                 buf);
        }
        if (!on)
            continue;
        for (unsigned k = 0; k < hm->wpl; k++) {
            uint64_t w = hm->a->addr[i] / hm->arch->bank_bytes + k;
            unsigned b = (unsigned)(w % hm->nb);
            char st[64];
            snprintf(st, sizeof st, "fill=\"%s\"",
                     heat(hm->count[hm->lane_phase[i]][b]));
            rect(f, LEFT + b * hm->cw + 1, y + 1, hm->cw - 2, hm->ch - 2,
                 st);
        }
    }
    text(f, 8, hm->y0 + 12, "font-size=\"10\" fill=\"#374151\"", "lane");
}

static void bank_grid(FILE *f, const heatmap *hm)
{
    fputs("<path d=\"", f);
    for (unsigned b = 0; b <= hm->nb; b++) {
        fputc('M', f);
        wmi_svg_num(f, LEFT + b * hm->cw);
        fputc(' ', f);
        wmi_svg_num(f, hm->y0);
        fputc('V', f);
        wmi_svg_num(f, hm->y0 + hm->gh);
    }
    fputs("\" stroke=\"#d9dde3\" stroke-width=\"0.6\"/>\n", f);
}

/* Phase boundaries with each phase's wavefronts (its busiest bank's
 * words), then the frame over the grid. */
static void bank_bounds(FILE *f, const heatmap *hm)
{
    char buf[64];
    unsigned first = 0;
    for (unsigned p = 0; p < hm->nphase; p++) {
        unsigned last = first, mx = 0;
        while (last < hm->n && hm->lane_phase[last] == (int)p)
            last++;
        if (last == first)
            continue;
        for (unsigned b = 0; b < hm->nb; b++)
            mx = hm->count[p][b] > mx ? hm->count[p][b] : mx;
        if (first > 0) {
            fputs("<path d=\"M", f);
            wmi_svg_num(f, LEFT - 2);
            fputc(' ', f);
            wmi_svg_num(f, hm->y0 + first * hm->ch);
            fputc('H', f);
            wmi_svg_num(f, LEFT + hm->nb * hm->cw + 2);
            fputs("\" stroke=\"#1f2937\" stroke-width=\"1.5\"/>\n", f);
        }
        snprintf(buf, sizeof buf, "phase %u: %u wavefront%s", p, mx,
                 mx == 1 ? "" : "s");
        text(f, LEFT + hm->nb * hm->cw + 10,
             hm->y0 + (first + last) * hm->ch / 2 + 4,
             "font-size=\"11\" fill=\"#1f2937\"", buf);
        first = last;
    }
    rect(f, LEFT, hm->y0, hm->nb * hm->cw, hm->gh,
         "fill=\"none\" stroke=\"#4b5563\"");
}

/* Per bank, the words of its busiest phase: the bank's share of the
 * wavefronts. */
static void bank_busiest(FILE *f, const heatmap *hm)
{
    unsigned busiest[WM_MAX_BANKS] = {0};
    char buf[16];
    for (unsigned p = 0; p < hm->nphase; p++)
        for (unsigned b = 0; b < hm->nb; b++)
            if (hm->count[p][b] > busiest[b])
                busiest[b] = hm->count[p][b];
    for (unsigned b = 0; b < hm->nb; b++) {
        char st[64];
        snprintf(st, sizeof st, "fill=\"%s\" stroke=\"#ffffff\"",
                 busiest[b] ? heat(busiest[b]) : "#f3f4f6");
        rect(f, LEFT + b * hm->cw, hm->ysum, hm->cw, 20, st);
        if (busiest[b] && (hm->cw >= 16 || busiest[b] > 1)) {
            snprintf(buf, sizeof buf, "%u", busiest[b]);
            text(f, LEFT + b * hm->cw + hm->cw / 2, hm->ysum + 14,
                 "text-anchor=\"middle\" font-size=\"10\"", buf);
        }
    }
    text(f, 8, hm->ysum + 14, "font-size=\"10\" fill=\"#374151\"", "words");
    text(f, LEFT + hm->nb * hm->cw + 10, hm->ysum + 14,
         "font-size=\"10\" fill=\"#374151\"", "(busiest phase)");
}

static void bank_legend(FILE *f, const heatmap *hm)
{
    static const unsigned steps[] = {1, 2, 4, 8, 16, 17};
    static const char *const names[] = {"1 word", "2", "3-4", "5-8", "9-16",
                                        "17+"};
    double lx = LEFT, ly = hm->ysum + 34;
    text(f, 8, ly + 9, "font-size=\"10\" fill=\"#374151\"", "per bank");
    for (unsigned i = 0; i < 6; i++) {
        char st[64];
        snprintf(st, sizeof st, "fill=\"%s\"", heat(steps[i]));
        rect(f, lx, ly, 14, 11, st);
        text(f, lx + 18, ly + 10, "font-size=\"10\"", names[i]);
        lx += 70;
    }
}

void wmi_svg_banks(FILE *f, const wm_arch *arch, const wm_access *a)
{
    heatmap hm = {.arch = arch, .a = a, .n = arch->warp_size,
                  .nb = arch->banks};
    wm_counts c;
    char title[256];

    hm.wpl = a->size > arch->bank_bytes ? a->size / arch->bank_bytes : 1;
    hm.m = a->mask & wmi_lanes_mask(hm.n);
    if (wm_count(arch, a, &c) != WM_OK)
        memset(&c, 0, sizeof c);
    bank_phases(&hm);
    bank_count(&hm);

    snprintf(title, sizeof title,
             "lane \xe2\x86\x92 bank heatmap: %u wavefront%s (ideal %u)%s",
             c.wavefronts, c.wavefronts == 1 ? "" : "s", c.ideal_wavefronts,
             c.wavefronts > c.ideal_wavefronts ? "" : ", conflict-free");
    if (c.wavefronts > c.ideal_wavefronts) {
        size_t len = strlen(title);
        snprintf(title + len, sizeof title - len, ", %u-way conflict",
                 c.nway);
    }
    hm.cw = 704.0 / hm.nb;
    hm.ch = hm.n <= 32 ? 13 : 7;
    hm.y0 = 48;
    hm.gh = hm.n * hm.ch;
    hm.ysum = hm.y0 + hm.gh + 8;
    svg_open(f, hm.ysum + 22 + 40, title);
    text(f, LEFT, 18, "font-size=\"13\" font-weight=\"bold\"", title);
    bank_numbers(f, &hm);
    bank_rows(f, &hm);
    bank_grid(f, &hm);
    bank_bounds(f, &hm);
    bank_busiest(f, &hm);
    bank_legend(f, &hm);
    fputs("</svg>\n", f);
}
