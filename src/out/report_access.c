/*
 * report_access.c -- the JSON, CSV and ncu-shaped document of one warp
 * access (`warpmem global`, `warpmem shared`): the common head and one
 * site (docs/output.md), then the access itself: active mask, lane
 * addresses, its counts, the efficiency and, with explain, the advisor.
 */
#include "out_int.h"

#include <inttypes.h>

static double efficiency_pct(const wm_counts *c, const wm_arch *arch,
                             wm_space sp)
{
    double moved = sp == WM_SPACE_SHARED
                       ? (double)c->wavefronts * arch->banks * arch->bank_bytes
                       : (double)c->sectors * arch->sector_bytes;
    return moved > 0 ? 100.0 * (double)c->bytes / moved : 0.0;
}

static void emit(wmi_out *o, const wm_arch *arch, const wm_access *a,
                 const wm_counts *c, const wm_site *s, const wm_totals *t,
                 const wm_advice *adv)
{
    const char *cmd = a->space == WM_SPACE_SHARED ? "shared" : "global";
    unsigned grid[3] = {1, 1, 1}, block[3] = {arch->warp_size, 1, 1};
    wmi_doc_begin(o, cmd, arch->name, NULL);
    wmi_doc_launch(o, grid, block, arch->warp_size);
    wmi_out_end(o);
    wmi_doc_totals(o, "totals", "total", t);
    wmi_out_arr(o, "sites");
    wmi_out_obj(o, NULL);
    wmi_doc_site(o, s);
    wmi_out_end(o);
    wmi_out_end(o);
    wmi_out_hex(o, "mask", a->mask);
    wmi_out_arr(o, "addrs");
    for (unsigned i = 0; i < arch->warp_size; i++) {
        if (!((a->mask >> i) & 1u))
            continue;
        wmi_out_obj(o, NULL);
        wmi_out_uint(o, "lane", i);
        wmi_out_uint(o, "addr", a->addr[i]);
        wmi_out_end(o);
    }
    wmi_out_end(o);
    wmi_doc_counts(o, "counts", a, c);
    double eff = efficiency_pct(c, arch, a->space);
    wmi_doc_csv_row(o, "total", NULL, "efficiency", "%", eff);
    wmi_out_num(o, "efficiency_pct", eff);
    if (adv)
        wmi_advise_emit(o, "advice", adv);
    wmi_doc_end(o);
}

wm_status wm_access_report(FILE *f, const wm_arch *arch, const wm_access *a,
                           wm_format fmt, int explain)
{
    wm_counts c;
    wm_totals t;
    wm_site s;
    wm_advice adv;
    if (!f || !arch || !a)
        return WM_ERR_ARG;
    wm_status st = wm_count(arch, a, &c);
    if (st != WM_OK)
        return st;
    if (explain && (st = wm_advise(arch, a, &adv)) != WM_OK)
        return st;
    wm_agg *g = wm_agg_new(arch);
    if (!g)
        return WM_ERR_NOMEM;
    st = wm_agg_add(g, a, NULL);
    wm_agg_totals(g, &t);
    if (st == WM_OK && !wm_agg_site(g, 0, &s))
        st = WM_ERR_ARG;
    if (st == WM_OK && wmi_fmt_ncu(fmt)) {
        wmi_ncu_launch l = {a->space == WM_SPACE_SHARED ? "shared" : "global",
                            arch, {1, 1, 1}, {arch->warp_size, 1, 1}, 0};
        st = wmi_ncu_write(f, &l, &t, NULL, fmt == WM_FMT_NCU_RAW);
    } else if (st == WM_OK && fmt != WM_FMT_TEXT) {
        wmi_out o;
        wmi_out_init(&o, f, fmt == WM_FMT_CSV);
        emit(&o, arch, a, &c, &s, &t, explain ? &adv : NULL);
        st = wmi_out_finish(&o);
    } else if (st == WM_OK) {
        st = WM_ERR_ARG; /* text is the command's own */
    }
    wm_agg_free(g);
    return st;
}
