# Compile tdesc.py's kernels for sm_90 with Triton (3.3+: device-side
# tensor descriptors) and write their PTX beside it (no GPU needed).
# Run: python3 tests/corpus/triton/gen_tdesc.py
import os
import sys

import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from tdesc import desc_matmul, desc_scale  # noqa: E402

ALIGN = [["tt.divisibility", 16]]
kernels = {
    "tdesc_scale": (desc_scale,
                    {"a_ptr": "*fp32", "b_ptr": "*fp32", "M": "i32",
                     "N": "i32", "BM": "constexpr", "BN": "constexpr"},
                    {"BM": 32, "BN": 32}, [0, 1]),
    "tdesc_matmul": (desc_matmul,
                     {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32",
                      "M": "i32", "N": "i32", "K": "i32",
                      "BM": "constexpr", "BN": "constexpr",
                      "BK": "constexpr"},
                     {"BM": 64, "BN": 64, "BK": 32}, [0, 1, 2]),
}
for name, (fn, sig, consts, ptrs) in kernels.items():
    src = ASTSource(fn=fn, signature=sig, constexprs=consts,
                    attrs={(i,): ALIGN for i in ptrs})
    k = triton.compile(src, target=GPUTarget("cuda", 90, 32),
                       options={"num_warps": 4})
    ptx = k.asm["ptx"].replace(here + "/", "")
    with open(os.path.join(here, name + "_sm_90.ptx"), "w") as f:
        f.write(ptx)
    print(name, "global scratch per program:",
          k.metadata.global_scratch_size, "shared:", k.metadata.shared)
