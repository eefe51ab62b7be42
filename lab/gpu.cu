/*
 * gpu.cu -- the CUDA side of warpmem-lab: device query, buffers, the
 * check of every row against a CPU reference, and the timing.
 *
 * Method (docs/design/lab-method.md, "Timing"):
 *   - the input is written once from the host; the host keeps a copy;
 *   - before the checked launch the output is poisoned (bytes 0xBF, a
 *     finite negative float no input word equals), then the whole output
 *     is copied back and compared with the CPU's expectation, untouched
 *     parts included: a failed check is reported and the row is not timed
 *     (the CUDA sample's copySharedMem bug is what this guards against);
 *   - timing: back-to-back launches for a fixed warm-up time (>= 200 ms,
 *     so the clocks and the memory system settle before anything counts),
 *     then `repeat` samples, each a run of back-to-back launches between
 *     two cudaEvents long enough (>= 2 ms) for the events' ~0.5 us
 *     resolution (Best Practices Guide 8.1.2); the median, min and max per
 *     launch are reported;
 *   - the SM and memory clocks are read through NVML (loaded at run time,
 *     optional) when the device opens, after the first warm-up, after each
 *     row and at the end, so the writers can say when they moved;
 *   - buffers are at least 4x the L2 size the device reports
 *     (cudaDevAttrL2CacheSize), so HBM, not L2, is measured.
 * Nothing here changes clocks, power limits or any other device setting.
 */
#include "lab.h"

#ifdef WM_LAB_CUBLAS
#include <cublas_v2.h>
#endif
#include <cuda_runtime.h>

#include <dlfcn.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The kernels, defined in kernels/ (one definition each, same signature). */
extern "C" {
__global__ void lab_copy_w1(const unsigned char *__restrict__,
                            unsigned char *__restrict__, long long);
__global__ void lab_copy_w2(const unsigned short *__restrict__,
                            unsigned short *__restrict__, long long);
__global__ void lab_copy_w4(const unsigned int *__restrict__,
                            unsigned int *__restrict__, long long);
__global__ void lab_copy_w8(const unsigned long long *__restrict__,
                            unsigned long long *__restrict__, long long);
__global__ void lab_copy_w16(const uint4 *__restrict__, uint4 *__restrict__,
                             long long);
__global__ void lab_copy_w1_ilp4(const unsigned char *__restrict__,
                                 unsigned char *__restrict__, long long);
__global__ void lab_copy_w2_ilp4(const unsigned short *__restrict__,
                                 unsigned short *__restrict__, long long);
__global__ void lab_copy_w4_ilp4(const unsigned int *__restrict__,
                                 unsigned int *__restrict__, long long);
__global__ void lab_copy_w8_ilp4(const unsigned long long *__restrict__,
                                 unsigned long long *__restrict__, long long);
__global__ void lab_copy_w16_ilp4(const uint4 *__restrict__,
                                  uint4 *__restrict__, long long);
__global__ void lab_read_stride(const unsigned int *__restrict__,
                                unsigned long long *, long long, int);
__global__ void lab_copy_stride(const unsigned int *__restrict__,
                                unsigned int *__restrict__, long long, int);
__global__ void lab_copy_offset(const unsigned int *__restrict__,
                                unsigned int *__restrict__, long long, int);
__global__ void lab_copy_2d(const float *__restrict__, float *__restrict__,
                            int);
__global__ void lab_transpose_naive_row(const float *__restrict__,
                                        float *__restrict__, int);
__global__ void lab_transpose_naive_col(const float *__restrict__,
                                        float *__restrict__, int);
__global__ void lab_transpose_tile(const float *__restrict__,
                                   float *__restrict__, int);
__global__ void lab_transpose_pad(const float *__restrict__,
                                  float *__restrict__, int);
__global__ void lab_transpose_swz(const float *__restrict__,
                                  float *__restrict__, int);
__global__ void lab_transpose_vec4(const float *__restrict__,
                                   float *__restrict__, int);
__global__ void lab_smem_probe32(unsigned *, int, int, int, int);
__global__ void lab_smem_probe64(unsigned *, int, int, int, int);
__global__ void lab_smem_probe128(unsigned *, int, int, int, int);
}

#define POISON_BYTE 0xBF
#define POISON_WORD 0xBFBFBFBFu
#define BLOCK_1D 256
#define SMEM_ITERS 4096
#define SMEM_ITERS_ONCE 64
#define SMEM_WORDS 2048 /* kernels/smem.cu WORDS */
#define SMEM_UNROLL 32  /* kernels/smem.cu UNROLL: iters is a multiple */
static_assert(SMEM_ITERS % SMEM_UNROLL == 0 && SMEM_ITERS_ONCE % SMEM_UNROLL == 0,
              "the probes run whole trips of SMEM_UNROLL loads");
#define MIN_SAMPLE_MS 2.0

