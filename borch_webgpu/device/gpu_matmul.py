"""Matrix products on the ``webgpu`` device: picks a kernel of wgsl/matmul.wgsl, fills its uniform
words and records the dispatches. ops/linalg.py calls :func:`gemm` with views whose batch dims are
already broadcast to one shape; any strides (transposed, sliced, stride-0 broadcast) are read in place.

Kernel choice (sizes never enter a pipeline key; the key is block, dtypes, tile config and flags):
- ``gemv`` when M == 1 or N == 1 (vector-matrix products, ``mv``, ``dot``): memory-bound, so one
  workgroup reduces over k for a few outputs, with its threads laid along B's contiguous dim, and
  K split across workgroups when there are few outputs;
- ``gemm`` otherwise: 128 x 128, 128 x 64 (64 x 128) or 64 x 64 tiles (8 x 8 ... 4 x 4 outputs a
  thread), the largest that still gives about one workgroup per multiprocessor; few tiles and a long
  K split K across workgroups (``splitk`` then adds the partial products and applies the epilogue);
- ``gemm_sw`` instead of ``gemm`` on software adapters (SwiftShader, llvmpipe: a CPU): 16 threads of
  8 x 8 outputs and long K steps, since every barrier there costs a switch of each 4-thread subgroup.

Measured on one H200 through Dawn (Node 20, webgpu@0.6.2, 2026-11-30), f32, kernel time only:
4096^3 32.5 TFLOP/s (transposed operands the same), 2048^3 30.7, 1024^3 21-23, 4096x1024x1024 with
bias 31.5, 64x4096x4096 15.4 (split K; 5.9 without), 128x128x65536 16.1 (split K); a 1 x 4096 x 4096
vector product 0.031-0.046 ms (1.5-2.2 TB/s). A naive 16 x 16 tiled kernel ran at 8 there.
"""
from __future__ import annotations

import math

from . import kernels
from .gpu_backend import GPUStorage, backend, coalesce, f32_bits, software_adapter
from .webgpu import groups_for

__all__ = ["gemm", "source"]

MAX_BATCH_RANK = 4
BK = 8
# Software adapters (gemm_sw): (threads per side, BK, RM, RN): 16 threads, 32 x 32 outputs, 8 x 8 a
# thread. Measured on SwiftShader (Chromium 156, 2 cores, 2026-12-04), f32, 64x784 @ 784x128 and the
# two products of its backward (64x128 @ 128x784 transposed, 784x64 @ 64x128): 21 / 29 / 41 ms with
# gemm, 8-11 / 10-12 / 11-17 ms with this. 64 threads of 4 x 4, 256 threads, BK 8 or 32, 16 x 16 a
# thread, and a kernel with no shared memory (each thread reading its operands) were no faster.
SOFTWARE_TILE = (4, 16, 2, 2)
BIG_TILES_MIN = 128      # larger tiles only when at least this many of them
# split K when fewer tiles than this (GPUs: about one per multiprocessor; a software adapter has few
# cores) and K is at least SPLIT_K_MIN long, into about SPLIT_TARGET workgroups
SPLIT_TILES_MAX = {"gpu": 128, "software": 4}
SPLIT_K_MIN = 1024
SPLIT_TARGET = {"gpu": 256, "software": 8}
SPLIT_CHUNK_MIN = 256    # no K chunk shorter than this
GEMV_TARGET = 512        # vector products: split K until about this many workgroups ...
GEMV_CHUNK_MIN = 256     # ... with K chunks no shorter than this


def _u32(x) -> int:
    return int(x) & 0xFFFFFFFF


def _bits(x, T: str) -> int:
    return f32_bits(float(x)) if T == "f32" else _u32(x)


def _p2ceil(n: int) -> int:
    return 1 << max(0, (int(n) - 1).bit_length())


def _bias_slot(has_bias: bool, binding: int) -> str:
    if not has_bias:
        return "fn finish(acc: T, row: u32, col: u32, c_base: u32) -> T { return bits_t(16u) * acc; }"
    return (f"@group(0) @binding({binding}) var<storage, read> Cb: array<S>;\n"
            "fn finish(acc: T, row: u32, col: u32, c_base: u32) -> T {\n"
            "  return bits_t(16u) * acc + bits_t(17u) * T(Cb[c_base + row * pu(14u) + col * pu(15u)]);\n}")


