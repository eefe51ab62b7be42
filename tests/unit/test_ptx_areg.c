/*
 * test_ptx_areg.c -- the uniform and lane-affine registers
 * (src/ptx/run/ptx_areg.h, ptx_exec_areg.h) against the plain per-lane
 * interpreter: random straight-line kernels over %tid.x, %laneid, %ctaid.x
 * and parameters (values at the edges of 32 and 64 bits, so that lanes
 * wrap and cross the sign), built from the instructions the tracking runs
 * on two numbers (mov, add, sub, mul.lo, mul.wide, mad, shl, integer cvt,
 * cvta, setp with every compare, predicate logic, selp) mixed with ones it
 * does not (and, shr, rem) and with f32 arithmetic (which ar_run runs on
 * plain lanes), some guarded or inside a divergent branch.
 * Every register is stored at the end; ptx_twin.h runs each launch with
 * every fast path off and on and requires identical bytes and counts.
 * Then hand cases: a compare's threshold lane, a widening that crosses
 * the sign, an address that is lane-affine in a loop.
 */
#include "check.h"
#include "ptx_inline.h"
#include "ptx_twin.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum { NR = 12, ND = 10, NP = 6, NF = 4, NSLOT = NR + ND + NP + NF,
       MAXSRC = 16384 };

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static unsigned pick(unsigned n)
{
    return (unsigned)(rnd() % n);
}

/* Values at the edges: lanes that wrap, cross the sign, reach 2^63. */
static uint64_t edge(void)
{
    static const uint64_t v[] = {0,          1,          2,
                                 31,         32,         0x7fffffe0,
                                 0x7fffffff, 0x80000000, 0xffffffe0,
                                 0xffffffff, 0xfffffff0, 0x100000000ull,
                                 0x7fffffffffffffe0ull, 0x8000000000000000ull,
                                 0xffffffffffffffffull};
    switch (pick(4)) {
    case 0: return v[pick(sizeof v / sizeof v[0])];
    case 1: return rnd();
    case 2: return rnd() & 0xffffffffu;
    default: return (uint64_t)(int64_t)(int32_t)(pick(200) - 100);
    }
}

typedef struct gen {
    char s[MAXSRC];
    size_t n;
    unsigned skips;
} gen;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void emit(gen *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(g->s + g->n, sizeof g->s - g->n, fmt, ap);
    va_end(ap);
    if (k > 0 && g->n + (size_t)k < sizeof g->s)
        g->n += (size_t)k;
}

/* A 32-bit source: a register or an immediate. */
static void src32(char *b, size_t n)
{
    if (pick(3))
        snprintf(b, n, "%%r%u", pick(NR));
    else
        snprintf(b, n, "%lld", (long long)(int32_t)(uint32_t)edge());
}

static void src64(char *b, size_t n)
{
    if (pick(3))
        snprintf(b, n, "%%rd%u", pick(ND));
    else
        snprintf(b, n, "%lld", (long long)(int64_t)edge());
}

static const char *const cmps[] = {"eq", "ne", "lt", "le", "gt", "ge",
                                   "lo", "ls", "hi", "hs"};
static const char *const ityp[] = {"s32", "u32", "s64", "u64"};

