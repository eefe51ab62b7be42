/*
 * test_ptx_check_global.c -- `--check race,init` on global memory within
 * and between CTAs: hand-counted verdicts of a clean and a racy launch,
 * then random access patterns (strided, contiguous, overlapping between
 * CTAs, partial warps; 1-, 4- and 8-byte accesses, atomics), columns
 * stored by 2-D blocks (the naive transpose's shape) and the race
 * suite's kernels on larger grids, each run twice by twin_run
 * (ptx_twin.h): every access through the plain per-lane loop and the
 * fold in its report order (WMI_RUN_SLOW), then with every shortcut of
 * the checker (the fold's first pass, runs of words, the shared
 * shortcuts).  Both must report the same hazards in the same order, byte
 * for byte.
 */
#include "check.h"
#include "ptx_inline.h"

#include <stdlib.h>
#include <string.h>

/* Thread t of CTA c (t < m) reads word (c*cs + t*rs + ro) % n and writes
   word (c*cs + t*ws + wo) % n of buf: in `rw` 4-byte words, in `rw8`
   bytes, in `rw64` 8-byte pairs; `at` adds atomically instead of storing. */
#define BODY(LD, ST, SHIFT)                                                   \
    "  .reg .pred %p<2>; .reg .b32 %r<16>; .reg .b64 %rd<8>;\n"               \
    "  ld.param.u64 %rd1, [buf]; ld.param.u32 %r1, [n];\n"                    \
    "  ld.param.u32 %r2, [rs]; ld.param.u32 %r3, [ro];\n"                     \
    "  ld.param.u32 %r4, [ws]; ld.param.u32 %r5, [wo];\n"                     \
    "  ld.param.u32 %r6, [cs]; ld.param.u32 %r7, [m];\n"                      \
    "  mov.u32 %r8, %tid.x; mov.u32 %r9, %ctaid.x;\n"                         \
    "  setp.ge.u32 %p1, %r8, %r7;\n  @%p1 bra DONE;\n"                        \
    "  mul.lo.u32 %r10, %r9, %r6;\n"                                          \
    "  mad.lo.u32 %r11, %r8, %r2, %r10; add.u32 %r11, %r11, %r3;\n"           \
    "  rem.u32 %r11, %r11, %r1;\n"                                            \
    "  mul.wide.u32 %rd2, %r11, " SHIFT "; add.s64 %rd3, %rd1, %rd2;\n"       \
    "  " LD "\n"                                                              \
    "  mad.lo.u32 %r13, %r8, %r4, %r10; add.u32 %r13, %r13, %r5;\n"           \
    "  rem.u32 %r13, %r13, %r1;\n"                                            \
    "  mul.wide.u32 %rd4, %r13, " SHIFT "; add.s64 %rd5, %rd1, %rd4;\n"       \
    "  add.u32 %r12, %r12, 1;\n"                                              \
    "  " ST "\n"                                                              \
    "DONE:\n  ret;\n}\n"

#define PARAMS                                                                \
    "(.param .u64 buf, .param .u32 n, .param .u32 rs, .param .u32 ro, "       \
    ".param .u32 ws, .param .u32 wo, .param .u32 cs, .param .u32 m)\n{\n"

static const char *const src =
    PI_HEAD ".visible .entry rw" PARAMS
    BODY("ld.global.u32 %r12, [%rd3];", "st.global.u32 [%rd5], %r12;", "4")
    ".visible .entry rw8" PARAMS
    BODY("ld.global.u8 %r12, [%rd3];", "st.global.u8 [%rd5], %r12;", "1")
    ".visible .entry rw64" PARAMS
    BODY("ld.global.v2.u32 {%r12, %r14}, [%rd3];",
         "st.global.v2.u32 [%rd5], {%r12, %r14};", "8")
    ".visible .entry at" PARAMS
    BODY("ld.global.u32 %r12, [%rd3];",
         "atom.global.add.u32 %r15, [%rd5], %r12;", "4");

/* Columns: thread (x, y) of CTA c touches word (c*cs + x*ws + y*wy) % n,
   a load when rd has bit 0, a store of x + c when bit 1.  With blocks 32
   wide, warp y's lanes step by ws and consecutive warps by wy: a column
   store (ws a row, wy 1) leaves one lane's record on words that
   consecutive warps wrote, the checker's warp-step runs.  col takes the
   word modulo n; cola does not (the caller keeps the words in n), so that
   the interpreter knows each warp's lanes are affine and hands the
   checker their step. */
