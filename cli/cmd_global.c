/*
 * cmd_global.c -- `warpmem global`: one warp access to global (or, with
 * --local, local) memory.  All work is in single.c.
 */
#include "cli.h"
#include "single.h"

int wm_cmd_global(int argc, char **argv)
{
    return cli_single_access(argc, argv, WM_SPACE_GLOBAL);
}
