/*
 * advise_print.c -- the advisor's text and JSON writers.
 *
 * Text is the primary interface: a headline with the severity, the size
 * of the problem in ncu's words ("N excessive sectors (P% of the total T
 * sectors)"), the why, and one line per fix with its what-if, wrapped to
 * the terminal.  ANSI colours only when the caller asks for them.
 */
#include "advise_int.h"

#include <stdio.h>

const char *wmi_advise_unit(wm_space space)
{
    return space == WM_SPACE_SHARED ? "wavefronts" : "sectors";
}

void wmi_advise_outcome(const wm_fix *f, const char *arrow, char *buf,
                        size_t cap)
{
    wm_space sp = f->access.space;
    unsigned long long cb = wmi_advise_cost(sp, &f->before);
    unsigned long long ca = wmi_advise_cost(sp, &f->after);
    size_t len = 0;
    buf[0] = '\0';
    if (f->before.requests != f->after.requests)
        wmi_appendf(buf, cap, &len,
                    "%u %s %u requests for the same %llu bytes (%llu %s "
                    "%llu %s)",
                    f->before.requests, arrow, f->after.requests,
                    (unsigned long long)f->after.bytes, cb, arrow, ca,
                    wmi_advise_unit(sp));
    else
        wmi_appendf(buf, cap, &len, "%llu %s %llu %s per request", cb, arrow,
                    ca, wmi_advise_unit(sp));
}

/* ANSI colour codes, or "" when colour is off. */
typedef struct palette {
    const char *bold, *red, *yellow, *green, *dim, *off;
} palette;

static palette pick(int color)
{
    palette p = {"", "", "", "", "", ""};
    if (color) {
        p.bold = "\033[1m";
        p.red = "\033[31m";
        p.yellow = "\033[33m";
        p.green = "\033[32m";
        p.dim = "\033[2m";
        p.off = "\033[0m";
    }
    return p;
}

/* Inside wrapped text this byte is a space that never breaks a line. */
#define NBSP '\x1f'

/*
 * Print `lead` (visible width lead_w, may hold colour codes) followed by
 * text wrapped to width; continuation lines are indented by lead_w.
 */
static void wrap(FILE *f, const char *lead, size_t lead_w, const char *text,
                 unsigned width)
{
    size_t col = lead_w;
    fputs(lead, f);
    while (*text) {
        while (*text == ' ')
            text++;
        size_t w = 0;
        while (text[w] && text[w] != ' ')
            w++;
        if (w == 0)
            break;
        if (col > lead_w && col + 1 + w > width) {
            fprintf(f, "\n%*s", (int)lead_w, "");
            col = lead_w;
        } else if (col > lead_w) {
            fputc(' ', f);
            col++;
        }
        for (size_t i = 0; i < w; i++)
            fputc(text[i] == NBSP ? ' ' : text[i], f);
        col += w;
        text += w;
    }
    fputc('\n', f);
}

