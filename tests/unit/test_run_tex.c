/*
 * test_run_tex.c -- the texture/surface `--arg` parser (cli/run_tex.c) on
 * refused specs.  `run` frees the argument slot after a refusal, so the
 * parser must leave the slot empty whichever check refuses: the slot
 * starts as garbage here (as `run`'s stack array does), and freeing it
 * afterwards must free nothing.  A spec refused before the buffer part
 * was parsed left the garbage in place (found by fuzz_argspec:
 * `tex2d:u8[9]:rand=2i:i1`, a free of a stale pointer).
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "run_args.h"

#include <stdio.h>
#include <string.h>

int main(void) {
    /* one spec per refusal, in the parser's order */
    static const char *const bad[] = {
        "tex2d:u8",                 /* no [extent] */
        "tex2d:q7[4x4]",            /* unknown format */
        "tex2d:u8[9]:rand=2i:i1",   /* the fuzzer's: one extent */
        "tex2d:u8[0x4]",            /* extent out of range */
        "tex2d:f32[4x4]:bogus",     /* unknown option */
        "tex2d:f32[4x4]:iota)",     /* unknown option (trailing) */
        "surf2d:f32[4x4]:linear",   /* a surface has no filter */
        "tex2d:f32[4x4]:norm-read", /* norm-read of floats */
        "tex2d:u8[4x4]:linear",     /* integer linear filter */
        "tex2d:f32[4x4]:rand=x",    /* the buffer part refused */
    };
    /* stderr carries the messages; the test checks the slot only */
    if (!freopen("/dev/null", "w", stderr))
        return 1;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        run_arg a;
        memset(&a, 0xa5, sizeof a); /* garbage pointers, as on the stack */
        CHECK_EQ(run_tex_parse(bad[i], &a, 0), 0);
        CHECK(a.buf == NULL && a.file == NULL && a.out == NULL &&
              a.input == NULL && a.mapped == 0);
        if (a.buf == NULL && a.file == NULL && a.out == NULL &&
            a.input == NULL && a.mapped == 0)
            run_arg_free(&a); /* must not touch the garbage */
        else
            printf("spec %zu ('%s') left the slot as it was\n", i, bad[i]);
    }
    /* a good spec still parses, and its buffer is allocated and freed */
    run_arg g;
    memset(&g, 0xa5, sizeof g);
    CHECK_EQ(run_tex_parse("tex2d:f32[4x2]:iota:linear", &g, 3), 1);
    CHECK_EQ(g.form, RUN_ARG_TEX);
    CHECK_EQ(g.count, 8);
    CHECK_EQ(g.tex.width, 4);
    CHECK_EQ(g.tex.height, 2);
    CHECK_EQ(g.tex_index, 3);
    run_arg_free(&g);
    return check_done("test_run_tex");
}
