/*
 * warpmem.h -- the one public header of libwarpmem.
 *
 * libwarpmem answers "how does this warp's memory instruction become memory
 * traffic?".  A front end (the CLI's --stride/--addrs, index expressions,
 * interpreted PTX) describes one warp-wide access as a wm_access; wm_count()
 * applies the hardware rules of an architecture profile and returns the
 * counts Nsight Compute reports for it (requests, 32 B sectors, 128 B tags,
 * shared-memory wavefronts, bank conflicts); a wm_agg sums many accesses per
 * site and names the totals with Nsight Compute's metric names.
 *
 * Ownership rules (they hold for every function below):
 *   - wm_x_new() returns an object the caller releases with wm_x_free();
 *     wm_x_free(NULL) is a no-op.
 *   - const pointers passed in are borrowed for the duration of the call
 *     only; the library copies what it keeps (strings, arch profiles).
 *   - const pointers returned (names, site labels, worst accesses) are owned
 *     by the library and live until the owning object is freed or, for
 *     static tables, forever.
 *   - Memory documented "caller frees" is released with free().
 * The model functions (wm_count, wm_shared_banks) allocate nothing and do
 * no I/O; they are safe to call from several threads at once.  One wm_agg
 * must not be used by two threads at once; merge per-thread aggregators
 * with wm_agg_merge().
 */
#ifndef WM_WARPMEM_H
#define WM_WARPMEM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(WM_BUILDING_SHARED) && defined(__GNUC__)
#define WM_API __attribute__((visibility("default")))
#else
#define WM_API
#endif

/*
 * The version, written only here: CMake's project(VERSION) and the Python
 * package's version are read from these three lines.  WM_VERSION is the
 * string "MAJOR.MINOR.PATCH"; WM_VERSION_NUMBER is MAJOR*10000 +
 * MINOR*100 + PATCH, for #if tests (#if WM_VERSION_NUMBER >= 100).
 */
#define WM_VERSION_MAJOR 0
#define WM_VERSION_MINOR 1
#define WM_VERSION_PATCH 0
#define WM_VERSION_STR_(x) #x
#define WM_VERSION_XSTR_(x) WM_VERSION_STR_(x)
#define WM_VERSION                                                            \
    WM_VERSION_XSTR_(WM_VERSION_MAJOR)                                        \
    "." WM_VERSION_XSTR_(WM_VERSION_MINOR) "." WM_VERSION_XSTR_(               \
        WM_VERSION_PATCH)
#define WM_VERSION_NUMBER                                                     \
    (WM_VERSION_MAJOR * 10000 + WM_VERSION_MINOR * 100 + WM_VERSION_PATCH)

/*
 * The version of the library linked at run time, "MAJOR.MINOR.PATCH": the
 * WM_VERSION it was built with, which differs from the WM_VERSION a caller
 * was compiled against when an older or newer shared library is loaded.
 * Static string, never freed.
 */
WM_API const char *wm_version(void);

/* Release memory the library documents as "caller frees" (the same as
   free(); for callers that do not share the library's C runtime). */
WM_API void wm_free(void *p);

/* Largest warp (wave) any profile may have, and most banks. */
#define WM_MAX_LANES 64
#define WM_MAX_BANKS 64
/* Per-request distributions are kept exactly up to this value. */
#define WM_HIST_MAX 512

/* ---- limits -------------------------------------------------------------- */

/*
 * Every limit that protects against hostile or mistaken input, with its
 * value here and its description in WM_LIMIT_LIST:
 *   X(NAME, "what it bounds", "how to raise it")
 * docs/limits.md and `warpmem --help` list them.  A limit hit is an error
 * whose message names the limit and, where a flag raises it, the flag.
 */
#define WM_LIMIT_INPUT_BYTES (256ull << 20)
#define WM_LIMIT_MODULE_DATA (1ull << 30)
#define WM_LIMIT_REGS 65536ull
#define WM_LIMIT_SMEM (228ull << 10)
#define WM_LIMIT_LOCAL (512ull << 10)
#define WM_LIMIT_EXPR_DEPTH 200ull
#define WM_LIMIT_PTX_NESTING 256ull
#define WM_LIMIT_LINT_BYTES (1ull << 30)
#define WM_LIMIT_CTA_STEPS 100000000ull
#define WM_LIMIT_TOTAL_STEPS 100000000000ull
#define WM_EXPR_DEFAULT_LIMIT ((uint64_t)1 << 28)

#define WM_LIMIT_LIST(X)                                                      \
    X(WM_LIMIT_INPUT_BYTES,                                                   \
      "bytes of one input file (PTX, expression file, source line reads)",    \
      "fixed (no flag)")                                                      \
    X(WM_LIMIT_MODULE_DATA,                                                   \
      "bytes of a PTX module's .global/.const variables", "fixed (no flag)")  \
    X(WM_LIMIT_REGS,                                                          \
      "register slots of one PTX function (registers + distinct constants)",  \
      "fixed (no flag)")                                                      \
    X(WM_LIMIT_SMEM,                                                          \
      "bytes of shared memory of one CTA (static + run --smem)",              \
      "fixed (no flag)")                                                      \
    X(WM_LIMIT_LOCAL, "bytes of .local memory per thread", "fixed (no flag)") \
    X(WM_LIMIT_EXPR_DEPTH,                                                    \
      "nesting depth of an expression (parentheses, unary and binary "        \
      "operators)",                                                           \
      "fixed (no flag)")                                                      \
    X(WM_LIMIT_PTX_NESTING,                                                   \
      "nesting depth of { } blocks in a PTX function body",                   \
      "fixed (no flag)")                                                      \
    X(WM_LIMIT_LINT_BYTES,                                                    \
      "bytes of lint's per-block state of one kernel (blocks x registers)",   \
      "fixed (no flag)")                                                      \
    X(WM_LIMIT_CTA_STEPS, "warp instructions of one CTA (default)",           \
      "run --max-steps N")                                                    \
    X(WM_EXPR_DEFAULT_LIMIT, "warp accesses of one expr run (default)",      \
      "expr --max-accesses N, or a smaller grid")                             \
    X(WM_LIMIT_TOTAL_STEPS,                                                   \
      "warp instructions of a whole launch (default; estimated after the "    \
      "first CTA)",                                                           \
      "run --max-total-steps N, or fewer CTAs: --ctas sample:N")

/* ---- status codes ------------------------------------------------------ */

#define WM_STATUS_LIST(X)                                                     \
    X(WM_OK, "ok")                                                           \
    X(WM_ERR_NOMEM, "out of memory")                                         \
    X(WM_ERR_ARG, "invalid argument")                                        \
    X(WM_ERR_SIZE, "access size must be 1, 2, 4, 8 or 16 bytes")            \
    X(WM_ERR_ALIGN, "address not aligned to the access size")               \
    X(WM_ERR_ARCH, "invalid architecture profile")                           \
    X(WM_ERR_PARSE, "syntax error")                                          \
    X(WM_ERR_RANGE, "value out of range")                                    \
    X(WM_ERR_IO, "input/output error")                                       \
    X(WM_ERR_FAULT, "fault inside the analysed program")                     \
    X(WM_ERR_LIMIT, "step budget exhausted")                                 \
    X(WM_ERR_UNSUPPORTED, "unsupported feature")

typedef enum {
#define WM_X_ENUM(code, text) code,
    WM_STATUS_LIST(WM_X_ENUM)
#undef WM_X_ENUM
        WM_NSTATUS
} wm_status;

/* A short English text for a status; never NULL. */
WM_API const char *wm_status_str(wm_status st);

/* ---- diagnostics for parsers ------------------------------------------- */

/*
 * First-error-wins diagnostic.  Parsers store the byte offset of the
 * offending token; line and column (1-based) are filled in by wm_diag_locate
 * when the error is reported.  len is the width of the token (>= 1) used for
 * the caret span.
 */
typedef struct wm_diag {
    wm_status status;
    size_t offset;
    size_t len;
    int line;
    int col;
    char msg[256];
} wm_diag;

