/*
 * fuzz_wgmma.c -- libFuzzer harness for wgmma.mma_async (ptx_wgmma.c): the
 * instruction's shape and types, its immediates and its two 64-bit
 * shared-memory matrix descriptors come from the input, in a generated
 * kernel like test_ptx_wgmma.c's (threads copy a 16 KiB shared image from
 * global memory, load the accumulators and A's registers, run one wgmma
 * and store D).  The header bytes choose
 *   h0: A's type (bits 0-2: f16 bf16 tf32 e4m3 e5m2 s8 u8, and 7 is f16),
 *       f16 accumulators, A from registers, scale-d, negated A and B;
 *   h1: N = 8 (1 + h1 % 32); h1 >> 5: B's type: A's (or its fp8 or 8-bit
 *       integer sibling), or any of the seven (forms the ISA lacks);
 *   h2: transposed A and B, the threads (128 mostly; 32, 64, 96, 160, 256),
 *       lanes of warp 0 predicated off, immediates out of their range, a
 *       setmaxnreg first;
 *   h3: raw descriptors, or ones whose start, LBO and SBO fall inside the
 *       image (base offset 0) with the swizzle mode of h3's bits;
 * then the descriptors of A and B (8 bytes each) and the bytes that fill
 * the image and the accumulators, repeated.  Every launch runs twice, fast
 * paths off and on, and the two must agree (fuzz_twin.h); the report of
 * the run is written too.
 */
#include "fuzz_twin.h"
#include "warpmem.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { SMEM = 16384, NTHREADS_MAX = 256 };

static const char *const tname[] = {"f16", "bf16", "tf32", "e4m3",
                                    "e5m2", "s8", "u8"};
static const unsigned tbytes[] = {2, 2, 4, 1, 1, 1, 1};

typedef struct wcase {
    unsigned at, bt, n, nthreads;
    int dt16, areg, scale_d, neg_a, neg_b, trans_a, trans_b;
    int diverge, odd_imm, maxnreg;
    uint64_t da, db;
} wcase;

static uint64_t take(const uint8_t **p, size_t *n, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes && *n; i++, (*p)++, (*n)--)
        v |= (uint64_t)**p << (8 * i);
    return v;
}

/* A descriptor inside the image: start, LBO and SBO in 16-byte units
   below SMEM, base offset 0, the swizzle mode given. */
static uint64_t tame(uint64_t raw, unsigned mode)
{
    uint64_t start = raw % (SMEM / 16), lbo = (raw >> 16) % 64,
             sbo = (raw >> 32) % 64;
    return start | lbo << 16 | sbo << 32 | (uint64_t)mode << 62;
}

static void case_of(const uint8_t **p, size_t *n, wcase *w)
{
    static const unsigned threads[] = {128, 128, 128, 32, 64, 96, 160, 256};
    unsigned h0 = (unsigned)take(p, n, 1), h1 = (unsigned)take(p, n, 1),
             h2 = (unsigned)take(p, n, 1), h3 = (unsigned)take(p, n, 1);
    memset(w, 0, sizeof *w);
    w->at = (h0 & 7) % 7;
    w->dt16 = (h0 >> 3) & 1;
    w->areg = (h0 >> 4) & 1;
    w->scale_d = (h0 >> 5) & 1;
    w->neg_a = (h0 >> 6) & 1;
    w->neg_b = (h0 >> 7) & 1;
    w->n = 8 * (1 + h1 % 32);
    unsigned bm = h1 >> 5;
    if (bm < 5)
        w->bt = w->at < 3 ? w->at : w->at < 5 ? 3 + (bm & 1) : 5 + (bm & 1);
    else
        w->bt = (h3 >> 4) % 7;
    w->trans_a = h2 & 1;
    w->trans_b = (h2 >> 1) & 1;
    w->nthreads = threads[(h2 >> 2) & 7];
    w->diverge = (h2 >> 5) & 1;
    w->odd_imm = (h2 >> 6) & 1;
    w->maxnreg = (h2 >> 7) & 1;
    w->da = take(p, n, 8);
    w->db = take(p, n, 8);
    if (!(h3 & 1)) {
        w->da = tame(w->da, (h3 >> 1) & 3);
        w->db = tame(w->db, (h3 >> 3) & 3);
    }
}