/* One random instruction (the operands' registers all initialised). */
static void one(gen *g)
{
    char a[48], b[48], c[48];
    unsigned r = pick(NR), d = pick(ND), p = pick(NP);
    if (!pick(6)) /* guarded: some lanes only */
        emit(g, "  @%s%%p%u ", pick(2) ? "" : "!", pick(NP));
    else
        emit(g, "  ");
    src32(a, sizeof a);
    src32(b, sizeof b);
    src64(c, sizeof c);
    switch (pick(18)) {
    case 0: emit(g, "%s.%s %%r%u, %%r%u, %s;\n", pick(2) ? "add" : "sub",
                 ityp[pick(2)], r, pick(NR), b); break;
    case 1: emit(g, "%s.%s %%rd%u, %%rd%u, %s;\n", pick(2) ? "add" : "sub",
                 ityp[2 + pick(2)], d, pick(ND), c); break;
    case 2: emit(g, "mul.lo.%s %%r%u, %%r%u, %s;\n", ityp[pick(2)], r,
                 pick(NR), b); break;
    case 3: emit(g, "mul.lo.s64 %%rd%u, %%rd%u, %s;\n", d, pick(ND), c); break;
    case 4: emit(g, "mul.wide.%s %%rd%u, %%r%u, %s;\n", ityp[pick(2)], d,
                 pick(NR), b); break;
    case 5: emit(g, "mad.lo.s32 %%r%u, %%r%u, %s, %s;\n", r, pick(NR), b, a);
        break;
    case 6: emit(g, "mad.wide.%s %%rd%u, %%r%u, %s, %%rd%u;\n", ityp[pick(2)],
                 d, pick(NR), b, pick(ND)); break;
    case 7:
        if (pick(2))
            emit(g, "shl.b32 %%r%u, %%r%u, %u;\n", r, pick(NR), pick(40));
        else
            emit(g, "shl.b64 %%rd%u, %%rd%u, %u;\n", d, pick(ND), pick(70));
        break;
    case 8:
        if (pick(2))
            emit(g, "cvt.%s64.%s32 %%rd%u, %%r%u;\n", pick(2) ? "s" : "u",
                 pick(2) ? "s" : "u", d, pick(NR));
        else
            emit(g, "cvt.%s32.%s64 %%r%u, %%rd%u;\n", pick(2) ? "s" : "u",
                 pick(2) ? "s" : "u", r, pick(ND));
        break;
    case 9:
        if (pick(2))
            emit(g, "cvta.to.global.u64 %%rd%u, %%rd%u;\n", d, pick(ND));
        else
            emit(g, "cvta.shared.u64 %%rd%u, %%rd%u;\n", d, pick(ND));
        break;
    case 10: {
        unsigned t = pick(4);
        char x[48], y[48];
        if (t < 2) {
            snprintf(x, sizeof x, "%%r%u", pick(NR));
            src32(y, sizeof y);
        } else {
            snprintf(x, sizeof x, "%%rd%u", pick(ND));
            src64(y, sizeof y);
        }
        if (pick(3))
            emit(g, "setp.%s.%s %%p%u, %s, %s;\n", cmps[pick(10)], ityp[t], p,
                 x, y);
        else
            emit(g, "setp.%s.%s %%p%u|%%p%u, %s, %s;\n", cmps[pick(10)],
                 ityp[t], p, pick(NP), x, y);
        break;
    }
    case 11:
        if (pick(4))
            emit(g, "%s.pred %%p%u, %%p%u, %%p%u;\n",
                 pick(3) == 0 ? "and" : pick(2) ? "or" : "xor", p, pick(NP),
                 pick(NP));
        else
            emit(g, "not.pred %%p%u, %%p%u;\n", p, pick(NP));
        break;
    case 12:
        if (pick(2))
            emit(g, "selp.b32 %%r%u, %%r%u, %s, %%p%u;\n", r, pick(NR), b,
                 pick(NP));
        else
            emit(g, "selp.b64 %%rd%u, %%rd%u, %s, %%p%u;\n", d, pick(ND), c,
                 pick(NP));
        break;
    case 13:
        if (pick(2))
            emit(g, "mov.u32 %%r%u, %s;\n", r, b);
        else
            emit(g, "mov.b64 %%rd%u, %s;\n", d, c);
        break;
    case 14: /* not lane-affine in general */
        emit(g, "%s.b32 %%r%u, %%r%u, %s;\n", pick(2) ? "and" : "xor", r,
             pick(NR), b);
        break;
    case 15: emit(g, "shr.%s %%r%u, %%r%u, %u;\n", ityp[pick(2)], r, pick(NR),
                  pick(34)); break;
    case 16:
        emit(g, "rem.u32 %%r%u, %%r%u, %u;\n", r, pick(NR), 1 + pick(50));
        break;
    default: { /* f32 arithmetic, which ar_run runs on plain lanes */
        static const char *const fop[] = {"add", "sub", "mul"};
        unsigned f = pick(NF), x = pick(NF), y = pick(NF), z = pick(NF);
        if (pick(4))
            emit(g, "%s.f32 %%f%u, %%f%u, %%f%u;\n", fop[pick(3)], f, x, y);
        else
            emit(g, "fma.rn.f32 %%f%u, %%f%u, %%f%u, %%f%u;\n", f, x, y, z);
        break;
    }
    }
}