static struct {
    int open;
    unsigned char *d_in, *d_out;
    unsigned long long *d_sum; /* E2.read: one partial sum per block */
    size_t sum_slots;
    unsigned char *h_in, *h_out; /* pinned host copies */
    size_t alloc;                /* bytes of each buffer */
#ifdef WM_LAB_CUBLAS
    cublasHandle_t blas;
    cublasStatus_t blas_status; /* of cublasCreate, then of the last call */
#endif
    int have_blas;
    unsigned long long nlaunch; /* lab_ kernel launches accepted so far */
    /* NVML, loaded with dlopen (no link-time dependency) */
    void *nvml_lib, *nvml_dev;
    int (*nvml_clock)(void *dev, int type, unsigned *mhz);
    int warm_clocks_done;
    cudaEvent_t ev0, ev1;
    int have_events;
    int sms;
    int fault; /* a sticky device error happened: stop launching */
} G;

/* What one launch of a row does. */
typedef struct plan {
    double bytes;     /* read + written */
    dim3 grid, block;
    long long n;      /* elements, matrix side, or memcpy bytes */
    int iarg;         /* stride, offset */
    int iters;        /* smem probes */
    size_t check_bytes; /* output bytes the check reads back */
} plan;

/* Input word i: a positive integer-valued float below 2^23, so fp32 copies
 * and cublasSgeam (1 * a + 0) keep it exact and it never equals poison. */
static unsigned int pattern(size_t i)
{
    unsigned long long h = (unsigned long long)i * 2654435761ull;
    unsigned int v = (unsigned int)((h ^ (h >> 29)) % 8388593ull);
    float f = (float)v;
    unsigned int bits;
    memcpy(&bits, &f, sizeof bits);
    return bits;
}

static void set_note(lab_meas *m, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void set_note(lab_meas *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->note, sizeof m->note, fmt, ap);
    va_end(ap);
}

#ifdef WM_LAB_CUBLAS
/* The name of every cuBLAS status (cublas_api.h), so a failure says which. */
static const char *blas_status_name(cublasStatus_t st)
{
    switch (st) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED:
        return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    case CUBLAS_STATUS_LICENSE_ERROR: return "CUBLAS_STATUS_LICENSE_ERROR";
    }
    return "unknown cuBLAS status";
}
#endif

/* NVML's ABI, declared here because the toolkit need not ship nvml.h:
 * nvmlReturn_t is an int (0 = success), nvmlDevice_t a pointer,
 * NVML_CLOCK_SM = 1 and NVML_CLOCK_MEM = 2 (nvmlClockType_t). */
#define NVML_CLOCK_SM 1
#define NVML_CLOCK_MEM 2

/* Load NVML and find device 0 by its PCI bus id (NVML's own numbering need
 * not follow CUDA_VISIBLE_DEVICES).  Without NVML the clocks stay 0. */
static void clocks_open(void)
{
    typedef int (*init_fn)(void);
    typedef int (*by_pci_fn)(const char *, void **);
    char pci[32];
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    init_fn init;
    by_pci_fn by_pci;
    if (lib == NULL)
        return;
    init = (init_fn)dlsym(lib, "nvmlInit_v2");
    by_pci = (by_pci_fn)dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
    G.nvml_clock = (int (*)(void *, int, unsigned *))dlsym(
        lib, "nvmlDeviceGetClockInfo");
    if (init == NULL || by_pci == NULL || G.nvml_clock == NULL ||
        init() != 0 || cudaDeviceGetPCIBusId(pci, sizeof pci, 0) != cudaSuccess ||
        by_pci(pci, &G.nvml_dev) != 0) {
        G.nvml_clock = NULL;
        dlclose(lib);
        return;
    }
    G.nvml_lib = lib;
}

/* The current SM and memory clocks in MHz (0 when unknown). */
static void clocks_read(unsigned *sm, unsigned *mem)
{
    *sm = *mem = 0;
    if (G.nvml_clock == NULL)
        return;
    if (G.nvml_clock(G.nvml_dev, NVML_CLOCK_SM, sm) != 0)
        *sm = 0;
    if (G.nvml_clock(G.nvml_dev, NVML_CLOCK_MEM, mem) != 0)
        *mem = 0;
}

static void clocks_close(void)
{
    if (G.nvml_lib) {
        int (*shutdown)(void) =
            (int (*)(void))dlsym(G.nvml_lib, "nvmlShutdown");
        if (shutdown)
            shutdown();
        dlclose(G.nvml_lib);
    }
}

