"""check=, cache=, on_hazard= and on_fault= on numba, Triton and raw PTX
kernels: the hazards a missing barrier makes, the hierarchy model's
numbers, and how they reach Python (warning, exception, records)."""
import os
import warnings

import numpy as np
import pytest

import warpmem
from conftest import REPO

CHECK_PTX = os.path.join(REPO, "tests", "check", "ptx")


def _numba():
    pytest.importorskip("numba.cuda")
    import warpmem.numba as wn
    import numba_kernels as K
    return wn, K


def test_numba_missing_syncthreads_is_reported():
    wn, K = _numba()
    x = np.arange(256, dtype=np.float32)
    out = np.zeros(256, np.float32)
    with pytest.warns(warpmem.HazardWarning, match="tile|smem") as rec:
        rep = wn.analyze(K.reverse_racy, 2, 128, out, x, check="race,init")
    # the wrong result the missing barrier gives in warp order: warp 0
    # reads slots warp 3 has not written yet
    assert (out[:64] == 0).all() and not np.array_equal(out[:128],
                                                        x[:128][::-1])
    kinds = {h["kind"] for h in rep.hazards}
    assert kinds == {"read-after-write", "write-after-read",
                     "uninitialized-read"}
    assert len(rec) == len(rep.hazards) == 3
    (raw,) = [h for h in rep.hazards if h["kind"] == "read-after-write"]
    assert raw["space"] == "shared" and raw["block"] == (0, 0, 0)
    assert raw["first_access"] == "write" and raw["second_access"] == "read"
    assert raw["first_source"] == "tile[t] = x[i]"
    assert raw["second_source"] == "out[i] = tile[BLOCK - 1 - t]"
    # thread 63 wrote slot 63 and thread 64 read it (127 - 64) with no
    # barrier between; the first occurrence is described, all counted
    assert raw["first_thread"] == [63, 0, 0]
    assert raw["second_thread"] == [64, 0, 0] and raw["index"] == (63,)
    assert raw["count"] == 128
    assert "read-after-write on shared" in raw["message"]


