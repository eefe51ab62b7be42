// Regression corpus: cooperative groups' tiles narrower than a warp, as
// reductions and stream compaction use them.  tiled_partition<16> gives
// each half of a warp a membermask of its own (0x0000ffff, 0xffff0000),
// and both halves issue the same redux.sync, vote.sync and match.sync
// together: each lane's result is its half's.  `tile16` writes, per
// thread, the tile's sum (cg::reduce: redux.sync.add on sm_80 and up),
// its maximum, the ballot and any/all of "v is odd", how many lanes of
// the tile hold v's value (match_any), and the value of the tile's lane
// 3 (shfl within the tile).
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
