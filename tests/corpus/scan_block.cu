// Regression corpus: an inclusive block scan (Hillis-Steele) in shared
// memory with a double buffer.
extern "C" __global__ void scan_block(const int *in, int *out)
{
    __shared__ int buf[2][256];
    int t = threadIdx.x, p = 0;
    buf[0][t] = in[blockIdx.x * 256 + t];
    __syncthreads();
    for (int o = 1; o < 256; o *= 2) {
        int v = buf[p][t];
        if (t >= o)
            v += buf[p][t - o];
        buf[1 - p][t] = v;
        p = 1 - p;
        __syncthreads();
    }
    out[blockIdx.x * 256 + t] = buf[p][t];
}
