// Regression corpus: the reserved shared-memory special registers that
// cooperative groups read (%reserved_smem_offset_begin/end/cap/1), read
// through inline PTX.  Thread 0 reports begin, end - begin, the cap, and
// whether offset_1 lies inside the area; every warp's lane 0 then counts
// itself in the reserved word at offset_1 and thread 0 reads the total.
extern "C" __global__ void reserved_smem(unsigned *out)
{
    __shared__ unsigned user[40];
    unsigned begin, end, cap, w1;
    asm volatile("mov.u32 %0, %%reserved_smem_offset_begin;" : "=r"(begin));
    asm volatile("mov.u32 %0, %%reserved_smem_offset_end;" : "=r"(end));
    asm volatile("mov.u32 %0, %%reserved_smem_offset_cap;" : "=r"(cap));
    asm volatile("mov.u32 %0, %%reserved_smem_offset_1;" : "=r"(w1));
    if (threadIdx.x < 40)
        user[threadIdx.x] = threadIdx.x * 3;
    if (threadIdx.x == 0)
        asm volatile("st.shared.u32 [%0], 0;" ::"r"(w1));
    __syncthreads();
    if (threadIdx.x % 32 == 0)
        asm volatile("atom.shared.add.u32 _, [%0], 1;" ::"r"(w1));
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned total;
        asm volatile("ld.shared.u32 %0, [%1];" : "=r"(total) : "r"(w1));
        out[0] = begin >= sizeof user ? 1 : 0;
        out[1] = end - begin;
        out[2] = cap;
        out[3] = w1 >= begin && w1 + 4 <= end;
        out[4] = total;
        out[5] = user[7];
    }
}
