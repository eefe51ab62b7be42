/*
 * ptx_check_int.h -- the run-time checker of the PTX interpreter
 * (`warpmem run --check`, docs/check.md): race and initialisation
 * tracking (ptx_check.c), warp schedules and their comparison
 * (ptx_check_sched.c), and the hazard reports (ptx_check_report.c).
 *
 * The interpreter calls the hooks below only when WMI_RUN_CHECK is in
 * c->flags: one predictable branch per memory instruction (fast or
 * careful path), barrier, mbarrier operation and bar.warp.sync, so a run
 * without checks executes the code it did before plus untaken branches.
 *
 * Happens-before is tracked with one vector clock per warp (the threads of
 * a warp share their warp's clock; lanes of one warp are told apart by
 * the lane in each record):
 *   - warp W's own clock vc[W][W] starts at 1 and grows at each barrier
 *     arrival and each bar.warp.sync;
 *   - arriving at barrier b joins W's clock into the barrier's; the
 *     release joins the barrier's clock into every warp that waited;
 *   - an mbarrier arrival (or complete_tx) joins W's clock into the
 *     mbarrier's, a successful wait joins the mbarrier's into W's (over
 *     all phases: a later phase's waiter also acquires earlier ones);
 *   - an access recorded as (warp A, clock t) is ordered before an access
 *     of warp B != A iff t <= vc[B][A]; before one of another lane of A
 *     iff t < vc[A][A] (a bar.warp.sync or barrier came between), or
 *     always when the target predates sm_70 (warps in lockstep);
 *   - lanes of one store instruction are unordered with each other: two
 *     that write different values to the same bytes are a warp-level
 *     write conflict (the same value is benign, as racecheck has it).
 *
 * Clusters of more than one CTA are one unit: warp W of rank r is warp
 * r x nwarps + W of the clocks, and each rank's shared memory has its own
 * words in the shadow, so distributed shared memory accesses between the
 * CTAs are checked like any shared access:
 *   - a bar barrier joins and releases only the clocks of its CTA's warps;
 *   - barrier.cluster.arrive (.release, the default) joins the warp's
 *     clock into the cluster barrier's clock of its phase (two, by
 *     parity), a passing barrier.cluster.wait (.acquire) joins that into
 *     the warp's; .relaxed releases only what came before the warp's last
 *     cluster-scope (or wider) fence.
 * A cooperative launch's grid is one unit too, its CTAs indexed like
 * ranks (but reported as CTAs of no cluster).  Inside a unit a strong
 * access to a flag word (global or shared) releases and acquires like a
 * barrier (ptx_check_flag.c): grid.sync()'s atomic add and polling load
 * order the CTAs of a cooperative grid, a flag orders two warps of a CTA.
 * Strong accesses (atomics, .volatile/.relaxed/.acquire/.release ones)
 * to global memory do not race with each other; to shared memory two
 * atomics do not, nor a flag protocol's accesses of different warps (a
 * read, or a write that releases); a warp's own volatile accesses (a
 * warp-synchronous reduction) still race.
 *
 * Between CTAs (global memory, ptx_check_grid.c): the CTAs (clusters) of a
 * checked launch run one after another, and only releases and acquires
 * through GPU-scope fences and strong accesses of a flag word order them;
 * each unit's global words are compared with the launch-wide shadow when
 * it ends.
 */
#ifndef WM_PTX_CHECK_INT_H
#define WM_PTX_CHECK_INT_H

#include "ptx_int.h"

/* What a memory instruction does to the bytes it touches. */
typedef enum { WMI_ACC_READ, WMI_ACC_WRITE, WMI_ACC_ATOMIC } wmi_acc_kind;

/* mod2 of an OP_NOP decoded from bar.warp.sync (ptx_decode.c). */
#define WMI_NOP_WARPSYNC 1

typedef struct wmi_check wmi_check;
struct wmi_out; /* out_int.h */

/*
 * A checker for one launch of a kernel of m with CTAs of block threads and
 * smem_bytes of shared memory in clusters of cdim CTAs (1,1,1: none; a
 * cooperative launch, coop: its grid, the one unit), buffers
 * gbufs[0..ngbufs) (arguments first, the module data last) and the
 * caller's options chk.  NULL when out of memory.  Tracks only when
 * chk->checks has RACE or INIT.
 */
wmi_check *wmi_check_new(const wm_ptx_module *m, const unsigned block[3],
                         const unsigned cdim[3], uint64_t smem_bytes,
                         const wmi_gbuf *gbufs, uint32_t ngbufs,
                         const wm_ptx_check *chk, int coop);

