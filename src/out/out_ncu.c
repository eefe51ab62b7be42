/*
 * out_ncu.c -- totals written the way Nsight Compute's CLI exports them,
 * so a script written for `ncu --csv` reads warpmem's prediction
 * unchanged (docs/output.md cites the layouts):
 *
 *   details (`ncu --csv --page details`): one row per metric, every field
 *   quoted, the fifteen columns "ID" ... "Metric Value";
 *   raw (`ncu --csv --page raw`): one row per launch with a column per
 *   metric, under a second row holding each column's unit.
 *
 * Values are formatted as ncu formats them: integers with thousands
 * separators ("1,024"), other values with two decimals.  Units are ncu's
 * base units (--print-units base).
 */
#include "out_int.h"

#include <math.h>

/* The launch columns ncu puts before its metric columns. */
static const char *const launch_cols[] = {
    "ID",         "Process ID", "Process Name", "Host Name",
    "Kernel Name", "Context",   "Stream",       "Block Size",
    "Grid Size",  "Device",     "CC"};
#define NLAUNCH (sizeof launch_cols / sizeof launch_cols[0])

static void quoted(FILE *f, const char *s, int comma)
{
    if (comma)
        fputc(',', f);
    wmi_csv_string(f, s);
}

/* v as ncu prints it. */
static void ncu_value(char *buf, size_t n, double v)
{
    if (!isfinite(v)) {
        snprintf(buf, n, "n/a");
        return;
    }
    if (v != floor(v) || fabs(v) >= 1e18) {
        snprintf(buf, n, "%.2f", v);
        return;
    }
    char digits[32];
    snprintf(digits, sizeof digits, "%.0f", fabs(v));
    size_t len = strlen(digits), k = 0;
    if (v < 0 && k + 1 < n)
        buf[k++] = '-';
    for (size_t i = 0; i < len && k + 2 < n; i++) {
        if (i && (len - i) % 3 == 0)
            buf[k++] = ',';
        buf[k++] = digits[i];
    }
    buf[k] = '\0';
}

/* The launch's eleven values, in launch_cols order. */
static void launch_values(const wmi_ncu_launch *l, char v[NLAUNCH][160])
{
    unsigned sm = l->arch ? l->arch->sm : 0;
    snprintf(v[0], 160, "%u", l->id);
    snprintf(v[1], 160, "0");
    snprintf(v[2], 160, "warpmem");
    snprintf(v[3], 160, "localhost");
    snprintf(v[4], 160, "%s", l->kernel ? l->kernel : "");
    snprintf(v[5], 160, "1");
    snprintf(v[6], 160, "7");
    snprintf(v[7], 160, "(%u, %u, %u)", l->block[0], l->block[1],
             l->block[2]);
    snprintf(v[8], 160, "(%u, %u, %u)", l->grid[0], l->grid[1], l->grid[2]);
    snprintf(v[9], 160, "0");
    snprintf(v[10], 160, "%u.%u", sm / 10, sm % 10);
}

/* One metric of either source: the warpmem totals, then the hierarchy. */
typedef struct ncu_metric {
    const char *name, *unit;
    double value;
} ncu_metric;

static size_t gather(const wm_totals *t, const wm_cache *c, ncu_metric *m,
                     size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < wm_metric_count() && n < cap; i++)
        if (wm_metric_relevant(t, i))
            m[n++] = (ncu_metric){wm_metric_name(i), wm_metric_unit(i),
                                  wm_metric_value(t, i)};
    for (size_t i = 0; c && i < wm_cache_metric_count() && n < cap; i++)
        m[n++] = (ncu_metric){wm_cache_metric_name(i),
                              wm_cache_metric_unit(i),
                              wm_cache_metric_value(c, i)};
    return n;
}

wm_status wmi_ncu_write(FILE *f, const wmi_ncu_launch *l, const wm_totals *t,
                        const wm_cache *c, int raw)
{
    ncu_metric m[128];
    char lv[NLAUNCH][160], num[48];
    size_t n = gather(t, c, m, WM_ARRAY_LEN(m));
    launch_values(l, lv);
    if (raw) {
        for (size_t i = 0; i < NLAUNCH; i++)
            quoted(f, launch_cols[i], i > 0);
        for (size_t i = 0; i < n; i++)
            quoted(f, m[i].name, 1);
        fputc('\n', f);
        for (size_t i = 0; i < NLAUNCH; i++)
            quoted(f, "", i > 0);
        for (size_t i = 0; i < n; i++)
            quoted(f, m[i].unit, 1);
        fputc('\n', f);
        for (size_t i = 0; i < NLAUNCH; i++)
            quoted(f, lv[i], i > 0);
        for (size_t i = 0; i < n; i++) {
            ncu_value(num, sizeof num, m[i].value);
            quoted(f, num, 1);
        }
        fputc('\n', f);
    } else {
        for (size_t i = 0; i < NLAUNCH; i++)
            quoted(f, launch_cols[i], i > 0);
        fputs(",\"Section Name\",\"Metric Name\",\"Metric Unit\","
              "\"Metric Value\"\n",
              f);
        for (size_t k = 0; k < n; k++) {
            for (size_t i = 0; i < NLAUNCH; i++)
                quoted(f, lv[i], i > 0);
            quoted(f, "Command line profiler metrics", 1);
            quoted(f, m[k].name, 1);
            quoted(f, m[k].unit, 1);
            ncu_value(num, sizeof num, m[k].value);
            quoted(f, num, 1);
            fputc('\n', f);
        }
    }
    return ferror(f) ? WM_ERR_IO : WM_OK;
}
