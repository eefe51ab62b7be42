/*
 * test_ptx_fastmem.c -- the fast ld/st path (src/ptx/run/ptx_fastmem.c) against
 * the interpreter's checked path and against a CPU reference.
 *
 * Generated kernels move one scalar or .v2/.v4 element group per thread,
 * global -> global and global -> shared -> global, at byte offsets the
 * test chooses per lane (index arrays): consecutive lanes, one address
 * per warp or per half warp, half warps that repeat, continue, overlap or
 * lie apart, reversed, strided and random lanes (with colliding stores),
 * under full, partial and empty masks, with warps that repeat a pattern,
 * rotate patterns or move one by less than a line (the statistics' memo
 * keeps the counts of each such residue), in 1- to 8-byte element types
 * (signed ones sign-extend).  Every launch runs through twin_run
 * (tests/unit/ptx_twin.h: status, fault, statistics and bytes identical with
 * every fast path off) and its output is compared with the reference;
 * misaligned and out-of-bounds lanes must fault the same way on both
 * paths, inactive bad lanes must not fault at all.  Half of the
 * rotating runs go without statistics (no memo); every correct launch
 * runs once more with the fast path's baseline-ISA build
 * (WMI_RUN_BASE_ISA), which must agree.  Also: --check sees the full
 * width of a vector access on the fast path.
 */
#include "check.h"
#include "ptx_inline.h"
#include "ptx_twin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BLOCK = 128, GRID = 2, NT = BLOCK * GRID, WARPS = NT / 32 };
enum { GREG = 2048, GBYTES = WARPS * GREG, SREG = 1024, SBYTES = 4096 };

static wm_arch arch;

typedef struct shape {
    const char *type;
    unsigned esz, n, sgn;
} shape;

static const shape shapes[] = {
    {"u32", 4, 1, 0}, {"s8", 1, 1, 1},  {"u16", 2, 1, 0}, {"u64", 8, 1, 0},
    {"u32", 4, 2, 0}, {"b32", 4, 4, 0}, {"f32", 4, 4, 0}, {"s32", 4, 2, 1},
    {"u64", 8, 2, 0}, {"f64", 8, 2, 0}, {"u16", 2, 4, 0}, {"s16", 2, 2, 1},
    {"s8", 1, 4, 1},  {"u8", 1, 2, 0},  {"b16", 2, 8, 0}};

/* "{%x1, %x2}" or "%x1" for n registers. */
static void regs(char *s, size_t cap, const char *name, unsigned n)
{
    size_t k = 0;
    if (n > 1)
        k += (size_t)snprintf(s + k, cap - k, "{");
    for (unsigned i = 0; i < n; i++)
        k += (size_t)snprintf(s + k, cap - k, "%s%%%s%u", i ? ", " : "", name,
                              i + 1);
    if (n > 1)
        snprintf(s + k, cap - k, "}");
}

/*
 * Thread t (of the grid) is active iff act[t]; it loads its element
 * group at in + idx[t] (global) or in + t * size (shared), stores it at
 * out + idx2[t] (global) or sbuf + idx[t] (shared: after zeroing sbuf
 * and a barrier, it then loads sbuf + idx2[t]), and writes the loaded
 * registers as u64 words to ext + t * 8 * n.
 */
