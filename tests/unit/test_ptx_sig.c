/*
 * test_ptx_sig.c -- the signature API: demangled names with template
 * arguments and parameter types, parameter use (pointer / value / unused),
 * the parameters Triton and numba add, kernel selection, the argument
 * checks, the profile of a .target, and `run --list`'s listing.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "check.h"
#include "warpmem.h"

#include <stdio.h>

#include <stdlib.h>
#include <string.h>

/* Strings equal; prints both when not. */
#define CHECK_STR(a, b)                                                       \
    do {                                                                      \
        const char *s_a = (a), *s_b = (b);                                    \
        CHECK(strcmp(s_a, s_b) == 0);                                         \
        if (strcmp(s_a, s_b) != 0)                                            \
            fprintf(stderr, "  got '%s'\n  want '%s'\n", s_a, s_b);          \
    } while (0)

static wm_ptx_module *load(const char *name)
{
    char path[1024];
    size_t n = 0;
    snprintf(path, sizeof path, "%s/tests/ptx/%s", WM_SOURCE_DIR, name);
    char *src = wm_read_file(path, &n);
    CHECK(src != NULL);
    if (!src)
        return NULL;
    wm_ptx_module *m = NULL;
    wm_diag d;
    CHECK_EQ(wm_ptx_parse(src, n, path, &m, &d), WM_OK);
    free(src);
    return m;
}

/* The kernel whose display name is display, or (size_t)-1. */
static size_t find(const wm_ptx_module *m, const char *display)
{
    size_t k;
    if (wm_ptx_match_kernels(m, display, &k, 1) != 1)
        return (size_t)-1;
    return k;
}

static void test_cuda(void)
{
    wm_ptx_module *m = load("sig.ptx");
    if (!m)
        return;
    CHECK_STR(wm_ptx_target(m), "sm_80");
    wm_ptx_kernel_info ki;
    wm_ptx_param_info p[8];
    size_t k = find(m, "copy_kernel<float>");
    CHECK(k != (size_t)-1);
    CHECK_EQ(wm_ptx_kernel_describe(m, k, &ki, p, 8), 3);
    CHECK_STR(ki.signature, "copy_kernel<float>(float*, float const*, int)");
    CHECK_EQ(ki.origin, WM_PTX_FROM_CUDA);
    CHECK_EQ(p[0].use, WM_PTX_USE_POINTER);
    CHECK_EQ(p[1].use, WM_PTX_USE_POINTER);
    CHECK_EQ(p[2].use, WM_PTX_USE_VALUE);
    CHECK_STR(p[2].type, ".u32");
    CHECK_STR(p[1].ctype, "float const*");
    /* scale: a 64-bit stride is an index, not a pointer */
    k = find(m, "ops::scale");
    CHECK_EQ(wm_ptx_kernel_describe(m, k, &ki, p, 8), 4);
    CHECK_STR(ki.signature, "ops::scale(float*, float, unsigned int, long long)");
    CHECK_EQ(p[3].use, WM_PTX_USE_VALUE);
    CHECK_STR(p[1].type, ".f32");
    char err[200];
    CHECK(wm_ptx_param_accepts_scalar(&p[1], WM_PTX_F32, err, sizeof err));
    CHECK(!wm_ptx_param_accepts_scalar(&p[2], WM_PTX_F32, err, sizeof err));
    CHECK_STR(err, "f32 given for .u32 parameter '_ZN3ops5scaleEPffjx_param_2'");
    CHECK(wm_ptx_param_accepts_scalar(&p[2], WM_PTX_I32, err, sizeof err));
    CHECK(!wm_ptx_param_accepts_scalar(&p[1], WM_PTX_I32, err, sizeof err));
    CHECK(!wm_ptx_param_accepts_scalar(&p[3], WM_PTX_U32, err, sizeof err));
    CHECK(!wm_ptx_param_accepts_scalar(&p[0], WM_PTX_U64, err, sizeof err));
    CHECK(wm_ptx_param_accepts_buffer(&p[0], err, sizeof err));
    CHECK(!wm_ptx_param_accepts_buffer(&p[3], err, sizeof err));
    CHECK(!wm_ptx_param_accepts_buffer(&p[2], err, sizeof err));
    /* selection: template name, identifier (ambiguous), prefix */
    size_t c[4];
    CHECK_EQ(wm_ptx_match_kernels(m, "copy_kernel", c, 4), 2);
    CHECK_EQ(wm_ptx_match_kernels(m, "copy_kernel<int>", c, 4), 1);
    CHECK_EQ(wm_ptx_match_kernels(m, "scale", c, 4), 1);
    CHECK_EQ(wm_ptx_match_kernels(m, "smem", c, 4), 1);
    CHECK_EQ(wm_ptx_match_kernels(m, "_Z7fill_u8Phhi", c, 4), 1);
    CHECK_EQ(wm_ptx_match_kernels(m, "nothing", c, 4), 0);
    CHECK_EQ(wm_ptx_match_kernels(m, NULL, c, 4), 6);
    k = find(m, "smem_sum");
    wm_ptx_kernel_describe(m, k, &ki, NULL, 0);
    CHECK_EQ(ki.dyn_smem, 1);
    k = find(m, "fill_u8");
    wm_ptx_kernel_describe(m, k, &ki, p, 8);
    CHECK_EQ(ki.dyn_smem, 0);
    CHECK_EQ(p[1].use, WM_PTX_USE_VALUE); /* stored: a u8 is no pointer */
    wm_ptx_free(m);
}

