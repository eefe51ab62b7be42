/*
 * cache_int.h -- internals of the hierarchy model shared by cache.c, its
 * recorder cache_trace.c, the PTX runner and the expression runner: the
 * access trace of a run of CTAs.
 *
 * A trace is a word array.  Each warp access is two header words and one
 * word per distinct 128 B line:
 *   h0 = site | warp << 32 | nlines << 48 | kind << 56 | lead << 60
 *        (| WMI_REC_COL: a column, whose body is two words, below)
 *   h1 = interval | requested bytes << 32
 * A shared record (kind WMI_CK_SHARED) has no lines: its h1 holds
 * wavefronts instead of bytes, and its site field the number of the
 * warp's consecutive shared accesses it stands for, less one.
 *   line word = line index << 16 | mask of the line's sectors touched
 *   (the line index is kept modulo 2^48: addresses modulo 2^55, far above
 *   any the interpreter or the expression windows use)
 * cta[i] is the word offset where the i-th CTA's accesses begin.  A trace
 * belongs to one thread; the PTX runner keeps one per chunk of CTAs and
 * feeds them to the model in chunk order, so the model sees launch order
 * whatever the thread count.
 */
#ifndef WM_CACHE_INT_H
#define WM_CACHE_INT_H

#include "wm_int.h"

/* Lines of 128 bytes, of four sectors of 32. */
#define WMI_LINE_SHIFT 7
#define WMI_SECTOR_SHIFT 5
#define WMI_SPL 4 /* sectors per line */

/* Kinds: the wm_cache_ld policies (0..4), then these.  A shared record
 * has no lines: h1's upper half is its wavefronts. */
enum { WMI_CK_ST = 5, WMI_CK_ATOM = 6, WMI_CK_SHARED = 7 };

/* Bit 61 of a record's h0: a column, a full warp of 32 lanes at x0 + l d
 * with |d| >= 128 and lanes of a power of two of at most 16 bytes that
 * divides x0 and d (a line and a sector per lane: a strided store or a
 * matrix's column).  Its body is x0 and d instead of its 32 line words. */
#define WMI_REC_COL ((uint64_t)1 << 61)

/* The length in words of the record at h (its two header words, then its
 * body). */
static inline size_t wmi_rec_len(const uint64_t *h)
{
    return 2 + ((h[0] & WMI_REC_COL) ? 2 : ((h[0] >> 48) & 0xff));
}

/* The line words of the record at h: its own, or a column's, made in buf
 * (32 words). */
const uint64_t *wmi_rec_lines(const uint64_t *h, uint64_t *buf);

/* The index of line i of the record at h: wmi_rec_lines's word i >> 16,
 * without making a column's words. */
static inline uint64_t wmi_rec_line(const uint64_t *h, unsigned i)
{
    if (h[0] & WMI_REC_COL)
        return (h[2] + i * h[3]) >> WMI_LINE_SHIFT << 16 >> 16;
    return h[2 + i] >> 16;
}

/* Or-ed into a load's policy (wmi_ctrace.ld_kind, wmi_ctrace_add's ld):
 * the load starts a new group of loads in flight (cache_dep.c).  In the
 * trace it is bit 60 of h0. */
enum { WMI_CACHE_LEAD = 8 };

/* Mark in kind[i] (one byte per instruction of m) the loads that start a
 * group.  0 on OOM. */
int wmi_cache_lead(const wm_ptx_module *m, uint8_t *kind);

typedef struct wmi_ctrace {
    uint64_t *w;
    size_t n, cap;
    size_t *cta;
    size_t ncta, capcta;
    const uint8_t *ld_kind; /* per site: wm_cache_ld of loads | LEAD, may
                               be NULL */
    size_t nld_kind;
    unsigned warp, interval; /* set by the runner before each warp runs */
    unsigned nw;             /* warps per CTA of the records, at most */
    size_t last;             /* 1 + the offset of the CTA's last record
                                (0: none, or not known) */
    uint64_t shared_wavefronts;
} wmi_ctrace;

