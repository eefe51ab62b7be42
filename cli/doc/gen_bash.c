/*
 * gen_bash.c -- the bash completion from the rows of cli/help.def: the
 * commands, each command's options, the values of the option before the
 * cursor (fixed words, files, kernels, profiles) and .ptx/.cu operands.
 * Self-contained: it needs bash's compgen only, not the bash-completion
 * package.
 */
#include "gendoc.h"

#include <string.h>

static const char bash_helpers[] =
    "# The kernels of the first .ptx/.cu operand, for --kernel.\n"
    "_warpmem_kernels() {\n"
    "    local w file=\n"
    "    for w in \"${COMP_WORDS[@]:2}\"; do\n"
    "        case $w in *.ptx|*.cu) [ -f \"$w\" ] && { file=$w; break; } ;; esac\n"
    "    done\n"
    "    [ -n \"$file\" ] || return 0\n"
    "    \"${COMP_WORDS[0]}\" run \"$file\" --list 2>/dev/null | awk '\n"
    "        /^kernel / { d = substr($0, 8); sub(/\\(.*/, \"\", d) }\n"
    "        /^  ptx name / { p = $3; sub(/;$/, \"\", p);\n"
    "                         print (d ~ / / || d == \"\") ? p : d }'\n"
    "}\n\n"
    "# The architecture profiles, for --arch.\n"
    "_warpmem_archs() {\n"
    "    \"${COMP_WORDS[0]}\" arch 2>/dev/null | awk 'NR > 1 { print $1 }'\n"
    "}\n\n";

void gd_gen_bash(FILE *f)
{
    fputs("# bash completion for warpmem -- generated from cli/help.def by "
          "warpmem-gendoc.\n\n",
          f);
    fputs(bash_helpers, f);
    fputs("_warpmem() {\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} "
          "prev=${COMP_WORDS[COMP_CWORD-1]}\n"
          "    local IFS=$'\\n'\n"
          "    COMPREPLY=()\n"
          "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
          "        COMPREPLY=($(IFS=' '; compgen -W \"",
          f);
    for (size_t c = 0; c < cli_help_ncommands; c++)
        fprintf(f, "%s ", cli_help_commands[c].name);
    gd_opt_words(f, "warpmem");
    fputs("\" -- \"$cur\"))\n        return 0\n    fi\n"
          "    local cmd=${COMP_WORDS[1]} opts= kernels=\n"
          "    case $cmd in\n",
          f);
    for (size_t c = 1; c < gd_ncommands(); c++) {
        const char *cmd = gd_command_at(c);
        fprintf(f, "    %s)\n        opts=\"", cmd);
        gd_opt_words(f, cmd);
        fprintf(f, "\"\n        kernels=%d\n", gd_takes_kernels(cmd));
        /* values of the previous word's option */
        fputs("        case $prev in\n", f);
        for (size_t i = 0; i < cli_help_nrows; i++) {
            const cli_row *r = &cli_help_rows[i];
            if (r->kind != CLI_ROW_OPT || !cli_row_for(r, cmd) ||
                !gd_takes_value(r))
                continue;
            fprintf(f, "        %s%s%s)\n            ", r->flag,
                    *r->short_flag ? "|" : "", r->short_flag);
            switch (gd_value_kind(r)) {
            case 'k':
                fputs("COMPREPLY=($(compgen -W \"$(_warpmem_kernels)\" -- "
                      "\"$cur\"))",
                      f);
                break;
            case 'a':
                fputs("COMPREPLY=($(compgen -W \"$(_warpmem_archs)\" -- "
                      "\"$cur\"))",
                      f);
                break;
            case 'f': fputs("COMPREPLY=($(compgen -f -- \"$cur\"))", f); break;
            case 'w':
                fputs("COMPREPLY=($(IFS=' '; compgen -W \"", f);
                gd_arg_words(f, r->arg);
                fputs("\" -- \"$cur\"))", f);
                break;
            default: fputs(": no fixed values", f); break;
            }
            fputs("\n            return 0 ;;\n", f);
        }
        fputs("        esac ;;\n", f);
    }
    fputs("    *) return 0 ;;\n    esac\n"
          "    if [[ $cur == -* ]]; then\n"
          "        COMPREPLY=($(IFS=' '; compgen -W \"$opts\" -- \"$cur\"))\n"
          "    elif [ \"$kernels\" = 1 ]; then\n"
          "        COMPREPLY=($(compgen -f -X '!*.ptx' -- \"$cur\"; "
          "compgen -f -X '!*.cu' -- \"$cur\"; compgen -d -- \"$cur\"))\n"
          "    fi\n"
          "    return 0\n}\n"
          "complete -o filenames -F _warpmem warpmem\n",
          f);
}
