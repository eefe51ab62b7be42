/*
 * test_ptx_wmma.c -- wmma.load / wmma.mma / wmma.store in the PTX
 * interpreter.  Every shape and type (m16n16k16, m32n8k16, m8n32k16 with
 * f16, bf16, s8, u8 inputs and f16 / f32 / s32 accumulators; m16n16k8
 * tf32; m8n8k4 f64; m8n8k32 s4 / u4 and m8n8k128 b1 with .xor.popc and
 * .and.popc), every pair of A and B layouts (sub-byte and b1: A row, B
 * col, the only pair the ISA has) and both accumulator layouts run
 * load -> mma -> store on random matrices in padded global buffers, and D
 * must equal a CPU matmul exactly (the inputs are small multiples of 1/2,
 * so every f32, f16 and f64 sum is exact).  Whatever the fragment layout,
 * that holds only if load, mma and store agree on it.  Then the f64
 * rounding modifiers and s4 .satfinite on hand-computed values; the
 * layout's lane addresses: an A fragment from shared memory with 32-byte
 * rows has 2-way bank conflicts, with 48-byte rows none, and the new
 * shapes' requests and wavefronts; and the faults.  Every launch also runs
 * with the fast paths off (ptx_twin.h).
 */
#include "check.h"
#include "ptx_inline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct form {
    const char *shape;
    unsigned m, n, k;
    const char *at, *bt, *ct, *dt; /* PTX type names */
    const char *op;                /* b1: "xor" or "and" (.popc) */
} form;

static const form forms[] = {
    {"m16n16k16", 16, 16, 16, "f16", "f16", "f32", "f32", NULL},
    {"m16n16k16", 16, 16, 16, "f16", "f16", "f16", "f16", NULL},
    {"m16n16k16", 16, 16, 16, "f16", "f16", "f32", "f16", NULL},
    {"m32n8k16", 32, 8, 16, "f16", "f16", "f16", "f32", NULL},
    {"m8n32k16", 8, 32, 16, "f16", "f16", "f32", "f32", NULL},
    {"m16n16k16", 16, 16, 16, "bf16", "bf16", "f32", "f32", NULL},
    {"m32n8k16", 32, 8, 16, "bf16", "bf16", "f32", "f32", NULL},
    {"m8n32k16", 8, 32, 16, "bf16", "bf16", "f32", "f32", NULL},
    {"m16n16k16", 16, 16, 16, "s8", "s8", "s32", "s32", NULL},
    {"m32n8k16", 32, 8, 16, "u8", "s8", "s32", "s32", NULL},
    {"m8n32k16", 8, 32, 16, "s8", "u8", "s32", "s32", NULL},
    {"m16n16k16", 16, 16, 16, "u8", "u8", "s32", "s32", NULL},
    {"m16n16k8", 16, 16, 8, "tf32", "tf32", "f32", "f32", NULL},
    {"m8n8k4", 8, 8, 4, "f64", "f64", "f64", "f64", NULL},
    {"m8n8k32", 8, 8, 32, "s4", "s4", "s32", "s32", NULL},
    {"m8n8k32", 8, 8, 32, "u4", "s4", "s32", "s32", NULL},
    {"m8n8k32", 8, 8, 32, "u4", "u4", "s32", "s32", NULL},
    {"m8n8k128", 8, 8, 128, "b1", "b1", "s32", "s32", "xor"},
    {"m8n8k128", 8, 8, 128, "b1", "b1", "s32", "s32", "and"},
};

/* Element bits of PTX type t. */
static unsigned ebits(const char *t)
{
    if (strcmp(t, "b1") == 0)
        return 1;
    if (t[1] == '4')
        return 4;
    if (t[1] == '8')
        return 8;
    if (strcmp(t, "f16") == 0 || strcmp(t, "bf16") == 0)
        return 16;
    return strcmp(t, "f64") == 0 ? 64 : 32;
}

/* Registers of a fragment: f16 A and B always 8; f64 8 bytes each, the
   others 4. */
static unsigned nregs(const char *t, unsigned rows, unsigned cols, int ab)
{
    if (ab && strcmp(t, "f16") == 0)
        return 8;
    return rows * cols * ebits(t) / (ebits(t) == 64 ? 2048 : 1024);
}

