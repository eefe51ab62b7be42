/*
 * ptx_check_html.c -- run --check's findings as the HTML report's Checks
 * section (wm_html_finding): each hazard with the source lines of both
 * accesses, the schedule difference, at most WMI_HTML_FINDINGS of them.
 */
#include "ptx_check_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEXT_CAP 400

static const char *access_word(const wm_ptx_hazard_access *a)
{
    return a->atomic ? "atomic" : a->write ? "write" : "read";
}

static void set_access(const wm_ptx_module *m, const wm_ptx_hazard_access *a,
                       wm_html_finding *x, int k)
{
    wm_ptx_where w;
    if (!wm_ptx_where_insn(m, a->insn, &w))
        return;
    x->file[k] = w.file;
    x->line[k] = w.line;
    x->what[k] = access_word(a);
}

size_t wmi_check_findings(const wm_ptx_module *m, const wm_ptx_check *c,
                          wm_html_finding **out, char **texts)
{
    *out = NULL;
    *texts = NULL;
    if (!c || !c->checks)
        return 0;
    size_t nh = c->nhazards < WMI_HTML_FINDINGS ? c->nhazards
                                                : WMI_HTML_FINDINGS;
    size_t n = nh + (c->nhazards > nh) + (c->differs != 0);
    if (n == 0)
        return 0;
    wm_html_finding *x = calloc(n, sizeof *x);
    char *t = calloc(n, TEXT_CAP);
    if (!x || !t) {
        free(x);
        free(t);
        return 0;
    }
    size_t k = 0;
    for (size_t i = 0; i < nh; i++, k++) {
        const wm_ptx_hazard *h = &c->hazards[i];
        char where[300];
        wmi_check_where(m, h, where, sizeof where);
        char *s = t + k * TEXT_CAP;
        snprintf(s, TEXT_CAP, "on %s, %u bytes, block (%u,%u,%u): %" PRIu64
                              " time%s",
                 where, h->size, h->cta[0], h->cta[1], h->cta[2], h->count,
                 h->count == 1 ? "" : "s");
        x[k].kind = wm_hazard_name(h->kind);
        x[k].text = s;
        if (h->kind != WM_HAZ_UNINIT)
            set_access(m, &h->first, &x[k], 0);
        set_access(m, &h->second, &x[k], 1);
    }
    if (c->nhazards > nh) {
        char *s = t + k * TEXT_CAP;
        snprintf(s, TEXT_CAP, "%zu more instruction pairs (all in the JSON "
                              "report)",
                 c->nhazards - nh);
        x[k].kind = "more";
        x[k++].text = s;
    }
    if (c->differs) {
        char *s = t + k * TEXT_CAP;
        if (c->diff_arg < 0)
            snprintf(s, TEXT_CAP, "under the %s schedule the run stopped at "
                                  "a fault; under %s it did not",
                     wm_ptx_schedule_name(c->other),
                     wm_ptx_schedule_name(c->schedule));
        else {
            char where[96];
            wmi_check_diff_where(c, where, sizeof where);
            snprintf(s, TEXT_CAP, "outputs differ between schedules %s and "
                                  "%s: %s, element %" PRIu64,
                     wm_ptx_schedule_name(c->schedule),
                     wm_ptx_schedule_name(c->other), where, c->diff_elem);
        }
        x[k].kind = "schedule-difference";
        x[k++].text = s;
    }
    *out = x;
    *texts = t;
    return k;
}
