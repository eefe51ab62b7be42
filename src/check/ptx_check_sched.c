/*
 * ptx_check_sched.c -- schedule exploration: run a launch under its
 * schedule and again under another one from the same inputs, and name the
 * first output byte that differs.  A kernel whose result depends on the
 * order in which ready warps run has a race, whether or not the tracker
 * (ptx_check.c) saw the two accesses.
 *
 * Only argument buffers and extra buffers are compared (module __device__
 * variables are not).  The first run's outputs are what the caller gets;
 * the second run adds nothing to the statistics and finds no hazards.
 * The second run runs on the saved images of the inputs, and the first
 * run's outputs stay where they are; only when buffers overlap or
 * textures are bound (to memory that may be a buffer) does it run in the
 * buffers themselves, the inputs swapped in and the outputs back after,
 * so that what one writes shows in the other as in the first run.
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

/* The buffers of a launch, in order: arguments, then extra buffers. */
typedef struct bufset {
    size_t n;
    void **p;
    size_t *bytes;
    unsigned char **copy; /* a saved image of each */
} bufset;

static void bufs_free(bufset *b)
{
    for (size_t i = 0; b->copy && i < b->n; i++)
        free(b->copy[i]);
    free(b->copy);
    free(b->p);
    free(b->bytes);
    memset(b, 0, sizeof *b);
}

/* Collect l's buffers and save their contents; 0 when out of memory. */
static int bufs_save(const wm_ptx_launch *l, bufset *b)
{
    memset(b, 0, sizeof *b);
    size_t n = l->nargs + l->nextra;
    b->p = calloc(n + 1, sizeof *b->p);
    b->bytes = calloc(n + 1, sizeof *b->bytes);
    b->copy = calloc(n + 1, sizeof *b->copy);
    b->n = n;
    if (!b->p || !b->bytes || !b->copy)
        return 0;
    for (size_t i = 0; i < n; i++) {
        const wm_ptx_arg *a = i < l->nargs ? &l->args[i]
                                           : &l->extra[i - l->nargs];
        if (!a->buf || !a->bytes)
            continue;
        b->p[i] = a->buf;
        b->bytes[i] = a->bytes;
        if (!(b->copy[i] = malloc(a->bytes)))
            return 0;
        memcpy(b->copy[i], a->buf, a->bytes);
    }
    return 1;
}

/* Swap the buffers' contents with the saved images. */
static void bufs_swap(bufset *b)
{
    unsigned char tmp[4096];
    for (size_t i = 0; i < b->n; i++)
        for (size_t o = 0; b->copy[i] && o < b->bytes[i]; o += sizeof tmp) {
            size_t k = b->bytes[i] - o < sizeof tmp ? b->bytes[i] - o
                                                    : sizeof tmp;
            unsigned char *p = (unsigned char *)b->p[i] + o;
            memcpy(tmp, p, k);
            memcpy(p, b->copy[i] + o, k);
            memcpy(b->copy[i] + o, tmp, k);
        }
}

/* First difference between the reported run's outputs and the other
   run's (in the buffers and the images, or, swapped, the other way
   round): into chk; 0 if none. */
static int first_diff(const bufset *b, int swapped, wm_ptx_check *chk)
{
    for (size_t i = 0; i < b->n; i++) {
        if (!b->copy[i] || memcmp(b->p[i], b->copy[i], b->bytes[i]) == 0)
            continue;
        size_t o = 0;
        const unsigned char *rep = swapped ? b->copy[i] : b->p[i];
        const unsigned char *oth = swapped ? b->p[i] : b->copy[i];
        while (rep[o] == oth[o])
            o++;
        unsigned es = chk->elem_size && i < chk->nelem_size
                          ? chk->elem_size[i] : 1;
        es = es ? es : 1;
        uint64_t e = o / es, start = e * es;
        size_t k = es < 8 ? es : 8;
        if (start + k > b->bytes[i])
            k = b->bytes[i] - start;
        chk->differs = 1;
        chk->diff_arg = (long)i;
        chk->diff_byte = o;
        chk->diff_elem = e;
        memcpy(chk->diff_bytes[0], rep + start, k);
        memcpy(chk->diff_bytes[1], oth + start, k);
        return 1;
    }
    return 0;
}

/* May the other run have the images for buffers?  Not when two buffers
   overlap or a texture is bound: then what is written through one must
   show in the other, which only the buffers themselves do. */
static int images_apart(const wm_ptx_launch *l, const bufset *b)
{
    if (l->ntextures)
        return 0;
    for (size_t i = 0; i < b->n; i++)
        for (size_t j = i + 1; b->p[i] && j < b->n; j++) {
            const unsigned char *x = b->p[i], *y = b->p[j];
            if (y && x < y + b->bytes[j] && y < x + b->bytes[i])
                return 0;
        }
    return 1;
}

/* l with its buffers replaced by b's images, in args (nargs + nextra). */
static wm_ptx_launch on_images(const wm_ptx_launch *l, const bufset *b,
                               wm_ptx_arg *args)
{
    wm_ptx_launch l2 = *l;
    for (size_t i = 0; i < b->n; i++) {
        args[i] = i < l->nargs ? l->args[i] : l->extra[i - l->nargs];
        if (b->copy[i])
            args[i].buf = b->copy[i];
    }
    l2.args = args;
    l2.extra = l->nextra ? args + l->nargs : NULL;
    return l2;
}

wm_status wmi_check_schedules(const wm_ptx_module *m, size_t k,
                              const wm_ptx_launch *l, wm_agg *agg,
                              wm_ptx_result *res, wm_ptx_fault *fault,
                              unsigned flags)
{
    wm_ptx_check *chk = l->check;
    bufset b;
    if (!bufs_save(l, &b)) {
        bufs_free(&b);
        return WM_ERR_NOMEM;
    }
    wm_status st = wmi_ptx_run_once(m, k, l, agg, res, fault,
                                    flags | WMI_RUN_ALT);
    chk->other = chk->schedule == WM_SCHED_IN_ORDER ? WM_SCHED_REVERSE
                                                    : WM_SCHED_IN_ORDER;
    if (st != WM_OK) {
        bufs_free(&b);
        return st;
    }
    int swapped = !images_apart(l, &b);
    wm_ptx_arg *args = swapped ? NULL : calloc(b.n + 1, sizeof *args);
    if (!swapped && !args) {
        bufs_free(&b);
        return WM_ERR_NOMEM;
    }
    wm_ptx_launch l2 = swapped ? *l : on_images(l, &b, args);
    if (swapped) /* the images now hold the reported outputs, the buffers
                    the inputs */
        bufs_swap(&b);
    wm_ptx_check alt;
    memset(&alt, 0, sizeof alt);
    alt.schedule = chk->other;
    l2.check = &alt;
    l2.cache = NULL;
    l2.progress = NULL;
    wm_ptx_fault f2;
    wm_status st2 = wmi_ptx_run_once(m, k, &l2, NULL, NULL, &f2,
                                     flags | WMI_RUN_ALT);
    wm_ptx_check_clear(&alt);
    if (st2 == WM_ERR_NOMEM)
        st = st2;
    else if (st2 != WM_OK) {
        chk->differs = 1; /* the other order stopped at a fault */
        chk->diff_arg = -1;
    } else {
        first_diff(&b, swapped, chk);
    }
    if (swapped)
        bufs_swap(&b); /* back to the reported run's outputs */
    free(args);
    bufs_free(&b);
    return st;
}