/* Contract in lab.h. */
extern "C" int lab_gpu_open(const lab_opts *o, lab_env *e, char *why,
                            size_t whylen)
{
    int count = 0, l2 = 0;
    cudaDeviceProp prop;
    cudaError_t err = cudaGetDeviceCount(&count);
    long long buf, need;
    time_t now = time(NULL);

    if (err != cudaSuccess || count == 0) {
        snprintf(why, whylen, "%s",
                 err != cudaSuccess ? cudaGetErrorString(err)
                                    : "the runtime reports 0 devices");
        return LAB_EXIT_NODEVICE;
    }
    if ((err = cudaSetDevice(0)) != cudaSuccess ||
        (err = cudaGetDeviceProperties(&prop, 0)) != cudaSuccess ||
        (err = cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0)) !=
            cudaSuccess) {
        snprintf(why, whylen, "device 0: %s", cudaGetErrorString(err));
        return LAB_EXIT_NODEVICE;
    }
    G.open = 1;
    e->have_device = 1;
    snprintf(e->device, sizeof e->device, "%s", prop.name);
    e->cc_major = prop.major;
    e->cc_minor = prop.minor;
    e->sms = G.sms = prop.multiProcessorCount;
    e->l2_bytes = l2;
    e->mem_bytes = (long long)prop.totalGlobalMem;
    cudaDriverGetVersion(&e->driver);
    cudaRuntimeGetVersion(&e->runtime);
    strftime(e->date, sizeof e->date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    e->repeat = o->repeat;
    e->once = o->once;

    /* Sizes: sweep buffers >= 4 x L2 (unless --once), 1 MiB granules. */
    buf = o->size ? o->size : (1ll << 30);
    if (!o->once && buf < 4ll * l2)
        buf = 4ll * l2;
    buf = (buf + (1 << 20) - 1) & ~((1ll << 20) - 1);
    e->buf_bytes = buf;
    e->matrix_n = ((int)sqrt((double)(buf / 4)) / 64) * 64;
    if (e->matrix_n < 64)
        e->matrix_n = 64;
    e->lesson_n = 8192;
    if (o->once && e->lesson_n > e->matrix_n)
        e->lesson_n = e->matrix_n;
    while (!o->once && 4ll * e->lesson_n * e->lesson_n < 4ll * l2)
        e->lesson_n += 64;
    need = buf;
    if (4ll * e->lesson_n * e->lesson_n > need)
        need = 4ll * e->lesson_n * e->lesson_n;
    if (4ll * e->matrix_n * e->matrix_n > need)
        need = 4ll * e->matrix_n * e->matrix_n;
    G.alloc = (size_t)need;
    /* lab_read_stride's grid is at most words / (4 * BLOCK_1D) blocks. */
    G.sum_slots = G.alloc / 4 / (4 * BLOCK_1D) + 1;

    if ((err = cudaMalloc((void **)&G.d_in, G.alloc)) != cudaSuccess ||
        (err = cudaMalloc((void **)&G.d_out, G.alloc)) != cudaSuccess ||
        (err = cudaMalloc((void **)&G.d_sum,
                          G.sum_slots * sizeof *G.d_sum)) != cudaSuccess ||
        (err = cudaMallocHost((void **)&G.h_in, G.alloc)) != cudaSuccess ||
        (err = cudaMallocHost((void **)&G.h_out, G.alloc)) != cudaSuccess ||
        (err = cudaEventCreate(&G.ev0)) != cudaSuccess ||
        (err = cudaEventCreate(&G.ev1)) != cudaSuccess) {
        snprintf(why, whylen, "allocating 2 x %zu bytes: %s", G.alloc,
                 cudaGetErrorString(err));
        return LAB_EXIT_FAIL;
    }
    G.have_events = 1;
    for (size_t i = 0; i < G.alloc / 4; i++) {
        unsigned int w = pattern(i);
        memcpy(G.h_in + 4 * i, &w, 4);
    }
    err = cudaMemcpy(G.d_in, G.h_in, G.alloc, cudaMemcpyHostToDevice);
    if (err != cudaSuccess) {
        snprintf(why, whylen, "writing the input: %s",
                 cudaGetErrorString(err));
        return LAB_EXIT_FAIL;
    }
#ifdef WM_LAB_CUBLAS
    e->cublas = 1;
    G.blas_status = cublasCreate(&G.blas);
    G.have_blas = G.blas_status == CUBLAS_STATUS_SUCCESS;
#endif
    clocks_open();
    clocks_read(&e->sm_mhz[0], &e->mem_mhz[0]);
    e->have_clocks = G.nvml_clock != NULL;
    return LAB_EXIT_OK;
}

/* Contract in lab.h. */
extern "C" void lab_gpu_close(void)
{
    if (!G.open)
        return;
#ifdef WM_LAB_CUBLAS
    if (G.have_blas)
        cublasDestroy(G.blas);
#endif
    clocks_close();
    if (G.have_events) {
        cudaEventDestroy(G.ev0);
        cudaEventDestroy(G.ev1);
    }
    cudaFree(G.d_in);
    cudaFree(G.d_out);
    cudaFree(G.d_sum);
    cudaFreeHost(G.h_in);
    cudaFreeHost(G.h_out);
    memset(&G, 0, sizeof G);
}

/* Bytes per lane and --arg type of a copy kind. */
static unsigned copy_width(lab_kind k, const char **type)
{
    switch (k) {
    case LAB_K_COPY_W1: case LAB_K_COPY_W1_ILP4: *type = "u8"; return 1;
    case LAB_K_COPY_W2: case LAB_K_COPY_W2_ILP4: *type = "u16"; return 2;
    case LAB_K_COPY_W4: case LAB_K_COPY_W4_ILP4: *type = "u32"; return 4;
    case LAB_K_COPY_W8: case LAB_K_COPY_W8_ILP4: *type = "u64"; return 8;
    default: *type = "u32"; return 16;
    }
}

