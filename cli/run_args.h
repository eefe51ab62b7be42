/*
 * run_args.h -- `warpmem run --arg SPEC`: parsing specs (no allocation),
 * checking them against the kernel's parameters, then allocating, filling
 * (lazily for large buffers), and writing :out= files (raw or .npy).
 *
 * Spec forms (one table row each in run_args.c):
 *   TYPE=VALUE                                a scalar
 *   TYPE[N] or TYPE[N0xN1...]  then options   a buffer
 * Buffer options: :zeros :iota :rand=SEED[,LO,HI] :file=PATH :out=PATH
 * :partial=PATH :in-out :uninit.  The by-value forms ({FIELD, ...}, bytes:hex=.., bytes:file=..)
 * are parsed by run_value.c; here they are only checked and passed on.
 */
#ifndef WM_CLI_RUN_ARGS_H
#define WM_CLI_RUN_ARGS_H

#include "cli.h"
#include "out_stage.h"

#define RUN_MAX_DIMS 4
#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* RUN_ARG_VALUE: a by-value form ('{fields}', bytes:...) parsed by
   run_value.c, which owns its bytes and buffers. */
/* RUN_ARG_TEX: a texture or surface object (run_tex.c): a buffer of
   texels whose handle is the launch argument. */
typedef enum {
    RUN_ARG_SCALAR, RUN_ARG_BUFFER, RUN_ARG_VALUE, RUN_ARG_TEX
} run_arg_form;

typedef struct run_arg {
    const char *text; /* the spec as given (borrowed from argv) */
    run_arg_form form;
    wm_ptx_type type;
    /* scalar */
    uint64_t scalar;
    /* buffer */
    uint64_t count;              /* elements */
    uint64_t dims[RUN_MAX_DIMS]; /* shape as given (N0xN1...) */
    unsigned ndims;
    char init[80];  /* zeros | iota | rand=... */
    char *file;     /* :file=PATH (owned) */
    char *out;      /* :out=PATH (owned) */
    char *partial;  /* :partial=PATH (owned): written after a fault */
    int inout;      /* :in-out */
    int uninit;     /* :uninit (for --check init) */
    int nomem;      /* run_arg_parse failed for want of memory */
    /* after run_arg_alloc */
    void *buf;
    size_t bytes;   /* count * element size */
    size_t mapped;  /* bytes of the mapping (0: malloc'd) */
    void *input;    /* :in-out: the input as filled (owned) */
    /* by-value form: the launch argument run_value.c made */
    wm_ptx_arg value;
    /* texture form: the object (data filled in by run_tex_collect) and
       its index among the launch's textures */
    wm_ptx_texture tex;
    size_t tex_index;
} run_arg;

/* Parse spec into a (file/out paths are copied).  1, or 0 after printing
   a usage error (or "out of memory", with a->nomem set).  Allocates no
   buffer. */
int run_arg_parse(const char *spec, run_arg *a);

/* Check a (given as --arg number i, 1-based in messages as the user
   counts) against parameter p; 1 or 0 after printing a usage error.
   Textures and surfaces are run_tex_check's. */
int run_arg_check(const run_arg *a, size_t i, const wm_ptx_param_info *p);

/* Check a :file= against the spec (size; .npy dtype and shape) without
   reading the data.  1, or 0 after printing an error. */
int run_arg_check_file(const run_arg *a);

/* What a buffer's :file= must match (--arg, a struct field, --global):
   opt and text name it in messages ("OPT 'TEXT': ..."). */
typedef struct run_file_spec {
    const char *opt;       /* "--arg", "--global", ... */
    const char *text;      /* the spec as given */
    wm_ptx_type type;
    uint64_t count;        /* elements */
    const uint64_t *dims;  /* the shape as given, or NULL (ndims 0) */
    unsigned ndims;        /* > 1: a .npy must have this shape */
    size_t bytes;          /* count * element size */
} run_file_spec;

/* Read path into buf[0..s->bytes): raw bytes, exactly that many, or (by
   the .npy extension) a NumPy array whose dtype is s->type's and whose
   shape holds s->count elements (s->dims when s->ndims > 1), C order.
   1, or 0 after printing an error. */
int run_file_read(const run_file_spec *s, const char *path, void *buf);

/* Allocate and fill a buffer argument (no-op for scalars).  Buffers of a
   megabyte or more are filled lazily when lazy is set (RUN_LAZY_CAPPED:
   by run_fill_lazy's estimate, which run_lazy_map's cap bounds).  1, or
   0 after printing an error. */
enum { RUN_LAZY_CAPPED = 2 };
int run_arg_alloc(run_arg *a, int lazy);

/* The launch argument of a. */
wm_ptx_arg run_arg_launch(const run_arg *a);

/* Register a's output files (:out=, its NAME.in.EXT with :in-out, and
   :partial=) with st; 1, or 0 after printing an error. */
int run_arg_outputs(const run_arg *a, cli_stage *st);

/* Write :out= (raw, or .npy by extension; with :in-out also the input
   next to it as NAME.in.EXT), or with partial set the :partial= file,
   into st's temporaries.  1, or 0 after printing an error. */
int run_arg_write(const run_arg *a, cli_stage *st, int partial);

void run_arg_free(run_arg *a);

/* Texture and surface objects (run_tex.c): is spec one (tex2d:...)?
   Parse it as texture `index` of the launch; check it against parameter
   p (as run_arg_check); gather the launch's textures into out (indexed
   by tex_index), returning how many. */
int run_tex_is(const char *spec);
int run_tex_parse(const char *spec, run_arg *a, size_t index);
int run_tex_check(const run_arg *a, size_t i, const wm_ptx_param_info *p);
size_t run_tex_collect(const run_arg *args, size_t n, wm_ptx_texture *out);

/* --fill (run_fill.c): which fill a buffer of bytes bytes gets.  fill is
   RUN_FILL_LAZY or _EAGER as given, AUTO without --fill; copies: every
   buffer is copied (the schedule comparison), so none is lazy.  Under
   AUTO a buffer is filled lazily when the launch is estimated to touch
   under RUN_LAZY_SHARE of its pages (never for the whole grid).  1 lazy,
   0 eager. */
enum { RUN_FILL_EAGER = 0, RUN_FILL_LAZY = 1, RUN_FILL_AUTO = 2 };
#define RUN_LAZY_SHARE 0.125
/* What the launch runs: its CTAs (--ctas), grid, and whether a sample is
   of whole waves (--cache). */
typedef struct run_fill_launch {
    wm_ptx_ctas ctas;
    uint64_t ctas_n;
    unsigned grid[3];
    int waves;
} run_fill_launch;
int run_fill_lazy(int fill, int copies, const run_fill_launch *fl,
                  size_t bytes);

/* Lazy filling (run_lazy.c): map bytes + slack of inaccessible memory
   whose pages are filled by init when first touched; capped: once
   RUN_LAZY_SHARE of its pages were, the rest is filled at once.  NULL if
   it cannot (the caller then fills eagerly). */
void *run_lazy_map(size_t bytes, size_t *mapped, wm_ptx_type t,
                   const char *init, int capped);
/* Fill every page not yet touched (before writing the buffer out). */
void run_lazy_touch_all(void *p);
void run_lazy_unmap(void *p, size_t mapped);
/* Pages filled so far, of all lazy buffers. */
uint64_t run_lazy_pages_filled(void);

#endif /* WM_CLI_RUN_ARGS_H */
