#!/usr/bin/env python3
"""gen-py-ptx.py -- regenerate the Triton and numba PTX fixtures of tests/ptx/.

    pip install triton numba-cuda numpy
    python3 scripts/gen-py-ptx.py

Both compilers produce PTX without a GPU.  Writes tests/ptx/triton_add.ptx
(a Triton vector add for sm_90) and tests/ptx/numba_axpy.ptx (a numba
kernel over a 1-D and a 2-D array and a scalar, for sm_80).  The tests
run on the committed files, so neither compiler is needed to run them.
Machine paths in .file directives are replaced by the script's base name.
"""
import os
import re
import sys

cuda = None  # numba.cuda, imported by gen_numba
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "tests", "ptx")


def strip_paths(ptx):
    """.file N "/abs/dir/x.py" -> .file N "x.py" (no machine path kept)."""
    return re.sub(r'(\.file\s+\d+\s+)"([^"]*/)?([^"/]*)"',
                  lambda m: '%s"%s"' % (m.group(1), m.group(3)), ptx)


def gen_triton():
    import triton
    import triton.language as tl

    @triton.jit
    def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        pid = tl.program_id(0)
        offs = pid * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask)
        y = tl.load(y_ptr + offs, mask=mask)
        tl.store(out_ptr + offs, x + y, mask=mask)

    src = triton.compiler.ASTSource(
        fn=add_kernel,
        signature={"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32",
                   "n": "i32", "BLOCK": "constexpr"},
        constexprs={"BLOCK": 256})
    target = triton.backends.compiler.GPUTarget("cuda", 90, 32)
    k = triton.compile(src, target=target)
    return k.asm["ptx"]


def axpy(out, x, a, m):
    """numba kernel: out[i] = a * x[i] + m[i % rows, 0]."""
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = a * x[i] + m[i % m.shape[0], 0]


def gen_numba():
    global cuda
    from numba import cuda, float32
    ptx, _ = cuda.compile_ptx(axpy, (float32[::1], float32[::1], float32,
                                      float32[:, ::1]),
                              cc=(8, 0), lineinfo=True)
    return ptx


def main():
    for name, gen in (("triton_add.ptx", gen_triton),
                      ("numba_axpy.ptx", gen_numba)):
        ptx = strip_paths(gen())
        with open(os.path.join(OUT, name), "w") as f:
            f.write(ptx)
        print("wrote tests/ptx/" + name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