static unsigned kof(const wcase *w)
{
    return 32 / tbytes[w->at];
}

/* Accumulator registers: N / 4 of f16 pairs, N / 2 of f32 or s32 (f16
   accumulators asked for with integer inputs: one per pair, too few). */
static unsigned nregs(const wcase *w)
{
    return w->dt16 ? w->n / 4 : w->n / 2;
}

/* The kernel of case w (test_ptx_wgmma.c's, with the fuzzed parts). */
static const char *kernel_text(const wcase *w)
{
    static char s[16384];
    size_t n = 0;
    unsigned nr = nregs(w);
    const char *dn = w->at >= 5 ? "s32" : w->dt16 ? "f16" : "f32";
#define P(...) n += (size_t)snprintf(s + n, sizeof s - n, __VA_ARGS__)
    P(".version 8.0\n.target sm_90a\n.address_size 64\n"
      ".visible .entry k(.param .u64 img, .param .u64 out, .param .u64 areg,"
      " .param .u64 da, .param .u64 db)\n{\n"
      ".reg .b32 %%r<8>;\n.reg .b32 %%d<%u>;\n.reg .b32 %%a<4>;\n"
      ".reg .b64 %%rd<12>;\n.reg .pred %%p<3>;\n"
      ".shared .align 1024 .b8 sm[%u];\n", nr, SMEM);
    P("ld.param.u64 %%rd1, [img];\nld.param.u64 %%rd2, [out];\n"
      "ld.param.u64 %%rd3, [areg];\nld.param.u64 %%rd4, [da];\n"
      "ld.param.u64 %%rd5, [db];\nmov.u32 %%r0, %%tid.x;\n"
      "shl.b32 %%r1, %%r0, 2;\nmov.u32 %%r5, sm;\n"
      "COPY:\nsetp.ge.u32 %%p0, %%r1, %u;\n@%%p0 bra DONE;\n"
      "cvt.u64.u32 %%rd6, %%r1;\nadd.u64 %%rd7, %%rd1, %%rd6;\n"
      "ld.global.u32 %%r2, [%%rd7];\nadd.u32 %%r3, %%r5, %%r1;\n"
      "st.shared.u32 [%%r3], %%r2;\nadd.u32 %%r1, %%r1, %u;\nbra COPY;\n"
      "DONE:\nbar.sync 0;\n", SMEM, 4 * w->nthreads);
    P("shr.u32 %%r4, %%r5, 4;\ncvt.u64.u32 %%rd8, %%r4;\n"
      "add.u64 %%rd4, %%rd4, %%rd8;\nadd.u64 %%rd5, %%rd5, %%rd8;\n");
    P("mul.wide.u32 %%rd9, %%r0, %u;\nadd.u64 %%rd10, %%rd2, %%rd9;\n"
      "mul.wide.u32 %%rd9, %%r0, 16;\nadd.u64 %%rd11, %%rd3, %%rd9;\n",
      4 * nr);
    for (unsigned i = 0; i < nr; i++)
        P("ld.global.b32 %%d%u, [%%rd10+%u];\n", i, 4 * i);
    for (unsigned i = 0; i < 4; i++)
        P("ld.global.b32 %%a%u, [%%rd11+%u];\n", i, 4 * i);
    if (w->maxnreg)
        P("setmaxnreg.inc.sync.aligned.u32 %u;\n", 8 * (1 + nr % 40));
    P("mov.pred %%p1, %d;\nsetp.ne.u32 %%p2, %%r0, 5;\n"
      "fence.proxy.async.shared::cta;\nwgmma.fence.sync.aligned;\n",
      w->scale_d ? -1 : 0);
    P("%swgmma.mma_async.sync.aligned.m64n%uk%u.%s.%s.%s {",
      w->diverge ? "@%p2 " : "", w->n, kof(w), dn, tname[w->at],
      tname[w->bt]);
    for (unsigned i = 0; i < nr; i++)
        P("%s%%d%u", i ? "," : "", i);
    P("}, %s, %%rd5, %%p1", w->areg ? "{%a0,%a1,%a2,%a3}" : "%rd4");
    if (w->at < 5)
        P(", %d, %d", w->neg_a ? -1 : w->odd_imm ? 2 : 1, w->neg_b ? -1 : 1);
    if (tbytes[w->at] == 2 && !w->areg)
        P(", %d", w->trans_a + (w->odd_imm ? 2 : 0));
    if (tbytes[w->at] == 2)
        P(", %d", w->trans_b);
    P(";\nwgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned "
      "%u;\n", w->odd_imm ? 1u : 0u);
    for (unsigned i = 0; i < nr; i++)
        P("st.global.b32 [%%rd10+%u], %%d%u;\n", 4 * i, i);
    P("ret;\n}\n");
#undef P
    return s;
}

