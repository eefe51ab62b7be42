/*
 * main.c -- the warpmem command: find the subcommand and hand it argv.
 */
#include "cli.h"

#include <errno.h>
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
        return rc == WM_EXIT_OK ? WM_EXIT_ERR : rc;
    }
    return rc;
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
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return finish(commands[i].fn(argc - 1, argv + 1));
    return cli_usage_error("unknown command '%s' (try 'warpmem --help')",
                           argv[1]);
}
