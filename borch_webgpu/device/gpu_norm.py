"""Batch normalisation on the ``webgpu`` device: the dispatches of wgsl/batchnorm.wgsl (statistics
with the running-stat update, apply, evaluation-mode apply, and the two backward kernels), packed
with device/layouts.py's BN. ops/_nn_bn.py calls these; x and dy are contiguous (NB, C, S) views
(any element offset), the per-channel vectors (weight, bias, running stats) contiguous 1-D views.

Pipeline keys: (family, mode, dtype, flags); the flags are which optional operands exist (running
statistics, weight, bias) and, for apply and eval, a relu: an in-place relu of their output recorded
right after them (``nn.ReLU(inplace=True)``) switches that dispatch to its relu variant
(Runtime.offer_epilogue / take_epilogue) instead of a dispatch of its own. A captured step's fusions
(device/trace_fusion.py, trace_fusion_bn.py) add variants: the relu's gradient in the backward
kernels, and (:func:`source`'s split / addgrad / apply / res flags) work taken from the kernels
around a statistics, backward-reduce or apply kernel, when ONE_PASS_CHANNELS says it pays.
"""
from __future__ import annotations

from . import kernels, trace_fusion, trace_fusion_bn
from .gpu_backend import REDUCE_WIDTH, GPUStorage, backend, reduce_width
from .layouts import BN
from .webgpu import groups_for

__all__ = ["stats", "apply", "apply_eval", "backward_reduce", "backward_apply", "source"]


def _decl(binding: int, name: str, write: bool = False, t: str = "S") -> str:
    access = "read_write" if write else "read"
    return f"@group(0) @binding({binding}) var<storage, {access}> {name}: array<{t}>;"


def _split_decl(binding: int) -> str:
    """The partial sums of a conv split along K (conv.wgsl's ``part``) and ``split_sum(c, j)``: their
    sum at channel c, pixel j (of batch x spatial), added in conv.wgsl's split_sum order."""
    return _decl(binding, "part", t="f32") + """
fn split_sum(c: u32, j: u32) -> f32 {
  let N = u_batch() * u_spatial();
  let total = u_channels() * N;
  var acc = 0.0f;
  for (var s = 0u; s < u_splits(); s++) { acc += part[s * total + c * N + j]; }
  return acc;
}"""


def _affine(nxt: int, weight: bool, bias: bool, relu: bool) -> tuple[str, str]:
    """(declarations from binding nxt on, WGSL lines) of apply's ``v = v * w + b`` (then relu) at channel c."""
    decl, lines = [], []
    if weight:
        decl.append(_decl(nxt, "w"))
        lines.append("v = v * f32(w[u_w_offset() + c]);")
        nxt += 1
    if bias:
        decl.append(_decl(nxt, "b"))
        lines.append("v = v + f32(b[u_b_offset() + c]);")
    if relu:
        lines.append("v = relu_f(v);")
    return "\n".join(decl), "\n    ".join(lines)


def _res(i: str, relu: bool) -> str:
    """WGSL: the residual at element i added to v (then add_relu's relu: -0.0 and NaN stay)."""
    return "v = v + f32(res[u_res_offset() + " + i + "]);" + (" v = relu_f(v);" if relu else "")


