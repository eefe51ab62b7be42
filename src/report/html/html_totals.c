/*
 * html_totals.c -- kernel totals for the HTML report under Nsight
 * Compute's metric names, grouped as its Memory Workload Analysis tables
 * are (global and local through L1TEX, shared memory), each metric with
 * its unit and a one-line meaning (also the row's tooltip).  Units and
 * meanings follow from the name's parts; docs/design/memory-model.md §1,
 * §2 gives the definitions.
 */
#include "html_int.h"

typedef struct meaning {
    const char *part; /* substring of the metric name */
    const char *unit;
    const char *what;
} meaning;

/* First match wins: the specific parts before the general ones. */
static const meaning meanings[] = {
    {"inst_executed", "instructions",
     "warp-level instructions executed with at least one active lane"},
    {"sectors_per_request", "sectors / request",
     "sectors per request; the ideal is the bytes asked / 32 (4 for 4-byte "
     "lanes of a full warp)"},
    {"bytes_per_sector_mem_global_op_ld.ratio", "bytes / sector",
     "requested bytes per 32-byte sector moved (32 is perfect)"},
    {"bytes_per_sector_mem_global_op_st.ratio", "bytes / sector",
     "requested bytes per 32-byte sector moved (32 is perfect)"},
    {"bytes_per_sector", "%",
     "requested bytes as a share of the sector bytes moved"},
    {"bytes_per_wavefront", "%",
     "requested bytes as a share of the bytes the wavefronts could carry"},
    {"tag_requests", "tag lookups", "128-byte cache lines looked up"},
    {"sectors_global_excessive", "sectors",
     "sectors beyond the ideal: the waste the uncoalesced-access rule "
     "reports"},
    {"sectors_global_ideal", "sectors",
     "sectors a perfectly packed warp would need for the same bytes"},
    {"theoretical_sectors", "sectors",
     "sectors the access pattern asks of L1TEX/L2 (before cache hits)"},
    {"t_sectors", "sectors", "32-byte sectors the requests touch"},
    {"t_requests", "requests", "warp-level requests to L1TEX"},
    {"bank_conflicts", "conflicts",
     "wavefronts above the ideal: bank conflicts"},
    {"wavefronts_shared_excessive", "wavefronts",
     "wavefronts beyond the ideal: the waste the bank-conflict rule "
     "reports"},
    {"wavefronts_shared_ideal", "wavefronts",
     "wavefronts a conflict-free access of the same bytes would need"},
    {"nway", "ways",
     "wavefronts per instruction: an n-way conflict on average"},
    {"wavefronts", "wavefronts",
     "passes of the shared-memory data pipe (1 per request is ideal)"},
};

static const meaning *meaning_of(const char *name)
{
    for (size_t i = 0; i < WM_ARRAY_LEN(meanings); i++)
        if (strstr(name, meanings[i].part))
            return &meanings[i];
    return NULL;
}

/* Group of a metric: 0 global, 1 local, 2 shared. */
static int group_of(const char *name)
{
    if (strstr(name, "shared") || strstr(name, "ldsm"))
        return 2;
    if (strstr(name, "local"))
        return 1;
    return 0;
}

static const char *const group_title[3] = {
    "Global memory (L1TEX and L2 sectors)",
    "Local memory (L1TEX)",
    "Shared memory",
};

void wmi_html_totals(FILE *f, const wm_totals *t)
{
    fputs("<section class=\"block\" id=\"totals\">\n<h2>Kernel totals</h2>\n"
          "<p class=\"muted\">Under Nsight Compute's metric names, grouped "
          "as its Memory Workload Analysis tables; hover a name for its "
          "meaning.</p>\n",
          f);
    for (int g = 0; g < 3; g++) {
        int any = 0;
        for (size_t i = 0; i < wm_metric_count(); i++) {
            const char *name = wm_metric_name(i);
            if (group_of(name) != g || !wm_metric_relevant(t, i))
                continue;
            const meaning *m = meaning_of(name);
            if (!any) {
                fprintf(f, "<h3>%s</h3>\n<table class=\"totals\"><tr><th "
                           "class=\"l\">metric</th><th>value</th><th "
                           "class=\"l\">unit</th><th class=\"l\">meaning"
                           "</th></tr>\n",
                        group_title[g]);
                any = 1;
            }
            fputs("<tr title=\"", f);
            wmi_html_escape(f, m ? m->what : "");
            fputs("\"><td class=\"l metric\">", f);
            wmi_html_escape(f, name);
            double v = wm_metric_value(t, i);
            if (wm_metric_is_count(i))
                fprintf(f, "</td><td>%.0f</td>", v);
            else
                fprintf(f, "</td><td>%.2f</td>", v);
            fprintf(f, "<td class=\"l\">%s</td><td class=\"l muted\">",
                    m ? m->unit : "");
            wmi_html_escape(f, m ? m->what : "");
            fputs("</td></tr>\n", f);
        }
        if (any)
            fputs("</table>\n", f);
    }
    fputs("</section>\n", f);
}