/* A kernel: registers from %tid.x, %laneid, %ctaid.x, four parameters and
   immediates; nops instructions, some in divergent branches; every
   register stored to out[thread * NSLOT + k] (8 bytes each). */
static void kernel(gen *g, unsigned nops)
{
    g->n = 0;
    g->skips = 0;
    emit(g, ".version 8.0\n.target sm_80\n.address_size 64\n"
            ".visible .entry k(.param .u64 out, .param .u32 u0, "
            ".param .u32 u1, .param .u64 w0, .param .u64 w1)\n{\n"
            "  .reg .b32 %%r<%u>; .reg .b64 %%rd<%u>; .reg .pred %%p<%u>;\n"
            "  .reg .f32 %%f<%u>; .reg .b32 %%e<4>; .reg .b64 %%ed<4>;\n",
         NR, ND, NP, NF);
    emit(g, "  mov.u32 %%r0, %%tid.x;\n  mov.u32 %%r1, %%laneid;\n"
            "  mov.u32 %%r2, %%ctaid.x;\n  ld.param.u32 %%r3, [u0];\n"
            "  ld.param.u32 %%r4, [u1];\n  ld.param.u64 %%rd0, [w0];\n"
            "  ld.param.u64 %%rd1, [w1];\n  cvt.u64.u32 %%rd2, %%r0;\n");
    for (unsigned k = 5; k < NR; k++)
        emit(g, "  mad.lo.s32 %%r%u, %%r%u, %lld, %%r%u;\n", k, pick(3),
             (long long)(int32_t)(uint32_t)edge(), 3 + pick(2));
    for (unsigned k = 3; k < ND; k++)
        emit(g, "  mad.wide.s32 %%rd%u, %%r%u, %lld, %%rd%u;\n", k, pick(3),
             (long long)(int32_t)(uint32_t)edge(), pick(2));
    for (unsigned k = 0; k < NP; k++)
        emit(g, "  setp.%s.s32 %%p%u, %%r%u, %u;\n", cmps[pick(10)], k,
             pick(NR), pick(64));
    for (unsigned k = 0; k < NF; k++)
        emit(g, "  cvt.rn.f32.s32 %%f%u, %%r%u;\n", k, pick(NR));
    for (unsigned i = 0; i < nops; i++) {
        if (!pick(12)) { /* a divergent branch over a few instructions */
            unsigned s = g->skips++;
            emit(g, "  @%%p%u bra SKIP%u;\n", pick(NP), s);
            for (unsigned j = 1 + pick(3); j > 0; j--)
                one(g);
            emit(g, "SKIP%u:\n", s);
        } else {
            one(g);
        }
    }
    emit(g, "  ld.param.u64 %%ed0, [out];\n  cvta.to.global.u64 %%ed0, "
            "%%ed0;\n  mov.u32 %%e0, %%ctaid.x;\n  mov.u32 %%e1, %%ntid.x;\n"
            "  mad.lo.s32 %%e0, %%e0, %%e1, %%tid.x;\n"
            "  mul.wide.u32 %%ed1, %%e0, %u;\n  add.s64 %%ed0, %%ed0, "
            "%%ed1;\n", NSLOT * 8);
    for (unsigned k = 0; k < NR; k++)
        emit(g, "  st.global.u32 [%%ed0+%u], %%r%u;\n", k * 8, k);
    for (unsigned k = 0; k < ND; k++)
        emit(g, "  st.global.u64 [%%ed0+%u], %%rd%u;\n", (NR + k) * 8, k);
    for (unsigned k = 0; k < NP; k++)
        emit(g, "  selp.u32 %%e2, 1, 0, %%p%u;\n  st.global.u32 [%%ed0+%u], "
                "%%e2;\n", k, (NR + ND + k) * 8);
    for (unsigned k = 0; k < NF; k++)
        emit(g, "  st.global.f32 [%%ed0+%u], %%f%u;\n", (NR + ND + NP + k) * 8,
             k);
    emit(g, "  ret;\n}\n");
}

