#!/bin/sh
# Regenerate the committed PTX fixtures of the interpreter tests (needs nvcc).
set -e
cd "$(dirname "$0")"
nvcc -ptx -lineinfo -arch=sm_80 -o basic.ptx basic.cu
nvcc -ptx -lineinfo -arch=sm_80 -o mma.ptx mma.cu
