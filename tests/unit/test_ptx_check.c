/*
 * test_ptx_check.c -- the run-time checker (wm_ptx_check, docs/check.md):
 *   - hand-written PTX, one rule each: a store and a load of another
 *     thread's word race without a barrier, between lanes of one warp
 *     (ordered by bar.warp.sync) and between warps (ordered only by
 *     bar.sync); atomics do not race with atomics but do with a load;
 *     global memory within a CTA; pre-sm_70 warps are in lockstep; a
 *     broadcast read reports every lane that races and keeps the warp's
 *     first two lanes in the read slots;
 *   - the planted-bug kernels of tests/check/ (-O3 and -G): the kind and
 *     both source lines of every hazard, the reversed schedule's output;
 *   - every example kernel case is clean under every check and schedule,
 *     and still computes its reference result; so is a bulk copy ordered
 *     by an mbarrier.
 */
#include "check.h"
#include "kernel_run.h"

#include <stdlib.h>
#include <string.h>

#define ALL_CHECKS (WM_CHECK_RACE | WM_CHECK_INIT | WM_CHECK_SCHEDULES)

/* ---- hand-written kernels ------------------------------------------------ */

/*
 * Every thread stores its tid at word tid of s (or of the global buffer)
 * with STORE, then SYNC, then loads the word of thread tid ^ XOR with
 * LOAD (an atom adds tid) into out[tid].
 */
static char *rule_src(const char *target, const char *store, const char *sync,
                      const char *load, unsigned xor, int global)
{
    static const char fmt[] =
        ".version 8.0\n.target %s\n.address_size 64\n"
        ".visible .entry k(.param .u64 out, .param .u64 g)\n{\n"
        "\t.shared .align 4 .b8 s[256];\n"
        "\t.reg .b32 %%r<12>;\n\t.reg .b64 %%rd<12>;\n"
        "\tmov.u32 %%r1, %%tid.x;\n"
        "\tshl.b32 %%r2, %%r1, 2;\n"
        "\txor.b32 %%r5, %%r1, %u;\n"
        "\tshl.b32 %%r6, %%r5, 2;\n"
        "%s"
        "\t%s [%%ra], %%r1;\n"
        "\t%s\n"
        "\t%s %%r7, [%%rb]%s;\n"
        "\tld.param.u64 %%rd1, [out];\n"
        "\tcvta.to.global.u64 %%rd2, %%rd1;\n"
        "\tmul.wide.u32 %%rd3, %%r1, 4;\n"
        "\tadd.s64 %%rd4, %%rd2, %%rd3;\n"
        "\tst.global.u32 [%%rd4], %%r7;\n"
        "\tret;\n}\n";
    static const char shared_addr[] =
        "\tmov.u32 %r3, s;\n\tadd.u32 %ra, %r3, %r2;\n"
        "\tadd.u32 %rb, %r3, %r6;\n";
    static const char global_addr[] =
        "\tld.param.u64 %rd5, [g];\n\tcvta.to.global.u64 %rd6, %rd5;\n"
        "\tcvt.u64.u32 %rd7, %r2;\n\tadd.s64 %ra, %rd6, %rd7;\n"
        "\tcvt.u64.u32 %rd8, %r6;\n\tadd.s64 %rb, %rd6, %rd8;\n";
    char decl[64], body[4096];
    snprintf(decl, sizeof decl, "\t.reg .b%d %%ra, %%rb;\n", global ? 64 : 32);
    snprintf(body, sizeof body, fmt, target, xor, global ? global_addr
                                                         : shared_addr,
             store, sync, load,
             strncmp(load, "atom", 4) == 0 ? ", %r1" : "");
    char *out = malloc(strlen(body) + sizeof decl);
    if (!out)
        return NULL;
    /* the address registers' declaration goes before the first use */
    const char *at = strstr(body, "\tmov.u32 %r1");
    size_t pre = (size_t)(at - body);
    memcpy(out, body, pre);
    strcpy(out + pre, decl);
    strcat(out, at);
    return out;
}

/* Run src on one CTA of block threads with checks; the check's results
   stay in *chk (clear it).  Returns the run's status. */
