/*
 * test_ptx_dwarf.c -- the declared dimensions of shared arrays from a -G
 * build's DWARF (src/ptx/ptx_dwarf.c): gemm_war.cu's `__shared__ float
 * As[16][16], Bs[16][16]` and stencil_halo.cu's 1-D tile, none from the
 * -O3 PTX (no DWARF), none for a name that is not declared, and every
 * truncation of the -G text read without a crash (and never wrong
 * dimensions: a prefix gives the full answer or none), nor its DWARF
 * with digits changed at random.
 */
#include "check.h"
#include "ptx_check_int.h"

#include <stdlib.h>
#include <string.h>

static char *load(const char *rel, size_t *n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", WM_SOURCE_DIR, rel);
    char *s = wm_read_file(path, n);
    CHECK(s != NULL);
    return s;
}

int main(void)
{
    size_t n = 0, n3 = 0;
    char *g = load("tests/check/ptx/gemm_war_G_sm_80.ptx", &n);
    char *o = load("tests/check/ptx/gemm_war_sm_80.ptx", &n3);
    if (!g || !o)
        return check_done("test_ptx_dwarf");
    wmi_dims d;
    CHECK_EQ(wmi_dwarf_dims(g, n, "_ZZ8gemm_warE2As", &d), 1);
    CHECK_EQ(d.ndims, 2);
    CHECK_EQ(d.dim[0], 16);
    CHECK_EQ(d.dim[1], 16);
    CHECK_EQ(d.elem, 4);
    CHECK_EQ(wmi_dwarf_dims(g, n, "_ZZ8gemm_warE2Bs", &d), 1);
    CHECK(d.ndims == 2 && d.dim[0] == 16 && d.dim[1] == 16 && d.elem == 4);
    CHECK_EQ(wmi_dwarf_dims(g, n, "_ZZ8gemm_warE2Cs", &d), 0);
    CHECK_EQ(wmi_dwarf_dims(o, n3, "_ZZ8gemm_warE2As", &d), 0);

    /* every prefix: the full answer or none */
    unsigned got = 0;
    for (size_t k = 0; k < n; k += 7) {
        char *p = malloc(k + 1);
        if (!p)
            break;
        memcpy(p, g, k);
        p[k] = 0;
        if (wmi_dwarf_dims(p, k, "_ZZ8gemm_warE2As", &d)) {
            got++;
            CHECK(d.ndims == 2 && d.dim[0] == 16 && d.dim[1] == 16 &&
                  d.elem == 4);
        }
        free(p);
    }
    CHECK(got > 0);

    /* digits of the DWARF changed at random: read without a crash (the
       sanitizer build checks every access), any answer */
    const char *sec = strstr(g, ".section\t.debug_info");
    CHECK(sec != NULL);
    uint64_t seed = 1;
    char *p = malloc(n + 1);
    for (unsigned it = 0; sec && p && it < 3000; it++) {
        memcpy(p, g, n + 1);
        for (unsigned k = 0; k < 3; k++) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            size_t at = (size_t)(sec - g) + (size_t)(seed >> 33) % (n - (size_t)(sec - g));
            if (p[at] >= '0' && p[at] <= '9')
                p[at] = (char)('0' + (seed >> 20) % 10);
        }
        (void)wmi_dwarf_dims(p, n, "_ZZ8gemm_warE2As", &d);
        CHECK(d.ndims <= WMI_MAX_DIMS);
    }
    free(p);
    free(g);
    free(o);

    size_t ns = 0;
    char *s = load("tests/check/ptx/stencil_halo_G_sm_80.ptx", &ns);
    if (s) {
        /* a 1-D array: one dimension (the report keeps its flat index) */
        int ok = wmi_dwarf_dims(s, ns, "_ZZ12stencil_haloE1t", &d);
        CHECK(ok == 0 || d.ndims == 1);
        free(s);
    }
    return check_done("test_ptx_dwarf");
}
