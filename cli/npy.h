/*
 * npy.h -- the .npy file format (NumPy format 1.0, 2.0 and 3.0) for
 * `run --arg ...:file=X.npy` and `:out=X.npy`.
 *
 * A file is the magic "\x93NUMPY", a major and a minor version byte, the
 * header length (2 bytes little-endian in 1.0, 4 in 2.0 and 3.0), the
 * header -- a Python dict literal {'descr': '<f4', 'fortran_order': False,
 * 'shape': (2, 3), } padded with spaces and a newline -- then the data.
 * The reader accepts exactly that dict: the three keys once each, in any
 * order, quoted with ' or ", a trailing comma or none; a descr that is a
 * plain string (structured dtypes are refused); a shape that is a tuple of
 * decimal integers.  It reads no data and allocates nothing.
 */
#ifndef WM_CLI_NPY_H
#define WM_CLI_NPY_H

#include "warpmem.h"

#include <stddef.h>
#include <stdint.h>

#define NPY_MAX_DIMS 32      /* NumPy's own limit (NPY_MAXDIMS) */
#define NPY_MAX_HEADER 65536 /* longest header read (NumPy writes < 4 KiB) */

typedef struct npy_header {
    unsigned major;     /* 1, 2 or 3 */
    char descr[16];     /* the dtype string, e.g. "<f4" */
    int fortran_order;  /* 1: column-major */
    uint64_t dims[NPY_MAX_DIMS];
    unsigned ndims;     /* 0: a scalar array, shape () */
    uint64_t count;     /* product of dims (1 for shape ()) */
    size_t data_off;    /* where the data starts */
} npy_header;

/*
 * Parse the header of the .npy file whose first n bytes are data (the
 * whole file or a prefix holding the header).  NULL on success, else a
 * message ("not a .npy file (no \x93NUMPY magic)", "truncated header",
 * "header: ...") for the caller to prefix with the file's name.
 */
const char *npy_parse(const void *data, size_t n, npy_header *h);

/* The .npy dtype of an --arg type ("|i1", "<f4", ...), or NULL (bf16). */
const char *npy_descr(wm_ptx_type t);

/*
 * Format a version 1.0 preamble and header for descr and shape dims[0..nd)
 * into buf[cap]: magic, version, length, the dict, padding to a multiple
 * of 64 bytes and a newline.  Returns its length, or 0 if it does not fit
 * (cap of 256 holds any header of 4 dimensions).
 */
size_t npy_format(char *buf, size_t cap, const char *descr,
                  const uint64_t *dims, unsigned nd);

#endif /* WM_CLI_NPY_H */