static wm_status run_src(const char *src, unsigned block, unsigned checks,
                         wm_ptx_schedule sched, wm_ptx_check *chk)
{
    wm_ptx_module *m = NULL;
    wm_diag d;
    memset(chk, 0, sizeof *chk);
    chk->checks = checks;
    chk->schedule = sched;
    if (!src || wm_ptx_parse(src, strlen(src), "rule.ptx", &m, &d) != WM_OK) {
        if (src)
            wm_diag_print(stderr, &d, "rule.ptx", src, strlen(src));
        return WM_ERR_PARSE;
    }
    uint32_t out[256] = {0}, g[256] = {0};
    wm_ptx_arg args[2];
    memset(args, 0, sizeof args);
    args[0].buf = out;
    args[0].bytes = block * 4;
    args[1].buf = g;
    args[1].bytes = sizeof g;
    wm_ptx_launch l;
    memset(&l, 0, sizeof l);
    l.grid[0] = l.grid[1] = l.grid[2] = 1;
    l.block[0] = block;
    l.block[1] = l.block[2] = 1;
    l.args = args;
    l.nargs = 2;
    l.check = chk;
    wm_ptx_fault ft;
    wm_status st = wm_ptx_run(m, 0, &l, NULL, NULL, &ft);
    if (st != WM_OK)
        fprintf(stderr, "rule.ptx: %s\n", ft.msg);
    wm_ptx_free(m);
    return st;
}

/* The number of hazards of kind k in chk. */
static size_t count_kind(const wm_ptx_check *chk, wm_hazard_kind k)
{
    size_t n = 0;
    for (size_t i = 0; i < chk->nhazards; i++)
        n += chk->hazards[i].kind == k;
    return n;
}

/* One case: the hazards (RAW count, WAR count) a rule kernel must give. */
static void rule(const char *what, const char *target, const char *store,
                 const char *sync, const char *load, unsigned xor, int global,
                 unsigned block, size_t raw, size_t war)
{
    wm_ptx_check chk;
    char *src = rule_src(target, store, sync, load, xor, global);
    CHECK(run_src(src, block, WM_CHECK_RACE, WM_SCHED_IN_ORDER, &chk) ==
          WM_OK);
    size_t got_raw = count_kind(&chk, WM_HAZ_RAW);
    size_t got_war = count_kind(&chk, WM_HAZ_WAR);
    if (got_raw != raw || got_war != war)
        fprintf(stderr, "rule '%s': %zu RAW, %zu WAR (want %zu, %zu)\n", what,
                got_raw, got_war, raw, war);
    CHECK_EQ(got_raw, raw);
    CHECK_EQ(got_war, war);
    CHECK_EQ(count_kind(&chk, WM_HAZ_WAW), 0);
    wm_ptx_check_clear(&chk);
    free(src);
}

static void test_rules(void)
{
    const char *st = "st.shared.u32", *ld = "ld.shared.u32";
    const char *stg = "st.global.u32", *ldg = "ld.global.u32";
    /* lanes of one warp (tid ^ 1): the neighbour's store, then the load:
       one instruction pair, read-after-write */
    rule("lanes, no sync", "sm_80", st, "", ld, 1, 0, 32, 1, 0);
    rule("lanes, bar.warp.sync", "sm_80", st, "bar.warp.sync -1;", ld, 1, 0,
         32, 0, 0);
    rule("lanes, bar.sync", "sm_80", st, "bar.sync 0;", ld, 1, 0, 32, 0, 0);
    /* before sm_70 a warp runs in lockstep: no hazard between its lanes */
    rule("lanes, sm_60", "sm_60", st, "", ld, 1, 0, 32, 0, 0);
    /* warps 0 and 1 (tid ^ 32): warp 0 loads warp 1's word before warp 1
       stores it (write-after-read), warp 1 loads warp 0's stored word
       (read-after-write); bar.warp.sync does not order warps */
    rule("warps, no sync", "sm_80", st, "", ld, 32, 0, 64, 1, 1);
    rule("warps, bar.warp.sync", "sm_80", st, "bar.warp.sync -1;", ld, 32, 0,
         64, 1, 1);
    rule("warps, bar.sync", "sm_80", st, "bar.sync 0;", ld, 32, 0, 64, 0, 0);
    rule("warps, sm_60", "sm_60", st, "", ld, 32, 0, 64, 1, 1);
    /* atomics: two atomics never race; an atomic and a load do */
    rule("atomics", "sm_80", "atom.shared.add.u32 %r9,", "",
         "atom.shared.add.u32", 32, 0, 64, 0, 0);
    rule("atomic then load", "sm_80", "atom.shared.add.u32 %r9,", "", ld, 32,
         0, 64, 1, 1);
    /* the same between warps of a CTA on a global buffer */
    rule("global, no sync", "sm_80", stg, "", ldg, 32, 1, 64, 1, 1);
    rule("global, bar.sync", "sm_80", stg, "bar.sync 0;", ldg, 32, 1, 64, 0,
         0);
}

