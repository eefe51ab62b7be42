/*
 * sass_tool.h -- the SASS level of the CLI (sass_tool.c runs ptxas and
 * nvdisasm and caches their output; sass_level.c picks the level of a
 * run or lint and makes the plan).
 */
#ifndef WM_SASS_TOOL_H
#define WM_SASS_TOOL_H

#include "cli.h"

#include <stddef.h>

typedef struct cli_sass_tools {
    char ptxas[1024];
    char nvdisasm[1024];
} cli_sass_tools;

/* Tool `name` (env: the variable naming it explicitly) into out; 0 with
   the reason in why when not found. */
int cli_sass_find_tool(const char *name, const char *env, char *out,
                       size_t n, char *why, size_t nwhy);
/* Both tools; 0 with the reason in why. */
int cli_sass_tools_find(cli_sass_tools *t, char *why, size_t nwhy);

/* The ptxas -arch for profile sm_<sm> and the module's .target (sm_90a
   stays sm_90a). */
void cli_sass_arch(const wm_ptx_module *m, unsigned sm, char *out, size_t n);

/* The disassembly of ptx[0..n) compiled for arch (cached); caller frees.
   NULL with the reason in why. */
char *cli_sass_text(const cli_sass_tools *t, const char *ptx, size_t n,
                    const char *arch, size_t *len, char *why, size_t nwhy);

/* The level of the numbers: --level, else WARPMEM_LEVEL, else auto. */
enum { CLI_LEVEL_AUTO, CLI_LEVEL_SASS, CLI_LEVEL_PTX };
/* "auto" "sass" "ptx" -> *level; 0 after a usage error naming flag. */
int cli_sass_parse_level(const char *flag, const char *v, int *level);

typedef struct cli_sass {
    wm_sass *sass;      /* NULL at PTX level */
    wm_sass_plan *plan; /* kernel k's plan, NULL at PTX level */
    char arch[16];      /* the -arch given to ptxas */
    char why[512];      /* PTX level: why (no tools, ptxas failed ...) */
} cli_sass;

/*
 * The SASS of module m (source src[0..n)) for profile sm at `level`, and
 * kernel k's plan (k SIZE_MAX: none).  Returns 1 at SASS level, 0 at
 * PTX level (c->why says why; auto), -1 after printing an error (sass
 * asked for and not available, or the disassembly did not parse).
 */
int cli_sass_setup(cli_sass *c, int level, const wm_ptx_module *m, size_t k,
                   const char *src, size_t n, unsigned sm);
void cli_sass_free(cli_sass *c);

/* A run: cli_sass_setup for kernel k, the plan set on agg (SASS level).
   1 SASS, 0 PTX level, -1 after an error. */
int cli_run_sass_begin(cli_sass *c, int level, const wm_ptx_module *m,
                       size_t k, const char *src, size_t n, unsigned sm,
                       wm_agg *agg);
/* After the run at SASS level: *agg replaced by its SASS view (which
   keeps the PTX-level sites).  0 when memory ran out. */
int cli_run_sass_end(cli_sass *c, wm_agg **agg);

#endif /* WM_SASS_TOOL_H */