/* Whether the checker tracks accesses (the worker sets WMI_RUN_CHECK). */
int wmi_check_tracks(const wmi_check *k);

/* The warp order of the schedule (a permutation of 0..nwarps), or NULL
   for warps in order; lives as long as k. */
uint32_t *wmi_check_order(wmi_check *k);

/* Move the hazards found into out (replacing its results); WM_OK or
   WM_ERR_NOMEM. */
wm_status wmi_check_finish(wmi_check *k, wm_ptx_check *out);

void wmi_check_free(wmi_check *k);

/* Where the schedules' outputs differ first (c->differs, diff_arg >= 0),
   as a report names it: "argument 2", "surface 0", "variable total". */
void wmi_check_diff_where(const wm_ptx_check *c, char *buf, size_t n);

/* ---- hooks (c->chk is the checker) ------------------------------------ */

/* A CTA starts (after wmi_ptx_cta_begin): fresh clocks and shadow.  The
   CTAs of a cluster start in rank order, and the unit is the cluster: its
   rank 0 starts the clocks and shadow of all. */
void wmi_check_cta_begin(wmi_cta *c);

/* A round of the CTA's warp loop starts: the random schedule draws a new
   order into c->order. */
void wmi_check_round(wmi_cta *c);

/*
 * One memory instruction at pc of warp w: lanes in ms accessed shared
 * offsets addr[l], lanes in mg global (simulated) addresses addr[l], size
 * bytes each.
 */
void wmi_check_mem(wmi_cta *c, const wmi_warp *w, uint32_t pc,
                   wmi_acc_kind kind, unsigned size, const uint64_t *addr,
                   uint32_t ms, uint32_t mg);

/* The same for an ld/st (scalar or vector) that took the interpreter's
   fast path: the lanes in m accessed in->space at c->acc.addr[l]; a full
   warp's addresses step by `step` bytes from lane to lane (addr[l] =
   addr[0] + l step) unless it is WMI_STEP_NONE. */
#define WMI_STEP_NONE INT64_MIN
void wmi_check_fast(wmi_cta *c, const wmi_warp *w, const wmi_insn *in,
                    uint32_t pc, uint32_t m, int store, int64_t step);

/* Warp w arrives at barrier id (bar.sync, bar.arrive, barrier.sync). */
void wmi_check_arrive(wmi_cta *c, const wmi_warp *w, uint32_t id);

/* Barrier id is released: the warps waiting at it acquire its clock
   (called before their wait masks are cleared). */
void wmi_check_release(wmi_cta *c, uint32_t id);

/* bar.warp.sync by warp w. */
void wmi_check_syncwarp(wmi_cta *c, const wmi_warp *w);

/* An arrival of warp w (or a transaction completed on its behalf) on the
   mbarrier at shared offset addr releases w's clock into it; a wait of w
   that found its phase complete acquires it. */
void wmi_check_mbar_release(wmi_cta *c, const wmi_warp *w, uint64_t addr);
void wmi_check_mbar_acquire(wmi_cta *c, const wmi_warp *w, uint64_t addr);

/* A block copy of lane l of warp w (cp.async.bulk): size bytes at addr in
   space sp (SP_SHARED offset or SP_GLOBAL address), read or written. */
void wmi_check_block(wmi_cta *c, const wmi_warp *w, uint32_t pc, unsigned l,
                     wmi_space sp, uint64_t addr, uint64_t size, int write);

/* A fence of cluster scope or wider by warp w (fence.acq_rel.cluster,
   membar.gl, fence.sc.gpu ...; sync: its WMI_SYNC_* flags). */
void wmi_check_fence(wmi_cta *c, const wmi_warp *w, unsigned sync);

/* barrier.cluster.arrive of warp w for the phase it will wait for: a
   release of w's clock unless relaxed (then only what preceded a cluster
   fence of w); barrier.cluster.wait of w that found the phase complete:
   an acquire of the phase's arrivals. */
void wmi_check_cluster_arrive(wmi_cta *c, const wmi_warp *w, uint64_t phase,
                              int relaxed);
void wmi_check_cluster_wait(wmi_cta *c, const wmi_warp *w, uint64_t phase);

/* ---- races between CTAs (ptx_check_grid.c) ---------------------------- */

/* Argument buffers up to this size are tracked between CTAs (in chunks of
   32 words, allocated when first written; ptx_check_grid.c). */
#define WMI_GRID_MAX_BUF ((uint64_t)64 << 20)

/* An access of an earlier CTA in the launch-wide shadow. */
typedef struct wmi_xrec {
    uint32_t pc, cta;  /* instruction; CTA number (0: none) */
    uint16_t warp, rel; /* warp; the CTA's releases before the access */
    uint8_t lane, bits; /* lane; bytes of the word and strength flags */
    uint16_t pad;
} wmi_xrec;

