/*
 * fuzz_argspec.c -- libFuzzer harness: one `run --arg SPEC` (type, count,
 * fill rule, scalar value).  The spec is parsed, its buffer allocated and
 * filled; the PTX path does not exist, so the command stops after the
 * options with a read error.
 */
#include "fuzz_cli.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1024 || memchr(data, 0, size))
        return 0;
    fuzz_quiet();
    char spec[1025];
    memcpy(spec, data, size);
    spec[size] = '\0';
    if (fuzz_arg_unsafe(spec))
        return 0;
    static char run[] = "run", path[] = "/nonexistent/fuzz.ptx",
                grid[] = "--grid", one[] = "1", block[] = "--block",
                b32[] = "32", arg[] = "--arg";
    char *argv[] = {run, path, grid, one, block, b32, arg, spec, NULL};
    fuzz_dispatch(8, argv);
    return 0;
}
