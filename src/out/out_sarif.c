/*
 * out_sarif.c -- findings as a SARIF 2.1.0 log (OASIS Static Analysis
 * Results Interchange Format), the document code-scanning services read:
 * one run, the tool's driver with every rule warpmem can report, and a
 * result per finding at the kernel's source line and column (the .loc of
 * the instruction), the PTX line as a related location.  Written with the
 * output layer's JSON writer (out_int.h).  docs/output.md describes it.
 */
#define _POSIX_C_SOURCE 200809L /* access */
#include "out_int.h"
#include "ptx_int.h"
#include "out_ci.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SARIF_SCHEMA                                                          \
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/"   \
    "sarif-schema-2.1.0.json"

/* The rules, in ruleIndex order (wmi_ci_rule). */
static const struct {
    const char *id, *name, *text;
} rules[WMI_RULE_COUNT] = {
    {"WM1001", "excess-sectors",
     "A global or local memory instruction moves more 32-byte sectors per "
     "request than the ideal for its bytes"},
    {"WM1002", "bank-conflicts",
     "A shared memory instruction needs more wavefronts per request than "
     "the ideal for its bytes (bank conflicts)"},
    {"WM2001", "read-after-write",
     "A read of bytes another thread wrote with no barrier between"},
    {"WM2002", "write-after-read",
     "A write of bytes another thread read with no barrier between"},
    {"WM2003", "write-after-write",
     "Two threads wrote the same bytes with no barrier between"},
    {"WM2004", "uninitialized-read", "A read of bytes nothing wrote"},
    {"WM2005", "schedule-difference",
     "The outputs differ between two orders of the ready warps"},
    {"WM2006", "fault",
     "The interpreted kernel faulted, ran out of steps or met an "
     "unsupported instruction"},
};

const char *wmi_ci_rule_id(wmi_ci_rule r)
{
    return (unsigned)r < WMI_RULE_COUNT ? rules[r].id : "?";
}

const char *wmi_ci_rule_name(wmi_ci_rule r)
{
    return (unsigned)r < WMI_RULE_COUNT ? rules[r].name : "?";
}

/* ---- paths ------------------------------------------------------------- */

/* "a/b/../c/./d" -> "a/c/d" in place (leading ".." kept). */
static void normalise(char *p)
{
    char copy[2048];
    const char *segs[256];
    size_t lens[256], n = 0;
    int abs = p[0] == '/';
    snprintf(copy, sizeof copy, "%s", p);
    for (char *s = copy; *s && n < 256;) {
        size_t k = strcspn(s, "/");
        int dot = k == 1 && s[0] == '.';
        int up = k == 2 && s[0] == '.' && s[1] == '.';
        if (up && n && !(lens[n - 1] == 2 && memcmp(segs[n - 1], "..", 2) == 0))
            n--;
        else if (k && !dot) {
            segs[n] = s;
            lens[n++] = k;
        }
        s += k;
        while (*s == '/')
            s++;
    }
    char *o = p;
    if (abs)
        *o++ = '/';
    for (size_t i = 0; i < n; i++) {
        memcpy(o, segs[i], lens[i]);
        o += lens[i];
        if (i + 1 < n)
            *o++ = '/';
    }
    *o = '\0';
}

/* The directory part of path ("" when it has none) into buf. */
static void dir_of(const char *path, char *buf, size_t n)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    size_t k = slash ? (size_t)(slash - path) : 0;
    if (k >= n)
        k = n - 1;
    memcpy(buf, path ? path : "", k);
    buf[k] = '\0';
}

void wmi_ci_source_path(const char *file, const char *ptx_path, char *buf,
                        size_t n)
{
    char dir[1024], cand[3][2048];
    dir_of(ptx_path, dir, sizeof dir);
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    char parent[1024];
    dir_of(dir, parent, sizeof parent);
    /* as written, beside the PTX, the base name in the PTX's parent
       directory (the order the report's source reader tries) */
    snprintf(cand[0], sizeof cand[0], "%s", file);
    snprintf(cand[1], sizeof cand[1], "%s%s%s", dir, *dir ? "/" : "", file);
    snprintf(cand[2], sizeof cand[2], "%s%s%s", *dir ? parent : "..",
             *dir && !*parent ? "" : "/", base);
    int pick = 0;
    if (file[0] != '/' && ptx_path)
        for (int i = 0; i < 3; i++)
            if (access(cand[i], R_OK) == 0) {
                pick = i;
                break;
            }
    snprintf(buf, n, "%s", cand[pick]);
    normalise(buf);
}

void wmi_ci_uri(const char *path, char *buf, size_t n)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t o = 0;
    if (path[0] == '/' && n > 8) {
        memcpy(buf, "file://", 7);
        o = 7;
    }
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        int plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                    (*p >= '0' && *p <= '9') || strchr("/-._~", *p);
        if (o + (plain ? 1 : 3) >= n)
            break;
        if (plain) {
            buf[o++] = (char)*p;
        } else {
            buf[o++] = '%';
            buf[o++] = hex[*p >> 4];
            buf[o++] = hex[*p & 15];
        }
    }
    buf[o] = '\0';
}