#define COL(NAME, REM)                                                       \
    ".visible .entry " NAME "(.param .u64 buf, .param .u32 n, "              \
    ".param .u32 ws, .param .u32 wy, .param .u32 cs, .param .u32 rd)\n{\n"   \
    "  .reg .pred %p<3>; .reg .b32 %r<16>; .reg .b64 %rd<4>;\n"              \
    "  ld.param.u64 %rd1, [buf]; ld.param.u32 %r1, [n];\n"                   \
    "  ld.param.u32 %r2, [ws]; ld.param.u32 %r3, [wy];\n"                    \
    "  ld.param.u32 %r4, [cs]; ld.param.u32 %r5, [rd];\n"                    \
    "  mov.u32 %r6, %tid.x; mov.u32 %r7, %tid.y; mov.u32 %r8, %ctaid.x;\n"   \
    "  mul.lo.u32 %r9, %r8, %r4;\n"                                          \
    "  mad.lo.u32 %r9, %r6, %r2, %r9; mad.lo.u32 %r9, %r7, %r3, %r9;\n"      \
    REM                                                                      \
    "  mul.wide.u32 %rd2, %r9, 4; add.s64 %rd3, %rd1, %rd2;\n"               \
    "  and.b32 %r10, %r5, 1; setp.ne.u32 %p1, %r10, 0;\n"                    \
    "  and.b32 %r10, %r5, 2; setp.ne.u32 %p2, %r10, 0;\n"                    \
    "  @%p1 ld.global.u32 %r11, [%rd3];\n"                                   \
    "  add.u32 %r12, %r6, %r8;\n"                                            \
    "  @%p2 st.global.u32 [%rd3], %r12;\n"                                   \
    "  ret;\n}\n"

static const char *const col_src =
    PI_HEAD COL("col", "  rem.u32 %r9, %r9, %r1;\n") COL("cola", "");

/* One launch of kernel k over buf (bytes) with the 7 scalars of PARAMS
   after n, through twin_run; the findings in *chk. */
static wm_status launch(const wm_ptx_module *m, const char *k,
                        unsigned grid, unsigned block, void *buf,
                        size_t bytes, const uint32_t *v, wm_ptx_check *chk)
{
    wm_ptx_arg a[8];
    a[0] = pi_arg_buf(buf, bytes);
    for (int i = 0; i < 7; i++)
        a[i + 1] = pi_arg_u32(v[i]);
    wm_ptx_launch l = pi_launch_of(grid, 1, block, 0, a, 8, NULL, 0);
    l.check = chk;
    long ki = wm_ptx_find_kernel(m, k);
    CHECK(ki >= 0);
    wm_ptx_fault ft;
    wm_status st = twin_run(m, (size_t)ki, &l, NULL, NULL, &ft);
    if (st != WM_OK)
        fprintf(stderr, "%s: %s\n", k, ft.msg);
    return st;
}

/* The hazard of kind between blocks, or NULL. */
static const wm_ptx_hazard *find(const wm_ptx_check *c, wm_hazard_kind kind)
{
    for (size_t i = 0; i < c->nhazards; i++)
        if (c->hazards[i].kind == kind)
            return &c->hazards[i];
    return NULL;
}