/* The hazards of one access pair: (warp, lane) and the record. */
static void test_rule_record(void)
{
    wm_ptx_check chk;
    char *src = rule_src("sm_80", "st.shared.u32", "", "ld.shared.u32", 1, 0);
    CHECK(run_src(src, 32, WM_CHECK_RACE, WM_SCHED_IN_ORDER, &chk) == WM_OK);
    CHECK_EQ(chk.nhazards, 1);
    if (chk.nhazards == 1) {
        const wm_ptx_hazard *h = &chk.hazards[0];
        CHECK_EQ(h->kind, WM_HAZ_RAW);
        CHECK_EQ(h->space, WM_SPACE_SHARED);
        /* lane 0 reads word 1 that lane 1 wrote: the first report */
        CHECK_EQ(h->addr, 4);
        CHECK_EQ(h->first.lane, 1);
        CHECK_EQ(h->second.lane, 0);
        CHECK(h->first.write && !h->second.write);
        CHECK_EQ(h->count, 32); /* every lane's word */
    }
    wm_ptx_check_clear(&chk);
    /* a read of shared memory no thread wrote: lane 0 of warp 0 loads word
       32, which the second warp never stores (32 threads only) */
    free(src);
    src = rule_src("sm_80", "st.shared.u32", "bar.sync 0;", "ld.shared.u32",
                   32, 0);
    CHECK(run_src(src, 32, WM_CHECK_INIT, WM_SCHED_IN_ORDER, &chk) == WM_OK);
    CHECK_EQ(chk.nhazards, 1);
    if (chk.nhazards == 1) {
        CHECK_EQ(chk.hazards[0].kind, WM_HAZ_UNINIT);
        CHECK_EQ(chk.hazards[0].addr, 128);
        CHECK_EQ(chk.hazards[0].count, 32);
    }
    wm_ptx_check_clear(&chk);
    free(src);
}

/*
 * A broadcast: every thread of two warps reads shared word 0.  Thread W
 * stores it first; after bar.sync SYNC (or none) all read it; then thread
 * 32 (warp 1's lane 0) stores it again with no barrier in between.
 */
static char *broadcast_src(unsigned w, const char *sync)
{
    static const char fmt[] =
        ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".visible .entry k(.param .u64 out, .param .u64 g)\n{\n"
        "\t.shared .align 4 .b8 s[256];\n"
        "\t.reg .b32 %%r<12>;\n\t.reg .pred %%p<3>;\n"
        "\tmov.u32 %%r1, %%tid.x;\n"
        "\tmov.u32 %%r2, s;\n"
        "\tsetp.eq.u32 %%p1, %%r1, %u;\n"
        "\tsetp.eq.u32 %%p2, %%r1, 32;\n"
        "\t@%%p1 st.shared.u32 [%%r2], %%r1;\n"
        "\t%s\n"
        "\tld.shared.u32 %%r7, [%%r2];\n"
        "\t@%%p2 st.shared.u32 [%%r2], %%r7;\n"
        "\tret;\n}\n";
    char *out = malloc(sizeof fmt + 64);
    if (out)
        snprintf(out, sizeof fmt + 64, fmt, w, sync);
    return out;
}

/* The lanes of a broadcast read: each one that can race is reported (the
   checker's shortcuts skip only lanes that cannot), and the read slots
   keep the warp's first two lanes. */
