/*
 * ptx_check_report.c -- the hazards of `warpmem run --check` as text
 * (compute-sanitizer style: kind, where, both accesses, count) and as the
 * "hazards" member of the run's JSON document.  Shared addresses are named
 * by the kernel's .shared variable (the CUDA name when the PTX name is a
 * mangled function-local static, _ZZ...E5sdata -> sdata) and an index in
 * units of the access size, or in the array's declared dimensions where
 * a -G build's DWARF gives them (ptx_dwarf.c).
 */
#include "ptx_check_int.h"
#include "out_int.h"

#include <stdlib.h>
#include <string.h>

const char *wm_hazard_name(wm_hazard_kind k)
{
    static const char *const names[] = {
#define X(e, name, desc) name,
        WM_HAZARD_LIST(X)
#undef X
    };
    return (unsigned)k < WM_HAZ_COUNT ? names[k] : "?";
}

/* The CUDA name of a function-local static: _ZZ<fn>E<len><name>. */
static const char *var_name(const char *s)
{
    size_t n = strlen(s);
    if (strncmp(s, "_ZZ", 3) != 0)
        return s;
    for (size_t i = 3; i + 1 < n; i++) {
        if (s[i] != 'E' || s[i + 1] < '0' || s[i + 1] > '9')
            continue;
        char *end;
        unsigned long len = strtoul(s + i + 1, &end, 10);
        if ((size_t)(end - s) + len == n)
            return end;
    }
    return s;
}

/* The kernel whose body holds one of h's accesses, or NULL (both in
   .func bodies, or an uninitialised read's single access in one). */
static const wmi_func *hazard_kernel(const wm_ptx_module *m,
                                     const wm_ptx_hazard *h)
{
    const wmi_func *f = wmi_ptx_func_at(m, (uint32_t)h->second.insn);
    if (f && f->is_entry)
        return f;
    f = h->kind != WM_HAZ_UNINIT ? wmi_ptx_func_at(m, (uint32_t)h->first.insn)
                                 : NULL;
    return f && f->is_entry ? f : NULL;
}

/* The shared variable holding h's address, and its start; NULL if none.
   Static variables have their CTA offsets (ptx_smem.c): module-scope and
   .func ones are the same in every kernel, a kernel's own are its. */
static const wmi_var *shared_var(const wm_ptx_module *m,
                                 const wm_ptx_hazard *h, uint64_t *start)
{
    const wmi_func *k = hazard_kernel(m, h);
    uint32_t ki = k ? (uint32_t)(k - m->funcs) : WMI_NOREG;
    uint64_t addr = h->addr;
    for (size_t i = 0; i < m->nvars; i++) {
        const wmi_var *v = &m->vars[i];
        int own = v->func == WMI_NOREG || v->func == ki ||
                  !m->funcs[v->func].is_entry;
        if (v->space != SP_SHARED || !own || (v->is_extern && !k))
            continue;
        uint64_t a = v->offset;
        if (v->is_extern) {
            uint64_t al = k->dyn_align ? k->dyn_align : 1;
            a = (k->smem_static + al - 1) / al * al;
            if (addr >= a) {
                *start = a;
                return v;
            }
            continue;
        }
        if (addr >= a && addr < a + v->size) {
            *start = a;
            return v;
        }
    }
    return NULL;
}

/* Byte off of v as indices in its declared dimensions ("[1][0]") into
   buf, from a -G build's DWARF; 0 (nothing written) when they are not
   known, off is not at an element, or it is not a 2-D or more array. */
static int declared_index(const wm_ptx_module *m, const wmi_var *v,
                          uint64_t off, char *buf, size_t n)
{
    wmi_dims d;
    if (v->is_extern || !m->src ||
        !wmi_dwarf_dims(m->src, strlen(m->src), v->name, &d) ||
        d.ndims < 2 || off % d.elem != 0)
        return 0;
    uint64_t total = d.elem, idx = off / d.elem, sub[WMI_MAX_DIMS];
    for (unsigned k = 0; k < d.ndims; k++)
        total *= d.dim[k];
    if (total != v->size)
        return 0; /* not the declaration of this variable */
    for (unsigned k = d.ndims; k-- > 0;) {
        sub[k] = idx % d.dim[k];
        idx /= d.dim[k];
    }
    size_t len = 0;
    buf[0] = 0;
    for (unsigned k = 0; k < d.ndims && len < n; k++)
        len += (size_t)snprintf(buf + len, n - len, "[%llu]",
                                (unsigned long long)sub[k]);
    return idx == 0;
}

/* The module's .global variable holding byte addr of its data; NULL if
   none. */