void wm_advise_print(FILE *f, const wm_advice *v, int color, unsigned width)
{
    palette c = pick(color);
    char lead[96], buf[512];
    if (width < 40)
        width = 40;
    const char *sev = v->severity == WM_SEV_HIGH     ? c.red
                      : v->severity == WM_SEV_MEDIUM ? c.yellow
                      : v->severity == WM_SEV_LOW    ? c.yellow
                                                     : c.green;
    snprintf(lead, sizeof lead, "  %sadvice%s [%s%s%s]: ", c.bold, c.off,
             sev, wm_severity_name(v->severity), c.off);
    wrap(f, lead, 12 + strlen(wm_severity_name(v->severity)), v->headline,
         width);
    if (v->excess) {
        const char *unit = wmi_advise_unit(v->space);
        /* ncu's wording: "N excessive sectors (P% of the total T
         * sectors)" (docs/design/memory-model.md §1). */
        snprintf(buf, sizeof buf,
                 "%llu excessive %.*s (%.0f%% of the total %llu %s)",
                 (unsigned long long)v->excess,
                 (int)strlen(unit) - (v->excess == 1), unit,
                 v->share * 100.0, (unsigned long long)v->total, unit);
        wrap(f, "    ", 4, buf, width);
    }
    snprintf(lead, sizeof lead, "    %swhy:%s ", c.bold, c.off);
    wrap(f, lead, 9, v->diagnosis, width);
    for (size_t i = 0; i < v->nfixes; i++) {
        char what[160];
        wmi_advise_outcome(&v->fixes[i], "->", what, sizeof what);
        for (char *q = what; *q; q++)
            if (*q == ' ')
                *q = NBSP; /* keep "32 -> 1 wavefronts" on one line */
        snprintf(buf, sizeof buf, "%s: %s%s%s", v->fixes[i].text, c.bold,
                 what, c.off);
        snprintf(lead, sizeof lead, "    %sfix:%s ", c.green, c.off);
        /* Colour codes inside buf do not take columns; wrap measures
         * them, which only makes lines wrap a little early. */
        wrap(f, lead, 9, buf, width);
    }
    if (v->nfixes == 0 && v->excess)
        wrap(f, "    ", 4,
             "no fix tried by the advisor lowers the count for this "
             "pattern.",
             width);
}

static void json_counts_brief(FILE *f, wm_space sp, const wm_counts *c)
{
    fprintf(f, "{\"requests\": %u, \"bytes\": %llu, ", c->requests,
            (unsigned long long)c->bytes);
    if (sp == WM_SPACE_SHARED)
        fprintf(f, "\"wavefronts\": %u, \"ideal_wavefronts\": %u}",
                c->wavefronts, c->ideal_wavefronts);
    else
        fprintf(f, "\"sectors\": %u, \"ideal_sectors\": %u}", c->sectors,
                c->ideal_sectors);
}

void wm_advise_json(FILE *f, const wm_advice *v)
{
    const wm_pattern *p = &v->pattern;
    fprintf(f, "{\"pattern\": {\"kind\": \"%s\", \"active\": %u, "
               "\"distinct\": %u, \"lo\": %llu, \"span\": %llu, "
               "\"stride\": %lld, \"group\": %u, \"jump\": %lld, "
               "\"misalign\": %u}, ",
            wm_pattern_name(p->kind), p->active, p->distinct,
            (unsigned long long)p->lo, (unsigned long long)p->span,
            (long long)p->stride, p->group, (long long)p->jump, p->misalign);
    fprintf(f, "\"space\": \"%s\", \"size\": %u, \"counts\": ",
            wm_space_name(v->space), v->size);
    json_counts_brief(f, v->space, &v->counts);
    fprintf(f, ", \"excess\": %llu, \"total\": %llu, \"share\": %.4f, "
               "\"severity\": \"%s\", \"headline\": ",
            (unsigned long long)v->excess, (unsigned long long)v->total,
            v->share, wm_severity_name(v->severity));
    wm_json_string(f, v->headline);
    fputs(", \"diagnosis\": ", f);
    wm_json_string(f, v->diagnosis);
    fputs(", \"fixes\": [", f);
    for (size_t i = 0; i < v->nfixes; i++) {
        const wm_fix *x = &v->fixes[i];
        fprintf(f, "%s{\"kind\": \"%s\", \"param\": %u, \"copies\": %u, "
                   "\"unit\": \"%s\", \"text\": ",
                i ? ", " : "", wm_fix_name(x->kind), x->param, x->copies,
                wmi_advise_unit(v->space));
        wm_json_string(f, x->text);
        fputs(", \"before\": ", f);
        json_counts_brief(f, v->space, &x->before);
        fputs(", \"after\": ", f);
        json_counts_brief(f, v->space, &x->after);
        fputc('}', f);
    }
    fputs("]}", f);
}
