/*
 * test_expr_lang.c -- the expression language: C's integer semantics and
 * precedence (checked through `const`, which the parser evaluates), every
 * parse error with its exact line:col and text, warp formation (linear
 * thread ids, partial warps, `if` masks, 64-lane warps) and run-time
 * faults with block and thread coordinates.
 */
#include "expr_int.h"
#include "check.h"

#include <stdio.h>

/* Value of constant X after parsing "const X = <text>". */
static int64_t const_value(const char *text, wm_status *st)
{
    char src[512];
    wm_diag d;
    snprintf(src, sizeof src, "const X = %s\n", text);
    wm_expr *e = wm_expr_new();
    *st = wm_expr_parse(e, src, strlen(src), "t", &d);
    int64_t v = e->nconsts ? e->consts[e->nconsts - 1].value : -999;
    wm_expr_free(e);
    return v;
}

static void semantics(void)
{
    static const struct {
        const char *text;
        int64_t value;
    } cases[] = {
        {"1 + 2 * 3 << 1", 14},  /* * before + before << */
        {"6 & 3 ^ 1 | 8", 11},   /* & before ^ before | */
        {"1 < 2 == 1", 1},       /* relational before equality */
        {"-7 / 2", -3},          /* C truncates toward zero */
        {"-7 % 2", -1},          /* remainder takes the dividend's sign */
        {"7 % -2", 1},
        {"-8 >> 1", -4},         /* arithmetic shift */
        {"1 << 63", INT64_MIN},  /* wraps */
        {"0x7fffffffffffffff + 1", INT64_MIN},
        {"-0x7fffffffffffffff - 1 == 0x7fffffffffffffff + 1", 1},
        {"(-0x7fffffffffffffff - 1) / -1", INT64_MIN},
        {"(-0x7fffffffffffffff - 1) % -1", 0},
        {"~0", -1},
        {"!5 + !0", 1},
        {"3 && 0 || 2", 1},
        {"0 ? 1 : 2 ? 3 : 4", 3}, /* ?: is right-associative */
        {"min(3, -4) + max(3, -4)", -1},
        {"0b1010 + 0x10 + 1_000", 1026},
        {"10 - 3 - 2", 5},        /* left-associative */
        {"1 || 1 / 0", 1},        /* short-circuit: no fault */
        {"0 && 1 % 0", 0},
        {"1 ? 2 : 1 / 0", 2},
    };
    for (size_t i = 0; i < WM_ARRAY_LEN(cases); i++) {
        wm_status st;
        int64_t v = const_value(cases[i].text, &st);
        if (st != WM_OK || v != cases[i].value)
            fprintf(stderr, "'%s' gave %lld\n", cases[i].text, (long long)v);
        CHECK_EQ(st, WM_OK);
        CHECK(v == cases[i].value);
    }
}