void wmi_ctrace_free(wmi_ctrace *t);
/* Start the next CTA (warp and interval reset to 0). */
wm_status wmi_ctrace_cta(wmi_ctrace *t);
/* Append access a (global loads/stores/atomics; shared ones only add their
 * wavefronts c->wavefronts; c may be NULL) for the current warp and
 * interval.  ld: the load policy.  WM_OK or WM_ERR_NOMEM. */
wm_status wmi_ctrace_add(wmi_ctrace *t, const wm_access *a,
                         const wm_counts *c, unsigned ld);
/* wmi_ctrace_add for a full warp in closed form (wmi_affine_access): the
 * same record, made from x0, d and size without the lanes' addresses when
 * each lane stays within one sector. */
wm_status wmi_ctrace_add_affine(wmi_ctrace *t, const wmi_affine_access *x,
                                const wm_counts *c, unsigned ld);
/* The last CTA of t, recorded by the n CTAs of a cluster together (the
 * warp of a record is rank x 64 + warp), becomes n CTAs in rank order,
 * each with its own records in the order they came.  WM_ERR_NOMEM. */
wm_status wmi_ctrace_split(wmi_ctrace *t, unsigned n);
/* Append n shared-memory wavefronts of the current warp and interval. */
wm_status wmi_ctrace_shared(wmi_ctrace *t, uint64_t n);
/* The same through the model (the expression runner). */
wm_status wmi_cache_add_shared(wm_cache *c, unsigned warp, unsigned interval,
                               uint64_t n);
/* The aggregator tap (wmi_agg_tap) that records into a wmi_ctrace: the
 * load policy comes from t->ld_kind[a->site]. */
wm_status wmi_ctrace_tap(void *t, const wm_access *a, const wm_counts *c);
/* Its closed form (wmi_agg_tap_affine). */
wm_status wmi_ctrace_tap_affine(void *t, const wmi_affine_access *x,
                                const wm_counts *c);

/* Append every CTA of t to the model, in order. */
wm_status wmi_cache_feed(wm_cache *c, const wmi_ctrace *t);

/* The load policy a PTX instruction's text asks for (".cg", ".cs",
 * "L1::no_allocate" ...). */
wm_cache_ld wmi_cache_ld_of_text(const char *text);

/*
 * The PTX runner's recorders: one trace per chunk aggregator aggs[i],
 * tapped into it, with the load policy of every instruction of m.  A
 * worker calls _chunk_done after chunk k; the chunks done so far in chunk
 * order are fed to c then, by one thread at a time, so recording memory
 * stays bounded and replay overlaps the run.  _end feeds the rest (when
 * feed is set), finishes c and frees the feeder; returns the first error.
 */
typedef struct wmi_cache_feeder wmi_cache_feeder;
wmi_cache_feeder *wmi_cache_feeder_new(wm_cache *c, const wm_ptx_module *m,
                                       wm_agg **aggs, uint32_t n);
wmi_ctrace *wmi_cache_trace(wmi_cache_feeder *f, uint32_t k);
void wmi_cache_chunk_done(wmi_cache_feeder *f, uint32_t k);
wm_status wmi_cache_feeder_end(wmi_cache_feeder *f, int feed);

/* ---- TLBs (cache_tlb.c) ----------------------------------------------- */

typedef struct wmi_ctlb {
    uint64_t *l1;    /* per SM: n1 entries, page + 1, most recent first */
    uint64_t *l2;    /* n2 entries, the same */
    unsigned n1, n2; /* 0: the GPU has no TLB figures */
    unsigned sh1, sh2; /* log2 of the bytes an entry maps */
    double lat1, lat2; /* miss cycles: L1 TLB (L2 TLB hit), L2 TLB extra */
} wmi_ctlb;

/* From g's TLB figures for nsms SMs (none: n1 = 0).  0 on OOM. */
int wmi_ctlb_init(wmi_ctlb *t, const wm_gpu *g, unsigned nsms);
void wmi_ctlb_free(wmi_ctlb *t);
/* Translate the nl line words of an access on SM sm, counting misses in
 * st; returns the cycles its slowest translation adds. */
double wmi_ctlb_access(wmi_ctlb *t, unsigned sm, const uint64_t *line,
                       unsigned nl, wm_cache_stats *st);