static char *kernel(const shape *sh, int shared)
{
    char vx[128], vy[128], op[16];
    regs(vx, sizeof vx, "x", sh->n);
    regs(vy, sizeof vy, "y", sh->n);
    if (sh->n > 1)
        snprintf(op, sizeof op, "v%u.%s", sh->n, sh->type);
    else
        snprintf(op, sizeof op, "%s", sh->type);
    size_t cap = 8192, k = 0;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    k += (size_t)snprintf(s + k, cap - k,
        ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".visible .entry k(.param .u64 p_in, .param .u64 p_out,\n"
        "    .param .u64 p_ext, .param .u64 p_idx, .param .u64 p_idx2,\n"
        "    .param .u64 p_act)\n{\n"
        "\t.reg .pred %%p<2>;\n\t.reg .b32 %%r<16>;\n\t.reg .b64 %%rd<24>;\n"
        "\t.reg .b64 %%x<9>;\n\t.reg .b64 %%y<9>;\n"
        "\t.shared .align 16 .b8 sbuf[%d];\n"
        "\tld.param.u64 %%rd1, [p_in];\n\tld.param.u64 %%rd2, [p_out];\n"
        "\tld.param.u64 %%rd3, [p_ext];\n\tld.param.u64 %%rd4, [p_idx];\n"
        "\tld.param.u64 %%rd5, [p_idx2];\n\tld.param.u64 %%rd6, [p_act];\n"
        "\tmov.u32 %%r1, %%tid.x;\n\tmov.u32 %%r2, %%ctaid.x;\n"
        "\tmov.u32 %%r3, %%ntid.x;\n\tmad.lo.s32 %%r4, %%r2, %%r3, %%r1;\n"
        "\tmul.wide.u32 %%rd7, %%r4, 4;\n\tadd.s64 %%rd8, %%rd6, %%rd7;\n"
        "\tld.global.u32 %%r5, [%%rd8];\n\tsetp.ne.u32 %%p1, %%r5, 0;\n"
        "\tadd.s64 %%rd9, %%rd4, %%rd7;\n\tld.global.u32 %%r6, [%%rd9];\n"
        "\tadd.s64 %%rd10, %%rd5, %%rd7;\n\tld.global.u32 %%r7, [%%rd10];\n"
        "\tmul.wide.u32 %%rd15, %%r4, %u;\n\tadd.s64 %%rd16, %%rd3, %%rd15;\n",
        SBYTES, 8 * sh->n);
    if (!shared) {
        k += (size_t)snprintf(s + k, cap - k,
            "\tcvt.u64.u32 %%rd11, %%r6;\n\tadd.s64 %%rd12, %%rd1, %%rd11;\n"
            "\tcvt.u64.u32 %%rd13, %%r7;\n\tadd.s64 %%rd14, %%rd2, %%rd13;\n"
            "\t@%%p1 ld.global.%s %s, [%%rd12];\n"
            "\t@%%p1 st.global.%s [%%rd14], %s;\n",
            op, vx, op, vx);
        for (unsigned i = 0; i < sh->n; i++)
            k += (size_t)snprintf(s + k, cap - k,
                                  "\t@%%p1 st.global.u64 [%%rd16+%u], %%x%u;\n",
                                  8 * i, i + 1);
    } else {
        k += (size_t)snprintf(s + k, cap - k,
            "\tmov.b64 %%rd17, 0;\n\tmov.u32 %%r8, sbuf;\n"
            "\tshl.b32 %%r9, %%r1, 5;\n\tadd.s32 %%r10, %%r8, %%r9;\n"
            "\tst.shared.v2.u64 [%%r10], {%%rd17, %%rd17};\n"
            "\tst.shared.v2.u64 [%%r10+16], {%%rd17, %%rd17};\n"
            "\tbar.sync 0;\n"
            "\tmul.wide.u32 %%rd18, %%r4, %u;\n"
            "\tadd.s64 %%rd19, %%rd1, %%rd18;\n"
            "\t@%%p1 ld.global.%s %s, [%%rd19];\n"
            "\tadd.s32 %%r11, %%r8, %%r6;\n\t@%%p1 st.shared.%s [%%r11], %s;\n"
            "\tbar.sync 0;\n"
            "\tadd.s32 %%r12, %%r8, %%r7;\n\t@%%p1 ld.shared.%s %s, [%%r12];\n",
            sh->esz * sh->n, op, vx, op, vx, op, vy);
        for (unsigned i = 0; i < sh->n; i++)
            k += (size_t)snprintf(s + k, cap - k,
                                  "\t@%%p1 st.global.u64 [%%rd16+%u], %%y%u;\n",
                                  8 * i, i + 1);
    }
    snprintf(s + k, cap - k, "\tret;\n}\n");
    return s;
}

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

/* Lane patterns (byte offsets in a warp's region, z bytes per lane). */
enum {
    P_LIN, P_SAME, P_HSAME, P_HREP, P_HGAP, P_HOVER, P_REV, P_STRIDE,
    P_BANK, P_ODD, P_REVW, P_RAND, P_COUNT
};

