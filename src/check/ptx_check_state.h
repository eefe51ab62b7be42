/*
 * ptx_check_state.h -- the race and initialisation tracker's own state,
 * shared by its files: ptx_check.c (clocks, hooks, the per-lane loops,
 * hazards) and ptx_check_gwords.c (the unit's global words and their fold
 * into the launch-wide shadow).  ptx_check_int.h is the face the
 * interpreter sees; this header is not for it.
 */
#ifndef WM_PTX_CHECK_STATE_H
#define WM_PTX_CHECK_STATE_H

#include "ptx_check_int.h"

#include <stddef.h>
#include <string.h>

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

/* (the layout rec_lo, rec_hi and rec_put, and rec_is in
   ptx_check_gwords.c, take as two words) */
_Static_assert(sizeof(rec) == 16 && offsetof(rec, clock) == 4 &&
                   offsetof(rec, warp) == 8 && offsetof(rec, lane) == 10 &&
                   offsetof(rec, bits) == 11 && offsetof(rec, rel) == 12 &&
                   offsetof(rec, acq) == 14,
               "rec: pc and clock, then warp, lane, bits, rel, acq");

/* A record as two 8-byte words (lo: pc, clock; hi: warp, lane, bits,
   rel, acq), so that a loop can make one per lane from words kept in
   registers and store it in two stores instead of one per field. */
static inline uint64_t rec_lo(const rec *r)
{
    return (uint64_t)r->pc | (uint64_t)r->clock << 32;
}

static inline uint64_t rec_hi(const rec *r, unsigned lane, unsigned bits)
{
    return (uint64_t)r->warp | (uint64_t)(uint8_t)lane << 16 |
           (uint64_t)(uint8_t)bits << 24 | (uint64_t)r->rel << 32 |
           (uint64_t)r->acq << 48;
}

static inline void rec_put(rec *d, uint64_t lo, uint64_t hi)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(d, &lo, 8);
    memcpy((char *)d + 8, &hi, 8);
#else
    d->pc = (uint32_t)lo;
    d->clock = (uint32_t)(lo >> 32);
    d->warp = (uint16_t)hi;
    d->lane = (uint8_t)(hi >> 16);
    d->bits = (uint8_t)(hi >> 24);
    d->rel = (uint16_t)(hi >> 32);
    d->acq = (uint16_t)(hi >> 48);
#endif
}

/* a == b, field by field: a record just built field by field on the
   stack and compared with memcmp is read back wider than it was written,
   which stalls the load until the stores retire. */
static inline int rec_same(const rec *a, const rec *b)
{
    return a->pc == b->pc && a->clock == b->clock && a->warp == b->warp &&
           a->lane == b->lane && a->bits == b->bits && a->rel == b->rel &&
           a->acq == b->acq;
}

#define REC_ATOMIC 0x10u
#define REC_STRONG 0x20u /* a strong access: not a data race with another
                            strong one (between CTAs: unless REC_CTA) */
#define REC_CTA 0x40u    /* strong at CTA scope only (ld/st/atom/red
                            .cta) */