def source(mode: str, S: str, running: bool = False, weight: bool = False, bias: bool = False,
           relu: bool = False, count: bool = False, split: bool = False, split_bias: bool = False,
           apply: bool = False, res: bool = False, res_relu: bool = False, addgrad: bool = False) -> str:
    """The WGSL of one mode; the flags add the optional operands' bindings (after the fixed ones).

    In a captured step (device/trace_fusion.py), for stats and bwd_reduce: split: x (stats) or dy
    (bwd_reduce) is first the sum of a split-K conv's partial sums, which the kernel writes there as
    conv.wgsl's split_sum would (split_bias: plus the conv's bias) as it reads them; apply: the kernel
    then does the next kernel's work too (apply, with weight / bias / relu; bwd_apply, with weight),
    from the values it holds, in that kernel's float32 operations (its output and weight bound last).
    res (apply, or stats with apply): the output is then added to a residual (bound last), as the add
    kernel it replaces does, and relu'd (res_relu) as add_relu does. addgrad (bwd_reduce): dy is
    first add_threshold_backward(ga, gb, y) (y at y_offset), or with relu ga + gb (then masked by the
    relu's output as ever), which the kernel writes to dy."""
    head, blocks = kernels.blocks("batchnorm.wgsl")
    slots = {"S": S, "UNIFORMS": BN.wgsl(), "RW": str(reduce_width(backend().rt)), "APPLY": ""}
    fixed = {"stats": 2, "apply": 3, "eval": 4, "bwd_reduce": 5, "bwd_apply": 6}[mode]
    nxt = fixed + 1
    if mode == "stats":
        slots["X_DECL"] = _decl(2, "x")
        slots["X_FIRST"] = "f32(x[u_x_offset() + elem(c, j)])"
        nxt = 3 + split
        if split:
            cb = " + f32(cb[u_bias_offset() + c * u_bias_stride()])" if split_bias else ""
            slots["X_DECL"] = (_split_decl(2) + "\n" + _decl(3, "x", True) + "\n"
                               "fn first_x(c: u32, j: u32) -> f32 {\n"
                               f"  let v = S(split_sum(c, j){cb});\n"
                               "  x[u_x_offset() + elem(c, j)] = v;\n  return f32(v);\n}")
            slots["X_FIRST"] = "first_x(c, j)"
        slots["RUNNING_DECL"] = (_decl(nxt, "rm", True) + "\n" + _decl(nxt + 1, "rv", True)) if running else ""
        nxt += 2 * running
        # num_batches_tracked += 1 by channel 0's first thread (one dispatch fewer per batch norm);
        # int64 lives in 32 bits on this device, so the count stops at 2**31 - 1 batches
        decl = [_decl(nxt, "nbt", True, "i32")] if count else []
        nxt += count
        if split_bias:
            decl.append(_decl(nxt, "cb"))
            nxt += 1
        if apply:
            decl.append(_decl(nxt, "y", True))
            ad, lines = _affine(nxt + 1, weight, bias, relu)
            decl.append(ad)
            if res:
                decl.append(_decl(nxt + 1 + weight + bias, "res"))
                lines += "\n    " + _res("e", res_relu)
            slots["APPLY"] = ("let inv = 1.0f / sqrt(vr + u_eps());\n"
                              "  for (var j = li; j < L; j += RW) {\n    let e = elem(c, j);\n"
                              "    var v = (f32(x[x0 + e]) - mean) * inv;\n"
                              f"    {lines}\n    y[e] = S(v);\n  }}")
        slots["COUNT_DECL"] = "\n".join(decl)
        slots["COUNT"] = ("if (c == 0u) { let n = nbt[u_count_offset()]; "
                          "nbt[u_count_offset()] = select(n + 1, n, n == 2147483647); }" if count else "")
        slots["RUNNING_UPDATE"] = (
            "let m = u_momentum();\n"
            "    rm[u_rm_offset() + c] = S((1.0f - m) * f32(rm[u_rm_offset() + c]) + m * mean);\n"
            "    rv[u_rv_offset() + c] = S((1.0f - m) * f32(rv[u_rv_offset() + c]) + m * vr * u_unbias());"
            if running else "")
    if mode in ("apply", "eval"):
        if mode == "apply":
            slots["NORM_DECL"] = _decl(3, "st", t="f32")
            slots["NORM"] = "var v = (xi - st[c]) * st[u_channels() + c];"
        else:
            slots["NORM_DECL"] = _decl(3, "rm") + "\n" + _decl(4, "rv")
            slots["NORM"] = ("var v = (xi - f32(rm[u_rm_offset() + c])) * "
                             "(1.0f / sqrt(f32(rv[u_rv_offset() + c]) + u_eps()));")
        slots["AFFINE_DECL"], slots["AFFINE"] = _affine(nxt, weight, bias, relu)
        slots["RELU"] = ""
        slots["RES"] = _res("i", res_relu) if res else ""
        if res:
            slots["AFFINE_DECL"] += "\n" + _decl(nxt + weight + bias, "res")
    if mode == "bwd_apply":
        slots["W_DECL"] = _decl(nxt, "w") if weight else ""
        nxt += weight
    slots["W"] = "f32(w[u_w_offset() + c])" if weight else "1.0f"
    if mode in ("bwd_reduce", "bwd_apply"):
        # relu: dy masked by a relu's output y as it is read (the threshold_backward that produced dy,
        # fused by device/trace_fusion.py)
        slots["Y_DECL"] = _decl(nxt, "yr") if relu else ""
        nxt += relu
        slots["DY_DECL"] = _decl(3, "dy", split or addgrad)
        # addgrad: add_threshold_backward(ga, gb, gy); with relu, the add before the relu's mask
        add = "f32(ga[u_ga_offset() + e]) + f32(gb[u_gb_offset() + e])"
        first = "split_sum(c, j)" if split else add if relu else f"relu_grad({add}, f32(gy[u_y_offset() + e]))"
        grad_ops = ("ga", "gb") + (() if relu else ("gy",))
        decl = (_split_decl(nxt) if split else
                "\n".join(_decl(nxt + k, n) for k, n in enumerate(grad_ops)) if addgrad else "")
        slots["SPLIT_DECL"] = (decl + "\nfn dy_at(c: u32, j: u32, e: u32) -> f32 {\n"
                               f"  let v = S({first});\n  dy[u_dy_offset() + e] = v;\n  return f32(v);\n}}"
                               if split or addgrad else "")
        nxt += split + len(grad_ops) * addgrad
        split = split or addgrad   # dy is written as it is first read
        grads = {}
        for name, i in (("GRAD_E", "e"), ("GRAD_I", "i"), ("GRAD_A", "e")):
            g = "dy_at(c, j, e)" if split and name == "GRAD_E" else f"f32(dy[u_dy_offset() + {i}])"
            grads[name] = slots[name] = f"relu_grad({g}, f32(yr[u_y_offset() + {i}]))" if relu else g
        if mode == "bwd_reduce" and apply:
            slots["SPLIT_DECL"] += "\n" + _decl(nxt, "dx", True) + ("\n" + _decl(nxt + 1, "w") if weight else "")
            slots["APPLY"] = ("let Lf = f32(L);\n  let scale = " + slots["W"] + " * inv;\n"
                              "  for (var j = li; j < L; j += RW) {\n    let e = elem(c, j);\n"
                              "    let xhat = (f32(x[u_x_offset() + e]) - mean) * inv;\n"
                              f"    let g = {grads['GRAD_A']};\n"
                              "    dx[e] = S(scale * (g - r.x / Lf - xhat * (r.y / Lf)));\n  }")
    return kernels.fill(head + blocks["apply" if mode == "eval" else mode], **slots)