static uint32_t lane_off(unsigned pat, unsigned i, unsigned z)
{
    switch (pat) {
    case P_LIN: return i * z;                               /* rows */
    case P_SAME: return 3 * z;                              /* broadcast */
    case P_HSAME: return (i / 16) * 5 * z;                  /* As[ty][k] */
    case P_HREP: return (i % 16) * z;                       /* Bs[k][tx] */
    case P_HGAP: return (i % 16) * z + (i / 16) * 40 * z;   /* two rows */
    case P_HOVER: return (i % 16) * z + (i / 16) * 3 * z;   /* overlap */
    case P_REV: return (31 - i) * z;
    case P_STRIDE: return i * 2 * z;
    case P_BANK: return i * 32;                  /* 8 words: bank groups */
    case P_ODD: return i * (z <= 8 ? 3 : 1) * z; /* odd stride, 3 units */
    case P_REVW: return (31 - i) * 32;           /* backwards, wide */
    default: return (rnd() % 48) * z; /* collisions */
    }
}

/* Masks of a warp's lanes. */
enum { M_FULL, M_LOW17, M_ONE, M_ALT, M_NONE, M_RAND, M_COUNT };

static int lane_on(unsigned mk, unsigned i)
{
    switch (mk) {
    case M_FULL: return 1;
    case M_LOW17: return i < 17;
    case M_ONE: return i == 5;
    case M_ALT: return i & 1;
    case M_NONE: return 0;
    default: return rnd() & 1;
    }
}

/* Faults planted in one lane (bad only on an inactive lane: no fault);
   F_TAIL moves warp 1's row so that only its last lane, the bad one,
   lies past the end (the lanes stay affine). */
enum { F_NONE, F_MISALIGN, F_OOB, F_FAR, F_TAIL, F_COUNT };

typedef struct launch_in {
    uint32_t idx[NT], idx2[NT], act[NT];
} launch_in;

/* v as loaded into a 64-bit register: zero- or sign-extended. */
static uint64_t widen(const uint8_t *p, const shape *sh)
{
    uint64_t v = 0;
    memcpy(&v, p, sh->esz);
    if (sh->sgn && sh->esz < 8) {
        uint64_t s = (uint64_t)1 << (sh->esz * 8 - 1);
        v = (v ^ s) - s;
    }
    return v;
}

/* The reference run: out (global) and ext from in, lanes in order. */
static void reference(const shape *sh, int shared, const launch_in *x,
                      const uint8_t *in, uint8_t *out, uint64_t *ext)
{
    unsigned z = sh->esz * sh->n;
    uint8_t smem[SBYTES];
    memset(smem, 0, sizeof smem);
    for (unsigned t = 0; t < NT; t++) {
        if (!x->act[t])
            continue;
        if (!shared) {
            memcpy(out + x->idx2[t], in + x->idx[t], z);
            for (unsigned k = 0; k < sh->n; k++)
                ext[t * sh->n + k] = widen(in + x->idx[t] + k * sh->esz, sh);
        }
    }
    if (!shared)
        return;
    /* each CTA has its own shared memory: CTA by CTA */
    for (unsigned c = 0; c < GRID; c++) {
        memset(smem, 0, sizeof smem);
        for (unsigned t = c * BLOCK; t < (c + 1) * BLOCK; t++)
            if (x->act[t])
                memcpy(smem + x->idx[t], in + (size_t)t * z, z);
        for (unsigned t = c * BLOCK; t < (c + 1) * BLOCK; t++)
            if (x->act[t])
                for (unsigned k = 0; k < sh->n; k++)
                    ext[t * sh->n + k] =
                        widen(smem + x->idx2[t] + k * sh->esz, sh);
    }
}

/* How warps differ: the same pattern, a rotating one, or the same one
   moved by less than a line (global only: the memo's residues). */
enum { R_FIXED, R_ROTATE, R_SHIFT };

/* Warp w's shift under R_SHIFT, in lanes of z bytes, by its place in
   the CTA: residue 0, 5, then (1- and 2-byte lanes) 101, whose memo slot
   is 5's and whose counts differ (it crosses a line), replacing it, then
   5 again; wider lanes 0, 5, 10, 5. */
static unsigned shift_of(unsigned w, unsigned z)
{
    static const unsigned narrow[4] = {0, 5, 101, 5}, wide[4] = {0, 5, 10, 5};
    return (z <= 2 ? narrow : wide)[w % (BLOCK / 32)];
}

/* Lane offsets of every warp: pattern pat (rotating or shifted per warp
   by rot, an R_ value), mask mk; a planted fault in lane 9 of warp 1. */
