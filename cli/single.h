/*
 * single.h -- the one-access commands `warpmem global` and `warpmem shared`
 * share their argv parsing and printing; this is their common entry.
 */
#ifndef WM_CLI_SINGLE_H
#define WM_CLI_SINGLE_H

#include "warpmem.h"

/* Run `warpmem global|shared ...` (argv[0] is the command name). */
int cli_single_access(int argc, char **argv, wm_space space);

#endif /* WM_CLI_SINGLE_H */
