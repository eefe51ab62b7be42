#!/usr/bin/env python3
"""Write the seed corpora of the binary harnesses: fuzz_cache, fuzz_json,
fuzz_tma, fuzz_wgmma and fuzz_cluster (fuzz/corpus/NAME/).  Each seed is
built field by field in the layout the harness's header comment
describes, so that the first runs start from inputs the code accepts
(valid maps, descriptors of the unit tests' layouts, cluster launches of
the corpus kernels' shapes) as well as from ones it refuses.  Run it from
the repository root:  python3 fuzz/seeds.py"""
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


# ---- fuzz_wgmma ----------------------------------------------------------

TBYTES = [2, 2, 4, 1, 1, 1, 1]


def desc(start, lbo, sbo, mode=0):
    """A shared-memory matrix descriptor (bytes, as in test_ptx_wgmma.c);
    mode: 0 none, 1 128 B, 2 64 B, 3 32 B swizzle."""
    return (start >> 4 | (lbo >> 4) << 16 | (sbo >> 4) << 32 |
            mode << 62)


def wgmma(name, at, n, bmode=0, dt16=0, areg=0, scale_d=1, trans=0,
          threads=0, da=None, db=None, tame=0, h3x=0,
          fillb=b"\x3c\x00\x00\xbc"):
    h0 = at | dt16 << 3 | areg << 4 | scale_d << 5
    h1 = (n // 8 - 1) | bmode << 5
    h2 = trans | threads << 2
    h3 = (1 if not tame else 0) | h3x
    rows_a, rows_b = 64, n
    if da is None:  # K-major, no swizzle: core matrices of 8 x 16 B
        da = desc(0, 128 * (rows_a // 8), 128)
    if db is None:
        db = desc(4096, 128 * max(1, rows_b // 8), 128)
    put("wgmma/" + name, u8(h0, h1, h2, h3) + le(da, 8) + le(db, 8) +
        fillb * 16)


def wgmma_seeds():
    wgmma("f16_n8", 0, 8)
    wgmma("f16_n64_f16acc", 0, 64, dt16=1)
    wgmma("bf16_n32_areg", 1, 32, areg=1)
    wgmma("tf32_n16", 2, 16, fillb=b"\x00\x00\x80\x3f")
    wgmma("e4m3_e5m2_n24", 3, 24, bmode=1, fillb=b"\x38\x40")
    wgmma("s8_u8_n32", 5, 32, bmode=1, fillb=b"\x01\xff\x02")
    wgmma("u8_n256", 6, 256)
    wgmma("f16_trans_b", 0, 16, trans=2)
    wgmma("f16_swz128", 0, 64, da=desc(0, 0, 1024, 1),
          db=desc(8192, 0, 1024, 1))
    wgmma("f16_swz64_32", 0, 8, da=desc(0, 0, 512, 2),
          db=desc(8192, 0, 256, 3))
    wgmma("base_offset", 0, 8, da=desc(0, 0, 1024, 1) | 3 << 49)
    wgmma("threads_96", 0, 8, threads=5)
    wgmma("threads_256", 0, 8, threads=7)
    wgmma("diverged", 0, 8, trans=32)
    wgmma("bad_form", 0, 8, bmode=6, h3x=5 << 4)  # f16 x s8
    wgmma("tame_raw", 0, 128, tame=1, da=0x123456789ABCDEF,
          db=0xFEDCBA987654321)


# ---- fuzz_tma ------------------------------------------------------------

ESIZE = [1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4]


def tma(name, dtype, dims, box, kind=0, coords=None, swizzle=0, fill=0,
        estr=None, raw_strides=None, t2x=0, t3=0x80, im2col=None,
        offsets=(0, 0, 0), value=0, data=None):
    rank = len(dims)
    packed = raw_strides is None
    t0 = dtype | (0 if packed else 128) | (rank - 1) << 4
    t1 = swizzle | fill << 2 | (64 if im2col else 0)
    t2 = kind | t2x
    out = u8(t0, t1, t2, t3)
    for i in range(rank):
        es = estr[i] if estr else 1
        big = dims[i] > 64
        b = (128 if big else dims[i] - 1) | (64 if es > 1 else 0)
        out += u8(b)
        if big:
            out += le(dims[i] - 1, 4)
        out += u8(box[i] - 1)
        if es > 1:
            out += u8(es - 1)
        if i > 0 and not packed:
            out += le(raw_strides[i - 1] // 16, 2)
    if im2col:
        lower, upper, ch, px = im2col
        for i in range(rank - 2):
            out += u8(lower[i], upper[i])
        out += u8(ch - 1) + le(px - 1, 2)
    else:
        out += u8(0) + le(0, 2)
    if not t3 & 0x80:
        out += u8(0)
    out += le(value, 4)
    for c in coords or [0] * rank:
        out += le(c, 2)
    out += u8(*offsets)
    out += data if data is not None else bytes(range(256))
    put("tma/" + name, out)


def tma_seeds():
    tma("load_2d_f32", 7, [32, 16], [32, 8])
    tma("load_1d_tail", 7, [60], [64], coords=[16])
    tma("load_1d_nan", 7, [60], [64], coords=[16], fill=1)
    tma("load_3d_u16", 1, [24, 5, 3], [16, 4, 2], coords=[-4, 1, 2],
        estr=[1, 2, 1])
    tma("load_5d_u8", 0, [32, 3, 2, 2, 2], [16, 2, 2, 2, 2],
        coords=[24, 2, 1, 0, 1])
    tma("swizzle_128", 7, [40, 16], [32, 16], swizzle=3, coords=[4, 0])
    tma("swizzle_64", 6, [32, 12], [32, 8], swizzle=2, coords=[0, 3])
    tma("swizzle_32", 2, [8, 16], [8, 16], swizzle=1)
    tma("multicast", 7, [16, 16], [16, 8], kind=1, coords=[0, 4])
    tma("multicast_no_cluster", 7, [16, 16], [16, 8], kind=1, t2x=8)
    tma("store_2d", 7, [32, 16], [32, 8], kind=2, coords=[0, 8])
    for op in range(8):
        tma("reduce_%d" % op, 3, [32, 8], [16, 8], kind=3, t3=0x80 | op)
    tma("prefetch", 7, [64, 64], [32, 32], kind=4, coords=[32, 0])
    tma("im2col_4d", 7, [32, 4, 4, 1], [1, 1, 1, 1], kind=5,
        im2col=([-1, -1], [-1, -1], 16, 32), coords=[0, -1, -1, 0])
    tma("im2col_prefetch", 7, [32, 6, 6, 2], [1, 1, 1, 1], kind=6,
        im2col=([-1, -1], [-1, -1], 16, 32), offsets=(1, 2, 0))
    tma("strides", 7, [16, 8, 4], [8, 8, 2], raw_strides=[80, 1280])
    tma("big_dims", 0, [100000, 70000], [256, 4])
    tma("global_map", 7, [32, 16], [32, 8], t2x=16)
    # tensormap.replace in global memory: box_dim 0 = 16, rank, swizzle
    tma("edit_box", 7, [32, 16], [32, 8], t2x=48, t3=(2 << 3), value=16)
    tma("edit_rank", 7, [32, 16], [32, 8], t2x=48, t3=0x80 | (1 << 3),
        value=0)
    tma("edit_address", 7, [32, 16], [32, 8], t2x=48, t3=0x80, value=64)
    tma("raw_map", 7, [32, 16], [32, 8], data=b"WMTM" + bytes(124))


# ---- fuzz_cluster --------------------------------------------------------

def cluster(name, ptx, grid=(4, 1, 1), cl=(2, 1, 1), block=64, checks=3,
            np=0, bufs=1, coop=0):
    """fuzz_cluster's header: grid x y z, cluster x y z, block / 32,
    flags (checks, non-portable, every pointer-sized parameter a buffer,
    a cooperative launch), then the PTX text."""
    h = u8(*grid) + u8(*cl) + u8(block // 32,
                                  checks | np << 3 | bufs << 5 | coop << 6)
    put("cluster/" + name, h + ptx.encode())


HEAD = ".version 8.0\n.target sm_90\n.address_size 64\n"


def cluster_seeds():
    # every CTA adds its rank into rank 0's shared word (DSMEM atomics)
    cluster("sum", HEAD + """.visible .entry k(.param .u64 p)
{
.shared .align 4 .b32 acc;
.reg .b32 %r<8>;
.reg .b64 %rd<4>;
.reg .pred %p<2>;
mov.u32 %r1, %tid.x;
mov.u32 %r2, %cluster_ctarank;
mov.u32 %r3, acc;
setp.ne.u32 %p1, %r1, 0;
@%p1 bra $w;
st.shared.u32 [%r3], 0;
$w:
barrier.cluster.arrive;
barrier.cluster.wait;
mapa.shared::cluster.u32 %r4, %r3, 0;
atom.shared::cluster.add.u32 %r5, [%r4], %r2;
barrier.cluster.arrive.release;
barrier.cluster.wait.acquire;
@%p1 bra $d;
ld.shared.u32 %r6, [%r3];
ld.param.u64 %rd1, [p];
cvta.to.global.u64 %rd2, %rd1;
mov.u32 %r7, %ctaid.x;
mul.wide.u32 %rd3, %r7, 4;
add.s64 %rd2, %rd2, %rd3;
st.global.u32 [%rd2], %r6;
$d:
ret;
}
""")
    # a racy neighbour exchange: a store to the next rank without a barrier
    cluster("racy", HEAD + """.visible .entry k(.param .u64 p)
{
.shared .align 4 .b32 box[64];
.reg .b32 %r<10>;
.reg .b64 %rd<4>;
mov.u32 %r1, %tid.x;
mov.u32 %r2, %cluster_ctarank;
mov.u32 %r3, %cluster_nctarank;
add.u32 %r4, %r2, 1;
rem.u32 %r4, %r4, %r3;
mov.u32 %r5, box;
shl.b32 %r6, %r1, 2;
add.u32 %r5, %r5, %r6;
mapa.shared::cluster.u32 %r7, %r5, %r4;
st.shared::cluster.u32 [%r7], %r1;
ld.shared.u32 %r8, [%r5];
ld.param.u64 %rd1, [p];
st.global.u32 [%rd1], %r8;
ret;
}
""", grid=(8, 1, 1), cl=(4, 1, 1))
    # the ids of a 3-D cluster in a 3-D grid
    cluster("ids_3d", HEAD + """.visible .entry k(.param .u64 p)
{
.reg .b32 %r<12>;
.reg .b64 %rd<4>;
mov.u32 %r1, %cluster_ctaid.x;
mov.u32 %r2, %cluster_ctaid.y;
mov.u32 %r3, %cluster_ctaid.z;
mov.u32 %r4, %cluster_nctaid.x;
mov.u32 %r5, %clusterid.x;
mov.u32 %r6, %nclusterid.y;
mov.u32 %r7, %is_explicit_cluster;
add.u32 %r8, %r1, %r2;
add.u32 %r8, %r8, %r3;
add.u32 %r8, %r8, %r4;
add.u32 %r8, %r8, %r5;
add.u32 %r8, %r8, %r6;
add.u32 %r8, %r8, %r7;
ld.param.u64 %rd1, [p];
st.global.u32 [%rd1], %r8;
ret;
}
""", grid=(4, 2, 2), cl=(2, 2, 2), block=32)
    # nine CTAs: non-portable clusters, and the refusal without the flag
    cluster("nonportable", HEAD + """.visible .entry k(.param .u64 p)
{
.reg .b32 %r<4>;
barrier.cluster.arrive;
barrier.cluster.wait;
ret;
}
""", grid=(9, 1, 1), cl=(9, 1, 1), block=32, np=1)
    cluster("not_multiple", HEAD + """.visible .entry k(.param .u64 p)
{
ret;
}
""", grid=(6, 1, 1), cl=(4, 1, 1), block=32)
    # the kernel's own shape (.reqnctapercluster), no launch cluster
    cluster("reqn", HEAD + """.visible .entry k(.param .u64 p)
.reqnctapercluster 2, 1, 1
{
.shared .align 8 .b64 bar;
.reg .b32 %r<6>;
.reg .b64 %rd<4>;
.reg .pred %p<3>;
mov.u32 %r1, bar;
mov.u32 %r2, %cluster_ctarank;
xor.b32 %r3, %r2, 1;
mapa.shared::cluster.u32 %r4, %r1, %r3;
mbarrier.init.shared::cta.b64 [%r1], 1;
barrier.cluster.arrive;
barrier.cluster.wait;
mov.u32 %r5, %tid.x;
setp.eq.u32 %p1, %r5, 0;
@%p1 mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r4];
$l:
mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r1], 0;
@!%p2 bra $l;
ret;
}
""", cl=(0, 0, 0), grid=(2, 1, 1), block=32)
    # a transpose's column: lane l of warp w adds to word 32 l + w + 8 c
    # of the buffer (one lane's word, the warp growing with it: the
    # checker's warp-step runs); four CTAs fill each 32-word chunk, or
    # with 4 c overlap (races between CTAs)
    for name, step in (("column_store", 8), ("column_store_racy", 4)):
        cluster(name, HEAD + """.visible .entry k(.param .u64 p)
{
.reg .b32 %r<8>;
.reg .b64 %rd<4>;
ld.param.u64 %rd1, [p];
mov.u32 %r1, %tid.x;
mov.u32 %r2, %ctaid.x;
and.b32 %r3, %r1, 31;
shr.u32 %r4, %r1, 5;
shl.b32 %r5, %r3, 5;
add.u32 %r5, %r5, %r4;
mad.lo.u32 %r5, %r2, """ + str(step) + """, %r5;
and.b32 %r5, %r5, 1023;
mul.wide.u32 %rd2, %r5, 4;
add.s64 %rd3, %rd1, %rd2;
ld.global.u32 %r6, [%rd3];
add.u32 %r6, %r6, %r1;
st.global.u32 [%rd3], %r6;
ret;
}
""", cl=(1, 1, 1), grid=(4, 1, 1), block=256)

    # warp 0 spins on a volatile shared flag that warp 1 raises after a
    # fence (the poll yields once it reads what it read before), on a
    # relaxed global one, and with atom.cas for the 7 that warp 1 stores
    # with atom.exch (the failing CAS returns what it returned before); a
    # lone warp spins to the step budget.  Each: the fence, warp 1's raise
    # and warp 0's poll and test (A: the flag's address).
    vol = ("st.volatile.shared.u32 [A], %r2",
           "ld.volatile.shared.u32 %r4, [A]", "setp.eq.u32 %p2, %r4, 0")
    for name, fence, (raise_, poll, test), space, warps in (
            ("spin_volatile", "membar.cta", vol, "shared", 2),
            ("spin_relaxed", "membar.cta",
             ("st.release.cta.global.u32 [A], %r2",
              "ld.relaxed.cta.global.u32 %r4, [A]",
              "setp.eq.u32 %p2, %r4, 0"), "global", 2),
            ("spin_alone", "membar.cta", vol, "shared", 1),
            ("spin_atomic", "membar.gl",
             ("atom.global.exch.b32 %r5, [A], 7",
              "atom.global.cas.b32 %r4, [A], 7, 9",
              "setp.ne.u32 %p2, %r4, 7"), "global", 2)):
        addr = "%r3" if space == "shared" else "%rd3"
        raise_, poll = (i.replace("A", addr) for i in (raise_, poll))
        cluster(name, HEAD + """.visible .entry k(.param .u64 p)
{
.shared .align 4 .b32 f;
.reg .b32 %r<8>;
.reg .b64 %rd<4>;
.reg .pred %p<3>;
ld.param.u64 %rd1, [p];
cvta.to.global.u64 %rd2, %rd1;
mov.u32 %r1, %tid.x;
mov.u32 %r3, f;
mov.u32 %r7, %ctaid.x;
mul.wide.u32 %rd3, %r7, 4;
add.s64 %rd3, %rd2, %rd3;
setp.lt.u32 %p1, %r1, 32;
@%p1 bra $wait;
""" + fence + """;
mov.u32 %r2, 1;
""" + raise_ + """;
ret;
$wait:
""" + poll + ";\n" + test + """;
@%p2 bra $wait;
""" + fence + """;
ret;
}
""", cl=(1, 1, 1), grid=(2, 1, 1), block=32 * warps)


def kernels(path):
    """The module text before its first kernel and each kernel's text
    (from its .entry to the brace that closes its body)."""
    text = open(path).read()
    first = text.find(".visible .entry")
    head, out, at = text[:first], [], first
    while at >= 0:
        i, depth = text.find("{", at), 0
        while True:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
            if depth == 0:
                break
        out.append(text[at:i] + "\n")
        at = text.find(".visible .entry", i)
    return head, out


def corpus_cluster_seeds():
    """Every kernel of the corpus's cluster modules alone, on a grid of 8
    CTAs of 128 threads in clusters of 4 (2 for the .reqnctapercluster
    ones, which take theirs from the kernel), checked."""
    for mod in ("cluster_dsmem_sm_90", "cluster_check_sm_90a"):
        head, ks = kernels("tests/corpus/ptx/%s.ptx" % mod)
        for k in ks:
            name = k.split("(")[0].split()[-1]
            cl = (0, 0, 0) if "reqnctapercluster" in k else (4, 1, 1)
            cluster("%s_%s" % (mod.split("_")[1], name), head + k,
                    grid=(8, 1, 1), cl=cl, block=128, checks=3)


def corpus_coop_seeds():
    """The corpus's grid.sync() kernels (tests/corpus/grid_sync.cu) as
    cooperative launches of 4 CTAs of 256 threads, and the race suite's
    (tests/check/race_suite.cu, a clean and a racy grid sum) checked."""
    head, ks = kernels("tests/corpus/ptx/grid_sync_sm_90.ptx")
    for k in ks:
        name = k.split("(")[0].split()[-1]
        cluster("coop_" + name, head + k, grid=(4, 1, 1), cl=(1, 1, 1),
                block=256, checks=0, coop=1)
    head, ks = kernels("tests/check/ptx/race_suite_sm_90.ptx")
    for k in ks:
        name = k.split("(")[0].split()[-1]
        if name.startswith("grid_sync_"):
            cluster("coop_checked_" + name, head + k, grid=(4, 1, 1),
                    cl=(1, 1, 1), block=64, checks=7, coop=1)


def main():
    cache_seeds()
    json_seeds()
    wgmma_seeds()
    tma_seeds()
    cluster_seeds()
    corpus_cluster_seeds()
    corpus_coop_seeds()


if __name__ == "__main__":
    main()
