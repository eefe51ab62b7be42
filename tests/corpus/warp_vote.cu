// Regression corpus: warp-level ballot/popc compaction: each warp counts
// its positive inputs and writes them packed at its lanes' ranks.
extern "C" __global__ void warp_vote(const int *in, int *out, int *count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    unsigned lane = threadIdx.x % warpSize;
    unsigned m = __ballot_sync(0xffffffffu, v > 0);
    unsigned rank = __popc(m & ((1u << lane) - 1));
    if (v > 0)
        out[(i / warpSize) * warpSize + rank] = v;
    if (lane == 0)
        count[i / warpSize] = __popc(m);
}
