"""By-value struct parameters passed as raw bytes (more than 8 bytes)."""
import os
import struct

import pytest

import warpmem

HERE = os.path.dirname(os.path.abspath(__file__))
FOR_EACH = os.path.join(HERE, "..", "..", "tests", "corpus", "ptx",
                        "for_each_sm_80.ptx")


def test_struct_bytes_reach_the_kernel():
    # struct scale_into { const float *x; float *y; int k; }: 24 bytes.
    # x points nowhere, so the first load faults at exactly x + 4 * i:
    # the fault address proves the struct's bytes were passed unchanged.
    x = 0x00DE_AD00_0000
    raw = struct.pack("<QQi4x", x, x + 0x1000, 3)
    with pytest.raises(warpmem.KernelFault) as e:
        warpmem.run_ptx(FOR_EACH, grid=1, block=32, args=[raw, 32])
    f = e.value
    assert f.address == x + 4 * f.thread[0]
    assert "global" in str(f)


def test_struct_bytes_wrong_size():
    with pytest.raises(ValueError, match="16 bytes given for the 24-byte"):
        warpmem.run_ptx(FOR_EACH, grid=1, block=32, args=[b"\0" * 16, 32])