static void test_triton_numba(void)
{
    wm_ptx_module *m = load("triton_add.ptx");
    wm_ptx_kernel_info ki;
    wm_ptx_param_info p[32];
    if (m) {
        CHECK_EQ(wm_ptx_kernel_describe(m, 0, &ki, p, 32), 6);
        CHECK_EQ(ki.origin, WM_PTX_FROM_TRITON);
        CHECK_EQ(ki.ngroups, 4);
        CHECK_STR(p[4].role, "global_scratch");
        CHECK_STR(p[5].role, "profile_scratch");
        CHECK_EQ(p[4].added, 1);
        CHECK_EQ(p[4].group, -1);
        CHECK_EQ(p[0].declared_ptr, 1);
        CHECK_EQ(p[2].use, WM_PTX_USE_POINTER);
        CHECK_EQ(p[3].use, WM_PTX_USE_VALUE);
        CHECK_STR(wm_ptx_target(m), "sm_90a");
        wm_ptx_free(m);
    }
    m = load("numba_axpy.ptx");
    if (m) {
        CHECK_EQ(wm_ptx_kernel_describe(m, 0, &ki, p, 32), 24);
        CHECK_EQ(ki.origin, WM_PTX_FROM_NUMBA);
        CHECK_EQ(ki.ngroups, 4);
        CHECK_STR(ki.display, "__main__::axpy");
        CHECK_STR(p[4].role, "arg0.data");
        CHECK_EQ(p[4].added, 0);
        CHECK_EQ(p[4].use, WM_PTX_USE_POINTER);
        CHECK_EQ(p[0].added, 1);
        CHECK_STR(p[14].role, "arg2");
        CHECK_STR(p[21].role, "arg3.shape[1]");
        CHECK_EQ(p[23].group, 3);
        CHECK_EQ(p[19].elem, WM_PTX_F32);
        wm_ptx_free(m);
    }
}

static void test_target(void)
{
    CHECK_STR(wm_arch_for_target("sm_80")->name, "sm_80");
    CHECK_STR(wm_arch_for_target("sm_90a")->name, "sm_90");
    CHECK_STR(wm_arch_for_target("sm_87")->name, "sm_86");
    CHECK_STR(wm_arch_for_target("sm_100")->name, "sm_90");
    CHECK(wm_arch_for_target("sm_60") == NULL);
    CHECK(wm_arch_for_target("") == NULL);
    CHECK(wm_arch_for_target("compute_80") == NULL);
}

/* wm_ptx_list into a string (to free). */
static char *listing(const wm_ptx_module *m, wm_format fmt)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK_EQ(wm_ptx_list(f, m, fmt), WM_OK);
    fclose(f);
    return buf;
}

/* The listing of target_sm_60.ptx's one kernel, both forms. */
static void test_list(void)
{
    wm_ptx_module *m = load("target_sm_60.ptx");
    if (!m)
        return;
    char *t = listing(m, WM_FMT_TEXT);
    CHECK(strncmp(t, "kernel copy60\n", 14) == 0);
    CHECK(strstr(t, "  ptx name copy60; CUDA C++; .target sm_60\n") != NULL);
    CHECK(strstr(t, "  --arg: 2, one per parameter\n") != NULL);
    char *j = listing(m, WM_FMT_JSON);
    CHECK(strncmp(j, "{\"target\": \"sm_60\", \"kernels\": [\n  {\"name\": "
                     "\"copy60\"", 50) == 0);
    CHECK(strstr(j, "\"arguments\": 2, \"params\": [{\"name\": \"out\"") != NULL);
    CHECK_EQ(wm_ptx_list(NULL, m, WM_FMT_TEXT), WM_ERR_ARG);
    free(t);
    free(j);
    wm_ptx_free(m);
}

