"""Fusion over a captured trace (device/capture.py), before its buffers are planned.

A capture knows what eager code cannot: which dispatch reads a buffer, and that nothing else ever
will. The rewrites:

- **convolution + evaluation-mode batch norm**: a conv forward (or the ``split_sum`` of a split-K
  one) whose output is read by one batch-norm ``eval`` dispatch and by nothing else afterwards
  (``model.eval()`` + ``torch.compile(model)``: the conv's result is a temporary) becomes one
  dispatch: the conv kernel applies the batch norm (and the relu it carried) in its epilogue and
  writes the batch norm's output. The epilogue does the eval kernel's float32 operations in the same
  order, so the values are the same. The batch norm's buffers join the conv's bindings (8 at most,
  WebGPU's default limit).
- **... + residual add (+ relu)**: such a fused conv whose output only an elementwise ``add`` (or
  ``add_relu``, the add with an in-place relu as its epilogue) of two same-shape contiguous float32
  tensors reads (ResNet's ``bn2(conv2(x)) + identity``, then relu): the conv adds the other operand
  (binding ``RES``, word 61) in its epilogue and writes the add's output. The fused dispatch takes the
  add's place in the trace, after whatever produced the residual (the downsample branch runs after
  conv2), which is allowed only if nothing in between writes a buffer the conv reads.
- **relu's gradient + training batch norm's backward**: a ``threshold_backward`` whose output only
  the two backward kernels of a batch norm read, right after it (``bn -> relu`` in training: the
  gradient reaching the relu goes through its mask into the batch norm's backward) disappears: both
  kernels read the incoming gradient and the relu's output (one more binding, BN's ``y_offset``)
  and apply the mask as they read, with threshold_backward's float32 semantics, so the values are
  the same.
- **add + relu's gradient**: an add whose result only the threshold_backward right after it reads
  (the two gradients meeting at a ResNet block's input) becomes one three-operand kernel,
  ``add_threshold_backward``, with the add's float32 sum and the mask's semantics.

Then the training batch norm's rewrites (device/trace_fusion_bn.py), the split sums that ride on a
later conv dispatch (device/trace_fusion_tail.py), the elementwise chains that become one kernel
(device/trace_fusion_ew.py), and last the elementwise producers that the reduction reading them
computes as it loads (device/trace_fusion_reduce.py).
"""
from __future__ import annotations

from .layouts import BN, EW
from .trace_graph import _add_operands, _drop, _key_of, _plain_ew, _uses
from . import trace_fusion_bn, trace_fusion_ew, trace_fusion_reduce, trace_fusion_tail

__all__ = ["fuse", "BN_EPILOGUE"]

# kernel family -> fn(rt, key, (weight?, bias?, relu?), n_buffers) -> (pipeline, layout) of that kernel
# with an eval batch norm as its epilogue; device/gpu_conv.py registers "conv" (this module sits
# below the kernel modules and imports none of them)
BN_EPILOGUE: dict = {}
# kernel family -> fn(rt, key, n_buffers) -> (pipeline, layout) of that backward kernel reading dy through
# a relu's gradient (one more buffer: the relu's output); device/gpu_norm.py registers "bn"
RELU_GRAD: dict = {}
# [fn(rt, key) -> (pipeline, layout)] of an elementwise key; device/gpu_backend.py registers it
EW_PIPELINE: list = []
RESIDUAL = True   # the second rewrite (off: A/B runs, ``_bench_resnet.py --no-residual-fusion``)


def _conv_bn_pairs(cap, keys) -> list[tuple[int, int]]:
    """(conv record, batch-norm record) pairs that may fuse."""
    touch = _uses(cap)
    patched = {i for i, _, _ in cap.patches}
    pairs = []
    for i2, vs in enumerate(cap.rec_versions):
        k2 = keys.get(cap.records[i2][0])
        if vs is None or not k2 or k2[:2] != ("bn", "eval") or k2[2] != "f32" or vs[1] < 0:
            continue
        v = vs[1]
        uses = touch.get(v, [])
        # written by one record (binding 0: the conv's output) and read by the batch norm only, never
        # alive after the step
        if len(uses) != 2 or uses[0][1] != 0 or uses[1] != (i2, 1) or not cap.versions[v][3]:
            continue
        i1 = uses[0][0]
        k1 = keys.get(cap.records[i1][0])
        if not k1 or k1[0] != "conv" or k1[2] != "f32" or i1 in patched or i2 in patched:
            continue
        if (k1[1] == "fwd" and "split" not in k1 and "bn" not in k1) or k1[1] == "split_sum":
            pairs.append((i1, i2))
    return pairs


