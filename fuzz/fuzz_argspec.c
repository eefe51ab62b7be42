/*
 * fuzz_argspec.c -- libFuzzer harness: one `run --arg SPEC`.  The spec
 * goes through the command (whose PTX path does not exist, so `run` stops
 * after its options: every spec form, by-value ones included, is parsed as
 * the command parses it), then straight through run_args.c: parsed,
 * allocated and filled (lazily from 1 MiB, as `run` does) and freed.  A
 * lazily filled buffer must read, at its first, middle and last element,
 * what wm_ptx_fill_at computes for them.
 */
#include "fuzz_cli.h"
#include "run_args.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Buffers the direct path allocates: up to 4 MiB (lazy filling starts at
   1 MiB); ASan's calloc clears shadow memory for every byte. */
#define FUZZ_MAX_BUF_BYTES ((uint64_t)4 << 20)

static void through_command(char *spec)
{
    static char run[] = "run", path[] = "/nonexistent/fuzz.ptx",
                grid[] = "--grid", one[] = "1", block[] = "--block",
                b32[] = "32", arg[] = "--arg";
    char *argv[] = {run, path, grid, one, block, b32, arg, spec, NULL};
    fuzz_dispatch(8, argv);
}

/* Element i of a filled buffer equals wm_ptx_fill_at's. */
static void check_element(const run_arg *a, size_t i)
{
    size_t esz = wm_ptx_type_size(a->type);
    unsigned char want[8], got[8];
    if (wm_ptx_fill_at(want, a->type, i, 1, a->init) != WM_OK)
        return;
    memcpy(got, (const unsigned char *)a->buf + i * esz, esz);
    if (memcmp(got, want, esz) != 0)
        abort();
}

static void through_run_args(const char *spec)
{
    run_arg a;
    if (!run_arg_parse(spec, &a)) {
        run_arg_free(&a);
        return;
    }
    uint64_t esz = wm_ptx_type_size(a.type);
    if (a.form == RUN_ARG_BUFFER && !a.file &&
        a.count <= FUZZ_MAX_BUF_BYTES / esz && run_arg_alloc(&a, 1)) {
        if (a.count && strcmp(a.init, "zeros") != 0) {
            check_element(&a, 0);
            check_element(&a, (size_t)a.count / 2);
            check_element(&a, (size_t)a.count - 1);
        }
    }
    run_arg_free(&a);
}

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
    through_command(spec);
    through_run_args(spec);
    return 0;
}
