/*
 * test_npy.c -- the .npy header reader and writer of the CLI (cli/npy.c):
 * files NumPy wrote (fuzz/corpus/npy, versions 1.0 to 3.0), headers at the
 * edges of the format with the exact message each gets, and the writer's
 * headers read back.  Among the edges are the inputs the previous reader
 * mishandled: a key at the very end of a 65536-byte header (it read past
 * its buffer), a shape whose element count wraps around 2^64, a negative
 * dimension, "(4)" for a 1-tuple, other versions and repeated keys (all
 * accepted or misread before).
 */
#include "check.h"
#include "npy.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char file[70000];

/* A file of the given version with header text h (no padding added). */
static size_t make(unsigned version, const char *h, size_t hl)
{
    size_t hs = version == 1 ? 10 : 12;
    memcpy(file, "\x93NUMPY", 6);
    file[6] = (unsigned char)version;
    file[7] = 0;
    file[8] = (unsigned char)(hl & 0xff);
    file[9] = (unsigned char)(hl >> 8 & 0xff);
    if (version > 1) {
        file[10] = (unsigned char)(hl >> 16 & 0xff);
        file[11] = (unsigned char)(hl >> 24 & 0xff);
    }
    memcpy(file + hs, h, hl);
    memset(file + hs + hl, 0, 16); /* four f32 of data */
    return hs + hl + 16;
}

/* npy_parse of header text h: NULL or the message. */
static const char *parse(unsigned version, const char *h, npy_header *out)
{
    size_t n = make(version, h, strlen(h));
    return npy_parse(file, n, out);
}

#define CHECK_MSG(version, h, want)                                           \
    do {                                                                      \
        npy_header hd_;                                                       \
        const char *got_ = parse(version, h, &hd_);                           \
        CHECK(got_ != NULL && strcmp(got_, want) == 0);                       \
        if (!got_ || strcmp(got_, want) != 0)                                 \
            fprintf(stderr, "  header %s: got '%s'\n", h,                     \
                    got_ ? got_ : "(accepted)");                              \
    } while (0)

static void test_accepted(void)
{
    npy_header h;
    static const char h23[] =
        "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }   \n";
    CHECK(parse(1, h23, &h) == NULL);
    CHECK(strcmp(h.descr, "<f4") == 0);
    CHECK_EQ(h.ndims, 2);
    CHECK_EQ(h.dims[0], 2);
    CHECK_EQ(h.dims[1], 3);
    CHECK_EQ(h.count, 6);
    CHECK_EQ(h.fortran_order, 0);
    CHECK_EQ(h.data_off, 10 + sizeof h23 - 1);
    /* double quotes, any key order, no trailing comma, True */
    CHECK(parse(2, "{\"shape\": (4,), \"fortran_order\": True, \"descr\": \"|u1\"}",
                &h) == NULL);
    CHECK_EQ(h.major, 2);
    CHECK_EQ(h.fortran_order, 1);
    CHECK_EQ(h.ndims, 1);
    CHECK_EQ(h.count, 4);
    CHECK(strcmp(h.descr, "|u1") == 0);
    /* a scalar array and an empty one */
    CHECK(parse(3, "{'descr': '<i4', 'fortran_order': False, 'shape': (), }", &h) ==
          NULL);
    CHECK_EQ(h.ndims, 0);
    CHECK_EQ(h.count, 1);
    CHECK(parse(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 0), }",
                &h) == NULL);
    CHECK_EQ(h.count, 0);
    /* the largest dimension NumPy can hold */
    CHECK(parse(1, "{'descr': '|i1', 'fortran_order': False, 'shape': "
                   "(9223372036854775807,), }", &h) == NULL);
    CHECK_EQ(h.count, INT64_MAX);
}

