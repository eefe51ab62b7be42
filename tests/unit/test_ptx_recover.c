/*
 * test_ptx_recover.c -- one function's parse error never rejects the
 * module: the other kernels list and run with the right results, the
 * broken one reports its original error with line:col when run, and a
 * module whose only kernel is broken is still rejected with that error.
 */
#include "check.h"
#include "ptx_inline.h"

#include <stdlib.h>
#include <string.h>

static void test_one_broken(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/ptx/one_broken.ptx", WM_SOURCE_DIR);
    size_t n = 0;
    char *src = wm_read_file(path, &n);
    CHECK(src != NULL);
    if (!src)
        return;
    wm_ptx_module *m = pi_parse(src, path);
    free(src);
    CHECK(m != NULL);
    if (!m)
        return;
    CHECK_EQ(wm_ptx_nkernels(m), 3);
    wm_diag d;
    CHECK_EQ(wm_ptx_kernel_error(m, 0, &d), 0);
    CHECK_EQ(wm_ptx_kernel_error(m, 2, &d), 0);
    CHECK_EQ(wm_ptx_kernel_error(m, 1, &d), 1);
    CHECK_EQ(d.line, 29);
    CHECK_EQ(d.col, 15);
    CHECK(strstr(d.msg, "undeclared register '%r7'") != NULL);

    uint32_t out[32];
    pi_launch l = pi_dims(1, 32);
    pi_buf(&l, out, sizeof out);
    CHECK_EQ(pi_run(m, "first", &l, NULL), WM_OK);
    for (unsigned i = 0; i < 32; i++)
        CHECK_EQ(out[i], i + 100);
    CHECK_EQ(pi_run(m, "last", &l, NULL), WM_OK);
    for (unsigned i = 0; i < 32; i++)
        CHECK_EQ(out[i], i * 3);
    wm_ptx_fault ft;
    CHECK_EQ(pi_run(m, "broken", &l, &ft), WM_ERR_PARSE);
    CHECK_EQ(ft.ptx_line, 29);
    CHECK(strstr(ft.msg, "29:15: undeclared register '%r7'") != NULL);
    wm_ptx_free(m);
}

static void test_only_kernel_broken(void)
{
    const char *src = PI_HEAD
        ".visible .entry k()\n{\n\tmov.u32 %r9, 1;\n}\n";
    wm_ptx_module *m = NULL;
    wm_diag d;
    CHECK_EQ(wm_ptx_parse(src, strlen(src), "k.ptx", &m, &d), WM_ERR_PARSE);
    CHECK(m == NULL);
    CHECK_EQ(d.line, 6);
    CHECK_EQ(d.col, 10);
    CHECK(strstr(d.msg, "undeclared register '%r9'") != NULL);
}

/* Many broken kernels, their errors located in one forward pass: each
   kernel's line:col is the one a scan from the top gives.  Odd kernels
   fail at function end on a label used earlier (located behind the
   cursor), even ones on their third line. */
static void test_many_broken(void)
{
    enum { NK = 300, LINES = 6 };
    size_t cap = 64 + NK * 96, n = 0;
    char *src = malloc(cap);
    CHECK(src != NULL);
    if (!src)
        return;
    n += (size_t)snprintf(src + n, cap - n, "%s", PI_HEAD);
    for (int i = 0; i < NK; i++)
        n += (size_t)snprintf(src + n, cap - n,
                              ".visible .entry b%d()\n{\n\t.reg .b32 %%r<2>;\n"
                              "\t%s;\n\tret;\n}\n",
                              i, i % 2 ? "bra $L_missing" : "mov.u32 %r9, 1");
    n += (size_t)snprintf(src + n, cap - n, ".visible .entry g()\n{\n\tret;\n}\n");
    CHECK(n < cap);
    wm_ptx_module *m = pi_parse(src, "many.ptx");
    CHECK(m != NULL);
    if (!m) {
        free(src);
        return;
    }
    CHECK_EQ(wm_ptx_nkernels(m), NK + 1);
    for (int i = 0; i < NK; i++) {
        wm_diag d, ref;
        CHECK_EQ(wm_ptx_kernel_error(m, (size_t)i, &d), 1);
        CHECK_EQ(d.line, 3 + i * LINES + 4);
        CHECK_EQ(d.col, i % 2 ? 6 : 10);
        ref = d;
        wm_diag_locate(&ref, src, n);
        CHECK_EQ(d.line, ref.line);
        CHECK_EQ(d.col, ref.col);
    }
    CHECK_EQ(wm_ptx_kernel_error(m, NK, NULL), 0);
    wm_ptx_free(m);
    free(src);
}

int main(void)
{
    test_one_broken();
    test_only_kernel_broken();
    test_many_broken();
    return check_done("test_ptx_recover");
}