static int is_ilp(lab_kind k)
{
    return k == LAB_K_COPY_W1_ILP4 || k == LAB_K_COPY_W2_ILP4 ||
           k == LAB_K_COPY_W4_ILP4 || k == LAB_K_COPY_W8_ILP4 ||
           k == LAB_K_COPY_W16_ILP4;
}

/* Work out the launch of row r and describe it in r->meas. */
static void make_plan(lab_row *r, const lab_env *e, plan *p)
{
    lab_meas *m = &r->meas;
    long long buf = e->buf_bytes, words = buf / 4;
    int n2 = strcmp(r->experiment, "E1") == 0 ? e->lesson_n : e->matrix_n;
    const char *type;
    unsigned w;

    *p = plan();
    p->grid = dim3(1, 1, 1);
    p->block = dim3(BLOCK_1D, 1, 1);
    p->check_bytes = G.alloc;
    m->args[0] = '\0';
    switch (r->kind) {
    case LAB_K_MEMCPY:
        p->n = buf;
        p->bytes = 2.0 * (double)buf;
        break;
    case LAB_K_COPY_W1: case LAB_K_COPY_W2: case LAB_K_COPY_W4:
    case LAB_K_COPY_W8: case LAB_K_COPY_W16:
    case LAB_K_COPY_W1_ILP4: case LAB_K_COPY_W2_ILP4: case LAB_K_COPY_W4_ILP4:
    case LAB_K_COPY_W8_ILP4: case LAB_K_COPY_W16_ILP4:
        w = copy_width(r->kind, &type);
        p->n = buf / w;
        p->grid.x = (unsigned)(p->n / (is_ilp(r->kind) ? 4 * BLOCK_1D
                                                        : BLOCK_1D));
        p->bytes = 2.0 * (double)buf;
        snprintf(m->args, sizeof m->args, "%s[%lld] %s[%lld] i64=%lld", type,
                 buf / (w == 16 ? 4 : w), type, buf / (w == 16 ? 4 : w),
                 p->n);
        break;
    case LAB_K_READ_STRIDE:
    case LAB_K_COPY_STRIDE:
        p->iarg = (int)r->p.stride;
        p->n = words / r->p.stride / (4 * BLOCK_1D) * (4 * BLOCK_1D);
        p->grid.x = (unsigned)(p->n / (4 * BLOCK_1D));
        if (r->kind == LAB_K_READ_STRIDE) {
            /* the reads, plus one 8-byte partial sum written per block */
            p->bytes = 4.0 * (double)p->n + 8.0 * (double)p->grid.x;
            p->check_bytes = 0;
            snprintf(m->args, sizeof m->args,
                     "u32[%lld] u64[%u] i64=%lld i32=%d", words, p->grid.x,
                     p->n, p->iarg);
        } else {
            p->bytes = 8.0 * (double)p->n;
            snprintf(m->args, sizeof m->args,
                     "u32[%lld] u32[%lld] i64=%lld i32=%d", words, words,
                     p->n, p->iarg);
        }
        break;
    case LAB_K_COPY_OFFSET:
        p->iarg = (int)r->p.offset;
        p->n = words - 4 * BLOCK_1D;
        p->grid.x = (unsigned)(p->n / (4 * BLOCK_1D));
        p->bytes = 8.0 * (double)p->n;
        snprintf(m->args, sizeof m->args,
                 "u32[%lld] u32[%lld] i64=%lld i32=%d", words, words, p->n,
                 p->iarg);
        break;
    case LAB_K_COPY_2D: case LAB_K_T_NAIVE_ROW: case LAB_K_T_NAIVE_COL:
    case LAB_K_T_TILE: case LAB_K_T_PAD: case LAB_K_T_SWZ: case LAB_K_T_VEC4:
    case LAB_K_SGEAM:
        p->n = n2;
        p->grid = dim3((unsigned)n2 / 32, (unsigned)n2 / 32, 1);
        p->block = r->kind == LAB_K_T_VEC4 ? dim3(8, 8, 1) : dim3(32, 8, 1);
        p->bytes = 8.0 * (double)n2 * (double)n2;
        if (r->kind != LAB_K_SGEAM)
            snprintf(m->args, sizeof m->args, "f32[%lld] f32[%lld] i32=%d",
                     (long long)n2 * n2, (long long)n2 * n2, n2);
        break;
    case LAB_K_SMEM32: case LAB_K_SMEM64: case LAB_K_SMEM128:
        p->grid.x = (unsigned)G.sms * 8;
        p->iters = e->once ? SMEM_ITERS_ONCE : SMEM_ITERS;
        p->check_bytes = (size_t)p->grid.x * BLOCK_1D * 4;
        snprintf(m->args, sizeof m->args, "u32[%u] i32=%d i32=%d i32=%d i32=%d",
                 p->grid.x * BLOCK_1D, r->p.a, r->p.b, r->p.c, p->iters);
        break;
    case LAB_NKINDS: break;
    }
    m->bytes = p->bytes;
    if (r->kind == LAB_K_MEMCPY || r->kind == LAB_K_SGEAM) {
        memset(m->grid, 0, sizeof m->grid);
        memset(m->block, 0, sizeof m->block);
    } else {
        m->grid[0] = p->grid.x;
        m->grid[1] = p->grid.y;
        m->grid[2] = p->grid.z;
        m->block[0] = p->block.x;
        m->block[1] = p->block.y;
        m->block[2] = p->block.z;
    }
}

