/*
 * cmd_demo.c -- `warpmem demo`: the lesson's table, recomputed by the model
 * (byte for byte the lesson's "Expected output"), then the lesson's mental
 * pictures drawn from the model's results for stride 1, stride 32 and the
 * [32][33] padding fix.
 */
#include "cli.h"

#include <string.h>

/* One full-warp access: lane k reads element base + k*stride. */
static wm_access strided(wm_space space, unsigned size, long stride)
{
    wm_access a;
    memset(&a, 0, sizeof a);
    a.space = space;
    a.op = WM_OP_LD;
    a.size = size;
    a.mask = 0xffffffffu;
    for (unsigned k = 0; k < 32; k++)
        a.addr[k] = (uint64_t)(k * (unsigned long)stride * size);
    return a;
}

static wm_counts count(const wm_access *a)
{
    wm_counts c;
    (void)wm_count(wm_arch_default(), a, &c); /* valid by construction */
    return c;
}

/* The lesson's table.  The lesson counts "ideal = 4" sectors for 128 B and
 * the worst bank's distinct words; the model gives both. */
static void lesson_table(void)
{
    static const long gstrides[] = {1, 2, 8, 32}, sstrides[] = {1, 2, 32, 33};
    printf("HBM coalescing \xe2\x80\x94 32-byte sectors moved per warp "
           "(ideal = 4 for 128 B):\n");
    for (unsigned i = 0; i < 4; i++) {
        wm_access a = strided(WM_SPACE_GLOBAL, 4, gstrides[i]);
        wm_counts c = count(&a);
        printf("  stride %2ld words: %2u sectors  (%5.1f%% efficiency)\n",
               gstrides[i], c.sectors,
               100.0 * c.ideal_sectors / (double)c.sectors);
    }
    printf("\nShared-memory bank conflicts \xe2\x80\x94 worst-case lanes on one "
           "bank (ideal = 1):\n");
    for (unsigned i = 0; i < 4; i++) {
        wm_access a = strided(WM_SPACE_SHARED, 4, sstrides[i]);
        wm_counts c = count(&a);
        char note[32];
        if (c.nway == 1)
            snprintf(note, sizeof note, "conflict-free");
        else
            snprintf(note, sizeof note, "serialized x%u", c.nway);
        printf("  stride %2ld words: %2u-way  (%s)\n", sstrides[i], c.nway,
               note);
    }
}

static void picture(const char *title, wm_space space, long stride)
{
    wm_access a = strided(space, 4, stride);
    wm_counts c = count(&a);
    printf("\n%s\n", title);
    wm_draw_access(stdout, wm_arch_default(), &a, 0, 100);
    if (space == WM_SPACE_SHARED)
        printf("  => %u wavefront%s for 128 B: %s\n", c.wavefronts,
               c.wavefronts == 1 ? "" : "s",
               c.conflicts ? "the lanes serialize on one bank"
                           : "every lane has a bank of its own");
    else
        printf("  => 1 request, %u sector%s in %u line%s: %llu B used of "
               "%u B moved (%.1f%%)\n",
               c.sectors, c.sectors == 1 ? "" : "s", c.tags,
               c.tags == 1 ? "" : "s", (unsigned long long)c.bytes,
               c.sectors * 32u, 100.0 * (double)c.bytes / (c.sectors * 32.0));
}

int wm_cmd_demo(int argc, char **argv)
{
    if (argc > 1 && cli_is_help(argv[1])) {
        cli_help_command(stdout, "demo");
        return WM_EXIT_OK;
    }
    if (argc > 1)
        return cli_usage_error("demo: unexpected argument '%s'", argv[1]);
    lesson_table();
    printf("\nWhat the warp's instruction becomes (sm_90, drawn by the "
           "model):\n");
    picture("COALESCED: lane k reads float k (stride 1 word)",
            WM_SPACE_GLOBAL, 1);
    picture("UNCOALESCED: lane k reads float 32k (a 32-float row apart)",
            WM_SPACE_GLOBAL, 32);
    picture("SHARED, tile[32][32]: lane k reads tile[k][0] (stride 32 "
            "words)",
            WM_SPACE_SHARED, 32);
    picture("SHARED, padded tile[32][33]: lane k reads tile[k][0] (stride "
            "33 words)",
            WM_SPACE_SHARED, 33);
    printf("\nMore:  warpmem shared --stride 32 --explain   why, and the fixes "
           "with the model's numbers\n"
           "       warpmem expr -f examples/expr/transpose_tiled.expr   "
           "indexing over a whole grid\n"
           "       warpmem run KERNEL.ptx|.cu ...   a real kernel interpreted, "
           "per source line\n");
    return WM_EXIT_OK;
}