static void test_refused(void)
{
    CHECK_MSG(4, "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }",
              "a .npy version other than 1.0, 2.0 or 3.0");
    CHECK_MSG(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4), }",
              "header: 'shape' is not a tuple (a 1-tuple is '(N,)')");
    CHECK_MSG(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (-4,), }",
              "header: 'shape' holds something other than integers");
    CHECK_MSG(1, "{'descr': '<f4', 'fortran_order': False, 'shape': "
                 "(4611686018427387905, 4), }",
              "header: 'shape' has more elements than 2^64");
    CHECK_MSG(1, "{'descr': '<f4', 'fortran_order': False, 'shape': "
                 "(9223372036854775808,), }",
              "header: a dimension of 'shape' is too large");
    CHECK_MSG(1, "{'descr': '<i4', 'descr': '<f4', 'fortran_order': False, "
                 "'shape': (4,), }",
              "header: a key given twice");
    CHECK_MSG(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), "
                 "'x': 1}",
              "header: a key other than 'descr', 'fortran_order', 'shape'");
    CHECK_MSG(1, "{'descr': '<f4', 'shape': (4,), }",
              "header: 'descr', 'fortran_order' or 'shape' is missing");
    CHECK_MSG(1, "{'descr': [('x', '<f4')], 'fortran_order': False, "
                 "'shape': (4,), }",
              "header: a structured dtype (only plain arrays are read)");
    CHECK_MSG(1, "{'descr': '<f4', 'fortran_order': 0, 'shape': (4,), }",
              "header: 'fortran_order' is not True or False");
    CHECK_MSG(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), } x",
              "header: text after the dict");
    CHECK_MSG(1, "{'descr': '<f4, 'fortran_order': False, 'shape': (4,)}",
              "header: expected ',' or '}'");
    CHECK_MSG(1, "{'descr' '<f4', 'fortran_order': False, 'shape': (4,)}",
              "header: expected ':' after a key");
    CHECK_MSG(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4 5)}",
              "header: expected ',' or ')' in 'shape'");
    CHECK_MSG(1, "{'descr': 'a\\'b', 'fortran_order': False, 'shape': (4,)}",
              "header: escapes in strings are not read");
    CHECK_MSG(1, "", "header: not a dict");
    npy_header h;
    CHECK(strcmp(npy_parse("\x93NUMPY", 6, &h),
                 "not a .npy file (no \\x93NUMPY magic)") == 0);
    CHECK(strcmp(npy_parse("\x93NUMPX\x01\x00\x00\x00", 10, &h),
                 "not a .npy file (no \\x93NUMPY magic)") == 0);
    CHECK(strcmp(npy_parse("\x93NUMPY\x02\x00\x00\x00", 10, &h),
                 "truncated header") == 0);
    CHECK(strcmp(npy_parse("\x93NUMPY\x01\x00\x40\x00{}", 12, &h),
                 "truncated header") == 0);
    static const char nul[] = "\x93NUMPY\x01\x00\x04\x00{\0}\n";
    CHECK(strcmp(npy_parse(nul, sizeof nul - 1, &h), "header: a NUL byte") == 0);
    /* 32 dimensions are NumPy's limit */
    char many[600] = "{'descr': '<f4', 'fortran_order': False, 'shape': (";
    for (int k = 0; k < 33; k++)
        strcat(many, "1, ");
    strcat(many, "), }");
    CHECK_MSG(1, many, "header: 'shape' has more than 32 dimensions");
}

/* A key at the very end of a 65536-byte header: the previous reader
   looked one byte past its copy of the header. */
