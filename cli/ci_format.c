/*
 * ci_format.c -- `--format sarif` (lint, run) and `--format junit` (lint):
 * the formats for CI tools, which the library writes (wm_lint_sarif,
 * wm_lint_junit, wm_check_sarif); the other --format values are
 * cli_output_opt's.
 */
#include "cli.h"

#include <string.h>

int cli_ci_format_opt(int argc, char **argv, int *i, int junit_ok, int *ci)
{
    int j = *i;
    const char *v;
    if (cli_opt(argc, argv, &j, "--format", NULL, &v) != 1)
        return 0; /* not --format, or no value: cli_output_opt says so */
    if (strcmp(v, "sarif") == 0) {
        *ci = CLI_CI_SARIF;
    } else if (strcmp(v, "junit") == 0 && junit_ok) {
        *ci = CLI_CI_JUNIT;
    } else {
        return 0;
    }
    *i = j;
    return 1;
}