/* Launch row r once (asynchronously). */
static cudaError_t launch(const lab_row *r, const plan *p)
{
    const float one = 1.0f, zero = 0.0f;
    unsigned char *i8 = G.d_in, *o8 = G.d_out;
    const float *fi = (const float *)G.d_in;
    float *fo = (float *)G.d_out;
    const unsigned *ui = (const unsigned *)G.d_in;
    unsigned *uo = (unsigned *)G.d_out;
    int n = (int)p->n;

    switch (r->kind) {
    case LAB_K_MEMCPY:
        return cudaMemcpyAsync(G.d_out, G.d_in, (size_t)p->n,
                               cudaMemcpyDeviceToDevice, 0);
    case LAB_K_SGEAM:
#ifdef WM_LAB_CUBLAS
        if (!G.have_blas)
            return cudaErrorNotSupported;
        /* Column-major C = 1 * A^T + 0 * C: in-place mode C == B with
         * transb = N and ldb == ldc, as the cuBLAS reference allows. */
        G.blas_status = cublasSgeam(G.blas, CUBLAS_OP_T, CUBLAS_OP_N, n, n,
                                    &one, fi, n, &zero, fo, n, fo, n);
        return G.blas_status == CUBLAS_STATUS_SUCCESS ? cudaSuccess
                                                      : cudaErrorUnknown;
#else
        (void)one;
        (void)zero;
        return cudaErrorNotSupported;
#endif
    case LAB_K_COPY_W1: lab_copy_w1<<<p->grid, p->block>>>(i8, o8, p->n); break;
    case LAB_K_COPY_W2:
        lab_copy_w2<<<p->grid, p->block>>>((const unsigned short *)i8,
                                           (unsigned short *)o8, p->n);
        break;
    case LAB_K_COPY_W4: lab_copy_w4<<<p->grid, p->block>>>(ui, uo, p->n); break;
    case LAB_K_COPY_W8:
        lab_copy_w8<<<p->grid, p->block>>>((const unsigned long long *)i8,
                                           (unsigned long long *)o8, p->n);
        break;
    case LAB_K_COPY_W16:
        lab_copy_w16<<<p->grid, p->block>>>((const uint4 *)i8, (uint4 *)o8,
                                            p->n);
        break;
    case LAB_K_COPY_W1_ILP4:
        lab_copy_w1_ilp4<<<p->grid, p->block>>>(i8, o8, p->n);
        break;
    case LAB_K_COPY_W2_ILP4:
        lab_copy_w2_ilp4<<<p->grid, p->block>>>((const unsigned short *)i8,
                                                (unsigned short *)o8, p->n);
        break;
    case LAB_K_COPY_W4_ILP4:
        lab_copy_w4_ilp4<<<p->grid, p->block>>>(ui, uo, p->n);
        break;
    case LAB_K_COPY_W8_ILP4:
        lab_copy_w8_ilp4<<<p->grid, p->block>>>(
            (const unsigned long long *)i8, (unsigned long long *)o8, p->n);
        break;
    case LAB_K_COPY_W16_ILP4:
        lab_copy_w16_ilp4<<<p->grid, p->block>>>((const uint4 *)i8,
                                                 (uint4 *)o8, p->n);
        break;
    case LAB_K_READ_STRIDE:
        lab_read_stride<<<p->grid, p->block>>>(ui, G.d_sum, p->n, p->iarg);
        break;
    case LAB_K_COPY_STRIDE:
        lab_copy_stride<<<p->grid, p->block>>>(ui, uo, p->n, p->iarg);
        break;
    case LAB_K_COPY_OFFSET:
        lab_copy_offset<<<p->grid, p->block>>>(ui, uo, p->n, p->iarg);
        break;
    case LAB_K_COPY_2D: lab_copy_2d<<<p->grid, p->block>>>(fi, fo, n); break;
    case LAB_K_T_NAIVE_ROW:
        lab_transpose_naive_row<<<p->grid, p->block>>>(fi, fo, n);
        break;
    case LAB_K_T_NAIVE_COL:
        lab_transpose_naive_col<<<p->grid, p->block>>>(fi, fo, n);
        break;
    case LAB_K_T_TILE: lab_transpose_tile<<<p->grid, p->block>>>(fi, fo, n); break;
    case LAB_K_T_PAD: lab_transpose_pad<<<p->grid, p->block>>>(fi, fo, n); break;
    case LAB_K_T_SWZ: lab_transpose_swz<<<p->grid, p->block>>>(fi, fo, n); break;
    case LAB_K_T_VEC4: lab_transpose_vec4<<<p->grid, p->block>>>(fi, fo, n); break;
    case LAB_K_SMEM32:
        lab_smem_probe32<<<p->grid, p->block>>>(uo, r->p.a, r->p.b, r->p.c,
                                                p->iters);
        break;
    case LAB_K_SMEM64:
        lab_smem_probe64<<<p->grid, p->block>>>(uo, r->p.a, r->p.b, r->p.c,
                                                p->iters);
        break;
    case LAB_K_SMEM128:
        lab_smem_probe128<<<p->grid, p->block>>>(uo, r->p.a, r->p.b, r->p.c,
                                                 p->iters);
        break;
    case LAB_NKINDS: return cudaErrorInvalidValue;
    }
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess)
        G.nlaunch++;
    return err;
}

