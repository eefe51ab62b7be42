/*
 * ptx_check_xchunk.c -- the launch-wide shadow of one chunk of 32 global
 * words (128 aligned bytes of an argument buffer): the last write and the
 * last read of each word by an earlier CTA (ptx_check_grid.c holds the
 * chunks, ptx_check_gwords.c folds each CTA's words into them).
 *
 * A warp's contiguous access leaves the same record on every word it
 * touches but for the lane, which grows with the word: a run {mask, pc,
 * cta, warp, rel, bits, lane0} stands for all of them (word i of mask has
 * lane lane0 + i).  A chunk keeps two runs, of reads or writes, which hold
 * a copy's, a transpose's, a stencil's or a tiled GEMM's words (a chunk
 * is one warp's run, two half-warps' or two neighbouring CTAs' halves, or
 * an in-place update's read and write) in 48 bytes instead of 1 KB; the
 * first record that fits no run turns the chunk into one wmi_xword per
 * word, for good.  What a record is does not depend on the form:
 * wmi_xchunk_get gives the same record for a word either way.
 */
#include "ptx_check_int.h"

#include <string.h>

int wmi_xchunk_writes(const wmi_xchunk *c)
{
    return c->words || (c->x[0].mask && !c->x[0].read) ||
           (c->x[1].mask && !c->x[1].read);
}

int wmi_xchunk_reads(const wmi_xchunk *c)
{
    return c->words || (c->x[0].mask && c->x[0].read) ||
           (c->x[1].mask && c->x[1].read);
}

/* Do runs a and b give the same records but for the words? */
static int same_run(const wmi_xrun *a, const wmi_xrun *b)
{
    return a->pc == b->pc && a->cta == b->cta && a->warp == b->warp &&
           a->rel == b->rel && a->bits == b->bits && a->lane0 == b->lane0 &&
           a->read == b->read;
}

/* Add run r to the runs of c: to one it continues, or to a free one; 0
   when neither exists. */
static int run_add(wmi_xchunk *c, const wmi_xrun *r)
{
    for (int j = 0; j < 2; j++)
        if (c->x[j].mask && same_run(&c->x[j], r)) {
            c->x[j].mask |= r->mask;
            return 1;
        }
    for (int j = 0; j < 2; j++)
        if (!c->x[j].mask) {
            c->x[j] = *r;
            return 1;
        }
    return 0;
}

/* Words m no longer have the records of the runs of kind read. */
static void run_drop(wmi_xchunk *c, int read, uint32_t m)
{
    for (int j = 0; j < 2; j++)
        if (c->x[j].read == read)
            c->x[j].mask &= ~m;
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

/* 32 records from pool p; NULL when out of memory. */
static wmi_xword *pool_take(wmi_xpool *p)
{
    size_t need = 32 * sizeof(wmi_xword);
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
    wmi_xword *w = (wmi_xword *)(void *)((unsigned char *)p->head + p->used);
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

/* One record per word from now on, taken from p; 0 when out of memory. */
static int expand(wmi_xchunk *c, wmi_xpool *p)
{
    wmi_xword *w = pool_take(p);
    if (!w)
        return 0;
    memset(w, 0, 32 * sizeof *w);
    for (int j = 0; j < 2; j++)
        for (uint32_t m = c->x[j].mask; m; m &= m - 1) {
            unsigned i = (unsigned)__builtin_ctz(m);
            wmi_xrec r = wmi_xrun_rec(&c->x[j], i);
            if (c->x[j].read)
                w[i].r = r;
            else
                w[i].w = r;
        }
    c->words = w;
    return 1;
}

/* Word i's record of kind read is r (words form). */
static void word_put(wmi_xchunk *c, int read, unsigned i, const wmi_xrec *r)
{
    if (read)
        c->words[i].r = *r;
    else
        c->words[i].w = *r;
}

/* The records of kind read of words m replaced by r[i]. */
static int put_kind(wmi_xchunk *c, wmi_xpool *p, int read, uint32_t m,
                    const wmi_xrec *r)
{
    if (!c->words) {
        run_drop(c, read, m);
        uint32_t left = m;
        for (; left; left &= left - 1) {
            unsigned i = (unsigned)__builtin_ctz(left);
            wmi_xrun n = {1u << i, r[i].pc, r[i].cta, r[i].warp, r[i].rel,
                          (int8_t)((int)r[i].lane - (int)i), r[i].bits,
                          (uint8_t)read};
            if (!run_add(c, &n))
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
    if (!c->words) {
        run_drop(c, r->read, r->mask);
        if (run_add(c, r))
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
