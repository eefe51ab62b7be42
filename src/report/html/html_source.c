/*
 * html_source.c -- the source page of the HTML report, laid out like
 * Nsight Compute's Source page: every line of the kernel's file (or every
 * statement with memory instructions) as a table row with its requests,
 * sectors and wavefronts per request against the ideal, bank conflicts,
 * excessive share and a heat bar; inlined helper lines under their call
 * site; the PTX of the memory instructions beside it in a collapsible
 * panel.  A line's number links to its detail section (html_detail.c),
 * which links back.  Plain anchors and CSS :target, no script.
 */
#include "html_int.h"

/* Files longer than this list only their lines with memory instructions. */
#define WHOLE_FILE_MAX 5000

static double per(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0.0;
}

/* The numeric cells of a row (sums sec, shr) and its heat bar. */
static void num_cells(FILE *f, const wm_stats *sec, const wm_stats *shr,
                      double share, wm_severity sev, double heat)
{
    uint64_t req = sec->requests + shr->requests;
    if (!req && !sec->inst && !shr->inst) {
        fputs("<td></td><td></td><td></td><td></td><td></td>"
              "<td class=\"heat\"></td>",
              f);
        return;
    }
    fprintf(f, "<td>%llu</td>", (unsigned long long)req);
    if (sec->requests)
        fprintf(f, "<td>%.2f <span class=\"muted\">/ %.2f</span></td>",
                per(sec->sectors, sec->requests),
                per(sec->ideal_sectors, sec->requests));
    else
        fputs("<td></td>", f);
    if (shr->requests)
        fprintf(f, "<td>%.2f <span class=\"muted\">/ %.2f</span></td>",
                per(shr->wavefronts, shr->requests),
                per(shr->ideal_wavefronts, shr->requests));
    else
        fputs("<td></td>", f);
    if (shr->requests)
        fprintf(f, "<td>%llu</td>", (unsigned long long)shr->conflicts);
    else
        fputs("<td></td>", f);
    if (share > 0)
        fprintf(f, "<td class=\"t-%s\">%.0f%%</td>", wm_severity_name(sev),
                share * 100.0);
    else
        fputs("<td></td>", f);
    fputs("<td class=\"heat\">", f);
    if (heat > 0) {
        fputs("<span class=\"bar b-", f);
        fputs(wm_severity_name(sev), f);
        fputs("\" style=\"width:", f);
        wmi_svg_num(f, heat * 100.0 < 2 ? 2 : heat * 100.0);
        fputs("%\"></span>", f);
    }
    fputs("</td>", f);
}

static void code_cell(FILE *f, const char *text)
{
    fputs("<td class=\"code\">", f);
    if (text)
        wmi_html_escape(f, text);
    fputs("</td>", f);
}

static void sums(const wmi_hpage *p, size_t first, size_t count, wm_stats *sec,
                 wm_stats *shr)
{
    memset(sec, 0, sizeof *sec);
    memset(shr, 0, sizeof *shr);
    for (size_t i = first; i < first + count; i++)
        wmi_stats_add(p->sites[i].space == WM_SPACE_SHARED ? shr : sec,
                      &p->sites[i].stats);
}

/* A row with sites, then its helper rows. */
static void line_row(FILE *f, const wmi_hpage *p, const wmi_hline *l,
                     const char *text)
{
    char id[64], did[64];
    wmi_hline_id(id, sizeof id, l, p, 's');
    wmi_hline_id(did, sizeof did, l, p, 'd');
    int link = !p->o.max_sites || l->dpos < p->o.max_sites;
    fprintf(f, "<tr class=\"src%s%s\" id=\"%s\"><td class=\"ln\">",
            l->rank ? " hot" : "",
            wmi_html_finding_line(p, l->file, l->line) ? " hazard" : "", id);
    if (link)
        fprintf(f, "<a href=\"#%s\">", did);
    if (l->line)
        fprintf(f, "%u", l->line);
    else
        fputs("&#8211;", f);
    fputs(link ? "</a></td>" : "</td>", f);
    code_cell(f, text);
    num_cells(f, &l->sec, &l->shr, l->share, l->sev, l->heat);
    fputs("</tr>\n", f);
    for (size_t j = 0; j < l->nsub; j++) {
        const wmi_hsub *u = &p->subs[l->sub + j];
        wm_stats sec, shr;
        sums(p, u->first, u->count, &sec, &shr);
        const char *b = strrchr(u->file, '/');
        fprintf(f, "<tr class=\"inl\"><td class=\"ln\">&#8627;</td>"
                   "<td class=\"code\"><span class=\"muted\">inlined ");
        wmi_html_escape(f, b ? b + 1 : u->file);
        fprintf(f, ":%u</span> ", u->line);
        const char *t = wmi_hpage_text(p, u->file, u->line, NULL);
        if (t)
            wmi_html_escape(f, t);
        fputs("</td>", f);
        num_cells(f, &sec, &shr, 0, WM_SEV_NONE, 0);
        fputs("</tr>\n", f);
    }
}

