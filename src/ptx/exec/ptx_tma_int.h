/*
 * ptx_tma_int.h -- TMA inside the library: the tensor map's 128-byte
 * layout (tmap.c), the cp.async.bulk.tensor family (ptx_tma.c) and the
 * pixel walk of its im2col loads (ptx_tma_im2col.c).
 * docs/design/ptx-tma.md.
 */
#ifndef WM_PTX_TMA_INT_H
#define WM_PTX_TMA_INT_H

#include "wm_int.h"

#define WMI_TMAP_BYTES 128u

/* Bytes of an element of CUtensorMapDataType dtype (0: not one). */
unsigned wmi_tmap_esize(unsigned dtype);
/* Is t a map cuTensorMapEncodeTiled (and the model) accepts?  1, or 0
   with the reason in err. */
int wmi_tmap_check(const wm_ptx_tmap *t, char *err, size_t n);
/* t into / from warpmem's 128 bytes (unpack checks it: 1 or 0 + err). */
void wmi_tmap_pack(const wm_ptx_tmap *t, uint8_t *p);
int wmi_tmap_unpack(const uint8_t *p, wm_ptx_tmap *t, char *err, size_t n);

/* The fields tensormap.replace edits (wmi_insn.mod of OP_TENSORMAP), in
   the PTX ISA's order; WMI_TMAP_CP is tensormap.cp_fenceproxy. */
enum {
    WMI_TMAP_ADDR, WMI_TMAP_RANK, WMI_TMAP_BOX, WMI_TMAP_GDIM,
    WMI_TMAP_GSTRIDE, WMI_TMAP_ESTRIDE, WMI_TMAP_ELEMTYPE,
    WMI_TMAP_INTERLEAVE, WMI_TMAP_SWIZZLE, WMI_TMAP_FILL, WMI_TMAP_CP
};
/* tensormap.replace on the 128 bytes p: field (ordinal ord, for box_dim,
   global_dim, global_stride, element_stride) = v, PTX's new_val (rank:
   the rank - 1; elemtype: PTX's numbering).  p is all zeros (a map being
   built) or a warpmem map; the result is a warpmem map, checked only when
   a copy uses it.  1, or 0 with the reason in err. */
int wmi_tmap_replace(uint8_t *p, unsigned field, unsigned ord, uint64_t v,
                     char *err, size_t n);

/* The pixel walk of an im2col load (ptx_tma_im2col.c): px[1..rank-1] the
   pixel (dims 1..rank-2 spatial, rank-1 the image N), [lo, hi) the
   bounding box of the spatial dimensions, step their traversal strides. */
typedef struct wmi_im2col {
    unsigned rank;
    int64_t px[5], lo[5], hi[5];
    unsigned step[5];
} wmi_im2col;
/* The walk of map t from the copy's coordinates at[0..rank) and im2col
   offsets off[0..rank-2) (off[0] for W, dimension 1). */
void wmi_im2col_start(wmi_im2col *w, const wm_ptx_tmap *t, const int64_t *at,
                      const int64_t *off);
/* The next pixel of the walk. */
void wmi_im2col_next(wmi_im2col *w);
/* The pixel's global address of channel 0 into *ga; is it in the tensor? */
int wmi_im2col_row(const wmi_im2col *w, const wm_ptx_tmap *t, uint64_t *ga);

#endif /* WM_PTX_TMA_INT_H */
