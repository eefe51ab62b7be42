#!/bin/sh
# Regenerate the committed PTX fixture of the interpreter tests (needs nvcc).
# The .file path of basic.cu is made relative so no machine path is kept.
set -e
cd "$(dirname "$0")"
nvcc -ptx -lineinfo -arch=sm_80 -o basic.ptx basic.cu
sed -i 's|^\(\s*\.file\s*1\s*"\)[^"]*/basic\.cu"|\1basic.cu"|' basic.ptx
nvcc -ptx -lineinfo -arch=sm_80 -o tensor.ptx tensor.cu
sed -i 's|^\(\s*\.file\s*1\s*"\)[^"]*/tensor\.cu"|\1tensor.cu"|' tensor.ptx
nvcc -ptx -lineinfo -arch=sm_80 -o sig.ptx sig.cu
sed -i 's|^\(\s*\.file\s*1\s*"\)[^"]*/sig\.cu"|\1sig.cu"|' sig.ptx
# triton_add.ptx and numba_axpy.ptx: scripts/gen-py-ptx.py (Triton, numba)