static void add_u64(pi_launch *l, uint64_t v)
{
    wm_ptx_arg *a = &l->args[l->nargs++];
    memset(a, 0, sizeof *a);
    a->scalar = v;
    a->size = 8;
}

/* Random kernels, each launched over several block widths (whole warps,
   and a partial last warp whose registers stay plain). */
static void random_kernels(unsigned n)
{
    static const unsigned blocks[] = {32, 64, 96, 48};
    static uint64_t out[2 * 96 * NSLOT];
    gen *g = malloc(sizeof *g);
    CHECK(g != NULL);
    for (unsigned i = 0; g && i < n; i++) {
        kernel(g, 20 + pick(40));
        wm_ptx_module *m = pi_parse(g->s, "areg.ptx");
        CHECK(m != NULL);
        if (!m) {
            fputs(g->s, stderr);
            break;
        }
        unsigned bx = blocks[i % 4];
        memset(out, 0xa5, sizeof out);
        pi_launch l = pi_dims(2, bx);
        pi_buf(&l, out, (size_t)2 * bx * NSLOT * 8);
        pi_u32(&l, (uint32_t)edge());
        pi_u32(&l, (uint32_t)edge());
        add_u64(&l, edge());
        add_u64(&l, edge());
        wm_ptx_fault ft;
        int before = check_failures;
        CHECK_EQ(pi_run(m, "k", &l, &ft), WM_OK);
        if (check_failures != before)
            fprintf(stderr, "kernel %u (block %u):\n%s", i, bx, g->s);
        wm_ptx_free(m);
        if (check_failures > before + 20)
            break;
    }
    free(g);
}

/* A compare against a lane-affine value flips at one lane: lane l of
   out holds l >= t (signed, across the sign boundary too). */
static void threshold(void)
{
    static const char src[] =
        ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".visible .entry k(.param .u64 out, .param .u32 base, "
        ".param .u32 t)\n{\n  .reg .b32 %r<8>; .reg .b64 %rd<4>; "
        ".reg .pred %p<2>;\n"
        "  ld.param.u64 %rd1, [out]; ld.param.u32 %r1, [base];\n"
        "  ld.param.u32 %r2, [t]; mov.u32 %r3, %tid.x;\n"
        "  add.s32 %r4, %r3, %r1;\n  setp.ge.s32 %p1, %r4, %r2;\n"
        "  selp.u32 %r5, 1, 0, %p1;\n  mul.wide.u32 %rd2, %r3, 4;\n"
        "  add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r5;\n"
        "  ret;\n}\n";
    wm_ptx_module *m = pi_parse(src, "threshold.ptx");
    CHECK(m != NULL);
    static const int32_t bases[] = {0, -16, 2147483632, -2147483647 - 1};
    for (size_t i = 0; m && i < 4; i++)
        for (int32_t t = -3; t < 36; t += 3) {
            uint32_t out[32];
            int32_t tt = (int32_t)((uint32_t)bases[i] + (uint32_t)t);
            pi_launch l = pi_dims(1, 32);
            pi_buf(&l, out, sizeof out);
            pi_u32(&l, (uint32_t)bases[i]);
            pi_u32(&l, (uint32_t)tt);
            CHECK_EQ(pi_run(m, "k", &l, NULL), WM_OK);
            for (unsigned k = 0; k < 32; k++) {
                /* lane k's value wraps past INT32_MAX for the third base */
                int32_t v = (int32_t)((uint32_t)bases[i] + k);
                CHECK_EQ(out[k], v >= tt ? 1u : 0u);
            }
        }
    wm_ptx_free(m);
}

/* Widening a lane-affine 32-bit value whose lanes end exactly at, or one
   past, the sign and the 2^32 boundaries: lane l of x = base + l * step
   (32-bit), out holds cvt.s64.s32 x, cvt.u64.u32 x, mul.wide.s32 x by 8
   and mul.wide.u32 x by 8, against C. */
