/*
 * out_writer.c -- the output layer (out_int.h) as public API: wm_writer
 * is a wmi_out behind an opaque handle, for programs on the library that
 * write documents of their own.
 */
#include "wm_int.h"

#include "out_int.h"

#include <stdlib.h>

struct wm_writer {
    wmi_out o;
};

wm_writer *wm_writer_new(FILE *f, wm_format fmt)
{
    if (!f || (fmt != WM_FMT_JSON && fmt != WM_FMT_CSV))
        return NULL;
    wm_writer *w = calloc(1, sizeof *w);
    if (w)
        wmi_out_init(&w->o, f, fmt == WM_FMT_CSV);
    return w;
}

wm_status wm_writer_free(wm_writer *w)
{
    if (!w)
        return WM_OK;
    wm_status st = wmi_out_finish(&w->o);
    free(w);
    return st;
}

void wm_writer_doc_begin(wm_writer *w, const char *command, const char *arch,
                         const char *kernel)
{
    wmi_doc_begin(&w->o, command, arch, kernel);
}

void wm_writer_doc_end(wm_writer *w) { wmi_doc_end(&w->o); }
void wm_writer_obj(wm_writer *w, const char *key) { wmi_out_obj(&w->o, key); }
void wm_writer_arr(wm_writer *w, const char *key) { wmi_out_arr(&w->o, key); }
void wm_writer_end(wm_writer *w) { wmi_out_end(&w->o); }
void wm_writer_row(wm_writer *w, const char *key) { wmi_out_row(&w->o, key); }
void wm_writer_row_end(wm_writer *w) { wmi_out_row_end(&w->o); }

void wm_writer_str(wm_writer *w, const char *key, const char *s)
{
    wmi_out_str(&w->o, key, s);
}

void wm_writer_uint(wm_writer *w, const char *key, uint64_t v)
{
    wmi_out_uint(&w->o, key, v);
}

void wm_writer_int(wm_writer *w, const char *key, int64_t v)
{
    wmi_out_int(&w->o, key, v);
}

void wm_writer_num(wm_writer *w, const char *key, double v)
{
    wmi_out_num(&w->o, key, v);
}

void wm_writer_bool(wm_writer *w, const char *key, int v)
{
    wmi_out_bool(&w->o, key, v);
}

void wm_writer_null(wm_writer *w, const char *key)
{
    wmi_out_null(&w->o, key);
}

void wm_writer_uints(wm_writer *w, const char *key, const unsigned *v,
                     size_t n)
{
    wmi_out_uints(&w->o, key, v, n);
}
