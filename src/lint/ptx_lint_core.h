/*
 * ptx_lint_core.h -- the state `warpmem lint`'s analysis shares between
 * its parts: the abstract states and transfer function
 * (ptx_lint_step.c), basic blocks and loop sweeps (ptx_lint_flow.c),
 * evaluation of the recorded forms for a block (ptx_lint_eval.c) and the
 * set-up and API (ptx_lint.c, whose head describes the two passes).
 */
#ifndef WM_PTX_LINT_CORE_H
#define WM_PTX_LINT_CORE_H

#include "wm_int.h"

#include "affine.h"
#include "ptx_int.h"
#include "ptx_lint_int.h"

#define MAXPATH   8
#define MAXSWEEPS 10
#define NOCOND    (-1)

/* A comparison l CMP r (hash-consed; a reference is 2 * index + negated). */
typedef struct cond {
    uint8_t cmp, bits, sgn;
    wmi_aff l, r;
} cond;

/* The abstract state at a program point. */
typedef struct bstate {
    wmi_aff *r; /* nslots values */
    int32_t *p; /* nslots condition references (predicates), NOCOND */
    int32_t path[MAXPATH];
    unsigned npath;
    int assumed; /* a branch on an unknown condition led here */
    int reached;
} bstate;

typedef struct block {
    uint32_t start, end; /* instruction indices [start, end) */
    int loop;            /* loop id when this block is a loop header, or -1 */
    uint32_t loop_end;   /* header: end of the last block branching back */
    uint64_t inloops;    /* loops whose range holds this block */
} bblock;

/* One counted access of a memory instruction. */
typedef struct memrec {
    uint32_t pc;
    wmi_space isp; /* the instruction's space (generic resolved later) */
    wm_op op;
    unsigned size;
    int cpasync_shared; /* cp.async: the shared (destination) side */
    unsigned lanes;     /* lanes that take part: 32; ldmatrix: 8 per matrix */
    unsigned nreq;      /* wmma load/store: its warp requests (else 0) */
    wmi_aff ld;         /* wmma: the stride in elements */
    const char *unsupported; /* reason, or NULL */
    wmi_aff addr;
    int32_t guard; /* condition reference, NOCOND */
    int guard_unknown;
    int32_t path[MAXPATH];
    unsigned npath;
    int assumed;
    int reached;
    uint64_t loops; /* loops around the instruction */
    int64_t sass_off; /* SASS level: the SASS access's start less the PTX
                         address (a lead's shift, a split's first part) */
} memrec;

typedef struct lint {
    const wm_ptx_module *m;
    const wmi_func *f;
    wmi_actx ax;
    cond *conds;
    size_t nconds, capconds;
    bblock *blocks;
    size_t nblocks;
    uint32_t *block_at; /* instruction offset -> block index + 1 (leaders) */
    uint8_t *iscst;     /* slot is a constant slot */
    int64_t *cval;      /* its value */
    bstate *in;         /* per block */
    bstate *back_prev, *back_cur; /* per block (headers only allocated) */
    wmi_aff **hprev;   /* per header: its state on the previous sweep */
    uint8_t **written; /* per header: slots the loop writes */
    int nloops;
    /* per loop: the condition of its back edge (NOCOND: none or unknown)
       and its iteration variable */
    int32_t loopcond[64];
    uint32_t loopiter[64];
    uint8_t loopback[64]; /* back edges seen this sweep */
    memrec *recs;
    size_t nrecs;
    const wm_sass_plan *sass; /* SASS level: widths of the compiled code */
    uint32_t *rec_at; /* instruction offset -> record index + 1 */
    bstate work;
    uint64_t cur_loops; /* inloops of the block being swept */
    int changed;
    int oom;
    int too_big; /* the states would pass WM_LIMIT_LINT_BYTES */
} lint;

/* ---- pass 2's context ---------------------------------------------------- */

typedef struct evalctx {
    lint *L;
    unsigned block[3], grid[3];
    unsigned tid[3], lane;
    int64_t ctaid[3];
    int64_t *param;   /* per parameter */
    uint32_t over[3]; /* variables whose values are overridden, or NOREG;
                         [2] is the loop check's own */
    int64_t over_val[3];
} evalctx;

/* Symbols reached from some forms: seen[v] for each, and the list of
   them, so that clearing and visiting them costs what was marked, not
   every symbol of the kernel. */
typedef struct marks {
    uint8_t *seen; /* one per symbol */
    uint32_t *ids; /* the marked ones, in marking order */
    size_t n;
} marks;

typedef struct evalbuf {
    wmi_aenv env;
    evalctx ec;
    marks mk;
} evalbuf;

/* ---- states and the transfer function (ptx_lint_step.c) ------------------ */

/* A block's state: allocated for nslots slots (0 on OOM), freed, copied;
   joined into d from s at instruction `at` (a value that differs becomes
   a join symbol). */
int wmi_lint_state_alloc(bstate *s, uint32_t nslots);
void wmi_lint_state_free(bstate *s);
void wmi_lint_state_copy(bstate *d, const bstate *s, uint32_t nslots);
void wmi_lint_state_join(wmi_actx *x, bstate *d, const bstate *s,
                         uint32_t nslots, uint32_t at);
/* The loops a condition's forms depend on; a condition added to a path. */
uint64_t wmi_lint_cond_loops(const lint *L, int32_t ref);
void wmi_lint_path_add(bstate *s, int32_t ref);
/* A register slot the analysis tracks (not a vector, a special register
   or a constant); the condition reference a slot holds, NOCOND if none. */
int wmi_lint_plain_slot(const lint *L, uint32_t s);
int32_t wmi_lint_rdp(const lint *L, const bstate *s, uint32_t slot);
/* A register never written on the way (it joins as the identity). */
int wmi_lint_undefined(const wmi_aff *a);
/* Bytes of an element of type t. */
unsigned wmi_lint_type_bytes(wmi_type t);
/* The transfer function: state s after instruction pc. */
void wmi_lint_step(lint *L, bstate *s, uint32_t pc);

/* ---- control flow (ptx_lint_flow.c) -------------------------------------- */

/* Splits the function into basic blocks and finds the loops (0 on OOM);
   the slots a loop writes into w; one sweep k over the blocks. */
int wmi_lint_build_blocks(lint *L);
int wmi_lint_loop_writes(lint *L, const bblock *h, uint8_t *w);
void wmi_lint_sweep(lint *L, int k);

/* ---- evaluation (ptx_lint_eval.c) ---------------------------------------- */

/* The value of a symbol for the context in ud (an evalctx). */
int64_t wmi_lint_leaf(void *ud, const wmi_avar *v);
/* The verdict on record r for the block in eb (each active warp's access
   added to agg, which may be NULL; moves: also move the uniform symbols);
   every verdict again for other block shapes when none was given. */
wm_status wmi_lint_judge(lint *L, const memrec *r, evalbuf *eb,
                         const uint8_t *given, const wm_arch *arch,
                         wm_lint_insn *v, wm_agg *agg, int moves);
wm_status wmi_lint_by_shape(wm_lint *R, lint *L, evalbuf *eb,
                            const uint8_t *given, const wm_arch *arch,
                            const wmi_func *f);

#endif /* WM_PTX_LINT_CORE_H */
