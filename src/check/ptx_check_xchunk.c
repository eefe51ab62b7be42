/*
 * ptx_check_xchunk.c -- the launch-wide shadow of one chunk of 32 global
 * words (128 aligned bytes of an argument buffer): the last write and the
 * last read of each word by an earlier CTA (ptx_check_grid.c holds the
 * chunks, ptx_check.c folds each CTA's words into them).
 *
 * A warp's contiguous access leaves the same record on every word it
 * touches but for the lane, which grows with the word: a run {mask, pc,
 * cta, warp, rel, bits, lane0} stands for all of them (word i of mask has
 * lane lane0 + i).  A chunk keeps up to two runs of writes and two of
 * reads, which hold a copy's, a transpose's or a tiled GEMM's words (a
 * chunk is one warp's run, or two half-warps', or two neighbouring CTAs'
 * halves) in 88 bytes instead of 1 KB; the first record that fits no run
 * turns the chunk into one wmi_xword per word, for good.  What a record
 * is does not depend on the form: wmi_xchunk_get gives the same record
 * for a word either way.
 */
#include "ptx_check_int.h"

#include <stdlib.h>

int wmi_xchunk_writes(const wmi_xchunk *c)
{
    return c->words || c->w[0].mask || c->w[1].mask;
}

int wmi_xchunk_reads(const wmi_xchunk *c)
{
    return c->words || c->r[0].mask || c->r[1].mask;
}

static wmi_xrec run_rec(const wmi_xrun *x, unsigned i)
{
    wmi_xrec r = {x->pc, x->cta, x->warp, x->rel,
                  (uint8_t)(x->lane0 + (int)i), x->bits, 0};
    return r;
}

wmi_xrec wmi_xchunk_get(const wmi_xchunk *c, int read, unsigned i)
{
    if (c->words)
        return read ? c->words[i].r : c->words[i].w;
    const wmi_xrun *x = read ? c->r : c->w;
    for (int j = 0; j < 2; j++)
        if (x[j].mask >> i & 1)
            return run_rec(&x[j], i);
    wmi_xrec none = {0, 0, 0, 0, 0, 0, 0};
    return none;
}

/* Add record r of word i to a run of x[0..2) it continues, or to a free
   one; 0 when neither exists. */
static int run_add(wmi_xrun *x, unsigned i, const wmi_xrec *r)
{
    int8_t lane0 = (int8_t)((int)r->lane - (int)i);
    for (int j = 0; j < 2; j++)
        if (x[j].mask && x[j].pc == r->pc && x[j].cta == r->cta &&
            x[j].warp == r->warp && x[j].rel == r->rel &&
            x[j].bits == r->bits && x[j].lane0 == lane0) {
            x[j].mask |= 1u << i;
            return 1;
        }
    for (int j = 0; j < 2; j++)
        if (!x[j].mask) {
            wmi_xrun n = {1u << i, r->pc, r->cta, r->warp, r->rel, lane0,
                          r->bits};
            x[j] = n;
            return 1;
        }
    return 0;
}

/* One record per word from now on; 0 when out of memory. */
static int expand(wmi_xchunk *c)
{
    wmi_xword *w = calloc(32, sizeof *w);
    if (!w)
        return 0;
    for (unsigned i = 0; i < 32; i++) {
        w[i].w = wmi_xchunk_get(c, 0, i);
        w[i].r = wmi_xchunk_get(c, 1, i);
    }
    c->words = w;
    return 1;
}

/* The records of words m of one kind (x: its runs) replaced by r[i]. */
static int put_kind(wmi_xchunk *c, int read, uint32_t m, const wmi_xrec *r)
{
    if (!c->words) {
        wmi_xrun *x = read ? c->r : c->w;
        x[0].mask &= ~m;
        x[1].mask &= ~m;
        uint32_t left = m;
        for (; left; left &= left - 1)
            if (!run_add(x, (unsigned)__builtin_ctz(left),
                         &r[__builtin_ctz(left)]))
                break;
        if (!left)
            return 1;
        if (!expand(c))
            return 0;
    }
    for (; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctz(m);
        if (read)
            c->words[i].r = r[i];
        else
            c->words[i].w = r[i];
    }
    return 1;
}

int wmi_xchunk_put(wmi_xchunk *c, uint32_t wm, const wmi_xrec *w,
                   uint32_t rm, const wmi_xrec *r)
{
    return put_kind(c, 0, wm, w) && put_kind(c, 1, rm, r);
}
