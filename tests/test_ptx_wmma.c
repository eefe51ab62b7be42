/*
 * test_ptx_wmma.c -- wmma.load / wmma.mma / wmma.store in the PTX
 * interpreter.  Every shape and type (m16n16k16, m32n8k16, m8n32k16 with
 * f16, bf16, s8, u8 inputs and f16 / f32 / s32 accumulators; m16n16k8
 * tf32), every pair of A and B layouts and both accumulator layouts run
 * load -> mma -> store on random matrices in padded global buffers, and D
 * must equal a CPU matmul exactly (the inputs are small multiples of 1/2,
 * so every f32 and f16 sum is exact).  Whatever the fragment layout, that
 * holds only if load, mma and store agree on it.  Then the layout's lane
 * addresses: an A fragment from shared memory with 32-byte rows has 2-way
 * bank conflicts, with 48-byte rows none; and the faults.  Every launch
 * also runs with the fast paths off (ptx_twin.h).
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
} form;

static const form forms[] = {
    {"m16n16k16", 16, 16, 16, "f16", "f16", "f32", "f32"},
    {"m16n16k16", 16, 16, 16, "f16", "f16", "f16", "f16"},
    {"m16n16k16", 16, 16, 16, "f16", "f16", "f32", "f16"},
    {"m32n8k16", 32, 8, 16, "f16", "f16", "f16", "f32"},
    {"m8n32k16", 8, 32, 16, "f16", "f16", "f32", "f32"},
    {"m16n16k16", 16, 16, 16, "bf16", "bf16", "f32", "f32"},
    {"m32n8k16", 32, 8, 16, "bf16", "bf16", "f32", "f32"},
    {"m8n32k16", 8, 32, 16, "bf16", "bf16", "f32", "f32"},
    {"m16n16k16", 16, 16, 16, "s8", "s8", "s32", "s32"},
    {"m32n8k16", 32, 8, 16, "u8", "s8", "s32", "s32"},
    {"m8n32k16", 8, 32, 16, "s8", "u8", "s32", "s32"},
    {"m16n16k16", 16, 16, 16, "u8", "u8", "s32", "s32"},
    {"m16n16k8", 16, 16, 8, "tf32", "tf32", "f32", "f32"},
};

static unsigned esz(const char *t)
{
    return t[1] == '8' ? 1 : strcmp(t, "f16") == 0 || strcmp(t, "bf16") == 0 ? 2 : 4;
}

/* Registers of a fragment: f16 A and B always 8, else 4 bytes each. */
static unsigned nregs(const char *t, unsigned rows, unsigned cols, int ab)
{
    if (ab && strcmp(t, "f16") == 0)
        return 8;
    return rows * cols * esz(t) / 128;
}