static void make_in(const shape *sh, int shared, unsigned pat, unsigned mk,
                    int rot, unsigned fault, int fault_on, launch_in *x)
{
    unsigned z = sh->esz * sh->n, reg = shared ? SREG : GREG;
    for (unsigned t = 0; t < NT; t++) {
        unsigned w = t / 32, i = t % 32;
        unsigned p = rot == R_ROTATE ? (pat + w) % P_COUNT : pat;
        unsigned base = (shared ? w % (BLOCK / 32) : w) * reg;
        if (rot == R_SHIFT && !shared)
            base += shift_of(w, z) * z;
        x->idx[t] = base + lane_off(p, i, z);
        x->idx2[t] = base + lane_off(rot == R_ROTATE ? (p + 3) % P_COUNT : p,
                                     i, z);
        x->act[t] =
            (uint32_t)lane_on(rot == R_ROTATE ? (mk + w) % M_COUNT : mk, i);
    }
    if (fault == F_NONE)
        return;
    if (fault == F_TAIL) {
        unsigned end = shared ? SBYTES : GBYTES;
        for (unsigned i = 0; i < 32; i++)
            x->idx[32 + i] = end - 31 * z + i * z;
        x->act[32 + 31] = (uint32_t)fault_on;
        return;
    }
    unsigned t = 32 + 9;
    x->act[t] = (uint32_t)fault_on;
    if (fault == F_MISALIGN)
        x->idx[t] += sh->n > 1 ? sh->esz : 1;
    else if (fault == F_OOB)
        x->idx[t] = (shared ? SBYTES : GBYTES) - z + z; /* just past */
    else
        x->idx[t] = 0x7ffff000u;
}

/* One launch, twin-checked; the reference compared when no fault. */
static void one(const wm_ptx_module *m, const shape *sh, int shared,
                const launch_in *x, int stats, wm_status want)
{
    unsigned z = sh->esz * sh->n;
    uint8_t *in = malloc(GBYTES), *out = calloc(GBYTES, 1);
    uint8_t *rout = calloc(GBYTES, 1);
    uint64_t *ext = calloc(NT * 8, 8), *rext = calloc(NT * 8, 8);
    launch_in *xc = malloc(sizeof *xc);
    CHECK(in && out && rout && ext && rext && xc);
    if (!in || !out || !rout || !ext || !rext || !xc)
        goto done;
    *xc = *x;
    for (unsigned i = 0; i < GBYTES; i++)
        in[i] = (uint8_t)rnd();
    wm_ptx_arg a[6];
    memset(a, 0, sizeof a);
    void *bufs[6] = {in, out, ext, xc->idx, xc->idx2, xc->act};
    size_t bytes[6] = {GBYTES, GBYTES, NT * 64, sizeof xc->idx,
                       sizeof xc->idx2, sizeof xc->act};
    if (shared)
        bytes[0] = (size_t)NT * z;
    for (unsigned i = 0; i < 6; i++) {
        a[i].buf = bufs[i];
        a[i].bytes = bytes[i];
    }
    wm_ptx_launch l;
    memset(&l, 0, sizeof l);
    l.grid[0] = GRID;
    l.grid[1] = l.grid[2] = 1;
    l.block[0] = BLOCK;
    l.block[1] = l.block[2] = 1;
    l.args = a;
    l.nargs = 6;
    l.threads = 1;
    wm_agg *g = stats ? wm_agg_new(&arch) : NULL;
    wm_ptx_fault ft;
    wm_status st = twin_run(m, 0, &l, g, NULL, &ft);
    CHECK_EQ(st, want);
    if (st != want)
        fprintf(stderr, "fastmem: %s.v%u %s: %s\n", sh->type, sh->n,
                shared ? "shared" : "global", st ? ft.msg : "no fault");
    if (want == WM_OK && st == WM_OK) {
        reference(sh, shared, x, in, rout, rext);
        CHECK(memcmp(rext, ext, NT * 64) == 0);
        if (!shared)
            CHECK(memcmp(rout, out, GBYTES) == 0);
        /* the baseline-ISA build of the fast path gives the same */
        memset(out, 0, GBYTES);
        memset(ext, 0, NT * 64);
        wm_agg *g2 = stats ? wm_agg_new(&arch) : NULL;
        CHECK_EQ(wmi_ptx_run_opts(m, 0, &l, g2, NULL, &ft, WMI_RUN_BASE_ISA),
                 WM_OK);
        CHECK(memcmp(rext, ext, NT * 64) == 0);
        CHECK(shared || memcmp(rout, out, GBYTES) == 0);
        CHECK(twin_same_agg(g, g2));
        wm_agg_free(g2);
    }
    wm_agg_free(g);
done:
    free(in);
    free(out);
    free(rout);
    free(ext);
    free(rext);
    free(xc);
}

