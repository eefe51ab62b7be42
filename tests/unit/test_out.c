/*
 * test_out.c -- the output layer (src/out/out.c) and the CSV reader
 * (src/ncu/ncu_csv.c): JSON punctuation and escapes, CSV quoting and the
 * one-header rule, and the reader on the cases an ncu export has (quoted
 * commas, doubled quotes, line breaks in fields, CRLF, a units row,
 * thousands separators, tool lines) and on broken input (line:col).
 * Every expected text below is written out by hand.
 */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "out_int.h"

#include <stdlib.h>
#include <string.h>

/* What fn writes through a writer on a memory stream (caller frees). */
static char *written(int csv, void (*fn)(wmi_out *), wm_status *st)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    wmi_out o;
    wmi_out_init(&o, f, csv);
    fn(&o);
    *st = wmi_out_finish(&o);
    fclose(f);
    return buf;
}

static void doc(wmi_out *o)
{
    wmi_out_obj(o, NULL);
    wmi_out_str(o, "s", "a\"b\\c\n\t\x01");
    wmi_out_num(o, "whole", 32.0);
    wmi_out_num(o, "frac", 0.125);
    wmi_out_num(o, "inf", 1.0 / 0.0);
    wmi_out_null(o, "none");
    wmi_out_arr(o, "rows");
    for (int i = 0; i < 2; i++) {
        wmi_out_row(o, NULL);
        wmi_out_str(o, "name", i ? "x,y" : "plain");
        wmi_out_uint(o, "n", (uint64_t)i);
        wmi_out_row_end(o);
    }
    wmi_out_end(o);
    wmi_out_end(o);
}

static void bad_rows(wmi_out *o)
{
    wmi_out_row(o, NULL);
    wmi_out_uint(o, "a", 1);
    wmi_out_row_end(o);
    wmi_out_row(o, NULL);
    wmi_out_uint(o, "b", 2); /* another column: refused */
    wmi_out_row_end(o);
}

static void test_writer(void)
{
    wm_status st;
    char *j = written(0, doc, &st);
    CHECK(st == WM_OK);
    CHECK(j && strcmp(j, "{\"s\": \"a\\\"b\\\\c\\n\\t\\u0001\", \"whole\": 32, "
                         "\"frac\": 0.125, \"inf\": null, \"none\": null, "
                         "\"rows\": [{\"name\": \"plain\", \"n\": 0}, "
                         "{\"name\": \"x,y\", \"n\": 1}]}") == 0);
    free(j);
    char *c = written(1, doc, &st);
    CHECK(st == WM_OK);
    CHECK(c && strcmp(c, "name,n\nplain,0\n\"x,y\",1\n") == 0);
    free(c);
    c = written(1, bad_rows, &st);
    CHECK(st == WM_ERR_ARG);
    CHECK(c && strcmp(c, "a\n1\n") == 0);
    free(c);
}

/* JSON text is UTF-8 (RFC 8259, section 8.1): well-formed sequences pass
   as they are, every byte that starts none becomes U+FFFD (a .file path or
   a command line in Latin-1 made the documents unreadable to a strict
   parser); DEL is allowed as it is. */
static void test_json_utf8(void)
{
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"a\xc3\xa9" "b", "\"a\xc3\xa9" "b\""},           /* U+00E9 */
        {"\xe2\x82\xac\x7f", "\"\xe2\x82\xac\x7f\""},   /* U+20AC, DEL */
        {"\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\""},   /* U+1F600 */
        {"/tmp/a\xff" "b.cu", "\"/tmp/a\\ufffdb.cu\""},     /* Latin-1 */
        {"\x80x", "\"\\ufffdx\""},                         /* lone tail */
        {"\xc0\xaf", "\"\\ufffd\\ufffd\""},                 /* overlong / */
        {"\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\""},      /* overlong / */
        {"\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\""},      /* surrogate */
        {"\xf4\x90\x80\x80",
         "\"\\ufffd\\ufffd\\ufffd\\ufffd\""},               /* > U+10FFFF */
        {"\xe2\x82", "\"\\ufffd\\ufffd\""},                 /* cut short */
        {"\xe2\x82\x01", "\"\\ufffd\\ufffd\\u0001\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        wm_json_string(f, cases[i].in);
        fclose(f);
        CHECK(buf && strcmp(buf, cases[i].out) == 0);
        if (buf && strcmp(buf, cases[i].out) != 0)
            fprintf(stderr, "case %zu: got %s\n", i, buf);
        free(buf);
    }
}

