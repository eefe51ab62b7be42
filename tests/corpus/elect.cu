// One leader per coalesced group: cooperative groups' invoke_one, which
// is elect.sync on sm_90 (and a lowest-lane ballot before).  Lanes whose
// key is a multiple of 3 form a group; its leader adds the group's size
// to the histogram bin of its own key and records its lane.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void elect_hist(int *bins, int *leader, const int *keys, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int k = keys[i];
    if (k % 3 == 0) {
        cg::coalesced_group g = cg::coalesced_threads();
        cg::invoke_one(g, [&] {
            atomicAdd(&bins[k & 7], (int)g.size());
            leader[i / 32] = threadIdx.x % 32;
        });
    }
}
