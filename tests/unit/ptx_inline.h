/*
 * ptx_inline.h -- run PTX written inside a test: parse a string, launch
 * one kernel on host buffers (fast and slow paths compared, ptx_twin.h),
 * and hand back the status and the fault.  For the interpreter cases
 * that are a few lines of PTX each.  Include after check.h.
 */
#ifndef WM_PTX_INLINE_H
#define WM_PTX_INLINE_H

#include "ptx_twin.h"
#include "warpmem.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI_HEAD ".version 8.0\n.target sm_80\n.address_size 64\n"

/* Parse src (named path in messages); NULL with the diagnostic printed. */
static inline wm_ptx_module *pi_parse(const char *src, const char *path)
{
    wm_ptx_module *m = NULL;
    wm_diag d;
    if (wm_ptx_parse(src, strlen(src), path, &m, &d) != WM_OK) {
        wm_diag_print(stderr, &d, path, src, strlen(src));
        return NULL;
    }
    return m;
}

/* src must fail to parse with a message containing want at line `line`
   (0: any line); the message printed when it does not. */
static inline void pi_parse_fails(const char *src, const char *want,
                                  uint32_t line)
{
    wm_ptx_module *m = NULL;
    wm_diag d;
    CHECK_EQ(wm_ptx_parse(src, strlen(src), "bad.ptx", &m, &d), WM_ERR_PARSE);
    int found = strstr(d.msg, want) != NULL;
    CHECK(found);
    if (!found)
        fprintf(stderr, "  want '%s', got: %s\n", want, d.msg);
    if (line)
        CHECK_EQ(d.line, line);
    wm_ptx_free(m);
}

#ifdef WM_SOURCE_DIR
/* The committed PTX file WM_SOURCE_DIR/rel, parsed; NULL after a failed
   CHECK. */
static inline wm_ptx_module *pi_source_ptx(const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", WM_SOURCE_DIR, rel);
    size_t n = 0;
    char *src = wm_read_file(path, &n);
    CHECK(src != NULL);
    wm_ptx_module *m = src ? pi_parse(src, path) : NULL;
    free(src);
    CHECK(m != NULL);
    return m;
}

/* The committed corpus PTX tests/corpus/ptx/NAME_BUILD.ptx (build: "sm_90a",
   "G_sm_90a", ...), parsed; NULL after a failed CHECK. */
static inline wm_ptx_module *pi_corpus(const char *name, const char *build)
{
    char rel[512];
    snprintf(rel, sizeof rel, "tests/corpus/ptx/%s_%s.ptx", name, build);
    return pi_source_ptx(rel);
}
#endif

/* The f16 bits of a value that fp16 holds exactly (|x| < 2^15, steps >=
   2^-10). */
static inline uint16_t pi_half_of(float x)
{
    uint16_t s = x < 0 ? 0x8000 : 0;
    float ax = fabsf(x);
    if (ax == 0.0f)
        return s;
    int e;
    float fr = frexpf(ax, &e); /* ax = fr * 2^e, fr in [0.5, 1) */
    return (uint16_t)(s | (uint16_t)((e + 14) << 10) |
                      (uint16_t)((unsigned)(fr * 2048.0f) & 0x3ff));
}

/* A launch being built: pi_buf / pi_u32 / pi_f32 append arguments in
   order; threads and max_steps 0 mean one worker and 10^6 steps. */
typedef struct pi_launch {
    unsigned grid[3], block[3];
    size_t dyn_smem;
    wm_ptx_arg args[8];
    size_t nargs;
    unsigned threads;
    uint64_t max_steps;
    int cooperative; /* wm_ptx_launch.cooperative */
} pi_launch;

/* A 2-D grid of 2-D blocks. */
static inline void pi_grid2(pi_launch *l, unsigned gx, unsigned gy,
                            unsigned bx, unsigned by)
{
    l->grid[0] = gx;
    l->grid[1] = gy;
    l->grid[2] = 1;
    l->block[0] = bx;
    l->block[1] = by;
    l->block[2] = 1;
}

static inline pi_launch pi_dims(unsigned grid, unsigned block)
{
    pi_launch l;
    memset(&l, 0, sizeof l);
    l.grid[0] = grid;
    l.grid[1] = l.grid[2] = 1;
    l.block[0] = block;
    l.block[1] = l.block[2] = 1;
    return l;
}

/* One argument: a buffer of bytes, a 32-bit scalar, or a by-value
   parameter of size bytes at p (a struct, a CUtensorMap). */
static inline wm_ptx_arg pi_arg_buf(void *p, size_t bytes)
{
    wm_ptx_arg a;
    memset(&a, 0, sizeof a);
    a.buf = p;
    a.bytes = bytes;
    return a;
}

static inline wm_ptx_arg pi_arg_u32(uint32_t v)
{
    wm_ptx_arg a;
    memset(&a, 0, sizeof a);
    a.scalar = v;
    a.size = 4;
    return a;
}

static inline wm_ptx_arg pi_arg_val(void *p, unsigned size)
{
    wm_ptx_arg a;
    memset(&a, 0, sizeof a);
    a.value = p;
    a.size = size;
    return a;
}