static void table_head(FILE *f, const char *file, uint32_t nlines)
{
    fputs("<table class=\"srcpage\"", f);
    if (file && *file) {
        fputs(" data-file=\"", f);
        wmi_html_escape(f, file);
        fputc('"', f);
    }
    if (nlines)
        fprintf(f, " data-lines=\"%u\"", nlines);
    fputs(">\n<colgroup><col class=\"c-ln\"/><col/><col class=\"c-req\"/>"
          "<col class=\"c-per\"/><col class=\"c-per\"/><col class=\"c-conf\"/>"
          "<col class=\"c-share\"/><col class=\"c-heat\"/></colgroup>\n"
          "<thead><tr><th>line</th><th class=\"l\">source</th>"
          "<th title=\"warp-level requests\">requests</th>"
          "<th title=\"global/local: 32-byte sectors per request / the "
          "ideal for the bytes asked\">sectors/req<br/>/ ideal</th>"
          "<th title=\"shared: wavefronts per request / the ideal\">"
          "wavefronts/req<br/>/ ideal</th>"
          "<th title=\"shared: wavefronts above the ideal\">conflicts</th>"
          "<th title=\"the line's excess as a share of the kernel's sectors "
          "(or wavefronts) in that space: the bound on Nsight Compute's "
          "estimated speedup\">excess<br/>share</th>"
          "<th class=\"l\" title=\"the line's share of the kernel's "
          "excessive sectors or wavefronts\">heat</th></tr></thead>\n<tbody>\n",
          f);
}

/* Every line of a file the nlines callback knows; its rows are page
   lines[b, e). */
static void whole_file(FILE *f, const wmi_hpage *p, unsigned ifile,
                       uint32_t n, size_t b, size_t e)
{
    const char *file = p->files[ifile];
    table_head(f, file, n);
    for (uint32_t ln = 1; ln <= n; ln++) {
        const wmi_hline *l = wmi_hpage_find(p, file, ln);
        const char *t = p->o.source(p->o.source_ctx, file, ln);
        if (l) {
            line_row(f, p, l, t);
            continue;
        }
        fprintf(f, "<tr class=\"src\" id=\"s%u-%u\"><td class=\"ln\">%u</td>",
                ifile, ln, ln);
        code_cell(f, t);
        wm_stats z;
        memset(&z, 0, sizeof z);
        num_cells(f, &z, &z, 0, WM_SEV_NONE, 0);
        fputs("</tr>\n", f);
    }
    /* sites on lines past the end (the file changed since it was
       compiled) keep their rows */
    for (size_t i = b; i < e; i++)
        if (p->lines[i].line > n)
            line_row(f, p, &p->lines[i], NULL);
    fputs("</tbody></table>\n", f);
}

/* The rows of one file, page lines[b, e) (statements, or lines of an
   unreadable file). */
static void rows_only(FILE *f, const wmi_hpage *p, unsigned ifile, size_t b,
                      size_t e)
{
    table_head(f, p->files[ifile], 0);
    for (size_t i = b; i < e; i++) {
        const wmi_hline *l = &p->lines[i];
        if (!l->line)
            continue;
        line_row(f, p, l,
                 wmi_hpage_text(p, l->file, l->line, &p->sites[l->first]));
    }
    fputs("</tbody></table>\n", f);
}

/* The memory instructions in PTX order, each linking to its row. */
typedef struct ptx_key {
    uint32_t key; /* PTX line, else the site id */
    size_t si;    /* index into the page's sites */
} ptx_key;

static int cmp_ptx(const void *x, const void *y)
{
    const ptx_key *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->si > b->si) - (a->si < b->si);
}

