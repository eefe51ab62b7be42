# Compile matmul.py for sm_90 with Triton and write its PTX beside it
# (no GPU needed).  Run: python3 tests/corpus/triton/gen.py
import os
import sys

import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from matmul import matmul  # noqa: E402

src = ASTSource(fn=matmul,
                signature={"a_ptr": "*fp16", "b_ptr": "*fp16",
                           "c_ptr": "*fp32", "M": "i32", "N": "i32",
                           "K": "i32", "BM": "constexpr", "BN": "constexpr",
                           "BK": "constexpr"},
                constexprs={"BM": 64, "BN": 64, "BK": 32})
k = triton.compile(src, target=GPUTarget("cuda", 90, 32),
                   options={"num_warps": 4})
ptx = k.asm["ptx"].replace(here + "/", "")
with open(os.path.join(here, "matmul_sm_90.ptx"), "w") as f:
    f.write(ptx)
