/*
 * test_report_mem.c -- wm_version, the reports written into memory
 * (wm_ptx_report_string) as the Python binding uses them, and the source
 * lines of Triton's inline-asm loads.
 */
#include "check.h"
#include "warpmem.h"

#include <string.h>

static const char ptx[] =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 p)\n{\n"
    " .reg .b64 %rd<4>;\n .reg .b32 %r<2>;\n"
    " ld.param.u64 %rd1, [p];\n mov.u32 %r1, %tid.x;\n"
    " mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.u32 [%rd3], %r1;\n ret;\n}\n";

/* LLVM writes a .loc per line of an inline asm string, counting up from
   the statement's line (Triton's loads are inline asm): the load belongs
   to the statement's line. */
static const char asm_ptx[] =
    ".version 8.0\n.target sm_90a\n.address_size 64\n"
    ".visible .entry k(.param .u64 .ptr .global .align 1 p)\n{\n"
    " .reg .b64 %rd<4>;\n .reg .b32 %r<4>;\n .reg .pred %p<2>;\n"
    " ld.param.b64 %rd1, [k_param_0];\n"
    " .loc 1 11 9\n"
    " // begin inline asm\n"
    " .loc 1 11 9\n"
    " mov.u32 %r1, 0x0;\n"
    " .loc 1 12 9\n"
    " mov.u32 %r2, 0x0;\n"
    " ld.global.v2.b32 { %r1, %r2 }, [ %rd1 + 0 ];\n"
    " // end inline asm\n"
    " .loc 1 13 5\n"
    " st.global.b32 [ %rd1 + 0 ], %r1;\n"
    " ret;\n}\n"
    " .file 1 \"k.py\"\n";

static void test_inline_asm_loc(void)
{
    wm_ptx_module *m = NULL;
    wm_diag d;
    memset(&d, 0, sizeof d);
    CHECK_EQ(wm_ptx_parse(asm_ptx, sizeof asm_ptx - 1, "k.ptx", &m, &d),
             WM_OK);
    if (!m)
        return;
    int seen_ld = 0, seen_st = 0;
    for (size_t i = 0; i < wm_ptx_ninsns(m); i++) {
        wm_ptx_where w;
        if (!wm_ptx_where_insn(m, i, &w))
            continue;
        if (strncmp(w.text, "ld.global", 9) == 0 ||
            strncmp(w.text, "mov.u32", 7) == 0) {
            CHECK_EQ(w.line, 11);
            seen_ld += w.text[0] == 'l';
        }
        if (strncmp(w.text, "st.global", 9) == 0) {
            CHECK_EQ(w.line, 13);
            seen_st++;
        }
    }
    CHECK_EQ(seen_ld, 1);
    CHECK_EQ(seen_st, 1);
    wm_ptx_free(m);
}

int main(void)
{
    test_inline_asm_loc();
    CHECK(strcmp(wm_version(), WM_VERSION) == 0);
    /* the string and the number are made from the three parts */
    char v[32];
    snprintf(v, sizeof v, "%d.%d.%d", WM_VERSION_MAJOR, WM_VERSION_MINOR,
             WM_VERSION_PATCH);
    CHECK(strcmp(v, WM_VERSION) == 0);
    CHECK_EQ(WM_VERSION_NUMBER, WM_VERSION_MAJOR * 10000 +
                                    WM_VERSION_MINOR * 100 + WM_VERSION_PATCH);
    wm_ptx_module *m = NULL;
    wm_diag d;
    memset(&d, 0, sizeof d);
    CHECK_EQ(wm_ptx_parse(ptx, sizeof ptx - 1, "k.ptx", &m, &d), WM_OK);
    if (!m)
        return check_done("test_report_mem");

    unsigned out[64];
    wm_ptx_arg a = {out, sizeof out, 0, 0, NULL};
    wm_ptx_launch l;
    memset(&l, 0, sizeof l);
    l.grid[0] = l.grid[1] = l.grid[2] = 1;
    l.block[0] = 64;
    l.block[1] = l.block[2] = 1;
    l.args = &a;
    l.nargs = 1;
    l.threads = 1;
    wm_agg *g = wm_agg_new(wm_arch_default());
    wm_ptx_result res;
    CHECK_EQ(wm_ptx_run(m, 0, &l, g, &res, NULL), WM_OK);
    CHECK_EQ(out[63], 63);
    wm_ptx_report_opts o;
    memset(&o, 0, sizeof o);
    o.format = WM_FMT_JSON;
    o.kernel = "k";
    o.res = &res;
    size_t n = 0;
    char *s = wm_ptx_report_string(m, g, &o, 0, &n);
    CHECK(s != NULL);
    CHECK(s && strncmp(s, "{\"schema\": \"warpmem/1\", \"command\": \"run\"",
                       40) == 0);
    CHECK(s && strstr(s, "\"kernel\": \"k\", ") != NULL);
    CHECK(s && n == strlen(s));
    CHECK(s && strstr(s, "\"requests\": 2") != NULL);
    wm_free(s);
    s = wm_ptx_report_string(m, g, &o, 1, &n);
    CHECK(s && strstr(s, "<html") != NULL);
    wm_free(s);
    CHECK(wm_ptx_report_string(NULL, g, &o, 0, &n) == NULL && n == 0);
    wm_agg_free(g);
    wm_ptx_free(m);
    return check_done("test_report_mem");
}