/* Record an error in d unless one is already there.  Returns d->status. */
WM_API wm_status wm_diag_set(wm_diag *d, wm_status st, size_t offset,
                             size_t len, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Compute d->line/d->col from d->offset within src (length n). */
WM_API void wm_diag_locate(wm_diag *d, const char *src, size_t n);

/*
 * Print "file:line:col: error: msg", the source line and a caret span to f.
 * src may be NULL (then only the first line is printed).
 */
WM_API void wm_diag_print(FILE *f, const wm_diag *d, const char *file,
                          const char *src, size_t n);

/* ---- files -------------------------------------------------------------- */

/*
 * Read a whole file (or the rest of a stream) into a NUL-terminated buffer;
 * *len (if non-NULL) receives its length.  Caller frees.  NULL with errno
 * set on failure: EFBIG past WM_LIMIT_INPUT_BYTES, EISDIR for a directory,
 * EINVAL (wm_read_file) for what is not a regular file (a FIFO, a device:
 * never opened, so a FIFO cannot block), else the system's errno.
 */
WM_API char *wm_read_file(const char *path, size_t *len);
WM_API char *wm_read_stream(FILE *f, size_t *len);

/* The reason for a failed read, by the errno it left: a static string
   ("is a directory", "larger than the input limit ..."); never NULL. */
WM_API const char *wm_read_error(int err);

/* ---- architecture profiles --------------------------------------------- */

/*
 * The parameters of the memory model.  NVIDIA profiles sm_70 ... sm_90 use
 * 32 lanes, 32 B sectors, 128 B lines and 32 four-byte banks;
 * uniform_pair enables the CC 7.x rule that 64/128-bit shared loads whose
 * lanes pair up on equal addresses take half the wavefronts
 * (docs/design/memory-model.md §2).
 */
typedef struct wm_arch {
    char name[24];
    unsigned sm;           /* compute capability x10; 0 for generic */
    unsigned warp_size;    /* 32 or 64 */
    unsigned sector_bytes; /* global transaction unit, power of 2 */
    unsigned line_bytes;   /* cache line (tag) size, multiple of sector */
    unsigned banks;        /* shared-memory banks, power of 2 <= 64 */
    unsigned bank_bytes;   /* bytes per bank word: 4 or 8 */
    /* line_bytes / sector_bytes must be <= 64 */
    unsigned uniform_pair; /* 1: CC 7.x uniform-pair rule for LDS.64/128 */
} wm_arch;

/* The profile used when none is named (sm_90). */
WM_API const wm_arch *wm_arch_default(void);

/* Number of built-in profiles and the i-th one (NULL past the end). */
WM_API size_t wm_arch_count(void);
WM_API const wm_arch *wm_arch_at(size_t i);

/*
 * Parse a profile spec into *out: a built-in name ("sm_80", "80", "sm90",
 * "amd-wave64") or "generic[,key=value...]" with keys warp, sector, line,
 * banks, bankbytes (e.g. "generic,warp=64,banks=32").  On error returns
 * WM_ERR_ARCH and writes a one-line reason into err (if non-NULL).
 */
WM_API wm_status wm_arch_parse(const char *spec, wm_arch *out, char *err,
                               size_t errlen);

/* Validate a hand-filled profile; WM_OK or WM_ERR_ARCH. */
WM_API wm_status wm_arch_check(const wm_arch *a);

/* ---- one warp access --------------------------------------------------- */

typedef enum {
    WM_SPACE_GLOBAL,
    WM_SPACE_LOCAL, /* per-thread addresses; the model interleaves lanes */
    WM_SPACE_SHARED,
    WM_SPACE_TEXTURE, /* tex / tld4 through a texture object: the texels
                         the filter reads, counted in sectors as global */
    WM_SPACE_SURFACE, /* suld / sust through a surface object */
    WM_NSPACES
} wm_space;

typedef enum {
    WM_OP_LD,     /* load */
    WM_OP_ST,     /* store */
    WM_OP_ATOM,   /* atomic or reduction */
    WM_OP_LDSM,   /* ldmatrix: shared, 16 B rows, 8-lane phases */
    WM_OP_LDGSTS, /* cp.async: global read side or shared write side */
    WM_OP_WGMMA,  /* wgmma's descriptor reads: shared, 16 B rows, 8-lane
                     phases (one per core matrix) */
    WM_OP_TMA,    /* cp.async.bulk.tensor / cp.reduce.async.bulk.tensor:
                     the global side of a TMA copy (not LSU requests) */
    WM_NOPS
} wm_op;

/* Short names: "global", "local", "shared", "texture", "surface"; "ld",
   "st", "atom", "ldsm", "ldgsts", "tma" */
WM_API const char *wm_space_name(wm_space s);
WM_API const char *wm_op_name(wm_op o);

/*
 * One warp-wide memory instruction.  Lane i takes part iff bit i of mask is
 * set (the active mask AND the guard predicate).  addr[i] is lane i's byte
 * address (for WM_SPACE_LOCAL: the per-thread local address); entries of
 * inactive lanes are ignored.  size is the per-lane access in bytes (1, 2,
 * 4, 8 or 16); every active address must be a multiple of size.
 */
typedef struct wm_access {
    uint32_t site; /* caller's id: instruction, statement, line ... */
    wm_space space;
    wm_op op;
    unsigned size;
    uint64_t mask;
    uint64_t addr[WM_MAX_LANES];
} wm_access;

/* What one warp access costs.  Fields of the other space are zero. */
typedef struct wm_counts {
    uint32_t active;   /* active lanes */
    uint32_t requests; /* 1, or 0 when no lane is active */
    uint64_t bytes;    /* requested bytes: active * size */
    /* global / local */
    uint32_t sectors;       /* distinct sectors touched */
    uint32_t tags;          /* distinct lines touched */
    uint32_t ideal_sectors; /* ceil(bytes / sector_bytes) */
    uint32_t t_wavefronts;  /* estimate: ceil(tags / 4) */
    /* shared */
    uint32_t wavefronts;       /* sum over phases of the busiest bank */
    uint32_t ideal_wavefronts; /* ceil(bytes / (banks * bank_bytes)) */
    uint32_t conflicts;        /* wavefronts - ideal_wavefronts, >= 0 */
    uint32_t nway;             /* busiest bank in any one phase */
} wm_counts;

/*
 * Count one access.  Returns WM_OK, WM_ERR_SIZE (size not 1/2/4/8/16),
 * WM_ERR_ALIGN (an active address not a multiple of size) or WM_ERR_ARG.
 * *out is zeroed on error.
 */
WM_API wm_status wm_count(const wm_arch *arch, const wm_access *a,
                          wm_counts *out);

/*
 * Shared-memory detail for drawing: for each lane its bank (-1 when
 * inactive) and its phase (for every lane of the warp, -1 beyond it; the
 * uniform-pair rule may double the phase width), and for each bank the
 * number of distinct words it serves summed over all phases.  Any output
 * pointer may be NULL.
 */
WM_API wm_status wm_shared_banks(const wm_arch *arch, const wm_access *a,
                                 int lane_bank[WM_MAX_LANES],
                                 int lane_phase[WM_MAX_LANES],
                                 unsigned bank_words[WM_MAX_BANKS]);

/* Lanes per shared-memory phase for an access size (32 / 16 / 8 ...). */
WM_API unsigned wm_shared_phase_lanes(const wm_arch *arch, unsigned size);

/* ---- aggregation ------------------------------------------------------- */

/* Sums for one (space, op) category or one site. */
typedef struct wm_stats {
    uint64_t inst;         /* executions with at least one active lane */
    uint64_t inst_all;     /* executions including fully predicated off */
    uint64_t active_lanes; /* thread-level executions */
    uint64_t requests;
    uint64_t bytes; /* requested bytes */
    uint64_t sectors;
    uint64_t tags;
    uint64_t ideal_sectors;
    uint64_t excessive_sectors; /* sum of max(0, sectors - ideal) */
    uint64_t t_wavefronts;
    uint64_t wavefronts;
    uint64_t ideal_wavefronts;
    uint64_t conflicts; /* sum of wavefronts - ideal */
} wm_stats;

/*
 * Kernel totals: one wm_stats per space and op, and the profile's sector
 * and wavefront sizes (for byte-efficiency metrics).  Zero-initialise a
 * wm_totals before adding sites to it.
 */
typedef struct wm_totals {
    wm_stats s[WM_NSPACES][WM_NOPS];
    unsigned sector_bytes;    /* 0 means 32 */
    unsigned wavefront_bytes; /* banks * bank_bytes; 0 means 128 */
} wm_totals;

/* Distribution of a per-request value over a site's requests. */
typedef struct wm_dist {
    uint32_t min, median, max; /* 0 when there were no requests */
    double mean;
} wm_dist;

/* One site as reported by the aggregator (all pointers borrowed). */
typedef struct wm_site {
    uint32_t site;
    wm_space space;
    wm_op op;
    unsigned size; /* access size of the last access added */
    const char *label; /* caller's text (statement, PTX, source) or "" */
    const char *file;  /* source file or "" */
    uint32_t line;     /* source line, 0 if unknown */
    wm_stats stats;
    wm_dist per_request; /* sectors (global/local) or wavefronts (shared) */
    const wm_access *worst; /* the access with the most of the above */
} wm_site;

typedef struct wm_agg wm_agg;

/* New aggregator for one profile (copied).  NULL on OOM or bad profile. */
WM_API wm_agg *wm_agg_new(const wm_arch *arch);
WM_API void wm_agg_free(wm_agg *g);

/* The profile the aggregator counts with. */
WM_API const wm_arch *wm_agg_arch(const wm_agg *g);

/*
 * Count a (WM_OK) and add it to its site.  An access with an empty mask is
 * counted in inst_all only.  On a counting error nothing is added and the
 * status of wm_count is returned.  out, if non-NULL, receives the counts.
 */
WM_API wm_status wm_agg_add(wm_agg *g, const wm_access *a, wm_counts *out);

/* Attach a label, file and line to a site (strings are copied). */
WM_API wm_status wm_agg_label(wm_agg *g, uint32_t site, const char *label,
                              const char *file, uint32_t line);

/* Add everything src holds into dst (labels too).  Same profile needed. */
WM_API wm_status wm_agg_merge(wm_agg *dst, const wm_agg *src);

/* Sites in ascending (site, space, op) order. */
WM_API size_t wm_agg_nsites(const wm_agg *g);
WM_API int wm_agg_site(const wm_agg *g, size_t i, wm_site *out);

/* Sum of all sites by category. */
WM_API void wm_agg_totals(const wm_agg *g, wm_totals *out);

/* Add one site's stats into a totals object (for per-site metrics). */
WM_API void wm_totals_add_site(wm_totals *t, const wm_site *s);

/* ---- metrics under Nsight Compute's names ------------------------------ */

/* Number of metrics, the i-th one's name, and its value for totals t. */
WM_API size_t wm_metric_count(void);
WM_API const char *wm_metric_name(size_t i);
WM_API double wm_metric_value(const wm_totals *t, size_t i);
/* 1 if the metric's category saw any instruction in t (worth printing). */
WM_API int wm_metric_relevant(const wm_totals *t, size_t i);
/* 1 if the value is a whole count (print as integer), 0 for ratio/pct. */
WM_API int wm_metric_is_count(size_t i);
/* The metric's unit as Nsight Compute prints it with --print-units base
 * ("sector", "request", "inst", "byte/sector", "%", or "" for unitless
 * counts such as wavefronts); "" for an index out of range. */
WM_API const char *wm_metric_unit(size_t i);

/* ---- writers ------------------------------------------------------------ */

/*
 * Output format selector shared by the analysing commands.  JSON and CSV
 * have the shape of docs/output.md ("schema": "warpmem/1"); NCU_CSV is
 * what `ncu --csv --page details` writes (one row per metric), NCU_RAW
 * what `ncu --csv --page raw` writes (one wide row per launch under a
 * units row).
 */
typedef enum {
    WM_FMT_TEXT,
    WM_FMT_JSON,
    WM_FMT_CSV,
    WM_FMT_NCU_CSV,
    WM_FMT_NCU_RAW
} wm_format;

/*
 * Draw one access as text: for global/local a lane -> sector map (one row
 * per touched line, a column per sector, lanes listed in each cell), for
 * shared a lane -> bank map (one row per phase, a cell per bank holding the
 * number of distinct words).  color: emit ANSI colours.  width: terminal
 * columns to fit (>= 60).
 */
WM_API void wm_draw_access(FILE *f, const wm_arch *arch, const wm_access *a,
                           int color, unsigned width);

/* Write a JSON string literal (with quotes and escapes; a byte of s that
 * starts no well-formed UTF-8 sequence is written as \ufffd). */
WM_API void wm_json_string(FILE *f, const char *s);

/*
 * Write the relevant metrics of t as a JSON object body
 * ({"name": value, ...}) to f.
 */
WM_API void wm_json_metrics(FILE *f, const wm_totals *t);

/* Write counts as a JSON object ({"requests":..., ...}). */
WM_API void wm_json_counts(FILE *f, const wm_access *a, const wm_counts *c);

/*
 * A writer of documents in warpmem's own shape (docs/output.md), for
 * programs built on the library that add documents of their own (the
 * lab's): the same quoting, number forms and CSV rules as every document
 * the library writes.  JSON: objects, arrays and values nest as called.
 * CSV: only rows are written; the first row's keys are the header and
 * every later row must give the same keys in order.  key names a member
 * inside an object and is ignored at the top level and in arrays (NULL).
 *
 * wm_writer_new takes WM_FMT_JSON or WM_FMT_CSV (else, or on OOM, NULL);
 * wm_writer_free returns the first error (WM_ERR_IO for a failed write,
 * WM_ERR_NOMEM, WM_ERR_ARG for a CSV row off its header) and frees.
 * doc_begin opens the top object with "schema", "command", "arch" and
 * "kernel" (NULL: null), which CSV rows repeat; doc_end closes it.
 */
typedef struct wm_writer wm_writer;
WM_API wm_writer *wm_writer_new(FILE *f, wm_format fmt);
WM_API wm_status wm_writer_free(wm_writer *w);
WM_API void wm_writer_doc_begin(wm_writer *w, const char *command,
                                const char *arch, const char *kernel);
WM_API void wm_writer_doc_end(wm_writer *w);
WM_API void wm_writer_obj(wm_writer *w, const char *key);
WM_API void wm_writer_arr(wm_writer *w, const char *key);
WM_API void wm_writer_end(wm_writer *w);
WM_API void wm_writer_row(wm_writer *w, const char *key);
WM_API void wm_writer_row_end(wm_writer *w);
WM_API void wm_writer_str(wm_writer *w, const char *key, const char *s);
WM_API void wm_writer_uint(wm_writer *w, const char *key, uint64_t v);
WM_API void wm_writer_int(wm_writer *w, const char *key, int64_t v);
/* Whole numbers without a fraction, others in %.6g; NaN and inf: null. */
WM_API void wm_writer_num(wm_writer *w, const char *key, double v);
WM_API void wm_writer_bool(wm_writer *w, const char *key, int v);
WM_API void wm_writer_null(wm_writer *w, const char *key);
WM_API void wm_writer_uints(wm_writer *w, const char *key, const unsigned *v,
                            size_t n);

/*
 * The document of one warp access (`warpmem global|shared`) in fmt (JSON,
 * CSV or an ncu CSV; docs/output.md): counts, totals by Nsight Compute
 * name with units, the lane addresses and, with explain, the advisor's
 * verdict.  WM_ERR_ARG for WM_FMT_TEXT or NULL arguments, the status of
 * wm_count for a bad access, WM_ERR_IO when writing failed.
 */
WM_API wm_status wm_access_report(FILE *f, const wm_arch *arch,
                                  const wm_access *a, wm_format fmt,
                                  int explain);

/* ---- expressions (wm_expr_*) ------------------------------------------ */

/*
 * Index expressions evaluated over a whole grid (docs/expr.md has the
 * language).  A program is a list of access statements such as
 *   load global f32 in[8192][8192] at [ctaid.y*32+tid.y+j][ctaid.x*32+tid.x]
 *        for j in 0..32 step 8
 * plus `grid`, `block` and `const` lines.  Use: wm_expr_new, any
 * wm_expr_define, wm_expr_parse, optionally wm_expr_set_launch, then
 * wm_expr_run into a wm_agg; statement i is site i of the aggregator.
 */
typedef struct wm_expr wm_expr;

#define WM_EXPR_MAX_LOOPS 4
/* WM_EXPR_DEFAULT_LIMIT (with the limits above): the default cap on warp
   accesses one run may form (guards against hangs). */

/* New empty program; NULL on OOM.  Free with wm_expr_free. */
WM_API wm_expr *wm_expr_new(void);
WM_API void wm_expr_free(wm_expr *e);

/*
 * Define constant name = value (the CLI's -D) before parsing.  It wins
 * over a `const` line of the same name.  WM_ERR_ARG for a name that is not
 * an identifier or is reserved (tid, ctaid, ...), WM_ERR_RANGE when there
 * are too many constants.
 */
WM_API wm_status wm_expr_define(wm_expr *e, const char *name, int64_t value);

/*
 * Parse the program text src (n bytes, copied) read from file (a name for
 * messages, copied).  Call once per wm_expr.  On error returns the status
 * (WM_ERR_PARSE for syntax, unknown names or types, WM_ERR_RANGE for bad
 * sizes, WM_ERR_NOMEM) and fills *d with offsets into src: print it with
 * wm_diag_print(f, d, file, src, n).
 */
WM_API wm_status wm_expr_parse(wm_expr *e, const char *src, size_t n,
                               const char *file, wm_diag *d);

/*
 * Replace the grid and/or block the program gave (NULL keeps it).  Every
 * dimension must be >= 1; the block at most 1024 threads with z <= 64;
 * the grid at most 2^31-1 x 65535 x 65535 (CUDA's limits).  WM_ERR_RANGE
 * otherwise (nothing changed).
 */
WM_API wm_status wm_expr_set_launch(wm_expr *e, const unsigned grid[3],
                                    const unsigned block[3]);

/* The launch in force (grid defaults to 1,1,1).  0 if no block was set. */
WM_API int wm_expr_launch(const wm_expr *e, unsigned grid[3],
                          unsigned block[3]);

/* One statement as parsed (all pointers owned by e). */
typedef struct wm_expr_stmt {
    const char *text; /* the statement as written */
    uint32_t line;    /* 1-based line in the parsed text */
    wm_space space;
    wm_op op;
    unsigned size; /* access size in bytes */
    unsigned nloops;
    const char *loop_name[WM_EXPR_MAX_LOOPS];
} wm_expr_stmt;

WM_API size_t wm_expr_nstmts(const wm_expr *e);
/* Fill *out for statement i; 0 when i is out of range. */
WM_API int wm_expr_stmt_info(const wm_expr *e, size_t i, wm_expr_stmt *out);

/* Where in the grid one warp access came from. */
typedef struct wm_expr_where {
    unsigned block[3];             /* ctaid */
    unsigned warp;                 /* warp within the block */
    int64_t iter[WM_EXPR_MAX_LOOPS]; /* loop variables, outermost first */
} wm_expr_where;

/*
 * A run-time fault: division by zero, an index outside the declared
 * shape, a shift count outside 0..63, an address outside 0..2^63-1 or a
 * bad loop step.  diag holds the message (with block and thread
 * coordinates) and the span of the offending expression in the parsed
 * text; print it with wm_diag_print.
 */
typedef struct wm_expr_fault {
    uint32_t stmt;
    wm_expr_where where;
    unsigned thread[3]; /* tid of the first offending thread */
    unsigned lane;
    wm_diag diag;
} wm_expr_fault;

/*
 * Evaluate every statement over the whole launch with warps formed as
 * CUDA forms them (linear thread id x + y*Dx + z*Dx*Dy, warp_size of g's
 * profile per warp, the last warp of a block partial) and add one
 * wm_access per (statement, warp, loop iteration) to g, site = statement
 * index, labelled with the statement text, file and line.  Threads where an
 * `if` is false are masked off.  max_accesses caps the warp accesses
 * (0: WM_EXPR_DEFAULT_LIMIT; WM_ERR_LIMIT when reached).  Returns WM_OK,
 * WM_ERR_FAULT (fault filled, when non-NULL; g holds what came before),
 * WM_ERR_ARG (no block given), WM_ERR_LIMIT or WM_ERR_NOMEM.
 */
WM_API wm_status wm_expr_run(wm_expr *e, wm_agg *g, uint64_t max_accesses,
                             wm_expr_fault *fault);

/*
 * After wm_expr_run: the first warp access of statement i with the most
 * sectors (global/local) or wavefronts (shared), where it came from and
 * its counts.  NULL when the statement formed no access.  The pointer
 * lives until the next run or wm_expr_free.
 */
WM_API const wm_access *wm_expr_worst(const wm_expr *e, size_t i,
                                      wm_expr_where *where, wm_counts *c);

/*
 * Which thread lane `lane` of warp `warp` of a block is: tid[3] of linear
 * thread id warp*warp_size + lane.  0 when that thread does not exist
 * (past the end of the block).
 */
WM_API int wm_expr_lane_tid(const unsigned block[3], unsigned warp_size,
                            unsigned warp, unsigned lane, unsigned tid[3]);

typedef struct wm_cache wm_cache;

/* What wm_expr_report writes. */
typedef struct wm_expr_report_opts {
    wm_format format;      /* text, JSON, CSV or an ncu CSV */
    const char *file;      /* the program's name for the sites' "file" */
    int explain;           /* the advisor's verdict on every statement */
    const wm_cache *cache; /* the hierarchy model of the run, or NULL */
    int color;             /* text: ANSI colours */
    unsigned width;        /* text: the terminal's width for the drawings */
} wm_expr_report_opts;

/*
 * The report of an expression run over g (docs/output.md): launch and
 * first-warp mapping, totals, one site per statement with its worst warp
 * (text: drawn), with explain the advisor's verdicts and their ranking,
 * then the hierarchy model's section.  WM_ERR_ARG for NULL arguments,
 * WM_ERR_NOMEM, WM_ERR_IO.
 */
WM_API wm_status wm_expr_report(FILE *f, const wm_expr *e, const wm_agg *g,
                                const wm_expr_report_opts *o);

/* ---- PTX interpreter (wm_ptx_*) --------------------------------------- */

/*
 * Run a kernel's PTX warp by warp in lockstep on the CPU and feed every
 * global/local/shared memory instruction to a wm_agg (site = the index of
 * the PTX instruction in the module, labelled with its PTX text and the
 * source file:line from .loc).  The numbers are PTX-level: ptxas may merge,
 * split or predicate instructions, so requests can differ from the SASS that
 * Nsight Compute measures (sectors per byte are far more stable).
 */
typedef struct wm_ptx_module wm_ptx_module;

/* Element types of argument buffers. */
#define WM_PTX_TYPE_LIST(X)                                                   \
    X(WM_PTX_I8, "i8", 1) X(WM_PTX_U8, "u8", 1) X(WM_PTX_I16, "i16", 2)       \
    X(WM_PTX_U16, "u16", 2) X(WM_PTX_I32, "i32", 4) X(WM_PTX_U32, "u32", 4)   \
    X(WM_PTX_I64, "i64", 8) X(WM_PTX_U64, "u64", 8) X(WM_PTX_F16, "f16", 2)   \
    X(WM_PTX_BF16, "bf16", 2) X(WM_PTX_F32, "f32", 4) X(WM_PTX_F64, "f64", 8)

typedef enum {
#define WM_X_ENUM(e, name, size) e,
    WM_PTX_TYPE_LIST(WM_X_ENUM)
#undef WM_X_ENUM
        WM_PTX_NTYPES
} wm_ptx_type;

/* "f32" etc.; size in bytes.  parse: WM_OK or WM_ERR_ARG. */
WM_API const char *wm_ptx_type_name(wm_ptx_type t);
WM_API size_t wm_ptx_type_size(wm_ptx_type t);
WM_API wm_status wm_ptx_type_parse(const char *name, wm_ptx_type *out);

/*
 * Fill count elements of type t at buf by an init rule:
 *   "zeros"      all zero;
 *   "iota"       element i = i converted to the type (wraps for integers);
 *   "rand=SEED"  from splitmix64 seeded with SEED: element i takes the i-th
 *                output x; floats are uniform in [0,1): (x >> 11) * 2^-53;
 *                integers cover the type's full range: the top bits of x
 *                (x >> (64 - bits)), read as the signed or unsigned type;
 *   "rand=SEED,LO,HI"  floats LO + (HI - LO) * u with u as above; integers
 *                LO + x mod (HI - LO + 1), so LO..HI inclusive.
 * Returns WM_OK or WM_ERR_ARG for an unknown rule (count 0 and buf NULL
 * check a rule without filling).  Shared by the CLI's --arg specs and the
 * tests, so both see the same inputs.
 */
WM_API wm_status wm_ptx_fill(void *buf, wm_ptx_type t, size_t count,
                             const char *init);

/*
 * The same as elements first .. first + count - 1 of a buffer filled by
 * wm_ptx_fill: buf points at element first.  Used to fill large buffers
 * lazily, only where the kernel touches them.
 */
WM_API wm_status wm_ptx_fill_at(void *buf, wm_ptx_type t, size_t first,
                                size_t count, const char *init);

/*
 * Parse PTX text src[0..n) (copied).  path names the file in diagnostics
 * and is used to resolve relative .file paths.  On success *out is a new
 * module (caller frees with wm_ptx_free); on a syntax error returns
 * WM_ERR_PARSE with d holding offset/line/col and the message (print it
 * with wm_diag_print(f, d, path, src, n)).  Unknown opcodes and modifiers
 * are accepted; an unknown opcode faults only when it is executed.
 */
WM_API wm_status wm_ptx_parse(const char *src, size_t n, const char *path,
                              wm_ptx_module **out, wm_diag *d);
WM_API void wm_ptx_free(wm_ptx_module *m);

/* Kernels (.entry) of the module, in order of definition. */
WM_API size_t wm_ptx_nkernels(const wm_ptx_module *m);
WM_API const char *wm_ptx_kernel_name(const wm_ptx_module *m, size_t k);
/* The kernel's name demangled to its identifier ("_Z4copyPfS_" -> "copy"). */
WM_API const char *wm_ptx_kernel_pretty(const wm_ptx_module *m, size_t k);
/*
 * A parse error inside one function's body does not reject the module: it
 * is kept against that function, whose body is dropped.  Returns 1 and
 * fills *d (line and column located) when kernel k is such a kernel; it
 * cannot run, and wm_ptx_run returns WM_ERR_PARSE with the error in the
 * fault.  Returns 0 for a kernel that parsed.  wm_ptx_parse itself fails
 * only on module-level errors, or when no kernel parsed.
 */
WM_API int wm_ptx_kernel_error(const wm_ptx_module *m, size_t k, wm_diag *d);
/* Parameters: count, byte size and offset in the parameter buffer. */
WM_API size_t wm_ptx_kernel_nparams(const wm_ptx_module *m, size_t k);
WM_API size_t wm_ptx_param_size(const wm_ptx_module *m, size_t k, size_t i);

/*
 * Find a kernel by exact name or by its demangled identifier.  name NULL
 * or "" picks the only kernel of a one-kernel module.  Returns the index,
 * -1 when nothing matches, -2 when several kernels match.
 */
WM_API long wm_ptx_find_kernel(const wm_ptx_module *m, const char *name);

/*
 * The module's .target ("sm_80", "sm_90a"); "" when it has none.  Lives as
 * long as the module.
 */
WM_API const char *wm_ptx_target(const wm_ptx_module *m);

/*
 * The architecture profile matching a .target: "sm_90a" -> sm_90; a target
 * without its own profile takes the newest profile not newer than it
 * (sm_87 -> sm_86, sm_100 -> sm_90).  Returns NULL for "" or a non-sm
 * target.
 */
WM_API const wm_arch *wm_arch_for_target(const char *target);

/*
 * The profile a command runs, lints or maps module m under -- one rule for
 * every command and entry point: `given` when the user named a profile,
 * else the profile of the module's .target (wm_arch_for_target), else
 * wm_arch_default().  m may be NULL (no module: the default).  note
 * (notelen bytes, may be NULL) says which, for headers and JSON:
 * "sm_80 (from .target sm_80)", "H200 (--arch)" (`how` names the way it
 * was given, "--arch" when NULL), "sm_90 (default: no .target)".
 */
WM_API void wm_ptx_pick_arch(const wm_ptx_module *m, const wm_arch *given,
                             const char *how, wm_arch *out, char *note,
                             size_t notelen);

/* Which compiler made a kernel, as far as its PTX tells. */
typedef enum {
    WM_PTX_FROM_CUDA,   /* C++ (Itanium-mangled or extern "C") */
    WM_PTX_FROM_TRITON, /* unmangled name, a .py .file, trailing scratch */
    WM_PTX_FROM_NUMBA   /* _ZN...Array<...> arguments */
} wm_ptx_origin;

/* How the kernel body uses a parameter (a flow-insensitive scan). */
typedef enum {
    WM_PTX_USE_NONE,    /* never loaded */
    WM_PTX_USE_VALUE,   /* loaded; reaches no address */
    WM_PTX_USE_POINTER, /* reaches the address of a ld/st/atom or a cvta */
    WM_PTX_USE_ESCAPES, /* stored or passed on: may be a pointer */
    WM_PTX_USE_TEXTURE, /* the handle of a tex/tld4/txq: a texture object */
    WM_PTX_USE_SURFACE  /* the handle of a suld/sust/suq: a surface object */
} wm_ptx_use;

/*
 * One kernel parameter as the signature shows it.  Compilers add
 * parameters the source does not show: Triton two trailing scratch
 * pointers, numba 5 + 2*ndim per array (meminfo, parent, nitems, itemsize,
 * data, shape[ndim], strides[ndim]).  Such parameters have added = 1;
 * group numbers the source-level argument a parameter belongs to (-1 for
 * Triton's scratch pointers, which the caller may leave null).
 */
typedef struct wm_ptx_param_info {
    const char *name;  /* PTX name (lives as long as the module) */
    char type[16];     /* PTX type as declared: ".u32", ".b8[16]" */
    char kind;         /* 'b' 'u' 's' 'f', 'p' for .pred */
    unsigned bits;     /* element width */
    unsigned count;    /* array elements (1 for a scalar) */
    size_t size, offset, align;
    int declared_ptr;  /* declared with .ptr */
    wm_ptx_use use;
    int added;         /* added by the compiler */
    long group;        /* source-level argument, -1: compiler scratch */
    char role[48];     /* "global_scratch", "arg0.shape[1]"; "" for CUDA */
    char ctype[64];    /* source type from the mangled name, "" if unknown */
    wm_ptx_type elem;  /* numba arrays: the element type of the group */
} wm_ptx_param_info;

/* What a kernel's name and parameters say. */
typedef struct wm_ptx_kernel_info {
    const char *name;   /* PTX (mangled) name */
    char display[256];  /* demangled name without parameters:
                           "copy_kernel<float>", "ops::scale" */
    char signature[512];/* display + "(float*, float const*, int)" when the
                           name is mangled, else display */
    wm_ptx_origin origin;
    size_t nparams;
    size_t ngroups;     /* source-level arguments (numba arrays count 1,
                           Triton scratch 0) */
    size_t static_smem; /* bytes of static .shared */
    int dyn_smem;       /* declares .extern .shared (needs --smem) */
} wm_ptx_kernel_info;

/*
 * Describe kernel k; params (may be NULL) receives up to cap parameter
 * descriptions.  Returns the number of parameters, or 0 with *info
 * zeroed for a bad k or when scratch memory cannot be had.  Nothing to
 * free.
 */
WM_API size_t wm_ptx_kernel_describe(const wm_ptx_module *m, size_t k,
                                     wm_ptx_kernel_info *info,
                                     wm_ptx_param_info *params, size_t cap);

/*
 * `run --list`: every kernel of m with its signature, origin, shared
 * memory and parameters (type, size, use, source-level argument), as text
 * or, with WM_FMT_JSON, as one document {"target", "kernels": [...]}
 * (docs/output.md).  WM_ERR_ARG for NULL arguments, WM_ERR_IO when a
 * write failed.
 */
WM_API wm_status wm_ptx_list(FILE *f, const wm_ptx_module *m, wm_format fmt);

/*
 * Select kernels by name: an exact PTX name, an exact demangled name
 * ("copy_kernel<float>"), the identifier without template arguments
 * ("copy_kernel": all its instantiations), or a prefix of the demangled
 * name.  The first rule that matches anything decides.  Writes up to cap
 * matching indices to out and returns how many match (0: none; more than
 * 1: ambiguous).  name NULL or "" matches every kernel.
 */
WM_API size_t wm_ptx_match_kernels(const wm_ptx_module *m, const char *name,
                                   size_t *out, size_t cap);

/*
 * Check a scalar argument of type t against parameter p: integers fit
 * .b/.u/.s parameters of their size, floats .f and .b parameters of their
 * size; a pointer-used parameter takes no scalar.  Returns 1 if it fits;
 * else 0 with the reason in err ("f32 given for .u32 parameter 'n'").
 */
WM_API int wm_ptx_param_accepts_scalar(const wm_ptx_param_info *p,
                                       wm_ptx_type t, char *err,
                                       size_t errlen);

/*
 * Check a buffer argument against parameter p: the parameter must be 8
 * bytes and not used as a plain value.  Returns 1 or 0 with err set.
 */
WM_API int wm_ptx_param_accepts_buffer(const wm_ptx_param_info *p, char *err,
                                       size_t errlen);

/* Number of instructions (= site ids 0..n-1) of the module. */
WM_API size_t wm_ptx_ninsns(const wm_ptx_module *m);

/* Where an instruction came from; pointers live as long as the module. */
typedef struct wm_ptx_where {
    uint32_t ptx_line;   /* line in the PTX text (1-based) */
    const char *text;    /* the instruction as written (no ';') */
    const char *file;    /* source file of the .loc, "" if none */
    uint32_t line;       /* source line, 0 if unknown / compiler generated */
    const char *inl_file;/* for inlined code: the callee's file, else "" */
    uint32_t inl_line;   /* and line */
    uint32_t near_line;  /* line 0 with a file (.loc F 0 C: code the
                            compiler hoisted): the nearest preceding
                            source line of the function, else 0 */
    const char *call_file; /* inlined code: the outermost call site, the */
    uint32_t call_line;    /* kernel's line the helper chain starts from
                              (from the inlined_at chain), else "" / 0 */
} wm_ptx_where;
WM_API int wm_ptx_where_insn(const wm_ptx_module *m, size_t insn,
                             wm_ptx_where *out);

/* One kernel argument: a device buffer (buf != NULL) or a scalar. */
typedef struct wm_ptx_arg {
    void *buf;        /* host memory standing for the device buffer; the
                         kernel reads and writes it in place */
    size_t bytes;     /* its size: accesses past it fault */
    uint64_t scalar;  /* scalar bits (little-endian, low bytes used) */
    unsigned size;    /* scalar size in bytes (1, 2, 4, 8); 0 for buffers;
                         with value: the parameter's size */
    const void *value;/* by-value parameter bytes (a struct such as a
                         functor or a CUtensorMap: .param .align A .b8
                         p[N]), size bytes, or NULL; buf must be NULL */
} wm_ptx_arg;

typedef enum {
    WM_PTX_CTAS_ALL,    /* every CTA of the grid */
    WM_PTX_CTAS_FIRST,  /* the first n CTAs in linear order */
    WM_PTX_CTAS_SAMPLE  /* n CTAs drawn without replacement with seed */
} wm_ptx_ctas;

/*
 * A module-scope __device__ or __constant__ variable set before the run
 * (cudaMemcpyToSymbol) and/or read back after it (cudaMemcpyFromSymbol),
 * by its PTX name.  bytes may be less than the variable's size.
 */
typedef struct wm_ptx_global {
    const char *name;
    const void *init; /* bytes to copy in, or NULL (keep its initialiser) */
    void *out;        /* where to copy it after the run, or NULL */
    size_t bytes;
} wm_ptx_global;

typedef struct wm_ptx_launch {
    unsigned grid[3], block[3];
    size_t dyn_smem;          /* bytes of .extern .shared */
    const wm_ptx_arg *args;   /* one per kernel parameter, in order */
    size_t nargs;
    /* Device buffers that are no parameter (the pointer fields of a
       by-value struct parameter point at them): buffer j lives at
       wm_ptx_extra_address(nargs, j).  Only .buf and .bytes are used. */
    const wm_ptx_arg *extra;
    size_t nextra;
    const wm_ptx_global *globals; /* variables to set / read back */
    size_t nglobals;
    wm_ptx_ctas ctas;
    uint64_t ctas_n;          /* for FIRST / SAMPLE */
    uint64_t seed;            /* for SAMPLE */
    uint64_t max_steps;       /* warp-instruction budget of one CTA,
                                 0 = unlimited */
    unsigned threads;         /* worker threads, 0 = all cores */
    /* Called now and then from the calling thread (may be NULL). */
    void (*progress)(void *ud, uint64_t ctas_done, uint64_t ctas_total);
    void *progress_ud;
    /* Warp-instruction budget of the whole launch, 0 = unlimited (the CLI
       uses WM_LIMIT_TOTAL_STEPS).  Checked before the run against a lower
       bound (one instruction per warp), after the first CTA against the
       estimate CTAs x its count, and as CTAs finish: WM_ERR_LIMIT with the
       estimate in fault->msg. */
    uint64_t max_total_steps;
    /* Hierarchy model fed with the run's global accesses in launch order
       (may be NULL; needs an aggregator, else WM_ERR_ARG); finished by a
       run that succeeds.  With WM_PTX_CTAS_SAMPLE whole waves of the
       model are sampled (ctas_run may exceed ctas_n). */
    struct wm_cache *cache;
    /* Hazard checks and the warp schedule (may be NULL: none, warps in
       order); results are written into it (wm_ptx_check below). */
    struct wm_ptx_check *check;
    /* Texture and surface objects (cudaTextureObject_t,
       cudaSurfaceObject_t): object j is what the kernel reaches through
       the handle wm_ptx_texture_handle(j), passed as an 8-byte scalar. */
    const struct wm_ptx_texture *textures;
    size_t ntextures;
    /* Thread-block clusters (docs/design/ptx-cluster.md): CTAs per
       cluster in x, y, z (cudaLaunchAttributeClusterDimension); all 0:
       the kernel's .reqnctapercluster, else clusters of one.  The grid
       must be a multiple of it; more than 8 CTAs needs
       cluster_nonportable (cudaFuncAttributeNonPortableClusterSizeAllowed,
       at most 16).  The CTAs of a cluster run together on one worker;
       --ctas sampling takes whole clusters. */
    unsigned cluster[3];
    int cluster_nonportable;
    /* A cooperative launch (cudaLaunchCooperativeKernel): every CTA of the
       grid runs at once, in rounds on one worker, and %envreg1/%envreg2
       give the grid's workspace, so cooperative groups' grid.sync()
       works.  At most WM_PTX_MAX_COOP_CTAS CTAs and WM_PTX_MAX_COOP_THREADS
       threads; not with clusters, --ctas sampling or the hierarchy model;
       checked (the whole grid is the checker's one unit) up to
       WM_PTX_MAX_COOP_CHECK_WARPS warps and WM_PTX_MAX_COOP_CHECK_SMEM
       bytes of shared memory in all.  0: CTAs run one at a time, and
       grid.sync() traps on its null workspace. */
    int cooperative;
} wm_ptx_launch;

/* A cooperative launch at most: what 132 SMs hold at once, 32 CTAs and
   2048 threads each (an H100 SXM or H200; CUDA refuses a larger
   cooperative grid on them). */
#define WM_PTX_MAX_COOP_CTAS 4224u
#define WM_PTX_MAX_COOP_THREADS 270336u
/* A checked cooperative launch at most: the checker keeps a vector clock
   of every warp of the grid for every warp (1024 x 1024 x 4 bytes) and
   the shadow of every CTA's shared memory. */
#define WM_PTX_MAX_COOP_CHECK_WARPS 1024u
#define WM_PTX_MAX_COOP_CHECK_SMEM (16u << 20)

/* Addressing of texture coordinates outside the texture (per dimension). */
typedef enum {
    WM_PTX_ADDR_WRAP,   /* normalized coordinates only (else clamp) */
    WM_PTX_ADDR_CLAMP,  /* to the edge texel */
    WM_PTX_ADDR_MIRROR, /* normalized coordinates only (else clamp) */
    WM_PTX_ADDR_BORDER  /* outside texels read as zero */
} wm_ptx_addr_mode;

typedef enum { WM_PTX_FILTER_POINT, WM_PTX_FILTER_LINEAR } wm_ptx_filter;

/*
 * A texture or surface object bound to linear memory
 * (docs/design/ptx-tex.md): width x height x depth texels of `channels`
 * elements of `format` (f32 f16 u8 i8 u16 i16 u32 i32), x fastest, rows
 * packed (pitch = width x texel bytes).  A texture is read by tex/tld4 with
 * its filter and addressing; a surface by suld/sust with byte x
 * coordinates, and sust writes data in place.
 */
typedef struct wm_ptx_texture {
    void *data;
    size_t bytes;            /* at least width*height*depth*texel bytes */
    unsigned dims;           /* 1, 2 or 3 */
    unsigned width, height, depth; /* unused dimensions are 1 */
    wm_ptx_type format;
    unsigned channels;       /* 1, 2 or 4 */
    int surface;             /* 1: a cudaSurfaceObject_t */
    int normalized_coords;   /* coordinates in [0, 1) */
    int read_normalized;     /* cudaReadModeNormalizedFloat: 8/16-bit
                                integers read as floats in [0,1] / [-1,1] */
    wm_ptx_filter filter;
    wm_ptx_addr_mode address[3];
} wm_ptx_texture;

/* The handle the kernel receives for launch texture j. */
WM_API uint64_t wm_ptx_texture_handle(size_t j);

/* The simulated device address of extra buffer j of a launch with nargs
   arguments (to write into a struct parameter's pointer field). */
WM_API uint64_t wm_ptx_extra_address(size_t nargs, size_t j);

/*
 * A TMA tensor map (docs/design/ptx-tma.md), the arguments of
 * cuTensorMapEncodeTiled: the element type (CUtensorMapDataType's
 * numbering: 0 u8, 1 u16, 2 u32, 3 i32, 4 u64, 5 i64, 6 f16, 7 f32, 8 f64,
 * 9 bf16, 10 f32 ftz, 11 tf32, 12 tf32 ftz), the rank (1..5), the global
 * address (a simulated device address: wm_ptx_buffer_address or
 * wm_ptx_extra_address), the sizes (dims[0] fastest), the byte strides of
 * dims 1..rank-1 (multiples of 16), the box (1..256 per dimension), the
 * element strides (1..8), interleave (0 none; 16 B and 32 B are not
 * modelled), swizzle (0 none, 1 32 B, 2 64 B, 3 128 B), L2 promotion (no
 * effect) and the fill of out-of-bounds elements (0 zeros, 1 NaN).
 *
 * im2col = 1 makes it cuTensorMapEncodeIm2col's map instead (rank 3..5,
 * an NHWC-style tensor: dims[0] the channels C, dims[rank-1] the images
 * N, the dimensions between them spatial): box is unused; channels
 * (channelsPerPixel, 1..256) and pixels (pixelsPerColumn, 1..1024) size
 * the copy, and lower[i] / upper[i] (pixelBoxLowerCorner / UpperCorner)
 * are the bounding box's corners in spatial dimension i + 1 (index 0 is
 * W), relative to the tensor's first and last pixel: -32768..32767 at
 * rank 3, -128..127 at rank 4, -16..15 at rank 5.  elem_strides[1..] are
 * the traversal strides; elem_strides[0] is ignored (the channels are
 * contiguous).  A zeroed struct is a tiled map, so code written before
 * these fields is unchanged.
 */
typedef struct wm_ptx_tmap {
    unsigned dtype, rank;
    uint64_t global_address;
    uint64_t dims[5];
    uint64_t strides[4];
    unsigned box[5], elem_strides[5];
    unsigned interleave, swizzle, l2_promotion, oob_fill;
    unsigned im2col;
    int lower[3], upper[3];
    unsigned channels, pixels;
} wm_ptx_tmap;

/* The simulated device address of argument buffer i (its pointer value). */
WM_API uint64_t wm_ptx_buffer_address(size_t i);

/*
 * Encode t into the 128 bytes a `__grid_constant__ const CUtensorMap`
 * parameter holds (warpmem's own layout: the driver's is not documented).
 * WM_OK, or WM_ERR_ARG with the reason in err (cuTensorMapEncodeTiled's
 * checks: rank, sizes, strides, box, swizzle span; for an im2col map
 * cuTensorMapEncodeIm2col's: rank 3..5, corners, channels, pixels).
 */
WM_API wm_status wm_ptx_tmap_encode(const wm_ptx_tmap *t, void *out128,
                                    char *err, size_t errlen);

/* Size in bytes of module-scope .global/.const variable name, or -1. */
WM_API long long wm_ptx_global_size(const wm_ptx_module *m, const char *name);

/*
 * Checks of a run (`warpmem run --check`, docs/check.md).  The checker
 * sees every lane's address of every shared and global access in a fixed
 * order, so it reports hazards a GPU run only makes likely:
 *   WM_CHECK_RACE  accesses of two threads of a CTA to the same bytes, at
 *                  least one a write, not both atomic, with no barrier
 *                  between them (between warps: bar.sync / barrier.sync
 *                  and mbarrier waits order; between lanes of one warp,
 *                  on .target sm_70 and newer: bar.warp.sync, i.e.
 *                  __syncwarp()).  Shared memory, and global memory
 *                  within one CTA.
 *   WM_CHECK_INIT  reads of shared bytes no thread of the CTA wrote, and
 *                  of global bytes of an argument declared uninit that
 *                  nothing wrote before.
 *   WM_CHECK_SCHEDULES  run the kernel a second time with the warps in
 *                  the other order (in-order <-> reverse; random: in
 *                  order) and report the first output byte that differs.
 *                  The second run works on copies of the launch's memory
 *                  (buffers, extra buffers, by-value bytes, texture data,
 *                  globals' init and out, overlapping as the originals
 *                  do); the caller's memory is left as the first run
 *                  left it.
 *   WM_CHECK_PROVE  with WM_CHECK_RACE and WM_CHECK_SCHEDULES: leave the
 *                  second run out when the first proves its outputs
 *                  cannot differ: the tracker found no race, and the
 *                  kernel has nothing the tracker does not follow or that
 *                  lets the order change a value (atomics other than
 *                  integer add/and/or/xor/min/max whose result nothing
 *                  reads, fences and acquire/release accesses, counted or
 *                  arrive-only barriers, mbarriers, asynchronous, bulk,
 *                  tensor-map and matrix copies, stores of fewer than 4
 *                  bytes, textures and surfaces, clusters).  Then every
 *                  warp order runs each thread on the same values
 *                  (docs/check.md, "Schedules"); wm_ptx_check.proved
 *                  says so.
 * With any check the launch runs on one worker thread.
 */
typedef enum {
    WM_SCHED_IN_ORDER, /* ready warps run in warp order (the default) */
    WM_SCHED_REVERSE,  /* highest warp first */
    WM_SCHED_RANDOM    /* a fresh permutation per round, from seed */
} wm_ptx_schedule;

/* What wm_ptx_check.diff_arg indexes when the schedules' outputs differ. */
typedef enum {
    WM_DIFF_ARG,     /* an argument buffer (nargs and up: the extra buffers) */
    WM_DIFF_SURFACE, /* a surface: its index in wm_ptx_launch.textures */
    WM_DIFF_GLOBAL   /* a module variable read back: its index in
                        wm_ptx_launch.globals (diff_name: its name) */
} wm_ptx_diff_in;

enum {
    WM_CHECK_RACE = 1u << 0,
    WM_CHECK_INIT = 1u << 1,
    WM_CHECK_SCHEDULES = 1u << 2,
    WM_CHECK_PROVE = 1u << 3
};

/* Hazard kinds: X(enum, name, description). */
#define WM_HAZARD_LIST(X)                                                     \
    X(WM_HAZ_RAW, "read-after-write", "a read of bytes another thread "      \
      "wrote with no barrier between")                                       \
    X(WM_HAZ_WAR, "write-after-read", "a write of bytes another thread "     \
      "read with no barrier between")                                        \
    X(WM_HAZ_WAW, "write-after-write", "two threads wrote the same bytes "   \
      "with no barrier between")                                             \
    X(WM_HAZ_UNINIT, "uninitialized-read", "a read of bytes nothing wrote")  \
    X(WM_HAZ_WARP_WAW, "write-conflict", "lanes of one store instruction "  \
      "wrote different values to the same bytes")

typedef enum {
#define X(e, name, desc) e,
    WM_HAZARD_LIST(X)
#undef X
    WM_HAZ_COUNT
} wm_hazard_kind;

/* Name ("read-after-write", ...) of a hazard kind. */
WM_API const char *wm_hazard_name(wm_hazard_kind k);

/* One access of a hazard. */
typedef struct wm_ptx_hazard_access {
    size_t insn;        /* instruction index (wm_ptx_where_insn) */
    unsigned warp, lane;
    unsigned thread[3]; /* threadIdx */
    int write;          /* 1 store, 0 load */
    int atomic;
    unsigned cta[3];    /* blockIdx (races between CTAs: the two differ) */
    unsigned rank;      /* %cluster_ctarank of cta (0 without clusters) */
} wm_ptx_hazard_access;

/*
 * A hazard, de-duplicated by (kind, first instruction, second
 * instruction): the fields describe the first occurrence, count all.
 * For WM_HAZ_UNINIT only `second` is meaningful (the read).
 */
typedef struct wm_ptx_hazard {
    wm_hazard_kind kind;
    int space;          /* WM_SPACE_SHARED or WM_SPACE_GLOBAL */
    uint64_t addr;      /* shared: offset in the CTA's shared memory;
                           global: offset in the buffer */
    long buf;           /* global: argument index (-1: other memory) */
    unsigned size;      /* bytes of the second access */
    unsigned cta[3];    /* blockIdx */
    unsigned cluster;   /* CTAs per cluster of the launch (1: none) */
    unsigned rank;      /* shared: %cluster_ctarank of the CTA whose shared
                           memory addr is in (distributed shared memory:
                           it may be neither access's CTA) */
    wm_ptx_hazard_access first, second; /* earlier and later access */
    uint64_t count;     /* occurrences (one per word and lane pair) */
} wm_ptx_hazard;

typedef struct wm_ptx_check {
    /* in */
    unsigned checks;          /* WM_CHECK_* */
    wm_ptx_schedule schedule; /* the order of the run that is reported */
    uint64_t seed;            /* for WM_SCHED_RANDOM */
    const unsigned char *uninit; /* per argument: 1 = its bytes start
                                    uninitialised (may be NULL) */
    size_t nuninit;
    const unsigned *elem_size; /* per argument: element bytes, to name the
                                  differing element (may be NULL) */
    size_t nelem_size;
    const wm_ptx_type *elem_type; /* per argument: the buffer's element
                                     type, to print the differing values
                                     in it (may be NULL: hex bytes) */
    size_t nelem_type;
    /* out (wm_ptx_check_clear releases) */
    wm_ptx_hazard *hazards;   /* distinct hazards, in order found */
    size_t nhazards;
    uint64_t dropped;         /* occurrences of hazards past the table */
    int differs;              /* WM_CHECK_SCHEDULES: outputs differ */
    wm_ptx_schedule other;    /* the schedule compared with */
    long diff_arg;            /* where the outputs differ first (diff_in) */
    uint64_t diff_byte;       /* first differing byte offset in it */
    uint64_t diff_elem;       /* its element (elem_size, else the byte) */
    unsigned char diff_bytes[2][8]; /* the element's first bytes under
                                       schedule and other */
    wm_ptx_diff_in diff_in;   /* what diff_arg indexes */
    unsigned diff_elem_bytes; /* bytes of the element (diff_bytes holds the
                                 first 8 of them) */
    const char *diff_name;    /* WM_DIFF_GLOBAL: the variable's name (the
                                 launch's string), else NULL */
    int proved;               /* WM_CHECK_PROVE: 1 when the other
                                 schedule's run was left out, its outputs
                                 proved equal (differs is 0) */
} wm_ptx_check;

/* Release the results of a check (the inputs stay); NULL is safe. */
WM_API void wm_ptx_check_clear(wm_ptx_check *c);

/* Name of a schedule ("in-order", "reverse", "random"). */
WM_API const char *wm_ptx_schedule_name(wm_ptx_schedule s);

/*
 * Print the hazards and the schedule comparison of a finished run as
 * text, compute-sanitizer style: per hazard its kind, space, address with
 * the shared variable and index, both accesses (warp, lane, thread, PTX
 * line, source line) and the count.  Prints nothing when c found nothing
 * and c->checks is 0; else ends with a summary line.
 */
WM_API void wm_ptx_check_print(FILE *f, const wm_ptx_module *m,
                               const wm_ptx_check *c);

/* What a run did. */
typedef struct wm_ptx_result {
    uint64_t ctas_total;   /* CTAs in the grid */
    uint64_t ctas_run;     /* CTAs executed */
    int sampled;           /* 1 when not every CTA ran */
    uint64_t warp_insts;   /* warp-level instructions executed */
    uint64_t thread_insts; /* thread-level (sum of active lanes) */
    /* setmaxnreg (sm_90a) executed: warp instructions, the largest .inc
       and the smallest .dec register count asked for (0: none) */
    uint64_t setmaxnreg;
    unsigned maxnreg_inc, maxnreg_dec;
} wm_ptx_result;

/* A fault inside the kernel (compute-sanitizer style). */
typedef struct wm_ptx_fault {
    wm_status status;      /* WM_ERR_FAULT, WM_ERR_LIMIT, WM_ERR_UNSUPPORTED */
    char msg[256];         /* one line, no file:line prefix */
    unsigned cta[3];       /* block index */
    unsigned thread[3];    /* thread index of the first faulting lane */
    unsigned warp, lane;
    size_t insn;           /* instruction index */
    uint32_t ptx_line;
    const char *file;      /* source file or "" (lives with the module) */
    uint32_t line;         /* source line or 0 */
    /* memory faults (has_addr set): the address in its space, the space
       (WM_SPACE_*), the argument buffer (-1: none or not global) and the
       bytes of the buffer or space it fell outside */
    int has_addr;
    uint64_t addr;
    int space;
    long buf;
    uint64_t bound;
    /* a fault inside a called .func: the kernel's call instruction that
       led there (outermost call site), else call_ptx_line 0 */
    uint32_t call_ptx_line;
    const char *call_file;
    uint32_t call_line;
} wm_ptx_fault;

/*
 * Run kernel k with launch l.  Memory instructions are added to agg (may be
 * NULL: functional run only); sites are labelled.  With several threads
 * CTAs run in parallel on private aggregators merged in a fixed order, so
 * the statistics do not depend on l->threads (functional results of float
 * atomics may differ in the last bits, as on a GPU).  Returns WM_OK;
 * WM_ERR_ARG (bad launch: argument count/size, block too large, shared
 * memory over 228 KiB) with a message in fault->msg; or the fault status
 * with *fault filled (the lowest faulting CTA wins).  res and fault may be
 * NULL.
 */
WM_API wm_status wm_ptx_run(const wm_ptx_module *m, size_t k,
                            const wm_ptx_launch *l, wm_agg *agg,
                            wm_ptx_result *res, wm_ptx_fault *fault);

/*
 * The checks of wm_ptx_run that need no arguments (block of 1..1024
 * threads, a non-empty grid, shared memory within 228 KiB), so a caller
 * can refuse a launch before it makes the buffers.  l->args is not read.
 * Returns WM_OK or WM_ERR_ARG with the message in fault->msg (fault may
 * be NULL).
 */
WM_API wm_status wm_ptx_launch_check(const wm_ptx_module *m, size_t k,
                                     const wm_ptx_launch *l,
                                     wm_ptx_fault *fault);

/* Options of the per-source-line report. */
typedef struct wm_ptx_report_opts {
    wm_format format;
    int color;               /* ANSI colours in text */
    unsigned width;          /* terminal width for drawings */
    unsigned draw_top;       /* draw the worst warp of this many sites */
    const char *ptx_path;    /* used to find source files (may be NULL) */
    const char *kernel;      /* kernel name for the header */
    const wm_ptx_result *res;/* may be NULL */
    int explain;             /* text: the advisor under each flagged line,
                                lines ranked by excessive share; JSON: an
                                "advice" object per instruction */
    const char *command;     /* HTML: command line shown (may be NULL) */
    const char *arch;        /* profile and where it came from, for the
                                header (may be NULL) */
    const wm_ptx_fault *fault; /* the run stopped at this fault: the
                                report covers the work before it (JSON:
                                a "fault" object; may be NULL) */
    const char *fault_hint;  /* appended to the fault message (may be NULL) */
    const char *const *written; /* output files written (JSON lists them) */
    size_t nwritten;
    const wm_ptx_check *check; /* JSON: a "hazards" array; text: the
                                  findings under the header; HTML: a
                                  Checks section first (may be NULL) */
    const wm_cache *cache;   /* the hierarchy model of the run, or NULL:
                                JSON/CSV carry its section, the ncu CSVs
                                its metrics (text: wm_cache_report) */
    unsigned grid[3], block[3]; /* the launch (0: not given) */
} wm_ptx_report_opts;

/*
 * Write the report of a run: per source line (with the source text when the
 * file is readable) the summed numbers, lines with excessive sectors or
 * bank conflicts marked worst first, each memory instruction under its
 * line, then kernel totals under Nsight Compute names (text, JSON or CSV).
 * Returns WM_ERR_NOMEM (having written nothing, or part of the report)
 * when memory ran out, else WM_OK; write errors are the stream's.
 */
WM_API wm_status wm_ptx_report(FILE *f, const wm_ptx_module *m,
                               const wm_agg *g, const wm_ptx_report_opts *o);

/*
 * Write the self-contained HTML report of a run (wm_html_report): kernel
 * totals, then every memory instruction worst first with the source line
 * (when the file is readable; the PTX text always), its numbers, the lane
 * map of its worst warp and the advisor's fixes.  Uses o->kernel,
 * o->ptx_path and o->command.  Returns WM_ERR_IO if writing failed,
 * WM_ERR_NOMEM, else WM_OK.
 */
WM_API wm_status wm_ptx_report_html(FILE *f, const wm_ptx_module *m,
                                    const wm_agg *g,
                                    const wm_ptx_report_opts *o);

/*
 * The report of wm_ptx_report (html 0, in o->format) or of
 * wm_ptx_report_html (html 1) as a NUL-terminated string in memory; *len
 * (if non-NULL) receives its length.  Caller frees (wm_free).  NULL with
 * errno set when writing failed or memory ran out.
 */
WM_API char *wm_ptx_report_string(const wm_ptx_module *m, const wm_agg *g,
                                  const wm_ptx_report_opts *o, int html,
                                  size_t *len);

/* ---- advisor (wm_advise_*) -------------------------------------------- */

/*
 * The advisor explains one warp access: it recognises the structure of the
 * lane addresses, says in plain words why the access costs what it costs,
 * and proposes fixes.  Every fix carries its what-if: the transformed lane
 * addresses and the counts wm_count() gives for them.  A fix is proposed
 * only when the model shows it strictly better (fewer sectors or
 * wavefronts without more requests, or fewer requests for the same bytes
 * without more sectors or wavefronts).  docs/advisor.md shows the usage.
 */

/* Lane-address patterns: X(enum, name, description). */
#define WM_PATTERN_LIST(X)                                                    \
    X(WM_PAT_NONE, "none", "no active lane")                                 \
    X(WM_PAT_BROADCAST, "broadcast", "every active lane uses one address")   \
    X(WM_PAT_CONTIGUOUS, "contiguous", "consecutive lanes, adjacent elements")\
    X(WM_PAT_STRIDED, "strided", "consecutive lanes a fixed stride apart")   \
    X(WM_PAT_TILE, "tile", "groups of lanes with a stride, groups jump")     \
    X(WM_PAT_SCATTERED, "scattered", "no common stride")

typedef enum {
#define WM_X_ENUM(code, name, text) code,
    WM_PATTERN_LIST(WM_X_ENUM)
#undef WM_X_ENUM
        WM_NPATTERNS
} wm_pattern_kind;

/* Fixes the advisor can try: X(enum, name, what it changes). */
#define WM_FIX_LIST(X)                                                        \
    X(WM_FIX_REMAP, "remap", "consecutive lanes take consecutive elements")  \
    X(WM_FIX_ALIGN, "align", "start the warp's run on a sector boundary")    \
    X(WM_FIX_PAD, "pad", "widen each row of a shared array")                 \
    X(WM_FIX_SWIZZLE, "swizzle", "XOR the column with the row")              \
    X(WM_FIX_VECTORIZE, "vectorize", "8- or 16-byte loads per lane")

typedef enum {
#define WM_X_ENUM(code, name, text) code,
    WM_FIX_LIST(WM_X_ENUM)
#undef WM_X_ENUM
        WM_NFIXES
} wm_fix_kind;

/* Severity from the excessive share, in the spirit of ncu's rules. */
typedef enum {
    WM_SEV_NONE,   /* no excessive sectors / wavefronts */
    WM_SEV_LOW,    /* share below 10 % */
    WM_SEV_MEDIUM, /* 10 % up to 50 % */
    WM_SEV_HIGH    /* 50 % or more */
} wm_severity;

/* Names: "strided", "pad", "high" ...; never NULL. */
WM_API const char *wm_pattern_name(wm_pattern_kind k);
WM_API const char *wm_fix_name(wm_fix_kind k);
WM_API const char *wm_severity_name(wm_severity s);

/* The recognised structure of one access.  Strides are in bytes. */
typedef struct wm_pattern {
    wm_pattern_kind kind;
    unsigned active;   /* active lanes */
    unsigned distinct; /* distinct addresses among them */
    uint64_t lo;       /* lowest address */
    uint64_t span;     /* highest address + size - lo */
    int64_t stride;    /* CONTIGUOUS/STRIDED: lane to next lane;
                          TILE: lane to next lane inside a group */
    unsigned group;    /* TILE: lanes per group (2, 4, 8 ...) */
    int64_t jump;      /* TILE: group to next group */
    unsigned misalign; /* global/local: lo modulo the sector size */
} wm_pattern;

/* Find the pattern of a (any space).  WM_ERR_ARG on NULL arguments. */
WM_API wm_status wm_pattern_find(const wm_arch *arch, const wm_access *a,
                                 wm_pattern *out);

/*
 * One proposed fix and its what-if.  before sums the counts of `copies`
 * executions of the original access (copies > 1 only for vectorize: one
 * 16-byte access replaces four 4-byte ones and moves the same bytes);
 * after counts `access`, the transformed addresses, once.  Both cover
 * the same number of requested bytes.
 */
typedef struct wm_fix {
    wm_fix_kind kind;
    unsigned param;    /* pad: bytes; swizzle: row multiplier; vectorize:
                          vector bytes; align: bytes; remap: 0 */
    unsigned copies;   /* original executions the fixed one replaces */
    wm_counts before;  /* original, summed over copies */
    wm_counts after;   /* the fixed access */
    wm_access access;  /* the fixed access (what the model counted) */
    char text[200];    /* the advice in words, without the numbers */
} wm_fix;

#define WM_ADVISE_MAX_FIXES 6

/* The advisor's verdict on one access (or one site's worst access). */
typedef struct wm_advice {
    wm_space space;
    wm_op op;
    unsigned size;
    wm_pattern pattern;
    wm_counts counts;     /* the analysed access */
    uint64_t excess;      /* excessive sectors (global/local) or
                             wavefronts (shared): the site's sum, or this
                             access's own without site statistics */
    uint64_t total;       /* the kernel's sectors / wavefronts in that
                             space (or the access's own) */
    double share;         /* excess / total, 0 when total is 0 */
    wm_severity severity;
    char headline[160];   /* one line: the problem and its size */
    char diagnosis[600];  /* the why, in plain words */
    size_t nfixes;        /* fixes[0] is the best */
    wm_fix fixes[WM_ADVISE_MAX_FIXES];
} wm_advice;

/*
 * Advise on one access.  Returns the status of wm_count (WM_ERR_SIZE,
 * WM_ERR_ALIGN ...) or WM_ERR_ARG; *out is filled on WM_OK.  Allocates
 * nothing; safe to call from several threads.
 */
WM_API wm_status wm_advise(const wm_arch *arch, const wm_access *a,
                           wm_advice *out);

/*
 * Advise on an aggregated site: analyses s->worst and sizes the problem
 * with the site's statistics against the kernel totals t (t may be NULL:
 * then the site's own sectors / wavefronts are the total).  A site without
 * a worst access gives WM_ERR_ARG.
 */
WM_API wm_status wm_advise_site(const wm_arch *arch, const wm_site *s,
                                const wm_totals *t, wm_advice *out);

/*
 * Order the sites of g worst first (most excessive sectors or wavefronts,
 * then ascending site order).  order must hold wm_agg_nsites(g) entries;
 * it receives indices for wm_agg_site().  Returns the number written.
 */
WM_API size_t wm_advise_rank(const wm_agg *g, size_t *order);

/*
 * Print advice as indented text lines ("why:", "fix:" with "32 -> 1
 * wavefronts") wrapped to width columns (>= 40); color: ANSI colours.
 */
WM_API void wm_advise_print(FILE *f, const wm_advice *adv, int color,
                            unsigned width);

/* Write advice as one JSON object ({"pattern": ..., "fixes": [...]}). */
WM_API void wm_advise_json(FILE *f, const wm_advice *adv);

/* ---- static lint of a kernel (wm_lint_*) --------------------------------
 *
 * Judge every memory instruction of a kernel without running it: an
 * abstract interpretation of the PTX gives each lane's address as a
 * symbolic form over the thread and block indices, the parameters and the
 * loops' iteration counts (docs/lint.md); the form is evaluated for the
 * lanes of every warp of one block and counted with wm_count.  Pointer
 * parameters are assumed 256-byte aligned (cudaMalloc's guarantee), as
 * wm_ptx_run lays them out; scalar parameters take the values given, else
 * WM_LINT_DEFAULT_SCALAR.
 */

/* Value of a scalar parameter nobody named. */
#define WM_LINT_DEFAULT_SCALAR 1024

/* The PTX-to-SASS map of a kernel (wm_sass_plan_new, "SASS view"). */
typedef struct wm_sass_plan wm_sass_plan;

/* A known parameter value: by name (exact or the _param_N suffix's N). */
typedef struct wm_lint_param {
    const char *name; /* parameter name, or its index as decimal text */
    int64_t value;
} wm_lint_param;

typedef struct wm_lint_opts {
    unsigned block[3]; /* block shape; all 0: .reqntid, else one by rank */
    unsigned grid[3];  /* grid for %nctaid; 0: 1024 x 1024 x 64 */
    const wm_lint_param *params;
    size_t nparams;
    const wm_sass_plan *sass; /* the kernel's SASS map, or NULL: judge the
                                 SASS accesses (a merge at its width, the
                                 merged instructions in it; docs/lint.md) */
} wm_lint_opts;

/* Verdict kinds: X(enum, name). */
#define WM_LINT_KIND_LIST(X)                                                  \
    X(WM_LINT_EXACT, "exact")           /* one figure for every warp */       \
    X(WM_LINT_VARIES, "varies")         /* warps or iterations differ */      \
    X(WM_LINT_DATA, "data-dependent")   /* the address is unknown */          \
    X(WM_LINT_INACTIVE, "inactive")     /* no lane of the block takes part */ \
    X(WM_LINT_UNSUPPORTED, "unsupported")

typedef enum {
#define WM_X_ENUM(e, name) e,
    WM_LINT_KIND_LIST(WM_X_ENUM)
#undef WM_X_ENUM
        WM_LINT_NKINDS
} wm_lint_kind;

WM_API const char *wm_lint_kind_name(wm_lint_kind k);

/* The verdict on one memory access of one instruction. */
typedef struct wm_lint_insn {
    size_t insn; /* instruction index: the site wm_ptx_run reports */
    wm_space space;
    wm_op op;
    unsigned size;
    wm_lint_kind kind;
    char form[240];   /* the address, e.g. "in + 4*tid.x + 1024*ctaid.x" */
    char stride[80];  /* bytes from lane to lane along tid.x, as a form */
    char reason[200]; /* data-dependent / varies / unsupported: why */
    char depends[120];/* symbols that change the lane pattern, "" if none */
    int assumed;      /* 1: a guard or branch on unknown data was taken as
                         true for every lane */
    unsigned warps;   /* warps of the block with an active lane */
    double per_request; /* sectors (global/local) or wavefronts (shared),
                           mean over those warps (aligned base) */
    uint32_t min, max;  /* over those warps */
    uint32_t worst;     /* worst over the misalignments the uniform symbols
                           allow (the lane pattern unchanged) */
    double ideal;       /* ideal per request, mean over the warps */
    wm_severity severity; /* from (per_request - ideal) / per_request */
    wm_access access;   /* the first active warp's access (base) */
    wm_counts counts;   /* and its counts */
} wm_lint_insn;

typedef struct wm_lint wm_lint;

/*
 * Lint kernel k of m for profile arch.  o may be NULL (defaults).  On
 * WM_OK *out is a new result (wm_lint_free); WM_ERR_ARG for a bad kernel
 * index or block, WM_ERR_PARSE for a kernel whose body did not parse
 * (wm_ptx_kernel_error says where), WM_ERR_NOMEM.
 */
WM_API wm_status wm_lint_kernel(const wm_ptx_module *m, size_t k,
                                const wm_arch *arch, const wm_lint_opts *o,
                                wm_lint **out);
WM_API void wm_lint_free(wm_lint *l);

/* The block shape the verdicts are for. */
WM_API void wm_lint_block(const wm_lint *l, unsigned block[3]);

/*
 * When no block was given (and the kernel has no .reqntid) the verdicts
 * are also computed for the block shapes of a table: x = 32 ... 1024 for
 * a kernel that reads only tid.x, x = 32 ... 256 times y = 1 ... 32 (at
 * most 1024 threads) when it reads tid.y or tid.z.  nshapes is 0 when the
 * block was given.  wm_lint_by_shape gives verdict i's figure under shape
 * s (mean per request, min and max over the block's warps); 0 when that
 * verdict has no number there.
 */
WM_API size_t wm_lint_nshapes(const wm_lint *l);
WM_API void wm_lint_shape(const wm_lint *l, size_t s, unsigned block[3]);
WM_API int wm_lint_by_shape(const wm_lint *l, size_t i, size_t s,
                            double *per_req, uint32_t *min, uint32_t *max);

/* Verdicts in instruction order (cp.async gives two: global, shared). */
WM_API size_t wm_lint_count(const wm_lint *l);
WM_API const wm_lint_insn *wm_lint_at(const wm_lint *l, size_t i);

/*
 * An aggregator holding, for every numbered verdict, the access of each
 * active warp of the block once, labelled like wm_ptx_run's sites (for
 * wm_ptx_report_html and the advisor).  Owned by l.
 */
WM_API const wm_agg *wm_lint_agg(const wm_lint *l);

/* Options of wm_lint_report. */
typedef struct wm_lint_report_opts {
    wm_format format;
    int color;
    int explain;          /* the advisor's fix under each flagged line */
    unsigned width;       /* text wrap width */
    const char *ptx_path; /* to find source files (may be NULL) */
    const char *profile;  /* the profile and where it came from, as
                             wm_ptx_pick_arch's note says (NULL: the
                             lint's profile name) */
} wm_lint_report_opts;

/*
 * Write the verdicts of one kernel: text (per source line in source
 * order, flagged lines numbered worst first, each instruction with its
 * figure, verdict, stride, address form and notes), JSON (one object) or
 * CSV (one row per verdict, the header line first when `header`).  o may
 * be NULL (text, no colour).  Returns WM_ERR_NOMEM (having written
 * nothing) when memory ran out, else WM_OK.
 */
WM_API wm_status wm_lint_report(FILE *f, const wm_lint *l,
                                const wm_lint_report_opts *o, int header);

/* The worst severity of the verdicts (WM_SEV_NONE if nothing flagged). */
WM_API wm_severity wm_lint_worst(const wm_lint *l);

/* ---- results for CI tools: SARIF 2.1.0 and JUnit XML (wm_ci_*) ---------
 *
 * Code-scanning services read SARIF (OASIS SARIF 2.1.0: tool.driver with
 * its rules, results with ruleId, level, message and a physicalLocation
 * whose artifactLocation is the kernel's source file and whose region is
 * the line and column of its .loc); test dashboards read JUnit XML.
 * docs/output.md describes both documents.
 */
typedef struct wm_ci_opts {
    const char *command;  /* the command line (may be NULL) */
    const char *arch;     /* the profile, as the other documents name it */
    const char *ptx_path; /* to resolve the .loc files (may be NULL) */
    wm_severity fail_on;  /* JUnit: a failure at this severity or above
                             (WM_SEV_NONE: at any flagged instruction) */
} wm_ci_opts;

/*
 * The flagged instructions of lint results res[0..n-1] (NULL entries are
 * skipped: kernels that did not lint) as one SARIF log: a result per
 * flagged verdict, level error (high), warning (medium) or note (low).
 * WM_ERR_IO on a failed write, WM_ERR_NOMEM.
 */
WM_API wm_status wm_lint_sarif(FILE *f, const wm_ptx_module *m,
                               const wm_lint *const *res, size_t n,
                               const wm_ci_opts *o);

/*
 * The same results as JUnit XML: a testsuite per kernel, a testcase per
 * memory instruction, a <failure> where its severity is o->fail_on or
 * above.
 */
WM_API wm_status wm_lint_junit(FILE *f, const wm_ptx_module *m,
                               const wm_lint *const *res, size_t n,
                               const wm_ci_opts *o);

/*
 * A run's findings as one SARIF log: each hazard of c (may be NULL) at
 * its second access with the first as a relatedLocation, a schedule
 * difference, and the fault (may be NULL) at its instruction.
 */
WM_API wm_status wm_check_sarif(FILE *f, const wm_ptx_module *m,
                                const wm_ptx_check *c,
                                const wm_ptx_fault *fault,
                                const wm_ci_opts *o);

/* ---- HTML report (wm_html_*) --------------------------------------------
 *
 * One self-contained XHTML-compatible file: inline CSS and SVG, no
 * scripts, no network.  Either write a whole report from an aggregator
 * with wm_html_report(), or build a page piece by piece between
 * wm_html_begin() and wm_html_end() (the lab does this for its charts).
 * Text arguments are UTF-8 and are escaped by the library.
 */

typedef struct wm_html wm_html;

/*
 * Start a page on f (borrowed until wm_html_end) with a title (copied).
 * Writes the head and the style sheet.  NULL on OOM or NULL arguments.
 */
WM_API wm_html *wm_html_begin(FILE *f, const char *title);

/*
 * Close the page and free h.  Returns WM_ERR_IO if any write to f failed
 * (f itself stays open: the caller closes it), else WM_OK.  NULL is a no-op
 * returning WM_OK.
 */
WM_API wm_status wm_html_end(wm_html *h);

/* A heading (level 1..3), a paragraph, a preformatted block. */
WM_API void wm_html_heading(wm_html *h, int level, const char *text);
WM_API void wm_html_text(wm_html *h, const char *text);
WM_API void wm_html_pre(wm_html *h, const char *text);

/* The drawings of one access: lane -> sector map (global/local) or
 * lane -> bank heatmap (shared), with their counts as caption. */
WM_API void wm_html_access(wm_html *h, const wm_arch *arch,
                           const wm_access *a);

/* The advisor's text and what-if table. */
WM_API void wm_html_advice(wm_html *h, const wm_advice *adv);

/*
 * One site: heading with file:line and label, the source text (may be
 * NULL), its numbers, the drawing of its worst access and the advice.
 * t: kernel totals for the severity (may be NULL).
 */
WM_API void wm_html_site(wm_html *h, const wm_arch *arch, const wm_site *s,
                         const wm_totals *t, const char *source);

/* Kernel totals as a table of Nsight Compute metric names and values. */
WM_API void wm_html_totals(wm_html *h, const wm_totals *t);

/*
 * One data series of a chart (all pointers borrowed for the call).  Line
 * charts use x[i], y[i]; bar charts use y[i] for category i and ignore x.
 * A NaN y is a missing point.  model != 0 marks a model prediction: drawn
 * dashed over the measurements (line) or as a tick over the bar (bar).
 */
typedef struct wm_series {
    const char *name;
    size_t n;
    const double *x;
    const double *y;
    int model;
} wm_series;

/* Axes and title.  ymin == ymax: automatic (0 up to the largest value). */
typedef struct wm_chart {
    const char *title;
    const char *xlabel;
    const char *ylabel;
    int xlog2; /* 1: x axis in powers of two (strides, vector widths) */
    double ymin, ymax;
} wm_chart;

/* A line plot of several series (at most 8 are told apart by colour). */
WM_API void wm_html_line_chart(wm_html *h, const wm_chart *c,
                               const wm_series *s, size_t nseries);

/* A grouped bar chart: ncat categories, one bar per non-model series. */
WM_API void wm_html_bar_chart(wm_html *h, const wm_chart *c,
                              const char *const *labels, size_t ncat,
                              const wm_series *s, size_t nseries);

/*
 * Source-line lookup for reports: return the text of line `line` of
 * `file` (borrowed; must stay valid until the next call) or NULL.
 */
typedef const char *(*wm_html_source_fn)(void *ctx, const char *file,
                                         uint32_t line);

/* Where a site's instruction sits, for the source page (wm_html_where_fn
 * fills it; pointers live as long as the caller's data). */
typedef struct wm_html_where {
    uint32_t ptx_line;     /* line in the PTX text, 0 if unknown */
    const char *ptx;       /* the instruction as written, or NULL */
    const char *call_file; /* inlined code: the kernel line the helper was */
    uint32_t call_line;    /* inlined at (NULL / 0 when not inlined) */
} wm_html_where;

/* Fill *out for site `site`; return 0 if nothing is known. */
typedef int (*wm_html_where_fn)(void *ctx, uint32_t site, wm_html_where *out);

/* Number of lines of `file` (0 if unknown).  With it the source page lists
 * every line of the file, and `source` must return lines untrimmed. */
typedef uint32_t (*wm_html_nlines_fn)(void *ctx, const char *file);

/* A finding of a check (run --check's hazards) for the HTML report: the
   two source lines it involves (file[i] "" / line[i] 0 when it has
   fewer: an uninitialised read has one). */
typedef struct wm_html_finding {
    const char *kind;    /* "write-after-read", "schedule-difference" ... */
    const char *text;    /* one line: where, how often */
    const char *file[2]; /* the earlier and the later access, as the
                            sites name their files */
    uint32_t line[2];
    const char *what[2]; /* "read", "write" (may be NULL) */
} wm_html_finding;

typedef struct wm_html_opts {
    const char *title;        /* page title; NULL: "warpmem report" */
    const char *command;      /* command line shown under the title or NULL */
    wm_html_source_fn source; /* may be NULL */
    void *source_ctx;
    size_t max_sites;         /* 0: all lines get a detail section; else
                                 the worst this many */
    /* the summary's header; each may be NULL */
    const char *kernel;       /* kernel or program name */
    const char *launch;       /* the launch in words */
    const char *arch;         /* the profile and where it came from; NULL:
                                 the aggregator's profile name */
    wm_html_nlines_fn nlines; /* may be NULL (then only lines with memory
                                 instructions are rows); uses source_ctx */
    wm_html_where_fn where;   /* may be NULL; uses source_ctx */
    /* a Checks section first, each finding with both source lines
       linked, and those lines marked on the source page; may be 0 */
    const wm_html_finding *findings;
    size_t nfindings;
} wm_html_opts;

/*
 * A whole report (docs/advisor.md): a summary first (kernel, launch,
 * profile, the worst lines with what is wrong, how bad and the fix with
 * its numbers), a chart of the excess per line and a histogram of the
 * worst line's per-request values, the source page (every line with its
 * requests, sectors and wavefronts per request against the ideal,
 * conflicts, excessive share and a heat bar; the PTX of its memory
 * instructions; inlined helper lines under their call site), a detail
 * section per line with its lane pictures and advice, and the kernel
 * totals grouped as Nsight Compute's memory tables.  opts may be NULL.
 * Returns WM_ERR_IO if writing failed, WM_ERR_NOMEM.
 */
WM_API wm_status wm_html_report(FILE *f, const wm_agg *g,
                                const wm_html_opts *opts);

/* Same, into the file at path (created or truncated). WM_ERR_IO if it
 * cannot be opened or written, with errno saying why. */
WM_API wm_status wm_html_report_file(const char *path, const wm_agg *g,
                                     const wm_html_opts *opts);

/* ---- below L1: the cache hierarchy model (wm_cache_*) ------------------ */

/*
 * A GPU's figures for the hierarchy model: SM count and clock, the unified
 * L1/shared array per SM, the L2, and bandwidths (bytes per second).  Every
 * figure carries its source in docs/hierarchy.md and in source.  The built-in
 * GPUs are also architecture profiles (--arch H200 counts with the sm_90
 * rules); a plain sm_XX profile maps to a default GPU (wm_gpu_for_arch).
 */
typedef struct wm_gpu {
    const char *name;        /* "H200" */
    unsigned sm;             /* compute capability x10 */
    unsigned nsms;           /* streaming multiprocessors */
    double clock_hz;         /* boost clock */
    unsigned l1_kib;         /* unified L1 + shared memory per SM */
    const unsigned *carveouts; /* supported shared carve-outs in KiB,
                                  ascending, ending with 0 after the first */
    unsigned max_ctas_sm;    /* resident CTAs per SM */
    unsigned max_warps_sm;   /* resident warps per SM */
    unsigned smem_cta_reserve; /* bytes the driver reserves per CTA */
    uint64_t l2_bytes;       /* L2 capacity the model uses */
    double dram_peak;        /* HBM/GDDR peak, bytes/s */
    double dram_meas;        /* measured STREAM-class copy, bytes/s */
    double l2_bw;            /* measured L2 read bandwidth, bytes/s */
    const char *source;      /* one line naming the sources */
    /* Load-to-use latencies in SM cycles of a dependent load served by
     * L1, by L2 and by DRAM (pointer-chase microbenchmarks); 0: none. */
    double lat_l1, lat_l2, lat_dram;
    const char *lat_source;  /* where the latencies come from */
    /* TLBs: each SM's L1 TLB and the shared L2 TLB, fully associative and
     * LRU, their entries and the bytes one entry maps (a power of two); 0
     * entries: no TLB modelled.  The cycles a load's L1 TLB miss adds when
     * the L2 TLB has the page, and those an L2 TLB miss adds on top (the
     * page walk); 0: no figure, the term is left out. */
    unsigned tlb1_entries, tlb2_entries;
    uint64_t tlb1_page, tlb2_page;
    double lat_tlb1, lat_tlb2;
    const char *tlb_source;  /* where the TLB figures come from */
    /* L1 miss slots per SM, in sectors: the most sectors an SM's L1 can
     * have requested from L2 and not yet received, which caps the bytes
     * in flight of the latency term; 0: no limit. */
    unsigned mshr_sectors;
    const char *mshr_source; /* where the miss-slot figure comes from */
} wm_gpu;

/* Built-in GPUs: count, i-th (NULL past the end), by name (case-blind,
 * NULL when unknown). */
WM_API size_t wm_gpu_count(void);
WM_API const wm_gpu *wm_gpu_at(size_t i);
WM_API const wm_gpu *wm_gpu_find(const char *name);
/* The GPU for a profile: the one of the same name, else the default GPU of
 * its compute capability (sm_90: H200, sm_80: A100, sm_89: L4 ...); NULL
 * for profiles without one (generic, amd-wave64, sm_70/75/86). */
WM_API const wm_gpu *wm_gpu_for_arch(const wm_arch *a);

/* How the warps resident on an SM take turns (docs/hierarchy.md). */
typedef enum {
    WM_CACHE_ORDER_INSN,   /* one memory instruction per warp per round */
    WM_CACHE_ORDER_BARRIER /* each warp runs its whole barrier interval */
} wm_cache_order;

/*
 * Configuration of one model run.  wm_cache_config_init fills it from a
 * GPU and the launch (threads and shared bytes per CTA decide the CTAs per
 * SM and the shared carve-out, and with it the L1 capacity); any field may
 * be changed before wm_cache_new.  ways = 0 means fully associative.
 */
typedef struct wm_cache_config {
    const wm_gpu *gpu;      /* bandwidths and clock for the time estimate */
    unsigned nsms;          /* SMs CTAs are placed on */
    unsigned ctas_per_sm;   /* resident CTAs per SM (a wave = nsms x this) */
    uint64_t l1_bytes;      /* L1 data capacity per SM */
    unsigned l1_ways;
    uint64_t l2_bytes;
    unsigned l2_ways;
    unsigned line_bytes;    /* 128 */
    unsigned sector_bytes;  /* 32 */
    uint64_t smem_carveout; /* bytes of the array given to shared memory */
    wm_cache_order order;
} wm_cache_config;

/* Fill *c for GPU g, a CTA of threads threads and smem shared bytes.
 * WM_ERR_ARG when g is NULL, threads is 0 or the CTA does not fit an SM. */
WM_API wm_status wm_cache_config_init(wm_cache_config *c, const wm_gpu *g,
                                      uint64_t threads, uint64_t smem);
/* The same with regs registers per thread limiting occupancy too (0:
 * unknown, not limiting; PTX does not say what ptxas allocates, so take it
 * from `ptxas -v` or ncu).  WM_ERR_ARG also for regs above 255. */
WM_API wm_status wm_cache_config_init_regs(wm_cache_config *c,
                                           const wm_gpu *g, uint64_t threads,
                                           uint64_t smem, unsigned regs);

/* How a global load treats L1 (from its PTX cache operator). */
typedef enum {
    WM_CACHE_LD_CA,          /* default, .ca, .nc: allocate in L1 */
    WM_CACHE_LD_EVICT_FIRST, /* .cs, .lu, L1::evict_first */
    WM_CACHE_LD_NO_ALLOCATE, /* L1::no_allocate: look up, do not fill */
    WM_CACHE_LD_CG,          /* .cg: L2 only */
    WM_CACHE_LD_CV           /* .cv, .volatile: fetch again from DRAM */
} wm_cache_ld;

/* Counters of the hierarchy, whole kernel or one site. */
typedef struct wm_cache_stats {
    uint64_t l1_ld_sectors;  /* global load sectors looked up in L1 */
    uint64_t l1_ld_hits;     /* of which hit */
    uint64_t l1_st_sectors;  /* global store sectors (write-through) */
    uint64_t l1_wavefronts;  /* tag-stage wavefronts, ceil(lines / 4) */
    uint64_t l2_rd_requests; /* lines with a missing sector, L1 -> L2 */
    uint64_t l2_rd_sectors;  /* sectors L1 asked L2 for */
    uint64_t l2_rd_hits;
    uint64_t l2_wr_sectors;  /* store and atomic sectors reaching L2 */
    uint64_t l2_wr_hits;     /* of which found their line resident */
    uint64_t dram_rd_sectors;
    uint64_t dram_wr_sectors; /* evictions of dirty sectors + final flush */
    uint64_t bytes;           /* requested global bytes (loads + stores) */
    uint64_t l2_wr_partial;   /* store sectors written only in part (the
                                 L2 merges them by read-modify-write) */
    uint64_t l1_data_wavefronts; /* data-stage wavefronts of global
                                    accesses, ceil(sectors / 4) */
    uint64_t tlb1_misses;     /* L1 TLB lookups that missed (one lookup per
                                 run of an access's lines in one page) */
    uint64_t tlb2_misses;     /* of which missed the L2 TLB too */
} wm_cache_stats;

typedef struct wm_cache wm_cache;

/* New model (config copied).  NULL on OOM or an invalid configuration. */
WM_API wm_cache *wm_cache_new(const wm_cache_config *c);
WM_API void wm_cache_free(wm_cache *c);
WM_API const wm_cache_config *wm_cache_config_of(const wm_cache *c);

/*
 * Feeding the model by hand (the PTX runner and wm_expr_run_cache do it):
 * wm_cache_cta starts the next CTA in launch order; wm_cache_add gives it
 * one warp access of warp `warp` in barrier interval `interval` (global
 * space only; other spaces are ignored).  CTAs are buffered until a wave
 * (nsms x ctas_per_sm CTAs) is complete, then replayed: CTA i of a wave
 * runs on SM i mod nsms.  wm_cache_finish replays the last wave and writes
 * back the dirty L2 sectors; call it once, after the last access.
 */
WM_API wm_status wm_cache_cta(wm_cache *c);
WM_API wm_status wm_cache_add(wm_cache *c, unsigned warp, unsigned interval,
                              const wm_access *a, wm_cache_ld ld);
WM_API wm_status wm_cache_finish(wm_cache *c);

/* Whole-kernel counters; shared-memory wavefronts seen (for the time). */
WM_API void wm_cache_totals(const wm_cache *c, wm_cache_stats *out);
WM_API void wm_cache_add_shared_wavefronts(wm_cache *c, uint64_t n);
/* Sites with traffic, ascending; the i-th one's id and counters. */
WM_API size_t wm_cache_nsites(const wm_cache *c);
WM_API int wm_cache_site(const wm_cache *c, size_t i, uint32_t *site,
                         wm_cache_stats *out);

/*
 * The predicted memory time and what bounds it (docs/hierarchy.md, "The
 * memory-time estimate"):
 *   time = lat_s + l1_s + max(dram_s, l2_s)
 * lat_s is the latency the resident warps do not hide (Little's law: per
 * barrier interval the longest chain of dependent load groups of a CTA's
 * warps, over the CTAs resident on an SM), l1_s the L1/shared pipe's
 * cycles (tag and data stages, shared wavefronts) of the busiest SM,
 * dram_s and l2_s the bytes over each level's bandwidth.  bound names the
 * largest term; whatif_s is the time without it.
 */
typedef struct wm_cache_time {
    double dram_s, l2_s, l1_s; /* each level's bytes or wavefronts / rate */
    double time_s;             /* lat_s + l1_s + max(dram_s, l2_s) */
    const char *bound;         /* "latency", "L1", "DRAM" or "L2" */
    double eff_bw;             /* requested bytes / time_s, bytes/s */
    double dram_bw;            /* DRAM bytes / time_s */
    double lat_s;              /* latency not hidden by resident CTAs */
    double inflight_sm;        /* load bytes in flight per SM (mean) */
    double inflight_need;      /* bytes in flight per SM that DRAM
                                  bandwidth x DRAM latency asks for */
    double whatif_s;           /* the time without the bound's term */
    unsigned nterms_missing;   /* terms left out for want of a figure */
    double inflight_cap;       /* bytes of L1 misses an SM can have in
                                  flight (mshr_sectors x sector); 0: none */
    double inflight_ask;       /* L1-miss bytes per SM the load groups ask
                                  to have in flight (mean); above
                                  inflight_cap, latency stretches */
} wm_cache_time;
WM_API void wm_cache_predict(const wm_cache *c, wm_cache_time *out);

/* Barrier intervals seen (by index, over all CTAs), and interval i's
 * latency and L1/shared-pipe seconds on the average SM (lat_s, l1_s of
 * wm_cache_time, split by interval).  0 when i is out of range. */
WM_API size_t wm_cache_nintervals(const wm_cache *c);
WM_API int wm_cache_interval(const wm_cache *c, size_t i, double *lat_s,
                             double *l1_s);

/* Why the bound wins and what removes it, one line ("latency-bound: 8.0
 * KiB in flight per SM, DRAM needs 7.3 KiB; ..."), into buf (always
 * NUL-terminated); returns buf. */
WM_API const char *wm_cache_reason(const wm_cache *c, char *buf, size_t n);

/* Metrics under Nsight Compute's names (plus warpmem__ predictions). */
WM_API size_t wm_cache_metric_count(void);
WM_API const char *wm_cache_metric_name(size_t i);
/* Its unit ("sector", "%", "byte", "nsecond", ...; "" out of range). */
WM_API const char *wm_cache_metric_unit(size_t i);
WM_API double wm_cache_metric_value(const wm_cache *c, size_t i);

/*
 * Print the hierarchy section: the configuration, the metrics and the
 * predicted time, then per site (labelled from g, may be NULL) the L1 and
 * L2 misses it caused.  JSON: {"hierarchy": {...}} and a newline; CSV: its
 * rows of the long table (docs/output.md); the ncu formats write nothing
 * (the launch's ncu rows carry these metrics).  The reports of runs and
 * expressions embed the section themselves (wm_ptx_report_opts.cache,
 * wm_expr_report_opts.cache).
 */
WM_API void wm_cache_report(FILE *f, const wm_cache *c, const wm_agg *g,
                            wm_format fmt);

/* Shared bytes one CTA of kernel k uses with dyn_smem dynamic bytes (the
 * static .shared size, aligned, plus dyn_smem); 0 for a bad k. */
WM_API uint64_t wm_ptx_kernel_smem(const wm_ptx_module *m, size_t k,
                                   uint64_t dyn_smem);

/* wm_expr_run that also feeds the hierarchy model (blocks in launch
 * order, one barrier interval); calls wm_cache_finish. */
WM_API wm_status wm_expr_run_cache(wm_expr *e, wm_agg *g, wm_cache *c,
                                   uint64_t max_accesses,
                                   wm_expr_fault *fault);

/* ---- Nsight Compute CSV exports (wm_ncu_*) ------------------------------
 *
 * An export of `ncu --csv` (details, raw or source page) or warpmem's own
 * CSV, read into launches, each with its metrics in file order (see
 * docs/output.md for what each page holds).  All strings live with the
 * wm_ncu object.
 */

typedef struct wm_ncu wm_ncu;

typedef enum {
    WM_NCU_DETAILS, /* --page details: a row per (launch, metric) */
    WM_NCU_RAW,     /* --page raw: a row per launch, a units row */
    WM_NCU_SOURCE,  /* --page source: per source line counters */
    WM_NCU_WARPMEM  /* warpmem --format csv: totals and per line sums */
} wm_ncu_page;

/* One launch of an export ("" for what the page does not have). */
typedef struct wm_ncu_launch {
    const char *id, *kernel, *block, *grid, *cc;
    size_t nmetrics;
} wm_ncu_launch;

/* One metric of a launch; line (and file, warpmem's CSV) for per-line
 * counters, else 0.  has_value 0: ncu printed no value ("n/a", ""). */
typedef struct wm_ncu_value {
    const char *name, *unit, *file;
    uint32_t line;
    double value;
    int has_value;
} wm_ncu_value;

/*
 * Parse text[0..n).  Quoted fields with commas, doubled quotes and line
 * breaks, CRLF, the raw page's units row, thousands separators in values
 * and "==PROF=="/"==WARNING==" lines are understood; "==ERROR==" lines,
 * a malformed record or a record whose field count differs from the
 * header's are errors in *d (offset, line, col; print with
 * wm_diag_print).  On success *out is the export (caller frees with
 * wm_ncu_free).  WM_ERR_PARSE, WM_ERR_NOMEM, WM_ERR_ARG.
 */
WM_API wm_status wm_ncu_parse(const char *text, size_t n, wm_ncu **out,
                              wm_diag *d);
WM_API void wm_ncu_free(wm_ncu *x);

WM_API wm_ncu_page wm_ncu_page_of(const wm_ncu *x);
WM_API size_t wm_ncu_nlaunches(const wm_ncu *x);
/* Launch i (0-based, file order).  1, or 0 when out of range. */
WM_API int wm_ncu_launch_info(const wm_ncu *x, size_t i, wm_ncu_launch *out);
/* Metric j of launch i.  1, or 0 when out of range. */
WM_API int wm_ncu_metric(const wm_ncu *x, size_t launch, size_t j,
                         wm_ncu_value *out);

/* What wm_ncu_compare compares and how it prints. */
typedef struct wm_compare_opts {
    double tolerance;   /* relative: 0.05 flags a ratio off 1 by > 5 % */
    const char *kernel; /* only this kernel (name without parameters), or
                           NULL for every launch of the prediction */
    long launch;        /* the n-th launch (0-based) of the kernel in the
                           measurement; -1: the first with the same block
                           and grid, else the first */
    wm_format format;   /* WM_FMT_TEXT or WM_FMT_JSON */
} wm_compare_opts;

/*
 * Print, for every launch of pred (warpmem's CSV or an ncu CSV it
 * wrote), the metrics that the matched launch of the measurement meas[]
 * also has (details or raw pages), and per source line those of source
 * pages: predicted, measured, ratio, flagged when the ratio is off 1 by
 * more than the tolerance.  *nflagged and *ncompared (may be NULL) count
 * them.  WM_ERR_IO when writing failed, WM_ERR_ARG.
 */
WM_API wm_status wm_ncu_compare(FILE *f, const wm_ncu *const *meas,
                                size_t nmeas, const wm_ncu *pred,
                                const wm_compare_opts *o, size_t *nflagged,
                                size_t *ncompared);

/* What an export holds, launch by launch (text, or JSON in the shape of
 * docs/output.md).  WM_ERR_IO when writing failed. */
WM_API wm_status wm_ncu_dump(FILE *f, const wm_ncu *x, wm_format fmt);


/* ---- SASS view (wm_sass_*) -------------------------------------------- */

/*
 * The memory instructions of a module as the GPU runs them: the text of
 * `nvdisasm -g -c` (or -print-line-info) of the cubin that ptxas made
 * from the module's PTX with -lineinfo, parsed.  The library never runs
 * a tool; the CLI does (docs/ptx.md, "SASS level").
 */
typedef struct wm_sass wm_sass;

typedef enum {
    WM_SASS_GLOBAL,  /* LDG STG ATOMG RED LDGSTS (global side) */
    WM_SASS_SHARED,  /* LDS STS ATOMS LDSM */
    WM_SASS_LOCAL,   /* LDL STL */
    WM_SASS_GENERIC, /* LD ST ATOM: the space resolves per lane */
    WM_SASS_NSPACES
} wm_sass_space;

typedef struct wm_sass_mem {
    const char *func;   /* the function (kernel) it belongs to */
    const char *file;   /* source file of its line info, "" if none */
    uint32_t line;      /* source line, 0 if none */
    uint32_t offset;    /* byte offset in the function's code */
    const char *opcode; /* mnemonic with modifiers: "LDS.128", "STG.E.U8" */
    wm_sass_space space;
    wm_op op;           /* WM_OP_LD / ST / ATOM / LDSM / LDGSTS */
    unsigned width;     /* bytes per lane: 1 2 4 8 16 */
    const char *base;   /* address register as written ("R17", "R0.X4",
                           "R22.64", "RZ"), "" for none */
    int64_t imm;        /* immediate byte offset of the address */
    const char *pred;   /* guard ("@P0", "@!P1") or "" */
    const char *call_file; /* inlined code (nvdisasm -gi's "inlined at"
                              chain): the outermost call site, the kernel's
                              line; else file and line again */
    uint32_t call_line;
} wm_sass_mem;

/*
 * Parse disassembly text[0..n) (nvdisasm -g or -gi).  Lines other than
 * instructions and "//## File "f", line N" comments are skipped; an
 * instruction line that names a memory opcode but whose address cannot be
 * read is an error (WM_ERR_PARSE, located in *d).  WM_ERR_NOMEM.  Caller
 * frees (wm_sass_free).
 */
WM_API wm_status wm_sass_parse(const char *text, size_t n, wm_sass **out,
                               wm_diag *d);
WM_API void wm_sass_free(wm_sass *s);

/* Memory instructions, in the order of the text; strings live with s. */
WM_API size_t wm_sass_count(const wm_sass *s);
WM_API const wm_sass_mem *wm_sass_at(const wm_sass *s, size_t i);
WM_API const char *wm_sass_space_name(wm_sass_space sp);

/*
 * List the memory instructions of function func (NULL: all) per source
 * line: "file:line  LDS.128 [R17+0x10]  (shared ld, 16 B)" in text, or a
 * JSON array of objects (docs/output.md).  WM_ERR_IO when writing failed.
 */
WM_API wm_status wm_sass_print(FILE *f, const wm_sass *s, const char *func,
                               wm_format fmt);

/*
 * The mapping of kernel k's PTX memory instructions onto the SASS ones of
 * the same source line (docs/model.md, "SASS level"): per PTX instruction
 * whether the SASS runs it as is, merges it into a wider access led by
 * another PTX instruction (the lead's lane addresses, the SASS width), or
 * splits it; per line whether the mapping is certain.  Borrows m and s
 * for its lifetime.  WM_ERR_NOMEM, WM_ERR_ARG.
 */
typedef enum {
    WM_SASS_SAME,     /* one SASS access per PTX access, same width */
    WM_SASS_LEAD,     /* counted at width, standing for `merged` PTX accesses */
    WM_SASS_MERGED,   /* part of a lead's access: not counted at SASS level */
    WM_SASS_SPLIT,    /* counted as `parts` accesses of width bytes */
    WM_SASS_UNMAPPED  /* no certain mapping: PTX numbers, said per line */
} wm_sass_kind;

typedef struct wm_sass_map {
    wm_sass_kind kind;
    unsigned width;     /* SASS bytes per lane (LEAD, SPLIT, SAME) */
    unsigned merged;    /* LEAD: PTX accesses it stands for (>= 2) */
    unsigned parts;     /* SPLIT: SASS accesses per PTX access (>= 1) */
    size_t lead;        /* MERGED: the lead's instruction index */
    const char *opcode; /* a SASS opcode of the line that runs it, or "" */
    const char *why;    /* UNMAPPED: the reason, one phrase */
    unsigned slots;     /* SPLIT: bit j set: a SASS access at +j * width
                           (ptxas reads only the parts used); 0: all parts */
    unsigned shift;     /* LEAD: the SASS access starts this many bytes
                           below the lead's (a merge across two lines is
                           led by the access of the line ptxas names) */
} wm_sass_map;

WM_API wm_status wm_sass_plan_new(const wm_ptx_module *m, size_t k,
                                  const wm_sass *s, wm_sass_plan **out);
WM_API void wm_sass_plan_free(wm_sass_plan *p);

/* The map of instruction insn (module index); kind SAME for instructions
   without memory access. */
WM_API wm_sass_map wm_sass_plan_insn(const wm_sass_plan *p, size_t insn);

/* Lines of the kernel with memory instructions; of them merged, split,
   unmapped (each line counted once per kind it has). */
typedef struct wm_sass_summary {
    size_t lines, merged, split, unmapped, insns_merged;
} wm_sass_summary;
WM_API void wm_sass_plan_summary(const wm_sass_plan *p, wm_sass_summary *out);

/*
 * Count agg's accesses at the SASS level as well: from now on every
 * access of a LEAD or SPLIT instruction is also counted as the SASS
 * instruction sees it (wm_agg_sass_view).  p must outlive agg.  The run
 * copies it to its per-thread aggregators.
 */
WM_API void wm_agg_set_sass(wm_agg *agg, const wm_sass_plan *p);

/*
 * The SASS-level aggregator of agg (which had wm_agg_set_sass before the
 * run): SAME and UNMAPPED sites as in agg, LEAD and SPLIT sites with
 * their SASS counts, MERGED sites gone.  It keeps a copy of agg's sites,
 * which the report prints as the PTX form of each site (docs/output.md).
 * Caller frees (wm_agg_free).  WM_ERR_ARG without a plan; WM_ERR_NOMEM.
 */
WM_API wm_status wm_agg_sass_view(const wm_agg *agg, wm_agg **out);

#ifdef __cplusplus
}
#endif
#endif /* WM_WARPMEM_H */
