/*
 * lab.h -- the parts of warpmem-lab that need no GPU: the experiment table,
 * the model's prediction for every row (computed with wm_count on the lane
 * addresses the row's kernel issues), result statistics and the writers.
 * The CUDA side (gpu.cu) fills in measurements; this header is shared by
 * the C files and by gpu.cu (hence the extern "C" guards).
 *
 * Invariants:
 *   - every row that launches a kernel of lab/kernels/ names its kind;
 *     the address generator in predict.c and the kernel compute the same
 *     indices (the comment above each kind in kinds.def says which);
 *   - a row is timed only after its result passed the full check.
 */
#ifndef WM_LAB_H
#define WM_LAB_H

#include "warpmem.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Exit statuses of warpmem-lab. */
enum {
    LAB_EXIT_OK = 0,
    LAB_EXIT_FAIL = 1,     /* a check failed or a CUDA call failed */
    LAB_EXIT_USAGE = 2,
    LAB_EXIT_NODEVICE = 3  /* no CUDA device: nothing was measured */
};

/* What a row launches (X(name, kernel symbol or "", ptx file or "")). */
typedef enum {
#define X(name, sym, ptx, what) LAB_K_##name,
#include "kinds.def"
#undef X
    LAB_NKINDS
} lab_kind;

/* Kernel symbol ("" for library calls), PTX file (relative to the source
 * root, "" when none) and a one-line description of a kind. */
const char *lab_kind_symbol(lab_kind k);
const char *lab_kind_ptx(lab_kind k);
const char *lab_kind_what(lab_kind k);

/* How a row is compared: bandwidth rows against C_ref and their baseline
 * row; shared-memory rows by time against the conflict-free 32-bit row. */
typedef enum { LAB_ROW_BW, LAB_ROW_SMEM } lab_row_type;

/* Parameters of one row; unused fields are 0. */
typedef struct lab_params {
    unsigned width;  /* bytes per lane of the copy kinds (1..16) */
    unsigned stride; /* elements between lanes (stride kinds) */
    unsigned offset; /* elements of misalignment (offset kind) */
    int a, b, c;     /* smem probe: word(lane) = (lane%a)*b + (lane/a)*c */
} lab_params;

/* The model's prediction for one row (sums over the first block's warps). */
typedef struct lab_pred {
    int has;                  /* 0: no kernel of ours, nothing predicted */
    uint64_t g_ld_req, g_ld_sectors, g_ld_ideal;
    uint64_t g_st_req, g_st_sectors, g_st_ideal;
    uint64_t s_ld_req, s_ld_wavefronts, s_ld_ideal;
    uint64_t s_st_req, s_st_wavefronts, s_st_ideal;
    unsigned s_nway;          /* busiest bank of any shared access */
    double efficiency;        /* global ideal sectors / sectors (1 if none) */
    double nway_pred;         /* smem rows: wavefronts per probe request */
} lab_pred;

/* The hierarchy model's prediction for a row (lab/hier.c, docs/hierarchy.md):
 * the whole n x n grid through L1/L2/DRAM of the sm_90 default GPU. */
typedef struct lab_hier {
    int has;              /* 0: kind not modelled (or not computed) */
    unsigned n;           /* matrix side of 2-D rows, else 0 */
    uint64_t bytes;       /* buffer of 1-D rows, else 0 */
    const char *gpu;      /* "H200" */
    double l1_hit, l2_hit; /* sector hit rates, 0..1 */
    uint64_t dram_bytes;  /* read + written */
    double time_us;       /* predicted memory time */
    double gbs;           /* effective bandwidth: requested bytes / time */
    const char *bound;    /* "DRAM", "L2" or "L1" */
} lab_hier;

/* Measured result of a row (filled by the GPU side). */
typedef enum {
    LAB_ST_NOT_RUN,  /* --list, or not selected */
    LAB_ST_OK,       /* checked and timed */
    LAB_ST_CHECKED,  /* checked, not timed (--once) */
    LAB_ST_FAILED,   /* the result check failed: never timed */
    LAB_ST_ERROR     /* a CUDA/cuBLAS call failed */
} lab_status;