def _relu_grad_pipe(rt, key: tuple, n_bufs: int):
    """trace_fusion's hook: the relu variant of a backward kernel's key (it reads one more buffer)."""
    _, mode, S, _ = key[:4]
    return _pipe(mode, S, n_bufs, weight="weight" in key[4:], relu=True)


trace_fusion.RELU_GRAD["bn"] = _relu_grad_pipe


# the fewest channels for which a statistics or backward-reduce kernel (one workgroup a channel) takes
# more work in a captured step (device/trace_fusion.py): a split-K conv's partial sums, the elementwise
# kernel after it. On GPUs fewer workgroups than this leave too little memory traffic in flight for the
# work they would take from fully parallel kernels. Timed on an H200 (CIFAR ResNet-18, B64 training step,
# ``_bench_resnet.py --one-pass-channels N``, GPU time of the replayed step, two calls):
# never 206 dispatches 14.49 ms; 512: 189, 14.44-14.45; 256: 177, 14.40-14.41; 128: 159, 14.96;
# 64 or 0: 146, 15.95-16.00. Again with the unrolled reductions (run 21b): 256: 149, 13.88-13.89; 128: 137,
# 14.07; 64: 124, 15.16. On software adapters a dispatch costs more than the lanes they would keep busy
ONE_PASS_CHANNELS = {"gpu": 256, "software": 1}
# the same for a split-K conv's partial sums alone (the statistics or backward reduce reads them instead
# of the sum). Timed on the H200 with the split sums' tails (device/trace_fusion_tail.py; three rounds
# each, GPU time of the replayed step): 256: 154 dispatches, 14.40-14.46 ms; 128: 150, 14.74-14.75 ms.
# 128 is the one that reaches the 150-dispatch target, for 0.3 ms (2%) more GPU time
SPLIT_CHANNELS = {"gpu": 128, "software": 1}