typedef struct wmi_xword {
    wmi_xrec w, r; /* the last write, the last read */
} wmi_xword;

/* The same records of some words of a chunk: word i of mask has
   {pc, cta, warp, rel, lane0 + i, bits} (a warp's run of lanes), or with
   wstep {pc, cta, warp + i, rel, lane0, bits} (one lane of consecutive
   warps: a column store); the last read of each if read, else the last
   write. */
typedef struct wmi_xrun {
    uint32_t mask, pc, cta;
    uint16_t warp, rel;
    int8_t lane0;
    uint8_t bits;
    uint8_t read;
    uint8_t wstep;
} wmi_xrun;

#define WMI_XMORE 6 /* runs a chunk takes from the pool before it expands */

/*
 * The earlier CTAs' last write and last read of the 32 words of a chunk
 * (128 aligned bytes of an argument buffer): while they fit, two runs of
 * either (a warp's contiguous access is one run, whatever the words it
 * leaves to others), then WMI_XMORE more from the pool (a column that
 * several CTAs' warps wrote), else one wmi_xword per word (then the runs
 * are unused).  ext: 0; the wmi_xword[32]; or, bit 0 set, the more runs.
 */
typedef struct wmi_xchunk {
    wmi_xrun x[2];
    uintptr_t ext;
} wmi_xchunk;

/* c's records word by word, or NULL (runs). */
static inline const wmi_xword *wmi_xchunk_words(const wmi_xchunk *c)
{
    return c->ext & 1 ? NULL : (const wmi_xword *)c->ext;
}

/* How many runs c has room for (0: one record per word); run j. */
static inline unsigned wmi_xchunk_nruns(const wmi_xchunk *c)
{
    return !c->ext ? 2 : c->ext & 1 ? 2 + WMI_XMORE : 0;
}

static inline const wmi_xrun *wmi_xchunk_run(const wmi_xchunk *c, unsigned j)
{
    return j < 2 ? &c->x[j] : (const wmi_xrun *)(c->ext - 1) + (j - 2);
}

/* Where the chunks of a launch take their word records from when they
   expand (ptx_check_xchunk.c): blocks of 32 KiB growing to 2 MiB (on huge
   pages), given out 32 records at a time and freed together. */
typedef struct wmi_xpool {
    void *head;        /* the newest block, which links the one before */
    size_t used, size; /* its bytes given out; its size */
} wmi_xpool;

void wmi_xpool_free(wmi_xpool *p);

typedef struct wmi_grid wmi_grid;

/* The launch-wide state over nbufs argument buffers; NULL if no memory. */
wmi_grid *wmi_grid_new(const wmi_gbuf *gbufs, uint32_t nbufs);
void wmi_grid_free(wmi_grid *g);
int wmi_grid_oom(const wmi_grid *g);

/* CTA number seq (from 1, blockIdx ctaid) starts: no release or acquire
   yet. */
void wmi_grid_cta_begin(wmi_grid *g, uint32_t seq, const unsigned ctaid[3]);
void wmi_grid_ctaid(const wmi_grid *g, uint32_t seq, unsigned out[3]);

/* The current CTA's release and completed-acquire counts (the stamps of
   its accesses). */
uint16_t wmi_grid_rel(const wmi_grid *g);
uint16_t wmi_grid_acq(const wmi_grid *g);

/* A release of the current CTA (a .release store or atomic); a fence is
   one, and completes the acquires of earlier .volatile/.relaxed reads. */
void wmi_grid_release(wmi_grid *g);
void wmi_grid_fence(wmi_grid *g);

/* A strong access (sync: WMI_SYNC_*) of the global word at word address
   wa that reads and/or writes it: acquires what it reads, publishes the
   current CTA's releases into what it writes. */
void wmi_grid_strong(wmi_grid *g, uint64_t wa, unsigned sync, int reads,
                     int writes);

/* Is an access of CTA a stamped rel ordered before an access of the
   current CTA stamped acq? */
int wmi_grid_ordered(const wmi_grid *g, uint32_t a, uint16_t rel,
                     uint16_t acq);

/* The launch-wide chunk at byte off (a multiple of 128) of argument buffer
   buf, allocated when make, with the words that lie in the buffer in
   *valid; NULL when the buffer is not tracked, off is past its end, or
   (make 0) nothing was recorded in the chunk's part of the buffer. */
wmi_xchunk *wmi_grid_chunk(wmi_grid *g, uint32_t buf, uint64_t off, int make,
                           uint32_t *valid);