/* The public face (wm_writer, as the lab uses it): the same text, the
   document head (JSON: a row a line), and the first error from
   wm_writer_free. */
static void test_public_writer(void)
{
    CHECK(wm_writer_new(stdout, WM_FMT_TEXT) == NULL);
    CHECK(wm_writer_new(NULL, WM_FMT_JSON) == NULL);
    CHECK(wm_writer_free(NULL) == WM_OK);
    for (int csv = 0; csv < 2; csv++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        wm_writer *w = wm_writer_new(f, csv ? WM_FMT_CSV : WM_FMT_JSON);
        CHECK(w != NULL);
        if (!w) {
            fclose(f);
            free(buf);
            continue;
        }
        unsigned g[3] = {2, 1, 1};
        wm_writer_doc_begin(w, "lab", "sm_90", NULL);
        wm_writer_uints(w, "grid", g, 3);
        wm_writer_arr(w, "rows");
        for (int i = 0; i < 2; i++) {
            wm_writer_row(w, NULL);
            wm_writer_str(w, "id", i ? "b,c" : "a");
            wm_writer_int(w, "d", -i);
            wm_writer_num(w, "x", 0.5 + i);
            wm_writer_bool(w, "ok", i);
            wm_writer_null(w, "none");
            wm_writer_row_end(w);
        }
        wm_writer_end(w);
        wm_writer_doc_end(w);
        CHECK_EQ(wm_writer_free(w), WM_OK);
        fclose(f);
        if (!csv)
            CHECK(buf && strstr(buf, "\"schema\": \"warpmem/1\", "
                                     "\"command\": \"lab\", \"arch\": "
                                     "\"sm_90\", \"kernel\": null") &&
                  strstr(buf, "\"grid\": [2, 1, 1], \"rows\": [\n"
                              "  {\"id\": \"a\", \"d\": 0, \"x\": 0.5, "
                              "\"ok\": false, \"none\": null},\n"
                              "  {\"id\": \"b,c\", \"d\": -1, \"x\": 1.5, "
                              "\"ok\": true, \"none\": null}]}\n"));
        else
            CHECK(buf && strcmp(buf, "id,d,x,ok,none\na,0,0.5,false,\n"
                                     "\"b,c\",-1,1.5,true,\n") == 0);
        free(buf);
    }
    /* a CSV row off its header: the error comes back at free */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    wm_writer *w = wm_writer_new(f, WM_FMT_CSV);
    CHECK(w != NULL);
    if (w) {
        wm_writer_row(w, NULL);
        wm_writer_uint(w, "a", 1);
        wm_writer_row_end(w);
        wm_writer_row(w, NULL);
        wm_writer_uint(w, "b", 2);
        wm_writer_row_end(w);
        CHECK_EQ(wm_writer_free(w), WM_ERR_ARG);
    }
    fclose(f);
    free(buf);
}

static wm_ncu *parse(const char *text, wm_diag *d)
{
    wm_ncu *x = NULL;
    wm_ncu_parse(text, strlen(text), &x, d);
    return x;
}