def _variant_pipe(rt, key: tuple, n_bufs: int, channels: int = 0, **more):
    """trace_fusion's hook: the variant of a stats, bwd_reduce or apply kernel ``key`` with the flags
    ``more`` (split, split_bias, apply and the apply's weight / bias / relu; res, res_relu; addgrad);
    None for apply or addgrad and fewer channels than ONE_PASS_CHANNELS, for split and fewer
    than SPLIT_CHANNELS."""
    _, mode, S, rw = key[:4]
    kind = "gpu" if rw == REDUCE_WIDTH["gpu"] else "software"
    if (more.get("apply") or more.get("addgrad")) and channels < ONE_PASS_CHANNELS[kind]:
        return None
    if more.get("split") and channels < max(SPLIT_CHANNELS[kind], 1):
        return None
    flags = {f: True for f in key[4:]}
    flags.update(more)
    return _pipe(mode, S, n_bufs, **flags)


trace_fusion_bn.BN_VARIANT["bn"] = _variant_pipe


def _pipe(mode: str, S: str, n_bufs: int, **flags):
    rt = backend().rt
    key = ("bn", mode, S, reduce_width(rt)) + tuple(sorted(k for k, v in flags.items() if v))
    f = {k: bool(v) for k, v in flags.items()}
    split = f.get("split", False)   # x (stats) or dy (bwd_reduce) written too
    apply = "w" * f.get("apply", False)
    mask = {"stats": "wr" + "w" * split + "ww" * f.get("running", False) + "w" * f.get("count", False)
            + "r" * f.get("split_bias", False) + apply,
            "bwd_reduce": "ww" + ("w" if split or f.get("addgrad") else "r") + "rr" + "r" * f.get("relu", False)
            + "r" * split + ("rr" + "r" * (not f.get("relu"))) * f.get("addgrad", False) + apply,
            }.get(mode, "w")
    mask += "r" * (n_bufs - len(mask))
    return rt.pipeline(key, lambda: source(mode, S, **flags), mask)


def _run(mode: str, S: str, bufs: tuple[int, ...], words: list, groups: int, **flags) -> None:
    backend().rt.dispatch(_pipe(mode, S, len(bufs), **flags), bufs, words, groups)
    if mode in ("apply", "eval") and not flags.get("relu"):
        # an in-place relu of the output right after (nn.ReLU(inplace=True)) becomes this kernel's epilogue
        relu = dict(flags, relu=True)
        backend().rt.offer_epilogue("relu", bufs[0], words[BN.index("numel")],
                                    lambda: _pipe(mode, S, len(bufs), **relu))


def _dims(x) -> dict:
    NB, C = x.shape[0], x.shape[1]
    sp = x.numel() // max(1, NB * C)
    return {"batch": NB, "channels": C, "spatial": sp, "numel": x.numel()}


def _bytes(n: int, dtype) -> int:
    return n * dtype.gpu_np.itemsize


