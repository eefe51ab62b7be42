/*
 * test_kernel_refs.c -- checks the example-kernel case table
 * (kernel_cases.c) without the PTX interpreter:
 *   1. kc_fill against hand-known values (splitmix64 outputs, f16/bf16
 *      rounding, integer wrap-around);
 *   2. every kc_expect line names a memory instruction of that space and op
 *      that nvcc's .loc attributes to that line in the committed PTX, and
 *      every memory instruction of a kernel is covered by some case;
 *   3. every check() accepts the output of a CPU emulation of its kernel
 *      (written like the CUDA code: blocks, threads, shared tiles, the
 *      warp shuffle) and rejects the same output with one element
 *      corrupted, or with an input changed;
 *   4. the model (wm_count) agrees with the key hand numbers when fed the
 *      lane addresses of one warp of the pattern, written out here.
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "kernel_cases.h"
#include "warpmem.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ---- 1. the generator ----------------------------------------------------- */

static void test_fill(void)
{
    unsigned char u8[4];
    uint16_t h[4];
    int16_t s16[1];
    double d[2];
    float f[3];

    /* splitmix64 seeded 0 starts e220a8397b1dcdaf, 6e789e6aa1b965f4,
       06c45d188009454f (the generator's published test sequence). */
    CHECK_EQ(kc_fill(u8, "u8", 3, "rand=0"), 0);
    CHECK_EQ(u8[0], 0xe2);
    CHECK_EQ(u8[1], 0x6e);
    CHECK_EQ(u8[2], 0x06);
    uint64_t raw[2];
    CHECK_EQ(kc_fill(raw, "u64", 2, "rand=42"), 0);
    CHECK_EQ(raw[0], 0xbdd732262feb6e95u); /* integers: the full range */
    CHECK_EQ(raw[1] >> 56, 0x28);
    CHECK_EQ(kc_fill(d, "f64", 2, "rand=0"), 0);
    CHECK(d[0] == ldexp((double)(0xe220a8397b1dcdafu >> 11), -53));
    CHECK(d[1] == ldexp((double)(0x6e789e6aa1b965f4u >> 11), -53));
    CHECK_EQ(kc_fill(f, "f32", 3, "rand=0"), 0);
    CHECK(f[0] == (float)d[0] && f[1] == (float)d[1]);
    CHECK(f[0] >= 0.0f && f[0] < 1.0f);

    /* iota: integers wrap, floats round to nearest even. */
    CHECK_EQ(kc_fill(s16, "i16", 1, "iota"), 0);
    CHECK_EQ(s16[0], 0);
    unsigned char big[301];
    CHECK_EQ(kc_fill(big, "u8", 301, "iota"), 0);
    CHECK_EQ(big[300], 44); /* 300 mod 256 */
    int16_t w[40001];
    CHECK_EQ(kc_fill(w, "i16", 40001, "iota"), 0);
    CHECK_EQ(w[40000], -25536); /* 40000 - 65536 */
    uint16_t hv[2052];
    CHECK_EQ(kc_fill(hv, "f16", 2052, "iota"), 0);
    CHECK_EQ(hv[1], 0x3c00);    /* 1.0 */
    CHECK_EQ(hv[3], 0x4200);    /* 3.0 */
    CHECK_EQ(hv[2048], 0x6800); /* 2048 = 2^11 */
    CHECK_EQ(hv[2049], 0x6800); /* tie between 2048 and 2050 -> even */
    CHECK_EQ(hv[2051], 0x6802); /* tie between 2050 and 2052 -> 2052 */
    uint16_t bv[258];
    CHECK_EQ(kc_fill(bv, "bf16", 258, "iota"), 0);
    CHECK_EQ(bv[1], 0x3f80);   /* 1.0 */
    CHECK_EQ(bv[256], 0x4380); /* 256 */
    CHECK_EQ(bv[257], 0x4380); /* tie between 256 and 258 -> even */
    CHECK_EQ(kc_fill(h, "f16", 4, "zeros"), 0);
    CHECK_EQ(h[0] | h[1] | h[2] | h[3], 0);

    /* malformed rules and types */
    CHECK_EQ(kc_fill(u8, "u8", 1, "rand="), -1);
    CHECK_EQ(kc_fill(u8, "u8", 1, "rand=1x"), -1);
    CHECK_EQ(kc_fill(u8, "u8", 1, "ones"), -1);
    CHECK_EQ(kc_fill(u8, "u9", 1, "zeros"), -1);
    CHECK_EQ(kc_type_size("bf16"), 2);
    CHECK_EQ(kc_type_size("f64"), 8);
}