def _conv_add_pairs(rt, cap, keys) -> list[tuple[int, int, int]]:
    """(fused conv record, add record, the add's operand the conv wrote: 1 or 2) that may fuse."""
    limit = int(rt.limits.get("maxStorageBuffersPerShaderStage", 8))
    out, taken = [], set()
    for i3, j, i1, b1 in _add_operands(cap, keys):
        k1 = keys.get(cap.records[i1][0])
        if i3 in taken or b1 != 0 or not k1 or "bn" not in k1 or "res" in k1:
            continue
        at = k1.index("bn")
        if k1[at + 3] or len(cap.records[i1][2]) >= limit:   # a relu'd batch norm; no binding left
            continue
        reads = set(cap.records[i1][2][1:]) | {cap.records[i3][2][3 - j]}
        if any(cap.records[k][2] and cap.records[k][2][0] in reads for k in range(i1 + 1, i3)):
            continue
        out.append((i1, i3, j))
        taken.add(i3)
    return out


def _fuse_residuals(rt, cap) -> int:
    keys = _key_of(rt)
    pairs = _conv_add_pairs(rt, cap, keys)
    for i1, i3, j in pairs:
        pid1, lid1, bufs1, words1, gx, gy = cap.records[i1]
        _, _, bufs3, words3, _, _ = cap.records[i3]
        k1, k3 = keys[pid1], keys[cap.records[i3][0]]
        at = k1.index("bn")
        words = list(words1) + [0] * max(0, 62 - len(words1))
        words[61] = words3[EW.index("offset", 2 - j)]    # the other operand's element offset
        bufs = (bufs3[0],) + tuple(bufs1[1:]) + (bufs3[3 - j],)
        pipe = BN_EPILOGUE["conv"](rt, k1[:at], tuple(k1[at + 1:at + 4]), len(bufs), res=(k3[2] == "add_relu",))
        vs1, vs3 = cap.rec_versions[i1], cap.rec_versions[i3]
        cap.records[i3] = (pipe[0], pipe[1], bufs, words, gx, gy)
        cap.rec_versions[i3] = (vs3[0],) + tuple(vs1[1:]) + (vs3[3 - j],)
    _drop(cap, {i1 for i1, _, _ in pairs})
    return len(pairs)


def _relu_grads(rt, cap, keys) -> list[int]:
    """threshold_backward records whose output only the next two records read: a training batch
    norm's two backward kernels, as its dy."""
    limit = int(rt.limits.get("maxStorageBuffersPerShaderStage", 8))
    touch = _uses(cap)
    patched = {i for i, _, _ in cap.patches}
    out = []
    for i, vs in enumerate(cap.rec_versions[:-2]):
        k = keys.get(cap.records[i][0])
        if (vs is None or not k or k[:3] != ("ew", "ops_binary.wgsl", "threshold_backward")
                or k[3:7] != ("f32", "f32", "f32", False) or k[7] != ("c", "c") or set(k[8]) != {"f32"} or k[9]
                or len(vs) != 3 or vs[0] < 0 or {i, i + 1, i + 2} & patched
                or cap.records[i][3][EW.index("out_offset")] != 0):
            continue
        kr, ka = keys.get(cap.records[i + 1][0]), keys.get(cap.records[i + 2][0])
        if (not kr or not ka or kr[:3] != ("bn", "bwd_reduce", "f32") or ka[:3] != ("bn", "bwd_apply", "f32")
                or "relu" in kr or "relu" in ka or len(cap.records[i + 2][2]) >= limit):
            continue
        # dy: binding 2 of bwd_reduce (sdy, sdx, dy, x, st), binding 1 of bwd_apply (dx, dy, x, st, ...)
        if touch.get(vs[0]) != [(i, 0), (i + 1, 2), (i + 2, 1)] or not cap.versions[vs[0]][3]:
            continue
        out.append(i)
    return out


def _fuse_relu_grads(rt, cap) -> int:
    """Each threshold_backward (relu's gradient) that only a batch norm's backward reads becomes part
    of those two kernels: they read the incoming gradient and the relu's output and mask as they go."""
    if "bn" not in RELU_GRAD:
        return 0
    keys = _key_of(rt)
    found = _relu_grads(rt, cap, keys)
    for i in found:
        _, _, bufs_t, words_t, _, _ = cap.records[i]
        vs_t = cap.rec_versions[i]
        for r, j in ((i + 1, 2), (i + 2, 1)):   # dy's binding in bwd_reduce, bwd_apply
            pid, lid, bufs, words, gx, gy = cap.records[r]
            vs = cap.rec_versions[r] or (-1,) * len(bufs)
            words = list(words) + [0] * max(0, BN.index("y_offset") + 1 - len(words))
            words[BN.index("dy_offset")] = words_t[EW.index("offset", 0)]
            words[BN.index("y_offset")] = words_t[EW.index("offset", 1)]
            bufs = bufs[:j] + (bufs_t[1],) + bufs[j + 1:] + (bufs_t[2],)
            pipe = RELU_GRAD["bn"](rt, keys[pid], len(bufs))
            cap.records[r] = (pipe[0], pipe[1], bufs, words, gx, gy)
            cap.rec_versions[r] = vs[:j] + (vs_t[1],) + vs[j + 1:] + (vs_t[2],)
    _drop(cap, set(found))
    return len(found)