def _gemm_slots(RM: int, RN: int, TD: int) -> dict[str, str]:
    """The unrolled register block of TD x TD threads: accumulator declarations, the FMAs of one k,
    the stores."""
    accs = [(i, r, j) for i in range(RM) for r in range(4) for j in range(RN)]
    decl = "\n".join(f"  var c{i}{r}{j} = V(T(0));" for i, r, j in accs)
    fma = [f"      let a{i} = As[kk * PA + {TD * i}u + ty];" for i in range(RM)]
    fma += [f"      let b{j} = Bs[kk * PB + {TD * j}u + tx];" for j in range(RN)]
    fma += [f"      c{i}{r}{j} += a{i}.{'xyzw'[r]} * b{j};" for i, r, j in accs]
    store = ["  let M = pu(0u);", "  let N = pu(1u);", "  var row: u32;"]
    for i in range(RM):
        for r in range(4):
            store.append(f"  row = t.m0 + {4 * TD * i + r}u + ty * 4u;")
            calls = " ".join(f"emit(t.o + row * N, row, t.n0 + {4 * TD * j}u + tx * 4u, c{i}{r}{j}, t.c_base, N);"
                             for j in range(RN))
            store.append(f"  if (row < M) {{ {calls} }}")
    return {"ACC_DECL": decl, "FMA": "\n".join(fma), "STORE": "\n".join(store)}


def source(block: str, S: str, T: str, has_bias: bool, RM: int = 1, RN: int = 1, a_kfast: bool = False,
           b_kfast: bool = False, split: bool = False) -> str:
    """The WGSL of one matmul kernel (S: element type in memory, T: accumulation type)."""
    head, blocks = kernels.blocks("matmul.wgsl")
    slots = {"S": S, "T": T,
             "BIAS": _bias_slot(has_bias, 3 if block == "splitk" else 4)}
    if block in ("gemm", "gemm_sw", "gemv"):
        slots.update(SPLIT=str(split).lower(), OUT=T if split else S)
    body = blocks[block]
    if block in ("gemm", "gemm_sw"):
        TD, BK_ = SOFTWARE_TILE[:2] if block == "gemm_sw" else (16, BK)
        slots.update(RM=str(RM), RN=str(RN), TD=str(TD), BK=str(BK_), A_KFAST=str(a_kfast).lower(),
                     B_KFAST=str(b_kfast).lower(), **_gemm_slots(RM, RN, TD))
        body = blocks["gemm_lib"] + body
    return kernels.fill(head + "//@op " + block + "\n" + body, **slots)


def _types(dtype) -> tuple[str, str]:
    """(element type in memory, accumulation type). Half precision accumulates in f32; the runtime
    enables the f16 extension (or says that the adapter lacks it) when it compiles the kernel."""
    return dtype.wgsl, ("f32" if dtype.is_floating_point else "i32")