/* ---- 2. line numbers against the committed PTX --------------------------- */

typedef struct site {
    unsigned line;
    char space[8], op[8];
} site;

typedef struct sites {
    site s[256];
    size_t n;
} sites;

static char *slurp(const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", WM_SOURCE_DIR, rel);
    return wm_read_file(path, NULL);
}

/* Does entry name e (up to '(' or blank) match wanted, exactly or as the
   identifier of an Itanium-mangled "_Z<len><id>..." name? */
static int entry_matches(const char *e, const char *wanted)
{
    size_t len = strcspn(e, "( \t\n");
    if (len == strlen(wanted) && strncmp(e, wanted, len) == 0)
        return 1;
    if (strncmp(e, "_Z", 2) == 0) {
        char *end;
        unsigned long idlen = strtoul(e + 2, &end, 10);
        return idlen == strlen(wanted) && strncmp(end, wanted, idlen) == 0;
    }
    return 0;
}

static void add_site(sites *out, unsigned line, const char *space,
                     const char *op)
{
    for (size_t i = 0; i < out->n; i++)
        if (out->s[i].line == line && strcmp(out->s[i].space, space) == 0 &&
            strcmp(out->s[i].op, op) == 0)
            return;
    if (out->n < NELEM(out->s)) {
        site *s = &out->s[out->n++];
        s->line = line;
        snprintf(s->space, sizeof s->space, "%s", space);
        snprintf(s->op, sizeof s->op, "%s", op);
    }
}

/*
 * The memory sites of entry `kernel` in PTX text: each ld/st/atom/red/
 * ldmatrix/cp.async of global/shared/local space with the source line that
 * the last .loc gives it -- the .cu's own line, or for code inlined from a
 * header the "inlined_at" line in the .cu.  Returns 0 if the entry is
 * missing.
 */
static int scan_ptx(const char *ptx, const char *kernel, sites *out)
{
    unsigned cu_file = 0, line = 0;
    int in_entry = 0, found = 0;
    out->n = 0;
    /* the .cu's file index: nvcc numbers files per module (with -G a
       header may come first) */
    for (const char *p = strstr(ptx, ".file"); p; p = strstr(p + 1, ".file")) {
        unsigned idx = (unsigned)strtoul(p + 5, NULL, 10);
        const char *q = strchr(p, '"'), *e = q ? strchr(q + 1, '"') : NULL;
        if (e && e - q > 3 && strncmp(e - 3, ".cu", 3) == 0)
            cu_file = idx;
    }
    for (const char *p = ptx; *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char ln[512];
        snprintf(ln, sizeof ln, "%.*s", (int)(len < 511 ? len : 511), p);
        p += len + (eol ? 1 : 0);
        char *t = ln + strspn(ln, " \t");
        char *ent = strstr(t, ".entry ");
        if (ent) {
            in_entry = entry_matches(ent + 7, kernel);
            found |= in_entry;
            continue;
        }
        if (!in_entry)
            continue;
        if (strncmp(t, ".loc", 4) == 0) {
            unsigned f = 0, l = 0, c = 0;
            char *ia = strstr(t, "inlined_at");
            if (ia && sscanf(ia + 10, "%u %u %u", &f, &l, &c) == 3)
                line = f == cu_file ? l : 0;
            else if (sscanf(t + 4, "%u %u %u", &f, &l, &c) == 3)
                line = f == cu_file ? l : 0;
            continue;
        }
        if (*t == '@') /* guard predicate */
            t += strcspn(t, " \t"), t += strspn(t, " \t");
        const char *op = NULL;
        if (!strncmp(t, "ld.", 3))
            op = "ld";
        else if (!strncmp(t, "st.", 3))
            op = "st";
        else if (!strncmp(t, "atom.", 5) || !strncmp(t, "red.", 4))
            op = "atom";
        else if (!strncmp(t, "ldmatrix", 8))
            op = "ldsm";
        else if (!strncmp(t, "cp.async.", 9) && strstr(t, ".shared"))
            op = "ldgsts";
        if (!op)
            continue;
        size_t w = strcspn(t, " \t");
        t[w] = '\0';
        const char *space = strstr(t, ".global") ? "global"
                            : strstr(t, ".shared") ? "shared"
                            : strstr(t, ".local")  ? "local"
                                                   : NULL;
        if (space)
            add_site(out, line, space, op);
    }
    return found;
}

