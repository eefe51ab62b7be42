/*
 * ptx_check_xchunk.c -- the launch-wide shadow of one chunk of 32 global
 * words (128 aligned bytes of an argument buffer): the last write and the
 * last read of each word by an earlier CTA (ptx_check_grid.c holds the
 * chunks, ptx_check_gwords.c folds each CTA's words into them).
 *
 * A warp's contiguous access leaves the same record on every word it
 * touches but for the lane, which grows with the word: a run {mask, pc,
 * cta, warp, rel, bits, lane0} stands for all of them (word i of mask has
 * lane lane0 + i).  A column store leaves one lane's record on words that
 * consecutive warps wrote: a run that steps the warp instead (wstep).  A
 * chunk keeps two runs, of reads or writes, which hold a copy's, a
 * transpose's, a stencil's or a tiled GEMM's words (a chunk is one warp's
 * run, two half-warps' or two neighbouring CTAs' halves, or an in-place
 * update's read and write) in 48 bytes instead of 1 KB; the first run
 * that fits neither takes WMI_XMORE more runs from the pool (128 bytes: a
 * column of out that four CTAs' warps wrote), and the first record that
 * fits none of those turns the chunk into one wmi_xword per word, for
 * good.  What a record is does not depend on the form: wmi_xchunk_get
 * gives the same record for a word either way.
 */
#include "ptx_check_int.h"

#include <string.h>

/* Does c hold a record of kind read? */
static int holds(const wmi_xchunk *c, int read)
{
    if (wmi_xchunk_words(c))
        return 1;
    for (unsigned j = 0, n = wmi_xchunk_nruns(c); j < n; j++)
        if (wmi_xchunk_run(c, j)->mask && wmi_xchunk_run(c, j)->read == read)
            return 1;
    return 0;
}

int wmi_xchunk_writes(const wmi_xchunk *c)
{
    return holds(c, 0);
}

int wmi_xchunk_reads(const wmi_xchunk *c)
{
    return holds(c, 1);
}

/* c's run j, to change. */
static wmi_xrun *run_at(wmi_xchunk *c, unsigned j)
{
    return (wmi_xrun *)(uintptr_t)wmi_xchunk_run(c, j);
}

/* Do runs a and b give the same records but for the words? */
static int same_run(const wmi_xrun *a, const wmi_xrun *b)
{
    return a->pc == b->pc && a->cta == b->cta && a->warp == b->warp &&
           a->rel == b->rel && a->bits == b->bits && a->lane0 == b->lane0 &&
           a->read == b->read && a->wstep == b->wstep;
}

/* Words m no longer have the records of the runs of kind read. */
static void run_drop(wmi_xchunk *c, int read, uint32_t m)
{
    for (unsigned j = 0, n = wmi_xchunk_nruns(c); j < n; j++)
        if (run_at(c, j)->read == read)
            run_at(c, j)->mask &= ~m;
}

#define POOL_FIRST ((size_t)32 << 10) /* the first block's bytes */
#define POOL_LAST ((size_t)2 << 20)   /* the size blocks grow to */

/* A block's head: its allocation, the block before; 32 bytes, so that the
   records after it keep their alignment. */
typedef union xblock {
    struct {
        wmi_big mem;
        union xblock *prev;
    } h;
    wmi_xword align;
} xblock;

/* need bytes (a multiple of 32) from pool p; NULL when out of memory. */
static void *pool_take(wmi_xpool *p, size_t need)
{
    if (!p->head || p->used + need > p->size) {
        size_t size = !p->head ? POOL_FIRST
                      : p->size < POOL_LAST ? 2 * p->size
                                            : POOL_LAST;
        wmi_big mem;
        if (!wmi_big_alloc(&mem, size))
            return NULL;
        xblock *b = (xblock *)(void *)mem.p;
        b->h.mem = mem;
        b->h.prev = p->head;
        p->head = b;
        p->size = size;
        p->used = sizeof *b;
    }
    void *w = (unsigned char *)p->head + p->used;
    p->used += need;
    return w;
}

void wmi_xpool_free(wmi_xpool *p)
{
    for (xblock *b = p->head; b;) {
        xblock *prev = b->h.prev;
        wmi_big mem = b->h.mem;
        wmi_big_free(&mem);
        b = prev;
    }
    p->head = NULL;
    p->used = p->size = 0;
}