typedef struct lab_meas {
    lab_status status;
    char note[160];    /* first mismatch or the failing call */
    double bytes;      /* bytes read + written per launch */
    unsigned samples;  /* timed samples */
    unsigned launches; /* launches per sample */
    unsigned kernel_launches; /* launches of the row's lab_ kernel that the
                                 driver accepted (check, warm-up, samples):
                                 what a profiler sees of this row */
    double warmup_ms;  /* time spent warming up before the samples */
    unsigned sm_mhz, mem_mhz; /* clocks right after the samples, 0 unknown */
    double ms_med, ms_min, ms_max; /* per launch */
    double gbs_med, gbs_min, gbs_max;
    /* the launch, for `warpmem run` and ncu: grid, block and the kernel's
     * arguments in `warpmem run --arg` syntax, space-separated */
    unsigned grid[3], block[3];
    char args[192];
} lab_meas;

/* One experiment row. */
typedef struct lab_row {
    char id[32];       /* "E2.read.s4" */
    char experiment[4]; /* "E2" */
    char title[64];
    lab_row_type type;
    lab_kind kind;
    lab_params p;
    int baseline;      /* index of the row this one is compared with, or -1
                          (then C_ref for bandwidth rows) */
    int selected;
    lab_pred pred;
    lab_hier hier; /* filled by lab_table_hier */
    lab_meas meas;
} lab_row;

#define LAB_MAX_ROWS 128

typedef struct lab_table {
    size_t nrows;
    lab_row rows[LAB_MAX_ROWS];
} lab_table;

/* Fill t with every experiment row and its prediction (sm_90 profile).
 * Returns WM_OK or the first wm_count error. */
wm_status lab_table_build(lab_table *t);

/* Select the rows whose id starts with one of the comma-separated prefixes
 * in spec (NULL: all).  The E0 rows are always selected: they define C_ref.
 * Returns the number of rows matched by spec, 0 if a prefix matched none
 * (its text is copied into bad). */
size_t lab_table_select(lab_table *t, const char *spec, char *bad,
                        size_t badlen);

/* The index of a row by id, or -1. */
int lab_table_find(const lab_table *t, const char *id);

/* Compute the prediction of one row kind/params with wm_count. */
wm_status lab_predict(const wm_arch *arch, lab_kind kind,
                      const lab_params *p, lab_pred *out);

/* 1 if lab_predict_hier models kind (E1, the 32x8 transposes, the stride
 * and offset sweeps). */
int lab_hier_supported(lab_kind kind);
/* The hierarchy prediction of kind: 2-D kinds over an n x n fp32 grid (n
 * a multiple of 32), stride and offset kinds over a 256 MiB buffer with
 * p->stride or p->offset;
 * out->has = 0 for kinds not modelled.  WM_OK or an error. */
wm_status lab_predict_hier(lab_kind kind, const lab_params *p, unsigned n,
                           lab_hier *out);
/* Fill every selected row's hier (once per kind and parameters), side n
 * of the 2-D rows. */
wm_status lab_table_hier(lab_table *t, unsigned n);

/* ---- statistics ---------------------------------------------------------- */

/* Median, minimum and maximum of n > 0 values (v is sorted in place). */
void lab_stats(double *v, size_t n, double *med, double *min, double *max);

/* ---- results and writers ------------------------------------------------- */

