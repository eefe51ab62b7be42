/*
 * test_ptx_check_shared.c -- `--check race,init` on shared memory: random
 * store and load patterns (rows, strides, broadcasts, overlapping words,
 * partial warps, with and without barriers between them, several rounds)
 * and the planted reduction without its barrier, each run twice by
 * twin_run (ptx_twin.h): every access through the plain per-lane loop
 * (WMI_RUN_SLOW), then with the checker's shortcuts (runs of lanes kept
 * as runs, ptx_check_shrun.c; the per-lane shortcuts of shared_reads and
 * shared_writes).  Both must report the same hazards in the same order,
 * byte for byte; hand-counted verdicts pin what they report.
 */
#include "check.h"
#include "ptx_inline.h"

#include <stdlib.h>
#include <string.h>

/* Round r of `reps`: thread t < m stores t to s[(t*ws + wo + r) % n],
   (bar.sync when sync), loads s[(t*rs + ro + r) % n] twice, (bar.sync
   when sync); then out[t] = the sum of what it loaded. */
static const char *const src =
    PI_HEAD
    ".visible .entry sh(.param .u64 out, .param .u32 n, .param .u32 ws,\n"
    "    .param .u32 wo, .param .u32 rs, .param .u32 ro, .param .u32 sync,\n"
    "    .param .u32 m, .param .u32 reps)\n"
    "{\n"
    "  .shared .align 4 .b8 s[4096];\n"
    "  .reg .pred %p<4>; .reg .b32 %r<32>; .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [out]; ld.param.u32 %r1, [n];\n"
    "  ld.param.u32 %r2, [ws]; ld.param.u32 %r3, [wo];\n"
    "  ld.param.u32 %r4, [rs]; ld.param.u32 %r5, [ro];\n"
    "  ld.param.u32 %r6, [sync]; ld.param.u32 %r7, [m];\n"
    "  ld.param.u32 %r8, [reps];\n"
    "  mov.u32 %r9, %tid.x; mov.u32 %r10, 0; mov.u32 %r11, 0;\n"
    "  mov.u32 %r20, s;\n"
    "  setp.ge.u32 %p1, %r9, %r7;\n"
    "  setp.ne.u32 %p2, %r6, 0;\n"
    "LOOP:\n"
    "  setp.ge.u32 %p3, %r10, %r8;\n  @%p3 bra DONE;\n"
    "  @%p1 bra SKIPST;\n"
    "  mad.lo.u32 %r12, %r9, %r2, %r3; add.u32 %r12, %r12, %r10;\n"
    "  rem.u32 %r12, %r12, %r1; shl.b32 %r12, %r12, 2;\n"
    "  add.u32 %r12, %r12, %r20;\n"
    "  st.shared.u32 [%r12], %r9;\n"
    "SKIPST:\n"
    "  @!%p2 bra NOSYNC1;\n  bar.sync 0;\nNOSYNC1:\n"
    "  @%p1 bra SKIPLD;\n"
    "  mad.lo.u32 %r13, %r9, %r4, %r5; add.u32 %r13, %r13, %r10;\n"
    "  rem.u32 %r13, %r13, %r1; shl.b32 %r13, %r13, 2;\n"
    "  add.u32 %r13, %r13, %r20;\n"
    "  ld.shared.u32 %r14, [%r13];\n  add.u32 %r11, %r11, %r14;\n"
    "  ld.shared.u32 %r15, [%r13];\n  add.u32 %r11, %r11, %r15;\n"
    "SKIPLD:\n"
    "  @!%p2 bra NOSYNC2;\n  bar.sync 0;\nNOSYNC2:\n"
    "  add.u32 %r10, %r10, 1;\n  bra LOOP;\n"
    "DONE:\n"
    "  mul.wide.u32 %rd2, %r9, 4; add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r11;\n  ret;\n}\n";

/* One launch of `sh` on one CTA of block threads (scalars v after out),
   through twin_run; the findings in *chk, the sums in out. */
static wm_status launch(const wm_ptx_module *m, unsigned block,
                        const uint32_t *v, uint32_t *out, wm_ptx_check *chk)
{
    wm_ptx_arg a[9];
    a[0] = pi_arg_buf(out, block * sizeof *out);
    for (int i = 0; i < 8; i++)
        a[i + 1] = pi_arg_u32(v[i]);
    wm_ptx_launch l = pi_launch_of(1, 1, block, 0, a, 9, NULL, 0);
    l.check = chk;
    wm_ptx_fault ft;
    wm_status st = twin_run(m, 0, &l, NULL, NULL, &ft);
    if (st != WM_OK)
        fprintf(stderr, "sh: %s\n", ft.msg);
    return st;
}