static void test_broadcast(void)
{
    wm_ptx_check chk;
    /* thread 0 stores, no barrier: warp 1's 32 reads of it race (warp 0's
       own are its lanes after lane 0 in one instruction: unordered too) */
    char *src = broadcast_src(0, "");
    CHECK(run_src(src, 64, WM_CHECK_RACE, WM_SCHED_IN_ORDER, &chk) == WM_OK);
    size_t raw = 0;
    for (size_t i = 0; i < chk.nhazards; i++)
        if (chk.hazards[i].kind == WM_HAZ_RAW)
            raw += chk.hazards[i].count;
    CHECK_EQ(raw, 31 + 32); /* warp 0's lanes 1-31, all of warp 1 */
    wm_ptx_check_clear(&chk);
    free(src);
    /* thread 32 stores, bar.sync, all read (clean), thread 32 stores
       again: one write-after-read against the read slot that warp 0's
       lane 0 filled (lanes 0 and 1 hold the slots, warp 1's reads are
       dropped) */
    src = broadcast_src(32, "bar.sync 0;");
    CHECK(run_src(src, 64, WM_CHECK_RACE, WM_SCHED_IN_ORDER, &chk) == WM_OK);
    CHECK_EQ(chk.nhazards, 1);
    if (chk.nhazards == 1) {
        const wm_ptx_hazard *h = &chk.hazards[0];
        CHECK_EQ(h->kind, WM_HAZ_WAR);
        CHECK_EQ(h->addr, 0);
        CHECK_EQ(h->first.warp, 0);
        CHECK_EQ(h->first.lane, 0);
        CHECK_EQ(h->second.warp, 1);
        CHECK_EQ(h->second.lane, 0);
        CHECK_EQ(h->count, 1);
    }
    wm_ptx_check_clear(&chk);
    free(src);
}

/* ---- planted bugs ------------------------------------------------------- */

typedef struct pair {
    wm_hazard_kind kind;
    unsigned first, second; /* source lines (first 0: initcheck) */
} pair;

static wm_ptx_module *load_ptx(const char *rel)
{
    size_t n;
    char *src = kr_read_source(rel, &n);
    wm_ptx_module *m = NULL;
    wm_diag d;
    if (!src || wm_ptx_parse(src, n, rel, &m, &d) != WM_OK) {
        fprintf(stderr, "cannot load %s\n", rel);
        m = NULL;
    }
    free(src);
    return m;
}

static unsigned src_line(const wm_ptx_module *m, size_t insn)
{
    wm_ptx_where w;
    return wm_ptx_where_insn(m, insn, &w) ? w.line : 0;
}

/*
 * Every hazard of chk is one of want[0..n) and every entry of want is
 * reported (n <= 32).
 */
static void expect_pairs(const char *what, const wm_ptx_module *m,
                         const wm_ptx_check *chk, const pair *want, size_t n)
{
    int seen[32] = {0};
    for (size_t i = 0; i < chk->nhazards; i++) {
        const wm_ptx_hazard *h = &chk->hazards[i];
        unsigned a = h->kind == WM_HAZ_UNINIT ? 0 : src_line(m, h->first.insn);
        unsigned b = src_line(m, h->second.insn);
        size_t k = 0;
        while (k < n && !(want[k].kind == h->kind && want[k].first == a &&
                          want[k].second == b))
            k++;
        if (k == n)
            fprintf(stderr, "%s: unexpected %s between lines %u and %u\n",
                    what, wm_hazard_name(h->kind), a, b);
        CHECK(k < n);
        if (k < n)
            seen[k] = 1;
    }
    for (size_t k = 0; k < n; k++) {
        if (!seen[k])
            fprintf(stderr, "%s: no %s between lines %u and %u\n", what,
                    wm_hazard_name(want[k].kind), want[k].first,
                    want[k].second);
        CHECK(seen[k]);
    }
}