/* Exact encodings of small values (multiples of 1/2, |v| < 1024). */
static uint32_t f32_bits(double v)
{
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static uint64_t encode(const char *t, double v)
{
    uint32_t u = f32_bits(v);
    if (strcmp(t, "f64") == 0) {
        uint64_t x;
        memcpy(&x, &v, 8);
        return x;
    }
    if (ebits(t) < 8) /* s4 u4 b1: the low bits */
        return (uint32_t)(int)v & ((1u << ebits(t)) - 1);
    if (strcmp(t, "bf16") == 0)
        return u >> 16;
    if (strcmp(t, "f16") == 0)
        return v == 0 ? 0
                      : ((u >> 16) & 0x8000u) |
                            (((u >> 23 & 0xffu) - 112u) << 10) |
                            ((u >> 13) & 0x3ffu);
    if (strcmp(t, "s8") == 0 || strcmp(t, "u8") == 0)
        return (uint32_t)(int)v & 0xffu;
    if (strcmp(t, "s32") == 0)
        return (uint32_t)(int)v;
    return u; /* f32, tf32 */
}

static double decode(const char *t, uint64_t u64)
{
    uint32_t u = (uint32_t)u64;
    if (strcmp(t, "f64") == 0) {
        double x;
        memcpy(&x, &u64, 8);
        return x;
    }
    if (strcmp(t, "s32") == 0)
        return (double)(int32_t)u;
    if (strcmp(t, "f16") == 0) {
        if ((u & 0x7fffu) == 0)
            return 0;
        uint32_t f = ((u & 0x8000u) << 16) | ((((u >> 10) & 0x1fu) + 112u) << 23) |
                     ((u & 0x3ffu) << 13);
        float x;
        memcpy(&x, &f, 4);
        return (double)x;
    }
    float x;
    memcpy(&x, &u, 4);
    return (double)x;
}

static double rnd_val(const char *t)
{
    if (strcmp(t, "s8") == 0)
        return (double)(rand() % 255 - 127);
    if (strcmp(t, "u8") == 0)
        return (double)(rand() % 256);
    if (strcmp(t, "s4") == 0)
        return (double)(rand() % 16 - 8);
    if (strcmp(t, "u4") == 0)
        return (double)(rand() % 16);
    if (strcmp(t, "b1") == 0)
        return (double)(rand() % 2);
    if (strcmp(t, "s32") == 0)
        return (double)(rand() % 200001 - 100000);
    return (double)(rand() % 13 - 6) / 2.0;
}

/* A matrix of rows x cols in memory: row-major or column-major, leading
   dimension ld elements of ebits bits (sub-byte ones from the low bits
   of a byte up). */
typedef struct mat {
    unsigned rows, cols, ld, ebits;
    int col;
    uint8_t *p;
    size_t bytes;
} mat;

static void mat_init(mat *x, unsigned rows, unsigned cols, const char *t,
                     int col)
{
    x->rows = rows;
    x->cols = cols;
    x->ebits = ebits(t);
    x->col = col;
    /* rows a multiple of 16 bytes (128 bits), padded by 32 bytes more */
    x->ld = (((col ? rows : cols) * x->ebits + 127) / 128 * 128 + 256) /
            x->ebits;
    x->bytes = (size_t)(col ? cols : rows) * x->ld * x->ebits / 8;
    x->p = calloc(1, x->bytes);
}

/* Bit offset of element (i, j). */
static size_t mat_bit(const mat *x, unsigned i, unsigned j)
{
    return ((size_t)(x->col ? j : i) * x->ld + (x->col ? i : j)) * x->ebits;
}

static void mat_set(mat *x, unsigned i, unsigned j, uint64_t v)
{
    size_t b = mat_bit(x, i, j);
    if (x->ebits >= 8) {
        memcpy(x->p + b / 8, &v, x->ebits / 8); /* little-endian host */
        return;
    }
    unsigned mask = (1u << x->ebits) - 1, sh = (unsigned)(b % 8);
    x->p[b / 8] = (uint8_t)((x->p[b / 8] & ~(mask << sh)) | (v & mask) << sh);
}

static uint64_t mat_get(const mat *x, unsigned i, unsigned j)
{
    uint64_t v = 0;
    memcpy(&v, x->p + mat_bit(x, i, j) / 8, x->ebits / 8);
    return v;
}

/* "{%r<first>, ..., %r<first + n - 1>}" (f64: %fd) */
static void regs(char *out, size_t cap, unsigned first, unsigned n, int f64)
{
    size_t k = (size_t)snprintf(out, cap, "{");
    for (unsigned i = 0; i < n; i++)
        k += (size_t)snprintf(out + k, cap - k, "%s%%%s%u", i ? ", " : "",
                              f64 ? "fd" : "r", first + i);
    snprintf(out + k, cap - k, "}");
}

static void one(const form *f, int acol, int bcol, int ccol, int dcol)
{
    unsigned na = nregs(f->at, f->m, f->k, 1), nb = nregs(f->bt, f->k, f->n, 1);
    unsigned nc = nregs(f->ct, f->m, f->n, 0), nd = nregs(f->dt, f->m, f->n, 0);
    mat A, B, C, D;
    mat_init(&A, f->m, f->k, f->at, acol);
    mat_init(&B, f->k, f->n, f->bt, bcol);
    mat_init(&C, f->m, f->n, f->ct, ccol);
    mat_init(&D, f->m, f->n, f->dt, dcol);
    static double a[32][128], b[128][32], c[32][32];
    for (unsigned i = 0; i < f->m; i++)
        for (unsigned k = 0; k < f->k; k++)
            mat_set(&A, i, k, encode(f->at, a[i][k] = rnd_val(f->at)));
    for (unsigned k = 0; k < f->k; k++)
        for (unsigned j = 0; j < f->n; j++)
            mat_set(&B, k, j, encode(f->bt, b[k][j] = rnd_val(f->bt)));
    for (unsigned i = 0; i < f->m; i++)
        for (unsigned j = 0; j < f->n; j++)
            mat_set(&C, i, j, encode(f->ct, c[i][j] = rnd_val(f->ct)));
    int f16 = strcmp(f->at, "f16") == 0, f64 = strcmp(f->at, "f64") == 0;
    char ra[128], rb[128], rc[128], rd[128], mtypes[64], mma[32], src[4096];
    regs(ra, sizeof ra, 0, na, f64);
    regs(rb, sizeof rb, 10, nb, f64);
    regs(rc, sizeof rc, 20, nc, f64);
    regs(rd, sizeof rd, 30, nd, f64);
    if (f16)
        snprintf(mtypes, sizeof mtypes, "%s.%s", f->dt, f->ct);
    else /* f64: with the rounding nvcc writes */
        snprintf(mtypes, sizeof mtypes, "%s.%s.%s.%s%s", f->dt, f->at, f->bt,
                 f->ct, f64 ? ".rn" : "");
    snprintf(mma, sizeof mma, "mma%s%s%s", f->op ? "." : "",
             f->op ? f->op : "", f->op ? ".popc" : "");
    static const char *const lay[2] = {"row", "col"};
    snprintf(src, sizeof src,
             ".version 7.8\n.target sm_80\n.address_size 64\n"
             ".visible .entry k(.param .u64 pd, .param .u64 pa, "
             ".param .u64 pb, .param .u64 pc)\n{\n"
             ".reg .b32 %%r<40>;\n.reg .b64 %%rd<8>;\n.reg .f64 %%fd<40>;\n"
             "ld.param.u64 %%rd0, [pd];\nld.param.u64 %%rd1, [pa];\n"
             "ld.param.u64 %%rd2, [pb];\nld.param.u64 %%rd3, [pc];\n"
             "wmma.load.a.sync.aligned.%s.%s.global.%s %s, [%%rd1], %u;\n"
             "wmma.load.b.sync.aligned.%s.%s.global.%s %s, [%%rd2], %u;\n"
             "wmma.load.c.sync.aligned.%s.%s.global.%s %s, [%%rd3], %u;\n"
             "wmma.%s.sync.aligned.%s.%s.%s.%s %s, %s, %s, %s;\n"
             "wmma.store.d.sync.aligned.%s.%s.global.%s [%%rd0], %s, %u;\n"
             "ret;\n}\n",
             lay[acol], f->shape, f->at, ra, A.ld, lay[bcol], f->shape, f->bt,
             rb, B.ld, lay[ccol], f->shape, f->ct, rc, C.ld, mma, lay[acol],
             lay[bcol], f->shape, mtypes, rd, ra, rb, rc, lay[dcol], f->shape,
             f->dt, rd, D.ld);
    wm_ptx_module *m = pi_parse(src, "wmma.ptx");
    CHECK(m != NULL);
    if (m) {
        pi_launch l = pi_dims(1, 32);
        pi_buf(&l, D.p, D.bytes);
        pi_buf(&l, A.p, A.bytes);
        pi_buf(&l, B.p, B.bytes);
        pi_buf(&l, C.p, C.bytes);
        CHECK_EQ(pi_run(m, "k", &l, NULL), WM_OK);
        int bad = 0;
        for (unsigned i = 0; i < f->m; i++)
            for (unsigned j = 0; j < f->n; j++) {
                double s = c[i][j];
                for (unsigned k = 0; k < f->k; k++) /* b1: popc(a op b) */
                    s += !f->op ? a[i][k] * b[k][j]
                         : f->op[0] == 'x' ? (double)(a[i][k] != b[k][j])
                                           : a[i][k] * b[k][j];
                bad += decode(f->dt, mat_get(&D, i, j)) != s;
            }
        if (bad)
            fprintf(stderr, "  %s %s.%s.%s: %d of %u wrong (layouts %d%d%d%d)\n",
                    f->shape, f->at, f->ct, f->dt, bad, f->m * f->n, acol,
                    bcol, ccol, dcol);
        CHECK_EQ(bad, 0);
        wm_ptx_free(m);
    }
    free(A.p);
    free(B.p);
    free(C.p);
    free(D.p);
}

/* The shared requests and wavefronts of one wmma load or store `insn`
   (its address %r9, the start of 2 KiB of shared memory). */
static void shared_case(const char *insn, uint64_t want_requests,
                        uint64_t want_ideal, uint64_t want_wavefronts)
{
    char src[1024];
    snprintf(src, sizeof src,
             ".version 7.8\n.target sm_80\n.address_size 64\n"
             ".visible .entry k(.param .u64 p)\n{\n"
             ".reg .b32 %%r<20>;\n.reg .b64 %%rd<4>;\n.reg .f64 %%fd<4>;\n"
             ".shared .align 32 .b8 sm[2048];\n"
             "mov.u32 %%r9, sm;\n%s\nret;\n}\n",
             insn);
    wm_ptx_module *m = pi_parse(src, "bank.ptx");
    CHECK(m != NULL);
    if (!m)
        return;
    wm_arch arch;
    CHECK(wm_arch_parse("sm_80", &arch, NULL, 0) == WM_OK);
    wm_agg *g = wm_agg_new(&arch);
    uint32_t dummy = 0;
    pi_launch l = pi_dims(1, 32);
    pi_buf(&l, &dummy, sizeof dummy);
    CHECK_EQ(pi_run_agg(m, "k", &l, g, NULL), WM_OK);
    wm_stats s;
    memset(&s, 0, sizeof s);
    for (size_t i = 0; i < wm_agg_nsites(g); i++) {
        wm_site x;
        wm_agg_site(g, i, &x);
        if (x.space == WM_SPACE_SHARED &&
            (x.op == WM_OP_LD || x.op == WM_OP_ST)) {
            s.requests += x.stats.requests;
            s.wavefronts += x.stats.wavefronts;
            s.ideal_wavefronts += x.stats.ideal_wavefronts;
        }
    }
    CHECK_EQ(s.requests, want_requests);
    CHECK_EQ(s.ideal_wavefronts, want_ideal);
    CHECK_EQ(s.wavefronts, want_wavefronts);
    if (s.wavefronts != want_wavefronts)
        fprintf(stderr, "  %s\n", insn);
    wm_agg_free(g);
    wm_ptx_free(m);
}

/* The shared wavefronts of one m16n16k16 f16 A load with rows `stride`
   halves apart: four 8 x 16-byte blocks, one request each. */
static void bank_case(unsigned stride, uint64_t want_wavefronts)
{
    char insn[256];
    snprintf(insn, sizeof insn,
             "wmma.load.a.sync.aligned.row.m16n16k16.shared.f16 "
             "{%%r0, %%r1, %%r2, %%r3, %%r4, %%r5, %%r6, %%r7}, [%%r9], %u;",
             stride);
    shared_case(insn, 4, 4, want_wavefronts);
}

/* Run `body` (one warp, the buffers D, A, B, C in %rd0..%rd3) on the
   given buffers. */
static void run4(const char *body, void *d, size_t nd, void *a, size_t na,
                 void *b, size_t nb, void *c, size_t nc)
{
    char src[2048];
    snprintf(src, sizeof src,
             ".version 7.8\n.target sm_80\n.address_size 64\n"
             ".visible .entry k(.param .u64 pd, .param .u64 pa, "
             ".param .u64 pb, .param .u64 pc)\n{\n"
             ".reg .b32 %%r<40>;\n.reg .b64 %%rd<8>;\n.reg .f64 %%fd<8>;\n"
             "ld.param.u64 %%rd0, [pd];\nld.param.u64 %%rd1, [pa];\n"
             "ld.param.u64 %%rd2, [pb];\nld.param.u64 %%rd3, [pc];\n"
             "%s\nret;\n}\n",
             body);
    wm_ptx_module *m = pi_parse(src, "run4.ptx");
    CHECK(m != NULL);
    if (!m)
        return;
    pi_launch l = pi_dims(1, 32);
    pi_buf(&l, d, nd);
    pi_buf(&l, a, na);
    pi_buf(&l, b, nb);
    pi_buf(&l, c, nc);
    CHECK_EQ(pi_run(m, "k", &l, NULL), WM_OK);
    wm_ptx_free(m);
}

/* wmma.mma f64 with rounding rnd: A(0, 0) = 2^-30, B(0, 0) = B(0, 1) =
   2^-30, B(0, 2) = -2^-30, C(0, 0) = C(0, 2) = 1, C(0, 1) = -1, all else
   0 (row-major, 8x4, 4x8, 8x8): D(0, 0) = 1 + 2^-60, D(0, 1) = -1 +
   2^-60 and D(0, 2) = 1 - 2^-60 rounded. */
static void f64_round(const char *rnd, double want00, double want01,
                      double want02)
{
    static double A[32], B[32], C[64], D[64];
    memset(A, 0, sizeof A);
    memset(B, 0, sizeof B);
    memset(C, 0, sizeof C);
    A[0] = B[0] = B[1] = 0x1p-30;
    B[2] = -0x1p-30;
    C[0] = C[2] = 1.0;
    C[1] = -1.0;
    char body[1024];
    snprintf(body, sizeof body,
             "wmma.load.a.sync.aligned.row.m8n8k4.global.f64 {%%fd0}, [%%rd1], 4;\n"
             "wmma.load.b.sync.aligned.row.m8n8k4.global.f64 {%%fd1}, [%%rd2], 8;\n"
             "wmma.load.c.sync.aligned.row.m8n8k4.global.f64 {%%fd2, %%fd3}, [%%rd3], 8;\n"
             "wmma.mma.sync.aligned.row.row.m8n8k4.f64.f64.f64.f64.%s "
             "{%%fd4, %%fd5}, {%%fd0}, {%%fd1}, {%%fd2, %%fd3};\n"
             "wmma.store.d.sync.aligned.row.m8n8k4.global.f64 [%%rd0], {%%fd4, %%fd5}, 8;",
             rnd);
    run4(body, D, sizeof D, A, sizeof A, B, sizeof B, C, sizeof C);
    CHECK(D[0] == want00);
    CHECK(D[1] == want01);
    CHECK(D[2] == want02);
    CHECK(D[3] == 0.0);
    if (D[0] != want00 || D[1] != want01 || D[2] != want02)
        fprintf(stderr, "  .%s: got %a %a %a\n", rnd, D[0], D[1], D[2]);
}

/* m8n8k32 s4 with every A and B element -8 (nibbles 0x8): each D is
   C + 32 * 64 = C + 2048; from C = INT32_MAX - 2031 that is INT32_MAX +
   17, wrapped INT32_MIN + 16, with .satfinite INT32_MAX. */
static void sat_case(int sat, int32_t want)
{
    static uint8_t A[16 * 8], B[16 * 8];
    static int32_t C[64], D[64];
    memset(A, 0x88, sizeof A);
    memset(B, 0x88, sizeof B);
    for (int i = 0; i < 64; i++)
        C[i] = INT32_MAX - 2031;
    char body[1024];
    snprintf(body, sizeof body,
             "wmma.load.a.sync.aligned.row.m8n8k32.global.s4 {%%r0}, [%%rd1], 32;\n"
             "wmma.load.b.sync.aligned.col.m8n8k32.global.s4 {%%r1}, [%%rd2], 32;\n"
             "wmma.load.c.sync.aligned.row.m8n8k32.global.s32 {%%r2, %%r3}, [%%rd3], 8;\n"
             "wmma.mma.sync.aligned.row.col.m8n8k32.s32.s4.s4.s32%s "
             "{%%r4, %%r5}, {%%r0}, {%%r1}, {%%r2, %%r3};\n"
             "wmma.store.d.sync.aligned.row.m8n8k32.global.s32 [%%rd0], {%%r4, %%r5}, 8;",
             sat ? ".satfinite" : "");
    run4(body, D, sizeof D, A, sizeof A, B, sizeof B, C, sizeof C);
    CHECK_EQ(D[0], want);
    CHECK_EQ(D[63], want);
}

/* A kernel that must not parse, with a message containing `want`. */
static void parse_error(const char *insn, const char *want)
{
    char src[1024];
    snprintf(src, sizeof src,
             ".version 7.8\n.target sm_80\n.address_size 64\n"
             ".visible .entry k(.param .u64 p)\n{\n"
             ".reg .b32 %%r<40>;\n.reg .b64 %%rd<4>;\n%s\nret;\n}\n",
             insn);
    wm_ptx_module *m = NULL;
    wm_diag d;
    CHECK(wm_ptx_parse(src, strlen(src), "bad.ptx", &m, &d) != WM_OK);
    CHECK(strstr(d.msg, want) != NULL);
    if (!strstr(d.msg, want))
        fprintf(stderr, "  got: %s\n", d.msg);
    wm_ptx_free(m);
}

/* A kernel that must fault with a message containing `want`. */
static void fault_case(const char *body, unsigned threads, const char *want)
{
    char src[2048];
    snprintf(src, sizeof src,
             ".version 7.8\n.target sm_80\n.address_size 64\n"
             ".visible .entry k(.param .u64 p)\n{\n"
             ".reg .b32 %%r<40>;\n.reg .b64 %%rd<4>;\n"
             "ld.param.u64 %%rd1, [p];\n%s\nret;\n}\n",
             body);
    wm_ptx_module *m = pi_parse(src, "fault.ptx");
    CHECK(m != NULL);
    if (!m)
        return;
    static uint8_t buf[4096];
    pi_launch l = pi_dims(1, threads);
    pi_buf(&l, buf, sizeof buf);
    wm_ptx_fault ft;
    CHECK(pi_run(m, "k", &l, &ft) != WM_OK);
    CHECK(strstr(ft.msg, want) != NULL);
    if (!strstr(ft.msg, want))
        fprintf(stderr, "  %s\n  got: %s\n", body, ft.msg);
    wm_ptx_free(m);
}

int main(void)
{
    srand(26);
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        for (int lay = 0; lay < 4; lay++) {
            int sub = ebits(forms[i].at) < 8; /* A row, B col only */
            int acol = sub ? 0 : lay & 1, bcol = sub ? 1 : lay >> 1;
            one(&forms[i], acol, bcol, lay == 1 || lay == 2, lay >= 2);
        }
    /* rows 32 bytes apart: rows g and g + 4 of a block share banks
       (8 g mod 32), 2 wavefronts a request; 48 bytes apart: none */
    bank_case(16, 8);
    bank_case(24, 4);
    /* rows 64 bytes apart: banks 16 g mod 32, 4-way */
    bank_case(32, 16);
    /* f64 A, rows 32 bytes apart: lane (g, t) = (l / 4, l % 4) reads the 8
       bytes at 32 g + 8 t, 256 contiguous bytes: one request, 2
       wavefronts */
    shared_case("wmma.load.a.sync.aligned.row.m8n8k4.shared.f64 {%fd0}, "
                "[%r9], 4;", 1, 2, 2);
    /* f64 C, rows 64 bytes apart: two requests (c0, c1), lane (g, t) at
       64 g + 16 t (+ 8); 8-byte accesses go in half-warp phases (lanes
       0-15: rows 0..3), where rows g and g + 2 share banks: 2 wavefronts a
       phase, 4 a request */
    shared_case("wmma.load.c.sync.aligned.row.m8n8k4.shared.f64 "
                "{%fd0, %fd1}, [%r9], 8;", 2, 4, 8);
    /* s4 A and b1 B, 16-byte rows: 4 bytes a lane, 128 contiguous */
    shared_case("wmma.load.a.sync.aligned.row.m8n8k32.shared.s4 {%r0}, "
                "[%r9], 32;", 1, 1, 1);
    shared_case("wmma.load.b.sync.aligned.col.m8n8k128.shared.b1 {%r0}, "
                "[%r9], 128;", 1, 1, 1);
    /* s32 D stored column-major, columns 32 bytes apart: one request per
       element, lane (g, t) element (g, 2t + p) at 32 (2t + p) + 4 g:
       banks 16 t + 8 p + g mod 32, columns t and t + 2 collide */
    shared_case("wmma.store.d.sync.aligned.col.m8n8k32.shared.s32 [%r9], "
                "{%r0, %r1}, 8;", 2, 2, 4);
    const char *ld8 = "wmma.load.a.sync.aligned.row.m16n16k16.global.f16 "
                      "{%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, [%rd1], 16;";
    fault_case(ld8, 16, "needs all 32 lanes");
    fault_case("wmma.load.a.sync.aligned.row.m16n16k16.global.f16 "
               "{%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, [%rd1], 12;",
               32, "multiples of 16 bytes");
    fault_case("wmma.load.a.sync.aligned.row.m16n16k16.global.f16 "
               "{%r0, %r1, %r2, %r3}, [%rd1], 16;",
               32, "fragment is 8 registers, got 4");
    fault_case("wmma.load.a.sync.aligned.row.m16n16k16.global.f16 "
               "{%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, [%rd1], 1024;",
               32, "out-of-bounds");
    /* the ISA's sub-byte and single-bit forms: A row, B col only */
    fault_case("wmma.load.a.sync.aligned.col.m8n8k32.global.s4 "
               "{%r0}, [%rd1], 32;",
               32, "m8n8k32 takes A row-major and B column-major only");
    fault_case("wmma.load.b.sync.aligned.row.m8n8k128.global.b1 "
               "{%r0}, [%rd1], 128;",
               32, "m8n8k128 takes A row-major and B column-major only");
    fault_case("wmma.mma.xor.popc.sync.aligned.row.row.m8n8k128.s32.b1.b1.s32 "
               "{%r0, %r1}, {%r2}, {%r3}, {%r4, %r5};",
               32, "m8n8k128 takes A row-major and B column-major only");
    /* b1 needs .xor.popc or .and.popc; f64 holds no other type */
    fault_case("wmma.mma.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32 "
               "{%r0, %r1}, {%r2}, {%r3}, {%r4, %r5};",
               32, "unsupported wmma shape or types");
    fault_case("wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f32 "
               "{%rd0, %rd1}, {%rd2}, {%rd3}, {%rd0, %rd1};",
               32, "unsupported instruction");
    fault_case("wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64.rni "
               "{%rd0, %rd1}, {%rd2}, {%rd3}, {%rd0, %rd1};",
               32, "unsupported wmma shape or types");
    fault_case("wmma.mma.sync.aligned.row.col.m8n8k32.s32.s4.s8.s32 "
               "{%r0, %r1}, {%r2}, {%r3}, {%r4, %r5};",
               32, "unsupported wmma shape or types");
    fault_case("wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64.rn "
               "{%rd0}, {%rd2}, {%rd3}, {%rd0, %rd1};",
               32, "the D fragment is 2 registers, got 1");
    /* an f64 row of 12 bytes: not a multiple of 16 */
    fault_case("wmma.load.a.sync.aligned.row.m8n8k4.global.f64 "
               "{%rd2}, [%rd1], 3;",
               32, "multiples of 16 bytes");
    /* 1 + 2^-60, -1 + 2^-60, 1 - 2^-60, each one fma (doubles next to
       1: 1 + 2^-52 above, 1 - 2^-53 below) */
    f64_round("rn", 1.0, -1.0, 1.0);
    f64_round("rz", 1.0, -(1.0 - 0x1p-53), 1.0 - 0x1p-53);
    f64_round("rm", 1.0, -1.0, 1.0 - 0x1p-53);
    f64_round("rp", 1.0 + 0x1p-52, -(1.0 - 0x1p-53), 1.0);
    sat_case(0, INT32_MIN + 16);
    sat_case(1, INT32_MAX);
    parse_error("wmma.store.d.sync.aligned.row.m16n16k16.global.f32 %rd1, "
                "{%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, 16;",
                "expected an address operand in brackets");
    parse_error("wmma.load.c.sync.aligned.row.m16n16k16.global.f32 "
                "{%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7};",
                "needs 2 or 3 operands, got 1");
    return check_done("test_ptx_wmma");
}
