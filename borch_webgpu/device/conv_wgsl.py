"""The WGSL of the convolution passes (wgsl/conv.wgsl filled for one tile shape): the tile loaders,
the unrolled register block, the evaluation batch-norm epilogue. device/gpu_conv.py picks the tile
shapes and records the dispatches; this module only writes source.
"""
from __future__ import annotations

from . import kernels

__all__ = ["source"]


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


def _tail(tail, threads: int) -> tuple[str, str]:
    """(TAIL_CALL, the tail's declarations and function): a split sum that the workgroups from word 58 on
    do (device/trace_fusion_tail.py); tail = (kind: "wgrad_sum" or "split_sum", with a bias column,
    the first binding of its buffers)."""
    if tail is None:
        return "", ""
    kind, has_bias, first = tail
    bias = kind == "wgrad_sum" and has_bias
    store = ("if (n < P) { t_out[co * P + n] = S(acc); }" + (" if (n == P) { t_db[co] = S(acc); }" if bias else "")
             if kind == "wgrad_sum" else "t_out[(n / P) * pu(61u) * P + co * P + n % P] = S(acc);")
    code = kernels.fill(kernels.blocks("conv.wgsl")[1]["tail"], T0=str(first), T1=str(first + 1), THREADS=str(threads),
                        TAIL_BIAS_DECL=f"@group(0) @binding({first + 2}) var<storage, read_write> t_db: array<S>;"
                        if bias else "", TAIL_STORE=store)
    call = "  { let raw = wg.y * nwg.x + wg.x; if (raw >= pu(58u)) { tail(raw - pu(58u), li); return; } }"
    return call, code


def source(pass_: str, S: str, tile: tuple[int, ...], has_bias: bool = False, prefetch: bool = True,
           split: bool = False, bn=None, res=None, tail=None) -> str:
    """The WGSL of one conv pass (S: element type in memory) for tile (BM, BN, BK, RM, RN); split: a
    forward or input-gradient GEMM split along K, writing float32 partial sums for ``split_sum``; bn:
    an evaluation batch norm in the forward's or split_sum's epilogue (res: and a residual add); tail:
    a split sum done by extra workgroups after the GEMM's (:func:`_tail`)."""
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
    call, tail_code = _tail(tail, T)
    return kernels.fill(head + blocks["gemm"], S=S, LOCATE=locate, BM=str(BM), BN=str(BN), BK=str(BK), TX=str(TX), TY=str(TY),
                        THREADS=str(T), PASS=pass_code + tail_code, SETUP=sa + "\n" + sb, LOAD=la + "\n" + lb,
                        STASH=ta + "\n" + tb, TAIL_CALL=call, **_mma(tile))
