/*
 * lab_synth.c -- synthetic warpmem-lab results, written by the lab's own
 * JSON writer, for the tests of lab/device_report.py and the dry run of
 * lab/device-check.sh (no GPU needed):
 *
 *   lab_synth DIR          write DIR/lab.json (a timed run) and
 *                          DIR/once.json (a --once run)
 *
 * Nothing here is a measurement.  The timed run gives every row a
 * bandwidth of 4000 GB/s times its predicted value (smem rows: 1 ms times
 * their n-way), so the reports have numbers to work on, and marks one row
 * as timed at other clocks.  The --once run holds a few rows with small
 * launches (so `warpmem run` on them is quick) and every status the
 * ncu matching must survive: checked rows, a failed check before a
 * checked row of the same kernel (E6.b32.2way, E6.b32.4way), and a row
 * whose launch failed (E3.off1, no launch).  lab/tests/data/ncu.csv is
 * the matching Nsight Compute export, written by hand.
 *
 * The committed copies in lab/tests/data/ must equal this program's
 * output (ctest lab_synthetic_current), so a change to the writer shows
 * up there.
 */
#include "lab.h"

#include <stdio.h>
#include <string.h>

static lab_table t;

static void env_common(lab_env *e)
{
    memset(e, 0, sizeof *e);
    e->have_device = 1;
    snprintf(e->device, sizeof e->device, "synthetic (no GPU)");
    e->cc_major = 9;
    e->cc_minor = 0;
    e->sms = 2;
    e->l2_bytes = 1 << 20;
    e->mem_bytes = 1ll << 32;
    e->driver = 13000;
    e->runtime = 13000;
    snprintf(e->date, sizeof e->date, "2026-01-01T00:00:00Z");
    e->have_clocks = 1;
    e->cublas = 1;
    snprintf(e->commit, sizeof e->commit, "synthetic");
    e->sm_mhz[0] = 345;
    e->mem_mhz[0] = 3201;
    e->sm_mhz[1] = e->sm_mhz[2] = 1980;
    e->mem_mhz[1] = e->mem_mhz[2] = 3201;
}

/* A timed run of every row. */
static int write_lab(FILE *f)
{
    lab_env e;
    env_common(&e);
    e.buf_bytes = 1ll << 30;
    e.matrix_n = 16384;
    e.lesson_n = 8192;
    e.repeat = 10;
    lab_table_select(&t, NULL, NULL, 0);
    for (size_t i = 0; i < t.nrows; i++) {
        lab_row *r = &t.rows[i];
        lab_meas *m = &r->meas;
        double rel = r->pred.has ? r->pred.efficiency : 1.0;
        r->selected = 1;
        m->status = LAB_ST_OK;
        m->samples = 10;
        m->launches = 4;
        m->warmup_ms = 200.0;
        m->kernel_launches = *lab_kind_symbol(r->kind) ? 1000 : 0;
        m->sm_mhz = 1980;
        m->mem_mhz = 3201;
        if (r->type == LAB_ROW_SMEM) {
            m->ms_med = r->pred.nway_pred > 0 ? r->pred.nway_pred : 1.0;
        } else {
            m->bytes = 2.0 * (double)(1ll << 30);
            m->gbs_med = 4000.0 * rel;
            m->ms_med = m->bytes / (m->gbs_med * 1e9) * 1e3;
            m->gbs_min = m->gbs_med * 0.99;
            m->gbs_max = m->gbs_med * 1.01;
        }
        m->ms_min = m->ms_med * 0.99;
        m->ms_max = m->ms_med * 1.01;
        if (strcmp(r->id, "E0.copy") == 0)
            e.c_ref_gbs = m->gbs_med;
    }
    /* one row ran at a lower SM clock: the writers must say so */
    t.rows[lab_table_find(&t, "E5.tile")].meas.sm_mhz = 1755;
    lab_write(f, &t, &e, WM_FMT_JSON, 0);
    return ferror(f);
}

/* The launch of a --once row, as gpu.cu's make_plan would describe it for
 * the small buffers used here. */
static void once_row(const char *id, lab_status st, unsigned launches,
                     unsigned grid, const char *args, const char *note)
{
    int i = lab_table_find(&t, id);
    lab_meas *m;
    if (i < 0) {
        fprintf(stderr, "lab_synth: no row %s\n", id);
        return;
    }
    m = &t.rows[i].meas;
    t.rows[i].selected = 1;
    m->status = st;
    m->kernel_launches = launches;
    m->grid[0] = grid;
    m->grid[1] = m->grid[2] = grid ? 1 : 0;
    m->block[0] = grid ? 256 : 0;
    m->block[1] = m->block[2] = grid ? 1 : 0;
    snprintf(m->args, sizeof m->args, "%s", args);
    snprintf(m->note, sizeof m->note, "%s", note);
}

/* A --once run of a few rows, with every status. */
static int write_once(FILE *f)
{
    lab_env e;
    env_common(&e);
    e.once = 1;
    e.buf_bytes = 131072;
    e.matrix_n = 64;
    e.lesson_n = 64;
    e.repeat = 10;
    for (size_t i = 0; i < t.nrows; i++) {
        memset(&t.rows[i].meas, 0, sizeof t.rows[i].meas);
        t.rows[i].selected = 0;
    }
    once_row("E0.memcpy", LAB_ST_CHECKED, 0, 0, "", "");
    once_row("E0.copy", LAB_ST_CHECKED, 1, 8,
             "u32[32768] u32[32768] i64=8192", "");
    once_row("E2.read.s1", LAB_ST_CHECKED, 1, 32,
             "u32[32768] u64[32] i64=32768 i32=1", "");
    once_row("E2.read.s2", LAB_ST_CHECKED, 1, 16,
             "u32[32768] u64[16] i64=16384 i32=2", "");
    once_row("E3.off1", LAB_ST_ERROR, 0, 31,
             "u32[32768] u32[32768] i64=31744 i32=1",
             "launch: invalid argument (synthetic)");
    once_row("E6.b32.free", LAB_ST_CHECKED, 1, 16,
             "u32[4096] i32=32 i32=1 i32=0 i32=64", "");
    once_row("E6.b32.2way", LAB_ST_FAILED, 1, 16,
             "u32[4096] i32=2 i32=32 i32=1 i32=64",
             "thread 1: sum 0, want 480 (synthetic)");
    once_row("E6.b32.4way", LAB_ST_CHECKED, 1, 16,
             "u32[4096] i32=4 i32=32 i32=1 i32=64", "");
    once_row("E6.b128.free", LAB_ST_CHECKED, 1, 16,
             "u32[4096] i32=32 i32=4 i32=0 i32=64", "");
    lab_write(f, &t, &e, WM_FMT_JSON, 0);
    return ferror(f);
}

static int write_file(const char *dir, const char *name,
                      int (*fn)(FILE *f))
{
    char path[1024];
    FILE *f;
    int bad;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "w");
    if (f == NULL) {
        perror(path);
        return 1;
    }
    bad = fn(f);
    if (fclose(f) != 0 || bad) {
        perror(path);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: lab_synth DIR\n");
        return 2;
    }
    if (lab_table_build(&t) != WM_OK) {
        fprintf(stderr, "lab_synth: the model failed\n");
        return 1;
    }
    if (write_file(argv[1], "lab.json", write_lab) ||
        write_file(argv[1], "once.json", write_once))
        return 1;
    return 0;
}