/* Fill n bytes of dst with src repeated (zeros without src). */
static void fill(uint8_t *dst, size_t n, const uint8_t *src, size_t len)
{
    if (!len) {
        memset(dst, 0, n);
        return;
    }
    for (size_t i = 0; i < n; i++)
        dst[i] = src[i % len];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *devnull;
    static uint8_t img[SMEM];
    static uint32_t dreg[NTHREADS_MAX * 128], areg[NTHREADS_MAX * 4];
    if (!devnull)
        devnull = fopen("/dev/null", "w");
    if (!devnull || size < 4 || size > 4096)
        return 0;
    const uint8_t *p = data;
    size_t n = size;
    wcase w;
    case_of(&p, &n, &w);
    const char *src = kernel_text(&w);
    if (getenv("FUZZ_DUMP"))
        fputs(src, stderr);
    wm_ptx_module *m = NULL;
    wm_diag d;
    wm_arch arch;
    if (wm_ptx_parse(src, strlen(src), "wgmma.ptx", &m, &d) != WM_OK ||
        wm_arch_parse("sm_90", &arch, NULL, 0) != WM_OK) {
        wm_ptx_free(m);
        return 0;
    }
    fill(img, sizeof img, p, n);
    fill((uint8_t *)dreg, (size_t)w.nthreads * nregs(&w) * 4, p + n / 2,
         n - n / 2);
    fill((uint8_t *)areg, (size_t)w.nthreads * 16, p + n / 3, n - n / 3);
    wm_ptx_arg args[5];
    memset(args, 0, sizeof args);
    args[0].buf = img;
    args[0].bytes = sizeof img;
    args[1].buf = dreg;
    args[1].bytes = sizeof dreg;
    args[2].buf = areg;
    args[2].bytes = sizeof areg;
    args[3].scalar = w.da;
    args[3].size = 8;
    args[4].scalar = w.db;
    args[4].size = 8;
    wm_ptx_launch l;
    memset(&l, 0, sizeof l);
    l.grid[0] = l.grid[1] = l.grid[2] = 1;
    l.block[0] = w.nthreads;
    l.block[1] = l.block[2] = 1;
    l.args = args;
    l.nargs = 5;
    l.max_steps = 20000;
    l.threads = 1;
    wm_agg *g = wm_agg_new(&arch);
    wm_ptx_fault ft;
    if (g && fuzz_twin_run(m, &l, g, &ft) == WM_OK) {
        wm_ptx_report_opts ro;
        memset(&ro, 0, sizeof ro);
        ro.width = 80;
        wm_ptx_report(devnull, m, g, &ro);
    }
    wm_agg_free(g);
    wm_ptx_free(m);
    return 0;
}
