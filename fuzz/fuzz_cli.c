/*
 * fuzz_cli.c -- libFuzzer harness: the command line.  The input is split
 * at NUL bytes into argv (first word: the subcommand; demo, global,
 * shared, expr, arch, run) and dispatched as main() would.  run gets a
 * small whole-launch budget and one thread first, expr a small access
 * budget (fuzz_cli.h drops the arguments that would lift them).
 */
#include "fuzz_cli.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    fuzz_quiet();
    char buf[4097];
    memcpy(buf, data, size);
    buf[size] = '\0';
    char *argv[FUZZ_MAX_ARGS + 8];
    int argc = 0;
    char *p = buf, *end = buf + size;
    char *words[FUZZ_MAX_ARGS];
    int nw = 0;
    while (p < end && nw < FUZZ_MAX_ARGS) {
        words[nw++] = p;
        p += strlen(p) + 1;
    }
    if (nw == 0)
        return 0;
    argv[argc++] = words[0];
    if (strcmp(words[0], "run") == 0) {
        static char mts[] = "--max-total-steps", mtsv[] = "20000";
        static char ms[] = "--max-steps", msv[] = "5000";
        static char j[] = "-j", jv[] = "1";
        argv[argc++] = mts;
        argv[argc++] = mtsv;
        argv[argc++] = ms;
        argv[argc++] = msv;
        argv[argc++] = j;
        argv[argc++] = jv;
    } else if (strcmp(words[0], "expr") == 0) {
        static char ma[] = "--max-accesses", mav[] = "2000";
        argv[argc++] = ma;
        argv[argc++] = mav;
    }
    for (int i = 1; i < nw; i++)
        if (!fuzz_arg_unsafe(words[i]))
            argv[argc++] = words[i];
    argv[argc] = NULL;
    fuzz_dispatch(argc, argv);
    return 0;
}