def test_numba_fixed_kernel_is_clean():
    wn, K = _numba()
    x = np.arange(256, dtype=np.float32)
    out = np.zeros(256, np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rep = wn.analyze(K.reverse_synced, 2, 128, out, x, check="race,init")
    np.testing.assert_array_equal(out.reshape(2, 128),
                                  x.reshape(2, 128)[:, ::-1])
    assert rep.checked and rep.hazards == []


def test_on_hazard_raise_and_ignore():
    wn, K = _numba()
    x = np.arange(256, dtype=np.float32)
    out = np.zeros(256, np.float32)
    with pytest.raises(warpmem.HazardError, match="and 2 more") as ei:
        wn.analyze(K.reverse_racy, 2, 128, out, x, check="race,init",
                   on_hazard="raise")
    assert len(ei.value.hazards) == 3 and ei.value.report.hazards
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rep = wn.analyze(K.reverse_racy, 2, 128, out, x, check="race",
                         on_hazard="ignore")
    # race only: no uninitialized-read
    assert {h["kind"] for h in rep.hazards} == {"read-after-write",
                                               "write-after-read"}
    with pytest.raises(ValueError, match="on_hazard"):
        wn.analyze(K.reverse_racy, 2, 128, out, x, check="race",
                   on_hazard="log")
    with pytest.raises(ValueError, match="check: 'races'"):
        wn.analyze(K.reverse_racy, 2, 128, out, x, check="races")


def test_hazards_dataframe():
    pd = pytest.importorskip("pandas")
    wn, K = _numba()
    x = np.arange(256, dtype=np.float32)
    out = np.zeros(256, np.float32)
    rep = wn.analyze(K.reverse_racy, 2, 128, out, x, check="race,init",
                     on_hazard="ignore")
    df = rep.to_pandas(by="hazard")
    assert isinstance(df, pd.DataFrame) and len(df) == 3
    assert set(df["kind"]) == {h["kind"] for h in rep.hazards}
    assert {"first_line", "second_line", "count", "message"} <= set(df)


def test_numba_hierarchy():
    wn, K = _numba()
    n = 4096
    x = np.arange(n, dtype=np.float32)
    out = np.zeros(n, np.float32)
    rep = wn.analyze(K.reverse_synced, n // 128, 128, out, x, cache=True)
    h = rep.hierarchy
    assert h["gpu"] == "A100"  # sm_80's default GPU
    # every byte of x read once from DRAM, out written once: no reuse
    assert h["dram_read_bytes"] == 4 * n and h["dram_write_bytes"] == 4 * n
    assert h["dram_bytes"] == 8 * n
    assert h["l1_hit_rate"] == 0 and h["l2_hit_rate"] == 0
    # 32 CTAs of 4 warps, one load each in flight: far too few bytes in
    # flight to cover DRAM latency, so the latency term wins
    assert h["bound"] == "latency" and h["time_s"] > 0
    assert h["reason"].startswith("latency-bound:")
    assert h["inflight_sm_bytes"] < h["inflight_need_bytes"]
    # one 4-byte load per thread, 4 warps, 1 CTA per SM: 512 B of misses
    # asked per SM, well within A100's 512 miss slots of 32 B
    assert h["inflight_asked_bytes"] == 512
    assert h["miss_slots"]["sectors"] == 512
    assert h["miss_slots"]["bytes"] == 16384
    # no profile has a TLB miss latency: that term is left out
    assert h["terms_missing"] == ["TLB miss latency"]
    # 32 CTAs on 32 SMs, each touching x and out, each in a 2 MiB page of
    # its own: two L1 TLB misses per SM; the shared L2 TLB misses each once
    assert h["tlb_l1_misses"] == 64 and h["tlb_l2_misses"] == 2
    assert h["time_s"] >= h["lat_s"] + max(h["dram_s"], h["l2_s"])
    assert h["whatif_s"] < h["time_s"]
    rd = [s for s in h["sites"] if s["dram_rd_bytes"]]
    assert len(rd) == 1 and rd[0]["dram_rd_bytes"] == 4 * n
    with pytest.raises(ValueError, match="cache: 'B200' is not one of"):
        wn.analyze(K.reverse_synced, 1, 128, out, x, cache="B200")
    rep2 = wn.analyze(K.reverse_synced, n // 128, 128, out, x,
                      cache="H200")
    assert rep2.hierarchy["gpu"] == "H200"
    assert rep2.hierarchy["time_s"] < h["time_s"]  # more DRAM bandwidth


def test_raw_ptx_check_and_cache():
    # a block reduction whose second loop lacks a __syncthreads (the CLI's
    # run_check_reduce_nosync test): the same write-after-read
    f = os.path.join(CHECK_PTX, "reduce_nosync_sm_80.ptx")
    out = np.zeros(1, np.float32)
    x = np.arange(256, dtype=np.float32)
    rep = warpmem.run_ptx(f, grid=1, block=256, args=[out, x],
                          check="race", cache=True, on_hazard="ignore")
    (h,) = rep.hazards
    assert h["kind"] == "write-after-read" and h["variable"] == "sdata"
    assert h["index"] == (128,) and h["count"] == 128
    assert h["first_thread"] == [0, 0, 0] and h["second_thread"] == [128, 0,
                                                                      0]
    assert h["first_file"].endswith("reduce_nosync.cu")
    assert h["first_line"] == 18 and h["second_line"] == 14
    assert rep.hierarchy["dram_read_bytes"] == 1024
    with pytest.raises(ValueError, match="uninit"):
        warpmem.run_ptx(f, grid=1, block=256, args=[out, x], check="init",
                        uninit=["nope"])


def test_global_hazards_name_the_argument():
    f = os.path.join(CHECK_PTX, "reduce_nosync_sm_80.ptx")
    out = np.zeros(1, np.float32)
    x = np.arange(256, dtype=np.float32)
    # x marked uninitialised: the first reads of it are reported in x's
    # own index
    rep = warpmem.run_ptx(f, grid=1, block=256, args=[out, x], check="init",
                          uninit=[1], on_hazard="ignore",
                          names=["out", "x"])
    (h,) = [h for h in rep.hazards if h["space"] == "global"]
    assert h["kind"] == "uninitialized-read"
    assert h["argument"] == "x" and h["index"] == (0,)
    assert "on x[0]" in h["message"]


def test_triton_clean_kernel_check_and_cache():
    pytest.importorskip("triton")
    import warpmem.triton as wt
    import triton_kernels as T
    n = 4096
    a = np.arange(n, dtype=np.float32)
    b = np.ones(n, np.float32)
    c = np.zeros(n, np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error", warpmem.HazardWarning)
        rep = wt.analyze(T.vec_add, n // 256, a, b, c, n, BLOCK=256,
                         check="race,init", cache=True)
    np.testing.assert_array_equal(c, a + b)
    assert rep.checked and rep.hazards == []
    h = rep.hierarchy
    assert h["gpu"] == "H200"
    assert h["dram_read_bytes"] == 8 * n and h["dram_write_bytes"] == 4 * n


def test_fault_as_warning():
    f = os.path.join(REPO, "tests", "ptx", "faults.ptx")
    buf = np.zeros(40, np.float32)
    with pytest.warns(warpmem.KernelFaultWarning, match="out-of-bounds"):
        rep = warpmem.run_ptx(f, kernel="oob", grid=2, block=32,
                              args=[buf, np.uint32(9)], on_fault="warn")
    assert rep.faults[0]["argument"] == "args[0]"
    assert rep.faults[0]["index"] == (40,)


def test_schedules_name_the_differing_element():
    # reduce_nosync's sum differs when the warps run in reverse order; the
    # output is out[0] whether out is its own buffer or a view 12 bytes
    # into one (an extra buffer of the launch)
    f = os.path.join(CHECK_PTX, "reduce_nosync_sm_80.ptx")
    x = np.arange(256, dtype=np.float32)
    for out, base in ((np.zeros(1, np.float32), 0),
                      (np.zeros(8, np.float32)[3:], 12)):
        rep = warpmem.run_ptx(f, grid=1, block=256, args=[out, x],
                              check="schedules", names=["out", "x"])
        sc = rep.schedules
        assert sc["differs"] and sc["other"] == "reverse"
        assert sc["name"] == "out" and sc["index"] == (0,)
        assert sc["element_name"] == "out[0]"
        assert sc["byte"] == base + 2  # the float's third byte differs
        # the element's bytes under both orders, as floats
        vals = [np.array([int(v, 16)], np.uint32).view(np.float32)[0]
                for v in sc["values"]]
        assert vals[0] == out[0] and vals[0] != vals[1]
    assert warpmem.run_ptx(f, grid=1, block=256, args=[out, x]
                           ).schedules is None


def test_check_words_compare_as_the_cli():
    # race and all compare the other warp order's outputs, or prove them
    # equal where the tracked run leaves nothing for the second run to
    # find (a race-free copy); schedules always runs the second run
    f = os.path.join(REPO, "examples", "kernels", "sm_80", "copy.ptx")
    x = np.arange(128, dtype=np.float32)
    for check, proved in (("race", True), ("all", True),
                          ("all,schedules", False), ("schedules", False),
                          (["race", "schedules"], False)):
        out = np.zeros(128, np.float32)
        rep = warpmem.run_ptx(f, grid=1, block=128, args=[out, x, 128],
                              check=check)
        sc = rep.schedules
        assert sc["proved"] is proved and not sc["differs"], check
        assert sc["other"] == "reverse"
        np.testing.assert_array_equal(out, x)
    assert warpmem.run_ptx(f, grid=1, block=128,
                           args=[np.zeros(128, np.float32), x, 128],
                           check="init").schedules is None
    # the histogram's atomic adds, whose results nothing reads, are proved
    # too; a reversed warp order would only reorder the additions
    h = os.path.join(REPO, "examples", "kernels", "sm_80", "histogram.ptx")
    data = (np.arange(1024) % 256).astype(np.uint8)
    bins = np.zeros(256, np.uint32)
    rep = warpmem.run_ptx(h, grid=4, block=256, args=[bins, data, 1024],
                          check="all")
    assert rep.schedules["proved"] is True
    assert not rep.schedules["differs"] and (bins == 4).all()


def test_schedules_views_of_one_array():
    # an array and a view of it alias in the launch (the array is its
    # parameter's buffer, the view an extra buffer over the same
    # allocation); the second schedule's run works on a copy of their
    # union, so the array holds the reported run's outputs and the inputs
    # are not mistaken for an output
    f = os.path.join(REPO, "examples", "kernels", "sm_80", "copy.ptx")
    x0 = np.arange(128, dtype=np.float32)
    x = x0.copy()
    rep = warpmem.run_ptx(f, grid=1, block=64, args=[x[64:], x, 64],
                          check="schedules", names=["out", "in", "n"])
    assert not rep.schedules["differs"]
    np.testing.assert_array_equal(x, np.concatenate([x0[:64], x0[:64]]))
    # out = in + 1: thread 32 reads x[32], which thread 31 writes; warp 0
    # runs first in order (x[33] = 31), last reversed (x[33] = 32), and
    # warp 1 reads the rest of x[33:64] before anything writes it
    x = x0.copy()
    rep = warpmem.run_ptx(f, grid=1, block=64, args=[x[1:], x, 64],
                          check="schedules", names=["out", "in", "n"])
    sc = rep.schedules
    assert sc["differs"] and sc["name"] == "in" and sc["index"] == (33,)
    vals = [np.array([int(v, 16)], np.uint32).view(np.float32)[0]
            for v in sc["values"]]
    assert vals == [31.0, 32.0]
    np.testing.assert_array_equal(x, np.concatenate([[0], x0[:32], [31],
                                                     x0[33:64], x0[65:]]))


def test_uninit_view_in_its_allocation():
    f = os.path.join(CHECK_PTX, "reduce_nosync_sm_80.ptx")
    out = np.zeros(1, np.float32)
    xb = np.zeros(512, np.float32)
    rep = warpmem.run_ptx(f, grid=1, block=256, args=[out, xb[256:]],
                          check="init", uninit=["x"], on_hazard="ignore",
                          names=["out", "x"])
    (h,) = [h for h in rep.hazards if h["space"] == "global"]
    assert h["argument"] == "x" and h["index"] == (0,)
    assert h["address"] == 1024       # x[0] is byte 1024 of xb


def test_triton_global_race_names_the_argument():
    pytest.importorskip("triton")
    import warpmem.triton as wt
    import triton_kernels as T
    x = np.arange(128, dtype=np.float32)
    out = np.zeros(32, np.float32)
    with pytest.warns(warpmem.HazardWarning, match=r"write-after-write on "
                      r"out_ptr\[0\]"):
        rep = wt.analyze(T.fold_store, 1, out, x, WIDTH=32, BLOCK=128,
                         check="race")
    (h,) = rep.hazards
    assert h["kind"] == "write-after-write" and h["space"] == "global"
    assert h["argument"] == "out_ptr" and h["index"] == (0,)
    assert h["first_thread"] == [0, 0, 0] and h["second_thread"] == [32, 0,
                                                                      0]
    assert h["first_source"] == h["second_source"] == \
        "tl.store(out_ptr + idx % WIDTH, x)"
    # warps 1, 2 and 3 each overwrite the 32 words: 96 pairs; the last
    # warp's values stay, as in warp order
    assert h["count"] == 96
    np.testing.assert_array_equal(out, x[96:])


def test_schedule_orders_the_warps():
    """schedule= is the CLI's --schedule: every lane of two warps writes its
    index to one shared word and thread 0 copies it out, so the last warp
    to store decides the value: warp 1 in order (63), warp 0 reversed
    (31); a random order gives one of the two, the same for one seed.
    With check= the reported run is the schedule given, compared with its
    reverse."""
    ptx = os.path.join(CHECK_PTX, "race_suite_sm_80.ptx")

    def last(**kw):
        o = np.zeros(1, np.int32)
        rep = warpmem.run_ptx(ptx, "warp_waw_shared", grid=1, block=64,
                              args=[o], on_hazard="ignore", **kw)
        return int(o[0]), rep

    assert last()[0] == 63
    v, rep = last(schedule="reverse")
    assert v == 31 and not rep.checked
    seeded = [last(schedule="random:%d" % s)[0] for s in range(8)]
    assert set(seeded) <= {31, 63} and len(set(seeded)) == 2
    assert seeded == [last(schedule="random:%d" % s)[0] for s in range(8)]
    v, rep = last(schedule="reverse", check="race")
    assert v == 31 and rep.schedules["reported"] == "reverse"
    assert rep.schedules["other"] == "in-order" and rep.schedules["differs"]
    for bad in ("random", "random:-1", "backwards", 3):
        with pytest.raises(ValueError, match="is not in-order, reverse or "
                                             "random:SEED"):
            last(schedule=bad)


def test_max_total_steps():
    x = np.ones(1024, np.float32)
    args = [np.zeros_like(x), x, x.size]
    path = os.path.join(REPO, "examples", "kernels", "sm_80", "copy.ptx")
    with pytest.raises(warpmem.KernelFault, match="whole-launch budget of "
                                                  "543"):
        warpmem.run_ptx(path, grid=4, block=256, args=args,
                        max_total_steps=543)
    rep = warpmem.run_ptx(path, grid=4, block=256, args=args,
                          max_total_steps=544)  # exactly what it runs
    assert rep.to_dict()["launch"]["warp_instructions"] == 544
    with pytest.raises(ValueError, match="max_total_steps"):
        warpmem.run_ptx(path, grid=4, block=256, args=args,
                        max_total_steps=-1)