static unsigned in_word(size_t k)
{
    unsigned w;
    memcpy(&w, G.h_in + 4 * k, 4);
    return w;
}

static unsigned out_word(size_t k)
{
    unsigned w;
    memcpy(&w, G.h_out + 4 * k, 4);
    return w;
}

/* Compare output word k with want; on the first mismatch describe it. */
static int expect(lab_meas *m, size_t k, unsigned want, const char *what)
{
    unsigned got = out_word(k);
    if (got == want)
        return 1;
    set_note(m, "word %zu (%s): got 0x%08x, want 0x%08x", k, what, got, want);
    return 0;
}

/* Every word from k0 to the end of the read-back region is still poison. */
static int poisoned_from(lab_meas *m, size_t k0, size_t nwords)
{
    for (size_t k = k0; k < nwords; k++)
        if (!expect(m, k, POISON_WORD, "must stay unwritten"))
            return 0;
    return 1;
}

/* Check the result of row r's launch against the CPU; 1 if right. */
static int check(const lab_row *r, const plan *p, lab_meas *m)
{
    size_t nwords = p->check_bytes / 4, n = (size_t)p->n;
    size_t s = r->p.stride, off = r->p.offset;
    cudaError_t err;

    if (r->kind == LAB_K_READ_STRIDE) {
        /* Block g summed elements g * 4 * BLOCK_1D .. + 4 * BLOCK_1D - 1:
         * check every partial sum (the slots were poisoned), then the
         * total. */
        size_t nblk = p->grid.x, per_blk = 4 * BLOCK_1D;
        unsigned long long total = 0, want_total = 0;
        err = cudaMemcpy(G.h_out, G.d_sum, nblk * sizeof *G.d_sum,
                         cudaMemcpyDeviceToHost);
        if (err != cudaSuccess) {
            set_note(m, "reading the partial sums: %s",
                     cudaGetErrorString(err));
            return 0;
        }
        for (size_t g = 0; g < nblk; g++) {
            unsigned long long got, want = 0;
            memcpy(&got, G.h_out + 8 * g, 8);
            for (size_t i = g * per_blk; i < (g + 1) * per_blk && i < n; i++)
                want += in_word(i * s);
            if (got != want) {
                set_note(m, "block %zu: partial sum %llu, want %llu", g, got,
                         want);
                return 0;
            }
            total += got;
            want_total += want;
        }
        if (total != want_total) {
            set_note(m, "sum %llu, want %llu", total, want_total);
            return 0;
        }
        return 1;
    }
    err = cudaMemcpy(G.h_out, G.d_out, p->check_bytes, cudaMemcpyDeviceToHost);
    if (err != cudaSuccess) {
        set_note(m, "reading the output: %s", cudaGetErrorString(err));
        return 0;
    }
    switch (r->kind) {
    case LAB_K_MEMCPY: case LAB_K_COPY_W1: case LAB_K_COPY_W2:
    case LAB_K_COPY_W4: case LAB_K_COPY_W8: case LAB_K_COPY_W16:
    case LAB_K_COPY_W1_ILP4: case LAB_K_COPY_W2_ILP4: case LAB_K_COPY_W4_ILP4:
    case LAB_K_COPY_W8_ILP4: case LAB_K_COPY_W16_ILP4: {
        size_t words = (size_t)m->bytes / 2 / 4;
        if (memcmp(G.h_out, G.h_in, words * 4) != 0)
            for (size_t k = 0; k < words; k++)
                if (!expect(m, k, in_word(k), "copied"))
                    return 0;
        return poisoned_from(m, words, nwords);
    }
    case LAB_K_COPY_STRIDE:
        for (size_t k = 0; k < nwords; k++) {
            int hit = k % s == 0 && k / s < n;
            if (!expect(m, k, hit ? in_word(k) : POISON_WORD,
                        hit ? "copied" : "between strides"))
                return 0;
        }
        return 1;
    case LAB_K_COPY_OFFSET:
        for (size_t k = 0; k < nwords; k++) {
            int hit = k >= off && k < off + n;
            if (!expect(m, k, hit ? in_word(k) : POISON_WORD,
                        hit ? "copied" : "outside the range"))
                return 0;
        }
        return 1;
    case LAB_K_COPY_2D:
        if (memcmp(G.h_out, G.h_in, n * n * 4) != 0)
            for (size_t k = 0; k < n * n; k++)
                if (!expect(m, k, in_word(k), "copied"))
                    return 0;
        return poisoned_from(m, n * n, nwords);
    case LAB_K_T_NAIVE_ROW: case LAB_K_T_NAIVE_COL: case LAB_K_T_TILE:
    case LAB_K_T_PAD: case LAB_K_T_SWZ: case LAB_K_T_VEC4: case LAB_K_SGEAM:
        /* out[i][j] == in[j][i], walked in 32 x 32 blocks for the cache */
        for (size_t bi = 0; bi < n; bi += 32)
            for (size_t bj = 0; bj < n; bj += 32)
                for (size_t i = bi; i < bi + 32 && i < n; i++)
                    for (size_t j = bj; j < bj + 32 && j < n; j++)
                        if (out_word(i * n + j) != in_word(j * n + i)) {
                            set_note(m, "out[%zu][%zu] = 0x%08x, want "
                                        "in[%zu][%zu] = 0x%08x",
                                     i, j, out_word(i * n + j), j, i,
                                     in_word(j * n + i));
                            return 0;
                        }
        return poisoned_from(m, n * n, nwords);
    case LAB_K_SMEM32: case LAB_K_SMEM64: case LAB_K_SMEM128: {
        int vec = r->kind == LAB_K_SMEM32 ? 1 : r->kind == LAB_K_SMEM64 ? 2 : 4;
        unsigned ref[32];
        for (int l = 0; l < 32; l++) {
            long w = (long)(l % r->p.a) * r->p.b + (long)(l / r->p.a) * r->p.c;
            unsigned sum = 0;
            for (int j = 0; j < p->iters; j++)
                for (int q = 0; q < vec; q++) {
                    long k = w + (long)vec * (j % SMEM_UNROLL) + q;
                    if (k < 0 || k >= SMEM_WORDS) {
                        set_note(m, "lane %d reads word %ld, outside the "
                                    "array", l, k);
                        return 0;
                    }
                    sum += (unsigned)(k & 15);
                }
            ref[l] = sum;
        }
        for (size_t t = 0; t < nwords; t++) {
            if (out_word(t) != ref[t % 32]) {
                set_note(m, "thread %zu: sum %u, want %u", t, out_word(t),
                         ref[t % 32]);
                return 0;
            }
        }
        return 1;
    }
    case LAB_K_READ_STRIDE: case LAB_NKINDS: break;
    }
    return 0;
}

