"""lint_ptx, the CLI's `warpmem lint` from Python: the example transposes'
verdicts as docs/lint.md gives them (the naive transpose's column store 32
sectors a request where 4 would do, the tiled one's column reads of its
shared tile 32 wavefronts), a parameter's value changing the verdict, each
error, and warpmem.testing's assertions on a Lint."""
import os

import pytest

import warpmem
from conftest import REPO

T = os.path.join(REPO, "examples", "kernels", "sm_80", "transpose.ptx")


def test_naive_transpose():
    lt = warpmem.lint_ptx(T, kernel="transpose_naive")
    assert lt.block == (32, 8, 1) and lt.worst == "high"
    assert "sm_80" in lt.profile
    ld, st = lt.verdicts
    assert (ld["op"], ld["space"], ld["kind"]) == ("ld", "global", "exact")
    assert (ld["per_request"], ld["ideal"], ld["severity"]) == (4, 4, "none")
    assert ld["stride"] == "4" and ld["form"].startswith("param1 + ")
    assert (st["op"], st["per_request"], st["ideal"]) == ("st", 32, 4)
    assert st["severity"] == "high" and st["stride"] == "4*param3"
    assert st["depends"] == "param3"  # the height sets the lane pattern
    assert st["file"].endswith("transpose.cu") and st["line"] == 32
    assert st["ptx"].startswith("st.global.f32")
    assert lt.flagged() == [st]


def test_param_value_changes_the_verdict():
    lt = warpmem.lint_ptx(T, kernel="transpose_naive", params={"3": 1})
    st = lt.verdicts[1]
    assert st["per_request"] == 4.875 and st["severity"] == "medium"


def test_tiled_transpose_bank_conflicts():
    lt = warpmem.lint_ptx(T, kernel="transpose_tiled", block=(32, 8))
    hits = lt.flagged()
    assert len(hits) == 4 and len(lt.verdicts) == 16
    assert all(h["space"] == "shared" and h["op"] == "ld" and
               h["per_request"] == 32 and h["ideal"] == 1 for h in hits)
    pd = pytest.importorskip("pandas")
    df = lt.to_pandas()
    assert isinstance(df, pd.DataFrame) and len(df) == 16


def test_lint_errors():
    with pytest.raises(ValueError, match="no kernel 'nope'"):
        warpmem.lint_ptx(T, kernel="nope")
    with pytest.raises(ValueError, match=r"block \(2048, 1, 1\)"):
        warpmem.lint_ptx(T, kernel="transpose_naive", block=2048)
    with pytest.raises(ValueError, match="64-bit integer"):
        warpmem.lint_ptx(T, kernel="transpose_naive", params={"3": 1.5})
    with pytest.raises(TypeError, match="dict of parameter"):
        warpmem.lint_ptx(T, kernel="transpose_naive", params=[("3", 1)])
    # one kernel's body does not parse: linting it says where, the others
    # still lint
    with open(T) as f:
        t = f.read()
    j = t.index("bar.sync", t.index(".entry transpose_tiled"))
    bad = t[:j] + "mov.u32 %r1, ;\n\t" + t[j:]
    with pytest.raises(ValueError, match=r"<ptx>:\d+:2: mov.u32 needs 2 "
                                         "operands, got 1"):
        warpmem.lint_ptx(bad, kernel="transpose_tiled")
    assert len(warpmem.lint_ptx(bad, kernel="transpose_naive").verdicts) == 2


def test_testing_assertions_take_a_lint():
    """warpmem.testing's static use: the assertions read Lint.lines as they
    read a run's Report.lines."""
    from warpmem.testing import assert_coalesced, assert_no_bank_conflicts
    naive = warpmem.lint_ptx(T, kernel="transpose_naive")
    assert naive.kernel == "transpose_naive"
    assert naive.info.display == "transpose_naive"
    with pytest.raises(AssertionError, match=r"transpose\.cu:32 \(out\[x \* "
                       r"height \+ y\] = in\[y \* width \+ x\];\), global st: "
                       r"32\.0 sectors per request where 4\.0 would do \(224 "
                       r"excessive sectors over 8 requests\)"):
        assert_coalesced(naive)
    assert_coalesced(naive, max_excessive=224)
    tiled = warpmem.lint_ptx(T, kernel="transpose_tiled")
    assert_coalesced(tiled)
    with pytest.raises(AssertionError, match=r"32\.0 wavefronts per request "
                       r"where 1\.0 would do \(992 conflicts over 32 "
                       r"requests, worst 32-way\)"):
        assert_no_bank_conflicts(tiled)
    assert_no_bank_conflicts(warpmem.lint_ptx(T, kernel="transpose_padded"))
    with pytest.raises(AssertionError, match="no shared memory instruction "
                                             "at line 3 "):
        assert_no_bank_conflicts(tiled, line=3)