static void test_shapes(void)
{
    launch_in *x = malloc(sizeof *x);
    CHECK(x != NULL);
    for (size_t s = 0; x && s < WM_ARRAY_LEN(shapes); s++)
        for (int shared = 0; shared < 2; shared++) {
            const shape *sh = &shapes[s];
            char *src = kernel(sh, shared);
            wm_ptx_module *m = NULL;
            wm_diag d;
            CHECK(src != NULL);
            if (!src)
                continue;
            if (wm_ptx_parse(src, strlen(src), "fastmem.ptx", &m, &d) !=
                WM_OK) {
                wm_diag_print(stderr, &d, "fastmem.ptx", src, strlen(src));
                CHECK(0);
                free(src);
                continue;
            }
            /* every pattern under every mask, fixed, rotating and
               shifted (with statistics: the memo's residues) */
            for (unsigned p = 0; p < P_COUNT; p++)
                for (unsigned mk = 0; mk < M_COUNT; mk++) {
                    make_in(sh, shared, p, mk, R_FIXED, F_NONE, 0, x);
                    one(m, sh, shared, x, 1, WM_OK);
                    make_in(sh, shared, p, mk, R_ROTATE, F_NONE, 0, x);
                    one(m, sh, shared, x, (p + mk) & 1, WM_OK);
                    if (!shared) {
                        make_in(sh, shared, p, mk, R_SHIFT, F_NONE, 0, x);
                        one(m, sh, shared, x, 1, WM_OK);
                    }
                }
            /* a bad lane faults when active (first in lane order), and
               is harmless when not */
            for (unsigned f = F_MISALIGN; f < F_COUNT; f++) {
                if (f == F_MISALIGN && sh->esz * sh->n == 1)
                    continue;
                for (unsigned p = 0; p < P_COUNT; p += 4) {
                    make_in(sh, shared, p, M_FULL, R_FIXED, f, 1, x);
                    one(m, sh, shared, x, 1, WM_ERR_FAULT);
                    make_in(sh, shared, p, M_FULL, R_FIXED, f, 0, x);
                    one(m, sh, shared, x, 1, WM_OK);
                }
            }
            wm_ptx_free(m);
            free(src);
        }
    free(x);
}

/*
 * --check on the fast path sees a vector access's full width: warp 0
 * stores float4s at 16 * lane (one lane, then all lanes), warp 1 reads
 * the last word of each without a barrier; the race tracker must report
 * the same hazards with the fast paths on and off, and some.
 */