static void widen(void)
{
    static const char src[] =
        ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".visible .entry k(.param .u64 out, .param .u32 base, "
        ".param .u32 step)\n{\n  .reg .b32 %r<6>; .reg .b64 %rd<10>;\n"
        "  ld.param.u64 %rd1, [out]; ld.param.u32 %r1, [base];\n"
        "  ld.param.u32 %r2, [step]; mov.u32 %r3, %tid.x;\n"
        "  mad.lo.s32 %r4, %r3, %r2, %r1;\n  cvt.s64.s32 %rd2, %r4;\n"
        "  cvt.u64.u32 %rd3, %r4;\n  mul.wide.s32 %rd4, %r4, 8;\n"
        "  mul.wide.u32 %rd5, %r4, 8;\n  mul.wide.u32 %rd6, %r3, 32;\n"
        "  add.s64 %rd7, %rd1, %rd6;\n  st.global.v2.u64 [%rd7], "
        "{%rd2, %rd3};\n  st.global.v2.u64 [%rd7+16], {%rd4, %rd5};\n"
        "  ret;\n}\n";
    static const uint32_t bases[] = {
        0x80000000u + 31, 0x80000000u + 30, 0x7fffffffu - 31, 0x7fffffffu - 30,
        31, 30, 0xffffffffu - 31, 0xffffffffu - 30, 0xfffffff0u};
    wm_ptx_module *m = pi_parse(src, "widen.ptx");
    CHECK(m != NULL);
    for (size_t i = 0; m && i < sizeof bases / sizeof bases[0]; i++)
        for (int sgn = 0; sgn < 2; sgn++) {
            uint32_t step = sgn ? 0xffffffffu : 1u, base = bases[i];
            uint64_t out[32 * 4];
            pi_launch l = pi_dims(1, 32);
            pi_buf(&l, out, sizeof out);
            pi_u32(&l, base);
            pi_u32(&l, step);
            CHECK_EQ(pi_run(m, "k", &l, NULL), WM_OK);
            for (unsigned k = 0; k < 32; k++) {
                uint32_t x = base + k * step;
                CHECK_EQ(out[4 * k], (uint64_t)(int64_t)(int32_t)x);
                CHECK_EQ(out[4 * k + 1], (uint64_t)x);
                CHECK_EQ(out[4 * k + 2], (uint64_t)((int64_t)(int32_t)x * 8));
                CHECK_EQ(out[4 * k + 3], (uint64_t)x * 8);
            }
        }
    wm_ptx_free(m);
}

/* A loop whose address steps by a uniform amount: out[i] = in[i] + k for
   a row of 32 floats per trip, 8 trips, statistics as the plain path's
   (ptx_twin.h) and by hand: every access one 128-byte request of 4
   sectors. */
static void loop_rows(void)
{
    static const char src[] =
        ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
        "  .reg .b32 %r<6>; .reg .b64 %rd<8>; .reg .pred %p<2>; "
        ".reg .f32 %f<3>;\n  ld.param.u64 %rd1, [out]; "
        "ld.param.u64 %rd2, [in];\n  cvta.to.global.u64 %rd1, %rd1;\n"
        "  cvta.to.global.u64 %rd2, %rd2;\n  mov.u32 %r1, %tid.x;\n"
        "  mov.u32 %r2, 0;\nLOOP:\n  mad.lo.s32 %r3, %r2, 32, %r1;\n"
        "  mul.wide.u32 %rd3, %r3, 4;\n  add.s64 %rd4, %rd2, %rd3;\n"
        "  add.s64 %rd5, %rd1, %rd3;\n  ld.global.f32 %f1, [%rd4];\n"
        "  cvt.rn.f32.u32 %f2, %r2;\n  add.f32 %f1, %f1, %f2;\n"
        "  st.global.f32 [%rd5], %f1;\n  add.s32 %r2, %r2, 1;\n"
        "  setp.lt.u32 %p1, %r2, 8;\n  @%p1 bra LOOP;\n  ret;\n}\n";
    wm_ptx_module *m = pi_parse(src, "loop.ptx");
    CHECK(m != NULL);
    float in[256], out[256];
    for (int i = 0; i < 256; i++)
        in[i] = (float)i * 0.5f;
    pi_launch l = pi_dims(1, 32);
    pi_buf(&l, out, sizeof out);
    pi_buf(&l, in, sizeof in);
    wm_agg *g = wm_agg_new(wm_arch_default());
    CHECK(g != NULL);
    CHECK_EQ(m ? pi_run_agg(m, "k", &l, g, NULL) : WM_ERR_ARG, WM_OK);
    for (int i = 0; i < 256; i++)
        CHECK(out[i] == in[i] + (float)(i / 32));
    uint64_t req = 0, sec = 0, inst = 0;
    for (size_t i = 0; g && i < wm_agg_nsites(g); i++) {
        wm_site s;
        wm_agg_site(g, i, &s);
        inst += s.stats.inst;
        req += s.stats.requests;
        sec += s.stats.sectors;
    }
    CHECK_EQ(inst, 16); /* 8 loads, 8 stores */
    CHECK_EQ(req, 16);
    CHECK_EQ(sec, 64);
    wm_agg_free(g);
    wm_ptx_free(m);
}

