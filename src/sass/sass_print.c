/*
 * sass_print.c -- the SASS memory instructions per source line
 * (wm_sass_print; `warpmem sass`), text or JSON.
 */
#include "wm_int.h"

#include <stdio.h>

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        if ((unsigned char)*s >= 0x20)
            fputc(*s, f);
    }
    fputc('"', f);
}

static void print_json(FILE *f, const wm_sass_mem *x, int first)
{
    fputs(first ? "\n  {" : ",\n  {", f);
    fputs("\"function\": ", f);
    json_str(f, x->func);
    fputs(", \"file\": ", f);
    json_str(f, x->file);
    fprintf(f, ", \"line\": %u, \"offset\": %u, \"opcode\": ", x->line,
            x->offset);
    json_str(f, x->opcode);
    fprintf(f, ", \"space\": \"%s\", \"op\": \"%s\", \"width\": %u, "
               "\"base\": ",
            wm_sass_space_name(x->space), wm_op_name(x->op), x->width);
    json_str(f, x->base);
    fprintf(f, ", \"imm\": %lld, \"pred\": ", (long long)x->imm);
    json_str(f, x->pred);
    fputs(", \"call_file\": ", f);
    json_str(f, x->call_file);
    fprintf(f, ", \"call_line\": %u}", x->call_line);
}

/* Grouped by the kernel's line (the call site of inlined code); an
   instruction inlined from elsewhere names its own line after it. */
static void print_text(FILE *f, const wm_sass_mem *x, const wm_sass_mem *prev)
{
    if (!prev || prev->call_line != x->call_line ||
        strcmp(prev->call_file, x->call_file) || strcmp(prev->func, x->func))
        fprintf(f, "%s:%u  (%s)\n", *x->call_file ? x->call_file : "?",
                x->call_line, x->func);
    const char *base = strrchr(x->file, '/');
    char own[96] = "";
    if (x->line != x->call_line || strcmp(x->file, x->call_file))
        snprintf(own, sizeof own, "  [%s:%u]", base ? base + 1 : x->file,
                 x->line);
    fprintf(f, "  /*%04x*/ %s%s%s [%s%s0x%llx]  %s %s, %u B%s\n", x->offset,
            x->pred, *x->pred ? " " : "", x->opcode, x->base,
            x->imm < 0 ? "-" : "+",
            (unsigned long long)(x->imm < 0 ? -(uint64_t)x->imm
                                            : (uint64_t)x->imm),
            wm_sass_space_name(x->space), wm_op_name(x->op), x->width, own);
}

wm_status wm_sass_print(FILE *f, const wm_sass *s, const char *func,
                        wm_format fmt)
{
    const wm_sass_mem *prev = NULL;
    int first = 1;
    if (fmt == WM_FMT_JSON)
        fputc('[', f);
    for (size_t i = 0; i < wm_sass_count(s); i++) {
        const wm_sass_mem *x = wm_sass_at(s, i);
        if (func && strcmp(func, x->func) != 0)
            continue;
        if (fmt == WM_FMT_JSON)
            print_json(f, x, first);
        else
            print_text(f, x, prev);
        first = 0;
        prev = x;
    }
    if (fmt == WM_FMT_JSON)
        fputs(first ? "]\n" : "\n]\n", f);
    return ferror(f) ? WM_ERR_IO : WM_OK;
}