static const wmi_var *module_var(const wm_ptx_module *m, uint64_t addr)
{
    for (size_t i = 0; i < m->nvars; i++) {
        const wmi_var *v = &m->vars[i];
        if (v->space == SP_GLOBAL && v->func == WMI_NOREG &&
            addr >= v->offset && addr - v->offset < v->size)
            return v;
    }
    return NULL;
}

/* "SPACE name[i] (UNIT addr)" into buf: the element of variable v (which
   starts at start) holding addr, by its declared dimensions where DWARF
   gives them, else by es-byte elements; a scalar by its name alone when
   scalar. */
static void var_where(const wm_ptx_module *m, const wmi_var *v,
                      uint64_t start, uint64_t addr, unsigned es,
                      const char *space, const char *unit, int scalar,
                      char *buf, size_t n)
{
    char ix[96];
    if (scalar && v->size <= es)
        ix[0] = 0;
    else if (!declared_index(m, v, addr - start, ix, sizeof ix))
        snprintf(ix, sizeof ix, "[%llu]",
                 (unsigned long long)((addr - start) / es));
    snprintf(buf, n, "%s %s%s (%s %llu)", space, var_name(v->name), ix, unit,
             (unsigned long long)addr);
}

/* "shared sdata[4]" / "global argument 0 [+64]" into buf. */
void wmi_check_where(const wm_ptx_module *m, const wm_ptx_hazard *h,
                     char *buf, size_t n)
{
    uint64_t start;
    unsigned es = h->size ? h->size : 1;
    const wmi_var *v;
    if (h->space == WM_SPACE_SHARED && h->cluster > 1) {
        /* whose shared memory: the same words in every CTA of a cluster */
        wm_ptx_hazard one = *h;
        one.cluster = 1;
        wmi_check_where(m, &one, buf, n);
        size_t k = strlen(buf);
        if (k < n)
            snprintf(buf + k, n - k, " of cluster rank %u", h->rank);
        return;
    }
    if (h->space == WM_SPACE_SHARED) {
        if ((v = shared_var(m, h, &start)))
            var_where(m, v, start, h->addr, es, "shared", "offset", 0, buf,
                      n);
        else
            snprintf(buf, n, "shared offset %llu",
                     (unsigned long long)h->addr);
    } else if (h->buf >= 0) {
        snprintf(buf, n, "global buffer %ld [%llu] (byte %llu)", h->buf,
                 (unsigned long long)(h->addr / es),
                 (unsigned long long)h->addr);
    } else if ((v = module_var(m, h->addr))) {
        var_where(m, v, v->offset, h->addr, es, "global", "byte", 1, buf, n);
    } else {
        snprintf(buf, n, "global byte %llu", (unsigned long long)h->addr);
    }
}

static const char *access_word(const wm_ptx_hazard_access *a)
{
    return a->atomic ? "atomic" : a->write ? "write" : "read";
}

/* Are a hazard's accesses in different CTAs? */
static int between_ctas(const wm_ptx_hazard *h)
{
    return h->kind != WM_HAZ_UNINIT &&
           memcmp(h->first.cta, h->second.cta, sizeof h->first.cta) != 0;
}

static void print_access(FILE *f, const wm_ptx_module *m,
                         const wm_ptx_hazard_access *a, int block,
                         unsigned cluster)
{
    wm_ptx_where w;
    wm_ptx_where_insn(m, a->insn, &w);
    fprintf(f, "    %-6s ", access_word(a));
    if (block)
        fprintf(f, "block (%u,%u,%u) ", a->cta[0], a->cta[1], a->cta[2]);
    if (cluster > 1)
        fprintf(f, "cluster rank %u ", a->rank);
    fprintf(f, "warp %u lane %u, thread (%u,%u,%u), PTX line %u", a->warp,
            a->lane, a->thread[0], a->thread[1], a->thread[2], w.ptx_line);
    if (w.line)
        fprintf(f, ", %s:%u", w.file, w.line);
    fprintf(f, ": %s\n", w.text);
}

/* An element's bytes as a little-endian hex number. */
static void print_bytes(FILE *f, const unsigned char *b, unsigned k)
{
    fputs("0x", f);
    for (unsigned i = k; i-- > 0;)
        fprintf(f, "%02x", b[i]);
}

void wmi_check_diff_where(const wm_ptx_check *c, char *buf, size_t n)
{
    switch (c->diff_in) {
    case WM_DIFF_SURFACE: snprintf(buf, n, "surface %ld", c->diff_arg); return;
    case WM_DIFF_GLOBAL:
        snprintf(buf, n, "variable %s", c->diff_name ? c->diff_name : "?");
        return;
    case WM_DIFF_ARG: break;
    }
    snprintf(buf, n, "argument %ld", c->diff_arg);
}