/* Repeats of one lane-affine access (ptx_fastmem.c's fast_hot): a loop
   whose trips move rows of 1-, 2-, 4- and 8-byte elements (signed and
   not) by step elements, which is less than a line for some steps (the
   residues), broadcasts a signed byte from one address and stores one
   address from every lane (the last lane's value stays), a line apart
   from trip to trip, and reads and writes columns (signed 2-byte lanes
   62 bytes apart, 4-byte lanes 132 bytes apart) whose trips come back to
   the same four residues of a line.
   Where the trips run past the buffer's end (step
   16: a row whose last lanes alone lie past it, at a whole line from
   the first) the launch faults at the lane and instruction the plain
   path reports.  The twin runs check bytes, statistics and faults; the
   sums by hand. */
static void hot_rows(void)
{
    static const char src[] =
        ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".visible .entry k(.param .u64 out, .param .u64 in, .param .u32 n,"
        " .param .u32 step, .param .u64 col)\n{\n  .reg .b32 %r<16>; "
        ".reg .b64 %rd<20>; .reg .pred %p<2>;\n  ld.param.u64 %rd1, [out]; "
        "ld.param.u64 %rd2, [in];\n  ld.param.u32 %r1, [n]; "
        "ld.param.u32 %r2, [step];\n  ld.param.u64 %rd16, [col];\n"
        "  mov.u32 %r3, %tid.x; mov.u32 %r4, 0;\n"
        "LOOP:\n  and.b32 %r15, %r4, 3;\n  shr.u32 %r12, %r4, 2;\n"
        "  mad.lo.s32 %r15, %r12, 64, %r15;\n"
        "  mad.lo.s32 %r12, %r3, 31, %r15;\n"
        "  mul.wide.u32 %rd17, %r12, 2;\n  add.s64 %rd17, %rd2, %rd17;\n"
        "  ld.global.s16 %r13, [%rd17];\n  add.s32 %r13, %r13, %r4;\n"
        "  mad.lo.s32 %r14, %r3, 33, %r15;\n  mul.wide.u32 %rd18, %r14, 4;\n"
        "  add.s64 %rd18, %rd16, %rd18;\n  st.global.u32 [%rd18], %r13;\n"
        "  mad.lo.s32 %r5, %r4, %r2, %r3;\n"
        "  cvt.u64.u32 %rd3, %r5;\n  add.s64 %rd4, %rd2, %rd3;\n"
        "  ld.global.s8 %r6, [%rd4];\n  shl.b64 %rd5, %rd3, 1;\n"
        "  add.s64 %rd6, %rd2, %rd5;\n  ld.global.u16 %r7, [%rd6];\n"
        "  shl.b64 %rd7, %rd3, 2;\n  add.s64 %rd8, %rd2, %rd7;\n"
        "  ld.global.s32 %r8, [%rd8];\n  shl.b64 %rd9, %rd3, 3;\n"
        "  add.s64 %rd10, %rd2, %rd9;\n  ld.global.u64 %rd11, [%rd10];\n"
        "  mul.wide.u32 %rd12, %r4, 128;\n  add.s64 %rd13, %rd2, %rd12;\n"
        "  ld.global.s8 %r9, [%rd13];\n  add.s32 %r10, %r6, %r7;\n"
        "  add.s32 %r10, %r10, %r8;\n  add.s32 %r10, %r10, %r9;\n"
        "  cvt.u64.u32 %rd14, %r10;\n  add.s64 %rd14, %rd14, %rd11;\n"
        "  mad.lo.s32 %r11, %r4, 32, %r3;\n  mul.wide.u32 %rd15, %r11, 8;\n"
        "  add.s64 %rd15, %rd1, %rd15;\n  st.global.u64 [%rd15+4096], %rd14;\n"
        "  add.s64 %rd15, %rd1, %rd12;\n  st.global.u32 [%rd15], %r3;\n"
        "  add.s32 %r4, %r4, 1;\n  setp.lt.u32 %p1, %r4, %r1;\n"
        "  @%p1 bra LOOP;\n  ret;\n}\n";
    enum { NB = 4096, NT = 32 };
    static uint8_t in[NB];
    static uint64_t out[512 + 32 * NT];
    static uint32_t col[2048], want[2048];
    wm_ptx_module *m = pi_parse(src, "hot.ptx");
    CHECK(m != NULL);
    for (int i = 0; i < NB; i++)
        in[i] = (uint8_t)(i * 37 + 11);
    static const uint32_t steps[] = {32, 1, 3, 8, 64, 16};
    for (size_t i = 0; m && i < sizeof steps / sizeof steps[0]; i++) {
        uint32_t step = steps[i], n = NT;
        memset(out, 0, sizeof out);
        memset(col, 0, sizeof col);
        memset(want, 0, sizeof want);
        pi_launch l = pi_dims(1, 32);
        pi_buf(&l, out, sizeof out);
        pi_buf(&l, in, sizeof in);
        pi_u32(&l, n);
        pi_u32(&l, step);
        pi_buf(&l, col, sizeof col);
        wm_agg *g = wm_agg_new(wm_arch_default());
        wm_ptx_fault ft;
        /* the 8-byte row of the last trip ends at 8 (k step + 32) */
        int past = (uint64_t)8 * ((n - 1) * step + 32) > NB;
        wm_status st = pi_run_agg(m, "k", &l, g, &ft);
        CHECK_EQ(st, past ? WM_ERR_FAULT : WM_OK);
        for (uint32_t k = 0; st == WM_OK && k < n; k++) {
            CHECK_EQ(out[16 * k] & 0xffffffffu, 31);
            for (uint32_t t = 0; t < 32; t++) {
                uint32_t x = k * step + t, w32, w16;
                uint64_t w64;
                memcpy(&w16, in + 2 * x, 2);
                memcpy(&w32, in + 4 * x, 4);
                memcpy(&w64, in + 8 * x, 8);
                uint32_t bc = (uint32_t)(int32_t)(int8_t)in[128 * k];
                uint32_t sum = (uint32_t)(int32_t)(int8_t)in[x] +
                               (w16 & 0xffff) + w32 + bc;
                CHECK_EQ(out[512 + k * 32 + t], (uint64_t)sum + w64);
                /* the columns, trip after trip in lane order */
                uint32_t j = k % 4 + 64 * (k / 4);
                int16_t c31;
                memcpy(&c31, in + 2 * (t * 31 + j), 2);
                want[t * 33 + j] = (uint32_t)(c31 + (int32_t)k);
            }
        }
        if (st == WM_OK)
            CHECK(memcmp(col, want, sizeof col) == 0);
        wm_agg_free(g);
    }
    wm_ptx_free(m);
}

int main(void)
{
    wm_cache_config cc = twin_small_cache(); /* the model twin-checked too */
    twin_cache = &cc;
    hot_rows();
    random_kernels(600);
    threshold();
    widen();
    loop_rows();
    return check_done("test_ptx_areg");
}
