/*
 * main.c -- the warpmem command: find the subcommand and hand it argv.
 */
#include "cli.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

struct command {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
};

static const struct command commands[] = {
#define X(name, fn, summary) {#name, fn, summary},
#include "commands.def"
#undef X
};

/* The help text is help.def's "warpmem" rows and commands.def. */
static void usage(FILE *f)
{
    cli_help_main(f);
}

/*
 * Write errors are errors: a full disk or a closed pipe under stdout must
 * not end in exit 0 with truncated output.  Flush and close stdout; if that
 * or any earlier write failed, say so and exit 1.
 */
static int finish(int rc)
{
    errno = 0;
    int bad = fflush(stdout) != 0;
    int e = errno;
    bad |= ferror(stdout) != 0;
    if (fclose(stdout) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (bad) {
        cli_write_error("standard output", e);
        return rc == WM_EXIT_OK || rc == WM_EXIT_FINDING ? WM_EXIT_INPUT : rc;
    }
    return rc;
}

/*
 * --error-exitcode N (compute-sanitizer's flag): the exit status of a
 * finding instead of 1.  Taken out of argv (before any "--", whose rest
 * is nvcc's) wherever it is after the command; *code is left as it is
 * when absent.  1 ok, 0 after a usage error.
 */
static int take_error_exitcode(int *argc, char **argv, int *code)
{
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            while (i < *argc)
                argv[out++] = argv[i++];
            break;
        }
        const char *v = NULL;
        int j = i;
        int r = cli_opt(*argc, argv, &j, "--error-exitcode", NULL, &v);
        if (r < 0)
            return 0;
        if (r == 0) {
            argv[out++] = argv[i];
            continue;
        }
        int64_t n;
        if (!cli_parse_i64("--error-exitcode", v, 0, 255, &n))
            return 0;
        *code = (int)n;
        i = j;
    }
    *argc = out;
    argv[out] = NULL;
    return 1;
}

static int finding_status(int rc, int finding_code)
{
    return rc == WM_EXIT_FINDING ? finding_code : rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return WM_EXIT_USAGE;
    }
    if (cli_is_help(argv[1]) || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return finish(WM_EXIT_OK);
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("warpmem %s\n", wm_version());
        return finish(WM_EXIT_OK);
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(argv[1], commands[i].name) != 0)
            continue;
        int sub_argc = argc - 1, code = WM_EXIT_FINDING;
        if (!take_error_exitcode(&sub_argc, argv + 1, &code))
            return WM_EXIT_USAGE;
        int rc = finish(commands[i].fn(sub_argc, argv + 1));
        return finding_status(rc, code);
    }
    return cli_usage_error("unknown command '%s' (try 'warpmem --help')",
                           argv[1]);
}