static void test_key_at_end(void)
{
    static char h[NPY_MAX_HEADER + 1];
    const char *pre[2] = {"{'descr': '<f4', 'fortran_order': False, ",
                          "{'fortran_order': False, 'shape': (4,), "};
    const char *key[2] = {"'shape':", "'descr':"};
    const char *want[2] = {"header: 'shape' is not a tuple",
                           "header: expected a quoted string"};
    for (int k = 0; k < 2; k++) {
        size_t lp = strlen(pre[k]), lk = strlen(key[k]);
        memcpy(h, pre[k], lp);
        memset(h + lp, ' ', NPY_MAX_HEADER - lp - lk);
        memcpy(h + NPY_MAX_HEADER - lk, key[k], lk);
        size_t n = make(2, h, NPY_MAX_HEADER);
        npy_header hd;
        const char *e = npy_parse(file, n, &hd);
        CHECK(e && strcmp(e, want[k]) == 0);
        /* one byte longer is over the limit */
        n = make(2, h, NPY_MAX_HEADER + 1);
        e = npy_parse(file, n, &hd);
        CHECK(e && strcmp(e, "header longer than 65536 bytes") == 0);
    }
}

static void test_format(void)
{
    char buf[256];
    const uint64_t d1[1] = {4}, d2[2] = {2, 3}, d4[4] = {1, 2, 3, 4};
    size_t n = npy_format(buf, sizeof buf, "<f4", d1, 1);
    CHECK_EQ(n, 128);
    /* the bytes the earlier writer wrote too (cli_run_sig.cmake) */
    CHECK(memcmp(buf, "\x93NUMPY\x01\x00\x76\x00", 10) == 0);
    CHECK(memcmp(buf + 10, "{'descr': '<f4', 'fortran_order': False, 'shape': "
                           "(4,), }",
                 57) == 0);
    CHECK_EQ(buf[n - 1], '\n');
    const uint64_t *dims[3] = {d1, d2, d4};
    const unsigned nd[3] = {1, 2, 4};
    for (int k = 0; k < 3; k++) {
        n = npy_format(buf, sizeof buf, "<u8", dims[k], nd[k]);
        npy_header h;
        CHECK(n % 64 == 0 && npy_parse(buf, n, &h) == NULL);
        CHECK_EQ(h.data_off, n);
        CHECK_EQ(h.ndims, nd[k]);
        CHECK(memcmp(h.dims, dims[k], nd[k] * sizeof *h.dims) == 0);
    }
    CHECK_EQ(npy_format(buf, 64, "<f4", d4, 4), 0); /* does not fit */
}

/* Files NumPy wrote (fuzz/npy_seeds.py) parse to their shapes. */
static void test_numpy_files(void)
{
    static const struct {
        const char *name, *descr;
        unsigned major, ndims;
        uint64_t count;
        int fortran;
    } f[] = {
        {"iota8_f4", "<f4", 1, 1, 8, 0},    {"iota8_i1", "|i1", 1, 1, 8, 0},
        {"shape_2x3x4", "<i2", 1, 3, 24, 0}, {"shape_0d", "<i4", 1, 0, 1, 0},
        {"shape_5d", "|u1", 1, 5, 4, 0},    {"fortran_2x3", "<f4", 1, 2, 6, 1},
        {"version2", "<f4", 2, 1, 4, 0},    {"version3", "<i4", 3, 1, 4, 0},
        {"big_endian", ">f4", 1, 1, 4, 0},
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/fuzz/corpus/npy/%s.npy", WM_SOURCE_DIR,
                 f[i].name);
        size_t n = 0;
        char *data = wm_read_file(path, &n);
        CHECK(data != NULL);
        if (!data)
            continue;
        npy_header h;
        const char *e = npy_parse(data, n, &h);
        CHECK(e == NULL);
        if (e)
            fprintf(stderr, "  %s: %s\n", f[i].name, e);
        CHECK(strcmp(h.descr, f[i].descr) == 0);
        CHECK_EQ(h.major, f[i].major);
        CHECK_EQ(h.ndims, f[i].ndims);
        CHECK_EQ(h.count, f[i].count);
        CHECK_EQ(h.fortran_order, f[i].fortran);
        CHECK_EQ(h.data_off % 64, 0);
        free(data);
    }
}

int main(void)
{
    test_accepted();
    test_refused();
    test_key_at_end();
    test_format();
    test_numpy_files();
    return check_done("test_npy");
}
