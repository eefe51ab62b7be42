/*
 * out_stage.h -- the output files of one command, written so that none
 * is lost: every path is checked against the command's inputs and the
 * other outputs (by device and inode, after resolving links, not by
 * spelling), each file is written to a temporary file beside it, and the
 * temporaries are renamed into place only when the command and every
 * other output succeeded (otherwise they are removed and the old files
 * stay as they were).  A device or FIFO, and an existing writable file
 * in a directory that cannot take a temporary, are written at commit by
 * copying (not atomic, but still only when everything succeeded).
 */
#ifndef WM_CLI_OUT_STAGE_H
#define WM_CLI_OUT_STAGE_H

#include "cli.h"

#define CLI_MAX_STAGED 160

typedef struct cli_staged {
    char *dst;        /* the path asked for (owned) */
    char *tmp;        /* its temporary, once opened (owned) */
    const char *flag; /* the option that named it, for messages */
    int copy;         /* copied into dst at commit (not renamed) */
} cli_staged;

typedef struct cli_stage {
    cli_staged v[CLI_MAX_STAGED];
    size_t n;
} cli_stage;

void cli_stage_init(cli_stage *s);

/* Register an output path named by flag (e.g. "--html", ":out=").
   1, or 0 after printing an error (too many, out of memory). */
int cli_stage_add(cli_stage *s, const char *path, const char *flag);

/*
 * Refuse an output that names one of the inputs in[0..nin) (the same
 * file, however spelled) or another output: WM_EXIT_INPUT after naming
 * both (through cli_error), else WM_EXIT_OK.  Outputs that do not exist
 * yet are compared by their directory's device and inode and their name.
 */
int cli_stage_check(const cli_stage *s, const char *const *in, size_t nin);

/* A new temporary file beside the registered output dst (created if it
   was not registered), opened for writing; NULL with errno set. */
FILE *cli_stage_open(cli_stage *s, const char *dst);

/* Rename every temporary into place.  WM_EXIT_OK, or WM_EXIT_INPUT after
   printing which rename failed (the rest are still tried). */
int cli_stage_commit(cli_stage *s);

/* Remove every temporary (nothing is put in place); how many there
   were. */
size_t cli_stage_discard(cli_stage *s);

void cli_stage_free(cli_stage *s);

/* cli_ptx_html into a temporary of st (html_out.c). */
wm_status cli_ptx_html_staged(cli_stage *st, const char *path,
                              const wm_ptx_module *m, const wm_agg *agg,
                              const wm_ptx_report_opts *ro);

#endif /* WM_CLI_OUT_STAGE_H */
