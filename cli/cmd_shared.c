/*
 * cmd_shared.c -- `warpmem shared`: one warp access to shared memory.  All
 * work is in single.c.
 */
#include "cli.h"
#include "single.h"

int wm_cmd_shared(int argc, char **argv)
{
    return cli_single_access(argc, argv, WM_SPACE_SHARED);
}