def _fuse_add_relu_grads(rt, cap) -> int:
    """An add whose result only the threshold_backward right after it reads (as its gradient: two
    gradients meeting at a relu's output, ResNet's block boundaries) becomes one kernel of three
    operands, add_threshold_backward, in the threshold_backward's place."""
    if not EW_PIPELINE:
        return 0
    keys = _key_of(rt)
    touch = _uses(cap)
    patched = {i for i, _, _ in cap.patches}
    found = []
    for i, vs in enumerate(cap.rec_versions[:-1]):
        ka, kt = keys.get(cap.records[i][0]), keys.get(cap.records[i + 1][0])
        vt = cap.rec_versions[i + 1]
        if (vs is None or vt is None or len(vs) != 3 or len(vt) != 3 or vs[0] < 0 or {i, i + 1} & patched
                or not _plain_ew(ka, "add", 2) or not _plain_ew(kt, "threshold_backward", 2)
                or cap.records[i][3][EW.index("out_offset")] != 0 or cap.records[i + 1][3][EW.index("out_offset")]
                or touch.get(vs[0]) != [(i, 0), (i + 1, 1)] or not cap.versions[vs[0]][3]):
            continue
        found.append(i)
    for i in found:
        _, _, bufs_a, words_a, _, _ = cap.records[i]
        pid, lid, bufs_t, words_t, gx, gy = cap.records[i + 1]
        k = keys[pid]
        key = k[:2] + ("add_threshold_backward",) + k[3:7] + (("c",) * 3, ("f32",) * 3) + k[9:]
        pipe = EW_PIPELINE[0](rt, key)
        words = list(words_t)
        a, b, c = (EW.index("offset", j) for j in range(3))
        words[a], words[b], words[c] = words_a[a], words_a[b], words_t[b]
        cap.records[i + 1] = (pipe[0], pipe[1], (bufs_t[0], bufs_a[1], bufs_a[2], bufs_t[2]), words, gx, gy)
        va, vt = cap.rec_versions[i], cap.rec_versions[i + 1]
        cap.rec_versions[i + 1] = (vt[0], va[1], va[2], vt[2])
    _drop(cap, set(found))
    return len(found)


def fuse(rt, cap) -> int:
    """Rewrite the capture's records in place; returns how many dispatches went."""
    return (_fuse_conv_bn(rt, cap) + _fuse_relu_grads(rt, cap) + _fuse_add_relu_grads(rt, cap)
            + trace_fusion_bn.fuse(rt, cap) + trace_fusion_tail.fuse(rt, cap) + trace_fusion_ew.fuse(rt, cap)
            + trace_fusion_reduce.fuse(rt, cap))


def _fuse_conv_bn(rt, cap) -> int:
    if "conv" not in BN_EPILOGUE:
        return 0
    keys = _key_of(rt)
    pairs = _conv_bn_pairs(cap, keys)
    if not pairs:
        return 0
    drop = set()
    for i1, i2 in pairs:
        pid1, lid1, bufs1, words1, gx, gy = cap.records[i1]
        _, _, bufs2, words2, _, _ = cap.records[i2]
        k1, k2 = keys[pid1], keys[cap.records[i2][0]]
        flags = frozenset(k2[3:])            # bias / relu / weight of the batch norm
        bn = (("weight" in flags), ("bias" in flags), ("relu" in flags))
        words = list(words1) + [0] * max(0, 61 - len(words1))
        for at, name in ((56, "rm_offset"), (57, "rv_offset"), (58, "w_offset"), (59, "b_offset"), (60, "eps")):
            words[at] = words2[BN.index(name)]
        bufs = (bufs2[0],) + tuple(bufs1[1:]) + tuple(bufs2[2:])
        pipe = BN_EPILOGUE["conv"](rt, k1, bn, len(bufs))
        cap.records[i1] = (pipe[0], pipe[1], bufs, words, gx, gy)
        vs1, vs2 = cap.rec_versions[i1], cap.rec_versions[i2]
        cap.rec_versions[i1] = (vs2[0],) + tuple(vs1[1:]) + tuple(vs2[2:])
        drop.add(i2)
    _drop(cap, drop)
    return len(drop) + (_fuse_residuals(rt, cap) if RESIDUAL else 0)