static int has_site(const sites *s, unsigned line, const char *space,
                    const char *op)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->s[i].line == line && !strcmp(s->s[i].space, space) &&
            !strcmp(s->s[i].op, op))
            return 1;
    return 0;
}

/* The other architecture's twin of "examples/kernels/sm_80/x.ptx". */
static void twin(const char *ptx, char *buf, size_t n)
{
    snprintf(buf, n, "%s", ptx);
    char *a = strstr(buf, "sm_80");
    char *b = strstr(buf, "sm_90");
    if (a)
        memcpy(a, "sm_90", 5);
    else if (b)
        memcpy(b, "sm_80", 5);
}

static void test_lines(void)
{
    static sites s, s2;
    for (size_t c = 0; c < nkernel_cases; c++) {
        const kernel_case *k = &kernel_cases[c];
        char *ptx = slurp(k->ptx);
        CHECK(ptx != NULL);
        if (!ptx)
            continue;
        int found = scan_ptx(ptx, k->kernel, &s);
        CHECK(found);
        if (!found)
            fprintf(stderr, "%s: no entry %s in %s\n", k->name, k->kernel,
                    k->ptx);
        /* every expectation names a real site */
        for (size_t e = 0; e < k->nexpect; e++) {
            const kc_expect *x = &k->expect[e];
            int ok = has_site(&s, x->line, x->space, x->op);
            CHECK(ok);
            if (!ok)
                fprintf(stderr, "%s: no %s %s at line %u in %s\n", k->name,
                        x->op, x->space, x->line, k->ptx);
        }
        /* every site of the kernel is covered by some case of it */
        for (size_t i = 0; i < s.n; i++) {
            int covered = 0;
            for (size_t c2 = 0; c2 < nkernel_cases && !covered; c2++) {
                const kernel_case *k2 = &kernel_cases[c2];
                if (strcmp(k2->kernel, k->kernel) != 0)
                    continue;
                for (size_t e = 0; e < k2->nexpect; e++)
                    if (k2->expect[e].line == s.s[i].line &&
                        !strcmp(k2->expect[e].space, s.s[i].space) &&
                        !strcmp(k2->expect[e].op, s.s[i].op))
                        covered = 1;
            }
            CHECK(covered);
            if (!covered)
                fprintf(stderr, "%s: %s %s at line %u has no expectation\n",
                        k->name, s.s[i].op, s.s[i].space, s.s[i].line);
        }
        /* the sm_80 and sm_90 PTX attribute the same sites */
        char other[512];
        twin(k->ptx, other, sizeof other);
        char *ptx2 = slurp(other);
        CHECK(ptx2 != NULL);
        if (ptx2) {
            CHECK(scan_ptx(ptx2, k->kernel, &s2));
            CHECK_EQ(s2.n, s.n);
            for (size_t i = 0; i < s.n; i++)
                CHECK(has_site(&s2, s.s[i].line, s.s[i].space, s.s[i].op));
        }
        free(ptx2);
        free(ptx);
    }
}

/* ---- 3. CPU emulations of the kernels ------------------------------------- */

static long long arg_i(const kernel_case *k, size_t i)
{
    return strtoll(strchr(k->args[i].scalar, '=') + 1, NULL, 10);
}
static float arg_f(const kernel_case *k, size_t i)
{
    return strtof(strchr(k->args[i].scalar, '=') + 1, NULL);
}

/* Loop over the threads (block b, thread t) of a 1-D launch. */
#define FOR_THREADS_1D(k, b, t)                                               \
    for (unsigned b = 0; b < (k)->grid[0]; b++)                               \
        for (unsigned t = 0; t < (k)->block[0]; t++)

