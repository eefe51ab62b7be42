/*
 * test_run_value.c -- `run --global NAME=TYPE[N]:file=PATH` (and the
 * buffers of struct fields, cli/run_value.c) read their file as --arg
 * does (run_file_read, cli/run_args.c): a .npy is its header then its
 * data, with the dtype and the element count checked; anything else is raw
 * bytes of exactly the buffer's size.  A .npy was read as raw bytes
 * (header and all: "size differs from the buffer").
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "npy.h"
#include "run_value.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[192], errpath[224];

/* Write a .npy of descr and shape dims[0..nd) holding data[bytes]. */
static void write_npy(const char *path, const char *descr,
                      const uint64_t *dims, unsigned nd, const void *data,
                      size_t bytes)
{
    char h[256];
    size_t hl = npy_format(h, sizeof h, descr, dims, nd);
    FILE *f = fopen(path, "wb");
    CHECK(hl > 0 && f != NULL);
    if (!f)
        return;
    CHECK_EQ(fwrite(h, 1, hl, f), hl);
    CHECK_EQ(fwrite(data, 1, bytes, f), bytes);
    fclose(f);
}

/* rv_global on "taps=SPEC:file=PATH"; the returned status, its message
   (stderr) in msg[cap]. */
static int global(run_values *rv, const char *spec, const char *path,
                  char *msg, size_t cap)
{
    char arg[300];
    snprintf(arg, sizeof arg, "taps=%s:file=%s", spec, path);
    fflush(stderr);
    int saved = dup(2);
    FILE *e = fopen(errpath, "w");
    if (saved < 0 || !e)
        return -1;
    dup2(fileno(e), 2);
    fclose(e);
    int ok = rv_global(arg, rv);
    fflush(stderr);
    dup2(saved, 2); /* CHECK failures go to the real stderr */
    close(saved);
    FILE *f = fopen(errpath, "r");
    size_t n = f ? fread(msg, 1, cap - 1, f) : 0;
    msg[n] = 0;
    if (f)
        fclose(f);
    return ok;
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/wm_run_value_XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return 1;
    snprintf(errpath, sizeof errpath, "%s/err.txt", dir);
    char npy[224], raw[224], msg[1024];
    snprintf(npy, sizeof npy, "%s/taps.npy", dir);
    snprintf(raw, sizeof raw, "%s/taps.bin", dir);

    const float taps[5] = {0.5f, -1.25f, 2.0f, 3.75f, -8.0f};
    uint64_t five = 5, two_by_five[2] = {1, 5};
    run_values rv;
    memset(&rv, 0, sizeof rv);

    /* the data after the header, in the variable's bytes */
    write_npy(npy, "<f4", &five, 1, taps, sizeof taps);
    CHECK_EQ(global(&rv, "f32[5]", npy, msg, sizeof msg), 1);
    CHECK_EQ(rv.nglobals, 1);
    CHECK_EQ(rv.globals[0].bytes, sizeof taps);
    CHECK(rv.nglobals == 1 &&
          memcmp(rv.globals[0].init, taps, sizeof taps) == 0);
    CHECK(strcmp(rv.globals[0].name, "taps") == 0);

    /* a shape of other dimensions but the same count is the same bytes */
    write_npy(npy, "<f4", two_by_five, 2, taps, sizeof taps);
    CHECK_EQ(global(&rv, "f32[5]", npy, msg, sizeof msg), 1);
    CHECK(rv.nglobals == 2 &&
          memcmp(rv.globals[1].init, taps, sizeof taps) == 0);

    /* the dtype is checked */
    write_npy(npy, "<i4", &five, 1, taps, sizeof taps);
    CHECK_EQ(global(&rv, "f32[5]", npy, msg, sizeof msg), 0);
    CHECK(strstr(msg, "holds '<i4', the spec says f32 (<f4)") != NULL);
    if (!strstr(msg, "holds '<i4'"))
        printf("dtype message: %s", msg);

    /* the element count is checked */
    write_npy(npy, "<f4", &five, 1, taps, sizeof taps);
    CHECK_EQ(global(&rv, "f32[4]", npy, msg, sizeof msg), 0);
    CHECK(strstr(msg, "has shape 5, the spec 4") != NULL);
    if (!strstr(msg, "has shape 5"))
        printf("shape message: %s", msg);

    /* a header that is not one is named */
    FILE *f = fopen(npy, "wb");
    if (f) {
        fwrite(taps, 1, sizeof taps, f);
        fclose(f);
    }
    CHECK_EQ(global(&rv, "f32[5]", npy, msg, sizeof msg), 0);
    CHECK(strstr(msg, "not a .npy file") != NULL);

    /* raw bytes: exactly the buffer's size */
    f = fopen(raw, "wb");
    if (f) {
        fwrite(taps, 1, sizeof taps, f);
        fclose(f);
    }
    CHECK_EQ(global(&rv, "f32[5]", raw, msg, sizeof msg), 1);
    CHECK(rv.nglobals == 3 &&
          memcmp(rv.globals[2].init, taps, sizeof taps) == 0);
    CHECK_EQ(global(&rv, "f32[6]", raw, msg, sizeof msg), 0);
    CHECK(strstr(msg, "has 20 bytes, the buffer 24") != NULL);
    CHECK_EQ(rv.nglobals, 3); /* a refused one is not counted */
    CHECK_EQ(rv.bad_file, 1); /* run exits 4 (input), not 2 (usage) */

    rv_free(&rv);
    unlink(npy);
    unlink(raw);
    unlink(errpath);
    rmdir(dir);
    return check_done("test_run_value");
}
