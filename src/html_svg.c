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
 * (docs/design/memory-model.md §1): word w of lane i sits at (w * warp + i) * 4.  Returns the count.
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

void wmi_svg_sectors(FILE *f, const wm_arch *arch, const wm_access *a)
{
    enum { MAXS = 4 * WM_MAX_LANES };
    uint64_t sec[MAXS], line_of[MAXS];
    unsigned nsec = 0, n = arch->warp_size;
    uint64_t m = a->mask & wmi_lanes_mask(n);
    unsigned sb = arch->sector_bytes, spl = arch->line_bytes / sb;
    wm_counts c;
    char title[256];

    if (wm_count(arch, a, &c) != WM_OK)
        memset(&c, 0, sizeof c);
    /* Distinct sectors of every piece's first and last byte (a piece
     * spans at most two: sectors are at least 16 bytes). */
    for (unsigned i = 0; i < n; i++) {
        uint64_t ps[4];
        unsigned pl[4];
        if (!((m >> i) & 1))
            continue;
        for (unsigned k = 0, np = pieces(arch, a, i, ps, pl); k < np; k++) {
            sec[nsec++] = ps[k] / sb;
            if ((ps[k] + pl[k] - 1) / sb != ps[k] / sb)
                sec[nsec++] = (ps[k] + pl[k] - 1) / sb;
        }
    }
    qsort(sec, nsec, sizeof sec[0], cmp_u64);
    unsigned k = 0;
    for (unsigned i = 0; i < nsec; i++)
        if (k == 0 || sec[i] != sec[k - 1])
            sec[k++] = sec[i];
    nsec = k;
    unsigned nlines = 0;
    for (unsigned i = 0; i < nsec; i++) {
        line_of[i] = sec[i] / spl;
        nlines += i == 0 || line_of[i] != line_of[i - 1];
    }

    uint64_t moved = (uint64_t)nsec * sb;
    snprintf(title, sizeof title,
             "lane \xe2\x86\x92 sector map: %u sector%s in %u line%s "
             "(ideal %u); %llu of %llu bytes moved are used",
             c.sectors, c.sectors == 1 ? "" : "s", c.tags,
             c.tags == 1 ? "" : "s", c.ideal_sectors,
             (unsigned long long)c.bytes, (unsigned long long)moved);
    double h = 230;
    svg_open(f, h, title);
    text(f, LEFT, 18, "font-size=\"13\" font-weight=\"bold\"", title);

    /* Slots: every sector of each touched line when they fit, else only
     * the touched sectors with a gap between lines. */
    double aw = VIEW_W - LEFT - RIGHT, gap = 8;
    int full = nlines * spl * 12.0 + (nlines - 1) * gap <= aw;
    unsigned nslots = full ? nlines * spl : nsec;
    double sw = (aw - (nlines - 1) * gap) / (nslots ? nslots : 1);
    if (sw > 56)
        sw = 56;
    double row_w = nslots * sw + (nlines - 1) * gap;
    double x0 = LEFT + (aw - row_w) / 2, ys = 150, hs = 36;
    double sx[MAXS]; /* left edge of touched sector i */
    {
        double x = x0;
        unsigned s = 0;
        for (unsigned l = 0; s < nsec; l++) {
            uint64_t line = line_of[s];
            double gx = x;
            if (full) {
                for (unsigned j = 0; j < spl; j++) {
                    uint64_t id = line * spl + j;
                    if (s < nsec && sec[s] == id)
                        sx[s++] = x;
                    else
                        rect(f, x + 1, ys, sw - 2, hs,
                             "fill=\"none\" stroke=\"#b8bec8\" "
                             "stroke-dasharray=\"3 2\"");
                    x += sw;
                }
            } else {
                while (s < nsec && line_of[s] == line) {
                    sx[s++] = x;
                    x += sw;
                }
            }
            /* Bracket under the line's slots and its offset label. */
            char lab[32];
            fprintf(f, "<path d=\"M");
            wmi_svg_num(f, gx + 1);
            fputc(' ', f);
            wmi_svg_num(f, ys + hs + 4);
            fputs("v4H", f);
            wmi_svg_num(f, x - 1);
            fputs("v-4\" fill=\"none\" stroke=\"#6b7280\"/>\n", f);
            unsigned every = 1;
            while ((x - gx + gap) * every < 44)
                every *= 2;
            if (l % every == 0) {
                snprintf(lab, sizeof lab, "+%llu",
                         (unsigned long long)((line - line_of[0]) *
                                              arch->line_bytes));
                text(f, (gx + x) / 2, ys + hs + 20,
                     "text-anchor=\"middle\" font-size=\"10\" "
                     "fill=\"#4b5563\"",
                     lab);
            }
            x += gap;
        }
    }

    /* Sectors: a frame, then the bytes lanes use in the sector colour. */
    for (unsigned s = 0; s < nsec; s++) {
        char st[96];
        rect(f, sx[s] + 1, ys, sw - 2, hs,
             "fill=\"#f1f3f6\" stroke=\"#4b5563\"");
        snprintf(st, sizeof st, "fill=\"hsl(%.0f,65%%,50%%)\"", hue(s));
        for (unsigned i = 0; i < n; i++) {
            uint64_t ps[4];
            unsigned pl[4];
            if (!((m >> i) & 1))
                continue;
            unsigned np = pieces(arch, a, i, ps, pl);
            for (unsigned q = 0; q < np; q++) {
                uint64_t lo = sec[s] * sb, hi = lo + sb;
                uint64_t b0 = ps[q] > lo ? ps[q] : lo;
                uint64_t b1 = ps[q] + pl[q] < hi ? ps[q] + pl[q] : hi;
                if (b0 >= b1)
                    continue;
                double inner = sw - 4;
                rect(f, sx[s] + 2 + inner * (double)(b0 - lo) / sb, ys + 2,
                     inner * (double)(b1 - b0) / sb, hs - 4, st);
            }
        }
    }

    /* Lanes and the curves to their sectors. */
    double lw = aw / n, yl = 30, hl = 22;
    for (unsigned i = 0; i < n; i++) {
        double x = LEFT + i * lw;
        char st[96], num[16];
        int on = (m >> i) & 1;
        unsigned s = 0;
        if (on) {
            uint64_t ps[4];
            unsigned pl[4];
            pieces(arch, a, i, ps, pl);
            s = find(sec, nsec, ps[0] / sb);
            snprintf(st, sizeof st,
                     "fill=\"hsl(%.0f,70%%,86%%)\" stroke=\"#6b7280\"",
                     hue(s));
            fputs("<path d=\"M", f);
            wmi_svg_num(f, x + lw / 2);
            fputc(' ', f);
            wmi_svg_num(f, yl + hl);
            fputs("C", f);
            wmi_svg_num(f, x + lw / 2);
            fputs(" 100 ", f);
            wmi_svg_num(f, sx[s] + sw / 2);
            fputs(" 100 ", f);
            wmi_svg_num(f, sx[s] + sw / 2);
            fputc(' ', f);
            wmi_svg_num(f, ys);
            fprintf(f, "\" fill=\"none\" stroke=\"hsl(%.0f,65%%,42%%)\" "
                       "stroke-width=\"1.3\" stroke-opacity=\"0.8\"/>\n",
                    hue(s));
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
    text(f, 8, ys + 22, "font-size=\"11\" fill=\"#374151\"", "sectors");
    text(f, 8, ys + hs + 20, "font-size=\"10\" fill=\"#6b7280\"",
         "line +bytes");
    fputs("</svg>\n", f);
}

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

void wmi_svg_banks(FILE *f, const wm_arch *arch, const wm_access *a)
{
    unsigned n = arch->warp_size, nb = arch->banks;
    unsigned wpl = a->size > arch->bank_bytes ? a->size / arch->bank_bytes : 1;
    uint64_t m = a->mask & wmi_lanes_mask(n);
    int lane_phase[WM_MAX_LANES];
    unsigned count[WM_MAX_LANES][WM_MAX_BANKS]; /* [phase][bank] */
    unsigned busiest[WM_MAX_BANKS] = {0}, nphase = 0;
    wm_counts c;
    char title[256], buf[64];

    if (wm_count(arch, a, &c) != WM_OK)
        memset(&c, 0, sizeof c);
    if (wm_shared_banks(arch, a, NULL, lane_phase, NULL) != WM_OK)
        for (unsigned i = 0; i < WM_MAX_LANES; i++)
            lane_phase[i] = 0;
    memset(count, 0, sizeof count);
    for (unsigned i = 0; i < n; i++) {
        if (lane_phase[i] < 0 || lane_phase[i] >= WM_MAX_LANES)
            lane_phase[i] = 0;
        if ((unsigned)lane_phase[i] + 1 > nphase)
            nphase = (unsigned)lane_phase[i] + 1;
    }
    /* Distinct words per (phase, bank): a word counts once however many
     * lanes of the phase use it (broadcast). */
    for (unsigned i = 0; i < n; i++) {
        if (!((m >> i) & 1))
            continue;
        for (unsigned k = 0; k < wpl; k++) {
            uint64_t w = a->addr[i] / arch->bank_bytes + k;
            int seen = 0;
            for (unsigned j = 0; j < i && !seen; j++)
                if (((m >> j) & 1) && lane_phase[j] == lane_phase[i])
                    for (unsigned q = 0; q < wpl; q++)
                        seen |= a->addr[j] / arch->bank_bytes + q == w;
            if (!seen)
                count[lane_phase[i]][w % nb]++;
        }
    }

    snprintf(title, sizeof title,
             "lane \xe2\x86\x92 bank heatmap: %u wavefront%s (ideal %u)%s",
             c.wavefronts, c.wavefronts == 1 ? "" : "s", c.ideal_wavefronts,
             c.wavefronts > c.ideal_wavefronts ? "" : ", conflict-free");
    if (c.wavefronts > c.ideal_wavefronts) {
        size_t len = strlen(title);
        snprintf(title + len, sizeof title - len, ", %u-way conflict",
                 c.nway);
    }
    double cw = 704.0 / nb, ch = n <= 32 ? 13 : 7, y0 = 48;
    double gh = n * ch, ysum = y0 + gh + 8, h = ysum + 22 + 40;
    svg_open(f, h, title);
    text(f, LEFT, 18, "font-size=\"13\" font-weight=\"bold\"", title);

    /* Bank numbers. */
    for (unsigned b = 0; b < nb; b++)
        if (cw >= 16 || b % 4 == 0) {
            snprintf(buf, sizeof buf, "%u", b);
            text(f, LEFT + b * cw + cw / 2, y0 - 6,
                 "text-anchor=\"middle\" font-size=\"9\" fill=\"#4b5563\"",
                 buf);
        }
    text(f, 8, y0 - 6, "font-size=\"10\" fill=\"#374151\"", "bank");

    /* Rows: inactive lanes greyed; cells of the banks a lane uses. */
    for (unsigned i = 0; i < n; i++) {
        double y = y0 + i * ch;
        int on = (m >> i) & 1;
        if (!on)
            rect(f, LEFT, y, nb * cw, ch, "fill=\"#f3f4f6\"");
        if (ch >= 12 || i % 4 == 0) {
            snprintf(buf, sizeof buf, "%u", i);
            text(f, LEFT - 6, y + ch - 3,
                 on ? "text-anchor=\"end\" font-size=\"9\""
                    : "text-anchor=\"end\" font-size=\"9\" fill=\"#9ca3af\"",
                 buf);
        }
        if (!on)
            continue;
        for (unsigned k = 0; k < wpl; k++) {
            unsigned b = (unsigned)((a->addr[i] / arch->bank_bytes + k) % nb);
            char st[64];
            snprintf(st, sizeof st, "fill=\"%s\"",
                     heat(count[lane_phase[i]][b]));
            rect(f, LEFT + b * cw + 1, y + 1, cw - 2, ch - 2, st);
        }
    }
    text(f, 8, y0 + 12, "font-size=\"10\" fill=\"#374151\"", "lane");

    /* Grid, then phase boundaries with their wavefront counts. */
    fputs("<path d=\"", f);
    for (unsigned b = 0; b <= nb; b++) {
        fputc('M', f);
        wmi_svg_num(f, LEFT + b * cw);
        fputc(' ', f);
        wmi_svg_num(f, y0);
        fputc('V', f);
        wmi_svg_num(f, y0 + gh);
    }
    fputs("\" stroke=\"#d9dde3\" stroke-width=\"0.6\"/>\n", f);
    unsigned first = 0;
    for (unsigned p = 0; p < nphase; p++) {
        unsigned last = first, mx = 0;
        while (last < n && lane_phase[last] == (int)p)
            last++;
        if (last == first)
            continue;
        for (unsigned b = 0; b < nb; b++)
            mx = count[p][b] > mx ? count[p][b] : mx;
        if (first > 0) {
            fputs("<path d=\"M", f);
            wmi_svg_num(f, LEFT - 2);
            fputc(' ', f);
            wmi_svg_num(f, y0 + first * ch);
            fputc('H', f);
            wmi_svg_num(f, LEFT + nb * cw + 2);
            fputs("\" stroke=\"#1f2937\" stroke-width=\"1.5\"/>\n", f);
        }
        snprintf(buf, sizeof buf, "phase %u: %u wavefront%s", p, mx,
                 mx == 1 ? "" : "s");
        text(f, LEFT + nb * cw + 10, y0 + (first + last) * ch / 2 + 4,
             "font-size=\"11\" fill=\"#1f2937\"", buf);
        first = last;
    }
    rect(f, LEFT, y0, nb * cw, gh, "fill=\"none\" stroke=\"#4b5563\"");

    /* Per bank, the words of its busiest phase: the bank's share of the
     * wavefronts. */
    for (unsigned p = 0; p < nphase; p++)
        for (unsigned b = 0; b < nb; b++)
            if (count[p][b] > busiest[b])
                busiest[b] = count[p][b];
    for (unsigned b = 0; b < nb; b++) {
        char st[64];
        snprintf(st, sizeof st, "fill=\"%s\" stroke=\"#ffffff\"",
                 busiest[b] ? heat(busiest[b]) : "#f3f4f6");
        rect(f, LEFT + b * cw, ysum, cw, 20, st);
        if (busiest[b] && (cw >= 16 || busiest[b] > 1)) {
            snprintf(buf, sizeof buf, "%u", busiest[b]);
            text(f, LEFT + b * cw + cw / 2, ysum + 14,
                 "text-anchor=\"middle\" font-size=\"10\"", buf);
        }
    }
    text(f, 8, ysum + 14, "font-size=\"10\" fill=\"#374151\"", "words");
    text(f, LEFT + nb * cw + 10, ysum + 14,
         "font-size=\"10\" fill=\"#374151\"", "(busiest phase)");

    /* Legend. */
    static const unsigned steps[] = {1, 2, 4, 8, 16, 17};
    static const char *const names[] = {"1 word", "2", "3-4", "5-8", "9-16",
                                        "17+"};
    double lx = LEFT, ly = ysum + 34;
    text(f, 8, ly + 9, "font-size=\"10\" fill=\"#374151\"", "per bank");
    for (unsigned i = 0; i < 6; i++) {
        char st[64];
        snprintf(st, sizeof st, "fill=\"%s\"", heat(steps[i]));
        rect(f, lx, ly, 14, 11, st);
        text(f, lx + 18, ly + 10, "font-size=\"10\"", names[i]);
        lx += 70;
    }
    fputs("</svg>\n", f);
}
