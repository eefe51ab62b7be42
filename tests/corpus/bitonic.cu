// Regression corpus: a bitonic sort of 256 keys in shared memory (one
// block), with data-dependent swaps.
extern "C" __global__ void bitonic(int *keys)
{
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = keys[blockIdx.x * 256 + t];
    __syncthreads();
    for (int k = 2; k <= 256; k *= 2)
        for (int j = k / 2; j > 0; j /= 2) {
            int p = t ^ j;
            if (p > t) {
                int a = s[t], b = s[p];
                bool up = (t & k) == 0;
                if ((a > b) == up) {
                    s[t] = b;
                    s[p] = a;
                }
            }
            __syncthreads();
        }
    keys[blockIdx.x * 256 + t] = s[t];
}