static void emu_copy(const kernel_case *k, void *const *bufs)
{
    float *out = bufs[0];
    const float *in = bufs[1];
    int n = (int)arg_i(k, 2);
    long long stride = !strcmp(k->kernel, "strided_copy_f32") ? arg_i(k, 3) : 1;
    int offset = !strcmp(k->kernel, "misaligned_copy_f32") ? (int)arg_i(k, 3)
                                                            : 0;
    FOR_THREADS_1D(k, b, t)
    {
        int i = (int)(b * k->block[0] + t);
        if (!strcmp(k->kernel, "copy_f32x4")) {
            if (i < n)
                memcpy(&out[4 * i], &in[4 * i], 16);
        } else if (i < n) {
            out[i] = in[i * stride + offset];
        }
    }
}

static void emu_transpose(const kernel_case *k, void *const *bufs)
{
    float *out = bufs[0];
    const float *in = bufs[1];
    int width = (int)arg_i(k, 2), height = (int)arg_i(k, 3);
    int naive = !strcmp(k->kernel, "transpose_naive");
    int pitch = !strcmp(k->kernel, "transpose_padded") ? 33 : 32;
    int swz = !strcmp(k->kernel, "transpose_swizzled");
    static float tile[32 * 33];
    for (unsigned by = 0; by < k->grid[1]; by++)
        for (unsigned bx = 0; bx < k->grid[0]; bx++) {
            if (naive) {
                for (int ty = 0; ty < 8; ty++)
                    for (int tx = 0; tx < 32; tx++) {
                        int x = (int)bx * 32 + tx, y = (int)by * 8 + ty;
                        out[x * height + y] = in[y * width + x];
                    }
                continue;
            }
            for (int ty = 0; ty < 8; ty++) /* before __syncthreads */
                for (int tx = 0; tx < 32; tx++)
                    for (int j = 0; j < 32; j += 8) {
                        int x = (int)bx * 32 + tx, y = (int)by * 32 + ty;
                        int r = ty + j, c = swz ? tx ^ r : tx;
                        tile[r * pitch + c] = in[(y + j) * width + x];
                    }
            for (int ty = 0; ty < 8; ty++) /* after */
                for (int tx = 0; tx < 32; tx++)
                    for (int j = 0; j < 32; j += 8) {
                        int x = (int)by * 32 + tx, y = (int)bx * 32 + ty;
                        int c = ty + j, cc = swz ? c ^ tx : c;
                        out[(y + j) * height + x] = tile[tx * pitch + cc];
                    }
        }
}

static void emu_reduce(const kernel_case *k, void *const *bufs)
{
    float *out = bufs[0];
    const float *in = bufs[1];
    int n = (int)arg_i(k, 2);
    float sdata[256], v[32];
    for (unsigned b = 0; b < k->grid[0]; b++) {
        for (unsigned t = 0; t < 256; t++) {
            int i = (int)(b * 256 + t);
            sdata[t] = i < n ? in[i] : 0.0f;
        }
        for (unsigned s = 128; s > 32; s >>= 1)
            for (unsigned t = 0; t < s; t++)
                sdata[t] += sdata[t + s];
        for (unsigned l = 0; l < 32; l++)
            v[l] = sdata[l] + sdata[l + 32];
        for (unsigned off = 16; off > 0; off >>= 1) {
            float nv[32]; /* __shfl_down_sync: lanes past 31 read their own */
            for (unsigned l = 0; l < 32; l++)
                nv[l] = v[l] + (l + off < 32 ? v[l + off] : v[l]);
            memcpy(v, nv, sizeof v);
        }
        out[b] = v[0];
    }
}

static void emu_sgemm(const kernel_case *k, void *const *bufs)
{
    float *C = bufs[0];
    const float *A = bufs[1], *B = bufs[2];
    int M = (int)arg_i(k, 3), N = (int)arg_i(k, 4), K = (int)arg_i(k, 5);
    static float As[16][16], Bs[16][16], acc[16][16];
    for (unsigned by = 0; by < k->grid[1]; by++)
        for (unsigned bx = 0; bx < k->grid[0]; bx++) {
            memset(acc, 0, sizeof acc);
            for (int t = 0; t < K; t += 16) {
                for (int ty = 0; ty < 16; ty++)
                    for (int tx = 0; tx < 16; tx++) {
                        int row = (int)by * 16 + ty, col = (int)bx * 16 + tx;
                        As[ty][tx] = A[row * K + t + tx];
                        Bs[ty][tx] = B[(t + ty) * N + col];
                    }
                for (int ty = 0; ty < 16; ty++)
                    for (int tx = 0; tx < 16; tx++)
                        for (int kk = 0; kk < 16; kk++)
                            acc[ty][tx] =
                                fmaf(As[ty][kk], Bs[kk][tx], acc[ty][tx]);
            }
            for (int ty = 0; ty < 16; ty++)
                for (int tx = 0; tx < 16; tx++) {
                    int row = (int)by * 16 + ty, col = (int)bx * 16 + tx;
                    if (row < M && col < N)
                        C[row * N + col] = acc[ty][tx];
                }
        }
}

