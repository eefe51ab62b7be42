/*
 * advise_pattern.c -- recognise the structure of a warp's lane addresses.
 *
 * The patterns are the ones the coalescing lesson names: every lane on one
 * address (broadcast), consecutive lanes on adjacent elements
 * (contiguous), consecutive lanes a fixed stride apart (a column of a
 * row-major array, an array of structures), a 2-D warp tile (groups of k
 * lanes walk a row, then the next group starts on the next row: blockDim
 * 8x4 or 16x2), and anything else (scattered).  Strides are measured per
 * lane id, so a warp with inactive lanes keeps its stride.
 */
#include "advise_int.h"

void wmi_advise_lanes(const wm_arch *arch, const wm_access *a, wmi_lanes *l)
{
    uint64_t m = a->mask & wmi_lanes_mask(arch->warp_size);
    l->n = 0;
    for (unsigned i = 0; i < arch->warp_size; i++) {
        if ((m >> i) & 1) {
            l->lane[l->n] = i;
            l->addr[l->n] = a->addr[i];
            l->n++;
        }
    }
}

/* Exact signed quotient num/den in *q; 0 if den is 0 or it does not
 * divide.  Differences of addresses wrap like the hardware's. */
static int exact_div(uint64_t num, int64_t den, int64_t *q)
{
    int64_t n = (int64_t)num;
    if (den == 0 || (den == -1 && n == INT64_MIN) || n % den != 0)
        return 0;
    *q = n / den;
    return 1;
}

/* Does lane address = a0 + (lane - l0) * stride hold for every lane? */
static int affine(const wmi_lanes *l, int64_t *stride)
{
    if (l->n < 2 ||
        !exact_div(l->addr[1] - l->addr[0],
                   (int64_t)l->lane[1] - (int64_t)l->lane[0], stride))
        return 0;
    for (unsigned i = 2; i < l->n; i++) {
        uint64_t d = (uint64_t)((int64_t)l->lane[i] - (int64_t)l->lane[0]);
        if (l->addr[i] != l->addr[0] + d * (uint64_t)*stride)
            return 0;
    }
    return 1;
}

/*
 * Does address = base + (lane % k) * s1 + (lane / k) * jump hold for
 * some s1 and jump?  s1 comes from two active lanes of one group, jump
 * from two groups once s1 is removed.
 */
static int tiled(const wmi_lanes *l, unsigned k, int64_t *s1, int64_t *jump)
{
    unsigned p = 0, q = 0, r = 0;
    int found = 0;
    for (unsigned i = 0; i < l->n && !found; i++)
        for (unsigned j = i + 1; j < l->n; j++) {
            if (l->lane[j] / k != l->lane[i] / k)
                break;
            p = i, q = j, found = 1;
            break;
        }
    if (!found ||
        !exact_div(l->addr[q] - l->addr[p],
                   (int64_t)(l->lane[q] - l->lane[p]), s1))
        return 0;
    /* b = addr - (lane % k) * s1 must then be affine in the group. */
    uint64_t b[WM_MAX_LANES];
    for (unsigned i = 0; i < l->n; i++)
        b[i] = l->addr[i] - (uint64_t)(l->lane[i] % k) * (uint64_t)*s1;
    found = 0;
    for (unsigned i = 1; i < l->n; i++)
        if (l->lane[i] / k != l->lane[0] / k) {
            r = i, found = 1;
            break;
        }
    if (!found ||
        !exact_div(b[r] - b[0],
                   (int64_t)(l->lane[r] / k) - (int64_t)(l->lane[0] / k),
                   jump))
        return 0;
    for (unsigned i = 1; i < l->n; i++) {
        uint64_t g = (uint64_t)((int64_t)(l->lane[i] / k) -
                                (int64_t)(l->lane[0] / k));
        if (b[i] != b[0] + g * (uint64_t)*jump)
            return 0;
    }
    return 1;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

wm_status wm_pattern_find(const wm_arch *arch, const wm_access *a,
                          wm_pattern *out)
{
    if (!arch || !a || !out)
        return WM_ERR_ARG;
    memset(out, 0, sizeof *out);
    wmi_lanes l;
    wmi_advise_lanes(arch, a, &l);
    out->active = l.n;
    if (l.n == 0) {
        out->kind = WM_PAT_NONE;
        return WM_OK;
    }
    uint64_t sorted[WM_MAX_LANES];
    memcpy(sorted, l.addr, l.n * sizeof sorted[0]);
    qsort(sorted, l.n, sizeof sorted[0], cmp_u64);
    out->distinct = 1;
    for (unsigned i = 1; i < l.n; i++)
        out->distinct += sorted[i] != sorted[i - 1];
    out->lo = sorted[0];
    out->span = sorted[l.n - 1] - sorted[0] + a->size;
    if (a->space != WM_SPACE_SHARED && arch->sector_bytes)
        out->misalign = (unsigned)(out->lo % arch->sector_bytes);

    int64_t s = 0, j = 0;
    if (out->distinct == 1) {
        out->kind = WM_PAT_BROADCAST;
    } else if (affine(&l, &s)) {
        out->stride = s;
        out->kind = (s == (int64_t)a->size || s == -(int64_t)a->size)
                        ? WM_PAT_CONTIGUOUS
                        : WM_PAT_STRIDED;
    } else {
        out->kind = WM_PAT_SCATTERED;
        /* The smallest group size that explains the addresses. */
        for (unsigned k = 2; k < arch->warp_size; k *= 2)
            if (tiled(&l, k, &s, &j)) {
                out->kind = WM_PAT_TILE;
                out->group = k;
                out->stride = s;
                out->jump = j;
                break;
            }
    }
    return WM_OK;
}
