"""Convolutions on the ``webgpu`` device: fills the uniform words of wgsl/conv.wgsl, picks a tile
shape and records the dispatches of the three implicit-GEMM passes (forward, input gradient,
weight gradient). ops/conv.py calls :func:`forward`, :func:`input_grad` and :func:`weight_grad`
with a :class:`Geometry`; x and dy are read through their own strides, w is made contiguous.

Kernel choice (sizes never enter a pipeline key; the key is pass, dtype, tile shape and two flags):
- a tile shape per adapter kind (GPU_BIG / GPU_TILES / SOFTWARE_TILES below), the one that pads the
  GEMM least: the M side is a channel count, often 8..64, the N side a pixel count, often thousands;
- the input gradient is one dense GEMM per stride phase over the taps that reach that phase, so a
  stride-2 conv does no multiply-by-zero work; up to MAX_PHASES phases run in one dispatch (the
  kernel finds its workgroup's phase), more take one dispatch each;
- the weight gradient splits its reduction (batch x output pixels) across workgroups when the
  output tiles are few, then ``wgrad_sum`` adds the slabs; the bias gradient rides along as one
  more GEMM column of ones.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from . import kernels, trace_fusion
from .gpu_backend import GPUStorage, backend
from .webgpu import groups_for

__all__ = ["Geometry", "forward", "input_grad", "weight_grad", "source"]

# Tile shapes (BM, BN, BK, RM, RN): BM x BN outputs per workgroup of (BM/4RM) x (BN/4RN) threads,
# RM x RN blocks of 4 x 4 outputs per thread. Shared memory (BK * (BM + BN + 8) * 4 bytes) stays
# within WebGPU's default 16 KiB.
# GPUs: 256 threads; 128 x 128 tiles when that still makes BIG_TILES_MIN workgroups, else the
# 4 x 4-per-thread tile that pads the GEMM least (conv GEMMs are often small: M is a channel count).
# 8 x 8 outputs a thread: 128 x 128, or 64 x 256 where M (a channel count) is 64 and 128 rows would be
# half padding (measured on an H200: the 64 -> 64 3x3 layers at batch 64 spent 50% of their time on it)
GPU_BIG = ((128, 128, 8, 2, 2), (64, 256, 8, 2, 2))
GPU_TILES = ((64, 64, 16, 1, 1), (32, 128, 16, 1, 1), (16, 256, 8, 1, 1))
BIG_TILES_MIN = 128
# SwiftShader (a CPU): each barrier switches every 4-thread subgroup of a workgroup in and out, and
# code that keeps many values live compiles slowly, so 16-thread workgroups with 8 x 8 (or 8 x 4)
# outputs a thread and no register prefetch. Measured on a 2-core machine (Chromium 156, 2026-11-30),
# 3x3 conv 32->32 at batch 8, 16x16, forward: 157 ms with the GPU tiles, 21 ms with these.
SOFTWARE_TILES = ((32, 32, 16, 2, 2), (16, 64, 16, 2, 2), (8, 64, 16, 2, 1))
SPLIT_TARGET = 128     # weight gradient: aim for about this many workgroups (GPUs: SPLIT_TARGET_GPU) ...
SPLIT_TARGET_GPU = 512  # an H200 has 132 SMs: 135 workgroups of 256 threads left most of each SM idle
SPLIT_CHUNK_MIN = 256  # ... with no reduction chunk shorter than this
SPLITK_BELOW = 256     # GPUs: the forward and input gradient split along K below this many output tiles
MASK = 0xFFFFFFFF
MAX_PHASES = 8         # input gradients of up to this many stride phases run in one dispatch (words 54..61)


@dataclass(frozen=True)
class Geometry:
    """A 2-D convolution: input (NB, C, H, W), weight (CO, C // G, KH, KW), output (NB, CO, OH, OW);
    PH/PW are the top/left padding (the bottom/right follow from OH/OW)."""
    NB: int
    C: int
    H: int
    W: int
    CO: int
    OH: int
    OW: int
    KH: int
    KW: int
    SH: int
    SW: int
    PH: int
    PW: int
    DH: int
    DW: int
    G: int


def _loader(name: str, rows: int, BK: int, kfast: bool, pitch: str, gemm_row: str, T: int,
            prefetch: bool) -> tuple[str, str, str]:
    """(setup, load, stash) WGSL for one operand tile of rows x BK (A: rows = BM; B: rows = BN) and
    T threads.

    kfast: consecutive threads take consecutive k (else consecutive rows), matching the operand's
    contiguous direction in memory. Each thread loads max(1, rows*BK/T) elements per slice. Row
    addresses (a_row/b_col) are computed once, k decompositions (a_kinfo/b_kinfo) once per slice for
    each distinct k. The code has no branches (loads are masked with select): SwiftShader's compile
    time grows steeply with the number of blocks. prefetch: load the next slice into registers
    {name}_v{j} during the multiplies (`load`), which `stash` then stores; else `stash` loads and
    stores in one go and nothing stays live across the multiply loop."""
    count = rows * BK
    per = max(1, count // T)
    on = f"{name}_on"
    guarded = count < T
    bound = "M" if name == "a" else "N"
    row_fn = "a_row" if name == "a" else "b_col"
    elems = []  # (row expression, k expression) of each element this thread loads
    for j in range(per):
        if kfast:
            assert T % BK == 0
            elems.append((f"li / {BK}u + {j * T // BK}u", f"li % {BK}u"))
        elif T % rows == 0:
            elems.append((f"li % {rows}u", f"li / {rows}u + {j * T // rows}u"))
        else:
            assert rows % T == 0
            R = rows // T
            elems.append((f"li + {T * (j % R)}u", f"{j // R}u"))
    row_exprs = list(dict.fromkeys(r for r, _ in elems))
    k_exprs = list(dict.fromkeys(k for _, k in elems))
    setup = [f"  let {on} = {f'li < {count}u' if guarded else 'true'};"]
    for i, r in enumerate(row_exprs):
        setup.append(f"  let {name}_ml{i} = {r};")
        setup.append(f"  let {name}_ok{i} = {on} & ({gemm_row}0 + {name}_ml{i} < {bound});")
        setup.append(f"  let {name}_r{i} = {row_fn}(g, {gemm_row}0 + {name}_ml{i});")
    for i, k in enumerate(k_exprs):
        setup.append(f"  let {name}_kl{i} = {k};")
    fetch = []
    for i in range(len(k_exprs)):
        fetch.append(f"      let {name}_kg{i} = k0 + {name}_kl{i};")
        fetch.append(f"      let {name}_ki{i} = {name}_kinfo({name}_kg{i});")
    vals, stores = [], []
    for j, (r, k) in enumerate(elems):
        ri, ki = row_exprs.index(r), k_exprs.index(k)
        vals.append(f"{name}_load({name}_r{ri}, {name}_ki{ki}, {name}_ok{ri} & ({name}_kg{ki} < k_end))")
        st = f"{name.upper()}s[{name}_kl{ki} * {pitch} + {name}_ml{ri} / 4u][{name}_ml{ri} % 4u] = @;"
        stores.append(f"    if ({on}) {{ {st} }}" if guarded else "    " + st)
    if prefetch:
        setup += [f"  var {name}_v{j} = 0.0f;" for j in range(per)]
        load = ["    {"] + fetch + [f"      {name}_v{j} = {v};" for j, v in enumerate(vals)] + ["    }"]
        stash = [st.replace("@", f"{name}_v{j}") for j, st in enumerate(stores)]
        return "\n".join(setup), "\n".join(load), "\n".join(stash)
    stash = ["    {"] + fetch + [st.replace("@", v) for st, v in zip(stores, vals)] + ["    }"]
    return "\n".join(setup), "", "\n".join(stash)


# which direction of each operand is contiguous in memory: (A k-fast, B k-fast)
_KFAST = {"fwd": (True, False), "dgrad": (True, False), "wgrad": (True, True)}


def _threads(tile) -> tuple[int, int]:
    BM, BN, BK, RM, RN = tile
    return BN // (4 * RN), BM // (4 * RM)


def _mma(tile) -> dict[str, str]:
    """The unrolled register block: accumulators, the FMAs of one k, the stores."""
    BM, BN, BK, RM, RN = tile
    accs = [(i, r, j) for i in range(RM) for r in range(4) for j in range(RN)]
    decl = "\n".join(f"  var c{i}{r}{j} = vec4<f32>(0.0);" for i, r, j in accs)
    fma = [f"      let a{i} = As[kk * PA + {i}u * TY + ty];" for i in range(RM)]
    fma += [f"      let b{j} = Bs[kk * PB + {j}u * TX + tx];" for j in range(RN)]
    fma += [f"      c{i}{r}{j} += a{i}.{'xyzw'[r]} * b{j};" for i, r, j in accs]
    emit = [f"  emit4(g, split, m0 + {i}u * 4u * TY + ty * 4u + {r}u, n0 + {j}u * 4u * TX + tx * 4u, c{i}{r}{j}, M, N);"
            for i, r, j in accs]
    return {"ACC_DECL": decl, "FMA": "\n".join(fma), "EMIT": "\n".join(emit)}


def _bn_epilogue(first_binding: int, bn, res=None) -> dict[str, str]:
    """EPI/BN_EPI slots: identity, or an evaluation batch norm (weight?, bias?, relu?) applied to the
    conv's output channel c with the eval kernel's float32 operations (wgsl/batchnorm.wgsl), its
    vectors bound from first_binding on; res = (relu,): then the residual ``RES[word 61 + o]`` (o: the
    output element) is added, as the add (or add_relu) kernel it replaces does, and relu'd if it was
    (device/trace_fusion.py)."""
    if bn is None:
        return {"EPI": "bn_epi", "BN_EPI": "fn bn_epi(c: u32, o: u32, v: f32) -> f32 { return v; }"}
    weight, bias, relu = bn
    assert not (relu and res), "a residual add after a relu'd batch norm is not one epilogue"
    names = ["BNM", "BNV"] + (["BNW"] if weight else []) + (["BNB"] if bias else []) + (["RES"] if res else [])
    decl = "\n".join(f"@group(0) @binding({first_binding + i}) var<storage, read> {n}: array<S>;"
                     for i, n in enumerate(names))
    body = ["var y = (v - f32(BNM[pu(56u) + c])) * (1.0f / sqrt(f32(BNV[pu(57u) + c]) + bitcast<f32>(pu(60u))));"]
    if weight:
        body.append("y = y * f32(BNW[pu(58u) + c]);")
    if bias:
        body.append("y = y + f32(BNB[pu(59u) + c]);")
    if res:
        body.append("y = y + f32(RES[pu(61u) + o]);")
    if relu or (res and res[0]):  # as batchnorm.wgsl's relu_f and add_relu: -0.0 and NaN stay
        body.append("let yb = bitcast<u32>(y);")
        body.append("y = select(y, 0.0f, yb > 0x80000000u && (yb & 0x7fffffffu) <= 0x7f800000u);")
    fn = "fn bn_epi(c: u32, o: u32, v: f32) -> f32 {\n  " + "\n  ".join(body) + "\n  return y;\n}"
    return {"EPI": "bn_epi", "BN_EPI": decl + "\n" + fn}


def bn_variant(rt, key: tuple, bn, n_bufs: int, res=None) -> tuple[int, int]:
    """The pipeline of conv kernel ``key`` (a forward or split_sum) with batch norm ``bn`` (and the
    residual add ``res``) as its epilogue (device/trace_fusion.py)."""
    tag = ("bn",) + bn + (("res",) + res if res else ())
    if key[1] == "split_sum":
        _, _, S, has_bias = key
        return rt.pipeline(key + tag, lambda: source("split_sum", S, (), has_bias, bn=bn, res=res),
                           "w" + "r" * (n_bufs - 1))
    _, _, S, tile, has_bias, prefetch = key[:6]
    return rt.pipeline(key + tag, lambda: source("fwd", S, tile, has_bias, prefetch, bn=bn, res=res),
                       "w" + "r" * (n_bufs - 1))


def source(pass_: str, S: str, tile: tuple[int, ...], has_bias: bool = False, prefetch: bool = True,
           split: bool = False, bn=None, res=None) -> str:
    """The WGSL of one conv pass (S: element type in memory) for tile (BM, BN, BK, RM, RN); split: a
    forward or input-gradient GEMM split along K, writing float32 partial sums for ``split_sum``; bn:
    an evaluation batch norm in the forward's or split_sum's epilogue (res: and a residual add)."""
    head, blocks = kernels.blocks("conv.wgsl")
    if pass_ == "wgrad_sum":
        decl = "@group(0) @binding(3) var<storage, read_write> db: array<S>;"
        return kernels.fill(head + blocks["wgrad_sum"], S=S, BIAS_DECL=decl if has_bias else "",
                            BIAS_STORE="if (n == pu(38u)) { db[co] = S(acc); }" if has_bias else "")
    if pass_ == "split_sum":
        decl = "@group(0) @binding(3) var<storage, read> Bias: array<S>;"
        return kernels.fill(head + blocks["split_sum"], S=S, BIAS_DECL=decl if has_bias else "",
                            BIAS=" + f32(Bias[pu(36u) + ch * pu(37u)])" if has_bias else "",
                            **_bn_epilogue(3 + has_bias, bn, res))
    BM, BN, BK, RM, RN = tile
    TX, TY = _threads(tile)
    T = TX * TY
    # without prefetch (software): every thread takes one k per slice, so each k decomposition (integer
    # divisions, which a CPU does one lane at a time) serves all of that thread's rows
    a_kf, b_kf = _KFAST[pass_] if prefetch else (True, True)
    sa, la, ta = _loader("a", BM, BK, a_kf, "PA", "m", T, prefetch)
    sb, lb, tb = _loader("b", BN, BK, b_kf, "PB", "n", T, prefetch)
    pass_code = blocks[pass_]
    slots = {}
    if pass_ in ("fwd", "dgrad"):
        per_group = "pu(17u)" if pass_ == "fwd" else "pu(16u)"
        slots["EMIT_SPLIT"] = (f"  out[split * pu(54u) * pu(19u) + (g * {per_group} + m) * pu(19u) + n] = S(v);\n"
                               "  return;" if split else "")
    if pass_ == "fwd":
        slots["BIAS_DECL"] = "@group(0) @binding(4) var<storage, read> Bias: array<S>;" if has_bias else ""
        slots["BIAS"] = " + f32(Bias[pu(36u) + co * pu(37u)])" if has_bias else ""
        slots.update(_bn_epilogue(4 + has_bias, bn, res))
    if slots:
        pass_code = kernels.fill(pass_code, **slots)
    # the input gradient finds its phase itself (conv.wgsl's dgrad locate); the others read words 19..24
    locate = "" if pass_ == "dgrad" else (
        "fn locate(f: u32) -> Loc { return Loc(f, pu(19u), pu(20u), pu(22u), pu(24u)); }")
    return kernels.fill(head + blocks["gemm"], S=S, LOCATE=locate, BM=str(BM), BN=str(BN), BK=str(BK), TX=str(TX), TY=str(TY),
                        THREADS=str(T), PASS=pass_code, SETUP=sa + "\n" + sb, LOAD=la + "\n" + lb,
                        STASH=ta + "\n" + tb, **_mma(tile))


_software: bool | None = None


def _is_software() -> bool:
    global _software
    if _software is None:
        from .webgpu import is_software, runtime
        _software = is_software(runtime().adapter)
    return _software


def _tile(M: int, N: int, G: int) -> tuple[int, ...]:
    """The tile shape for an M x N GEMM per group (G groups)."""
    def padded(t):
        return -(-M // t[0]) * t[0] * -(-N // t[1]) * t[1]
    if _is_software():
        return min(SOFTWARE_TILES, key=padded)
    big = [t for t in GPU_BIG if G * -(-M // t[0]) * -(-N // t[1]) >= BIG_TILES_MIN]
    if big:
        return min(big, key=padded)
    return min(GPU_TILES, key=lambda t: (padded(t), t[1]))


def _words(g: Geometry) -> list[int]:
    w = [0] * 60
    w[0:18] = [g.NB, g.C, g.H, g.W, g.CO, g.OH, g.OW, g.KH, g.KW, g.SH, g.SW, g.PH, g.PW, g.DH, g.DW, g.G,
               g.C // g.G, g.CO // g.G]
    return w


def _strided(w: list[int], at: int, t) -> None:
    w[at] = t._offset & MASK
    for i, s in enumerate(t._stride):
        w[at + 1 + i] = s & MASK


def _pipe(rt, pass_: str, S: str, tile, n_bufs: int, has_bias: bool = False, split: bool = False):
    prefetch = not _is_software()
    key = ("conv", pass_, S, tile, has_bias, prefetch) + (("split",) if split else ())
    return rt.pipeline(key, lambda: source(pass_, S, tile, has_bias, prefetch, split), "w" + "r" * (n_bufs - 1))


def _run(rt, pass_: str, S: str, w: list[int], bufs: tuple[int, ...], M: int, N: int, K: int, G: int,
         has_bias: bool = False, splits: int = 1, chunk: int | None = None, split: bool = False) -> None:
    tile = _tile(M, N, G)
    w[18], w[19], w[20] = M, N, K
    w[21], w[22] = -(-M // tile[0]), -(-N // tile[1])
    w[23], w[24] = splits, (chunk if chunk is not None else K)
    rt.dispatch(_pipe(rt, pass_, S, tile, len(bufs), has_bias, split), bufs, w, w[21] * w[22] * G * splits)


def _k_splits(M: int, N: int, K: int, G: int, S: str) -> tuple[int, int]:
    """(splits, chunk) for a forward or input-gradient GEMM: split along K on GPUs when its output tiles
    are too few to fill the device (deep layers, small batches), 1 elsewhere."""
    if _is_software() or S != "f32":
        return 1, K
    tile = _tile(M, N, G)
    tiles = G * -(-M // tile[0]) * -(-N // tile[1])
    if tiles >= SPLITK_BELOW or K < 2 * SPLIT_CHUNK_MIN:
        return 1, K
    splits = min(-(-SPLIT_TARGET_GPU // tiles), K // SPLIT_CHUNK_MIN)
    chunk = -(-K // splits)
    chunk = -(-chunk // tile[2]) * tile[2]
    return -(-K // chunk), chunk


def _split_sum(rt, S: str, w: list[int], part: GPUStorage, out: GPUStorage, channels: int, pixels: int,
               bias=None) -> None:
    """out (NCHW) = the sum of the splits' partial GEMMs (+ bias): words 19 (N) and 23 (splits) as the
    GEMM's."""
    w = list(w)
    w[54], w[55] = channels, pixels
    bufs = (out.bid, part.bid)
    if bias is not None:
        w[36], w[37] = bias._offset & MASK, bias._stride[0] & MASK
        bufs += (bias._storage.bid,)
    pipe = rt.pipeline(("conv", "split_sum", S, bias is not None),
                       lambda: source("split_sum", S, (), bias is not None), "w" + "r" * (len(bufs) - 1))
    rt.dispatch(pipe, bufs, w, groups_for(channels * w[19]))


def forward(x, w, bias, g: Geometry, dtype) -> GPUStorage:
    """y = conv2d(x, w) (+ bias) into new contiguous (NB, CO, OH, OW) memory."""
    rt = backend().rt
    item = dtype.storage_np.itemsize
    out = GPUStorage(rt, g.NB * g.CO * g.OH * g.OW * item)
    N = g.NB * g.OH * g.OW
    if N == 0 or g.CO == 0:
        return out
    w = w.contiguous()
    words = _words(g)
    _strided(words, 25, x)
    words[30] = w._offset
    bufs = (out.bid, x._storage.bid, w._storage.bid)
    if bias is not None:
        words[36], words[37] = bias._offset & MASK, bias._stride[0] & MASK
        bufs += (bias._storage.bid,)
    K = (g.C // g.G) * g.KH * g.KW
    M = g.CO // g.G
    splits, chunk = _k_splits(M, N, K, g.G, dtype.wgsl)
    if splits > 1:
        part = GPUStorage(rt, splits * g.CO * N * 4)
        ws = _with(words, 54, g.CO)
        _run(rt, "fwd", dtype.wgsl, ws, (part.bid,) + bufs[1:3], M, N, K, g.G, splits=splits, chunk=chunk,
             split=True)
        _split_sum(rt, dtype.wgsl, ws, part, out, g.CO, g.OH * g.OW, bias)
        return out
    _run(rt, "fwd", dtype.wgsl, words, bufs, M, N, K, g.G, has_bias=bias is not None)
    return out


def _with(words: list[int], at: int, value: int) -> list[int]:
    w = list(words)
    w[at] = value
    return w


def _taps(phase: int, pad: int, k: int, s: int, d: int) -> tuple[int, int, int]:
    """(first tap, tap step, tap count) of the taps kh with (phase + pad - kh*d) % s == 0."""
    taps = [t for t in range(k) if (phase + pad - t * d) % s == 0]
    if not taps:
        return 0, 1, 0
    step = s // math.gcd(s, d)
    assert taps == list(range(taps[0], k, step))
    return taps[0], step, len(taps)


def input_grad(dy, w, g: Geometry, dtype) -> GPUStorage:
    """dx (NB, C, H, W) of conv2d for dy (NB, CO, OH, OW): the transposed conv, one dispatch per phase."""
    rt = backend().rt
    item = dtype.storage_np.itemsize
    out = GPUStorage(rt, g.NB * g.C * g.H * g.W * item)
    if g.NB * g.C * g.H * g.W == 0:
        return out
    w = w.contiguous()
    base = _words(g)
    _strided(base, 31, dy)
    base[30] = w._offset
    bufs = (out.bid, dy._storage.bid, w._storage.bid)
    phases = [(ph, pw) for ph in range(min(g.SH, g.H)) for pw in range(min(g.SW, g.W))]
    if 1 < len(phases) <= MAX_PHASES:
        _phases_at_once(rt, base, bufs, phases, g, dtype.wgsl)
        return out
    for ph in range(min(g.SH, g.H)):
        kh0, khs, nkh = _taps(ph, g.PH, g.KH, g.SH, g.DH)
        HP = -(-(g.H - ph) // g.SH)
        for pw in range(min(g.SW, g.W)):
            kw0, kws, nkw = _taps(pw, g.PW, g.KW, g.SW, g.DW)
            WP = -(-(g.W - pw) // g.SW)
            words = list(base)
            words[40:54] = [ph, pw, HP, WP, nkh, nkw, kh0, kw0, khs, kws,
                            ((ph + g.PH - kh0 * g.DH) // g.SH) & MASK, ((pw + g.PW - kw0 * g.DW) // g.SW) & MASK,
                            khs * g.DH // g.SH, kws * g.DW // g.SW]
            K = (g.CO // g.G) * nkh * nkw
            M, N = g.C // g.G, g.NB * HP * WP
            splits, chunk = _k_splits(M, N, K, g.G, dtype.wgsl) if g.SH == g.SW == 1 else (1, K)
            if splits > 1:  # one phase (stride 1): its pixels are the whole image, in NCHW order
                part = GPUStorage(rt, splits * g.C * N * 4)
                ws = _with(words, 54, g.C)
                _run(rt, "dgrad", dtype.wgsl, ws, (part.bid,) + bufs[1:], M, N, K, g.G, splits=splits, chunk=chunk,
                     split=True)
                _split_sum(rt, dtype.wgsl, ws, part, out, g.C, g.H * g.W)
                continue
            _run(rt, "dgrad", dtype.wgsl, words, bufs, M, N, K, g.G)
    return out


def _phases_at_once(rt, words: list[int], bufs, phases, g: Geometry, S: str) -> None:
    """All the stride phases of an input gradient in one dispatch: the kernel finds each workgroup's
    phase from the first workgroups of the phases (words 54...) and derives that phase's words."""
    M = g.C // g.G
    Ns = [g.NB * -(-(g.H - ph) // g.SH) * -(-(g.W - pw) // g.SW) for ph, pw in phases]
    tile = _tile(M, max(Ns), g.G)
    words = list(words) + [0] * max(0, 54 + MAX_PHASES - len(words))
    words[18], words[21], words[23], words[39] = M, -(-M // tile[0]), 1, len(phases)
    start = 0
    for p, N in enumerate(Ns):
        words[54 + p] = start
        start += g.G * words[21] * -(-N // tile[1])
    rt.dispatch(_pipe(rt, "dgrad", S, tile, len(bufs)), bufs, words, start)


def weight_grad(dy, x, g: Geometry, dtype, with_bias: bool = False) -> tuple[GPUStorage, GPUStorage | None]:
    """(dw (CO, C // G, KH, KW), db (CO,) or None) of conv2d: the reduction over batch and output pixels,
    split when long. The bias gradient (the sum of dy over batch and pixels) is one more GEMM column
    whose B entries are 1: no separate reduction."""
    rt = backend().rt
    item = dtype.storage_np.itemsize
    Nw = (g.C // g.G) * g.KH * g.KW
    N = Nw + int(with_bias)
    out = GPUStorage(rt, g.CO * Nw * item)
    db = GPUStorage(rt, g.CO * item) if with_bias else None
    if g.CO * N == 0:
        return out, db
    M = g.CO // g.G
    K = g.NB * g.OH * g.OW
    words = _words(g)
    _strided(words, 25, x)
    _strided(words, 31, dy)
    words[38] = Nw
    tile = _tile(M, N, g.G)
    tiles = g.G * -(-M // tile[0]) * -(-N // tile[1])
    splits, chunk = 1, K
    target = SPLIT_TARGET if _is_software() else SPLIT_TARGET_GPU
    if tiles < target and K >= 2 * SPLIT_CHUNK_MIN:
        splits = min(-(-target // tiles), K // SPLIT_CHUNK_MIN)
        chunk = -(-K // splits)
        chunk = -(-chunk // tile[2]) * tile[2]
        splits = -(-K // chunk)
    direct = splits == 1 and dtype.wgsl == "f32" and not with_bias
    part = out if direct else GPUStorage(rt, splits * g.CO * N * 4)
    _run(rt, "wgrad", dtype.wgsl, words, (part.bid, dy._storage.bid, x._storage.bid), M, N, K, g.G,
         splits=splits, chunk=chunk)
    if not direct:
        pipe = rt.pipeline(("conv", "wgrad_sum", dtype.wgsl, with_bias),
                           lambda: source("wgrad_sum", dtype.wgsl, (), with_bias), "wr" + "w" * with_bias)
        rt.dispatch(pipe, (out.bid, part.bid) + ((db.bid,) if with_bias else ()), words, groups_for(g.CO * N))
    return out, db


trace_fusion.BN_EPILOGUE["conv"] = bn_variant