int wmi_ci_where(const wm_ptx_module *m, size_t insn, const char *ptx_path,
                 wmi_ci_loc *out)
{
    memset(out, 0, sizeof *out);
    wm_ptx_where w;
    if (!wm_ptx_where_insn(m, insn, &w))
        return 0;
    out->ptx_line = w.ptx_line;
    out->text = w.text;
    /* a source file that is not there (another machine's path) is no
       place to show a result: the PTX line stands in */
    if (w.line) {
        wmi_ci_source_path(w.file, ptx_path, out->path, sizeof out->path);
        if (access(out->path, R_OK) != 0) {
            out->path[0] = '\0';
            return 1;
        }
        out->line = w.line;
        const wmi_loc *l = &m->locs[m->code[insn].loc];
        /* the column is the .loc's when the line is that .loc's own */
        out->col = l->line == w.line && l->col ? l->col : 1;
    }
    return 1;
}

/* ---- the log ------------------------------------------------------------ */

static void emit_region_loc(wmi_out *o, const char *key_or_null,
                            const char *path, uint32_t line, uint32_t col)
{
    char uri[4096];
    wmi_ci_uri(path, uri, sizeof uri);
    wmi_out_obj(o, key_or_null);
    wmi_out_obj(o, "physicalLocation");
    wmi_out_obj(o, "artifactLocation");
    wmi_out_str(o, "uri", uri);
    wmi_out_end(o);
    wmi_out_obj(o, "region");
    wmi_out_uint(o, "startLine", line ? line : 1);
    wmi_out_uint(o, "startColumn", col ? col : 1);
    wmi_out_end(o);
    wmi_out_end(o);
}

void wmi_sarif_location(wmi_out *o, const wmi_ci_loc *l, const char *ptx_path)
{
    if (l->line)
        emit_region_loc(o, NULL, l->path, l->line, l->col);
    else
        emit_region_loc(o, NULL, ptx_path ? ptx_path : "kernel.ptx",
                        l->ptx_line, 1);
    wmi_out_end(o);
}

void wmi_sarif_related(wmi_out *o, unsigned id, const wmi_ci_loc *l,
                       const char *ptx_path, const char *what)
{
    char msg[512];
    const char *ptx = ptx_path ? ptx_path : "kernel.ptx";
    if (l->line) {
        emit_region_loc(o, NULL, l->path, l->line, l->col);
        snprintf(msg, sizeof msg, "%s: %s (PTX line %u)", what, l->text,
                 l->ptx_line);
    } else {
        emit_region_loc(o, NULL, ptx, l->ptx_line, 1);
        snprintf(msg, sizeof msg, "%s: %s", what, l->text);
    }
    wmi_out_uint(o, "id", id);
    wmi_out_obj(o, "message");
    wmi_out_str(o, "text", msg);
    wmi_out_end(o);
    wmi_out_end(o);
}

void wmi_sarif_begin(wmi_out *o, FILE *f, const wm_ci_opts *ci)
{
    wmi_out_init(o, f, 0);
    o->lines = 1;
    wmi_out_obj(o, NULL);
    wmi_out_str(o, "$schema", SARIF_SCHEMA);
    wmi_out_str(o, "version", "2.1.0");
    wmi_out_arr(o, "runs");
    wmi_out_obj(o, NULL);
    wmi_out_obj(o, "tool");
    wmi_out_obj(o, "driver");
    wmi_out_str(o, "name", "warpmem");
    wmi_out_str(o, "semanticVersion", wm_version());
    wmi_out_arr(o, "rules");
    for (size_t r = 0; r < WMI_RULE_COUNT; r++) {
        wmi_out_obj(o, NULL);
        wmi_out_str(o, "id", rules[r].id);
        wmi_out_str(o, "name", rules[r].name);
        wmi_out_obj(o, "shortDescription");
        wmi_out_str(o, "text", rules[r].text);
        wmi_out_end(o);
        wmi_out_end(o);
    }
    wmi_out_end(o); /* rules */
    wmi_out_end(o); /* driver */
    wmi_out_end(o); /* tool */
    wmi_out_arr(o, "invocations");
    wmi_out_obj(o, NULL);
    wmi_out_bool(o, "executionSuccessful", 1);
    if (ci && ci->command)
        wmi_out_str(o, "commandLine", ci->command);
    wmi_out_end(o);
    wmi_out_end(o);
    wmi_out_obj(o, "properties");
    wmi_out_str(o, "schema", WMI_SCHEMA);
    wmi_out_str(o, "arch", ci && ci->arch ? ci->arch : "");
    wmi_out_end(o);
    wmi_out_arr(o, "results");
}

void wmi_sarif_result(wmi_out *o, wmi_ci_rule rule, const char *level,
                      const char *text)
{
    wmi_out_obj(o, NULL);
    wmi_out_str(o, "ruleId", rules[rule].id);
    wmi_out_uint(o, "ruleIndex", (uint64_t)rule);
    wmi_out_str(o, "level", level);
    wmi_out_obj(o, "message");
    wmi_out_str(o, "text", text);
    wmi_out_end(o);
}

wm_status wmi_sarif_end(wmi_out *o)
{
    wmi_out_end(o); /* results */
    wmi_out_end(o); /* the run */
    wmi_out_end(o); /* runs */
    wmi_out_end(o); /* the log */
    fputc('\n', o->f);
    return wmi_out_finish(o);
}
