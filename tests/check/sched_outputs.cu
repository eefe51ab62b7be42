/*
 * sched_outputs.cu -- results that depend on the warp order and lie where
 * only the schedule comparison of `warpmem run --check race` sees them: a
 * surface (the tracker does not follow surface stores) and a module
 * variable read back (--global NAME=...:out=PATH).  docs/check.md,
 * "Schedules"; the tests run each kernel with the launch its comment
 * gives.
 */

/* RACY (block 64, one surf2d:s32[64x1]): every thread writes its index to
   texel (0, 0); the last warp to run decides what stays. */
extern "C" __global__ void surf_last_writer(cudaSurfaceObject_t s)
{
    surf2Dwrite((int)threadIdx.x, s, 0, 0);
}

/* CLEAN (block 64, the same surface): each thread writes its own texel. */
extern "C" __global__ void surf_own_texel(cudaSurfaceObject_t s)
{
    surf2Dwrite((int)threadIdx.x, s, threadIdx.x * 4, 0);
}

__device__ int last_thread;

/* RACY (block 64, --global last_thread=i32[1]:out=PATH): the same race
   through a module variable, which the tracker sees too. */
extern "C" __global__ void var_last_writer()
{
    last_thread = threadIdx.x;
}