/* Parse errors: exact position and message. */
static void parse_errors(void)
{
    static const struct {
        const char *src;
        int line, col;
        const char *msg;
    } cases[] = {
        {"block 32\nload global f32 a[8] at [tid.w]\n", 2, 30,
         "'x', 'y' or 'z' expected, found 'w'"},
        {"block 32\nload global f32 a[8] at [foo + 1]\n", 2, 26,
         "unknown variable 'foo'"},
        {"load global f33 a[8] at [0]\n", 1, 13,
         "unknown type 'f33' (expected i8, u8, i16, u16, f16, bf16, i32, "
         "u32, f32, i64, u64, f64, a vector such as f32x4, or a CUDA name "
         "such as float4)"},
        {"load global f32x3 a[8] at [0]\n", 1, 13,
         "type 'f32x3' is 12 bytes; one access is 1, 2, 4, 8 or 16 bytes"},
        {"load global f32 a[8] at [(tid.x + 1]\n", 1, 36,
         "')' (to close '(' at 1:26) expected, found ']'"},
        {"load global f32 a[8][4] at [1]\n", 1, 31,
         "'a' has 2 dimensions but 1 index is given"},
        {"load global f32 a[8] at [1][2]\n", 1, 28,
         "too many indices: 'a' has 1 dimension"},
        {"load texture f32 a[8] at [1]\n", 1, 6,
         "a memory space (global, shared or local) expected, found "
         "'texture'"},
        {"read global f32 a[8] at [1]\n", 1, 1,
         "a statement (load, store, atomic) or a directive (grid, block, "
         "const) expected, found 'read'"},
        {"load global f32 a[8] at [1] for i in 0..tid.x\n", 1, 41,
         "loop bounds must be the same for every lane of a warp; 'tid.x' "
         "differs between lanes"},
        {"load global f32 a[8] at [1] for i in 0..j for j in 0..2\n", 1, 41,
         "loop variable 'j' is used before its loop starts"},
        {"load global f32 a[8] at [1] for i in 0 to 8\n", 1, 40,
         "'..' (loops are written 'for j in 0..32 step 8') expected, found "
         "'to'"},
        {"load global f32 a[N] at [1]\n", 1, 19,
         "unknown variable 'N'"},
        {"load global f32 a[tid.x] at [1]\n", 1, 19,
         "'tid.x' is not a constant; only numbers and constants are allowed "
         "here"},
        {"load global f32 a[0] at [1]\n", 1, 19,
         "dimension 0 is out of range [1, 9223372036854775807]"},
        {"load global f32 a[8] offset 2 at [1]\n", 1, 29,
         "offset 2 is not a multiple of the 4-byte element ('f32')"},
        {"load global f64 a[1 << 61][4] at [1][1]\n", 1, 17,
         "array 'a' does not fit in 2^63 bytes"},
        {"const N = 4 / (2 - 2)\n", 1, 13, "division by zero: '2 - 2' is 0"},
        {"const N = 1\nconst N = 2\n", 2, 7, "constant 'N' is already defined"},
        {"block 2048\n", 1, 7, "block.x 2048 is out of range [1, 1024]"},
        {"block 64, 32\n", 1, 1, "a block has at most 1024 threads, not 2048"},
        {"grid 1, 2, 3, 4\n", 1, 13,
         "end of line (at most 3 dimensions) expected, found ','"},
        {"load global f32 a[8] at [99999999999999999999]\n", 1, 26,
         "number does not fit in 64 bits"},
        {"load global f32 a[8] at [1 $ 2]\n", 1, 28,
         "unexpected character '$'"},
        {"load global f32 a[8] at [0x]\n", 1, 26, "number has no digits"},
        {"load global f32 a[8] at [1] extra\n", 1, 29,
         "end of line expected, found 'extra'"},
        {"atomic local u32 a[8] at [1]\n", 1, 8,
         "atomics work on global or shared memory, not local"},
        {"load global f32 a[8] at [tid]\n", 1, 26,
         "'tid' needs a component: tid.x, tid.y or tid.z"},
        {"load global f32 a[8] at [1 ? 2]\n", 1, 31,
         "':' (to match '?' at 1:28) expected, found ']'"},
        {"load global f32 a[8] at [1] for i of 0..2\n", 1, 35,
         "'in' expected, found 'of'"},
        {"load global f32 a[8] at [1] for i in 0..2 for i in 0..2\n", 1, 47,
         "loop variable 'i' is already a name here"},
    };
    for (size_t i = 0; i < WM_ARRAY_LEN(cases); i++) {
        wm_expr *e = wm_expr_new();
        wm_diag d;
        wm_status st =
            wm_expr_parse(e, cases[i].src, strlen(cases[i].src), "t", &d);
        CHECK(st != WM_OK);
        if (d.line != cases[i].line || d.col != cases[i].col ||
            strcmp(d.msg, cases[i].msg) != 0)
            fprintf(stderr, "case %zu: got %d:%d: %s\n", i, d.line, d.col,
                    d.msg);
        CHECK_EQ(d.line, cases[i].line);
        CHECK_EQ(d.col, cases[i].col);
        CHECK(strcmp(d.msg, cases[i].msg) == 0);
        wm_expr_free(e);
    }
}

/* Collects the accesses of a walk. */
typedef struct seen {
    size_t n;
    wm_access a[64];
    wm_expr_where w[64];
} seen;

static wm_status keep(void *ctx, const wm_access *a, const wm_expr_where *w)
{
    seen *s = ctx;
    if (s->n < 64) {
        s->a[s->n] = *a;
        s->w[s->n] = *w;
    }
    s->n++;
    return WM_OK;
}

static seen *walk(const char *src, const wm_arch *arch, wm_status *st,
                  wm_expr_fault *f)
{
    static seen s;
    wm_diag d;
    memset(&s, 0, sizeof s);
    wm_expr *e = wm_expr_new();
    *st = wm_expr_parse(e, src, strlen(src), "t", &d);
    if (*st == WM_OK)
        *st = wmi_expr_walk(e, arch, 0, 1000, keep, &s, f);
    wm_expr_free(e);
    return &s;
}

