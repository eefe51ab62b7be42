/*
 * test_expr_random.c -- random index expressions evaluated by the
 * per-thread reference (expr_ref.c) and by the compiled, hoisted, vector
 * path (expr_compile.c + expr_eval.c) must form exactly the same warp
 * accesses -- every mask and every lane address -- and, when they fault,
 * the same fault: statement, lane, block, thread, column and message.
 *
 * Programs are random C expressions over every variable and operator,
 * run on random launches (partial warps, 1-3-D blocks, 32 and 64 lanes),
 * with and without an `if`, in bounded and open ([]) arrays, some wrapped
 * into range so that most runs finish and some left raw so that bounds
 * and address faults happen.
 */
#include "expr_int.h"
#include "check.h"

#include <stdio.h>

static uint64_t rng = 0x9e3779b97f4a7c15u;

static unsigned rnd(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

/* Append a random expression of depth <= d to buf. */
static void gen(char *buf, size_t cap, int d)
{
    static const char *const leaves[] = {
        "tid.x",   "tid.y",   "tid.z",    "laneid", "warpid", "ctaid.x",
        "ctaid.y", "ntid.x",  "nctaid.x", "j",      "k",      "N",
        "3",       "0",       "1",        "32",     "7",      "-5",
        "0x40",    "threadIdx.x", "blockIdx.y", "blockDim.y"};
    static const char *const binops[] = {
        "+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^",
        "<", "<=", ">", ">=", "==", "!=", "&&", "||"};
    size_t n = strlen(buf);
    if (d == 0 || rnd(4) == 0) {
        snprintf(buf + n, cap - n, "%s", leaves[rnd(WM_ARRAY_LEN(leaves))]);
        return;
    }
    switch (rnd(9)) {
    case 0:
        snprintf(buf + n, cap - n, "%s(", rnd(2) ? "-" : rnd(2) ? "~" : "!");
        gen(buf, cap, d - 1);
        strncat(buf, ")", cap - strlen(buf) - 1);
        return;
    case 1:
        strncat(buf, "(", cap - n - 1);
        gen(buf, cap, d - 1);
        strncat(buf, " ? ", cap - strlen(buf) - 1);
        gen(buf, cap, d - 1);
        strncat(buf, " : ", cap - strlen(buf) - 1);
        gen(buf, cap, d - 1);
        strncat(buf, ")", cap - strlen(buf) - 1);
        return;
    case 2:
        strncat(buf, rnd(2) ? "min(" : "max(", cap - n - 1);
        gen(buf, cap, d - 1);
        strncat(buf, ", ", cap - strlen(buf) - 1);
        gen(buf, cap, d - 1);
        strncat(buf, ")", cap - strlen(buf) - 1);
        return;
    default: {
        const char *op = binops[rnd(WM_ARRAY_LEN(binops))];
        /* Keep shifts mostly in range so they do not always fault. */
        int small = strcmp(op, "<<") == 0 || strcmp(op, ">>") == 0;
        strncat(buf, "(", cap - n - 1);
        gen(buf, cap, d - 1);
        strncat(buf, " ", cap - strlen(buf) - 1);
        strncat(buf, op, cap - strlen(buf) - 1);
        strncat(buf, " ", cap - strlen(buf) - 1);
        if (small && rnd(4) != 0) {
            strncat(buf, "(", cap - strlen(buf) - 1);
            gen(buf, cap, d - 1);
            strncat(buf, " & 15)", cap - strlen(buf) - 1);
        } else {
            gen(buf, cap, d - 1);
        }
        strncat(buf, ")", cap - strlen(buf) - 1);
        return;
    }
    }
}

/* Everything the walk produced, reduced to a hash and a count. */
typedef struct trace {
    uint64_t n, hash, active;
} trace;

static wm_status trace_sink(void *ctx, const wm_access *a,
                            const wm_expr_where *w)
{
    trace *t = ctx;
    t->n++;
    t->hash = (t->hash ^ a->site ^ a->mask ^ ((uint64_t)w->warp << 40)) *
              0x100000001b3u;
    for (unsigned l = 0; l < WM_MAX_LANES; l++)
        if (a->mask >> l & 1) {
            t->hash = (t->hash ^ a->addr[l] ^ l) * 0x100000001b3u;
            t->active++;
        }
    return WM_OK;
}

static int nfault, nok, nprograms;

static void one_program(const char *src, const wm_arch *arch)
{
    wm_expr *e = wm_expr_new();
    wm_diag d;
    CHECK(e != NULL);
    wm_status st = wm_expr_parse(e, src, strlen(src), "random", &d);
    if (st != WM_OK) {
        fprintf(stderr, "parse failed: %s\n%s\n", d.msg, src);
        CHECK(0);
        wm_expr_free(e);
        return;
    }
    trace tf = {0, 0, 0}, tr = {0, 0, 0};
    wm_expr_fault ff, fr;
    memset(&ff, 0, sizeof ff);
    memset(&fr, 0, sizeof fr);
    wm_status sf = wmi_expr_walk(e, arch, 0, 1u << 22, trace_sink, &tf, &ff);
    wm_status sr = wmi_expr_walk(e, arch, 1, 1u << 22, trace_sink, &tr, &fr);
    nprograms++;
    CHECK_EQ(sf, sr);
    CHECK_EQ(tf.n, tr.n);
    CHECK(tf.hash == tr.hash);
    CHECK_EQ(tf.active, tr.active);
    if (sf == WM_ERR_FAULT && sr == WM_ERR_FAULT) {
        nfault++;
        CHECK_EQ(ff.stmt, fr.stmt);
        CHECK_EQ(ff.lane, fr.lane);
        CHECK_EQ(ff.where.warp, fr.where.warp);
        CHECK(memcmp(ff.where.block, fr.where.block, sizeof ff.where.block) ==
              0);
        CHECK(memcmp(ff.thread, fr.thread, sizeof ff.thread) == 0);
        CHECK_EQ(ff.diag.offset, fr.diag.offset);
        CHECK(strcmp(ff.diag.msg, fr.diag.msg) == 0);
    } else if (sf == WM_OK) {
        nok++;
    }
    if (sf != sr || tf.hash != tr.hash ||
        (sf == WM_ERR_FAULT && strcmp(ff.diag.msg, fr.diag.msg) != 0))
        fprintf(stderr, "mismatch (%s / %s) for:\n%s\n  fast: %s\n  ref:  %s\n",
                wm_status_str(sf), wm_status_str(sr), src, ff.diag.msg,
                fr.diag.msg);
    wm_expr_free(e);
}

static void random_programs(int count)
{
    const wm_arch *w32 = wm_arch_default();
    wm_arch w64;
    CHECK(wm_arch_parse("amd-wave64", &w64, NULL, 0) == WM_OK);
    for (int i = 0; i < count; i++) {
        char src[4096], e1[1024], e2[1024], e3[512];
        unsigned bx = 1 + rnd(70), by = 1 + rnd(4), bz = 1 + rnd(3);
        if (rnd(3) == 0)
            bx = 32 * (1 + rnd(2)); /* uniform tid.y */
        while (bx * by * bz > 1024)
            bx /= 2;
        e1[0] = e2[0] = e3[0] = '\0';
        gen(e1, sizeof e1, 4);
        gen(e2, sizeof e2, 3);
        gen(e3, sizeof e3, 3);
        int wrap = rnd(4) != 0;
        const char *space = rnd(2) ? "global" : "shared";
        int n = snprintf(src, sizeof src,
                         "const N = %u\nblock %u, %u, %u\ngrid %u, %u\n",
                         1 + rnd(40), bx, by, bz, 1 + rnd(3), 1 + rnd(2));
        switch (rnd(3)) {
        case 0: /* 2-D bounded array */
            n += snprintf(src + n, sizeof src - (size_t)n,
                          "load %s f32 a[64][48] pad %u at [%s%s%s][%s%s%s]",
                          space, rnd(3), wrap ? "(" : "", e1,
                          wrap ? ") & 63" : "", wrap ? "(" : "", e2,
                          wrap ? ") % 48 + 47 - 47 * (1 - 0)" : "");
            break;
        case 1: /* open first dimension: address faults below 0 */
            n += snprintf(src + n, sizeof src - (size_t)n,
                          "store %s f16x4 b[][16] offset 64 at [%s%s][%s]",
                          space, e1, wrap ? " & 1023" : "",
                          "(tid.x + j) & 15");
            break;
        default: /* 1-D, affine index likely */
            n += snprintf(src + n, sizeof src - (size_t)n,
                          "atomic global u32 c[4096] at [(%s) + ctaid.x*64 "
                          "+ tid.x + 2*k %s]",
                          e1, wrap ? "& 4095" : "");
            break;
        }
        n += snprintf(src + n, sizeof src - (size_t)n,
                      " for j in 0..%u step %u for k in j..3", rnd(5),
                      1 + rnd(3));
        if (rnd(2))
            n += snprintf(src + n, sizeof src - (size_t)n, " if %s", e3);
        snprintf(src + n, sizeof src - (size_t)n,
                 "\nload shared u8 t[1024] at [(tid.x * 33 + tid.y + j) & "
                 "1023] for j in 0..2\n");
        one_program(src, rnd(4) == 0 ? &w64 : w32);
    }
}

/* Hand-picked cases where order of faults across lanes matters. */
static void fault_order(void)
{
    const char *progs[] = {
        /* lane 3 divides by zero, lanes 0..2 in bounds: lane 3 reported */
        "block 32\nload global f32 a[100] at [10 / (tid.x - 3)]\n",
        /* lane 1 out of bounds before lane 3's division by zero */
        "block 32\nload global f32 a[4] at [tid.x == 1 ? 9 : 10 / (tid.x - "
        "3)]\n",
        /* division only on the untaken side of ?: does not fault */
        "block 32\nload global f32 a[40] at [tid.x == 3 ? 0 : 10 / (tid.x - "
        "3)]\n",
        /* && short-circuit hides the division */
        "block 32\nload global f32 a[40] at [tid.x != 3 && 10 / (tid.x - "
        "3)]\n",
        /* a false `if` hides the division */
        "block 32\nload global f32 a[40] at [10 / (tid.x - 3)] if tid.x != 3\n",
        /* scalar division by zero faults at lane 0 */
        "block 32\nload global f32 a[40] at [tid.x + 10 / ctaid.x]\n",
        /* shift out of range only in block 1 */
        "block 64\ngrid 2\nload global f32 a[4096] at [1 << (tid.x + 30 * "
        "ctaid.x)]\n",
        /* bad loop step */
        "block 32\nload global f32 a[40] at [j] for j in 0..8 step ctaid.x\n",
        /* pred faults for lane 5 before its index is out of bounds */
        "block 32\nload global f32 a[4] at [tid.x] if 1 % (tid.x - 5) == 0 "
        "|| 1\n",
        /* open array: negative address */
        "block 32\nload global f32 a[][8] at [tid.x - 2][0]\n",
        /* address overflow */
        "block 32\nload global f64 a[][1 << 40] at [tid.x << 30][0]\n",
    };
    for (size_t i = 0; i < WM_ARRAY_LEN(progs); i++)
        one_program(progs[i], wm_arch_default());
}

int main(void)
{
    fault_order();
    random_programs(1500);
    printf("%d programs: %d ran, %d faulted identically\n", nprograms, nok,
           nfault);
    /* Both outcomes must be exercised for the comparison to mean much. */
    CHECK(nok > 300);
    CHECK(nfault > 100);
    return check_done("test_expr_random");
}