static void emu_kv(const kernel_case *k, void *const *bufs)
{
    unsigned char *cache = bufs[0];
    const unsigned char *key = bufs[1];
    const int64_t *slots = bufs[2];
    int heads = (int)arg_i(k, 3), hs = (int)arg_i(k, 4), bs = (int)arg_i(k, 5);
    int flash = !strcmp(k->kernel, "reshape_and_cache_flash_f16");
    int vph = hs / 8, nvec = heads * vph;
    for (unsigned b = 0; b < k->grid[0]; b++) {
        long long slot = slots[b];
        if (slot < 0)
            continue;
        long long block = slot / bs, offset = slot % bs;
        for (int i = 0; i < nvec; i++) { /* threads striding by blockDim */
            long long d = flash ? (block * bs + offset) * nvec + i
                                : ((block * heads + i / vph) * vph + i % vph) *
                                          bs +
                                      offset;
            memcpy(cache + 16 * d, key + 16 * ((long long)b * nvec + i), 16);
        }
    }
}

static void emu_hist(const kernel_case *k, void *const *bufs)
{
    uint32_t *bins = bufs[0];
    const unsigned char *data = bufs[1];
    int n = (int)arg_i(k, 2);
    unsigned nthreads = k->grid[0] * k->block[0];
    uint32_t hist[256];
    for (unsigned b = 0; b < k->grid[0]; b++) {
        memset(hist, 0, sizeof hist);
        for (unsigned t = 0; t < k->block[0]; t++)
            for (int i = (int)(b * k->block[0] + t); i < n;
                 i += (int)nthreads)
                hist[data[i]]++;
        for (unsigned t = 0; t < 256; t++)
            if (hist[t] != 0)
                bins[t] += hist[t];
    }
}

static void emu_stencil(const kernel_case *k, void *const *bufs)
{
    float *out = bufs[0];
    const float *in = bufs[1];
    int width = (int)arg_i(k, 2), height = (int)arg_i(k, 3);
    float c0 = arg_f(k, 4), c1 = arg_f(k, 5);
    static float tile[10][34];
    for (unsigned by = 0; by < k->grid[1]; by++)
        for (unsigned bx = 0; bx < k->grid[0]; bx++) {
            for (int ty = 0; ty < 8; ty++)
                for (int tx = 0; tx < 32; tx++) {
                    int gx = (int)bx * 32 + tx, gy = (int)by * 8 + ty;
                    int lx = tx + 1, ly = ty + 1;
                    tile[ly][lx] = in[gy * width + gx];
                    if (tx == 0)
                        tile[ly][0] = in[gy * width + (gx > 0 ? gx - 1 : 0)];
                    if (tx == 31)
                        tile[ly][33] =
                            in[gy * width + (gx < width - 1 ? gx + 1 : gx)];
                    if (ty == 0)
                        tile[0][lx] = in[(gy > 0 ? gy - 1 : 0) * width + gx];
                    if (ty == 7)
                        tile[9][lx] =
                            in[(gy < height - 1 ? gy + 1 : gy) * width + gx];
                }
            for (int ty = 0; ty < 8; ty++)
                for (int tx = 0; tx < 32; tx++) {
                    int gx = (int)bx * 32 + tx, gy = (int)by * 8 + ty;
                    int lx = tx + 1, ly = ty + 1;
                    float sides = tile[ly][lx - 1] + tile[ly][lx + 1] +
                                  tile[ly - 1][lx] + tile[ly + 1][lx];
                    out[gy * width + gx] = c0 * tile[ly][lx] + c1 * sides;
                }
        }
}

typedef void (*emu_fn)(const kernel_case *, void *const *);