static void warps(void)
{
    wm_status st;
    wm_expr_fault f;
    unsigned tid[3], blk[3] = {16, 16, 1};
    /* 16 x 16 block: lane 17 of warp 0 is thread (1, 1, 0). */
    CHECK(wm_expr_lane_tid(blk, 32, 0, 17, tid));
    CHECK(tid[0] == 1 && tid[1] == 1 && tid[2] == 0);
    unsigned blk3[3] = {4, 2, 8};
    CHECK(wm_expr_lane_tid(blk3, 32, 1, 9, tid)); /* t = 41 */
    CHECK(tid[0] == 1 && tid[1] == 0 && tid[2] == 5);
    unsigned blk48[3] = {48, 1, 1};
    CHECK(!wm_expr_lane_tid(blk48, 32, 1, 16, tid));

    /* 48 threads: warp 1 has lanes 0..15 (threads 32..47). */
    seen *s = walk("block 48\nload global f32 a[64] at [tid.x]\n",
                   wm_arch_default(), &st, &f);
    CHECK_EQ(st, WM_OK);
    CHECK_EQ(s->n, 2);
    CHECK(s->a[0].mask == 0xffffffffu);
    CHECK(s->a[1].mask == 0xffffu);
    CHECK_EQ(s->a[1].addr[0], 32 * 4);
    CHECK_EQ(s->a[1].addr[15], 47 * 4);

    /* 16 x 16 block: address of lane l is its linear id order. */
    s = walk("block 16, 16\nload shared f32 t[16][16] at [tid.y][tid.x] "
             "if tid.x < 10\n",
             wm_arch_default(), &st, &f);
    CHECK_EQ(st, WM_OK);
    CHECK_EQ(s->n, 8);
    CHECK(s->a[0].mask == 0x03ff03ffu);
    CHECK_EQ(s->a[0].addr[16], 16 * 4);
    CHECK_EQ(s->a[3].addr[16], (7 * 16) * 4); /* warp 3: rows 6, 7 */

    /* 64-lane warps: one warp holds 64 threads; laneid runs to 63. */
    wm_arch w64;
    CHECK(wm_arch_parse("amd-wave64", &w64, NULL, 0) == WM_OK);
    s = walk("block 128\nload global u8 a[1024] at [warpid * 100 + laneid]\n",
             &w64, &st, &f);
    CHECK_EQ(st, WM_OK);
    CHECK_EQ(s->n, 2);
    CHECK(s->a[1].mask == ~(uint64_t)0);
    CHECK_EQ(s->a[1].addr[63], 163);

    /* Loops: nested bounds, step, iteration order and where. */
    s = walk("block 32\ngrid 2\nload global f32 a[64] at [i * 8 + j] "
             "for i in 1..3 for j in i..4 step 2\n",
             wm_arch_default(), &st, &f);
    CHECK_EQ(st, WM_OK);
    CHECK_EQ(s->n, 6); /* (1,1) (1,3) (2,2) per block */
    CHECK_EQ(s->w[1].iter[0], 1);
    CHECK_EQ(s->w[1].iter[1], 3);
    CHECK_EQ(s->a[2].addr[5], (2 * 8 + 2) * 4);
    CHECK_EQ(s->w[3].block[0], 1);

    /* A false `if` everywhere: an access with no lane (inst_all only). */
    s = walk("block 32\nload global f32 a[64] at [tid.x] if 0\n",
             wm_arch_default(), &st, &f);
    CHECK_EQ(s->n, 1);
    CHECK(s->a[0].mask == 0);
}

static void faults(void)
{
    wm_status st;
    wm_expr_fault f;
    /* Block 2, warp 1 (tid.y = 1) reaches row 9 of 9 rows. */
    walk("block 32, 2\ngrid 3\nload global f32 a[9][64] at "
         "[ctaid.x * 4 + tid.y][tid.x]\n",
         wm_arch_default(), &st, &f);
    CHECK_EQ(st, WM_ERR_FAULT);
    CHECK_EQ(f.where.block[0], 2);
    CHECK_EQ(f.where.warp, 1);
    CHECK_EQ(f.lane, 0);
    CHECK(f.thread[0] == 0 && f.thread[1] == 1 && f.thread[2] == 0);
    CHECK(strcmp(f.diag.msg, "index 9 is out of bounds for dimension 1 of "
                             "'a' (size 9) in block (2,0,0) thread (0,1,0)") ==
          0);

    /* Lane 7 divides by zero; the caret is on the '/'. */
    walk("block 32\nload global f32 a[64] at [(64 / (tid.x - 7)) & 63] for "
         "j in 0..2\n",
         wm_arch_default(), &st, &f);
    CHECK_EQ(st, WM_ERR_FAULT);
    CHECK_EQ(f.lane, 7);
    CHECK_EQ(f.thread[0], 7);
    CHECK_EQ(f.diag.offset, 39);
    CHECK(strcmp(f.diag.msg, "division by zero: 'tid.x - 7' is 0 in block "
                             "(0,0,0) thread (7,0,0), j = 0") == 0);

    /* Open first dimension: lane 0 goes below address 0. */
    walk("block 32\nload global f32 a[][8] at [tid.x - 1][0]\n",
         wm_arch_default(), &st, &f);
    CHECK_EQ(st, WM_ERR_FAULT);
    CHECK_EQ(f.lane, 0);
    CHECK(strcmp(f.diag.msg, "address of 'a' is outside 0..2^63-1 (first "
                             "index -1) in block (0,0,0) thread (0,0,0)") == 0);

    /* The access budget stops runaway loops. */
    walk("block 32\nload global f32 a[8] at [0] for j in 0..1000000\n",
         wm_arch_default(), &st, &f);
    CHECK_EQ(st, WM_ERR_LIMIT);
}

int main(void)
{
    semantics();
    parse_errors();
    warps();
    faults();
    return check_done("test_expr_lang");
}