#define REC_FLAG 0x80u   /* a strong shared access of a flag protocol: a
                            read, or a write that releases (after the
                            warp's fence, or .release) */
#define REC_SEEN 0x80u   /* global (the same bit): a plain access after
                            its thread's device-scope atomic on the word,
                            which observed the earlier CTAs' last write
                            (the PTX memory model's observation order puts
                            that write before it; a generic access whose
                            lanes mix shared and global memory may carry
                            REC_FLAG here too: a race missed) */
#define REC_BYTES 0x0fu

typedef struct wmi_word {
    uint32_t cta;  /* CTA sequence number of the records */
    uint32_t init; /* shared: bytes written in this CTA */
    rec w, r[2];
    uint32_t pad[2]; /* to 64 bytes: the shared words' entries, aligned,
                        each fill one cache line (a column's lanes touch
                        one line each instead of two for six in eight) */
} wmi_word;
_Static_assert(sizeof(wmi_word) == 64, "a shared word's entry, one line");

/* The unit's words of one chunk of 32 global words (128 aligned bytes).
   A run of lanes that touched words the unit had not touched yet gives
   each the same record but for the lane, which grows with the word: run j
   names those words and tpl[j] is that record (its lane field holding the
   lane of word 0, as an int8_t), and they get no entry until a later
   access touches them again (wmi_gwords_open).  A column store's lane,
   one word a warp, gives consecutive words the same record but for the
   warp: with wstep[j], tpl[j] holds the lane and the warp of word 0. */
typedef struct gchunk {
    uint64_t key;     /* simulated address / 128 + 1 */
    uint32_t cta;     /* the unit whose words these are (older: none) */
    uint32_t live;    /* words the unit touched */
    uint32_t ent;     /* those with an entry: idx[i] in ge[] */
    uint32_t run[2];  /* those named by run j (live = ent | run[0] |
                         run[1], all three apart) */
    rec tpl[2];
    uint8_t read[2];  /* run j's record is a read (else a write) */
    uint8_t wstep[2]; /* run j steps the warp (else the lane) */
    uint32_t idx[32];
} gchunk;

/* A run of shared words of a chunk: word i of mask holds record tpl with
   lane tpl.lane + i (tpl.lane an int8_t). */
typedef struct srun {
    uint32_t mask;
    rec tpl;
} srun;

/* The unit's shared words of one chunk of 32 (ptx_check_shrun.c): a run
   of lanes of a 4-byte access on consecutive words can leave each slot
   (last write, two reads) of them the same but for the lane; the chunk
   then describes those words by runs (named: their sh[] entry carries
   the unit's number with SH_NAMED) instead of their entries, until an
   access touches one lane by lane (wmi_shword opens it into its entry). */
typedef struct schunk {
    uint32_t cta;    /* the unit of the fields below (older: all empty) */
    uint32_t named;  /* words described by the runs */
    uint32_t init4;  /* named words whose 4 bytes were written */
    uint32_t opened; /* words whose sh[] entry belongs to the unit */
    srun s[3][2];    /* slot (0: last write, 1 and 2: the reads) x run */
} schunk;

#define SH_NAMED 0x80000000u

/* A flag word of the unit and its clock (nw), ptx_check_flag.c. */
typedef struct wmi_flag {
    uint64_t key; /* word address + 1; 0 empty */
    uint32_t *clock;
} wmi_flag;

/* Words first touched by the unit: wa, wa + step, ..., wa + (n - 1) step
   in turn (step 1: a run of lanes; a column store's lanes step further). */
typedef struct gtouch {
    uint64_t wa;
    uint32_t n;
    int32_t step;
} gtouch;

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
    int coop;           /* the unit is a cooperative launch's grid (its
                           CTAs are no cluster: no ranks reported) */
    unsigned (*ctaid)[3]; /* ncl: blockIdx of each CTA of the unit */
    uint32_t *vc;       /* nw x nw */
    uint32_t *bar;      /* 16 x ncl x nw: clocks joined at each barrier */
    uint32_t *mbar;     /* MAX_MBARS x nw: clocks of mbarriers ... */
    uint64_t mbar_at[MAX_MBARS]; /* ... at these shared addresses + 1 */
    uint32_t *cbar;     /* 2 x nw: barrier.cluster clocks by phase parity */
    uint32_t *cfence;   /* nw: 1 + the warp's own clock before its last
                           cluster-scope fence (0: none) */
    wmi_word *sh;       /* shared shadow, ncl x csh words */
    uint64_t nsh;
    schunk *shc;        /* its chunks of 32 words (ptx_check_shrun.c) */
    uint8_t *shlanes;   /* per instruction: 1 when a word its run named
                           was opened (the per-lane loop serves it better) */
    uint32_t *sh_seen;  /* per shared word: SEEN_* state of the last read
                           instruction that touched it (shared_reads) */
    uint32_t stamp;     /* that instruction's number */
    /* flag words (ptx_check_flag.c) */
    wmi_flag *fl;       /* their table */
    uint32_t nfl;       /* words in it */
    uint32_t **flpend;  /* nw: per warp, the clocks its relaxed loads of
                           flags saw (NULL: none yet), acquired at its
                           next fence */
    uint32_t ngbufs;
    /* the unit's global words (ptx_check_gwords.c) */
    gchunk *gc;         /* their chunks (open addressing, power-of-two cap) */
    uint32_t gccap;
    uint32_t *gcl, gcn; /* the slots of the unit's chunks, and how many */
    gchunk *glast;      /* the chunk of the last lookup, or NULL */
    gchunk *glane[32];  /* per lane, the chunk of its last run, or NULL (a
                           column's lane meets it again in the next warp) */
    wmi_word *ge;       /* the words' entries */
    uint32_t gen, gecap;
    gtouch *gt;         /* the order the words were first touched */
    uint32_t gtn, gtcap, gwords; /* (gwords: the words in it) */
    uint32_t gsim;      /* the capacity of the per-word table whose slot
                           order the fold's reports follow */
    wmi_word gnone;     /* the record of a global word when only init is
                           checked (written, never read) */
    int slow;           /* WMI_RUN_SLOW: the plain per-lane loop only */
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

/* dst = max(dst, src) over n clocks (a vector clock's join). */
static inline void wmi_clock_join(uint32_t *dst, const uint32_t *src,
                                  uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        dst[i] = dst[i] > src[i] ? dst[i] : src[i];
}

/* ---- hazards (ptx_check.c) -------------------------------------------- */

/* The access being checked.  The fields a lane changes come last: a
   record is built from the others with wide loads, which would stall on
   a just-stored neighbour (store-to-load forwarding fails). */
typedef struct cur {
    uint32_t pc, warp, clock;
    wmi_acc_kind kind;
    unsigned size;
    uint16_t rel, acq; /* stamps between CTAs */
    uint8_t strong;    /* REC_STRONG (REC_CTA, REC_FLAG) or 0 */
    const uint32_t *vc; /* the warp's row of clocks (vc[warp * nw]) */
    const wmi_cta *c;  /* for the stored values (write conflicts) */
    const wmi_warp *w;
    const uint64_t *lane_addr; /* every lane's address */
    int64_t step; /* lane_addr[l] = lane_addr[0] + l step for all 32
                     lanes, or WMI_STEP_NONE (not known) */
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

/* The argument buffer of global address a (-1: module data or none), its
   index in *bi (UINT32_MAX for none). */
static inline long wmi_check_gbuf(const wmi_check *k, uint64_t a,
                                  uint32_t *bi)
{
    uint64_t i = a >> WMI_WIN_SHIFT;
    *bi = UINT32_MAX;
    if (i == WMI_MAX_GLOBAL_BUFS || i < 1 || i >= k->ngbufs)
        return -1;
    *bi = (uint32_t)i - 1;
    return (long)i - 1;
}

/* ---- orders that hold for a whole warp ---------------------------------- */

/* Can write record w conflict with no lane of the access (pc, warp,
   clock; vc: the warp's row of clocks), whatever the lane and its bytes?
   (conflict() of a read is then 0 for each: no write, or one ordered
   before the whole warp, or one of the same instance.)  Scalars, not a
   cur: the hot loop keeps them in registers. */
static inline int write_clean(const rec *w, uint32_t pc, uint32_t warp,
                              uint32_t clock, const uint32_t *vc,
                              int intra)
{
    if (!(w->bits & REC_BYTES))
        return 1;
    if (w->warp != warp)
        return w->clock <= vc[w->warp];
    return w->clock < clock || !intra || (w->pc == pc && w->clock == clock);
}

/* Is record r (empty, or another instance's access) ordered before
   every lane of the access (pc, warp, clock; vc its warp's clocks)?
   Then conflict() and write_conflict() are 0 for every lane and mask. */
static inline int rec_before(const rec *r, uint32_t pc, uint32_t warp,
                             uint32_t clock, const uint32_t *vc, int intra)
{
    if (!(r->bits & REC_BYTES))
        return 1;
    if (r->warp != warp)
        return r->clock <= vc[r->warp];
    if (r->pc == pc && r->clock == clock)
        return 0; /* this instance: another lane of the store */
    return r->clock < clock || !intra;
}

/* ---- the unit's shared words by run (ptx_check_shrun.c) ---------------- */

/* Word wd, named by a run until now: its entry made from the runs. */
void wmi_shrun_open(wmi_check *k, uint64_t wd);

/* Chunk c made the unit's: no run, nothing opened (when it is older). */
static inline void wmi_shrun_chunk(const wmi_check *k, schunk *c)
{
    if (c->cta != k->cta) {
        memset(c, 0, sizeof *c);
        c->cta = k->cta;
    }
}

/* Shared word wd's entry e, an older unit's, made the unit's and empty
   (the per-lane loop keeps it from now on: opened). */
HOT void wmi_shword_claim(wmi_check *k, wmi_word *e, uint64_t wd)
{
    schunk *c = &k->shc[wd >> 5];
    memset(e, 0, sizeof *e);
    e->cta = k->cta;
    wmi_shrun_chunk(k, c);
    c->opened |= 1u << (wd & 31);
}

/* The unit's entry of shared word wd (< nsh): made from the runs that
   name it, else, when an older unit's, emptied (wmi_shword_claim). */
HOT wmi_word *wmi_shword(wmi_check *k, uint64_t wd)
{
    wmi_word *e = &k->sh[wd];
    if (e->cta != k->cta) {
        if (e->cta == (k->cta | SH_NAMED))
            wmi_shrun_open(k, wd);
        else
            wmi_shword_claim(k, e, wd);
    }
    return e;
}

/* Lanes l .. l + n - 1 of access x (a 4-byte read or write of shared
   memory, races checked) touch the words w0, w0 + 1, ..., all in one
   chunk: when no lane can report and the runs of the chunk can hold what
   the lanes leave, record it there and return 1 (each word as the
   per-lane loop would record it); else do nothing and return 0. */
int wmi_shrun(wmi_check *k, const cur *x, uint64_t w0, unsigned l,
              unsigned n);

/* Of the words w0 .. w0 + n - 1 of one chunk, those (bit j: word w0 + j)
   whose entries the per-lane loop keeps: wmi_shrun leaves them alone. */
uint32_t wmi_shrun_opened(wmi_check *k, uint64_t w0, unsigned n);

/* ---- the unit's global words (ptx_check_gwords.c) ---------------------- */

/* Allocate k's tables of global words (k->checks set); 0 when out of
   memory.  Freed by wmi_gwords_free. */
int wmi_gwords_new(wmi_check *k);
void wmi_gwords_free(wmi_check *k);

/* A new unit (k->cta already its number): no global word yet. */
void wmi_gwords_begin(wmi_check *k);

/* The unit's chunk of key (simulated address / 128 + 1), made when absent;
   NULL when out of memory. */
gchunk *wmi_gwords_chunk(wmi_check *k, uint64_t key);

/* A new entry for word wa (simulated address / 4) of chunk c, which the
   unit has not touched; NULL when out of memory. */
wmi_word *wmi_gwords_add(wmi_check *k, gchunk *c, uint64_t wa);

/* The entry of word wa of chunk c, named by a run until now (made from
   the run's record); NULL when out of memory. */
wmi_word *wmi_gwords_open(wmi_check *k, gchunk *c, uint64_t wa);

/* The unit's record of the global word at simulated address wa * 4 (made
   when absent); NULL when out of memory. */
HOT wmi_word *wmi_gword(wmi_check *k, uint64_t wa)
{
    gchunk *c = k->glast;
    uint64_t key = (wa >> 5) + 1;
    if (!c || c->key != key) {
        if (!(c = wmi_gwords_chunk(k, key)))
            return NULL;
        k->glast = c;
    }
    unsigned i = (unsigned)(wa & 31);
    if (c->ent >> i & 1)
        return &k->ge[c->idx[i]];
    if (c->live >> i & 1)
        return wmi_gwords_open(k, c, wa);
    return wmi_gwords_add(k, c, wa);
}

/* Lanes l .. l + n - 1 of access x (of kind, races checked, 4 aligned
   bytes each) touch the words wa, wa + 1, ..., all in one chunk: when the
   unit has none of them yet (and no init check reads their buffer), give
   each the record mem_words_k would and return 1 (no lane can report:
   the words hold no record); else do nothing and return 0. */
int wmi_gwords_run(wmi_check *k, const cur *x, wmi_acc_kind kind,
                   uint64_t wa, unsigned l, unsigned n);

/* wmi_gwords_run for each lane of lanes alone, in lane order (a column
   store's, a gather's lanes: one word each), up to the first it cannot
   record; the lanes it recorded. */
uint32_t wmi_gwords_lanes(wmi_check *k, const cur *x, wmi_acc_kind kind,
                          const uint64_t *addr, uint32_t lanes);

/* Fold the ending unit's global words into the launch-wide shadow,
   checking each against the earlier units' last write and read (races
   between CTAs; only with k->grid). */
void wmi_gwords_fold(wmi_check *k);

/* ---- flag words inside the unit (ptx_check_flag.c) --------------------- */

/* The table of flag words; 0 when out of memory.  Freed by
   wmi_flags_free. */
int wmi_flags_new(wmi_check *k);
void wmi_flags_free(wmi_check *k);

/* A new unit: no flag word has a clock, no acquire is pending. */
void wmi_flags_begin(wmi_check *k);

/* A strong access (sync: WMI_SYNC_*) of warp g (of the clocks) to word
   wa (global, or WMI_FLAG_SHARED | a shared word) that reads and/or
   writes it: the acquire and release it makes (after its record: the
   flag's own accesses do not race, both strong). */
#define WMI_FLAG_SHARED (1ull << 62)
void wmi_flag_access(wmi_check *k, uint32_t g, uint64_t wa, unsigned sync,
                     int reads, int writes);

/* A fence of warp g: its pending acquires complete. */
void wmi_flags_fence(wmi_check *k, uint32_t g);

#endif /* WM_PTX_CHECK_STATE_H */
