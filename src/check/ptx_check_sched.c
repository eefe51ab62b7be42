/*
 * ptx_check_sched.c -- schedule exploration: run a launch under its
 * schedule and again under another one from the same inputs, and name the
 * first output byte that differs.  A kernel whose result depends on the
 * order in which ready warps run has a race, whether or not the tracker
 * (ptx_check.c) saw the two accesses.
 *
 * What is compared is what the kernel can leave for the caller: the
 * argument and extra buffers, the surfaces, and the module variables read
 * back (wm_ptx_global.out).  The first run's outputs are what the caller
 * gets; the second run adds nothing to the statistics and finds no
 * hazards.
 *
 * Before the first run the launch's host memory is saved: the union of
 * its buffers, extra buffers, by-value parameters' bytes, texture and
 * surface data, and the bytes its module variables are set from and read
 * back into (wm_ptx_global's init and out, which the CLI's --global makes
 * one memory), merged into disjoint regions, with an image of each region
 * the run may write.  The second run runs on the images, every pointer
 * moved to the same offset in its region's image, so buffers that alias
 * (one memory given twice, a view inside its array, a texture bound to a
 * buffer) alias there as in the caller's memory; the first run's outputs
 * never move.  Each distinct byte is saved once and compared once (a
 * difference, once found, is located buffer by buffer to name the first
 * buffer it is in).
 */
#include "ptx_check_int.h"

#include <stdlib.h>
#include <string.h>

const char *wm_ptx_schedule_name(wm_ptx_schedule s)
{
    switch (s) {
    case WM_SCHED_IN_ORDER: return "in-order";
    case WM_SCHED_REVERSE: return "reverse";
    case WM_SCHED_RANDOM: return "random";
    }
    return "?";
}

/* A range of host memory the launch reads or writes: [lo, hi). */
typedef struct span {
    uintptr_t lo, hi;
    int written; /* the run may write it (a buffer, a surface, a global's
                    out bytes) */
} span;

/*
 * The launch's host memory before the first run: the union of its ranges,
 * as disjoint regions sorted by address, each with an image of its bytes
 * when the run may write any of it (else NULL: nothing changes there).
 */
typedef struct memimg {
    size_t n;
    span *r;
    wmi_big *img; /* per region: the image, empty when never written */
} memimg;

static void memimg_free(memimg *mi)
{
    for (size_t i = 0; mi->img && i < mi->n; i++)
        wmi_big_free(&mi->img[i]);
    free(mi->img);
    free(mi->r);
    memset(mi, 0, sizeof *mi);
}

static void span_add(span *s, size_t *n, const void *p, size_t bytes,
                     int written)
{
    uintptr_t lo = (uintptr_t)p;
    if (!p || !bytes || bytes > UINTPTR_MAX - lo)
        return;
    s[*n].lo = lo;
    s[*n].hi = lo + bytes;
    s[*n].written = written;
    (*n)++;
}