static emu_fn emulator(const char *kernel)
{
    static const struct {
        const char *kernel;
        emu_fn fn;
    } emus[] = {
        {"copy_f32", emu_copy},
        {"strided_copy_f32", emu_copy},
        {"misaligned_copy_f32", emu_copy},
        {"copy_f32x4", emu_copy},
        {"transpose_naive", emu_transpose},
        {"transpose_tiled", emu_transpose},
        {"transpose_padded", emu_transpose},
        {"transpose_swizzled", emu_transpose},
        {"reduce_sum_f32", emu_reduce},
        {"sgemm_tiled", emu_sgemm},
        {"reshape_and_cache_f16", emu_kv},
        {"reshape_and_cache_flash_f16", emu_kv},
        {"histogram_u8", emu_hist},
        {"stencil5_f32", emu_stencil},
    };
    for (size_t i = 0; i < NELEM(emus); i++)
        if (!strcmp(emus[i].kernel, kernel))
            return emus[i].fn;
    return NULL;
}

/* Flip a high bit of element i of buffer arg a (changes any type a lot). */
static void corrupt(const kc_arg *a, void *buf, size_t i)
{
    size_t esz = kc_type_size(a->buf.type);
    ((unsigned char *)buf)[i * esz + esz - 1] ^= 0x40;
}

static void test_checks(void)
{
    for (size_t c = 0; c < nkernel_cases; c++) {
        const kernel_case *k = &kernel_cases[c];
        void *bufs[8] = {0};
        char why[256] = "";
        emu_fn emu = emulator(k->kernel);
        CHECK(emu != NULL && k->nargs <= NELEM(bufs) && k->check != NULL);
        if (!emu || k->nargs > NELEM(bufs) || !k->check)
            continue;
        for (size_t i = 0; i < k->nargs; i++)
            if (k->args[i].is_buf) {
                const kc_buf *b = &k->args[i].buf;
                bufs[i] = malloc(b->count * kc_type_size(b->type) + 1);
                CHECK(bufs[i] && kc_fill(bufs[i], b->type, b->count,
                                         b->init) == 0);
            }
        /* the untouched (not yet run) output must be rejected */
        CHECK_EQ(k->check(bufs, why, sizeof why), 0);
        emu(k, bufs);
        int ok = k->check(bufs, why, sizeof why);
        CHECK(ok);
        if (!ok)
            fprintf(stderr, "%s: check rejects the emulation: %s\n", k->name,
                    why);
        /* one corrupted output element, at the middle and at the end */
        const kc_arg *out = &k->args[0];
        size_t mid = out->buf.count / 2, last = out->buf.count - 1;
        corrupt(out, bufs[0], mid);
        CHECK_EQ(k->check(bufs, why, sizeof why), 0);
        corrupt(out, bufs[0], mid);
        corrupt(out, bufs[0], last);
        CHECK_EQ(k->check(bufs, why, sizeof why), 0);
        corrupt(out, bufs[0], last);
        CHECK(k->check(bufs, why, sizeof why));
        /* a changed input is reported too */
        corrupt(&k->args[1], bufs[1], 0);
        CHECK_EQ(k->check(bufs, why, sizeof why), 0);
        for (size_t i = 0; i < k->nargs; i++)
            free(bufs[i]);
    }
}

/* ---- 4. the hand numbers against the model -------------------------------- */

/* Count one full-warp access whose lane l address is addr(l). */
static wm_counts count_warp(wm_space space, wm_op op, unsigned size,
                            uint64_t (*addr)(unsigned))
{
    wm_access a;
    wm_counts c;
    memset(&a, 0, sizeof a);
    a.space = space;
    a.op = op;
    a.size = size;
    a.mask = 0xffffffffu;
    for (unsigned l = 0; l < 32; l++)
        a.addr[l] = addr(l);
    CHECK_EQ(wm_count(wm_arch_default(), &a, &c), WM_OK);
    return c;
}