/* Record a CUDA failure in m; a sticky one stops all further launches. */
static void fail(const lab_row *r, lab_meas *m, const char *what,
                 cudaError_t err)
{
    m->status = LAB_ST_ERROR;
    set_note(m, "%s: %s", what, cudaGetErrorString(err));
    if (r->kind == LAB_K_SGEAM) {
#ifdef WM_LAB_CUBLAS
        if (!G.have_blas)
            set_note(m, "cublasCreate: %s", blas_status_name(G.blas_status));
        else if (err == cudaErrorUnknown)
            set_note(m, "cublasSgeam (%s): %s", what,
                     blas_status_name(G.blas_status));
#else
        set_note(m, "this warpmem-lab was built without cuBLAS");
#endif
    }
    if (cudaDeviceSynchronize() != cudaSuccess)
        G.fault = 1;
}

/* Launch row r n times back to back between the two events; *ms is the
 * elapsed time. */
static cudaError_t timed_batch(const lab_row *r, const plan *p, unsigned n,
                               double *ms)
{
    float t = 0.0f;
    cudaError_t err = cudaEventRecord(G.ev0, 0);
    for (unsigned k = 0; k < n && err == cudaSuccess; k++)
        err = launch(r, p);
    if (err == cudaSuccess)
        err = cudaEventRecord(G.ev1, 0);
    if (err == cudaSuccess)
        err = cudaEventSynchronize(G.ev1);
    if (err == cudaSuccess)
        err = cudaEventElapsedTime(&t, G.ev0, G.ev1);
    *ms = (double)t;
    return err;
}

/* Warm row r up: batches of back-to-back launches (doubling, up to 4096)
 * until at least warm_ms of them ran.  *spent is the time they took,
 * *per_ms the time per launch of the last batch. */
static cudaError_t warm_up(const lab_row *r, const plan *p, double warm_ms,
                           double *spent, double *per_ms)
{
    unsigned batch = 1;
    double t = 0.0;
    cudaError_t err = cudaSuccess;
    *spent = *per_ms = 0.0;
    while (err == cudaSuccess && *spent < warm_ms) {
        err = timed_batch(r, p, batch, &t);
        *spent += t;
        *per_ms = t / batch;
        if (batch < 4096 && t < warm_ms / 4)
            batch *= 2;
    }
    return err;
}