static int span_cmp(const void *a, const void *b)
{
    const span *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Sort s[0..n) and merge overlapping ranges; the count left. */
static size_t span_merge(span *s, size_t n)
{
    if (!n)
        return 0;
    qsort(s, n, sizeof *s, span_cmp);
    size_t m = 0;
    for (size_t i = 1; i < n; i++) {
        if (s[i].lo < s[m].hi) {
            if (s[i].hi > s[m].hi)
                s[m].hi = s[i].hi;
            s[m].written |= s[i].written;
        } else {
            s[++m] = s[i];
        }
    }
    return m + 1;
}

/* The argument and extra buffers of l, in order, as a span each. */
static size_t buffer_spans(const wm_ptx_launch *l, span *s)
{
    size_t n = 0;
    for (size_t i = 0; i < l->nargs; i++)
        span_add(s, &n, l->args[i].buf, l->args[i].bytes, 1);
    for (size_t j = 0; j < l->nextra; j++)
        span_add(s, &n, l->extra[j].buf, l->extra[j].bytes, 1);
    return n;
}

/* What the kernel can leave for the caller: buffer_spans, then the
   surfaces and the module variables read back. */
static size_t output_spans(const wm_ptx_launch *l, span *s)
{
    size_t n = buffer_spans(l, s);
    for (size_t t = 0; t < l->ntextures; t++)
        if (l->textures[t].surface)
            span_add(s, &n, l->textures[t].data, l->textures[t].bytes, 1);
    for (size_t g = 0; g < l->nglobals; g++)
        span_add(s, &n, l->globals[g].out, l->globals[g].bytes, 1);
    return n;
}

/* How many ranges l can have, into *cap; 0 when the count overflows (no
   launch that runs has so many). */
static int span_count(const wm_ptx_launch *l, size_t *cap)
{
    return l->nargs <= SIZE_MAX / 2 &&
           !__builtin_add_overflow(2 * l->nargs, l->nextra, cap) &&
           !__builtin_add_overflow(*cap, l->ntextures, cap) &&
           l->nglobals <= SIZE_MAX / 2 &&
           !__builtin_add_overflow(*cap, 2 * l->nglobals, cap) &&
           !__builtin_add_overflow(*cap, 1, cap);
}

/* Save l's memory into *mi: its buffers, extra buffers, by-value
   parameters' bytes, texture and surface data, and the bytes its module
   variables are set from and read back into (at most cap ranges).  0 when
   out of memory. */
static int memimg_save(const wm_ptx_launch *l, size_t cap, memimg *mi)
{
    memset(mi, 0, sizeof *mi);
    mi->r = calloc(cap, sizeof *mi->r);
    if (!mi->r)
        return 0;
    size_t n = buffer_spans(l, mi->r);
    for (size_t i = 0; i < l->nargs; i++)
        if (l->args[i].value)
            span_add(mi->r, &n, l->args[i].value, l->args[i].size, 0);
    for (size_t t = 0; t < l->ntextures; t++)
        span_add(mi->r, &n, l->textures[t].data, l->textures[t].bytes,
                 l->textures[t].surface);
    for (size_t g = 0; g < l->nglobals; g++) {
        span_add(mi->r, &n, l->globals[g].init, l->globals[g].bytes, 0);
        span_add(mi->r, &n, l->globals[g].out, l->globals[g].bytes, 1);
    }
    mi->n = span_merge(mi->r, n);
    mi->img = calloc(mi->n + 1, sizeof *mi->img);
    if (!mi->img)
        return 0;
    for (size_t i = 0; i < mi->n; i++) {
        if (!mi->r[i].written)
            continue;
        size_t bytes = mi->r[i].hi - mi->r[i].lo;
        if (!wmi_big_alloc(&mi->img[i], bytes))
            return 0;
        memcpy(mi->img[i].p, (const void *)mi->r[i].lo, bytes);
    }
    return 1;
}

/* Where p (bytes of it, inside one region) is in the images: the same
   offset in its region's image, or p itself when its region has none. */
static void *in_image(const memimg *mi, const void *p, size_t bytes)
{
    uintptr_t a = (uintptr_t)p;
    if (!p || !bytes)
        return (void *)a;
    size_t lo = 0, hi = mi->n; /* the first region past a */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (mi->r[mid].lo <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    assert(lo > 0 && a + bytes <= mi->r[lo - 1].hi);
    if (!ALWAYS(lo > 0) || !mi->img[lo - 1].p)
        return (void *)a;
    return mi->img[lo - 1].p + (a - mi->r[lo - 1].lo);
}

/* Does any byte of the outputs (output_spans) differ between the memory
   and the images?  Each distinct byte is compared once, however the
   outputs overlap; -1 when out of memory (cap: span_count's). */
static int outputs_differ(const wm_ptx_launch *l, const memimg *mi,
                          size_t cap)
{
    span *s = malloc(cap * sizeof *s);
    if (!s)
        return -1;
    size_t n = span_merge(s, output_spans(l, s));
    int differs = 0;
    for (size_t i = 0; i < n && !differs; i++) {
        const void *p = (const void *)s[i].lo;
        size_t bytes = s[i].hi - s[i].lo;
        differs = memcmp(p, in_image(mi, p, bytes), bytes) != 0;
    }
    free(s);
    return differs;
}

/* Do the bytes of one output (p, bytes) differ between the memory (the
   reported run's) and the images (the other run's)?  Then its first
   differing element (of es bytes) goes into chk as output i of kind in. */
static int output_differs(const memimg *mi, const void *p, size_t bytes,
                          unsigned es, wm_ptx_diff_in in, size_t i,
                          wm_ptx_check *chk)
{
    if (!p || !bytes)
        return 0;
    const unsigned char *rep = p, *oth = in_image(mi, p, bytes);
    if (memcmp(rep, oth, bytes) == 0)
        return 0;
    size_t o = 0;
    while (rep[o] == oth[o])
        o++;
    es = es ? es : 1;
    uint64_t e = o / es, start = e * es;
    size_t k = es < 8 ? es : 8;
    if (start + k > bytes)
        k = bytes - start;
    chk->differs = 1;
    chk->diff_in = in;
    chk->diff_arg = (long)i;
    chk->diff_byte = o;
    chk->diff_elem = e;
    chk->diff_elem_bytes = es;
    memcpy(chk->diff_bytes[0], rep + start, k);
    memcpy(chk->diff_bytes[1], oth + start, k);
    return 1;
}

/* The first output whose bytes differ -- an argument buffer, then an
   extra buffer, a surface, a module variable read back -- and its first
   differing element: into chk. */
static void first_diff(const wm_ptx_launch *l, const memimg *mi,
                       wm_ptx_check *chk)
{
    for (size_t i = 0; i < l->nargs + l->nextra; i++) {
        const wm_ptx_arg *a = i < l->nargs ? &l->args[i]
                                           : &l->extra[i - l->nargs];
        unsigned es = chk->elem_size && i < chk->nelem_size
                          ? chk->elem_size[i] : 1;
        if (output_differs(mi, a->buf, a->bytes, es, WM_DIFF_ARG, i, chk))
            return;
    }
    for (size_t t = 0; t < l->ntextures; t++) {
        const wm_ptx_texture *x = &l->textures[t];
        unsigned texel = (unsigned)wm_ptx_type_size(x->format) * x->channels;
        if (x->surface && output_differs(mi, x->data, x->bytes, texel,
                                         WM_DIFF_SURFACE, t, chk))
            return;
    }
    for (size_t g = 0; g < l->nglobals; g++)
        if (output_differs(mi, l->globals[g].out, l->globals[g].bytes, 1,
                    WM_DIFF_GLOBAL, g, chk)) {
            chk->diff_name = l->globals[g].name;
            return;
        }
}

/* The other run's launch: l with every buffer, extra buffer, by-value
   parameter, texture and module variable's bytes moved into the images
   (arrays to free with other_free). */
typedef struct other {
    wm_ptx_launch l;
    wm_ptx_arg *args; /* nargs + nextra */
    wm_ptx_texture *tex;
    wm_ptx_global *glob;
} other;

static void other_free(other *o)
{
    free(o->args);
    free(o->tex);
    free(o->glob);
}

/* 0 when out of memory. */
static int other_new(const wm_ptx_launch *l, const memimg *mi, other *o)
{
    memset(o, 0, sizeof *o);
    o->l = *l;
    size_t nb = l->nargs + l->nextra;
    o->args = calloc(nb + 1, sizeof *o->args);
    o->tex = calloc(l->ntextures + 1, sizeof *o->tex);
    o->glob = calloc(l->nglobals + 1, sizeof *o->glob);
    if (!o->args || !o->tex || !o->glob)
        return 0;
    for (size_t i = 0; i < nb; i++) {
        wm_ptx_arg *a = &o->args[i];
        *a = i < l->nargs ? l->args[i] : l->extra[i - l->nargs];
        a->buf = in_image(mi, a->buf, a->bytes);
        a->value = in_image(mi, a->value, a->value ? a->size : 0);
    }
    for (size_t t = 0; t < l->ntextures; t++) {
        o->tex[t] = l->textures[t];
        o->tex[t].data = in_image(mi, o->tex[t].data, o->tex[t].bytes);
    }
    for (size_t g = 0; g < l->nglobals; g++) {
        o->glob[g] = l->globals[g];
        o->glob[g].init = in_image(mi, o->glob[g].init, o->glob[g].bytes);
        o->glob[g].out = in_image(mi, o->glob[g].out, o->glob[g].bytes);
    }
    o->l.args = o->args;
    o->l.extra = l->nextra ? o->args + l->nargs : NULL;
    o->l.textures = l->ntextures ? o->tex : NULL;
    o->l.globals = l->nglobals ? o->glob : NULL;
    return 1;
}

wm_status wmi_check_schedules(const wm_ptx_module *m, size_t k,
                              const wm_ptx_launch *l, wm_agg *agg,
                              wm_ptx_result *res, wm_ptx_fault *fault,
                              unsigned flags)
{
    wm_ptx_check *chk = l->check;
    memimg mi;
    size_t cap;
    if (!span_count(l, &cap)) /* refused by the run's own checks */
        return wmi_ptx_run_once(m, k, l, agg, res, fault,
                                flags | WMI_RUN_ALT);
    if (!memimg_save(l, cap, &mi)) {
        memimg_free(&mi);
        return WM_ERR_NOMEM;
    }
    wm_status st = wmi_ptx_run_once(m, k, l, agg, res, fault,
                                    flags | WMI_RUN_ALT);
    chk->other = chk->schedule == WM_SCHED_IN_ORDER ? WM_SCHED_REVERSE
                                                    : WM_SCHED_IN_ORDER;
    if (st == WM_OK && wmi_check_proves_order(m, k, l)) {
        chk->proved = 1; /* the outputs are equal: not compared */
        memimg_free(&mi);
        return st;
    }
    other o;
    memset(&o, 0, sizeof o);
    if (st == WM_OK && !other_new(l, &mi, &o))
        st = WM_ERR_NOMEM;
    if (st != WM_OK) {
        other_free(&o);
        memimg_free(&mi);
        return st;
    }
    wm_ptx_check alt;
    memset(&alt, 0, sizeof alt);
    alt.schedule = chk->other;
    o.l.check = &alt;
    o.l.cache = NULL;
    o.l.progress = NULL;
    /* The other run's statistics are dropped, but it keeps some: the
       interpreter's fastest path for a warp repeating an access pattern
       (the memo's hot repeat) lives in them, and a copy kernel runs it
       about 1.7x faster than without. */
    wm_agg *scratch = agg ? wm_agg_new(wm_agg_arch(agg)) : NULL;
    wm_ptx_fault f2;
    wm_status st2 = agg && !scratch
                        ? WM_ERR_NOMEM
                        : wmi_ptx_run_once(m, k, &o.l, scratch, NULL, &f2,
                                           flags | WMI_RUN_ALT);
    wm_agg_free(scratch);
    wm_ptx_check_clear(&alt);
    int differs = st2 == WM_OK ? outputs_differ(l, &mi, cap) : 0;
    if (st2 == WM_ERR_NOMEM || differs < 0) {
        st = WM_ERR_NOMEM;
    } else if (st2 != WM_OK) {
        chk->differs = 1; /* the other order stopped at a fault */
        chk->diff_arg = -1;
    } else if (differs) {
        first_diff(l, &mi, chk);
    }
    other_free(&o);
    memimg_free(&mi);
    return st;
}
