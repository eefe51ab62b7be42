/*
 * kv_cache.cu -- write one fp16 key vector per token into a paged KV cache
 * with 16-byte stores (8 halves per lane), as vLLM's reshape_and_cache
 * does (VEC_SIZE 8 for fp16).  One CTA per token, thread i moves vector i
 * of the token's num_heads * head_size / 8 vectors; slot_mapping[token] is
 * the cache slot (block = slot / block_size, offset = slot % block_size).
 *
 * reshape_and_cache_f16: vLLM's key-cache layout
 *   [num_blocks][num_heads][head_size / 8][block_size][8] halves.
 *   Consecutive lanes (consecutive 8-half chunks x of a head) land
 *   block_size * 16 bytes apart, so with block_size >= 2 every lane's
 *   16 B is in its own sector: the store is 32 sectors per request against
 *   an ideal of 16 (32 lanes x 16 B / 32).  The layout favours the
 *   attention kernel's reads, not this write.
 * reshape_and_cache_flash_f16: the flash layout
 *   [num_blocks][block_size][num_heads][head_size] halves: one token's
 *   vectors are contiguous, so the store is 16 sectors = ideal.
 *
 * Expected per request (32 active lanes):
 *   ld slot_mapping[token]   8-byte, same address in all lanes: 1 sector
 *                            (the model's ideal is ceil(32 * 8 / 32) = 8)
 *   ld key vector            16-byte contiguous: 16 sectors, ideal 16
 *   st key_cache (paged)     32 sectors, ideal 16
 *   st key_cache (flash)     16 sectors, ideal 16
 */
#include <cuda_fp16.h>

extern "C" __global__ void reshape_and_cache_f16(
    __half *key_cache, const __half *key, const long long *slot_mapping,
    int num_heads, int head_size, int block_size)
{
    const int vecs_per_head = head_size / 8;
    const int nvec = num_heads * vecs_per_head;
    long long slot = slot_mapping[blockIdx.x];
    if (slot < 0)
        return;
    long long block = slot / block_size;
    int offset = (int)(slot % block_size);
    const uint4 *src = reinterpret_cast<const uint4 *>(key) +
                       (long long)blockIdx.x * nvec;
    uint4 *dst = reinterpret_cast<uint4 *>(key_cache);
    for (int i = threadIdx.x; i < nvec; i += blockDim.x) {
        int head = i / vecs_per_head;
        int x = i % vecs_per_head;
        long long d = ((block * num_heads + head) * vecs_per_head + x) *
                          block_size + offset;
        dst[d] = src[i];
    }
}

extern "C" __global__ void reshape_and_cache_flash_f16(
    __half *key_cache, const __half *key, const long long *slot_mapping,
    int num_heads, int head_size, int block_size)
{
    const int nvec = num_heads * head_size / 8;
    long long slot = slot_mapping[blockIdx.x];
    if (slot < 0)
        return;
    long long block = slot / block_size;
    int offset = (int)(slot % block_size);
    const uint4 *src = reinterpret_cast<const uint4 *>(key) +
                       (long long)blockIdx.x * nvec;
    uint4 *dst = reinterpret_cast<uint4 *>(key_cache) +
                 (block * block_size + offset) * nvec;
    for (int i = threadIdx.x; i < nvec; i += blockDim.x)
        dst[i] = src[i];
}
