/*
 * draw.c -- text pictures of one warp access.
 *
 * Global/local: a one-character-per-lane strip naming each lane's sector
 * (in order of first touch), then one row per touched 128 B line with a
 * cell per 32 B sector listing the lanes that read it ('.' = not moved).
 * Shared: lane -> bank rows of 16 lanes, then per phase the number of
 * distinct words each bank serves; the busiest bank sets the wavefronts.
 * Colour (ANSI) marks wasted sectors and conflicting banks.
 */
#include "access_check.h"
#include "wm_int.h"

#define RED "\x1b[31m"
#define GREEN "\x1b[32m"
#define DIM "\x1b[2m"
#define BOLD "\x1b[1m"
#define RESET "\x1b[0m"
#define MAX_LINES_SHOWN 8

static const char digits36[] = "0123456789abcdefghijklmnopqrstuvwxyz";

/* Write lane list of mask m ("0-7,16") into buf, at most n-1 chars. */
static void lane_ranges(uint64_t m, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    while (m) {
        unsigned lo = (unsigned)__builtin_ctzll(m), hi = lo;
        while (hi + 1 < 64 && ((m >> (hi + 1)) & 1u))
            hi++;
        char item[16];
        int k = hi == lo ? snprintf(item, sizeof item, "%u", lo)
                         : snprintf(item, sizeof item, "%u-%u", lo, hi);
        if (len + (size_t)k + 2 >= n) {
            if (len + 2 < n) {
                buf[len++] = '+';
                buf[len] = '\0';
            }
            return;
        }
        len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? "," : "",
                                item);
        m &= ~(hi - lo == 63 ? ~(uint64_t)0
                             : ((((uint64_t)1 << (hi - lo + 1)) - 1) << lo));
    }
}

typedef struct line_row {
    uint64_t line;
    uint64_t lanes[64]; /* per sector of the line: lanes touching it */
} line_row;

static void draw_global(FILE *f, const wm_arch *arch, const wm_access *a,
                        int color, unsigned width)
{
    unsigned ss = wmi_log2(arch->sector_bytes);
    unsigned spl = arch->line_bytes / arch->sector_bytes;
    /* Physical address of a lane's first byte (local: interleaved). */
    line_row rows[MAX_LINES_SHOWN];
    unsigned nrows = 0, hidden = 0;
    uint64_t order[WM_MAX_LANES];
    unsigned norder = 0;
    char strip[WM_MAX_LANES + 1];
    for (unsigned i = 0; i < arch->warp_size; i++) {
        strip[i] = '.';
        if (!((a->mask >> i) & 1u))
            continue;
        uint64_t b = a->addr[i];
        if (a->space == WM_SPACE_LOCAL)
            b = ((b >> 2) * arch->warp_size + i) * 4 + (b & 3);
        uint64_t sec = b >> ss;
        unsigned k = 0;
        while (k < norder && order[k] != sec)
            k++;
        if (k == norder)
            order[norder++] = sec;
        strip[i] = k < 36 ? digits36[k] : '#';
        uint64_t line = sec / spl;
        unsigned r = 0;
        while (r < nrows && rows[r].line != line)
            r++;
        if (r == nrows) {
            if (nrows == MAX_LINES_SHOWN) {
                hidden++;
                continue;
            }
            memset(&rows[nrows], 0, sizeof rows[nrows]);
            rows[nrows++].line = line;
        }
        rows[r].lanes[sec % spl] |= (uint64_t)1 << i;
    }
    strip[arch->warp_size] = '\0';
    fprintf(f, "  lane   %.*s\n", (int)arch->warp_size,
            "0123456789abcdefghijklmnopqrstuv0123456789abcdefghijklmnopqrstuv");
    fprintf(f, "  sector %s   (n-th distinct sector each lane touches)\n",
            strip);
    unsigned cells = spl <= 8 ? spl : 8;
    unsigned cellw = (width > 24 + cells * 6) ? (width - 24) / cells : 6;
    if (cellw > 18)
        cellw = 18;
    fprintf(f, "  %-18s", "line");
    for (unsigned s = 0; s < cells; s++) {
        char head[24];
        snprintf(head, sizeof head, "sector +%u", s * arch->sector_bytes);
        fprintf(f, " %-*s", s + 1 < cells ? (int)cellw - 1 : 0, head);
    }
    fputc('\n', f);
    for (unsigned r = 0; r < nrows; r++) {
        fprintf(f, "  0x%016llx", (unsigned long long)(rows[r].line * spl
                                                      << ss));
        for (unsigned s = 0; s < cells; s++) {
            char buf[64];
            int pad = s + 1 < cells ? (int)cellw - 1 : 0;
            if (rows[r].lanes[s])
                lane_ranges(rows[r].lanes[s], buf,
                            cellw - 1 < sizeof buf ? cellw - 1 : sizeof buf);
            else
                snprintf(buf, sizeof buf, ".");
            fprintf(f, " %s%-*s%s",
                    color ? (rows[r].lanes[s] ? GREEN : DIM) : "", pad, buf,
                    color ? RESET : "");
        }
        if (spl > cells)
            fprintf(f, " (+%u sectors)", spl - cells);
        fputc('\n', f);
    }
    if (hidden)
        fprintf(f, "  ... %u more lane(s) in further lines\n", hidden);
}

