// Regression corpus: cooperative groups' tiles narrower than a warp, as
// reductions and stream compaction use them.  tiled_partition<16> gives
// each half of a warp a membermask of its own (0x0000ffff, 0xffff0000),
// and both halves issue the same redux.sync, vote.sync and match.sync
// together: each lane's result is its half's.  `tile16` writes, per
// thread, the tile's sum (cg::reduce: redux.sync.add on sm_80 and up),
// its maximum, the ballot and any/all of "v is odd", how many lanes of
// the tile hold v's value (match_any), and the value of the tile's lane
// 3 (shfl within the tile).  `partitions` does the same with groups made
// at run time: the odd values' coalesced group, a labeled partition by
// v % 4 and a binary partition by v > 0 (match.any.sync, then redux.sync
// with each lane's group as its membermask).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

extern "C" __global__ void tile16(unsigned *out, const unsigned *in, int n)
{
    auto tile = cg::tiled_partition<16>(cg::this_thread_block());
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = i < n ? in[i] : 0;
    unsigned *o = out + 8 * i;
    o[0] = cg::reduce(tile, v, cg::plus<unsigned>());
    o[1] = cg::reduce(tile, v, cg::greater<unsigned>());
    o[2] = tile.ballot(v & 1);
    o[3] = tile.any(v & 1) + 2 * tile.all(v & 1);
    o[4] = __popc(tile.match_any(v));
    o[5] = tile.shfl(v, 3);
    o[6] = tile.thread_rank();
    o[7] = tile.meta_group_rank();
}

extern "C" __global__ void partitions(int *out, const int *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    int *o = out + 6 * i;
    o[0] = o[1] = -1;
    if (v & 1) {
        cg::coalesced_group g = cg::coalesced_threads();
        o[0] = cg::reduce(g, v, cg::plus<int>());
        o[1] = g.thread_rank() + 100 * g.shfl(v, 0);
    }
    auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    auto lp = cg::labeled_partition(warp, v & 3);
    o[2] = cg::reduce(lp, v, cg::plus<int>());
    o[3] = lp.size() + 100 * lp.thread_rank();
    auto bp = cg::binary_partition(warp, v > 0);
    o[4] = cg::reduce(bp, v, cg::greater<int>());
    o[5] = bp.size();
}
