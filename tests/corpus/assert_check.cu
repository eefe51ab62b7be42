// Regression corpus: a kernel with assert() (a $str symbol and a call
// to __assertfail): it runs normally while the assertion holds, and
// reports the failed assertion when it does not.
#include <cassert>

extern "C" __global__ void assert_check(const int *idx, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = idx[i];
    assert(j >= 0 && j < n);
    out[i] = (float)j * 0.5f;
}