static char count_char(unsigned k)
{
    return k == 0 ? '.' : k < 10 ? digits36[k] : '#';
}

static void draw_shared(FILE *f, const wm_arch *arch, const wm_access *a,
                        int color)
{
    int lane_bank[WM_MAX_LANES], lane_phase[WM_MAX_LANES];
    wm_shared_banks(arch, a, lane_bank, lane_phase, NULL);
    for (unsigned lo = 0; lo < arch->warp_size; lo += 16) {
        fprintf(f, "  lanes %2u-%-2u bank", lo, lo + 15);
        for (unsigned i = lo; i < lo + 16; i++) {
            if (lane_bank[i] < 0)
                fputs("  .", f);
            else
                fprintf(f, " %2d", lane_bank[i]);
        }
        fputc('\n', f);
    }
    /* Phase width (uniform-pair packing may double it): first lane of
     * phase 1. */
    unsigned plane = arch->warp_size;
    for (unsigned i = 0; i < arch->warp_size; i++)
        if (lane_phase[i] == 1) {
            plane = i;
            break;
        }
    fprintf(f, "  bank            ");
    for (unsigned b = 0; b < arch->banks; b++)
        fputc(digits36[b % 10], f);
    fputs("   (distinct words per bank; # = 10 or more)\n", f);
    for (unsigned lo = 0, ph = 0; lo < arch->warp_size; lo += plane, ph++) {
        wm_access sub = *a;
        unsigned words[WM_MAX_BANKS], worst = 0;
        sub.mask = a->mask & (wmi_lanes_mask(plane) << lo);
        if (!sub.mask)
            continue;
        wm_shared_banks(arch, &sub, NULL, NULL, words);
        for (unsigned b = 0; b < arch->banks; b++)
            worst = words[b] > worst ? words[b] : worst;
        fprintf(f, "  phase %2u %2u-%-2u ", ph, lo, lo + plane - 1);
        for (unsigned b = 0; b < arch->banks; b++) {
            int hot = color && words[b] > 1;
            fprintf(f, "%s%c%s", hot ? RED : "", count_char(words[b]),
                    hot ? RESET : "");
        }
        fprintf(f, "   %s%u wavefront%s%s\n", color && worst > 1 ? BOLD : "",
                worst, worst == 1 ? "" : "s", color && worst > 1 ? RESET : "");
    }
}

void wm_draw_access(FILE *f, const wm_arch *arch, const wm_access *a,
                    int color, unsigned width)
{
    if (wmi_access_check(arch, a, NULL) != WM_OK) {
        fputs("  (invalid access: nothing to draw)\n", f);
        return;
    }
    if (width < 60)
        width = 60;
    if (a->space == WM_SPACE_SHARED)
        draw_shared(f, arch, a, color);
    else
        draw_global(f, arch, a, color, width);
}
