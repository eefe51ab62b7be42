// A .cu for `warpmem run` tests: needs -I inc and -DFACTOR=N, and stores
// past the end of out when the grid is larger than n (no bounds check).
#include "scale.h"

__global__ void oob(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = SCALE_BY((float)i);
}