static const char race_ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 p_out, .param .u32 p_all)\n{\n"
    "\t.reg .pred %p<4>;\n\t.reg .b32 %r<12>;\n\t.reg .b64 %rd<4>;\n"
    "\t.shared .align 16 .b8 sbuf[512];\n"
    "\tld.param.u64 %rd1, [p_out];\n\tld.param.u32 %r9, [p_all];\n"
    "\tmov.u32 %r1, %tid.x;\n\tand.b32 %r2, %r1, 31;\n"
    "\tmov.u32 %r3, sbuf;\n\tshl.b32 %r4, %r2, 4;\n\tadd.s32 %r5, %r3, %r4;\n"
    "\tsetp.lt.u32 %p1, %r1, 32;\n\tsetp.eq.u32 %p2, %r1, 0;\n"
    "\tsetp.ne.u32 %p3, %r9, 0;\n\tor.pred %p2, %p2, %p3;\n"
    "\tand.pred %p2, %p2, %p1;\n"
    "\t@%p2 st.shared.v4.u32 [%r5], {%r1, %r1, %r1, %r1};\n"
    "\t@!%p1 ld.shared.u32 %r6, [%r5+12];\n"
    "\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
    "\tst.global.u32 [%rd3], %r6;\n\tret;\n}\n";

static void race_run(const wm_ptx_module *m, unsigned all, unsigned flags,
                     wm_ptx_check *chk)
{
    uint32_t out[64];
    memset(out, 0, sizeof out);
    memset(chk, 0, sizeof *chk);
    chk->checks = WM_CHECK_RACE;
    chk->schedule = WM_SCHED_IN_ORDER;
    wm_ptx_arg a[2];
    memset(a, 0, sizeof a);
    a[0].buf = out;
    a[0].bytes = sizeof out;
    a[1].scalar = all;
    a[1].size = 4;
    wm_ptx_launch l;
    memset(&l, 0, sizeof l);
    l.grid[0] = l.grid[1] = l.grid[2] = 1;
    l.block[0] = 64;
    l.block[1] = l.block[2] = 1;
    l.args = a;
    l.nargs = 2;
    l.check = chk;
    wm_ptx_fault ft;
    CHECK_EQ(wmi_ptx_run_opts(m, 0, &l, NULL, NULL, &ft, flags), WM_OK);
}

static void test_check(void)
{
    wm_ptx_module *m = NULL;
    wm_diag d;
    if (wm_ptx_parse(race_ptx, strlen(race_ptx), "race.ptx", &m, &d) !=
        WM_OK) {
        wm_diag_print(stderr, &d, "race.ptx", race_ptx, strlen(race_ptx));
        CHECK(0);
        return;
    }
    for (unsigned all = 0; all < 2; all++) {
        wm_ptx_check slow, fast;
        race_run(m, all, WMI_RUN_SLOW, &slow);
        race_run(m, all, 0, &fast);
        CHECK(slow.nhazards > 0);
        CHECK_EQ(slow.nhazards, fast.nhazards);
        uint64_t ns = 0, nf = 0;
        for (size_t i = 0; i < slow.nhazards && i < fast.nhazards; i++) {
            CHECK_EQ(slow.hazards[i].kind, fast.hazards[i].kind);
            CHECK_EQ(slow.hazards[i].addr, fast.hazards[i].addr);
            ns += slow.hazards[i].count;
            nf += fast.hazards[i].count;
        }
        CHECK_EQ(ns, nf);
        CHECK(ns >= (all ? 32u : 1u));
        wm_ptx_check_clear(&slow);
        wm_ptx_check_clear(&fast);
    }
    wm_ptx_free(m);
}

/* Scalars written in braces ({%r1}, as Triton writes every ld and st):
   a uniform load and store repeated by every full warp reach the memo's
   hot path, which must find the register inside the braces (it indexed
   the registers with the vector's pool word and crashed). */
static void test_braces(void)
{
    static const char *const src =
        PI_HEAD
        ".visible .entry k(.param .u64 x, .param .u64 out, .param .u64 last)\n"
        "{\n  .reg .b32 %r<6>; .reg .b64 %rd<8>;\n"
        "  ld.param.u64 %rd1, [x]; ld.param.u64 %rd2, [out];\n"
        "  ld.param.u64 %rd6, [last];\n"
        "  ld.global.b32 {%r1}, [%rd1];\n"
        "  mov.u32 %r2, %tid.x; mov.u32 %r3, %ctaid.x;\n"
        "  mad.lo.u32 %r4, %r3, 128, %r2; add.u32 %r5, %r1, %r4;\n"
        "  mul.wide.u32 %rd3, %r4, 4; add.s64 %rd4, %rd2, %rd3;\n"
        "  st.global.b32 [%rd4], {%r5};\n"
        "  st.global.b32 [%rd6], {%r1};\n"
        "  ret;\n}\n";
    wm_ptx_module *m = pi_parse(src, "braces.ptx");
    CHECK(m != NULL);
    if (!m)
        return;
    uint32_t x = 1000, out[4 * 128], last = 0;
    pi_launch l = pi_dims(4, 128);
    pi_buf(&l, &x, sizeof x);
    pi_buf(&l, out, sizeof out);
    pi_buf(&l, &last, sizeof last);
    wm_agg *g = wm_agg_new(&arch);
    CHECK_EQ(pi_run_agg(m, "k", &l, g, NULL), WM_OK);
    int bad = 0;
    for (uint32_t i = 0; i < 4 * 128; i++)
        bad += out[i] != 1000 + i;
    CHECK_EQ(bad, 0);
    CHECK_EQ(last, 1000u);
    wm_agg_free(g);
    wm_ptx_free(m);
}

int main(void)
{
    CHECK(wm_arch_parse("sm_80", &arch, NULL, 0) == WM_OK);
    test_shapes();
    test_check();
    test_braces();
    return check_done("test_ptx_fastmem");
}
