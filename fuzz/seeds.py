#!/usr/bin/env python3
"""Write the seed corpora of the binary harnesses: fuzz_cache and
fuzz_json (fuzz/corpus/NAME/).  Each seed is built field by field in the
layout the harness's header comment describes, so that the first runs
start from inputs the code accepts as well as from ones it refuses.  Run
it from the repository root:  python3 fuzz/seeds.py"""
import os
import struct


def put(name, data):
    harness, seed = name.split("/")
    d = os.path.join("fuzz/corpus", harness)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, seed), "wb") as f:
        f.write(data)


def u8(*v):
    return bytes(x & 0xFF for x in v)


def le(v, n):
    return (v & ((1 << (8 * n)) - 1)).to_bytes(n, "little")


# ---- fuzz_cache ----------------------------------------------------------

def cache_header(gpu=0, tlb=0x22, page=0x21, threads=256, smem=0, regs=0,
                 sms=3, l1=5, l2=9, ways1=6, ways2=6, order=0):
    """gpu_of (3 bytes), cache_of: threads (2), smem (3), regs (1), s, v,
    w."""
    s = (sms - 1) | order << 6
    return (u8(gpu, tlb, page) + le(threads - 1, 2) + le(smem, 3) +
            u8(regs, s, l1 | ways1 << 4, l2 | ways2 << 4))


def cache_access(warp, op, space=0, size=2, site=0, mask=(1 << 32) - 1,
                 base=0x1000, shift=0, step=4, scale=0, ld=0, iv=0):
    """feed's record: opcode (1..6), warp, interval, load kind, then
    access_of: h (2), site, mask (8), base (3), step."""
    h = space | op << 2 | size << 5 | shift << 8 | scale << 13
    return (u8(1, warp, iv, ld) + le(h, 2) + u8(site) + le(mask, 8) +
            le(base, 3) + u8(step))


def cache_seeds():
    # a streaming copy: 12 CTAs of a load and a store (ops LD=0, ST=1)
    body = b""
    for k in range(12):
        body += u8(0)
        body += cache_access(0, 0, base=0x10000 + k * 128)
        body += cache_access(0, 1, base=0x80000 + k * 128, site=1)
    put("cache/stream", cache_header() + body)
    # reuse: 4 CTAs re-reading the same 2 KiB in two intervals, L1 hits
    body = b""
    for k in range(4):
        body += u8(0)
        for iv in range(2):
            for w in range(4):
                body += cache_access(w, 0, base=0x2000 + w * 128, iv=iv)
    put("cache/reuse", cache_header(order=1) + body)
    # a column walk: a 4 KiB stride, one sector per lane, TLB misses
    body = u8(0) + cache_access(0, 0, step=64, scale=6)
    put("cache/column", cache_header(tlb=0x42, page=0x03) + body)
    # atomics, evict-first, .cg and .cv loads, shared wavefronts
    body = u8(0)
    for ld in range(5):
        body += cache_access(1, 2 if ld == 0 else 0, ld=ld, base=0x4000)
    body += u8(7) + le(300, 2)
    put("cache/kinds", cache_header(gpu=2, regs=64) + body)
    # refused: warp 64, load kind 5, a misaligned access
    body = u8(0) + cache_access(64, 0) + cache_access(0, 0, ld=5)
    body += cache_access(0, 0, base=0x1002, size=2)
    put("cache/refused", cache_header() + body)
    # no TLB, no figures, a tiny L1 and a fully associative L2
    put("cache/bare", cache_header(gpu=0x78, tlb=1, l1=0, l2=3, ways1=0,
                                   ways2=0) + u8(0) + cache_access(0, 0))
    # an invalid configuration (64-byte lines): wm_cache_new refuses it
    put("cache/bad_line", cache_header(sms=8, order=2, l2=8, ways2=8) +
        u8(0) + cache_access(0, 0))


# ---- fuzz_json -----------------------------------------------------------

def json_seeds():
    strs = [b"copy.cu", b"warpmem run k.ptx --check", b"sm_80", b"k"]
    prog = u8(3, 5, 5, 1, 0, 2, 7, 3, 8, 1, 9, 17, 10, 1, 11, 0, 4, 0, 4, 0,
              4, 0)
    body = u8(1, 0, 0, 9, 0, 4, 0, 0, 3) + u8(2, 0x11, 3, 0, 0, 0x4d, 1, 1,
                                             1, 0, 0, 0x52)
    put("json/plain", b"\0".join(strs) + b"\0" + prog + body)
    strs = [b"caf\xc3\xa9\xff.cu", b"run \x01\x1f\"q\"\\ \xe2\x82",
            b"sm_\x7f90", b"\xed\xa0\x80k\ttab\nline"]
    put("json/escapes", b"\0".join(strs) + b"\0" + prog + body)
    deep = u8(*([1, 0] * 40))
    put("json/deep", b"a\0b\0c\0d\0" + deep)
    rows = u8(2, 0x25, 5, 0x45, 6, 0x25, 4, 0, 2, 0x25, 5, 0x45, 7, 0x25,
              4, 0)
    put("json/rows", b"x,y\0\"q\"\0line\nbreak\0z\0" + u8(1, 0) + rows + u8(4))
    put("json/dirname", b"../sub/dir/a.cu\0cmd\0H200\0" + b"\xff" * 200 +
        b"\0" + prog + body)


def main():
    cache_seeds()
    json_seeds()


if __name__ == "__main__":
    main()