static void test_details(void)
{
    const char *t =
        "program output\r\n"
        "==PROF== Connected to process 7\r\n"
        "\"ID\",\"Kernel Name\",\"Block Size\",\"Metric Name\","
        "\"Metric Unit\",\"Metric Value\"\r\n"
        "\"0\",\"k(int, \"\"q\"\")\",\"(32, 1, 1)\",\"a.sum\",\"sector\","
        "\"1,024\"\r\n"
        "==WARNING== something\r\n"
        "\"1\",\"j\",\"(64, 1, 1)\",\"b\nc\",\"%\",\"12.50\"\r\n"
        "\"0\",\"k(int, \"\"q\"\")\",\"(32, 1, 1)\",\"c.pct\",\"%\","
        "\"n/a\"\r\n";
    wm_diag d;
    wm_ncu *x = parse(t, &d);
    CHECK(x != NULL);
    if (!x)
        return;
    CHECK(wm_ncu_page_of(x) == WM_NCU_DETAILS);
    CHECK_EQ(wm_ncu_nlaunches(x), 2);
    wm_ncu_launch l;
    wm_ncu_value v;
    CHECK(wm_ncu_launch_info(x, 0, &l));
    CHECK(strcmp(l.kernel, "k(int, \"q\")") == 0);
    CHECK(strcmp(l.block, "(32, 1, 1)") == 0);
    CHECK_EQ(l.nmetrics, 2); /* rows of ID 0 grouped, in file order */
    CHECK(wm_ncu_metric(x, 0, 0, &v) && strcmp(v.name, "a.sum") == 0 &&
          v.has_value && v.value == 1024.0 && strcmp(v.unit, "sector") == 0);
    CHECK(wm_ncu_metric(x, 0, 1, &v) && strcmp(v.name, "c.pct") == 0 &&
          !v.has_value);
    CHECK(wm_ncu_metric(x, 1, 0, &v) && strcmp(v.name, "b\nc") == 0 &&
          v.value == 12.5);
    CHECK(!wm_ncu_metric(x, 1, 1, &v) && !wm_ncu_launch_info(x, 2, &l));
    wm_ncu_free(x);
}

static void test_raw(void)
{
    const char *t = "\"ID\",\"Kernel Name\",\"x.sum\",\"y.sum\"\n"
                    "\"\",\"\",\"byte\",\"\"\n"
                    "\"0\",\"k\",\"2,048\",\"3\"\n"
                    "\"1\",\"k\",\"1\",\"\"\n";
    wm_diag d;
    wm_ncu *x = parse(t, &d);
    CHECK(x != NULL);
    if (!x)
        return;
    CHECK(wm_ncu_page_of(x) == WM_NCU_RAW);
    CHECK_EQ(wm_ncu_nlaunches(x), 2);
    wm_ncu_value v;
    CHECK(wm_ncu_metric(x, 0, 0, &v) && strcmp(v.unit, "byte") == 0 &&
          v.value == 2048.0);
    CHECK(wm_ncu_metric(x, 1, 1, &v) && !v.has_value);
    wm_ncu_free(x);
}

/* A broken export is refused with the place of its first defect. */
static void bad(const char *t, int line, int col, const char *msg)
{
    wm_diag d;
    wm_ncu *x = parse(t, &d);
    CHECK(x == NULL);
    CHECK(d.status == WM_ERR_PARSE);
    CHECK_EQ(d.line, line);
    CHECK_EQ(d.col, col);
    CHECK(strstr(d.msg, msg) != NULL);
    if (!strstr(d.msg, msg))
        fprintf(stderr, "  got: %s\n", d.msg);
    wm_ncu_free(x);
}

static void test_errors(void)
{
    const char *h = "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Value\"\n";
    char t[512];
    snprintf(t, sizeof t, "%s\"0\",\"k\",\"a\",\"1\n", h);
    bad(t, 2, 13, "unterminated quoted field"); /* the opening quote */
    snprintf(t, sizeof t, "%s\"0\",\"k\"x,\"a\",\"1\"\n", h);
    bad(t, 2, 8, "text after the closing quote");
    snprintf(t, sizeof t, "%s\"0\",\"k\",\"a\"\n", h);
    bad(t, 2, 1, "3 fields, the header has 4");
    snprintf(t, sizeof t, "%s0,k,a,1e\n", h);
    bad(t, 2, 7, "'1e' is not a number");
    snprintf(t, sizeof t, "%s0,k\",a,1\n", h);
    bad(t, 2, 4, "a quote inside an unquoted field");
    bad("==PROF== x\n==ERROR== no permission\n", 2, 1,
        "the profiler reported an error: ==ERROR== no permission");
    bad("just text\n", 1, 1, "no CSV header");
    bad("\"a\",\"b\"\n", 1, 1, "not the header");
}

int main(void)
{
    test_writer();
    test_public_writer();
    test_json_utf8();
    test_details();
    test_raw();
    test_errors();
    return check_done("test_out");
}
