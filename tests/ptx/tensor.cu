// Tensor-core instructions for the interpreter tests (test_ptx_tensor.c):
// mma.sync and ldmatrix through inline PTX, so the committed tensor.ptx
// holds exactly the instructions under test.  Regenerate with gen.sh.
//
// mma kernels: lane l loads its fragment registers from a[j*32 + l],
// b[j*32 + l], c[j*32 + l] (register j of every lane is a row of 32
// words), runs one mma and stores d[j*32 + l] the same way; the test
// builds the fragments from whole matrices with the PTX ISA's layouts.
//
// ldmatrix kernels: the block copies 32 rows of 16 halves (32 B each)
// into shared memory; lane l gives the address of row
// perm(l) = (l & ~7) | ((3 l) & 7) at a row pitch of PITCH bytes (16: the
// 8 rows of a matrix fill 128 B, conflict-free; 32: 2-way conflict), and
// the fragment registers are stored as out[i*32 + l].
#include <cstdint>

#define MMA_F32(NAME, SHAPE, TY, NA, NB)                                       \
    extern "C" __global__ void NAME(const uint32_t *a, const uint32_t *b,      \
                                    const float *c, float *d)                  \
    {                                                                          \
        unsigned l = threadIdx.x;                                              \
        uint32_t A[4], B[2];                                                   \
        float C[4], D[4];                                                      \
        for (int j = 0; j < NA; j++)                                           \
            A[j] = a[j * 32 + l];                                              \
        for (int j = 0; j < NB; j++)                                           \
            B[j] = b[j * 32 + l];                                              \
        for (int j = 0; j < 4; j++)                                            \
            C[j] = c[j * 32 + l];                                              \
        MMA_ASM_##NA##_##NB(SHAPE, TY);                                        \
        for (int j = 0; j < 4; j++)                                            \
            d[j * 32 + l] = D[j];                                              \
    }

#define MMA_ASM_4_2(SHAPE, TY)                                                 \
    asm volatile("mma.sync.aligned." SHAPE ".row.col.f32." TY "." TY ".f32 "   \
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"   \
                 : "=f"(D[0]), "=f"(D[1]), "=f"(D[2]), "=f"(D[3])              \
                 : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]),      \
                   "r"(B[1]), "f"(C[0]), "f"(C[1]), "f"(C[2]), "f"(C[3]))
#define MMA_ASM_2_1(SHAPE, TY)                                                 \
    asm volatile("mma.sync.aligned." SHAPE ".row.col.f32." TY "." TY ".f32 "   \
                 "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"               \
                 : "=f"(D[0]), "=f"(D[1]), "=f"(D[2]), "=f"(D[3])              \
                 : "r"(A[0]), "r"(A[1]), "r"(B[0]), "f"(C[0]), "f"(C[1]),      \
                   "f"(C[2]), "f"(C[3]))

MMA_F32(mma_f16_k16, "m16n8k16", "f16", 4, 2)
MMA_F32(mma_bf16_k16, "m16n8k16", "bf16", 4, 2)
MMA_F32(mma_f16_k8, "m16n8k8", "f16", 2, 1)
MMA_F32(mma_tf32_k8, "m16n8k8", "tf32", 4, 2)

#define LDSM_HEAD(NAME, PITCH)                                                 \
    extern "C" __global__ void NAME(const uint16_t *src, uint32_t *out)       \
    {                                                                          \
        __shared__ __align__(128) uint16_t sm[32 * 16];                        \
        unsigned l = threadIdx.x;                                              \
        for (unsigned i = l; i < 32 * 16; i += 32)                             \
            sm[i] = src[i];                                                    \
        __syncthreads();                                                       \
        unsigned row = (l & ~7u) | ((3 * l) & 7u);                             \
        unsigned addr =                                                        \
            (unsigned)__cvta_generic_to_shared(sm) + row * (PITCH);            \
        uint32_t r[4];

#define LDSM_X1(NAME, TRANS, PITCH)                                            \
    LDSM_HEAD(NAME, PITCH)                                                     \
    asm volatile("ldmatrix.sync.aligned.m8n8.x1" TRANS ".shared.b16 {%0}, [%1];" \
                 : "=r"(r[0]) : "r"(addr));                                    \
    out[l] = r[0];                                                             \
    }
#define LDSM_X2(NAME, TRANS, PITCH)                                            \
    LDSM_HEAD(NAME, PITCH)                                                     \
    asm volatile("ldmatrix.sync.aligned.m8n8.x2" TRANS                         \
                 ".shared.b16 {%0,%1}, [%2];"                                  \
                 : "=r"(r[0]), "=r"(r[1]) : "r"(addr));                        \
    for (int i = 0; i < 2; i++)                                                \
        out[i * 32 + l] = r[i];                                                \
    }
#define LDSM_X4(NAME, TRANS, PITCH)                                            \
    LDSM_HEAD(NAME, PITCH)                                                     \
    asm volatile("ldmatrix.sync.aligned.m8n8.x4" TRANS                         \
                 ".shared.b16 {%0,%1,%2,%3}, [%4];"                            \
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])              \
                 : "r"(addr));                                                 \
    for (int i = 0; i < 4; i++)                                                \
        out[i * 32 + l] = r[i];                                                \
    }

LDSM_X1(ldsm_x1, "", 16)
LDSM_X1(ldsm_x1_trans, ".trans", 16)
LDSM_X2(ldsm_x2, "", 16)
LDSM_X2(ldsm_x2_trans, ".trans", 16)
LDSM_X4(ldsm_x4, "", 16)
LDSM_X4(ldsm_x4_trans, ".trans", 16)
LDSM_X4(ldsm_x4_pitch32, "", 32)
