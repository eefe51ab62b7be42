/*
 * test_help_table.c -- the rows of cli/help.def as data (cli/help_table.c):
 * well-formed text, command names that exist, the exit statuses 0..3 once
 * each, defaults in the text that are the library's limits, and the two
 * helpers (cli_row_for, cli_opt_label) on hand-made rows.
 */
#include "check.h"
#include "help.h"
#include "warpmem.h"

#include <string.h>

/* Is every word of cmds "warpmem" or a commands.def name? */
static int known_commands(const char *cmds)
{
    for (const char *p = cmds; *p;) {
        size_t w = strcspn(p, " ");
        int ok = w == 7 && memcmp(p, "warpmem", 7) == 0;
        for (size_t c = 0; c < cli_help_ncommands && !ok; c++)
            ok = strlen(cli_help_commands[c].name) == w &&
                 memcmp(p, cli_help_commands[c].name, w) == 0;
        if (!ok) {
            fprintf(stderr, "help.def: unknown command '%.*s'\n", (int)w, p);
            return 0;
        }
        p += w;
        p += strspn(p, " ");
    }
    return 1;
}

/* Plain text: not empty, no tab or newline, no leading '.' or blank, no
 * trailing blank. */
static int plain(const char *s)
{
    size_t n = strlen(s);
    return n && !strpbrk(s, "\t\n") && s[0] != '.' && s[0] != ' ' &&
           s[n - 1] != ' ';
}

static void test_rows(void)
{
    int exits[5] = {0};
    for (size_t i = 0; i < cli_help_nrows; i++) {
        const cli_row *r = &cli_help_rows[i];
        if (r->kind == CLI_ROW_EXIT) {
            CHECK(r->code >= 0 && r->code < 5);
            if (r->code >= 0 && r->code < 5)
                exits[r->code]++;
            CHECK(plain(r->text));
            continue;
        }
        CHECK(known_commands(r->cmds));
        if (r->kind == CLI_ROW_LIT)
            CHECK(*r->text && !strpbrk(r->text, "\t\n"));
        else if (r->kind != CLI_ROW_USAGE)
            CHECK(plain(r->text));
        if (r->kind == CLI_ROW_OPT) {
            CHECK(strncmp(r->flag, "--", 2) == 0 && r->flag[2] != '-');
            CHECK(!*r->short_flag ||
                  (r->short_flag[0] == '-' && strlen(r->short_flag) == 2));
            CHECK(!strchr(r->arg, ' '));
        }
    }
    for (int c = 0; c < 4; c++)
        CHECK_EQ(exits[c], 1);
}

/* The option row of cmd for flag, or NULL. */
static const cli_row *find_opt(const char *cmd, const char *flag)
{
    for (size_t i = 0; i < cli_help_nrows; i++)
        if (cli_help_rows[i].kind == CLI_ROW_OPT &&
            strcmp(cli_help_rows[i].flag, flag) == 0 &&
            cli_row_for(&cli_help_rows[i], cmd))
            return &cli_help_rows[i];
    return NULL;
}

/* The defaults --help states are the library's (warpmem.h) values. */
static void test_defaults(void)
{
    static const struct {
        const char *cmd, *flag;
        unsigned long long value;
    } cases[] = {
        {"expr", "--max-accesses", WM_EXPR_DEFAULT_LIMIT},
        {"run", "--max-steps", WM_LIMIT_CTA_STEPS},
        {"run", "--max-total-steps", WM_LIMIT_TOTAL_STEPS},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const cli_row *r = find_opt(cases[i].cmd, cases[i].flag);
        CHECK(r != NULL);
        if (!r)
            continue;
        char want[48];
        snprintf(want, sizeof want, "(default %llu", cases[i].value);
        if (!strstr(r->text, want))
            fprintf(stderr, "%s %s: '%s' lacks '%s'\n", cases[i].cmd,
                    cases[i].flag, r->text, want);
        CHECK(strstr(r->text, want) != NULL);
    }
}

static void test_helpers(void)
{
    cli_row r = {CLI_ROW_OPT, "run lint", "--kernel", "-k", "NAME", "x", 0};
    CHECK(cli_row_for(&r, "run"));
    CHECK(cli_row_for(&r, "lint"));
    CHECK(!cli_row_for(&r, "ru"));
    CHECK(!cli_row_for(&r, "lin"));
    CHECK(!cli_row_for(&r, "run lint"));
    char buf[64];
    CHECK(strcmp(cli_opt_label(&r, buf, sizeof buf), "-k, --kernel NAME") == 0);
    cli_row f = {CLI_ROW_OPT, "global", "--local", "", "", "x", 0};
    CHECK(strcmp(cli_opt_label(&f, buf, sizeof buf), "--local") == 0);
    CHECK(!cli_row_for(&f, "shared"));
    /* truncated to the buffer, still a string */
    CHECK(strcmp(cli_opt_label(&r, buf, 6), "-k, -") == 0);
    /* the table: every command has a usage row and an option row */
    for (size_t c = 0; c < cli_help_ncommands; c++) {
        int usage = 0, opts = 0;
        for (size_t i = 0; i < cli_help_nrows; i++) {
            if (!cli_row_for(&cli_help_rows[i], cli_help_commands[c].name))
                continue;
            usage += cli_help_rows[i].kind == CLI_ROW_USAGE;
            opts += cli_help_rows[i].kind == CLI_ROW_OPT;
        }
        CHECK(usage > 0);
        CHECK(opts > 0);
    }
    CHECK(find_opt("global", "--local") != NULL);
    CHECK(find_opt("shared", "--local") == NULL);
}

int main(void)
{
    test_rows();
    test_defaults();
    test_helpers();
    return check_done("test_help_table");
}