/* Exact encodings of small values (multiples of 1/2, |v| < 1024). */
static uint32_t f32_bits(double v)
{
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static uint32_t encode(const char *t, double v)
{
    uint32_t u = f32_bits(v);
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

static double decode(const char *t, uint32_t u)
{
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
    if (strcmp(t, "s32") == 0)
        return (double)(rand() % 200001 - 100000);
    return (double)(rand() % 13 - 6) / 2.0;
}

/* A matrix of rows x cols in memory: row-major or column-major, leading
   dimension ld elements. */
typedef struct mat {
    unsigned rows, cols, ld, esz;
    int col;
    uint8_t *p;
    size_t bytes;
} mat;

static void mat_init(mat *x, unsigned rows, unsigned cols, const char *t,
                     int col)
{
    x->rows = rows;
    x->cols = cols;
    x->esz = esz(t);
    x->col = col;
    /* rows a multiple of 16 bytes, padded by 32 more */
    x->ld = ((col ? rows : cols) * x->esz + 15) / 16 * 16 / x->esz +
            32 / x->esz;
    x->bytes = (size_t)(col ? cols : rows) * x->ld * x->esz;
    x->p = calloc(1, x->bytes);
}

static size_t mat_off(const mat *x, unsigned i, unsigned j)
{
    return ((size_t)(x->col ? j : i) * x->ld + (x->col ? i : j)) * x->esz;
}

static void mat_set(mat *x, unsigned i, unsigned j, uint32_t v)
{
    memcpy(x->p + mat_off(x, i, j), &v, x->esz);
}

static uint32_t mat_get(const mat *x, unsigned i, unsigned j)
{
    uint32_t v = 0;
    memcpy(&v, x->p + mat_off(x, i, j), x->esz);
    return v;
}

/* "{%r<first>, ..., %r<first + n - 1>}" */
static void regs(char *out, size_t cap, unsigned first, unsigned n)
{
    size_t k = (size_t)snprintf(out, cap, "{");
    for (unsigned i = 0; i < n; i++)
        k += (size_t)snprintf(out + k, cap - k, "%s%%r%u", i ? ", " : "",
                              first + i);
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
    double a[32][16], b[16][32], c[32][32];
    for (unsigned i = 0; i < f->m; i++)
        for (unsigned k = 0; k < f->k; k++)
            mat_set(&A, i, k, encode(f->at, a[i][k] = rnd_val(f->at)));
    for (unsigned k = 0; k < f->k; k++)
        for (unsigned j = 0; j < f->n; j++)
            mat_set(&B, k, j, encode(f->bt, b[k][j] = rnd_val(f->bt)));
    for (unsigned i = 0; i < f->m; i++)
        for (unsigned j = 0; j < f->n; j++)
            mat_set(&C, i, j, encode(f->ct, c[i][j] = rnd_val(f->ct)));
    int f16 = strcmp(f->at, "f16") == 0;
    char ra[128], rb[128], rc[128], rd[128], mtypes[64], src[4096];
    regs(ra, sizeof ra, 0, na);
    regs(rb, sizeof rb, 10, nb);
    regs(rc, sizeof rc, 20, nc);
    regs(rd, sizeof rd, 30, nd);
    if (f16)
        snprintf(mtypes, sizeof mtypes, "%s.%s", f->dt, f->ct);
    else
        snprintf(mtypes, sizeof mtypes, "%s.%s.%s.%s", f->dt, f->at, f->bt,
                 f->ct);
    static const char *const lay[2] = {"row", "col"};
    snprintf(src, sizeof src,
             ".version 7.8\n.target sm_80\n.address_size 64\n"
             ".visible .entry k(.param .u64 pd, .param .u64 pa, "
             ".param .u64 pb, .param .u64 pc)\n{\n"
             ".reg .b32 %%r<40>;\n.reg .b64 %%rd<8>;\n"
             "ld.param.u64 %%rd0, [pd];\nld.param.u64 %%rd1, [pa];\n"
             "ld.param.u64 %%rd2, [pb];\nld.param.u64 %%rd3, [pc];\n"
             "wmma.load.a.sync.aligned.%s.%s.global.%s %s, [%%rd1], %u;\n"
             "wmma.load.b.sync.aligned.%s.%s.global.%s %s, [%%rd2], %u;\n"
             "wmma.load.c.sync.aligned.%s.%s.global.%s %s, [%%rd3], %u;\n"
             "wmma.mma.sync.aligned.%s.%s.%s.%s %s, %s, %s, %s;\n"
             "wmma.store.d.sync.aligned.%s.%s.global.%s [%%rd0], %s, %u;\n"
             "ret;\n}\n",
             lay[acol], f->shape, f->at, ra, A.ld, lay[bcol], f->shape, f->bt,
             rb, B.ld, lay[ccol], f->shape, f->ct, rc, C.ld, lay[acol],
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
                for (unsigned k = 0; k < f->k; k++)
                    s += a[i][k] * b[k][j];
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

/* The shared wavefronts of one m16n16k16 f16 A load with rows `stride`
   halves apart: four 8 x 16-byte blocks, one request each. */
static void bank_case(unsigned stride, uint64_t want_wavefronts)
{
    char src[1024];
    snprintf(src, sizeof src,
             ".version 7.8\n.target sm_80\n.address_size 64\n"
             ".visible .entry k(.param .u64 p)\n{\n"
             ".reg .b32 %%r<20>;\n.reg .b64 %%rd<4>;\n"
             ".shared .align 32 .b8 sm[2048];\n"
             "mov.u32 %%r9, sm;\n"
             "wmma.load.a.sync.aligned.row.m16n16k16.shared.f16 "
             "{%%r0, %%r1, %%r2, %%r3, %%r4, %%r5, %%r6, %%r7}, [%%r9], %u;\n"
             "ret;\n}\n",
             stride);
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
        if (x.space == WM_SPACE_SHARED && x.op == WM_OP_LD) {
            s.requests += x.stats.requests;
            s.wavefronts += x.stats.wavefronts;
            s.ideal_wavefronts += x.stats.ideal_wavefronts;
        }
    }
    CHECK_EQ(s.requests, 4);
    CHECK_EQ(s.ideal_wavefronts, 4);
    CHECK_EQ(s.wavefronts, want_wavefronts);
    wm_agg_free(g);
    wm_ptx_free(m);
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
        fprintf(stderr, "  got: %s\n", ft.msg);
    wm_ptx_free(m);
}

int main(void)
{
    srand(26);
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        for (int lay = 0; lay < 4; lay++)
            one(&forms[i], lay & 1, lay >> 1, lay == 1 || lay == 2, lay >= 2);
    /* rows 32 bytes apart: rows g and g + 4 of a block share banks
       (8 g mod 32), 2 wavefronts a request; 48 bytes apart: none */
    bank_case(16, 8);
    bank_case(24, 4);
    /* rows 64 bytes apart: banks 16 g mod 32, 4-way */
    bank_case(32, 16);
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
    fault_case("wmma.load.a.sync.aligned.row.m8n8k4.global.f64 "
               "{%rd2}, [%rd1], 8;",
               32, "unsupported instruction");
    parse_error("wmma.store.d.sync.aligned.row.m16n16k16.global.f32 %rd1, "
                "{%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, 16;",
                "expected an address operand in brackets");
    parse_error("wmma.load.c.sync.aligned.row.m16n16k16.global.f32 "
                "{%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7};",
                "needs 2 or 3 operands, got 1");
    return check_done("test_ptx_wmma");
}
