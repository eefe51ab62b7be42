/*
 * help_table.c -- help.def and commands.def compiled into tables: the one
 * source of --help, the manual page and the completions.
 */
#include "help.h"

#include <string.h>

const cli_row cli_help_rows[] = {
#define USAGE(cmds, text) {CLI_ROW_USAGE, cmds, "", "", "", text, 0},
#define ABOUT(cmds, text) {CLI_ROW_ABOUT, cmds, "", "", "", text, 0},
#define OPT(cmds, flag, short_flag, arg, text)                                \
    {CLI_ROW_OPT, cmds, flag, short_flag, arg, text, 0},
#define LIT(cmds, text) {CLI_ROW_LIT, cmds, "", "", "", text, 0},
#define EXIT(code, text) {CLI_ROW_EXIT, "", "", "", "", text, code},
#include "help.def"
#undef USAGE
#undef ABOUT
#undef OPT
#undef LIT
#undef EXIT
};
const size_t cli_help_nrows = sizeof cli_help_rows / sizeof cli_help_rows[0];

const cli_command_info cli_help_commands[] = {
#define X(name, fn, summary) {#name, summary},
#include "commands.def"
#undef X
};
const size_t cli_help_ncommands =
    sizeof cli_help_commands / sizeof cli_help_commands[0];

int cli_row_for(const cli_row *r, const char *cmd)
{
    size_t n = strlen(cmd);
    for (const char *p = r->cmds; *p;) {
        size_t w = strcspn(p, " ");
        if (w == n && memcmp(p, cmd, n) == 0)
            return 1;
        p += w;
        p += strspn(p, " ");
    }
    return 0;
}

const char *cli_opt_label(const cli_row *r, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s%s%s%s%s", r->short_flag,
             *r->short_flag ? ", " : "", r->flag, *r->arg ? " " : "",
             r->arg);
    return buf;
}
