/*
 * check_sarif.c -- the findings of `warpmem run` as a SARIF log
 * (wm_check_sarif): every hazard of --check at its second access with the
 * first as a related location (both source lines), a difference between
 * schedules, and a fault at its instruction.
 */
#include "out_ci.h"
#include "ptx_check_int.h"

#include <inttypes.h>
#include <string.h>

static const char *access_word(const wm_ptx_hazard_access *a)
{
    return a->atomic ? "atomic" : a->write ? "write" : "read";
}

/* "read at copy.cu:18" (or "PTX line N") into buf. */
static void access_str(const char *what, const wm_ptx_hazard_access *a,
                       const wmi_ci_loc *l, char *buf, size_t n)
{
    if (l->line)
        snprintf(buf, n, "%s %s by warp %u lane %u at %s:%u", what,
                 access_word(a), a->warp, a->lane, l->path, l->line);
    else
        snprintf(buf, n, "%s %s by warp %u lane %u at PTX line %u", what,
                 access_word(a), a->warp, a->lane, l->ptx_line);
}

static void sarif_hazard(wmi_out *o, const wm_ptx_module *m,
                         const wm_ptx_hazard *h, const char *ptx)
{
    wmi_ci_loc first, second;
    int pair = h->kind != WM_HAZ_UNINIT;
    if (!wmi_ci_where(m, h->second.insn, ptx, &second) ||
        (pair && !wmi_ci_where(m, h->first.insn, ptx, &first)))
        return;
    char where[300], a[2300], b[2300], text[5200];
    wmi_check_where(m, h, where, sizeof where);
    access_str("the later", &h->second, &second, b, sizeof b);
    if (pair) {
        access_str("the earlier", &h->first, &first, a, sizeof a);
        snprintf(text, sizeof text,
                 "%s hazard on %s, %u bytes, block (%u,%u,%u), %" PRIu64
                 " time%s: %s, %s",
                 wm_hazard_name(h->kind), where, h->size, h->cta[0],
                 h->cta[1], h->cta[2], h->count, h->count == 1 ? "" : "s", a,
                 b);
    } else {
        snprintf(text, sizeof text,
                 "%s on %s, %u bytes, block (%u,%u,%u), %" PRIu64
                 " time%s: %s",
                 wm_hazard_name(h->kind), where, h->size, h->cta[0],
                 h->cta[1], h->cta[2], h->count, h->count == 1 ? "" : "s", b);
    }
    wmi_sarif_result(o, (wmi_ci_rule)(WMI_RULE_RAW + (int)h->kind), "error",
                     text);
    wmi_out_arr(o, "locations");
    wmi_sarif_location(o, &second, ptx);
    wmi_out_end(o);
    if (pair) {
        wmi_out_arr(o, "relatedLocations");
        wmi_sarif_related(o, 1, &first, ptx, "the earlier access");
        wmi_out_end(o);
    }
    wmi_out_obj(o, "properties");
    wmi_out_str(o, "space",
                h->space == WM_SPACE_SHARED ? "shared" : "global");
    wmi_out_uint(o, "address", h->addr);
    wmi_out_uint(o, "count", h->count);
    wmi_out_end(o);
    wmi_out_end(o);
}

static void sarif_schedules(wmi_out *o, const wm_ptx_check *c)
{
    char text[300];
    if (c->diff_arg < 0)
        snprintf(text, sizeof text,
                 "under the %s schedule the run stopped at a fault; under "
                 "%s it did not",
                 wm_ptx_schedule_name(c->other),
                 wm_ptx_schedule_name(c->schedule));
    else {
        char where[96];
        wmi_check_diff_where(c, where, sizeof where);
        snprintf(text, sizeof text,
                 "outputs differ between schedules %s and %s: %s, "
                 "element %" PRIu64 " (byte %" PRIu64 ")",
                 wm_ptx_schedule_name(c->schedule),
                 wm_ptx_schedule_name(c->other), where, c->diff_elem,
                 c->diff_byte);
    }
    wmi_sarif_result(o, WMI_RULE_SCHEDULES, "error", text);
    wmi_out_end(o);
}

static void sarif_fault(wmi_out *o, const wm_ptx_module *m,
                        const wm_ptx_fault *f, const char *ptx)
{
    wmi_ci_loc w;
    if (!wmi_ci_where(m, f->insn, ptx, &w))
        return;
    char text[600];
    snprintf(text, sizeof text, "%s (block (%u,%u,%u), thread (%u,%u,%u)): %s",
             f->msg, f->cta[0], f->cta[1], f->cta[2], f->thread[0],
             f->thread[1], f->thread[2], w.text);
    wmi_sarif_result(o, WMI_RULE_FAULT, "error", text);
    wmi_out_arr(o, "locations");
    wmi_sarif_location(o, &w, ptx);
    wmi_out_end(o);
    wmi_out_end(o);
}

wm_status wm_check_sarif(FILE *f, const wm_ptx_module *m,
                         const wm_ptx_check *c, const wm_ptx_fault *fault,
                         const wm_ci_opts *o)
{
    if (!f || !m)
        return WM_ERR_ARG;
    const char *ptx = o ? o->ptx_path : NULL;
    wmi_out out;
    wmi_sarif_begin(&out, f, o);
    for (size_t i = 0; c && i < c->nhazards; i++)
        sarif_hazard(&out, m, &c->hazards[i], ptx);
    if (c && c->differs)
        sarif_schedules(&out, c);
    if (fault)
        sarif_fault(&out, m, fault, ptx);
    return wmi_sarif_end(&out);
}
