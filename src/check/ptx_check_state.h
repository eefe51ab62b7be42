/*
 * ptx_check_state.h -- the race and initialisation tracker's own state,
 * shared by its files: ptx_check.c (clocks, hooks, the per-lane loops,
 * the global words and their fold into the launch-wide shadow) and
 * ptx_check_hazard.c (the hazards found).  ptx_check_int.h is the face the
 * interpreter sees; this header is not for it.
 */
#ifndef WM_PTX_CHECK_STATE_H
#define WM_PTX_CHECK_STATE_H

#include "ptx_check_int.h"

#define MAX_HAZARDS 4096u
#define MAX_MBARS 64u /* mbarriers with clocks; more are not ordered */

/* The per-lane helpers of the hot loop (mem_words) */
#ifdef __GNUC__
#define HOT static inline __attribute__((always_inline))
#else
#define HOT static inline
#endif

/* One access in the shadow. */
typedef struct rec {
    uint32_t pc, clock;
    uint16_t warp;
    uint8_t lane;
    uint8_t bits; /* bytes of the word (low 4 bits), REC_ATOMIC, REC_STRONG */
    uint16_t rel, acq; /* the CTA's releases and acquires before it
                          (global words; ptx_check_grid.c) */
} rec;

#define REC_ATOMIC 0x10u
#define REC_STRONG 0x20u /* a strong (GPU-scope) access: not a data race
                            with another strong one between CTAs */
#define REC_BYTES 0x0fu

typedef struct wmi_word {
    uint32_t cta;  /* CTA sequence number of the records */
    uint32_t init; /* shared: bytes written in this CTA */
    rec w, r[2];
} wmi_word;

/* A global word of the unit: key = simulated address / 4 + 1. */
typedef struct gent {
    uint64_t key;
    wmi_word w;
} gent;


#define GT_START 1024u

struct wmi_check {
    const wm_ptx_module *m;
    unsigned checks;
    int intra;          /* lanes of a warp are unordered (sm_70+) */
    uint32_t nwarps, block[3]; /* warps of one CTA; its shape */
    /* A cluster of ncl CTAs (1: none) is tracked as one unit: warp W of
       the CTA of rank r is warp r x nwarps + W of the clocks, its shared
       memory words r x csh .. of the shadow (docs/check.md, clusters). */
    uint32_t ncl, nw;   /* CTAs per cluster; warps of the clocks */
    unsigned cdim[3];   /* the cluster shape */
    uint64_t csh;       /* shared words of one CTA */
    uint32_t cta;       /* current unit's sequence number (from 1) */
    unsigned ctaid[WMI_MAX_CLUSTER][3]; /* blockIdx of each rank */
    uint32_t *vc;       /* nw x nw */
    uint32_t *bar;      /* 16 x ncl x nw: clocks joined at each barrier */
    uint32_t *mbar;     /* MAX_MBARS x nw: clocks of mbarriers ... */
    uint64_t mbar_at[MAX_MBARS]; /* ... at these shared addresses + 1 */
    uint32_t *cbar;     /* 2 x nw: barrier.cluster clocks by phase parity */
    uint32_t *cfence;   /* nw: 1 + the warp's own clock before its last
                           cluster-scope fence (0: none) */
    wmi_word *sh;       /* shared shadow, ncl x csh words */
    uint64_t nsh;
    uint32_t *sh_seen;  /* per shared word: SEEN_* state of the last read
                           instruction that touched it (shared_reads) */
    uint32_t stamp;     /* that instruction's number */
    uint32_t ngbufs;
    gent *gt;           /* global words of this CTA (power-of-two cap) */
    uint32_t gcap, gcount;
    uint64_t *glive;    /* gcap bits: the slots this CTA filled */
    uint8_t **gwritten; /* per uninit buffer: written bits, else NULL */
    const wmi_gbuf *gbufs;
    /* hazards, with an open-addressing index on (kind, pc1, pc2) */
    wm_ptx_hazard *hz;
    size_t nhz;
    uint32_t *hidx; /* 1 + index, 0 empty; 2 * MAX_HAZARDS slots */
    uint64_t dropped;
    int oom;
    wmi_grid *grid; /* races between CTAs (race checks only), or NULL */
    /* schedule */
    wm_ptx_schedule sched;
    uint64_t rng;
    uint32_t *order;
};

/* ---- hazards (ptx_check_hazard.c) ------------------------------------- */

/* The access being checked.  The fields a lane changes come last: a
   record is built from the others with wide loads, which would stall on
   a just-stored neighbour (store-to-load forwarding fails). */
typedef struct cur {
    uint32_t pc, warp, clock;
    wmi_acc_kind kind;
    unsigned size;
    uint16_t rel, acq; /* stamps between CTAs */
    uint8_t strong;    /* REC_STRONG or 0 */
    const uint32_t *vc; /* the warp's row of clocks (vc[warp * nw]) */
    const wmi_cta *c;  /* for the stored values (write conflicts) */
    const wmi_warp *w;
    const uint64_t *lane_addr; /* every lane's address */
    /* per lane */
    uint32_t lane;
    int space;  /* WM_SPACE_* */
    long buf;
    uint64_t addr; /* in its space or buffer */
} cur;

/* Count one occurrence of kind between prior (NULL: none) and x; prior
   was made by the unit whose rank 0 has blockIdx first_cta (NULL: this
   one). */
void wmi_check_hazard(wmi_check *k, wm_hazard_kind kind, const rec *prior,
                      int prior_write, const cur *x,
                      const unsigned *first_cta);

#endif /* WM_PTX_CHECK_STATE_H */