static void verdicts(const wm_ptx_module *m)
{
    uint32_t buf[256];
    wm_ptx_check chk;
    memset(&chk, 0, sizeof chk);
    chk.checks = WM_CHECK_RACE | WM_CHECK_INIT;
    /* each thread reads and writes its own word: clean */
    uint32_t own[7] = {256, 1, 0, 1, 0, 64, 64};
    memset(buf, 0, sizeof buf);
    CHECK_EQ(launch(m, "rw", 4, 64, buf, sizeof buf, own, &chk), WM_OK);
    CHECK_EQ(chk.nhazards, 0u);
    CHECK_EQ(buf[0], 1u);
    CHECK_EQ(buf[255], 1u);
    /* both CTAs read and write words 0..63: block 1's write after block
       0's write and read, its read after block 0's write, 64 words each */
    uint32_t same[7] = {128, 1, 0, 1, 0, 0, 64};
    CHECK_EQ(launch(m, "rw", 2, 64, buf, sizeof buf, same, &chk), WM_OK);
    CHECK_EQ(chk.nhazards, 3u);
    const wm_hazard_kind kinds[3] = {WM_HAZ_WAW, WM_HAZ_WAR, WM_HAZ_RAW};
    for (int i = 0; i < 3; i++) {
        const wm_ptx_hazard *h = find(&chk, kinds[i]);
        CHECK(h != NULL);
        if (!h)
            continue;
        CHECK_EQ(h->count, 64u);
        CHECK_EQ(h->first.cta[0], 0u);
        CHECK_EQ(h->second.cta[0], 1u);
        /* the first occurrence is word 47: the first of the 64 in the
           slot order of the per-word table reports have followed since
           races between CTAs were checked (ptx_check_gwords.c) */
        CHECK_EQ(h->addr, 47u * 4);
        CHECK_EQ(h->second.lane, 15u);
    }
    /* three CTAs of 64 threads over 96 words: block 1 wraps onto block
       0's words 0..31, block 2 onto 32..95.  The first race found is
       block 1's, at its fold when block 2 begins: it must still name
       block 1 (it named the CTA that had just begun) */
    uint32_t wrap[7] = {96, 1, 0, 1, 0, 64, 64};
    CHECK_EQ(launch(m, "rw", 3, 64, buf, sizeof buf, wrap, &chk), WM_OK);
    for (int i = 0; i < 3; i++) {
        const wm_ptx_hazard *h = find(&chk, kinds[i]);
        CHECK(h != NULL);
        if (!h)
            continue;
        CHECK_EQ(h->first.cta[0], 0u);
        CHECK_EQ(h->second.cta[0], 1u);
        CHECK_EQ(h->cta[0], 1u);
        CHECK(h->addr < 32u * 4);
        CHECK_EQ(h->count, 32u + 64u); /* block 1's 32 words, block 2's 64 */
    }
    wm_ptx_check_clear(&chk);
    /* each thread reads the next word before its owner writes it, in a
       buffer that starts uninitialised: one hazard, 255 reads (the last
       thread's is word 0, block 0's) */
    unsigned char un[1] = {1};
    chk.uninit = un;
    chk.nuninit = 1;
    uint32_t next[7] = {256, 1, 1, 1, 0, 64, 64};
    CHECK_EQ(launch(m, "rw", 4, 64, buf, sizeof buf, next, &chk), WM_OK);
    const wm_ptx_hazard *h = find(&chk, WM_HAZ_UNINIT);
    CHECK(h != NULL);
    CHECK(h && h->count == 255u && h->addr == 4u);
    wm_ptx_check_clear(&chk);
}

static uint32_t rnd(uint32_t *s)
{
    *s = *s * 1103515245u + 12345u;
    return *s >> 8;
}

/* A stride: 0 (one word for all), 1 (contiguous), small, or a row. */
static uint32_t stride(uint32_t *s)
{
    static const uint32_t st[] = {0, 1, 1, 1, 2, 3, 32, 33, 64, 255};
    return st[rnd(s) % (sizeof st / sizeof st[0])];
}

static void random_patterns(const wm_ptx_module *m)
{
    static const char *const ks[] = {"rw", "rw", "rw8", "rw64", "at"};
    static const unsigned blocks[] = {32, 64, 96, 128, 256};
    uint32_t seed = 7;
    size_t found = 0;
    for (int trial = 0; trial < 120; trial++) {
        const char *k = ks[rnd(&seed) % 5];
        unsigned block = blocks[rnd(&seed) % 5], grid = 1 + rnd(&seed) % 6;
        uint32_t unit = strcmp(k, "rw8") == 0 ? 1 : strcmp(k, "rw64") ? 4 : 8;
        uint32_t n = 64 + rnd(&seed) % 2000;
        uint32_t cs = rnd(&seed) % 3 == 0 ? rnd(&seed) % n : block;
        uint32_t v[7] = {n, stride(&seed), rnd(&seed) % 40, stride(&seed),
                         rnd(&seed) % 40, cs,
                         rnd(&seed) % 4 ? block : rnd(&seed) % block};
        size_t bytes = (size_t)n * unit;
        void *buf = calloc(bytes, 1);
        CHECK(buf != NULL);
        if (!buf)
            return;
        wm_ptx_check chk;
        memset(&chk, 0, sizeof chk);
        chk.checks = WM_CHECK_RACE | WM_CHECK_INIT;
        if (trial % 4 == 0)
            chk.checks |= WM_CHECK_SCHEDULES;
        chk.schedule = (wm_ptx_schedule)(trial % 3);
        chk.seed = (uint64_t)trial;
        unsigned char un[1] = {(unsigned char)(trial % 5 == 0)};
        chk.uninit = un;
        chk.nuninit = 1;
        CHECK_EQ(launch(m, k, grid, block, buf, bytes, v, &chk), WM_OK);
        found += chk.nhazards;
        wm_ptx_check_clear(&chk);
        free(buf);
    }
    CHECK(found > 0); /* (most patterns race) */
}

