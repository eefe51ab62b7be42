/*
 * cmd_arch.c -- `warpmem arch`: list the architecture profiles.
 */
#include "cli.h"

#include <string.h>

int wm_cmd_arch(int argc, char **argv)
{
    if (argc > 1 && cli_is_help(argv[1])) {
        cli_help_command(stdout, "arch");
        return WM_EXIT_OK;
    }
    if (argc > 1)
        return cli_usage_error("arch: unexpected argument '%s'", argv[1]);
    printf("%-12s %4s %5s %7s %5s %6s %10s %s\n", "profile", "sm", "warp",
           "sector", "line", "banks", "bank-bytes", "uniform-pair");
    for (size_t i = 0; i < wm_arch_count(); i++) {
        const wm_arch *a = wm_arch_at(i);
        printf("%-12s %4u %5u %7u %5u %6u %10u %s%s\n", a->name, a->sm,
               a->warp_size, a->sector_bytes, a->line_bytes, a->banks,
               a->bank_bytes, a->uniform_pair ? "yes" : "no",
               a == wm_arch_default() ? "   (default)" : "");
    }
    return WM_EXIT_OK;
}