/* The element type of the differing argument, or -1 when unknown. */
static int elem_type(const wm_ptx_check *c)
{
    if (!c->elem_type || c->diff_in != WM_DIFF_ARG || c->diff_arg < 0 ||
        (size_t)c->diff_arg >= c->nelem_type)
        return -1;
    return (int)c->elem_type[c->diff_arg];
}

/* The differing element under schedule k (0: reported, 1: other) as a
   number of its type into buf ("8128", "-3", "0.5"); 0 when the type is
   unknown (the hex bytes are all there is). */
static int typed_value(const wm_ptx_check *c, int k, double *out)
{
    const unsigned char *b = c->diff_bytes[k];
    uint64_t u = 0;
    int t = elem_type(c);
    if (t < 0)
        return 0;
    size_t n = wm_ptx_type_size((wm_ptx_type)t);
    for (size_t i = n; i-- > 0;)
        u = u << 8 | b[i];
    switch ((wm_ptx_type)t) {
    case WM_PTX_I8: *out = (double)(int8_t)u; break;
    case WM_PTX_I16: *out = (double)(int16_t)u; break;
    case WM_PTX_I32: *out = (double)(int32_t)u; break;
    case WM_PTX_I64: *out = (double)(int64_t)u; break;
    case WM_PTX_U8: case WM_PTX_U16: case WM_PTX_U32: case WM_PTX_U64:
        *out = (double)u;
        break;
    case WM_PTX_F16: *out = (double)wmi_half_to_float((uint16_t)u); break;
    case WM_PTX_BF16: *out = (double)wmi_bf16_to_float((uint16_t)u); break;
    case WM_PTX_F32: {
        uint32_t w = (uint32_t)u;
        float fl;
        memcpy(&fl, &w, sizeof fl);
        *out = (double)fl;
        break;
    }
    case WM_PTX_F64: memcpy(out, &u, sizeof *out); break;
    case WM_PTX_NTYPES: return 0;
    }
    return 1;
}

/* "8128 vs 32640 (f32; bytes 0x45fe0000 vs 0x46ff0000)", or the bytes
   alone when the type is unknown. */
static void print_values(FILE *f, const wm_ptx_check *c, unsigned k)
{
    double v[2];
    int typed = typed_value(c, 0, &v[0]) && typed_value(c, 1, &v[1]);
    if (typed)
        fprintf(f, "%.9g vs %.9g (%s; bytes ", v[0], v[1],
                wm_ptx_type_name((wm_ptx_type)elem_type(c)));
    print_bytes(f, c->diff_bytes[0], k);
    fputs(" vs ", f);
    print_bytes(f, c->diff_bytes[1], k);
    if (typed)
        fputc(')', f);
}

static unsigned elem_bytes(const wm_ptx_check *c)
{
    unsigned es = c->diff_elem_bytes;
    return es == 0 ? 1 : es > 8 ? 8 : es;
}

/* Source line of an access ("file:line", or "PTX line N"). */
static void line_str(const wm_ptx_module *m, const wm_ptx_hazard_access *a,
                     char *buf, size_t n)
{
    wm_ptx_where w;
    wm_ptx_where_insn(m, a->insn, &w);
    if (w.line)
        snprintf(buf, n, "%s:%u", w.file, w.line);
    else
        snprintf(buf, n, "PTX line %u", w.ptx_line);
}

/* Do hazards a and b have the same kind and source lines? */
static int same_lines(const wm_ptx_module *m, const wm_ptx_hazard *a,
                      const wm_ptx_hazard *b)
{
    char x[2][300], y[2][300];
    if (a->kind != b->kind)
        return 0;
    line_str(m, &a->second, x[1], sizeof x[1]);
    line_str(m, &b->second, y[1], sizeof y[1]);
    if (strcmp(x[1], y[1]) != 0)
        return 0;
    if (a->kind == WM_HAZ_UNINIT)
        return 1;
    line_str(m, &a->first, x[0], sizeof x[0]);
    line_str(m, &b->first, y[0], sizeof y[0]);
    return strcmp(x[0], y[0]) == 0;
}

