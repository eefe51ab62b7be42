/*
 * ptx_report_int.h -- internal interface between the report writers of an
 * interpreted kernel: ptx_report.c (per-line text, JSON, CSV),
 * ptx_explain.c (the advisor under flagged lines, the HTML report) and
 * ptx_source.c (finding and reading the kernel's source files).
 */
#ifndef WM_PTX_REPORT_INT_H
#define WM_PTX_REPORT_INT_H

#include "ptx_int.h"

#include <stdio.h>

/* One source file named by a .file directive, and its lines. */
typedef struct wmi_srcfile {
    const char *path;   /* as in .file (borrowed from the module) */
    char *text;         /* NULL if unreadable */
    const char **lines; /* into text */
    size_t nlines;
} wmi_srcfile;

typedef struct wmi_sources {
    wmi_srcfile *files;
    size_t n;
    wmi_namemap bypath; /* path -> the first file of that path */
} wmi_sources;

/*
 * Read every .file of m that can be found: the path as written, then
 * relative to the PTX's directory, then the base name in the PTX's
 * parent directory (examples/kernels/sm_80/x.ptx -> ../x.cu).  Files that
 * cannot be read are kept with text NULL.  Returns 0 when memory ran out
 * (s empty), also while reading a file.
 */
int wmi_sources_load(wmi_sources *s, const wm_ptx_module *m,
                     const char *ptx_path);

/* Text of file:line with leading blanks trimmed, or NULL. */
/* The readable file of that path, else NULL. */
const wmi_srcfile *wmi_sources_file(const wmi_sources *s, const char *file);
const char *wmi_sources_line(const wmi_sources *s, const char *file,
                             uint32_t line);

void wmi_sources_free(wmi_sources *s);


/*
 * The sites sites[0..n) (all of one source line, any order) of one space
 * and op merged into one: summed stats, the worst access of the member
 * with the most per request (the first on ties), its size.  Returns the
 * number of members (0: none of that space and op; *out untouched).
 */
size_t wmi_merge_sites(const wm_site *sites, size_t n, wm_space space,
                       wm_op op, wm_site *out);

/*
 * The advice for one source line's sites: one entry per (space, op) that
 * the line uses, advised on the merged site against kernel totals t.
 * Returns the number written (at most cap).
 */
typedef struct wmi_line_advice {
    wm_site merged;   /* borrowed pointers point into the aggregator */
    size_t members;   /* instructions merged */
    wm_advice adv;
} wmi_line_advice;

size_t wmi_line_advise(const wm_arch *arch, const wm_site *sites, size_t n,
                       const wm_totals *t, wmi_line_advice *out, size_t cap);

/*
 * The sites of one source line (ptx_report.c groups the sorted sites;
 * the text, JSON, CSV and HTML writers read the groups).
 */
typedef struct wmi_line_group {
    const char *file;
    uint32_t line;
    size_t first, count; /* range in the sorted site array */
    wm_stats sum;
    uint64_t waste; /* excessive sectors + conflicts: the ranking key */
    double share;   /* with explain: the largest excessive share of the
                       line's sites, ranked first (ncu's rule size) */
    wm_severity sev;
    int rank;       /* 1 = worst; 0 = not wasteful */
} wmi_line_group;

/* The factor from the CTAs run to the grid; 0 when every CTA ran. */
double wmi_ptx_estimate_scale(const wm_ptx_result *res);

/* The totals of the whole grid estimated from a sample: every count of t
 * times k. */
void wmi_ptx_scale_totals(const wm_totals *t, double k, wm_totals *out);

/* "sectors/request" or "wavefronts/request". */
const char *wmi_per_request_unit(wm_space sp);

/*
 * The document of a run in o->format (JSON, CSV or an ncu CSV; see
 * docs/output.md): sites[0..n) sorted by file and line, grouped into
 * groups[0..ngroups), source text from files (ptx_report_doc.c).
 * WM_ERR_NOMEM or WM_ERR_IO when the writer failed.
 */
wm_status wmi_ptx_report_doc(FILE *f, const wm_ptx_module *m, const wm_agg *g,
                        const wm_ptx_report_opts *o, const wm_site *sites,
                        size_t n, const wmi_line_group *groups,
                        size_t ngroups, const wmi_sources *files);

#endif /* WM_PTX_REPORT_INT_H */