/* A 1-D texture of n floats at texels (point filtering, clamped). */
static inline wm_ptx_texture pi_tex_f32(float *texels, unsigned n)
{
    wm_ptx_texture t;
    memset(&t, 0, sizeof t);
    t.data = texels;
    t.bytes = n * sizeof *texels;
    t.dims = 1;
    t.width = n;
    t.height = t.depth = 1;
    t.format = WM_PTX_F32;
    t.channels = 1;
    return t;
}

static inline void pi_buf(pi_launch *l, void *p, size_t bytes)
{
    l->args[l->nargs++] = pi_arg_buf(p, bytes);
}

static inline void pi_u32(pi_launch *l, uint32_t v)
{
    l->args[l->nargs++] = pi_arg_u32(v);
}

static inline void pi_f32(pi_launch *l, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    pi_u32(l, u);
}

/* A wm_ptx_launch of gx x gy CTAs of block threads, in clusters of cx
   along x (0: the kernel's own), over args and the extra buffers
   x[0..nx); one worker, 10^6 steps (set others after). */
static inline wm_ptx_launch pi_launch_of(unsigned gx, unsigned gy,
                                         unsigned block, unsigned cx,
                                         const wm_ptx_arg *args,
                                         size_t nargs, const wm_ptx_arg *x,
                                         size_t nx)
{
    wm_ptx_launch l;
    memset(&l, 0, sizeof l);
    l.grid[0] = gx;
    l.grid[1] = gy;
    l.grid[2] = 1;
    l.block[0] = block;
    l.block[1] = l.block[2] = 1;
    if (cx) {
        l.cluster[0] = cx;
        l.cluster[1] = l.cluster[2] = 1;
    }
    l.args = args;
    l.nargs = nargs;
    l.extra = x;
    l.nextra = nx;
    l.threads = 1;
    l.max_steps = 1000000;
    return l;
}

/* Run kernel name of m under launch l (fast and slow paths compared),
   counting into agg and res (either may be NULL); the fault goes to *ft
   (may be NULL: then it is printed). */
static inline wm_status pi_run_launch(const wm_ptx_module *m,
                                      const char *name,
                                      const wm_ptx_launch *l, wm_agg *agg,
                                      wm_ptx_result *res, wm_ptx_fault *ft)
{
    long k = wm_ptx_find_kernel(m, name);
    CHECK(k >= 0);
    if (k < 0)
        return WM_ERR_ARG;
    wm_ptx_fault f;
    twin_checked(m, (size_t)k, l); /* the proof of the schedules */
    wm_status st = twin_run(m, (size_t)k, l, agg, res, ft ? ft : &f);
    if (st != WM_OK && !ft)
        fprintf(stderr, "%s: %s (PTX line %u)\n", name, f.msg, f.ptx_line);
    return st;
}

/* Run kernel name of m counting into agg (may be NULL); the fault (if
   any) goes to *ft (may be NULL: then it is printed). */
static inline wm_status pi_run_agg(const wm_ptx_module *m, const char *name,
                                   const pi_launch *pl, wm_agg *agg,
                                   wm_ptx_fault *ft)
{
    wm_ptx_launch l = pi_launch_of(pl->grid[0], pl->grid[1], pl->block[0], 0,
                                   pl->args, pl->nargs, NULL, 0);
    memcpy(l.grid, pl->grid, sizeof l.grid);
    memcpy(l.block, pl->block, sizeof l.block);
    l.dyn_smem = pl->dyn_smem;
    l.threads = pl->threads ? pl->threads : 1;
    l.max_steps = pl->max_steps ? pl->max_steps : 1000000;
    l.cooperative = pl->cooperative;
    return pi_run_launch(m, name, &l, agg, NULL, ft);
}

/* pi_run_agg without statistics. */
static inline wm_status pi_run(const wm_ptx_module *m, const char *name,
                               const pi_launch *pl, wm_ptx_fault *ft)
{
    return pi_run_agg(m, name, pl, NULL, ft);
}

/* The summed statistics of the sites of source line `line` of a file
   whose name ends with `file` (file NULL: of every site), in space sp with
   op op. */
static inline wm_stats pi_line(const wm_agg *g, const char *file,
                               unsigned line, wm_space sp, wm_op op)
{
    wm_stats t;
    memset(&t, 0, sizeof t);
    for (size_t i = 0; g && i < wm_agg_nsites(g); i++) {
        wm_site s;
        wm_agg_site(g, i, &s);
        if (s.space != sp || s.op != op)
            continue;
        size_t fl = strlen(s.file), nl = file ? strlen(file) : 0;
        if (file && (s.line != line || fl < nl ||
                     strcmp(s.file + fl - nl, file) != 0))
            continue;
        t.inst += s.stats.inst;
        t.requests += s.stats.requests;
        t.sectors += s.stats.sectors;
        t.ideal_sectors += s.stats.ideal_sectors;
        t.wavefronts += s.stats.wavefronts;
        t.ideal_wavefronts += s.stats.ideal_wavefronts;
        t.bytes += s.stats.bytes;
    }
    return t;
}

#endif /* WM_PTX_INLINE_H */
