#!/usr/bin/env python3
"""Write the seed corpus of fuzz_npy (fuzz/corpus/npy/): .npy files
written by NumPy (every --arg dtype, shapes of 0 to 5 dimensions, format
versions 1.0, 2.0 and 3.0, Fortran order, dtypes the reader refuses) and
hand-made headers at the edges of the format.  Run it from the repository
root with a Python that has NumPy:  python3 fuzz/npy_seeds.py"""
import io
import os

import numpy as np
from numpy.lib import format as npf

OUT = "fuzz/corpus/npy"


def save(name, arr, version=None):
    buf = io.BytesIO()
    npf.write_array(buf, arr, version=version, allow_pickle=False)
    with open(os.path.join(OUT, name + ".npy"), "wb") as f:
        f.write(buf.getvalue())


def raw(name, header, data=b"", version=1, hlen=None):
    """A hand-made file: the preamble, header text (padded to 64 bytes)
    and data; hlen overrides the stored header length."""
    pre = 10 if version == 1 else 12
    text = header.encode()
    text += b" " * ((64 - (pre + len(text) + 1) % 64) % 64) + b"\n"
    n = len(text) if hlen is None else hlen
    size = n.to_bytes(2 if version == 1 else 4, "little")
    with open(os.path.join(OUT, name + ".npy"), "wb") as f:
        f.write(b"\x93NUMPY" + bytes([version, 0]) + size + text + data)


def main():
    os.makedirs(OUT, exist_ok=True)
    for dt in ["i1", "u1", "<i2", "<u2", "<i4", "<u4", "<i8", "<u8",
               "<f2", "<f4", "<f8"]:
        save("iota8_" + dt.strip("<"), np.arange(8, dtype=dt))
    save("shape_0d", np.array(7, dtype="<i4"))
    save("shape_empty", np.zeros((0,), dtype="<f4"))
    save("shape_2x0", np.zeros((2, 0), dtype="<f4"))
    save("shape_2x3", np.arange(6, dtype="<f8").reshape(2, 3))
    save("shape_2x3x4", np.arange(24, dtype="<i2").reshape(2, 3, 4))
    save("shape_1x2x1x2", np.arange(4, dtype="<u4").reshape(1, 2, 1, 2))
    save("shape_5d", np.zeros((1, 1, 2, 1, 2), dtype="u1"))
    save("fortran_2x3", np.asfortranarray(np.arange(6, dtype="<f4").reshape(2, 3)))
    save("version2", np.arange(4, dtype="<f4"), version=(2, 0))
    save("version3", np.arange(4, dtype="<i4"), version=(3, 0))
    save("big_endian", np.arange(4, dtype=">f4"))
    save("bool", np.array([True, False]))
    save("complex", np.arange(2, dtype="<c8"))
    save("unicode", np.array(["ab", "c"]))
    save("structured", np.zeros(2, dtype=[("x", "<f4"), ("y", "<i4")]))
    four = np.arange(4, dtype="<f4").tobytes()
    raw("double_quotes", '{"descr": "<f4", "fortran_order": False, "shape": (4,)}', four)
    raw("keys_reordered", "{'shape': (4,), 'fortran_order': False, 'descr': '<f4'}", four)
    raw("no_trailing_comma", "{'descr':'<f4','fortran_order':False,'shape':(2,2)}", four)
    raw("not_a_tuple", "{'descr': '<f4', 'fortran_order': False, 'shape': (4), }", four)
    raw("negative_dim", "{'descr': '<f4', 'fortran_order': False, 'shape': (-4,), }", four)
    raw("huge_dims", "{'descr': '<f4', 'fortran_order': False, 'shape': "
        "(4294967296, 4294967296, 4), }", four)
    raw("missing_key", "{'descr': '<f4', 'shape': (4,), }", four)
    raw("duplicate_key", "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, "
        "'shape': (4,), }", four)
    raw("unknown_key", "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), "
        "'x': 1, }", four)
    raw("text_after", "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), } x", four)
    raw("empty_key", "{'': '<f4', 'fortran_order': False, 'shape': (4,), }", four)
    raw("unterminated", "{'descr': '<f4, 'fortran_order': False, 'shape': (4,), }", four)
    raw("header_past_end", "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }",
        b"", hlen=4000)
    raw("short_data", "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", four[:7])
    raw("long_data", "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", four + b"x")
    raw("version4", "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", four,
        version=4)
    with open(os.path.join(OUT, "magic_only.npy"), "wb") as f:
        f.write(b"\x93NUMPY\x01\x00")


if __name__ == "__main__":
    main()