def stats(x, rm, rv, momentum: float, eps: float, count=None) -> GPUStorage:
    """float32 [mean (C), invstd (C)] of each channel; rm/rv (or None) updated in place, and the int64
    scalar ``count`` (a module's num_batches_tracked, with rm and rv only) incremented."""
    d = _dims(x)
    C, L = d["channels"], d["batch"] * d["spatial"]
    st = GPUStorage(backend().rt, 8 * C)
    running = rm is not None
    words = BN.pack(**d, x_offset=x._offset, eps=float(eps), momentum=momentum,
                    unbias=(L / (L - 1)) if L > 1 else 1.0,
                    rm_offset=rm._offset if running else 0, rv_offset=rv._offset if running else 0,
                    count_offset=count._offset if count is not None else 0)
    bufs = (st.bid, x._storage.bid) + ((rm._storage.bid, rv._storage.bid) if running else ())
    bufs += (count._storage.bid,) if count is not None else ()
    _run("stats", x.dtype.wgsl, bufs, words, C, running=running, count=count is not None)
    return st


def _affine_bufs(w, b) -> tuple[tuple[int, ...], dict]:
    bufs = tuple(t._storage.bid for t in (w, b) if t is not None)
    offs = {"w_offset": w._offset if w is not None else 0, "b_offset": b._offset if b is not None else 0}
    return bufs, offs


def apply(x, st: GPUStorage, w, b) -> GPUStorage:
    """y = (x - mean) * invstd (* w + b) into new contiguous memory."""
    d = _dims(x)
    y = GPUStorage(backend().rt, _bytes(d["numel"], x.dtype))
    extra, offs = _affine_bufs(w, b)
    words = BN.pack(**d, x_offset=x._offset, **offs)
    _run("apply", x.dtype.wgsl, (y.bid, x._storage.bid, st.bid) + extra, words, groups_for(d["numel"]),
         weight=w is not None, bias=b is not None)
    return y


def apply_eval(x, rm, rv, w, b, eps: float) -> GPUStorage:
    """Evaluation mode: y = (x - rm) / sqrt(rv + eps) (* w + b), one kernel."""
    d = _dims(x)
    y = GPUStorage(backend().rt, _bytes(d["numel"], x.dtype))
    extra, offs = _affine_bufs(w, b)
    words = BN.pack(**d, x_offset=x._offset, rm_offset=rm._offset, rv_offset=rv._offset, eps=float(eps), **offs)
    _run("eval", x.dtype.wgsl, (y.bid, x._storage.bid, rm._storage.bid, rv._storage.bid) + extra, words,
         groups_for(d["numel"]), weight=w is not None, bias=b is not None)
    return y


def backward_reduce(dy, x, st: GPUStorage) -> tuple[GPUStorage, GPUStorage]:
    """float32 sum(dy) and sum(dy * xhat) per channel, in two buffers: the bias and the weight gradients
    """
    d = _dims(x)
    rt = backend().rt
    sdy, sdx = GPUStorage(rt, 4 * d["channels"]), GPUStorage(rt, 4 * d["channels"])
    words = BN.pack(**d, x_offset=x._offset, dy_offset=dy._offset)
    bufs = (sdy.bid, sdx.bid, dy._storage.bid, x._storage.bid, st.bid)
    _run("bwd_reduce", x.dtype.wgsl, bufs, words, d["channels"])
    return sdy, sdx


def backward_apply(dy, x, st: GPUStorage, sums: tuple[GPUStorage, GPUStorage], w) -> GPUStorage:
    """dx of training-mode batch norm from dy and the two sums of :func:`backward_reduce`."""
    d = _dims(x)
    dx = GPUStorage(backend().rt, _bytes(d["numel"], x.dtype))
    words = BN.pack(**d, x_offset=x._offset, dy_offset=dy._offset, w_offset=w._offset if w is not None else 0)
    bufs = (dx.bid, dy._storage.bid, x._storage.bid, st.bid, sums[0].bid, sums[1].bid)
    bufs += (w._storage.bid,) if w is not None else ()
    _run("bwd_apply", x.dtype.wgsl, bufs, words, groups_for(d["numel"]), weight=w is not None)
    return dx