/* Time row r (already checked). */
static void time_row(const lab_row *r, const plan *p, lab_meas *m,
                     lab_env *e, const lab_opts *o)
{
    unsigned repeat = o->repeat;
    double *ms = (double *)calloc(repeat, sizeof *ms);
    double t = 0.0;
    unsigned per;
    cudaError_t err;

    if (ms == NULL) {
        m->status = LAB_ST_ERROR;
        set_note(m, "out of host memory");
        return;
    }
    err = warm_up(r, p, o->warmup_ms, &m->warmup_ms, &t);
    if (err == cudaSuccess && !G.warm_clocks_done) {
        clocks_read(&e->sm_mhz[1], &e->mem_mhz[1]);
        G.warm_clocks_done = 1;
    }
    per = t > 0.0 ? (unsigned)ceil(MIN_SAMPLE_MS / t) : 1000u;
    if (per < 1)
        per = 1;
    if (per > 1000)
        per = 1000;
    for (unsigned s = 0; s < repeat && err == cudaSuccess; s++) {
        err = timed_batch(r, p, per, &t);
        ms[s] = t / per;
    }
    /* right after the samples the device is still at its working clocks */
    clocks_read(&m->sm_mhz, &m->mem_mhz);
    e->sm_mhz[2] = m->sm_mhz;
    e->mem_mhz[2] = m->mem_mhz;
    if (err != cudaSuccess) {
        fail(r, m, "timing", err);
        free(ms);
        return;
    }
    m->samples = repeat;
    m->launches = per;
    lab_stats(ms, repeat, &m->ms_med, &m->ms_min, &m->ms_max);
    if (p->bytes > 0) {
        m->gbs_med = p->bytes / (m->ms_med * 1e-3) / 1e9;
        m->gbs_min = p->bytes / (m->ms_max * 1e-3) / 1e9;
        m->gbs_max = p->bytes / (m->ms_min * 1e-3) / 1e9;
    }
    m->status = LAB_ST_OK;
    free(ms);
}

/* Poison the output, launch once, check; then time unless --once. */
static void check_and_time(lab_row *r, lab_env *e, const lab_opts *o,
                           const plan *p)
{
    lab_meas *m = &r->meas;
    cudaError_t err = cudaMemset(G.d_out, POISON_BYTE, G.alloc);
    if (err == cudaSuccess)
        err = cudaMemset(G.d_sum, POISON_BYTE, G.sum_slots * sizeof *G.d_sum);
    if (err == cudaSuccess)
        err = cudaDeviceSynchronize();
    if (err == cudaSuccess)
        err = launch(r, p);
    if (err == cudaSuccess)
        err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        fail(r, m, "launch", err);
        return;
    }
    if (!check(r, p, m)) {
        m->status = LAB_ST_FAILED;
        return;
    }
    if (o->once) {
        m->status = LAB_ST_CHECKED;
        return;
    }
    time_row(r, p, m, e, o);
}

/* Check, then time, one row. */
static void run_row(lab_row *r, lab_env *e, const lab_opts *o)
{
    lab_meas *m = &r->meas;
    unsigned long long launched = G.nlaunch;
    plan p;

    make_plan(r, e, &p);
    if (G.fault) {
        m->status = LAB_ST_ERROR;
        set_note(m, "skipped after an earlier device fault");
        return;
    }
    check_and_time(r, e, o, &p);
    /* memcpy and cuBLAS rows launch no lab_ kernel */
    if (*lab_kind_symbol(r->kind))
        m->kernel_launches = (unsigned)(G.nlaunch - launched);
}
/* Contract in lab.h. */
extern "C" int lab_gpu_run(lab_table *t, lab_env *e, const lab_opts *o)
{
    int rc = LAB_EXIT_OK;
    e->c_ref_gbs = 0.0;
    for (size_t i = 0; i < t->nrows; i++) {
        lab_row *r = &t->rows[i];
        if (!r->selected)
            continue;
        run_row(r, e, o);
        if (r->meas.status == LAB_ST_FAILED || r->meas.status == LAB_ST_ERROR)
            rc = LAB_EXIT_FAIL;
        if (strcmp(r->experiment, "E0") == 0 && r->meas.status == LAB_ST_OK &&
            r->meas.gbs_med > e->c_ref_gbs)
            e->c_ref_gbs = r->meas.gbs_med;
        fprintf(stderr, "warpmem-lab: %-16s %s", r->id,
                r->meas.status == LAB_ST_OK       ? "ok"
                : r->meas.status == LAB_ST_CHECKED ? "checked"
                : r->meas.status == LAB_ST_FAILED  ? "CHECK FAILED"
                                                   : "ERROR");
        if (r->meas.status == LAB_ST_OK)
            fprintf(stderr, "  %.4g ms", r->meas.ms_med);
        if (r->meas.note[0])
            fprintf(stderr, "  %s", r->meas.note);
        fprintf(stderr, "\n");
        if (o->on_row)
            o->on_row(t, e, o->on_row_ctx);
    }
    return rc;
}
