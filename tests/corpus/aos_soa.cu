// Regression corpus: the same update on an array of structs (strided,
// wasteful) and on a struct of arrays (coalesced).
struct particle {
    float x, y, z, w;
};

extern "C" __global__ void aos(particle *p, float dt)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    p[i].x += dt * p[i].w;
}

extern "C" __global__ void soa(float *x, const float *w, float dt)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] += dt * w[i];
}
