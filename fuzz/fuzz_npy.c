/*
 * fuzz_npy.c -- libFuzzer harness: the .npy reader and writer.  Each
 * input is a .npy file.  npy_parse reads its header; a header it accepts
 * must describe the input consistently, and when it is one the CLI could
 * write (an --arg type, at most 4 dimensions), npy_format must write a header that parses back to the same
 * dtype and shape.  Then the file goes through the CLI's path: it is
 * written to a private directory and read by `--arg TYPE[SHAPE]:file=`
 * (the spec made from the header, or f32[4] when there is none) with
 * `:out=` to a second .npy; when the buffer is filled, the written file
 * must hold the input's data after a header of its own.
 */
#define _POSIX_C_SOURCE 200809L
#include "npy.h"
#include "out_stage.h"
#include "run_args.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64], in_path[96], out_path[96];

static void make_dir(void)
{
    if (dir[0])
        return;
    const char *tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(dir, sizeof dir, "%s/wm-fuzz-npy-XXXXXX", tmp);
    if (!mkdtemp(dir))
        abort();
    snprintf(in_path, sizeof in_path, "%s/in.npy", dir);
    snprintf(out_path, sizeof out_path, "%s/out.npy", dir);
}

static int type_of(const char *descr, wm_ptx_type *t)
{
    for (int k = 0; k < WM_PTX_NTYPES; k++) {
        const char *d = npy_descr((wm_ptx_type)k);
        if (d && strcmp(d, descr) == 0) {
            *t = (wm_ptx_type)k;
            return 1;
        }
    }
    return 0;
}

/* The header of a parsed file, rewritten, parses back to itself. */
static void check_round_trip(const npy_header *h)
{
    char buf[256];
    size_t n = npy_format(buf, sizeof buf, h->descr, h->dims, h->ndims);
    if (!n)
        abort();
    npy_header b;
    if (npy_parse(buf, n, &b) || b.data_off != n || n % 64 != 0 ||
        strcmp(b.descr, h->descr) != 0 || b.ndims != h->ndims ||
        b.count != h->count || b.fortran_order ||
        memcmp(b.dims, h->dims, h->ndims * sizeof h->dims[0]) != 0)
        abort();
}

/* The spec the CLI reads the file with: TYPE[D0xD1...] of a header it
   could hold (at most 4 dimensions, none 0, at most 1 MiB), else f32[4]. */
static void make_spec(const npy_header *h, int parsed, char *spec, size_t cap)
{
    wm_ptx_type t;
    int fits = parsed && type_of(h->descr, &t) && h->ndims <= RUN_MAX_DIMS &&
               h->count >= 1 && h->count <= (1u << 20) / 8;
    size_t o = (size_t)snprintf(spec, cap, "%s[",
                                fits ? wm_ptx_type_name(t) : "f32");
    if (!fits || h->ndims == 0) {
        o += (size_t)snprintf(spec + o, cap - o, "%s", fits ? "1" : "4");
    } else {
        for (unsigned k = 0; k < h->ndims; k++)
            o += (size_t)snprintf(spec + o, cap - o, "%s%llu", k ? "x" : "",
                                  (unsigned long long)h->dims[k]);
    }
    snprintf(spec + o, cap - o, "]:file=%s:out=%s", in_path, out_path);
}

static int write_file(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    int ok = fwrite(p, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

/* The :out= file holds the input's data after a header of its own. */
static void check_written(const uint8_t *data, size_t size,
                          const npy_header *h)
{
    size_t n = 0;
    char *w = wm_read_file(out_path, &n);
    if (!w)
        abort();
    npy_header o;
    if (npy_parse(w, n, &o) || strcmp(o.descr, h->descr) != 0 ||
        o.count != h->count || n - o.data_off != size - h->data_off ||
        memcmp(w + o.data_off, data + h->data_off, n - o.data_off) != 0)
        abort();
    free(w);
}

static void through_cli(const uint8_t *data, size_t size, const npy_header *h,
                        int parsed)
{
    char spec[256];
    make_spec(h, parsed, spec, sizeof spec);
    if (!write_file(in_path, data, size))
        abort();
    unlink(out_path);
    run_arg a;
    memset(&a, 0, sizeof a);
    if (!run_arg_parse(spec, &a))
        abort(); /* the spec is well formed */
    int ok = run_arg_check_file(&a);
    int filled = run_arg_alloc(&a, 1);
    if (filled != ok)
        abort(); /* the check and the read must agree */
    if (filled) {
        cli_stage st; /* the :out= file, staged and committed as run does */
        cli_stage_init(&st);
        if (!run_arg_write(&a, &st, 0) || cli_stage_commit(&st) != WM_EXIT_OK)
            abort();
        cli_stage_free(&st);
        check_written(data, size, h);
    }
    run_arg_free(&a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20) + NPY_MAX_HEADER)
        return 0;
    make_dir();
    clearerr(stderr);
    npy_header h;
    int parsed = npy_parse(data, size, &h) == NULL;
    if (parsed) {
        uint64_t c = 1;
        for (unsigned k = 0; k < h.ndims; k++)
            c *= h.dims[k];
        if (h.data_off > size || h.ndims > NPY_MAX_DIMS || c != h.count)
            abort();
        wm_ptx_type t;
        if (h.ndims <= RUN_MAX_DIMS && type_of(h.descr, &t))
            check_round_trip(&h);
    }
    through_cli(data, size, &h, parsed);
    return 0;
}
