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

static void usage(FILE *f)
{
    fprintf(f, "usage: warpmem <command> [options]   (warpmem <command> "
               "--help for details)\n\n"
               "warpmem shows how a warp's memory accesses become memory "
               "traffic.\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n  --version  print the version\n");
    /* the limits against hostile or mistaken input (docs/limits.md) */
    static const struct {
        unsigned long long value;
        const char *what, *raise;
    } limits[] = {
#define X(name, what, raise) {name, what, raise},
        WM_LIMIT_LIST(X)
#undef X
    };
    fprintf(f, "\nlimits (docs/limits.md):\n");
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++)
        fprintf(f, "  %-12llu %s\n               raise: %s\n",
                limits[i].value, limits[i].what, limits[i].raise);
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
        printf("warpmem %s\n", WM_VERSION);
        return finish(WM_EXIT_OK);
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return finish(commands[i].fn(argc - 1, argv + 1));
    return cli_usage_error("unknown command '%s' (try 'warpmem --help')",
                           argv[1]);
}
