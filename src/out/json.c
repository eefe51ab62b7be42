/*
 * json.c -- the public JSON helpers (counts of one access, metrics by
 * Nsight Compute name, written through the output layer).  The string
 * escapes are escape.c's, beneath both this file and the writer.
 */
#include "out_int.h"

void wm_json_metrics(FILE *f, const wm_totals *t)
{
    wmi_out o;
    wmi_out_init(&o, f, 0);
    wmi_out_obj(&o, NULL);
    for (size_t i = 0; i < wm_metric_count(); i++)
        if (wm_metric_relevant(t, i))
            wmi_out_num(&o, wm_metric_name(i), wm_metric_value(t, i));
    wmi_out_end(&o);
    wmi_out_finish(&o);
}

void wmi_doc_counts(wmi_out *o, const char *key, const wm_access *a,
                    const wm_counts *c)
{
    wmi_out_obj(o, key);
    wmi_out_str(o, "space", wm_space_name(a->space));
    wmi_out_str(o, "op", wm_op_name(a->op));
    wmi_out_uint(o, "size", a->size);
    wmi_out_uint(o, "active", c->active);
    wmi_out_uint(o, "requests", c->requests);
    wmi_out_uint(o, "bytes", c->bytes);
    if (a->space == WM_SPACE_SHARED) {
        wmi_out_uint(o, "wavefronts", c->wavefronts);
        wmi_out_uint(o, "ideal_wavefronts", c->ideal_wavefronts);
        wmi_out_uint(o, "conflicts", c->conflicts);
        wmi_out_uint(o, "nway", c->nway);
    } else {
        wmi_out_uint(o, "sectors", c->sectors);
        wmi_out_uint(o, "tags", c->tags);
        wmi_out_uint(o, "ideal_sectors", c->ideal_sectors);
        wmi_out_uint(o, "excessive_sectors",
                     c->sectors > c->ideal_sectors
                         ? c->sectors - c->ideal_sectors
                         : 0);
        wmi_out_uint(o, "t_wavefronts", c->t_wavefronts);
    }
    wmi_out_end(o);
}

void wm_json_counts(FILE *f, const wm_access *a, const wm_counts *c)
{
    wmi_out o;
    wmi_out_init(&o, f, 0);
    wmi_doc_counts(&o, NULL, a, c);
    wmi_out_finish(&o);
}
