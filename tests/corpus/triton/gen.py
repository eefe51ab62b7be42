# Compile the corpus kernels for sm_90 with Triton and write their PTX
# beside them (no GPU needed).  Run: python3 tests/corpus/triton/gen.py
#   matmul.py      -> matmul_sm_90.ptx        fp16 matmul, 64 x 64 tiles
#   matmul.py      -> matmul_ctas2_sm_90.ptx  the same, num_ctas=2
#                                             (128 x 64 tiles, clusters of 2)
#   attention.py   -> attention_sm_90.ptx     attention forward
#   matmul_fp8.py  -> matmul_fp8_sm_90.ptx    e4m3 matmul
#   matmul_splitk.py -> matmul_splitk_sm_90.ptx  split-K matmul, the
#                                             partial tiles added atomically
#   quant_fp8.py   -> quant_fp8_sm_90.ptx     fp8 quantisation, L2 policies
import os
import sys

import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

here = os.path.dirname(os.path.abspath(__file__))
site = os.path.dirname(os.path.dirname(os.path.abspath(triton.__file__)))
sys.path.insert(0, here)
from attention import attention  # noqa: E402
from matmul import matmul  # noqa: E402
from matmul_fp8 import matmul_fp8  # noqa: E402
from matmul_splitk import matmul_splitk  # noqa: E402
from quant_fp8 import quant_fp8  # noqa: E402

MM = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "M": "i32",
      "N": "i32", "K": "i32", "BM": "constexpr", "BN": "constexpr",
      "BK": "constexpr"}


def gen(out, fn, signature, constexprs, attrs=None, **options):
    src = ASTSource(fn=fn, signature=signature, constexprs=constexprs,
                    attrs=attrs or {})
    k = triton.compile(src, target=GPUTarget("cuda", 90, 32),
                       options=dict(num_warps=4, **options))
    # relative .file paths: this folder's, and Triton's own library files
    # (tl.max, tl.sum inlined) below its package's parent
    ptx = k.asm["ptx"].replace(here + "/", "").replace(site + "/", "")
    with open(os.path.join(here, out), "w") as f:
        f.write(ptx)


gen("matmul_sm_90.ptx", matmul, MM, {"BM": 64, "BN": 64, "BK": 32})
gen("matmul_ctas2_sm_90.ptx", matmul, MM, {"BM": 128, "BN": 64, "BK": 32},
    num_ctas=2)
gen("attention_sm_90.ptx", attention,
    {"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "o_ptr": "*fp32",
     "L": "i32", "qk_scale": "fp32", "D": "constexpr", "BM": "constexpr",
     "BN": "constexpr"}, {"D": 64, "BM": 64, "BN": 64})
gen("matmul_fp8_sm_90.ptx", matmul_fp8,
    {"a_ptr": "*fp8e4nv", "bt_ptr": "*fp8e4nv", "c_ptr": "*fp32", "M": "i32",
     "N": "i32", "K": "i32", "BM": "constexpr", "BN": "constexpr",
     "BK": "constexpr"}, {"BM": 64, "BN": 64, "BK": 64})
# the pointers and sizes are multiples of 16, as Triton's launcher tells
# the compiler when the arguments are: the tile's adds become .v4 atomics
gen("matmul_splitk_sm_90.ptx", matmul_splitk, dict(MM, SPLIT="constexpr"),
    {"BM": 64, "BN": 64, "BK": 32, "SPLIT": 2},
    attrs={(i,): [["tt.divisibility", 16]] for i in range(6)})
gen("quant_fp8_sm_90.ptx", quant_fp8,
    {"x_ptr": "*fp32", "q_ptr": "*fp8e4nv", "y_ptr": "*fp32", "n": "i32",
     "scale": "fp32", "BLOCK": "constexpr"}, {"BLOCK": 256})
