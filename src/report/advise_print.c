/*
 * advise_print.c -- the advisor's text and JSON writers.
 *
 * Text is the primary interface: a headline with the severity, the size
 * of the problem in ncu's words ("N excessive sectors (P% of the total T
 * sectors)"), the why, and one line per fix with its what-if, wrapped to
 * the terminal.  ANSI colours only when the caller asks for them.
 */
#include "advise_int.h"
#include "out_int.h"

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

static void emit_counts_brief(wmi_out *o, const char *key, wm_space sp,
                              const wm_counts *c)
{
    wmi_out_obj(o, key);
    wmi_out_uint(o, "requests", c->requests);
    wmi_out_uint(o, "bytes", c->bytes);
    if (sp == WM_SPACE_SHARED) {
        wmi_out_uint(o, "wavefronts", c->wavefronts);
        wmi_out_uint(o, "ideal_wavefronts", c->ideal_wavefronts);
    } else {
        wmi_out_uint(o, "sectors", c->sectors);
        wmi_out_uint(o, "ideal_sectors", c->ideal_sectors);
    }
    wmi_out_end(o);
}

void wmi_advise_emit(wmi_out *o, const char *key, const wm_advice *v)
{
    const wm_pattern *p = &v->pattern;
    wmi_out_obj(o, key);
    wmi_out_obj(o, "pattern");
    wmi_out_str(o, "kind", wm_pattern_name(p->kind));
    wmi_out_uint(o, "active", p->active);
    wmi_out_uint(o, "distinct", p->distinct);
    wmi_out_uint(o, "lo", p->lo);
    wmi_out_uint(o, "span", p->span);
    wmi_out_int(o, "stride", p->stride);
    wmi_out_uint(o, "group", p->group);
    wmi_out_int(o, "jump", p->jump);
    wmi_out_uint(o, "misalign", p->misalign);
    wmi_out_end(o);
    wmi_out_str(o, "space", wm_space_name(v->space));
    wmi_out_uint(o, "size", v->size);
    emit_counts_brief(o, "counts", v->space, &v->counts);
    wmi_out_uint(o, "excess", v->excess);
    wmi_out_uint(o, "total", v->total);
    wmi_out_num(o, "share", v->share);
    wmi_out_str(o, "severity", wm_severity_name(v->severity));
    wmi_out_str(o, "headline", v->headline);
    wmi_out_str(o, "diagnosis", v->diagnosis);
    wmi_out_arr(o, "fixes");
    for (size_t i = 0; i < v->nfixes; i++) {
        const wm_fix *x = &v->fixes[i];
        wmi_out_obj(o, NULL);
        wmi_out_str(o, "kind", wm_fix_name(x->kind));
        wmi_out_uint(o, "param", x->param);
        wmi_out_uint(o, "copies", x->copies);
        wmi_out_str(o, "unit", wmi_advise_unit(v->space));
        wmi_out_str(o, "text", x->text);
        emit_counts_brief(o, "before", v->space, &x->before);
        emit_counts_brief(o, "after", v->space, &x->after);
        wmi_out_end(o);
    }
    wmi_out_end(o);
    wmi_out_end(o);
}

void wm_advise_json(FILE *f, const wm_advice *v)
{
    wmi_out o;
    wmi_out_init(&o, f, 0);
    wmi_advise_emit(&o, NULL, v);
    wmi_out_finish(&o);
}