/* The hazards grouped by kind and source-line pair, in order found. */
static void print_by_line(FILE *f, const wm_ptx_module *m,
                          const wm_ptx_check *c)
{
    for (size_t i = 0; i < c->nhazards; i++) {
        const wm_ptx_hazard *h = &c->hazards[i];
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = same_lines(m, &c->hazards[j], h);
        if (seen)
            continue;
        uint64_t pairs = 0, times = 0;
        for (size_t j = i; j < c->nhazards; j++)
            if (same_lines(m, &c->hazards[j], h)) {
                pairs++;
                times += c->hazards[j].count;
            }
        char a[300], b[300];
        line_str(m, &h->second, b, sizeof b);
        if (h->kind == WM_HAZ_UNINIT) {
            fprintf(f, "check: %s at %s (%s): %llu instruction%s, %llu "
                       "time%s\n",
                    wm_hazard_name(h->kind), b, access_word(&h->second),
                    (unsigned long long)pairs, pairs == 1 ? "" : "s",
                    (unsigned long long)times, times == 1 ? "" : "s");
            continue;
        }
        line_str(m, &h->first, a, sizeof a);
        fprintf(f, "check: %s between %s (%s) and %s (%s): %llu "
                   "instruction pair%s, %llu time%s\n",
                wm_hazard_name(h->kind), a, access_word(&h->first), b,
                access_word(&h->second), (unsigned long long)pairs,
                pairs == 1 ? "" : "s", (unsigned long long)times,
                times == 1 ? "" : "s");
    }
}

/* Hazards printed in full; the rest are only in the summary by line. */
#define PRINT_FULL 8

void wm_ptx_check_print(FILE *f, const wm_ptx_module *m,
                        const wm_ptx_check *c)
{
    if (!c || !c->checks)
        return;
    uint64_t races = 0, uninit = 0;
    for (size_t i = 0; i < c->nhazards; i++) {
        const wm_ptx_hazard *h = &c->hazards[i];
        if (h->kind == WM_HAZ_UNINIT)
            uninit++;
        else
            races++;
        if (i >= PRINT_FULL)
            continue;
        char where[300];
        int inter = between_ctas(h);
        wmi_check_where(m, h, where, sizeof where);
        fprintf(f, "check: %s hazard on %s, %u bytes, ", wm_hazard_name(h->kind),
                where, h->size);
        if (inter)
            fprintf(f, "between blocks (%u,%u,%u) and ", h->first.cta[0],
                    h->first.cta[1], h->first.cta[2]);
        else
            fputs("block ", f);
        fprintf(f, "(%u,%u,%u): %llu time%s\n", h->cta[0], h->cta[1],
                h->cta[2], (unsigned long long)h->count,
                h->count == 1 ? "" : "s");
        if (h->kind != WM_HAZ_UNINIT)
            print_access(f, m, &h->first, inter, h->cluster);
        print_access(f, m, &h->second, inter, h->cluster);
    }
    if (c->nhazards > PRINT_FULL)
        fprintf(f, "check: %zu more instruction pairs (all in the JSON "
                   "report)\n",
                c->nhazards - PRINT_FULL);
    print_by_line(f, m, c);
    if (c->dropped)
        fprintf(f, "check: %llu more occurrences of other instruction "
                   "pairs not listed\n",
                (unsigned long long)c->dropped);
    if (c->differs && c->diff_arg < 0)
        fprintf(f, "check: under the %s schedule the run stopped at a "
                   "fault; under %s it did not\n",
                wm_ptx_schedule_name(c->other),
                wm_ptx_schedule_name(c->schedule));
    else if (c->differs) {
        unsigned k = elem_bytes(c);
        char where[96];
        wmi_check_diff_where(c, where, sizeof where);
        fprintf(f, "check: outputs differ between schedules %s and %s: "
                   "%s, element %llu (byte %llu): ",
                wm_ptx_schedule_name(c->schedule),
                wm_ptx_schedule_name(c->other), where,
                (unsigned long long)c->diff_elem,
                (unsigned long long)c->diff_byte);
        print_values(f, c, k);
        fputc('\n', f);
    }
    fprintf(f, "check: %llu race hazard%s, %llu uninitialized read%s",
            (unsigned long long)races, races == 1 ? "" : "s",
            (unsigned long long)uninit, uninit == 1 ? "" : "s");
    if (c->checks & WM_CHECK_SCHEDULES)
        fprintf(f, ", schedules %s and %s %s%s",
                wm_ptx_schedule_name(c->schedule),
                wm_ptx_schedule_name(c->other),
                c->differs ? "differ" : "agree",
                c->proved ? " (proved: no race and every access tracked; "
                            "the second run was left out)"
                          : "");
    fputc('\n', f);
}

