/*
 * run_value.h -- the by-value and module-variable forms of `warpmem run`:
 * --arg '{FIELD, ...}' (a struct of typed fields, pointer fields backed by
 * extra buffers), --arg bytes:hex=.. / bytes:file=.. (raw parameter
 * bytes), and --global NAME=TYPE[N][:init][:out=PATH] (cudaMemcpyToSymbol
 * and back).  Everything here is owned by one run_values.
 */
#ifndef WM_RUN_VALUE_H
#define WM_RUN_VALUE_H

#include "warpmem.h"
#include "out_stage.h"

#include <stdio.h>

#define RV_MAX 32

typedef struct rv_fix {
    uint8_t *val;   /* struct bytes ... */
    size_t off;     /* ... whose 8 bytes at off ... */
    size_t extra;   /* ... hold the address of this extra buffer */
} rv_fix;

typedef struct run_values {
    wm_ptx_arg extra[RV_MAX];
    char *extra_out[RV_MAX]; /* write-back paths (or NULL) */
    size_t nextra;
    rv_fix fix[RV_MAX];
    size_t nfix;
    uint8_t *vals[RV_MAX]; /* by-value bytes (freed with the set) */
    size_t nvals;
    wm_ptx_global globals[RV_MAX];
    char *gout[RV_MAX];
    size_t nglobals;
    char *inputs[RV_MAX]; /* file= / bytes:file= paths read */
    size_t ninputs;
    int bad_file; /* a :file= could not be read or did not match */
    int nomem;    /* a buffer or a name could not be allocated */
} run_values;

/* Is spec a by-value form ('{...}', bytes:... or tmap:...)? */
int rv_is_value(const char *spec);

/* Parse a by-value --arg ('{...}' or bytes:..., not tmap:..., which is
   rv_tmap_arg's) into *a (value and size set); 1, or 0 after printing an
   error. */
int rv_value_arg(const char *spec, wm_ptx_arg *a, run_values *rv);

/* A buffer TYPE[N][:init][:file=PATH][:out=PATH] (text of n bytes):
   allocates *buf (bytes in *bytes), the out path in *out, a :file= path
   noted in rv's inputs; 1 or 0 (error shown, after ctx: the argument as
   the user gave it, "--global 'x=f32[0]'"). */
int rv_buffer(const char *ctx, const char *s, size_t n, void **buf,
              size_t *bytes, char **out,
              run_values *rv);

/* Parse --arg tmap:... (run_tmap.c): the 128 map bytes in *a, the
   tensor's data an extra buffer whose address the map holds. */
int rv_tmap_arg(const char *spec, wm_ptx_arg *a, run_values *rv);

/* Parse --global NAME=TYPE[N][:init][:out=PATH]; 1 or 0 (error shown). */
int rv_global(const char *spec, run_values *rv);

/* Write the extra buffers' addresses into their struct fields, once the
   number of --arg is known. */
void rv_finish(run_values *rv, size_t nargs);

/* Register the :out= files with st; 1, or 0 after printing an error. */
int rv_outputs(const run_values *rv, cli_stage *st);

/* After a successful run: write the :out= files into st's temporaries.
   1, or 0 on an error. */
int rv_write(const run_values *rv, cli_stage *st);

void rv_free(run_values *rv);

#endif /* WM_RUN_VALUE_H */
