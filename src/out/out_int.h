/*
 * out_int.h -- the one output layer of libwarpmem: every JSON and CSV
 * document the library writes goes through a wmi_out writer, in the spirit
 * of cmark's renderers (one walk of the document, one writer per format).
 *
 * Writers describe *what* to print, never the punctuation: they open
 * objects and arrays, give keyed values, and mark rows.
 *
 *   JSON: objects, arrays and values nest as called; commas, quoting,
 *         escapes and number forms are the writer's.  A row is an object.
 *   CSV:  only rows are written.  The keys of the first row of a table
 *         are its header; every later row must give the same keys in the
 *         same order (a differing row is an error, not a silent shift).
 *         Values, objects and arrays outside a row are not written, so one
 *         walk serves both formats.
 *
 * The common document shape ("schema": "warpmem/1", command, arch,
 * kernel, launch, totals by metric name with unit, sites) is documented
 * in docs/output.md; wmi_doc_* write its parts.  Errors (OOM, a row that
 * does not match the header, a failed write) are kept in the writer and
 * reported by wmi_out_finish.
 */
#ifndef WM_OUT_INT_H
#define WM_OUT_INT_H

#include "wm_int.h"

#include <stdio.h>

#define WMI_OUT_DEPTH 32
#define WMI_SCHEMA "warpmem/1"

typedef struct wmi_out {
    FILE *f;
    int csv;                          /* CSV rows, else JSON */
    int depth;                        /* open JSON containers */
    unsigned char first[WMI_OUT_DEPTH]; /* nothing written yet at depth */
    unsigned char is_arr[WMI_OUT_DEPTH];
    int row_depth;                    /* depth of the open row, or -1 */
    /* CSV: the row being built, the table's header */
    char *row, *head, *cur;           /* cur: this row's keys */
    size_t rowlen, rowcap, headlen, headcap, curlen, curcap;
    unsigned ncol;                    /* fields in the open row */
    int have_head;
    int quiet_head;                   /* CSV: the header is already out */
    int lines;                        /* JSON: a record a line (documents) */
    wm_status err;
    /* the document's context, repeated on every CSV row by wmi_doc_* */
    const char *command, *arch, *kernel;
} wmi_out;

/* Start a writer on f; csv: CSV rows, else JSON. */
void wmi_out_init(wmi_out *o, FILE *f, int csv);

/* Release the writer's buffers; returns its first error (WM_ERR_IO for a
 * failed write, WM_ERR_NOMEM, WM_ERR_ARG for a row off its header) or
 * WM_OK. */
wm_status wmi_out_finish(wmi_out *o);

/* Containers.  key names the member inside an object; it is ignored at
 * the top level and inside arrays (give NULL). */
void wmi_out_obj(wmi_out *o, const char *key);
void wmi_out_arr(wmi_out *o, const char *key);
void wmi_out_end(wmi_out *o);

/* A row: an object (JSON) or one CSV line; rows may nest nothing. */
void wmi_out_row(wmi_out *o, const char *key);
void wmi_out_row_end(wmi_out *o);

/* CSV: the next row starts a new table (a blank line, then its header). */
void wmi_out_table(wmi_out *o);

/* Values.  s NULL writes null (JSON) or an empty field (CSV). */
void wmi_out_str(wmi_out *o, const char *key, const char *s);
void wmi_out_uint(wmi_out *o, const char *key, uint64_t v);
void wmi_out_int(wmi_out *o, const char *key, int64_t v);
/* Whole numbers without a fraction, others in %.6g; NaN/inf: null. */
void wmi_out_num(wmi_out *o, const char *key, double v);
void wmi_out_bool(wmi_out *o, const char *key, int v);
void wmi_out_null(wmi_out *o, const char *key);
/* "0x..." as a string. */
void wmi_out_hex(wmi_out *o, const char *key, uint64_t v);
/* An array of n unsigned values. */
void wmi_out_uints(wmi_out *o, const char *key, const unsigned *v, size_t n);