/* Launch a planted kernel: float out/in buffers (in = iota), an n. */
static wm_status run_planted(const wm_ptx_module *m, unsigned grid,
                             unsigned bx, unsigned by, size_t nout, size_t nin,
                             int nargs, wm_ptx_check *chk, float *out)
{
    float *in = calloc(nin, sizeof *in), *in2 = calloc(nin, sizeof *in2);
    wm_ptx_arg args[4];
    memset(args, 0, sizeof args);
    for (size_t i = 0; in && in2 && i < nin; i++)
        in[i] = in2[i] = (float)i;
    args[0].buf = out;
    args[0].bytes = nout * sizeof *out;
    args[1].buf = in;
    args[1].bytes = nin * sizeof *in;
    args[2].buf = in2; /* gemm_war's B; stencil_halo's n is a scalar */
    args[2].bytes = nin * sizeof *in2;
    unsigned n = bx * grid;
    if (nargs == 3) { /* (out, in, n) */
        memset(&args[2], 0, sizeof args[2]);
        args[2].scalar = (uint32_t)n;
        args[2].size = 4;
    }
    args[3].scalar = bx * grid; /* gemm_war: n */
    args[3].size = 4;
    wm_ptx_launch l;
    memset(&l, 0, sizeof l);
    l.grid[0] = grid;
    l.grid[1] = by > 1 ? grid : 1;
    l.grid[2] = 1;
    l.block[0] = bx;
    l.block[1] = by;
    l.block[2] = 1;
    l.args = args;
    l.nargs = (size_t)nargs;
    l.check = chk;
    wm_ptx_fault ft;
    wm_status st = in && in2 ? wm_ptx_run(m, 0, &l, NULL, NULL, &ft)
                             : WM_ERR_NOMEM;
    if (st != WM_OK)
        fprintf(stderr, "planted run: %s\n", ft.msg);
    free(in);
    free(in2);
    return st;
}

static void test_reduce_nosync(const char *rel)
{
    wm_ptx_module *m = load_ptx(rel);
    CHECK(m != NULL);
    if (!m)
        return;
    float out[1];
    wm_ptx_check chk;
    memset(&chk, 0, sizeof chk);
    chk.checks = WM_CHECK_RACE | WM_CHECK_SCHEDULES;
    unsigned es[2] = {4, 4};
    chk.elem_size = es;
    chk.nelem_size = 2;
    /* in order, warp 0 reads sdata[128..] (line 18) before warp 4 stores
       it (line 14): write-after-read, and the sum misses in[128..255] */
    CHECK(run_planted(m, 1, 256, 1, 1, 256, 2, &chk, out) == WM_OK);
    static const pair war[] = {{WM_HAZ_WAR, 18, 14}};
    expect_pairs(rel, m, &chk, war, 1);
    CHECK(out[0] == 8128.0f); /* 0 + 1 + ... + 127 */
    CHECK_EQ(chk.differs, 1);
    CHECK_EQ(chk.diff_arg, 0);
    CHECK_EQ(chk.diff_elem, 0);
    CHECK_EQ(chk.other, WM_SCHED_REVERSE);
    float a, b;
    memcpy(&a, chk.diff_bytes[0], 4);
    memcpy(&b, chk.diff_bytes[1], 4);
    CHECK(a == 8128.0f && b == 32640.0f); /* reversed: 0 + ... + 255 */
    wm_ptx_check_clear(&chk);
    /* reversed, warp 4 stores first and warp 3 reads it: read-after-write */
    chk.schedule = WM_SCHED_REVERSE;
    CHECK(run_planted(m, 1, 256, 1, 1, 256, 2, &chk, out) == WM_OK);
    static const pair raw[] = {{WM_HAZ_RAW, 14, 18}};
    expect_pairs(rel, m, &chk, raw, 1);
    CHECK(out[0] == 32640.0f);
    CHECK_EQ(chk.differs, 1);
    wm_ptx_check_clear(&chk);
    wm_ptx_free(m);
}

static void test_gemm_war(const char *rel)
{
    wm_ptx_module *m = load_ptx(rel);
    CHECK(m != NULL);
    if (!m)
        return;
    float out[32 * 32];
    wm_ptx_check chk;
    memset(&chk, 0, sizeof chk);
    chk.checks = ALL_CHECKS;
    /* n = 32: two k steps.  The second overwrites As (line 19, the same
       warp's other lanes read it at line 23) and Bs (line 20, every warp
       reads it at line 23) with no barrier after the reads; warps that
       run later then read the new Bs rows of warps that ran before. */
    CHECK(run_planted(m, 2, 16, 16, 32 * 32, 32 * 32, 4, &chk, out) == WM_OK);
    static const pair want[] = {{WM_HAZ_WAR, 23, 19},
                                {WM_HAZ_WAR, 23, 20},
                                {WM_HAZ_RAW, 20, 23}};
    expect_pairs(rel, m, &chk, want, 3);
    CHECK_EQ(chk.differs, 1);
    wm_ptx_check_clear(&chk);
    wm_ptx_free(m);
}

