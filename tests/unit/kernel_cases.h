/*
 * kernel_cases.h -- the example kernels of examples/kernels as test cases:
 * how to launch each one, how to check its functional result in C, and the
 * hand-computed per-source-line memory numbers it must produce.
 *
 * Consumers: tests/unit/test_kernels.c runs every case through the PTX
 * interpreter and compares; tests/unit/test_kernel_refs.c checks the C
 * references themselves against CPU emulations of the kernels.
 *
 * Assumption shared with the interpreter: every buffer argument starts at a
 * device address aligned to 256 bytes (cudaMalloc's guarantee), so the
 * sector and line numbers below do not depend on where the host put it.
 */
#ifndef WM_KERNEL_CASES_H
#define WM_KERNEL_CASES_H

#include <stddef.h>

/* A buffer argument: element type ("f32", ...), count, init rule
 * ("zeros", "iota", "rand=7"), as in `warpmem run --arg TYPE[N]:INIT`. */
typedef struct kc_buf {
    const char *type;
    size_t count;
    const char *init;
} kc_buf;

/* One kernel argument: a buffer (is_buf) or a scalar spec ("i32=64"). */
typedef struct kc_arg {
    int is_buf;
    kc_buf buf;
    const char *scalar;
} kc_arg;

/* One source line of the .cu, hand-computed, per request.  Numbers are the
 * line's sums over all its instructions of that space and op divided by its
 * requests; -1 means "don't check". */
typedef struct kc_expect {
    unsigned line;
    const char *space;        /* "global" | "shared" | "local" */
    const char *op;           /* "ld" | "st" | "atom" | "ldsm" | "ldgsts" */
    double sectors_per_req;    /* global/local; -1 = don't check */
    double wavefronts_per_req; /* shared; -1 = don't check */
    double ideal_per_req;      /* ideal sectors or wavefronts; -1 = skip */
} kc_expect;

typedef struct kernel_case {
    const char *name;   /* "transpose_naive" */
    const char *ptx;    /* relative to the source dir */
    const char *kernel; /* demangled-prefix or exact entry name */
    unsigned grid[3], block[3];
    size_t dyn_smem;
    const kc_arg *args;
    size_t nargs;
    /*
     * Check the functional result: bufs[i] is host memory for arg i (NULL
     * for scalars), initialised by the arg's rule with kc_fill and holding
     * the results after the run.  The reference is computed in C from a
     * fresh kc_fill of the inputs.  Returns 1 if the outputs match (floats
     * within the tolerance stated at the check), else 0 with a reason in
     * why (may be NULL when whylen is 0).
     */
    int (*check)(void *const *bufs, char *why, size_t whylen);
    const kc_expect *expect;
    size_t nexpect;
} kernel_case;

extern const kernel_case kernel_cases[];
extern const size_t nkernel_cases;

/*
 * Fill count elements of type at buf by init rule with the library's
 * wm_ptx_fill, the generator `warpmem run --arg` uses.  Returns 0 on
 * success, -1 for an unknown type or rule.
 */
int kc_fill(void *buf, const char *type, size_t count, const char *init);

/* Bytes per element of a type name, 0 if unknown. */
size_t kc_type_size(const char *type);

#endif /* WM_KERNEL_CASES_H */
