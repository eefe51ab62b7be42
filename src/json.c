/*
 * json.c -- JSON helpers shared by every writer: string escaping, counts of
 * one access, and metrics by Nsight Compute name; and CSV's quoted field.
 */
#include "wm_int.h"

#include <math.h>

void wmi_csv_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void wm_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p;
         p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20)
                fprintf(f, "\\u%04x", *p);
            else
                fputc(*p, f);
        }
    }
    fputc('"', f);
}

/* A number the way JSON wants it: integers without a fraction. */
static void json_number(FILE *f, double v, int is_count)
{
    if (!isfinite(v))
        fputs("null", f);
    else if (is_count || v == floor(v))
        fprintf(f, "%.0f", v);
    else
        fprintf(f, "%.6g", v);
}

void wm_json_metrics(FILE *f, const wm_totals *t)
{
    int first = 1;
    fputc('{', f);
    for (size_t i = 0; i < wm_metric_count(); i++) {
        if (!wm_metric_relevant(t, i))
            continue;
        fputs(first ? "" : ", ", f);
        first = 0;
        wm_json_string(f, wm_metric_name(i));
        fputs(": ", f);
        json_number(f, wm_metric_value(t, i), wm_metric_is_count(i));
    }
    fputc('}', f);
}

void wm_json_counts(FILE *f, const wm_access *a, const wm_counts *c)
{
    fprintf(f, "{\"space\": \"%s\", \"op\": \"%s\", \"size\": %u, "
               "\"active\": %u, \"requests\": %u, \"bytes\": %llu",
            wm_space_name(a->space), wm_op_name(a->op), a->size, c->active,
            c->requests, (unsigned long long)c->bytes);
    if (a->space == WM_SPACE_SHARED)
        fprintf(f, ", \"wavefronts\": %u, \"ideal_wavefronts\": %u, "
                   "\"conflicts\": %u, \"nway\": %u}",
                c->wavefronts, c->ideal_wavefronts, c->conflicts, c->nway);
    else
        fprintf(f, ", \"sectors\": %u, \"tags\": %u, \"ideal_sectors\": %u, "
                   "\"excessive_sectors\": %u, \"t_wavefronts\": %u}",
                c->sectors, c->tags, c->ideal_sectors,
                c->sectors > c->ideal_sectors ? c->sectors - c->ideal_sectors
                                              : 0,
                c->t_wavefronts);
}