/* Global byte addresses, base 0 (256-byte aligned) -- one warp each. */
static uint64_t a_copy(unsigned l) { return 4u * l; }
static uint64_t a_stride2(unsigned l) { return 8u * l; }
static uint64_t a_stride33(unsigned l) { return 132u * l; }
static uint64_t a_misaligned(unsigned l) { return 4u * (l + 1); }
static uint64_t a_vec(unsigned l) { return 16u * l; }
static uint64_t a_naive_st(unsigned l) { return 4u * 128u * l; } /* height 128 */
static uint64_t a_sgemm_a(unsigned l) /* K = 48: two 16-float half-rows */
{
    return 4u * ((l / 16) * 48u + l % 16);
}
static uint64_t a_kv_paged(unsigned l) /* head l/16, x l%16, block_size 16 */
{
    return 16u * (((l / 16) * 16u + l % 16) * 16u);
}
static uint64_t a_slot(unsigned l) { (void)l; return 0; }
static uint64_t a_bytes(unsigned l) { return l; }
/* Shared byte addresses. */
static uint64_t s_col32(unsigned l) { return 4u * (32u * l + 5); }
static uint64_t s_col33(unsigned l) { return 4u * (33u * l + 5); }
static uint64_t s_swz(unsigned l) { return 4u * (32u * l + (5u ^ l)); }
static uint64_t s_swz_row(unsigned l) { return 4u * (32u * 5 + (l ^ 5u)); }
static uint64_t s_as(unsigned l) { return 4u * (16u * (l / 16) + 3); }
static uint64_t s_bs(unsigned l) { return 4u * (16u * 3 + l % 16); }
static uint64_t s_stencil(unsigned l) { return 4u * (34u * 3 + 1 + l); }

static void test_model(void)
{
    static const struct {
        const char *what;
        wm_space space;
        wm_op op;
        unsigned size;
        uint64_t (*addr)(unsigned);
        unsigned count, ideal; /* sectors or wavefronts */
    } pats[] = {
        {"copy", WM_SPACE_GLOBAL, WM_OP_LD, 4, a_copy, 4, 4},
        {"stride 2", WM_SPACE_GLOBAL, WM_OP_LD, 4, a_stride2, 8, 4},
        {"stride 33", WM_SPACE_GLOBAL, WM_OP_LD, 4, a_stride33, 32, 4},
        {"misaligned", WM_SPACE_GLOBAL, WM_OP_LD, 4, a_misaligned, 5, 4},
        {"float4", WM_SPACE_GLOBAL, WM_OP_LD, 16, a_vec, 16, 16},
        {"naive st", WM_SPACE_GLOBAL, WM_OP_ST, 4, a_naive_st, 32, 4},
        {"sgemm A", WM_SPACE_GLOBAL, WM_OP_LD, 4, a_sgemm_a, 4, 4},
        {"kv paged st", WM_SPACE_GLOBAL, WM_OP_ST, 16, a_kv_paged, 32, 16},
        {"kv slot", WM_SPACE_GLOBAL, WM_OP_LD, 8, a_slot, 1, 8},
        {"hist data", WM_SPACE_GLOBAL, WM_OP_LD, 1, a_bytes, 1, 1},
        {"tile col", WM_SPACE_SHARED, WM_OP_LD, 4, s_col32, 32, 1},
        {"padded col", WM_SPACE_SHARED, WM_OP_LD, 4, s_col33, 1, 1},
        {"swizzled col", WM_SPACE_SHARED, WM_OP_LD, 4, s_swz, 1, 1},
        {"swizzled row", WM_SPACE_SHARED, WM_OP_ST, 4, s_swz_row, 1, 1},
        {"sgemm As", WM_SPACE_SHARED, WM_OP_LD, 4, s_as, 1, 1},
        {"sgemm Bs", WM_SPACE_SHARED, WM_OP_LD, 4, s_bs, 1, 1},
        {"stencil row", WM_SPACE_SHARED, WM_OP_ST, 4, s_stencil, 1, 1},
    };
    for (size_t i = 0; i < NELEM(pats); i++) {
        wm_counts c = count_warp(pats[i].space, pats[i].op, pats[i].size,
                                 pats[i].addr);
        int shared = pats[i].space == WM_SPACE_SHARED;
        unsigned got = shared ? c.wavefronts : c.sectors;
        unsigned ideal = shared ? c.ideal_wavefronts : c.ideal_sectors;
        CHECK_EQ(got, pats[i].count);
        CHECK_EQ(ideal, pats[i].ideal);
        if (got != pats[i].count || ideal != pats[i].ideal)
            fprintf(stderr, "model disagrees on %s\n", pats[i].what);
    }
}

int main(void)
{
    test_fill();
    test_lines();
    test_checks();
    test_model();
    return check_done("test_kernel_refs");
}