static void ptx_panel(FILE *f, const wmi_hpage *p)
{
    ptx_key *ord = malloc((p->nsites ? p->nsites : 1) * sizeof *ord);
    if (!ord || !p->nsites) {
        free(ord);
        return;
    }
    for (size_t i = 0; i < p->nsites; i++) {
        wm_html_where w;
        memset(&w, 0, sizeof w);
        if (p->o.where)
            p->o.where(p->o.source_ctx, p->sites[i].site, &w);
        ord[i].key = w.ptx_line ? w.ptx_line : p->sites[i].site;
        ord[i].si = i;
    }
    qsort(ord, p->nsites, sizeof *ord, cmp_ptx);
    fputs("<details class=\"ptx\"><summary>PTX of the memory "
          "instructions</summary>\n<table class=\"ptx\"><tr><th>ptx</th>"
          "<th class=\"l\">instruction</th><th>req</th><th>per req</th>"
          "</tr>\n",
          f);
    for (size_t i = 0; i < p->nsites; i++) {
        size_t si = ord[i].si;
        const wm_site *s = &p->sites[si];
        wm_html_where w;
        memset(&w, 0, sizeof w);
        if (p->o.where)
            p->o.where(p->o.source_ctx, s->site, &w);
        char id[64];
        wmi_hline_id(id, sizeof id, &p->lines[p->row[si]], p, 's');
        fputs("<tr><td class=\"ln\">", f);
        if (w.ptx_line)
            fprintf(f, "<a href=\"#%s\">%u</a>", id, w.ptx_line);
        else
            fprintf(f, "<a href=\"#%s\">%u</a>", id, s->site);
        fputs("</td><td class=\"code\">", f);
        wmi_html_escape(f, w.ptx ? w.ptx : s->label);
        int shared = s->space == WM_SPACE_SHARED;
        fprintf(f, "</td><td>%llu</td><td>%.2f</td></tr>\n",
                (unsigned long long)s->stats.requests,
                per(shared ? s->stats.wavefronts : s->stats.sectors,
                    s->stats.requests));
    }
    fputs("</table>\n<p class=\"muted\">per req: sectors (global, local) or "
          "wavefronts (shared) per request.</p></details>\n",
          f);
    free(ord);
}

void wmi_html_source(FILE *f, const wmi_hpage *p)
{
    fputs("<section class=\"block\" id=\"source\">\n<h2>Source</h2>\n"
          "<p class=\"muted\">Every line with its memory traffic; a line "
          "number opens the line's lane pictures and advice. The heat bar "
          "is the line's share of the kernel's excessive sectors or "
          "wavefronts.</p>\n<div class=\"srcwrap\">\n",
          f);
    ptx_panel(f, p);
    fputs("<div class=\"srcmain\">\n", f);
    int nolines = 0;
    for (size_t j = 0; j < p->nlines; j++)
        nolines |= p->lines[j].line == 0;
    /* the rows are sorted by file, so each file's rows are lines[b, e) */
    for (size_t i = 0, e = 0; i < p->nfiles; i++) {
        const char *file = p->files[i];
        uint32_t n = 0;
        int has_line = 0;
        size_t b = e;
        for (; e < p->nlines && p->lines[e].ifile == i; e++)
            has_line |= p->lines[e].line != 0;
        if (!has_line)
            continue;
        if (p->o.nlines && p->o.source)
            n = p->o.nlines(p->o.source_ctx, file);
        if (n > WHOLE_FILE_MAX) /* a big header: its lines with sites */
            n = 0;
        fputs("<h3>", f);
        wmi_html_escape(f, *file ? file : "(no file)");
        fputs("</h3>\n", f);
        if (n)
            whole_file(f, p, (unsigned)i, n, b, e);
        else
            rows_only(f, p, (unsigned)i, b, e);
    }
    if (nolines) {
        fputs("<h3>Instructions without a source line</h3>\n", f);
        table_head(f, NULL, 0);
        for (size_t j = 0; j < p->nlines; j++)
            if (!p->lines[j].line)
                line_row(f, p, &p->lines[j],
                         wmi_hpage_text(p, "", 0,
                                        &p->sites[p->lines[j].first]));
        fputs("</tbody></table>\n", f);
    }
    fputs("</div>\n</div>\n</section>\n", f);
}