/* A module of the given directives and an empty kernel, parsed. */
static wm_ptx_module *module_of(const char *head)
{
    char text[256];
    snprintf(text, sizeof text, "%s.visible .entry k()\n{\n\tret;\n}\n",
             head);
    wm_ptx_module *m = NULL;
    wm_diag d;
    CHECK_EQ(wm_ptx_parse(text, strlen(text), "pick.ptx", &m, &d), WM_OK);
    return m;
}

/* The one profile rule: given, else .target, else the default. */
static void test_pick_arch(void)
{
    wm_ptx_module *m80 = module_of(".version 8.0\n.target sm_80\n"
                                   ".address_size 64\n");
    wm_ptx_module *m60 = module_of(".version 8.0\n.target sm_60\n"
                                   ".address_size 64\n");
    wm_ptx_module *none = module_of(".version 8.0\n.address_size 64\n");
    wm_arch a, h200;
    char note[96], err[200];
    CHECK_EQ(wm_arch_parse("H200", &h200, err, sizeof err), WM_OK);

    wm_ptx_pick_arch(m80, NULL, NULL, &a, note, sizeof note);
    CHECK_STR(a.name, "sm_80");
    CHECK_STR(note, "sm_80 (from .target sm_80)");
    wm_ptx_pick_arch(m80, &h200, NULL, &a, note, sizeof note);
    CHECK_STR(a.name, "H200");
    CHECK_STR(note, "H200 (--arch)");
    wm_ptx_pick_arch(m80, &h200, "arch='H200'", &a, note, sizeof note);
    CHECK_STR(note, "H200 (arch='H200')");
    wm_ptx_pick_arch(m60, NULL, NULL, &a, note, sizeof note);
    CHECK_STR(a.name, wm_arch_default()->name);
    CHECK_STR(note, "sm_90 (default: no profile for the .target)");
    wm_ptx_pick_arch(none, NULL, NULL, &a, note, sizeof note);
    CHECK_STR(note, "sm_90 (default: no .target)");
    wm_ptx_pick_arch(NULL, NULL, NULL, &a, NULL, 0); /* no module, no note */
    CHECK_STR(a.name, "sm_90");
    wm_ptx_pick_arch(m80, NULL, NULL, &a, note, 6); /* cut, terminated */
    CHECK_STR(note, "sm_80");
    wm_ptx_free(m80);
    wm_ptx_free(m60);
    wm_ptx_free(none);
}

/* Names outside the demangler's subset, too deep or with huge numbers
   fall back to the identifier; none may crash. */
static void test_odd_names(void)
{
    static const char *const names[] = {
        "_Z1f", "_ZN", "_ZN999999999999999999x", "_Z3fooIS999_E",
        "_Z3fooT5_", "_Z3fooILi", "_ZNK",
        ("_Z1fPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPP"
         "PPPPPPf"),
        "plain_name", "_Z0f"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char src[512];
        int n = snprintf(src, sizeof src,
                         ".version 8.0\n.target sm_80\n.address_size 64\n"
                         ".visible .entry %s(.param .u64 p)\n{\n\tret;\n}\n",
                         names[i]);
        wm_ptx_module *m = NULL;
        wm_diag d;
        CHECK_EQ(wm_ptx_parse(src, (size_t)n, "odd.ptx", &m, &d), WM_OK);
        if (!m)
            continue;
        wm_ptx_kernel_info ki;
        wm_ptx_param_info p[1];
        CHECK_EQ(wm_ptx_kernel_describe(m, 0, &ki, p, 1), 1);
        CHECK(ki.display[0] != 0);
        CHECK_EQ(p[0].use, WM_PTX_USE_NONE);
        wm_ptx_free(m);
    }
}

int main(void)
{
    test_odd_names();
    test_cuda();
    test_triton_numba();
    test_target();
    test_pick_arch();
    test_list();
    return check_done("test_ptx_sig");
}