/* ---- the common document (out_doc.c) ---------------------------------- */

/* Open the document: the top object with schema, command, arch and
 * kernel (NULL: null), which CSV rows also carry. */
void wmi_doc_begin(wmi_out *o, const char *command, const char *arch,
                   const char *kernel);
/* Close the document (JSON: the final brace and newline). */
void wmi_doc_end(wmi_out *o);

/* "launch": {"grid", "block", "warp_size"; the caller adds members and
 * calls wmi_out_end}.  grid or block NULL: that member is null. */
void wmi_doc_launch(wmi_out *o, const unsigned *grid, const unsigned *block,
                    unsigned warp_size);

/* key: {"<metric>": {"value": v, "unit": "sector"}, ...} over the
 * relevant metrics of t; CSV: one row per metric with scope `scope`. */
void wmi_doc_totals(wmi_out *o, const char *key, const char *scope,
                    const wm_totals *t);

/* The common members of one site (inside the caller's site object):
 * site, label, file, line, space, op, size, stats, per_request and its
 * metrics by name; CSV: one row per metric of the site. */
void wmi_doc_site(wmi_out *o, const wm_site *s);

/* The counts of one access a as an object under key (json.c). */
void wmi_doc_counts(wmi_out *o, const char *key, const wm_access *a,
                    const wm_counts *c);

/* A wm_stats object under key. */
void wmi_doc_stats(wmi_out *o, const char *key, const wm_stats *s);

/* One CSV row of the common long table (JSON: nothing).  site NULL: a
 * document-level row. */
void wmi_doc_csv_row(wmi_out *o, const char *scope, const wm_site *site,
                     const char *metric, const char *unit, double value);

/* The hierarchy model's section (cache_report.c): JSON "hierarchy"
 * object; CSV rows of scope "hierarchy". */
void wmi_cache_emit(wmi_out *o, const wm_cache *c, const wm_agg *g);

/* One advisor verdict as an object under key (advise_print.c). */
void wmi_advise_emit(wmi_out *o, const char *key, const wm_advice *adv);

/* ---- Nsight Compute's CSV (out_ncu.c) -------------------------------- */

/* One launch as ncu would list it. */
typedef struct wmi_ncu_launch {
    const char *kernel;   /* "Kernel Name" */
    const wm_arch *arch;  /* "CC" from its sm number */
    unsigned grid[3], block[3];
    unsigned id;          /* "ID" */
} wmi_ncu_launch;

/*
 * Write totals t (and the hierarchy metrics of c, may be NULL) of one
 * launch as `ncu --csv --page details` (raw == 0: one row per metric,
 * the quoted fifteen columns) or `--page raw` (raw != 0: one wide row
 * with a units row under the header).  Returns WM_ERR_IO on a failed
 * write.
 */
wm_status wmi_ncu_write(FILE *f, const wmi_ncu_launch *l, const wm_totals *t,
                        const wm_cache *c, int raw);

/* ---- expression runs (expr_report.c, expr_report_text.c) ------------- */

/* The advisor on every statement's worst warp, sized against the run's
 * totals; indexed like the aggregator's sites, ok[i] 0 where there is no
 * verdict, order the site indices worst first (wm_advise_rank). */
typedef struct wmi_expr_advice {
    wm_advice *adv;
    unsigned char *ok;
    size_t *order;
} wmi_expr_advice;

/* The text report of wm_expr_report; x NULL without --explain. */
wm_status wmi_expr_text(FILE *f, const wm_expr *e, const wm_agg *g,
                        const wm_expr_report_opts *ro,
                        const wmi_expr_advice *x);

/* Is fmt one of the ncu-shaped CSV formats? */
static inline int wmi_fmt_ncu(wm_format fmt)
{
    return fmt == WM_FMT_NCU_CSV || fmt == WM_FMT_NCU_RAW;
}

#endif /* WM_OUT_INT_H */