/* col or cola on random shapes (columns() says which is which). */
static void column_trials(const wm_ptx_module *m, const char *kernel)
{
    long ki = wm_ptx_find_kernel(m, kernel);
    CHECK(ki >= 0);
    static const uint32_t wss[] = {64, 64, 33, 32, 128, 1, 0};
    static const uint32_t wys[] = {1, 1, 1, 2, 0, 64};
    int wraps = strcmp(kernel, "col") == 0; /* (cola: n holds them all) */
    uint32_t seed = 11;
    size_t found = 0;
    for (int trial = 0; trial < 80 && ki >= 0; trial++) {
        unsigned ny = 2u << rnd(&seed) % 3, grid = 1 + rnd(&seed) % 6;
        uint32_t n = 2048 + rnd(&seed) % 4096;
        n = wraps ? n : 8192; /* 31 x 128 + 7 x 64 + 5 x 47 < 8192 */
        uint32_t ws = wss[rnd(&seed) % 7], wy = wys[rnd(&seed) % 6];
        uint32_t cs = rnd(&seed) % 3 == 0 ? 0
                      : rnd(&seed) % 2 ? ny
                                       : ny + rnd(&seed) % 40;
        uint32_t rd = 1 + rnd(&seed) % 3;
        uint32_t *buf = calloc(n, 4);
        CHECK(buf != NULL);
        if (!buf)
            break;
        wm_ptx_arg a[6] = {pi_arg_buf(buf, (size_t)n * 4), pi_arg_u32(n),
                           pi_arg_u32(ws), pi_arg_u32(wy), pi_arg_u32(cs),
                           pi_arg_u32(rd)};
        wm_ptx_launch l = pi_launch_of(grid, 1, 32, 0, a, 6, NULL, 0);
        l.block[1] = ny;
        wm_ptx_check chk;
        memset(&chk, 0, sizeof chk);
        chk.checks = WM_CHECK_RACE | WM_CHECK_INIT;
        chk.schedule = (wm_ptx_schedule)(trial % 3);
        chk.seed = (uint64_t)trial;
        l.check = &chk;
        wm_ptx_fault ft;
        CHECK_EQ(twin_run(m, (size_t)ki, &l, NULL, NULL, &ft), WM_OK);
        found += chk.nhazards;
        wm_ptx_check_clear(&chk);
        free(buf);
    }
    CHECK(found > 0);
}

/* Two CTAs of 32 x 8 store columns 0..31 (ws 64), words 0..7 of each
   (wy 1): the same 256 words, one WAW between blocks, the first
   occurrence block 1's. */