def gemm(a, b, c, alpha, beta, dtype) -> GPUStorage:
    """``alpha * a @ b (+ beta * c)`` into new contiguous memory of shape (*batch, M, N).

    a: (*batch, M, K), b: (*batch, K, N), c: (*batch, M, N) or None; all with the same batch shape
    (broadcast dims have stride 0). alpha == 0 skips the product (the inputs are not read)."""
    rt = backend().rt
    *batch, M, K = a._shape
    N = b._shape[-1]
    nb = math.prod(batch)
    S, T = _types(dtype)
    out = GPUStorage(rt, nb * M * N * dtype.gpu_np.itemsize)
    if nb * M * N == 0:
        return out
    nd = len(batch)
    c_bs = list(c._stride[:nd]) if c is not None else [0] * nd
    bshape, (a_bs, b_bs, c_bs) = coalesce(batch, [list(a._stride[:nd]), list(b._stride[:nd]), c_bs])
    if len(bshape) > MAX_BATCH_RANK:
        # batch dims that no stride pattern merges: copy the operands into contiguous memory once
        a, b = a.contiguous(), b.contiguous()
        c = c.contiguous() if c is not None else None
        return gemm(a, b, c, alpha, beta, dtype)

    w = [0] * 60
    w[0], w[1], w[2], w[3] = M, N, (K if alpha != 0 else 0), nb
    w[6], w[7] = _u32(a._offset), _u32(b._offset)
    w[10], w[11], w[12], w[13] = (_u32(s) for s in (*a._stride[-2:], *b._stride[-2:]))
    if c is not None:
        w[8], w[14], w[15] = _u32(c._offset), _u32(c._stride[-2]), _u32(c._stride[-1])
    w[16], w[17] = _bits(alpha, T), _bits(beta, T)
    w[18], w[19], w[9] = len(bshape), 1, w[2]
    for d, (s, sa, sb, sc) in enumerate(zip(bshape, a_bs, b_bs, c_bs)):
        w[20 + d], w[24 + d], w[28 + d], w[32 + d] = s, _u32(sa), _u32(sb), _u32(sc)
    bufs = [out.bid, a._storage.bid, b._storage.bid] + ([c._storage.bid] if c is not None else [])
    has_bias = c is not None
    mask = "w" + "r" * (len(bufs) - 1)

    if M == 1 or N == 1:
        _gemv(rt, w, bufs, mask, S, T, has_bias, M, N, nb, a._stride, b._stride)
        return out

    soft = _is_software()
    if soft:
        block, (TD, bk, RM, RN) = "gemm_sw", SOFTWARE_TILE
    else:
        block, TD, bk, (RM, RN) = "gemm", 16, BK, tile_config(nb, M, N)
    a_kfast = abs(a._stride[-1]) < abs(a._stride[-2])
    b_kfast = abs(b._stride[-2]) < abs(b._stride[-1])
    w[4], w[5] = -(-M // (4 * TD * RM)), -(-N // (4 * TD * RN))
    tiles = nb * w[4] * w[5]
    kind = "software" if soft else "gpu"
    splits = 1
    if tiles < SPLIT_TILES_MAX[kind] and w[2] >= SPLIT_K_MIN:
        splits = min(-(-SPLIT_TARGET[kind] // tiles), w[2] // SPLIT_CHUNK_MIN)
    if splits > 1:
        chunk = -(-w[2] // splits)
        chunk = -(-chunk // bk) * bk
        splits = -(-w[2] // chunk)
        w[9], w[19] = chunk, splits
        part = GPUStorage(rt, splits * nb * M * N * 4)
        key = ("mm", block, S, T, RM, RN, TD, bk, a_kfast, b_kfast, False, True)
        pipe = rt.pipeline(key, lambda: source(block, S, T, False, RM, RN, a_kfast, b_kfast, True), "wrr")
        rt.dispatch(pipe, (part.bid, bufs[1], bufs[2]), w, tiles * splits)
        key = ("mm", "splitk", S, T, has_bias)
        pipe = rt.pipeline(key, lambda: source("splitk", S, T, has_bias), "wr" + "r" * has_bias)
        rt.dispatch(pipe, (out.bid, part.bid) + tuple(bufs[3:]), w, groups_for(nb * M * N))
        return out
    key = ("mm", block, S, T, RM, RN, TD, bk, a_kfast, b_kfast, has_bias, False)
    pipe = rt.pipeline(key, lambda: source(block, S, T, has_bias, RM, RN, a_kfast, b_kfast, False), mask)
    rt.dispatch(pipe, tuple(bufs), w, tiles)
    return out


_software: bool | None = None  # tests set it to run either kernel on any adapter


def _is_software() -> bool:
    return software_adapter(backend().rt) if _software is None else _software


def tile_config(nb: int, M: int, N: int) -> tuple[int, int]:
    """(RM, RN): tiles of 64*RM x 64*RN outputs, 4*RM x 4*RN per thread. The largest tile that still
    makes BIG_TILES_MIN workgroups (about one per multiprocessor of a big GPU): measured on an H200
    through Dawn, 1024^3 ran at 21 TFLOP/s with 128 x 64 tiles, 18 with 64 x 64, 12 with 128 x 128."""
    for RM, RN in ((2, 2), (2, 1) if M >= N else (1, 2)):
        if nb * -(-M // (64 * RM)) * -(-N // (64 * RN)) >= BIG_TILES_MIN:
            return RM, RN
    return 1, 1


def _gemv(rt, w, bufs, mask, S, T, has_bias, M, N, nb, a_st, b_st) -> None:
    """M == 1 (or N == 1, run as its transpose: out^T = b^T a^T has the same memory)."""
    if M != 1:
        # N == 1: the vector is b's column, the matrix a^T
        w[6], w[7] = w[7], w[6]
        w[11], w[12], w[13] = w[12], w[11], w[10]
        w[15] = w[14]
        for d in range(4):
            w[24 + d], w[28 + d] = w[28 + d], w[24 + d]
        bufs = [bufs[0], bufs[2], bufs[1]] + bufs[3:]
        N, sbk, sbn = M, a_st[-1], a_st[-2]
    else:
        sbk, sbn = b_st[-2], b_st[-1]
    w[1] = N
    n_fast = abs(sbn) <= abs(sbk)
    TN = min(64 if n_fast else 4, _p2ceil(N))
    TK = 256 // TN
    if TK > _p2ceil(max(w[2], 1)):
        TK = _p2ceil(max(w[2], 1))
        TN = 256 // TK
    w[36], w[37] = TN, 0 if n_fast else 1
    w[5] = -(-N // TN)
    w[0] = 1
    groups = w[5] * nb
    splits = 1
    if groups < GEMV_TARGET and w[2] >= 2 * GEMV_CHUNK_MIN:
        splits = min(-(-GEMV_TARGET // groups), w[2] // GEMV_CHUNK_MIN)
    if splits > 1:
        chunk = -(-w[2] // splits)
        splits = -(-w[2] // chunk)
        w[9], w[19] = chunk, splits
        part = GPUStorage(rt, splits * nb * N * 4)
        pipe = rt.pipeline(("mm", "gemv", S, T, False, True), lambda: source("gemv", S, T, False, split=True), "wrr")
        rt.dispatch(pipe, (part.bid, bufs[1], bufs[2]), w, groups * splits)
        pipe = rt.pipeline(("mm", "splitk", S, T, has_bias), lambda: source("splitk", S, T, has_bias),
                           "wr" + "r" * has_bias)
        rt.dispatch(pipe, (bufs[0], part.bid) + tuple(bufs[3:]), w, groups_for(nb * N))
        return
    pipe = rt.pipeline(("mm", "gemv", S, T, has_bias, False), lambda: source("gemv", S, T, has_bias), mask)
    rt.dispatch(pipe, tuple(bufs), w, groups)
