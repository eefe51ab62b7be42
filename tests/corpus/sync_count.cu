// Regression corpus: the block-wide votes __syncthreads_count / _and / _or
// (bar.red.popc.u32, bar.red.and.pred, bar.red.or.pred).  `block_compact`
// is a stream compaction's first pass: each block counts the elements it
// keeps and notes whether it keeps all or none of them, so the second pass
// can skip whole blocks.  `until_converged` loops a block until no thread
// wants another round (a solver's "any residual left" test).
extern "C" __global__ void block_compact(const int *in, int *count,
                                         int *all_kept, int *none_kept, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int keep = i < n && in[i] % 3 != 0;
    int c = __syncthreads_count(keep);
    int all = __syncthreads_and(keep);
    int any = __syncthreads_or(keep);
    if (threadIdx.x == 0) {
        count[blockIdx.x] = c;
        all_kept[blockIdx.x] = all;
        none_kept[blockIdx.x] = !any;
    }
}

extern "C" __global__ void until_converged(int *x, int *rounds)
{
    int v = x[blockIdx.x * blockDim.x + threadIdx.x];
    int r = 0;
    while (__syncthreads_or(v > 1)) { // halve until every value is 0 or 1
        v = v > 1 ? v / 2 : v;
        r++;
    }
    x[blockIdx.x * blockDim.x + threadIdx.x] = v;
    if (threadIdx.x == 0)
        rounds[blockIdx.x] = r;
}