static void column_block_waw(const wm_ptx_module *m, const char *kernel)
{
    long ki = wm_ptx_find_kernel(m, kernel);
    CHECK(ki >= 0);
    if (ki < 0)
        return;
    uint32_t buf[2048];
    memset(buf, 0, sizeof buf);
    wm_ptx_arg a[6] = {pi_arg_buf(buf, sizeof buf), pi_arg_u32(2048),
                       pi_arg_u32(64), pi_arg_u32(1), pi_arg_u32(0),
                       pi_arg_u32(2)};
    wm_ptx_launch l = pi_launch_of(2, 1, 32, 0, a, 6, NULL, 0);
    l.block[1] = 8;
    wm_ptx_check chk;
    memset(&chk, 0, sizeof chk);
    chk.checks = WM_CHECK_RACE;
    l.check = &chk;
    wm_ptx_fault ft;
    CHECK_EQ(twin_run(m, (size_t)ki, &l, NULL, NULL, &ft), WM_OK);
    CHECK_EQ(chk.nhazards, 1u);
    const wm_ptx_hazard *h = find(&chk, WM_HAZ_WAW);
    CHECK(h != NULL);
    if (h) {
        CHECK_EQ(h->count, 256u);
        CHECK_EQ(h->first.cta[0], 0u);
        CHECK_EQ(h->second.cta[0], 1u);
        /* the same thread of both blocks: lane x, warp y on word
           64 x + y */
        CHECK_EQ(h->first.lane, h->second.lane);
        CHECK_EQ(h->first.warp, h->second.warp);
        CHECK_EQ(h->addr, (64u * h->second.lane + h->second.warp) * 4);
    }
    CHECK_EQ(buf[64 * 5 + 3], 5u + 1u); /* block 1 stored last */
    wm_ptx_check_clear(&chk);
}

/* col on random shapes: blocks of 32 x 2..8 threads (the naive
   transpose's column stores when ws is a row and wy 1), CTAs on the same
   columns or apart, loads, stores or both; each through twin_run.  And
   the hand case column_block_waw.  Both kernels: col's words wrap around
   n (the interpreter does not know the lanes' step), cola's do not (a
   full warp's step is handed to the checker: a column's first touches
   are listed as one entry, and the fold's reports follow that list). */
static void columns(void)
{
    wm_ptx_module *m = pi_parse(col_src, "col.ptx");
    CHECK(m != NULL);
    if (!m)
        return;
    column_trials(m, "col");
    column_trials(m, "cola");
    column_block_waw(m, "col");
    column_block_waw(m, "cola");
    wm_ptx_free(m);
}

/* The race suite's kernels (tests/check/race_suite.cu) on more CTAs (the
   grid_sync ones launched cooperatively: one unit of 4 or 16 CTAs). */