/* The device and run as printed in every header. */
typedef struct lab_env {
    int have_device;
    char device[256];
    int cc_major, cc_minor;
    int sms;
    long long l2_bytes;
    long long mem_bytes;
    int driver, runtime;   /* CUDA versions, e.g. 13000 */
    char date[32];         /* UTC, ISO 8601 */
    long long buf_bytes;   /* per-buffer bytes of the sweeps */
    int matrix_n;          /* E5 matrix side */
    int lesson_n;          /* E1 matrix side */
    unsigned repeat;
    int once;              /* 1: checked but not timed */
    double c_ref_gbs;      /* best contiguous copy of this run, 0 if none */
    /* SM and memory clocks in MHz (NVML; 0: unknown): [0] when the device
     * was opened (often idle clocks), [1] after the first row's warm-up,
     * [2] after the last timed row's samples */
    unsigned sm_mhz[3], mem_mhz[3];
    int have_clocks;       /* NVML answered */
    int cublas;            /* built with cuBLAS (E5.sgeam can run) */
    char commit[48];       /* --commit, "" when not given */
} lab_env;

/* Percent by which a clock may move before the writers flag it. */
#define LAB_CLOCK_TOL_PCT 2.0

/* 1 if clock b differs from the reference a by more than
 * LAB_CLOCK_TOL_PCT (0 when either is unknown). */
int lab_clock_moved(unsigned a, unsigned b);
/* 1 if the run's clocks moved: after the first warm-up vs the end, or any
 * timed row's clocks vs the first warm-up's. */
int lab_env_clocks_moved(const lab_table *t, const lab_env *e);

/* Bandwidth of the row relative to C_ref (0 if unknown). */
double lab_row_x_cref(const lab_table *t, const lab_env *e, size_t i);
/* Measured value compared with the prediction: for bandwidth rows the
 * bandwidth relative to the baseline (C_ref when none); for smem rows the
 * time relative to the baseline.  0 if unknown. */
double lab_row_measured_rel(const lab_table *t, const lab_env *e, size_t i);
/* The predicted value of that same quantity: efficiency relative to the
 * baseline's, or n-way relative to the baseline's.  0 if no prediction. */
double lab_row_predicted_rel(const lab_table *t, size_t i);

/* Write the table as text, JSON or CSV (JSON and CSV through the library's
 * writer; JSON begins with the common head of docs/output.md).  list:
 * prediction only.  Returns WM_ERR_IO on a failed write. */
wm_status lab_write(FILE *f, const lab_table *t, const lab_env *e,
                    wm_format fmt, int list);

/*
 * Write the table as one HTML page with charts, measured next to the model
 * (list: predictions only).  WM_ERR_UNSUPPORTED when the library has no
 * HTML writer (built without WM_LAB_HTML); WM_ERR_IO on a write error.
 */
wm_status lab_write_html(FILE *f, const lab_table *t, const lab_env *e,
                         int list);

/* ---- the GPU side (gpu.cu) ----------------------------------------------- */

/* Options of a measuring run. */
typedef struct lab_opts {
    long long size;   /* requested per-buffer bytes, 0: default (1 GiB) */
    unsigned repeat;  /* timed samples per row */
    int once;         /* check only, no timing, no size floor */
    double warmup_ms; /* warm-up per row before its samples */
    /* called after each row (NULL: nothing), e.g. to rewrite the JSON */
    void (*on_row)(const lab_table *t, const lab_env *e, void *ctx);
    void *on_row_ctx;
} lab_opts;

/* The warm-up of every timed row, in ms of back-to-back launches. */
#define LAB_WARMUP_MS 200.0

/*
 * Open device 0 and fill the device part of e.  Returns LAB_EXIT_OK, or
 * LAB_EXIT_NODEVICE with the runtime's reason in why (no device, no
 * driver), or LAB_EXIT_FAIL.
 */
int lab_gpu_open(const lab_opts *o, lab_env *e, char *why, size_t whylen);

/*
 * Check and time every selected row of t (E0 first: it sets e->c_ref_gbs).
 * Progress goes to stderr.  Returns LAB_EXIT_OK, or LAB_EXIT_FAIL if a
 * check or a CUDA call failed (the other rows still run).
 */
int lab_gpu_run(lab_table *t, lab_env *e, const lab_opts *o);

/* Release everything lab_gpu_open/lab_gpu_run allocated. */
void lab_gpu_close(void);

#ifdef __cplusplus
}
#endif
#endif /* WM_LAB_H */
