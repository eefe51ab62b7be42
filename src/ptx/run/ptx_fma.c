/*
 * ptx_fma.c -- fma.rn.f32 over a warp's lanes.
 *
 * The library targets x86-64-v2, which has no FMA instruction, so fmaf is
 * a libm call per lane.  On a CPU with FMA (x86-64-v3: Haswell, Zen and
 * later) the loop is compiled a second time for it and chosen at run time
 * (__builtin_cpu_supports).  Both are fmaf: one rounding of a * b + c, the
 * same bits (glibc's fmaf runs the same instruction where it exists).
 */
#include "ptx_int.h"

#include <math.h>

#define FMA_LANES(FMA)                                                         \
    do {                                                                       \
        if (m == 0xffffffffu) {                                                \
            for (unsigned l = 0; l < 32; l++)                                  \
                D[l] =                                                         \
                    wmi_f32_bits(FMA(wmi_f32(A[l]), wmi_f32(B[l]), wmi_f32(C[l])));  \
        } else {                                                               \
            for (unsigned l = 0; l < 32; l++)                                  \
                if (m >> l & 1)                                                \
                    D[l] = wmi_f32_bits(                                          \
                        FMA(wmi_f32(A[l]), wmi_f32(B[l]), wmi_f32(C[l])));        \
        }                                                                      \
    } while (0)

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) &&        \
    !defined(__FMA__)
#define WM_FMA_CLONE 1
__attribute__((target("avx2,fma"))) static void
fma_hw(uint64_t *D, const uint64_t *A, const uint64_t *B, const uint64_t *C,
       uint32_t m)
{
    FMA_LANES(__builtin_fmaf);
}
#endif

static void fma_lib(uint64_t *D, const uint64_t *A, const uint64_t *B,
                    const uint64_t *C, uint32_t m)
{
    FMA_LANES(fmaf);
}

void wmi_fma_f32(uint64_t *D, const uint64_t *A, const uint64_t *B,
                 const uint64_t *C, uint32_t m)
{
#ifdef WM_FMA_CLONE
    if (__builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2")) {
        fma_hw(D, A, B, C, m);
        return;
    }
#endif
    fma_lib(D, A, B, C, m);
}
