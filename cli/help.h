/*
 * help.h -- the rows of help.def and commands.def as data, for the --help
 * printer (help.c) and the generator of the manual page and completions
 * (doc/gendoc.c).  This header needs nothing but the C library, so the
 * generator builds without libwarpmem.
 */
#ifndef WM_CLI_HELP_H
#define WM_CLI_HELP_H

#include <stddef.h>
#include <stdio.h>

typedef enum {
    CLI_ROW_USAGE, /* text: operands of one usage form */
    CLI_ROW_ABOUT, /* text: a paragraph */
    CLI_ROW_OPT,   /* flag, short_flag, arg, text */
    CLI_ROW_LIT,   /* text: one line printed as written */
    CLI_ROW_EXIT   /* code, text; cmds is "" */
} cli_row_kind;

typedef struct cli_row {
    cli_row_kind kind;
    const char *cmds;       /* command names separated by spaces */
    const char *flag;       /* "--kernel"; "" for other kinds */
    const char *short_flag; /* "-k" or "" */
    const char *arg;        /* "NAME" or "" */
    const char *text;
    int code; /* EXIT rows */
} cli_row;

typedef struct cli_command_info {
    const char *name;    /* "run"; "warpmem" for the top level */
    const char *summary; /* commands.def's one line */
} cli_command_info;

/* help.def, in file order. */
extern const cli_row cli_help_rows[];
extern const size_t cli_help_nrows;

/* commands.def, in file order (the top level "warpmem" is not in it). */
extern const cli_command_info cli_help_commands[];
extern const size_t cli_help_ncommands;

/* Does row r belong to command cmd (cmd one of the words of r->cmds)? */
int cli_row_for(const cli_row *r, const char *cmd);

/*
 * The option label as --help shows it: "-k, --kernel NAME", "--list".
 * Written into buf[cap], truncated to fit; returns buf.
 */
const char *cli_opt_label(const cli_row *r, char *buf, size_t cap);

#endif /* WM_CLI_HELP_H */