static void test_warp_reduce(const char *rel)
{
    wm_ptx_module *m = load_ptx(rel);
    CHECK(m != NULL);
    if (!m)
        return;
    float out[1];
    wm_ptx_check chk;
    memset(&chk, 0, sizeof chk);
    chk.checks = ALL_CHECKS;
    CHECK(run_planted(m, 1, 64, 1, 1, 64, 2, &chk, out) == WM_OK);
    /* step L (lines 18..23) reads what step L - 1 wrote into another lane's
       slot, and writes slots that earlier steps' lanes read; all within
       warp 0, none between warps */
    pair want[32];
    size_t n = 0;
    for (unsigned l = 19; l <= 23; l++)
        want[n++] = (pair){WM_HAZ_RAW, l - 1, l};
    for (unsigned l = 19; l <= 23; l++)
        for (unsigned r = 19; r <= l && n < 32; r++)
            want[n++] = (pair){WM_HAZ_WAR, r, l};
    CHECK_EQ(n, 5 + 15);
    expect_pairs(rel, m, &chk, want, n);
    for (size_t i = 0; i < chk.nhazards; i++)
        CHECK(chk.hazards[i].first.warp == 0 &&
              chk.hazards[i].second.warp == 0 &&
              chk.hazards[i].first.lane != chk.hazards[i].second.lane);
    CHECK_EQ(chk.differs, 0); /* a warp's lanes run in lockstep here */
    CHECK(out[0] == 2016.0f); /* 0 + ... + 63 */
    wm_ptx_check_clear(&chk);
    wm_ptx_free(m);
}

static void test_stencil_halo(const char *rel)
{
    wm_ptx_module *m = load_ptx(rel);
    CHECK(m != NULL);
    if (!m)
        return;
    float out[256];
    wm_ptx_check chk;
    memset(&chk, 0, sizeof chk);
    chk.checks = ALL_CHECKS;
    CHECK(run_planted(m, 2, 128, 1, 256, 256, 3, &chk, out) == WM_OK);
    static const pair want[] = {{WM_HAZ_UNINIT, 0, 19}};
    expect_pairs(rel, m, &chk, want, 1);
    if (chk.nhazards == 1) {
        const wm_ptx_hazard *h = &chk.hazards[0];
        CHECK_EQ(h->addr, 129 * 4); /* t[NT + 1] */
        CHECK_EQ(h->second.warp, 3);
        CHECK_EQ(h->second.lane, 31);
        CHECK_EQ(h->count, 2); /* once in each of the two CTAs */
    }
    wm_ptx_check_clear(&chk);
    wm_ptx_free(m);
}

/* A global buffer declared uninitialised: the example copy reads it. */
static void test_global_uninit(void)
{
    const kernel_case *kc = kr_find("copy");
    CHECK(kc != NULL);
    if (!kc)
        return;
    unsigned char un[3] = {1, 1, 0}; /* out and in start uninitialised */
    wm_ptx_check chk;
    memset(&chk, 0, sizeof chk);
    chk.checks = WM_CHECK_INIT;
    chk.uninit = un;
    chk.nuninit = 3;
    kr_run r;
    CHECK(kr_run_case_check(kc, "sm_80", 1, 0, &chk, &r));
    /* only the loads of in are reported (out is written, never read) */
    CHECK_EQ(chk.nhazards, 1);
    if (chk.nhazards == 1) {
        const wm_ptx_hazard *h = &chk.hazards[0];
        CHECK_EQ(h->kind, WM_HAZ_UNINIT);
        CHECK_EQ(h->space, WM_SPACE_GLOBAL);
        CHECK_EQ(h->buf, 1);
        CHECK_EQ(h->addr, 0);
        CHECK_EQ(src_line(r.m, h->second.insn), 16);
        CHECK_EQ(h->count, 4096);
    }
    wm_ptx_check_clear(&chk);
    kr_free(&r);
}