/* The run of x[0 .. n - 1] that r continues, or NULL. */
static wmi_xrun *continued(wmi_xrun *x, unsigned n, const wmi_xrun *r)
{
    for (unsigned j = 0; j < n; j++)
        if (x[j].mask && same_run(&x[j], r))
            return &x[j];
    return NULL;
}

/* A free run of x[0 .. n - 1], or NULL. */
static wmi_xrun *free_run(wmi_xrun *x, unsigned n)
{
    for (unsigned j = 0; j < n; j++)
        if (!x[j].mask)
            return &x[j];
    return NULL;
}

/* Add run r to the runs of c: to one it continues, or to a free one
   (with grow, taking the more runs from p when the two are taken); 0
   when neither exists (or p has no memory left). */
static int run_add(wmi_xchunk *c, wmi_xpool *p, const wmi_xrun *r, int grow)
{
    wmi_xrun *more = c->ext & 1 ? (wmi_xrun *)(c->ext - 1) : NULL, *x;
    unsigned n = more ? WMI_XMORE : 0;
    if ((x = continued(c->x, 2, r)) || (x = continued(more, n, r))) {
        x->mask |= r->mask;
        return 1;
    }
    if ((x = free_run(c->x, 2)) || (x = free_run(more, n))) {
        *x = *r;
        return 1;
    }
    if (more || !grow || !(more = pool_take(p, 128)))
        return 0;
    _Static_assert(WMI_XMORE * sizeof(wmi_xrun) <= 128, "more runs");
    memset(more, 0, WMI_XMORE * sizeof *more);
    more[0] = *r;
    c->ext = (uintptr_t)more | 1;
    return 1;
}

/* One record per word from now on, taken from p; 0 when out of memory. */
static int expand(wmi_xchunk *c, wmi_xpool *p)
{
    wmi_xword *w = pool_take(p, 32 * sizeof(wmi_xword));
    if (!w)
        return 0;
    memset(w, 0, 32 * sizeof *w);
    for (unsigned j = 0, n = wmi_xchunk_nruns(c); j < n; j++) {
        const wmi_xrun *x = wmi_xchunk_run(c, j);
        for (uint32_t m = x->mask; m; m &= m - 1) {
            unsigned i = (unsigned)__builtin_ctz(m);
            wmi_xrec r = wmi_xrun_rec(x, i);
            if (x->read)
                w[i].r = r;
            else
                w[i].w = r;
        }
    }
    c->ext = (uintptr_t)w;
    return 1;
}

/* Word i's record of kind read is r (words form). */
static void word_put(wmi_xchunk *c, int read, unsigned i, const wmi_xrec *r)
{
    wmi_xword *w = (wmi_xword *)c->ext;
    if (read)
        w[i].r = *r;
    else
        w[i].w = *r;
}

/* The records of kind read of words m replaced by r[i]. */
static int put_kind(wmi_xchunk *c, wmi_xpool *p, int read, uint32_t m,
                    const wmi_xrec *r)
{
    if (!wmi_xchunk_words(c)) {
        run_drop(c, read, m);
        uint32_t left = m;
        for (; left; left &= left - 1) {
            unsigned i = (unsigned)__builtin_ctz(left);
            wmi_xrun n = {1u << i, r[i].pc, r[i].cta, r[i].warp, r[i].rel,
                          (int8_t)((int)r[i].lane - (int)i), r[i].bits,
                          (uint8_t)read, 0};
            if (!run_add(c, p, &n, 0)) /* (single words: no more runs
                                          taken for them) */
                break;
        }
        if (!left)
            return 1;
        if (!expand(c, p))
            return 0;
    }
    for (; m; m &= m - 1)
        word_put(c, read, (unsigned)__builtin_ctz(m), &r[__builtin_ctz(m)]);
    return 1;
}

int wmi_xchunk_put(wmi_xchunk *c, wmi_xpool *p, uint32_t wm,
                   const wmi_xrec *w, uint32_t rm, const wmi_xrec *r)
{
    return put_kind(c, p, 0, wm, w) && put_kind(c, p, 1, rm, r);
}

int wmi_xchunk_put_run(wmi_xchunk *c, wmi_xpool *p, const wmi_xrun *r)
{
    if (!wmi_xchunk_words(c)) {
        run_drop(c, r->read, r->mask);
        if (run_add(c, p, r, 1))
            return 1;
        if (!expand(c, p))
            return 0;
    }
    for (uint32_t m = r->mask; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctz(m);
        wmi_xrec x = wmi_xrun_rec(r, i);
        word_put(c, r->read, i, &x);
    }
    return 1;
}
