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

int main(void)
{
    test_one_broken();
    test_only_kernel_broken();
    return check_done("test_ptx_recover");
}