/* The corpus's Hopper bulk copy: thread 0 starts a cp.async.bulk into
   shared memory that completes on an mbarrier, every thread waits on it
   and reads the copy.  The mbarrier orders the copy before the reads. */
static void test_mbarrier_clean(void)
{
    const char *rel = "tests/corpus/ptx/hopper_sm_90a.ptx";
    wm_ptx_module *m = load_ptx(rel);
    CHECK(m != NULL);
    if (!m)
        return;
    float in[512], out[512];
    for (int i = 0; i < 512; i++)
        in[i] = (float)i;
    wm_ptx_arg args[2];
    memset(args, 0, sizeof args);
    args[0].buf = in;
    args[0].bytes = sizeof in;
    args[1].buf = out;
    args[1].bytes = sizeof out;
    wm_ptx_launch l;
    memset(&l, 0, sizeof l);
    l.grid[0] = 2;
    l.grid[1] = l.grid[2] = 1;
    l.block[0] = 256;
    l.block[1] = l.block[2] = 1;
    l.args = args;
    l.nargs = 2;
    wm_ptx_check chk;
    memset(&chk, 0, sizeof chk);
    chk.checks = ALL_CHECKS;
    l.check = &chk;
    wm_ptx_fault ft;
    long k = wm_ptx_find_kernel(m, "bulk_copy");
    CHECK(k >= 0);
    CHECK(k >= 0 && wm_ptx_run(m, (size_t)k, &l, NULL, NULL, &ft) == WM_OK);
    if (chk.nhazards)
        wm_ptx_check_print(stderr, m, &chk);
    CHECK_EQ(chk.nhazards, 0);
    CHECK_EQ(chk.differs, 0);
    CHECK(out[300] == 600.0f);
    wm_ptx_check_clear(&chk);
    wm_ptx_free(m);
}

/* ---- the examples are clean --------------------------------------------- */

static void test_examples_clean(void)
{
    static const wm_ptx_schedule scheds[] = {
        WM_SCHED_IN_ORDER, WM_SCHED_REVERSE, WM_SCHED_RANDOM};
    for (size_t i = 0; i < nkernel_cases; i++)
        for (size_t s = 0; s < 3; s++) {
            const kernel_case *kc = &kernel_cases[i];
            wm_ptx_check chk;
            memset(&chk, 0, sizeof chk);
            chk.checks = ALL_CHECKS;
            chk.schedule = scheds[s];
            chk.seed = 7;
            kr_run r;
            int ran = kr_run_case_check(kc, "sm_80", 1, 0, &chk, &r);
            CHECK(ran);
            char why[256] = "";
            int ok = ran && kc->check(r.bufs, why, sizeof why);
            if (chk.nhazards || chk.differs || !ok) {
                fprintf(stderr, "%s (%s): %zu hazards, outputs %s; %s\n",
                        kc->name, wm_ptx_schedule_name(scheds[s]),
                        chk.nhazards, chk.differs ? "differ" : "agree", why);
                wm_ptx_check_print(stderr, r.m, &chk);
            }
            CHECK(ok);
            CHECK_EQ(chk.nhazards, 0);
            CHECK_EQ(chk.dropped, 0);
            CHECK_EQ(chk.differs, 0);
            wm_ptx_check_clear(&chk);
            kr_free(&r);
        }
}

int main(void)
{
    test_rules();
    test_rule_record();
    test_broadcast();
    static const char *const vars[] = {"sm_80", "sm_90", "G_sm_80",
                                       "G_sm_90"};
    for (size_t v = 0; v < 4; v++) {
        char p[160];
        snprintf(p, sizeof p, "tests/check/ptx/reduce_nosync_%s.ptx", vars[v]);
        test_reduce_nosync(p);
        snprintf(p, sizeof p, "tests/check/ptx/gemm_war_%s.ptx", vars[v]);
        test_gemm_war(p);
        snprintf(p, sizeof p, "tests/check/ptx/warp_reduce_%s.ptx", vars[v]);
        test_warp_reduce(p);
        snprintf(p, sizeof p, "tests/check/ptx/stencil_halo_%s.ptx", vars[v]);
        test_stencil_halo(p);
    }
    test_global_uninit();
    test_mbarrier_clean();
    test_examples_clean();
    return check_done("test_ptx_check");
}
