/*
 * ptx_tma_im2col.c -- the pixel walk of a TMA im2col load
 * (cp.async.bulk.tensor.{3,4,5}d ... .im2col, ptx_tma.c).
 *
 * Model (docs/design/ptx-tma.md, "im2col"): in spatial dimension i
 * (1..rank-2) the bounding box is [lower + off, dims + upper + off), with
 * the map's corners and the instruction's im2col offset; the first pixel
 * is the coordinates plus the offsets (N unchanged).  The walk steps the
 * innermost spatial dimension (W) by its traversal stride; past the box
 * it returns to the box's lower edge and steps the next dimension, and
 * past the last spatial dimension it moves to the next image (N + 1).  A
 * pixel outside the tensor is the map's fill.
 */
#include "ptx_tma_int.h"

void wmi_im2col_start(wmi_im2col *w, const wm_ptx_tmap *t, const int64_t *at,
                      const int64_t *off)
{
    w->rank = t->rank;
    for (unsigned i = 1; i < 5; i++) {
        int spatial = i + 1 < t->rank;
        int64_t o = spatial ? off[i - 1] : 0;
        w->px[i] = i < t->rank ? at[i] + o : 0;
        w->lo[i] = spatial ? t->lower[i - 1] + o : 0;
        w->hi[i] = spatial ? (int64_t)t->dims[i] + t->upper[i - 1] + o : 0;
        w->step[i] = i < t->rank ? t->elem_strides[i] : 1;
    }
}

void wmi_im2col_next(wmi_im2col *w)
{
    for (unsigned i = 1; i + 1 < w->rank; i++) {
        w->px[i] += w->step[i];
        if (w->px[i] < w->hi[i])
            return;
        w->px[i] = w->lo[i];
    }
    w->px[w->rank - 1]++;
}

int wmi_im2col_row(const wmi_im2col *w, const wm_ptx_tmap *t, uint64_t *ga)
{
    int inb = 1;
    uint64_t a = t->global_address;
    for (unsigned i = 1; i < t->rank; i++) {
        int64_t g = w->px[i];
        inb &= g >= 0 && (uint64_t)g < t->dims[i];
        a += (uint64_t)g * t->strides[i - 1];
    }
    *ga = a;
    return inb;
}