/* The pool the launch's chunks expand into. */
wmi_xpool *wmi_grid_pool(wmi_grid *g);

/* Whether chunk c holds any write; any read. */
int wmi_xchunk_writes(const wmi_xchunk *c);
int wmi_xchunk_reads(const wmi_xchunk *c);

/* Word i's record in run x. */
static inline wmi_xrec wmi_xrun_rec(const wmi_xrun *x, unsigned i)
{
    wmi_xrec r = {x->pc, x->cta, (uint16_t)(x->warp + (x->wstep ? i : 0)),
                  x->rel, (uint8_t)(x->lane0 + (x->wstep ? 0 : (int)i)),
                  x->bits, 0};
    return r;
}

/* The last read (read) or write of word i of chunk c; cta 0: none. */
static inline wmi_xrec wmi_xchunk_get(const wmi_xchunk *c, int read,
                                      unsigned i)
{
    const wmi_xword *w = wmi_xchunk_words(c);
    if (w)
        return read ? w[i].r : w[i].w;
    for (unsigned j = 0, n = wmi_xchunk_nruns(c); j < n; j++) {
        const wmi_xrun *x = wmi_xchunk_run(c, j);
        if ((x->mask >> i & 1) && x->read == read)
            return wmi_xrun_rec(x, i);
    }
    wmi_xrec none = {0, 0, 0, 0, 0, 0, 0};
    return none;
}

/* Replace the records of words wm of chunk c by w[i] (writes) and those of
   rm by r[i] (reads), expanding c into pool p where its runs cannot hold
   them; 0 when out of memory. */
int wmi_xchunk_put(wmi_xchunk *c, wmi_xpool *p, uint32_t wm,
                   const wmi_xrec *w, uint32_t rm, const wmi_xrec *r);

/* The same for the words of run r: each gets r's record (a read's, or a
   write's); 0 when out of memory. */
int wmi_xchunk_put_run(wmi_xchunk *c, wmi_xpool *p, const wmi_xrun *r);

/* ---- schedules (ptx_check_sched.c) ------------------------------------ */

/*
 * wm_ptx_run with WM_CHECK_SCHEDULES: run l as given (statistics, hazards),
 * then again without statistics under the other schedule from the same
 * inputs, compare the argument buffers and leave the first run's outputs
 * in them.  flags: WMI_RUN_*.
 */
wm_status wmi_check_schedules(const wm_ptx_module *m, size_t k,
                              const wm_ptx_launch *l, wm_agg *agg,
                              wm_ptx_result *res, wm_ptx_fault *fault,
                              unsigned flags);

/*
 * After the first run of a schedule comparison with WM_CHECK_PROVE (and
 * race tracking): 1 when that run proves another schedule's outputs equal
 * (no race found, nothing the proof does not cover; ptx_check_prove.c),
 * so the second run can be left out.
 */
int wmi_check_proves_order(const wm_ptx_module *m, size_t k,
                           const wm_ptx_launch *l);

/* ---- reports (ptx_check_report.c) ------------------------------------- */

/* Findings the HTML report's Checks section shows at most. */
#define WMI_HTML_FINDINGS 64

/* c's hazards and schedule difference as HTML findings into *out (and
   their texts into *texts; free both); their count, 0 (both NULL) for
   none or when memory ran out. */
size_t wmi_check_findings(const wm_ptx_module *m, const wm_ptx_check *c,
                          wm_html_finding **out, char **texts);

/* Where hazard h is, as the text report says it ("shared sdata[4]
   (offset 16)", "global buffer 1 [0] (byte 0)"), into buf. */
void wmi_check_where(const wm_ptx_module *m, const wm_ptx_hazard *h,
                     char *buf, size_t n);

/* The "hazards", "hazards_dropped" and "schedules" members of the run's
   document (out_int.h): the hazards and the schedule comparison of chk. */
void wmi_check_emit(struct wmi_out *out, const wm_ptx_module *m,
                    const wm_ptx_check *chk);

/* The declared dimensions of an array variable (ptx_dwarf.c). */
#define WMI_MAX_DIMS 4
typedef struct wmi_dims {
    unsigned ndims;
    uint32_t dim[WMI_MAX_DIMS]; /* outermost first, as in C */
    unsigned elem;              /* bytes of one element */
} wmi_dims;

/* The dimensions of the variable named var (its PTX name) from the
   DWARF sections of a -G build's PTX src[0..n) (NUL-terminated); 1, or 0
   when there are none or they cannot be read. */
int wmi_dwarf_dims(const char *src, size_t n, const char *var,
                   wmi_dims *out);

#endif /* WM_PTX_CHECK_INT_H */