static void emit_access(wmi_out *out, const char *key,
                        const wm_ptx_module *m, const wm_ptx_hazard_access *a,
                        unsigned cluster)
{
    wm_ptx_where w;
    wm_ptx_where_insn(m, a->insn, &w);
    wmi_out_obj(out, key);
    wmi_out_str(out, "access", access_word(a));
    wmi_out_uint(out, "warp", a->warp);
    wmi_out_uint(out, "lane", a->lane);
    wmi_out_uints(out, "thread", a->thread, 3);
    wmi_out_uint(out, "ptx_line", w.ptx_line);
    wmi_out_str(out, "ptx", w.text);
    wmi_out_str(out, "file", w.line ? w.file : "");
    wmi_out_uint(out, "line", w.line);
    wmi_out_uints(out, "block", a->cta, 3);
    if (cluster > 1)
        wmi_out_uint(out, "cluster_rank", a->rank);
    wmi_out_end(out);
}

static void emit_hazard(wmi_out *out, const wm_ptx_module *m,
                        const wm_ptx_hazard *h)
{
    uint64_t start = 0;
    const wmi_var *v = h->space == WM_SPACE_SHARED
                           ? shared_var(m, h, &start)
                           : NULL;
    unsigned es = h->size ? h->size : 1;
    wmi_out_obj(out, NULL);
    wmi_out_str(out, "kind", wm_hazard_name(h->kind));
    wmi_out_str(out, "space", h->space == WM_SPACE_SHARED ? "shared" : "global");
    wmi_out_uint(out, "address", h->addr);
    wmi_out_uint(out, "size", h->size);
    wmi_out_str(out, "variable", v ? var_name(v->name) : "");
    wmi_out_uint(out, "index", (h->addr - start) / es);
    wmi_out_int(out, "buffer", h->buf);
    wmi_out_uints(out, "block", h->cta, 3);
    wmi_out_uint(out, "count", h->count);
    if (h->cluster > 1 && h->space == WM_SPACE_SHARED)
        wmi_out_uint(out, "cluster_rank", h->rank); /* whose memory */
    if (h->kind == WM_HAZ_UNINIT)
        wmi_out_null(out, "first");
    else
        emit_access(out, "first", m, &h->first, h->cluster);
    emit_access(out, "second", m, &h->second, h->cluster);
    wmi_out_end(out);
}

/* A difference's bytes as "0x..." (most significant first). */
static void bytes_hex(const unsigned char *b, unsigned k, char *buf)
{
    buf += sprintf(buf, "0x");
    for (unsigned i = k; i-- > 0;)
        buf += sprintf(buf, "%02x", b[i]);
}

void wmi_check_emit(wmi_out *out, const wm_ptx_module *m,
                    const wm_ptx_check *c)
{
    if (!c || !c->checks)
        return;
    wmi_out_arr(out, "hazards");
    for (size_t i = 0; i < c->nhazards; i++)
        emit_hazard(out, m, &c->hazards[i]);
    wmi_out_end(out);
    wmi_out_uint(out, "hazards_dropped", c->dropped);
    if (!(c->checks & WM_CHECK_SCHEDULES))
        return;
    wmi_out_obj(out, "schedules");
    wmi_out_str(out, "reported", wm_ptx_schedule_name(c->schedule));
    wmi_out_str(out, "other", wm_ptx_schedule_name(c->other));
    wmi_out_bool(out, "differs", c->differs);
    if (c->differs && c->diff_arg >= 0) {
        unsigned k = elem_bytes(c);
        char hex[2][20];
        bytes_hex(c->diff_bytes[0], k, hex[0]);
        bytes_hex(c->diff_bytes[1], k, hex[1]);
        if (c->diff_in == WM_DIFF_SURFACE)
            wmi_out_int(out, "surface", c->diff_arg);
        else if (c->diff_in == WM_DIFF_GLOBAL)
            wmi_out_str(out, "variable", c->diff_name ? c->diff_name : "");
        else
            wmi_out_int(out, "argument", c->diff_arg);
        wmi_out_uint(out, "element", c->diff_elem);
        wmi_out_uint(out, "byte", c->diff_byte);
        wmi_out_arr(out, "values");
        wmi_out_str(out, NULL, hex[0]);
        wmi_out_str(out, NULL, hex[1]);
        wmi_out_end(out);
        double v[2];
        if (typed_value(c, 0, &v[0]) && typed_value(c, 1, &v[1])) {
            wmi_out_str(out, "type",
                        wm_ptx_type_name((wm_ptx_type)elem_type(c)));
            wmi_out_arr(out, "typed_values");
            wmi_out_num(out, NULL, v[0]);
            wmi_out_num(out, NULL, v[1]);
            wmi_out_end(out);
        }
    } else if (c->differs) {
        wmi_out_bool(out, "other_faulted", 1);
    }
    wmi_out_bool(out, "proved", c->proved);
    wmi_out_end(out);
}
