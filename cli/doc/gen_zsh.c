/*
 * gen_zsh.c -- the zsh completion (#compdef warpmem) from the rows of
 * cli/help.def: _describe for the commands, one _arguments spec per
 * option of each command with its value's action (fixed words, files,
 * kernels, profiles), .ptx/.cu operands.
 */
#include "gendoc.h"

#include <string.h>

/* zsh wants descriptions without brackets, colons or single quotes. */
static void zsh_desc(FILE *f, const char *s)
{
    size_t n = 0, end = strcspn(s, ";(");
    while (end && s[end - 1] == ' ')
        end--; /* "the launch (required)" -> "the launch" */
    if (end > 60)
        end = 60;
    for (; n < end; s++, n++) {
        if (*s == '[' || *s == ']' || *s == ':' || *s == '\\')
            fputc(' ', f);
        else if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    }
}

static void zsh_action(FILE *f, const cli_row *r)
{
    switch (gd_value_kind(r)) {
    case 'k': fputs(":kernel:_warpmem_kernels", f); break;
    case 'a': fputs(":profile:_warpmem_archs", f); break;
    case 'f': fputs(":file:_files", f); break;
    case 'w':
        fputs(":value:(", f);
        gd_arg_words(f, r->arg);
        fputc(')', f);
        break;
    default:
        fputc(':', f);
        zsh_desc(f, r->arg);
        fputs(": ", f);
        break;
    }
}

void gd_gen_zsh(FILE *f)
{
    fputs("#compdef warpmem\n"
          "# zsh completion for warpmem -- generated from cli/help.def by "
          "warpmem-gendoc.\n\n"
          "_warpmem_kernels() {\n"
          "    local w file\n"
          "    for w in ${words[2,-1]}; do\n"
          "        [[ $w == *.(ptx|cu) && -f $w ]] && { file=$w; break }\n"
          "    done\n"
          "    [[ -n $file ]] || return 1\n"
          "    local -a ks\n"
          "    ks=(${(f)\"$(warpmem run $file --list 2>/dev/null | awk '\n"
          "        /^kernel / { d = substr($0, 8); sub(/\\(.*/, \"\", d) }\n"
          "        /^  ptx name / { p = $3; sub(/;$/, \"\", p);\n"
          "                         print (d ~ / / || d == \"\") ? p : d }')\"})\n"
          "    compadd -a ks\n"
          "}\n\n"
          "_warpmem_archs() {\n"
          "    local -a as\n"
          "    as=(${(f)\"$(warpmem arch 2>/dev/null | awk 'NR > 1 "
          "{ print $1 }')\"})\n"
          "    compadd -a as\n"
          "}\n\n"
          "_warpmem() {\n"
          "    local -a cmds\n"
          "    cmds=(\n",
          f);
    for (size_t c = 0; c < cli_help_ncommands; c++) {
        fprintf(f, "        '%s:", cli_help_commands[c].name);
        zsh_desc(f, cli_help_commands[c].summary);
        fputs("'\n", f);
    }
    fputs("    )\n"
          "    if (( CURRENT == 2 )); then\n"
          "        _describe -t commands 'warpmem command' cmds\n"
          "        compadd -- --help --version\n"
          "        return\n"
          "    fi\n"
          "    local cmd=$words[2]\n"
          "    shift words\n"
          "    (( CURRENT-- ))\n"
          "    case $cmd in\n",
          f);
    for (size_t c = 1; c < gd_ncommands(); c++) {
        const char *cmd = gd_command_at(c);
        fprintf(f, "    %s)\n        _arguments -s \\\n", cmd);
        for (size_t i = 0; i < cli_help_nrows; i++) {
            const cli_row *r = &cli_help_rows[i];
            if (r->kind != CLI_ROW_OPT || !cli_row_for(r, cmd))
                continue;
            const char *names[2] = {r->flag, r->short_flag};
            for (int k = 0; k < 2; k++) {
                if (!*names[k])
                    continue;
                fprintf(f, "            '*%s[", names[k]);
                zsh_desc(f, r->text);
                fputc(']', f);
                if (gd_takes_value(r))
                    zsh_action(f, r);
                fputs("' \\\n", f);
            }
        }
        if (gd_takes_kernels(cmd))
            fputs("            '*:kernel file:_files -g \"*.(ptx|cu)\"'", f);
        else
            fputs("            '*:argument: '", f);
        fputs(" ;;\n", f);
    }
    fputs("    esac\n}\n\n_warpmem \"$@\"\n", f);
}