static void verdicts(const wm_ptx_module *m)
{
    uint32_t out[256];
    wm_ptx_check chk;
    memset(&chk, 0, sizeof chk);
    chk.checks = WM_CHECK_RACE | WM_CHECK_INIT;
    /* each thread stores then loads its own word, barriers between:
       clean, out[t] = 4t over two rounds of two loads */
    uint32_t own[8] = {256, 1, 0, 1, 0, 1, 256, 2};
    CHECK_EQ(launch(m, 256, own, out, &chk), WM_OK);
    CHECK_EQ(chk.nhazards, 0u);
    CHECK_EQ(out[7], 28u);
    /* each thread loads the word of thread t + 32 (the next warp's), with
       barriers: clean, out[t] = 2 (t + 32) (mod 256) */
    uint32_t next[8] = {256, 1, 0, 1, 32, 1, 256, 1};
    CHECK_EQ(launch(m, 256, next, out, &chk), WM_OK);
    CHECK_EQ(chk.nhazards, 0u);
    CHECK_EQ(out[0], 64u);
    CHECK_EQ(out[255], 62u);
    /* the same without barriers: each warp but the last reads the next
       warp's words before that warp stores them (in order): 224 lanes
       read uninitialised bytes (one report per instruction: 2 x 224),
       and the 224 stores come after the reads (write-after-read, within
       the CTA, against the first load's slot) */
    uint32_t racy[8] = {256, 1, 0, 1, 32, 0, 256, 1};
    CHECK_EQ(launch(m, 256, racy, out, &chk), WM_OK);
    int war = 0, uninit = 0;
    for (size_t i = 0; i < chk.nhazards; i++) {
        const wm_ptx_hazard *h = &chk.hazards[i];
        if (h->kind == WM_HAZ_WAR) {
            war = 1;
            CHECK_EQ(h->count, 224u);
            CHECK_EQ(h->addr, 128u); /* word 32: warp 1's, read by warp 0 */
        }
        if (h->kind == WM_HAZ_UNINIT) {
            uninit = 1;
            CHECK_EQ(h->count, 224u);
        }
    }
    CHECK(war && uninit);
    wm_ptx_check_clear(&chk);
}

static uint32_t rnd(uint32_t *s)
{
    *s = *s * 1103515245u + 12345u;
    return *s >> 8;
}

/* A stride: 0 (a broadcast), 1 (a row), 2, a column of a 32-wide tile
   (32), of a padded one (33), or -1. */
static uint32_t stride(uint32_t *s)
{
    static const uint32_t st[] = {0, 1, 1, 1, 1, 2, 32, 33, 0xffffffffu};
    return st[rnd(s) % (sizeof st / sizeof st[0])];
}

static void random_patterns(const wm_ptx_module *m)
{
    static const unsigned blocks[] = {32, 64, 96, 128, 256};
    uint32_t seed = 11, out[256];
    size_t found = 0, clean = 0;
    for (int trial = 0; trial < 150; trial++) {
        unsigned block = blocks[rnd(&seed) % 5];
        uint32_t n = 32 + rnd(&seed) % 993;
        uint32_t v[8] = {n,
                         stride(&seed),
                         rnd(&seed) % 64,
                         stride(&seed),
                         rnd(&seed) % 64,
                         rnd(&seed) % 3 != 0,
                         rnd(&seed) % 4 ? block : rnd(&seed) % block,
                         1 + rnd(&seed) % 3};
        wm_ptx_check chk;
        memset(&chk, 0, sizeof chk);
        chk.checks = WM_CHECK_RACE | (trial % 2 ? WM_CHECK_INIT : 0u);
        if (trial % 5 == 0)
            chk.checks |= WM_CHECK_SCHEDULES;
        chk.schedule = (wm_ptx_schedule)(trial % 3);
        chk.seed = (uint64_t)trial;
        CHECK_EQ(launch(m, block, v, out, &chk), WM_OK);
        found += chk.nhazards > 0;
        clean += chk.nhazards == 0;
        wm_ptx_check_clear(&chk);
    }
    CHECK(found > 10 && clean > 10); /* (both kinds of pattern) */
}

/* The planted reduction without its barrier (tests/check/reduce_nosync.cu),
   as docs/check.md prints it: write-after-read 18 -> 14, 128 times. */
static void reduce_nosync(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/check/ptx/reduce_nosync_sm_80.ptx",
             WM_SOURCE_DIR);
    size_t n = 0;
    char *text = wm_read_file(path, &n);
    CHECK(text != NULL);
    wm_ptx_module *m = text ? pi_parse(text, path) : NULL;
    free(text);
    CHECK(m != NULL);
    if (!m)
        return;
    float out[1] = {0}, in[256];
    for (int i = 0; i < 256; i++)
        in[i] = (float)i;
    wm_ptx_arg a[2] = {pi_arg_buf(out, sizeof out),
                       pi_arg_buf(in, sizeof in)};
    wm_ptx_launch l = pi_launch_of(1, 1, 256, 0, a, 2, NULL, 0);
    wm_ptx_check chk;
    memset(&chk, 0, sizeof chk);
    chk.checks = WM_CHECK_RACE;
    l.check = &chk;
    wm_ptx_fault ft;
    CHECK_EQ(twin_run(m, 0, &l, NULL, NULL, &ft), WM_OK);
    CHECK(chk.nhazards >= 1);
    if (chk.nhazards >= 1) {
        CHECK_EQ(chk.hazards[0].kind, WM_HAZ_WAR);
        CHECK_EQ(chk.hazards[0].count, 128u);
        CHECK_EQ(chk.hazards[0].addr, 512u);
    }
    wm_ptx_check_clear(&chk);
    wm_ptx_free(m);
}

int main(void)
{
    wm_ptx_module *m = pi_parse(src, "shared.ptx");
    CHECK(m != NULL);
    if (!m)
        return check_done("test_ptx_check_shared");
    verdicts(m);
    random_patterns(m);
    wm_ptx_free(m);
    reduce_nosync();
    return check_done("test_ptx_check_shared");
}
