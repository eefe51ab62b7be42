/*
 * test_names.c -- name lookup in the PTX parser: the name map against a
 * linear scan on random names, and a module of many functions, calls and
 * variables (resolved through the map) computing a known sum, with a
 * function-scope variable shadowing a module one; register names with
 * and without the map.
 */
#include "check.h"
#include "ptx_inline.h"
#include "wm_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static unsigned rnd(unsigned n)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (unsigned)(rng % n);
}

/* put/get of random short names (many collisions of prefixes, some
   empty) against the newest-wins linear reference */
static void map_against_scan(void)
{
    enum { N = 5000, L = 4 };
    static char names[N][L + 1];
    static uint32_t vals[N];
    wmi_namemap nm = {0};
    size_t used = 0;
    for (unsigned step = 0; step < 20000; step++) {
        char key[L + 1];
        size_t kl = rnd(L + 1);
        for (size_t i = 0; i < kl; i++)
            key[i] = (char)('a' + rnd(3));
        key[kl] = 0;
        long ref = -1; /* newest entry of this key */
        for (size_t i = used; i-- > 0;)
            if (strlen(names[i]) == kl && memcmp(names[i], key, kl) == 0) {
                ref = (long)i;
                break;
            }
        if (rnd(2) && used < N) {
            memcpy(names[used], key, kl + 1);
            vals[used] = step;
            CHECK(wmi_namemap_put(&nm, names[used], kl, step));
            used++;
        } else {
            uint32_t got = wmi_namemap_get(&nm, key, kl);
            CHECK_EQ(got, ref < 0 ? UINT32_MAX : vals[ref]);
        }
    }
    CHECK(nm.len <= 1 + 3 + 9 + 27 + 81); /* distinct names of <= 4 of abc */
    wmi_namemap_free(&nm);
    CHECK_EQ(wmi_namemap_get(&nm, "a", 1), UINT32_MAX);
}

/* NF functions f<i>(x) = x + i, NV globals v<i> = i, a function-scope x
   shadowing the module's x = 7; the kernel sums everything:
   out = sum(i) + sum(i) + 7 */
static void many_names(void)
{
    enum { NF = 400, NV = 400 };
    size_t cap = 256 + NF * 200 + NV * 120, n = 0;
    char *s = malloc(cap);
    CHECK(s != NULL);
    if (!s)
        return;
#define OUT(...) (n += (size_t)snprintf(s + n, cap - n, __VA_ARGS__))
    OUT("%s.global .u32 x = 7;\n", PI_HEAD);
    for (int i = 0; i < NV; i++)
        OUT(".global .u32 v%d = %d;\n", i, i);
    for (int i = 0; i < NF; i++)
        OUT(".func (.param .b32 r) f%d(.param .b32 a)\n{\n\t.reg .b32 %%t;\n"
            "\tld.param.b32 %%t, [a];\n\tadd.u32 %%t, %%t, %d;\n"
            "\tst.param.b32 [r], %%t;\n\tret;\n}\n", i, i);
    OUT(".func g()\n{\n\t.shared .u32 x;\n\t.reg .b32 %%t;\n"
        "\tmov.u32 %%t, 1;\n\tst.shared.u32 [x], %%t;\n\tret;\n}\n");
    OUT(".visible .entry k(.param .u64 out)\n{\n"
        "\t.reg .b32 %%s, %%t;\n\t.reg .b64 %%p;\n\tmov.u32 %%s, 0;\n");
    for (int i = 0; i < NF; i++)
        OUT("\t{\n\t.param .b32 a; .param .b32 r;\n\tst.param.b32 [a], %%s;\n"
            "\tcall (r), f%d, (a);\n\tld.param.b32 %%s, [r];\n\t}\n", i);
    for (int i = 0; i < NV; i++)
        OUT("\tld.global.u32 %%t, [v%d];\n\tadd.u32 %%s, %%s, %%t;\n", i);
    OUT("\tld.global.u32 %%t, [x];\n\tadd.u32 %%s, %%s, %%t;\n"
        "\tld.param.u64 %%p, [out];\n\tst.global.u32 [%%p], %%s;\n\tret;\n}\n");
#undef OUT
    CHECK(n < cap);
    wm_ptx_module *m = pi_parse(s, "names.ptx");
    free(s);
    CHECK(m != NULL);
    if (!m)
        return;
    uint32_t out = 0;
    pi_launch l = pi_dims(1, 1);
    pi_buf(&l, &out, sizeof out);
    CHECK_EQ(pi_run(m, "k", &l, NULL), WM_OK);
    CHECK_EQ(out, (uint32_t)(NF * (NF - 1) / 2 + NV * (NV - 1) / 2 + 7));
    wm_ptx_free(m);
}

/* Register names through ranges whose names end in digits (%a1<3> holds
   %a10..%a12), a block's range hiding an outer one, and nb more
   single registers: with few declarations the parser scans them, with
   many it looks them up in its map; both must agree with the hand
   values.  out = {12, 1, 10, 100, 1000, sum of 0..nb-1} */
static void registers(int nb)
{
    char s[8192];
    size_t n = 0, cap = sizeof s;
#define OUT(...) (n += (size_t)snprintf(s + n, cap - n, __VA_ARGS__))
    OUT("%s.visible .entry r(.param .u64 out)\n{\n"
        "\t.reg .b32 %%a<3>, %%a1<3>, %%s;\n\t.reg .b64 %%p;\n", PI_HEAD);
    for (int i = 0; i < nb; i++)
        OUT("\t.reg .b32 %%b%d;\n", i);
    OUT("\tld.param.u64 %%p, [out];\n"
        "\tmov.u32 %%a2, 1;\n\tmov.u32 %%a12, 10;\n"
        "\tmov.u32 %%a10, 100;\n\tmov.u32 %%a1, 1000;\n"
        "\t{\n\t.reg .b32 %%a<20>;\n\tmov.u32 %%a12, 5;\n\tmov.u32 %%a1, 7;\n"
        "\tadd.u32 %%s, %%a12, %%a1;\n\t}\n"
        "\tst.global.u32 [%%p], %%s;\n\tst.global.u32 [%%p+4], %%a2;\n"
        "\tst.global.u32 [%%p+8], %%a12;\n\tst.global.u32 [%%p+12], %%a10;\n"
        "\tst.global.u32 [%%p+16], %%a1;\n\tmov.u32 %%s, 0;\n");
    for (int i = 0; i < nb; i++)
        OUT("\tmov.u32 %%b%d, %d;\n\tadd.u32 %%s, %%s, %%b%d;\n", i, i, i);
    OUT("\tst.global.u32 [%%p+20], %%s;\n\tret;\n}\n");
#undef OUT
    CHECK(n < cap);
    wm_ptx_module *m = pi_parse(s, "regs.ptx");
    CHECK(m != NULL);
    if (!m)
        return;
    uint32_t out[6] = {0};
    pi_launch l = pi_dims(1, 1);
    pi_buf(&l, out, sizeof out);
    CHECK_EQ(pi_run(m, "r", &l, NULL), WM_OK);
    const uint32_t want[6] = {12, 1, 10, 100, 1000, (uint32_t)(nb * (nb - 1) / 2)};
    for (int i = 0; i < 6; i++)
        CHECK_EQ(out[i], want[i]);
    wm_ptx_free(m);
}

int main(void)
{
    map_against_scan();
    many_names();
    registers(0);
    registers(40);
    return check_done("test_names");
}