static void race_suite(void)
{
    wm_ptx_module *m = NULL;
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/check/ptx/race_suite_sm_80.ptx",
             WM_SOURCE_DIR);
    size_t n = 0;
    char *text = wm_read_file(path, &n);
    CHECK(text != NULL);
    if (text)
        m = pi_parse(text, path);
    free(text);
    CHECK(m != NULL);
    if (!m)
        return;
    /* buffers of words[b] 4-byte words (0: none; with n, a scalar n
       after the first), the first 0, 1, 2, ..., the others zero */
    static const struct {
        const char *k;
        unsigned grid, block, words[4];
        int n, racy, coop;
    } cs[] = {
        {"warp_waw_racy", 4, 64, {32}, 0, 1, 0},
        {"warp_waw_same", 1, 64, {32}, 0, 0, 0},
        {"warp_waw_same", 4, 64, {32}, 0, 1, 0}, /* one value, blocks apart */
        {"cta_waw_racy", 8, 1024, {1024}, 0, 1, 0},
        {"cta_disjoint", 8, 256, {2048}, 0, 0, 0},
        {"cta_shift_racy", 16, 256, {4096}, 1, 1, 0},
        {"flag_fence", 2, 32, {1, 32, 32}, 0, 0, 0},
        {"flag_nofence", 2, 32, {1, 32, 32}, 0, 1, 0},
        {"flag_writer_fence", 2, 32, {1, 32, 32}, 0, 1, 0},
        {"last_block_fence", 8, 64, {512, 8, 1, 1}, 0, 0, 0},
        {"last_block_nofence", 8, 64, {512, 8, 1, 1}, 0, 1, 0},
        {"hist_atomic", 8, 64, {512, 16}, 0, 0, 0},
        {"hist_block_atomic", 8, 64, {512, 16}, 0, 1, 0},
        {"hist_block_atomic", 1, 64, {64, 16}, 0, 0, 0}, /* one block */
        {"hist_block_atomic_own", 8, 64, {512, 128}, 0, 0, 0},
        {"hist_block_shared", 8, 64, {512, 16}, 0, 0, 0},
        {"warp_flag_acqrel", 1, 64, {1, 32, 32}, 0, 0, 0},
        {"warp_flag_relaxed", 1, 64, {1, 32, 32}, 0, 1, 0},
        {"warp_flag_acqrel", 1, 96, {1, 32, 32}, 0, 0, 0}, /* an idle warp */
        {"warp_flag_block", 1, 64, {1, 32, 32}, 0, 0, 0},
        {"warp_flag_block_relaxed", 1, 64, {1, 32, 32}, 0, 1, 0},
        {"warp_flag_block_fence", 1, 64, {1, 32, 32}, 0, 0, 0},
        {"block_flag_between_blocks", 2, 32, {1, 32, 32}, 0, 1, 0},
        {"warp_flag_block_rmw", 1, 64, {1, 32, 32}, 0, 0, 0},
        {"warp_flag_block_rmw_nofence", 1, 64, {1, 32, 32}, 0, 1, 0},
        {"block_rmw_flag_between_blocks", 2, 32, {1, 32, 32}, 0, 1, 0},
        {"steal_device", 2, 32, {256, 2}, 1, 0, 0},
        {"steal_block", 2, 32, {256, 2}, 1, 1, 0},
        {"steal_device", 4, 32, {256, 4}, 1, 0, 0},
        {"steal_block", 4, 32, {256, 4}, 1, 1, 0},
        {"lock_device", 4, 32, {1, 1}, 0, 0, 0},
        {"lock_block_between_blocks", 4, 32, {1, 1}, 0, 1, 0},
        {"device_var_plain", 4, 32, {4}, 0, 1, 0},
        {"device_var_atomic", 4, 32, {4}, 0, 0, 0},
        {"reset_first", 4, 64, {4}, 0, 1, 0},
        {"reset_last", 4, 64, {4}, 0, 0, 0},
        {"reset_last_other", 4, 64, {4}, 0, 0, 0},
        {"grid_sync_sum", 4, 64, {256, 4, 1}, 0, 0, 1},
        {"grid_sync_sum", 16, 64, {1024, 16, 1}, 0, 0, 1},
        {"grid_sync_late", 4, 64, {256, 4, 1}, 0, 1, 1},
        {"grid_sync_late", 16, 64, {1024, 16, 1}, 0, 1, 1},
    };
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        wm_ptx_arg a[4];
        uint32_t *bufs[4] = {NULL, NULL, NULL, NULL};
        size_t na = 0;
        for (unsigned b = 0; b < 4 && cs[i].words[b]; b++) {
            bufs[b] = calloc(cs[i].words[b], 4);
            CHECK(bufs[b] != NULL);
            for (unsigned w = 0; bufs[b] && w < cs[i].words[b]; w++)
                bufs[b][w] = b == 0 ? w : 0;
            a[na++] = pi_arg_buf(bufs[b], cs[i].words[b] * 4u);
            if (b == 0 && cs[i].n)
                a[na++] = pi_arg_u32(cs[i].words[0]);
        }
        wm_ptx_launch l = pi_launch_of(cs[i].grid, 1, cs[i].block, 0, a, na,
                                       NULL, 0);
        l.cooperative = cs[i].coop;
        wm_ptx_check chk;
        memset(&chk, 0, sizeof chk);
        chk.checks = WM_CHECK_RACE | WM_CHECK_INIT;
        l.check = &chk;
        long k = wm_ptx_find_kernel(m, cs[i].k);
        CHECK(k >= 0);
        wm_ptx_fault ft;
        wm_status st = k < 0 ? WM_ERR_ARG
                             : twin_run(m, (size_t)k, &l, NULL, NULL, &ft);
        CHECK_EQ(st, WM_OK);
        if (st != WM_OK)
            fprintf(stderr, "%s: %s\n", cs[i].k, ft.msg);
        if ((chk.nhazards > 0) != cs[i].racy)
            fprintf(stderr, "%s: %zu hazards\n", cs[i].k, chk.nhazards);
        CHECK_EQ(chk.nhazards > 0, cs[i].racy);
        wm_ptx_check_clear(&chk);
        for (unsigned b = 0; b < 4; b++)
            free(bufs[b]);
    }
    wm_ptx_free(m);
}

int main(void)
{
    wm_ptx_module *m = pi_parse(src, "global.ptx");
    CHECK(m != NULL);
    if (!m)
        return check_done("test_ptx_check_global");
    verdicts(m);
    random_patterns(m);
    columns();
    race_suite();
    wm_ptx_free(m);
    return check_done("test_ptx_check_global");
}
