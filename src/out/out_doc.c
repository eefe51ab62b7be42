/*
 * out_doc.c -- the parts every warpmem document shares (docs/output.md):
 * the head (schema, command, arch, kernel), the launch, totals by metric
 * name with unit, and the common members of a site.
 *
 * In JSON they are members of the top object; in CSV each metric is one
 * row of the long table
 *   command,arch,kernel,scope,site,file,line,label,space,op,size,metric,
 *   unit,value
 * (scope: "launch" -- ncu's launch__block_size and launch__grid_size --,
 * "total", "total_estimated", "site" or "hierarchy"), so one walk
 * writes both and a CSV reader never meets a second shape.
 */
#include "out_int.h"

void wmi_doc_begin(wmi_out *o, const char *command, const char *arch,
                   const char *kernel)
{
    o->command = command;
    o->arch = arch;
    o->kernel = kernel;
    o->lines = 1;
    wmi_out_obj(o, NULL);
    wmi_out_str(o, "schema", WMI_SCHEMA);
    wmi_out_str(o, "command", command);
    wmi_out_str(o, "arch", arch);
    wmi_out_str(o, "kernel", kernel);
}

void wmi_doc_end(wmi_out *o)
{
    wmi_out_end(o);
    if (!o->csv)
        fputc('\n', o->f);
}

void wmi_doc_launch(wmi_out *o, const unsigned *grid, const unsigned *block,
                    unsigned warp_size)
{
    if (grid && block) {
        /* CSV: the launch as ncu's launch__ metrics */
        double nb = (double)block[0] * block[1] * block[2];
        double ng = (double)grid[0] * grid[1] * grid[2];
        wmi_doc_csv_row(o, "launch", NULL, "launch__block_size", "", nb);
        wmi_doc_csv_row(o, "launch", NULL, "launch__grid_size", "", ng);
    }
    wmi_out_obj(o, "launch");
    if (grid)
        wmi_out_uints(o, "grid", grid, 3);
    else
        wmi_out_null(o, "grid");
    if (block)
        wmi_out_uints(o, "block", block, 3);
    else
        wmi_out_null(o, "block");
    wmi_out_uint(o, "warp_size", warp_size);
}

void wmi_doc_csv_row(wmi_out *o, const char *scope, const wm_site *s,
                     const char *metric, const char *unit, double value)
{
    if (!o->csv)
        return;
    wmi_out_row(o, NULL);
    wmi_out_str(o, "command", o->command ? o->command : "");
    wmi_out_str(o, "arch", o->arch ? o->arch : "");
    wmi_out_str(o, "kernel", o->kernel ? o->kernel : "");
    wmi_out_str(o, "scope", scope);
    if (s) {
        wmi_out_uint(o, "site", s->site);
        wmi_out_str(o, "file", s->file ? s->file : "");
        wmi_out_uint(o, "line", s->line);
        wmi_out_str(o, "label", s->label ? s->label : "");
        wmi_out_str(o, "space", wm_space_name(s->space));
        wmi_out_str(o, "op", wm_op_name(s->op));
        wmi_out_uint(o, "size", s->size);
    } else {
        static const char *const blank[] = {"site", "file", "line", "label",
                                            "space", "op", "size"};
        for (size_t i = 0; i < WM_ARRAY_LEN(blank); i++)
            wmi_out_null(o, blank[i]);
    }
    wmi_out_str(o, "metric", metric);
    wmi_out_str(o, "unit", unit);
    wmi_out_num(o, "value", value);
    wmi_out_row_end(o);
}

/* The metrics of t: JSON members {"value", "unit"}, CSV rows. */
static void metrics(wmi_out *o, const char *key, const char *scope,
                    const wm_site *s, const wm_totals *t)
{
    wmi_out_obj(o, key);
    for (size_t i = 0; i < wm_metric_count(); i++) {
        if (!wm_metric_relevant(t, i))
            continue;
        double v = wm_metric_value(t, i);
        wmi_doc_csv_row(o, scope, s, wm_metric_name(i), wm_metric_unit(i),
                        v);
        wmi_out_obj(o, wm_metric_name(i));
        wmi_out_num(o, "value", v);
        wmi_out_str(o, "unit", wm_metric_unit(i));
        wmi_out_end(o);
    }
    wmi_out_end(o);
}

void wmi_doc_totals(wmi_out *o, const char *key, const char *scope,
                    const wm_totals *t)
{
    metrics(o, key, scope, NULL, t);
}

void wmi_doc_stats(wmi_out *o, const char *key, const wm_stats *s)
{
    wmi_out_obj(o, key);
    wmi_out_uint(o, "executions", s->inst);
    wmi_out_uint(o, "active_lanes", s->active_lanes);
    wmi_out_uint(o, "requests", s->requests);
    wmi_out_uint(o, "bytes", s->bytes);
    wmi_out_uint(o, "sectors", s->sectors);
    wmi_out_uint(o, "ideal_sectors", s->ideal_sectors);
    wmi_out_uint(o, "excessive_sectors", s->excessive_sectors);
    wmi_out_uint(o, "wavefronts", s->wavefronts);
    wmi_out_uint(o, "ideal_wavefronts", s->ideal_wavefronts);
    wmi_out_uint(o, "conflicts", s->conflicts);
    wmi_out_end(o);
}

void wmi_doc_site(wmi_out *o, const wm_site *s)
{
    const char *unit = s->space == WM_SPACE_SHARED ? "wavefront/request"
                                                   : "sector/request";
    wm_totals t;
    memset(&t, 0, sizeof t);
    wm_totals_add_site(&t, s);
    wmi_out_uint(o, "site", s->site);
    wmi_out_str(o, "label", s->label ? s->label : "");
    wmi_out_str(o, "file", s->file ? s->file : "");
    wmi_out_uint(o, "line", s->line);
    wmi_out_str(o, "space", wm_space_name(s->space));
    wmi_out_str(o, "op", wm_op_name(s->op));
    wmi_out_uint(o, "size", s->size);
    wmi_doc_stats(o, "stats", &s->stats);
    wmi_out_obj(o, "per_request");
    wmi_out_str(o, "unit", unit);
    wmi_out_uint(o, "min", s->per_request.min);
    wmi_out_uint(o, "median", s->per_request.median);
    wmi_out_uint(o, "max", s->per_request.max);
    wmi_out_num(o, "mean", s->per_request.mean);
    wmi_out_end(o);
    metrics(o, "metrics", "site", s, &t);
    static const char *const dist[] = {"per_request.min", "per_request.median",
                                       "per_request.max", "per_request.mean"};
    double dv[] = {s->per_request.min, s->per_request.median,
                   s->per_request.max, s->per_request.mean};
    for (size_t i = 0; i < WM_ARRAY_LEN(dist); i++)
        wmi_doc_csv_row(o, "site", s, dist[i], unit, dv[i]);
}
