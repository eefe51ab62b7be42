/*
 * fuzz_cli.h -- shared by the CLI harnesses: run one warpmem subcommand
 * in-process on an argv built from fuzz input.  Arguments that would
 * write files (--html, :out=, :partial=), compile .cu (nvcc), read
 * stdin, lift the step budgets or
 * ask for a buffer of more than 2^24 elements are dropped, so a campaign
 * only reads files and never runs for long.
 */
#ifndef WM_FUZZ_CLI_H
#define WM_FUZZ_CLI_H

#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_MAX_ARGS 32

/*
 * A buffer spec "TYPE[N]..." with N past 2^24: the CLI allocates it with
 * calloc, which the OS gives lazily, but ASan's calloc also maps and
 * clears shadow memory for it (an f16[9102091020] buffer is 2 GiB of
 * shadow), so a campaign would report its own out-of-memory.  A struct
 * field's buffer is filled eagerly, so a 4 GiB field filled by rand=
 * would run for minutes; so is a tensor map's data, whose size is the
 * product of its dimensions.
 */
static int fuzz_arg_huge(const char *a)
{
    /* every bracket: a by-value struct has one per field; a tensor map's
       data is filled eagerly too and counts its dimensions' product
       ("tmap:f16[624x2112112]" is 1.3 G elements) */
    for (const char *br = strchr(a, '['); br; br = strchr(br + 1, '[')) {
        unsigned long long total = 1;
        const char *q = br;
        do {
            char *end;
            unsigned long long d = strtoull(q + 1, &end, 10);
            if (d > (1ull << 24) || (d && total > (1ull << 24) / d))
                return 1;
            total *= d ? d : 1;
            q = end;
        } while (*q == 'x');
    }
    return 0;
}

static int fuzz_arg_unsafe(const char *a)
{
    size_t n = strlen(a);
    return fuzz_arg_huge(a) || strstr(a, "html") || strstr(a, "out=") ||
           strstr(a, "partial=") ||
           strcmp(a, "-") == 0 ||
           strncmp(a, "--max", 5) == 0 || strcmp(a, "-j") == 0 ||
           strncmp(a, "--jobs", 6) == 0 ||
           (n >= 3 && strcmp(a + n - 3, ".cu") == 0);
}

/* The commands' output: run.sh passes -close_fd_mask=3, which closes
   stdout and stderr for the target while libFuzzer and the sanitizers
   report on a duplicate of stderr.  Nothing to do here but keep the
   stdio error flags from sticking between inputs. */
static void fuzz_quiet(void)
{
    clearerr(stdout);
    clearerr(stderr);
}

/* Call the subcommand named by argv[0]; returns its exit code or -1. */
static int fuzz_dispatch(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*fn)(int, char **);
    } cmds[] = {
#define X(name, fn, summary) {#name, fn},
#include "commands.def"
#undef X
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (strcmp(argv[0], cmds[i].name) == 0) {
            int rc = cmds[i].fn(argc, argv);
            fflush(stdout);
            fflush(stderr);
            return rc;
        }
    return -1;
}

#endif /* WM_FUZZ_CLI_H */
