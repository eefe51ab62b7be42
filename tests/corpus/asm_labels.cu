// Inline assembly with a local label, inlined twice into one kernel: each
// copy is its own { } block with its own LOOP label, and each branch must
// go to the label of its own block.  The second loop's trip count differs
// from lane to lane.
__device__ __forceinline__ unsigned add_n(unsigned v, unsigned n)
{
    unsigned r;
    asm volatile("{\n\t"
                 ".reg .pred p;\n\t"
                 ".reg .u32 i;\n\t"
                 "mov.u32 i, 0;\n\t"
                 "mov.u32 %0, %1;\n"
                 "LOOP:\n\t"
                 "add.u32 %0, %0, 1;\n\t"
                 "add.u32 i, i, 1;\n\t"
                 "setp.lt.u32 p, i, %2;\n\t"
                 "@p bra LOOP;\n\t"
                 "}"
                 : "=r"(r)
                 : "r"(v), "r"(n));
    return r;
}

__global__ void asm_labels(unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned a = add_n(i, 3);
        out[i] = add_n(a, i % 5 + 1);
    }
}