/* The same for a column's 32 lines (WMI_REC_COL: x0 + l d), without
 * their line words. */
double wmi_ctlb_column(wmi_ctlb *t, unsigned sm, uint64_t x0, int64_t d,
                       wm_cache_stats *st);

/* ---- time (cache_time.c) ---------------------------------------------- */

/* Per barrier interval, over all CTAs: latency and pipe cycles divided
 * as in the SM sums. */
typedef struct wmi_ctime_iv {
    double lat, pipe;
} wmi_ctime_iv;

/* What a warp's current group and interval have gathered. */
typedef struct wmi_cwarp {
    double chain;     /* cycles of closed groups this interval */
    int level;        /* the open group's slowest level, -1: none */
    double tlb;       /* the open group's largest TLB miss cycles */
    uint64_t bytes;   /* the open group's sector bytes */
    uint64_t miss;    /* of them, the bytes that missed L1 (miss slots) */
    unsigned groups;  /* closed groups this interval */
    uint64_t missed;  /* their bytes that missed L1 */
} wmi_cwarp;

typedef struct wmi_ctime {
    double *sm_lat, *sm_pipe; /* per SM, cycles */
    unsigned nsms;
    wmi_ctime_iv *iv;
    size_t niv, capiv;
    uint64_t groups, group_bytes; /* load groups and their sector bytes */
    uint64_t tlb_groups;          /* groups a TLB miss lengthened */
    double cap;                   /* miss-slot bytes per SM, 0: no limit */
    double ask_sum;               /* over CTA intervals: rounds x the
                                     L1-miss bytes a round asks of its SM */
    double ask_rounds;            /* the rounds of that sum */
    uint64_t capped_ivs;          /* CTA intervals the slots stretched */
    unsigned warps_cta;           /* most warps a CTA used */
    uint64_t ctas;                /* CTAs replayed */
    /* the wave being replayed */
    wmi_cwarp *w;   /* [cta * nw + warp] */
    unsigned nw;    /* warps per CTA of the wave, at most */
    double *cta_lat, *cta_pipe; /* per CTA: open interval's max chain, pipe */
    unsigned *cta_iv;
    unsigned *res; /* per SM: CTAs of the wave on it */
    size_t ncta;
} wmi_ctime;

int wmi_ctime_init(wmi_ctime *t, unsigned nsms);
void wmi_ctime_free(wmi_ctime *t);
/* Start a wave of ncta CTAs (CTA k on SM k mod nsms) of at most nw warps
 * each.  0 on OOM. */
int wmi_ctime_wave(wmi_ctime *t, size_t ncta, unsigned nw);
/* CTA k's interval becomes iv (its warps' open groups close). */
int wmi_ctime_interval(wmi_ctime *t, const wm_gpu *g, size_t k, unsigned iv);
/* A load of warp wp of CTA k served at level (0 L1, 1 L2, 2 DRAM) with
 * bytes sector bytes, miss of them missing L1, its TLB misses adding tlb
 * cycles; lead: it starts a group. */
void wmi_ctime_load(wmi_ctime *t, const wm_gpu *g, size_t k, unsigned wp,
                    int level, double tlb, uint64_t bytes, uint64_t miss,
                    int lead);
/* Pipe cycles of CTA k's open interval. */
void wmi_ctime_pipe(wmi_ctime *t, size_t k, double cycles);
/* g has the TLB figures the time term needs (entries and a miss
 * latency). */
int wmi_cache_has_tlb(const wm_gpu *g);
/* Load groups a TLB miss lengthened. */
uint64_t wmi_cache_tlb_groups(const wm_cache *c);
/* Warps per CTA the model saw (most of any CTA). */
unsigned wmi_cache_warps(const wm_cache *c);
/* CTAs resident per SM: the occupancy, or fewer for a small grid. */
unsigned wmi_cache_resident(const wm_cache *c);
/* Close every CTA of the wave.  0 on OOM. */
int wmi_ctime_wave_end(wmi_ctime *t, const wm_gpu *g);

#endif /* WM_CACHE_INT_H */
