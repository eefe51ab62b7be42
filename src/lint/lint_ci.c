/*
 * lint_ci.c -- lint's verdicts for CI tools: the flagged instructions as a
 * SARIF log (wm_lint_sarif, through out_sarif.c) and every memory
 * instruction as a JUnit testcase (wm_lint_junit), failed at --fail-on's
 * severity or above.
 */
#include "out_ci.h"
#include "ptx_lint_int.h"

#include <string.h>

/* SARIF's level for a severity. */
static const char *level_of(wm_severity s)
{
    switch (s) {
    case WM_SEV_HIGH: return "error";
    case WM_SEV_MEDIUM: return "warning";
    case WM_SEV_LOW: return "note";
    case WM_SEV_NONE: break;
    }
    return "none";
}

static const char *unit_of(const wm_lint_insn *v)
{
    return v->space == WM_SPACE_SHARED ? "wavefronts" : "sectors";
}

/* "ld.global.f32 [..]: 32.00 sectors per request, ideal 4.00 (28.00 in
   excess), severity high" */
static void verdict_text(const wm_lint *l, const wm_lint_insn *v,
                         const wmi_ci_loc *w, char *buf, size_t n)
{
    snprintf(buf, n,
             "kernel %s: %s: %.2f %s per request, ideal %.2f (%.2f in "
             "excess per request), severity %s; address %s",
             wm_ptx_kernel_pretty(l->m, l->kernel), w->text, v->per_request,
             unit_of(v), v->ideal, v->per_request - v->ideal,
             wm_severity_name(v->severity), v->form);
}

static void sarif_verdict(wmi_out *o, const wm_lint *l, const wm_lint_insn *v,
                          const wm_ci_opts *ci)
{
    wmi_ci_loc w;
    const char *ptx = ci ? ci->ptx_path : NULL;
    if (!wmi_ci_where(l->m, v->insn, ptx, &w))
        return;
    char text[1024];
    verdict_text(l, v, &w, text, sizeof text);
    wmi_sarif_result(o, v->space == WM_SPACE_SHARED ? WMI_RULE_BANKS
                                                    : WMI_RULE_SECTORS,
                     level_of(v->severity), text);
    wmi_out_arr(o, "locations");
    wmi_sarif_location(o, &w, ptx);
    wmi_out_end(o);
    if (w.line) { /* the PTX instruction too */
        wmi_ci_loc p = w;
        p.line = 0;
        wmi_out_arr(o, "relatedLocations");
        wmi_sarif_related(o, 0, &p, ptx, "PTX");
        wmi_out_end(o);
    }
    wmi_out_obj(o, "properties");
    wmi_out_str(o, "kernel", wm_ptx_kernel_name(l->m, l->kernel));
    wmi_out_str(o, "severity", wm_severity_name(v->severity));
    wmi_out_num(o, "per_request", v->per_request);
    wmi_out_num(o, "ideal", v->ideal);
    wmi_out_uint(o, "ptx_line", w.ptx_line);
    wmi_out_end(o);
    wmi_out_end(o); /* the result */
}

wm_status wm_lint_sarif(FILE *f, const wm_ptx_module *m,
                        const wm_lint *const *res, size_t n,
                        const wm_ci_opts *o)
{
    if (!f || !m || (n && !res))
        return WM_ERR_ARG;
    wmi_out out;
    wmi_sarif_begin(&out, f, o);
    for (size_t k = 0; k < n; k++)
        for (size_t i = 0; res[k] && i < res[k]->nv; i++)
            if (res[k]->v[i].severity != WM_SEV_NONE)
                sarif_verdict(&out, res[k], &res[k]->v[i], o);
    return wmi_sarif_end(&out);
}

/* ---- JUnit XML ----------------------------------------------------------- */

static void xml_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default:
            if (c < 0x20 && c != '\n' && c != '\t')
                fputc('?', f); /* not allowed in XML 1.0 */
            else
                fputc(c, f);
        }
    }
}

static int fails(const wm_lint_insn *v, wm_severity fail_on)
{
    return v->severity != WM_SEV_NONE &&
           v->severity >= (fail_on == WM_SEV_NONE ? WM_SEV_LOW : fail_on);
}

static void junit_case(FILE *f, const wm_lint *l, const wm_lint_insn *v,
                       const wm_ci_opts *o)
{
    wmi_ci_loc w;
    const char *ptx = o && o->ptx_path ? o->ptx_path : "kernel.ptx";
    if (!wmi_ci_where(l->m, v->insn, ptx, &w))
        return;
    char name[2400];
    if (w.line)
        snprintf(name, sizeof name, "%s:%u: %s", w.path, w.line, w.text);
    else
        snprintf(name, sizeof name, "%s:%u: %s", ptx, w.ptx_line, w.text);
    fputs("    <testcase classname=\"", f);
    xml_text(f, wm_ptx_kernel_name(l->m, l->kernel));
    fputs("\" name=\"", f);
    xml_text(f, name);
    fputs("\"", f);
    if (!fails(v, o ? o->fail_on : WM_SEV_NONE)) {
        fputs("/>\n", f);
        return;
    }
    char text[1024];
    verdict_text(l, v, &w, text, sizeof text);
    fputs(">\n      <failure type=\"", f);
    xml_text(f, wm_severity_name(v->severity));
    fputs("\" message=\"", f);
    xml_text(f, text);
    fputs("\">", f);
    xml_text(f, text);
    fputs("</failure>\n    </testcase>\n", f);
}

wm_status wm_lint_junit(FILE *f, const wm_ptx_module *m,
                        const wm_lint *const *res, size_t n,
                        const wm_ci_opts *o)
{
    if (!f || !m || (n && !res))
        return WM_ERR_ARG;
    size_t tests = 0, failures = 0;
    wm_severity fo = o ? o->fail_on : WM_SEV_NONE;
    for (size_t k = 0; k < n; k++)
        for (size_t i = 0; res[k] && i < res[k]->nv; i++) {
            tests++;
            failures += (size_t)fails(&res[k]->v[i], fo);
        }
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
    fprintf(f, "<testsuites name=\"warpmem lint\" tests=\"%zu\" "
               "failures=\"%zu\" errors=\"0\">\n",
            tests, failures);
    for (size_t k = 0; k < n; k++) {
        if (!res[k])
            continue;
        size_t kt = res[k]->nv, kf = 0;
        for (size_t i = 0; i < kt; i++)
            kf += (size_t)fails(&res[k]->v[i], fo);
        fputs("  <testsuite name=\"", f);
        xml_text(f, wm_ptx_kernel_pretty(m, res[k]->kernel));
        fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
                   "skipped=\"0\">\n",
                kt, kf);
        fputs("    <properties>\n      <property name=\"arch\" value=\"", f);
        xml_text(f, o && o->arch ? o->arch : res[k]->arch.name);
        fputs("\"/>\n      <property name=\"fail-on\" value=\"", f);
        xml_text(f, wm_severity_name(fo == WM_SEV_NONE ? WM_SEV_LOW : fo));
        fputs("\"/>\n    </properties>\n", f);
        for (size_t i = 0; i < kt; i++)
            junit_case(f, res[k], &res[k]->v[i], o);
        fputs("  </testsuite>\n", f);
    }
    fputs("</testsuites>\n", f);
    return ferror(f) || fflush(f) != 0 ? WM_ERR_IO : WM_OK;
}
