"""Fusion over a captured trace (device/trace_fusion.py's rewrites, then these) into the kernels of
training-mode batch norm (device/gpu_norm.py, wgsl/batchnorm.wgsl), which run one workgroup a channel:

- **split-K sums into the batch norm's reductions**: a conv split along K (GPUs, when its output
  tiles are too few) adds up its partial sums in a ``split_sum`` dispatch. When the conv's output only
  a training batch norm reads (its statistics kernel first; in the backward: the input gradient that
  a batch norm's two backward kernels read, through a relu's mask or not), that kernel (statistics,
  backward reduce) adds up the partial sums itself, in split_sum's order, writes them where split_sum
  did and goes on with the same values: the split_sum dispatch goes.
- **two gradients' sum, masked, into the backward reduce**: an ``add_threshold_backward`` (two
  gradients meeting at a relu's output: ResNet's block boundaries) whose output a batch norm's backward
  reduce reads first (its backward apply next; the shortcut later) goes: the reduce kernel computes it
  as it reads dy, with that kernel's float32 semantics, and writes it where it did. The same for a
  plain ``add`` of two gradients that a relu-masking backward reduce reads (ResNet's stem).
- **one kernel a channel**: a statistics kernel followed by its apply (and a backward reduce by its
  backward apply, reading the same dy, x and statistics) becomes one kernel: after its reduction the
  workgroup goes over its channel once more and does the elementwise kernel's float32 operations
  with the values it holds, so the outputs are the same.
- **apply + residual add (+ relu)**: an apply (or a one-kernel statistics + apply) whose output only
  an elementwise ``add`` (or ``add_relu``) of two same-shape contiguous float32 tensors reads (ResNet's
  ``bn2(conv2(x)) + identity``, then the in-place relu) adds the other operand (binding ``res``, BN's
  ``res_offset``) and writes the add's output, with the add's float32 sum and add_relu's relu. The
  fused dispatch takes the add's place, after the shortcut branch, which is allowed only if no
  record in between uses a buffer the batch norm's kernel binds.

The first three move elementwise work into kernels of one workgroup a channel, so they ask gpu_norm
whether the channel count is worth it (BN_VARIANT's None otherwise); the last only saves a pass.
"""
from __future__ import annotations

from .layouts import BN, EW
from .trace_graph import _add_operands, _drop, _key_of, _plain_ew, _uses

__all__ = ["fuse", "BN_VARIANT"]

# kernel family -> fn(rt, key, n_buffers, channels=0, **flags) -> (pipeline, layout) or None: the variant
# of a statistics, backward reduce or apply kernel that first adds up a split-K conv's partial sums
# (split, split_bias) or two gradients (addgrad), or then does the elementwise kernel after it (apply,
# weight, bias, relu), or adds a residual (res, res_relu); None when that does not pay at this many
# channels; device/gpu_norm.py registers "bn"
BN_VARIANT: dict = {}
SPLIT_SUMS = True  # split-K sums and gradient sums into the batch norm kernels (off: A/B runs)
ONE_PASS = True    # statistics + apply, backward reduce + backward apply in one kernel (off: A/B runs)
RESIDUAL = True    # apply + residual add (+ relu) (off: A/B runs)


def _untouched(cap, lo: int, hi: int, bid: int, v: int) -> bool:
    """No record strictly between lo and hi uses buffer bid other than as version v (so v may live on
    in it until hi), and none writes it (binding 0)."""
    for k in range(lo + 1, hi):
        bufs, vs = cap.records[k][2], cap.rec_versions[k] or ()
        for j, b in enumerate(bufs):
            if b == bid and (j == 0 or (vs[j] if j < len(vs) else -1) != v):
                return False
    return True


def _split_reads(rt, cap, keys) -> list[tuple[int, int, tuple]]:
    """(split_sum record, consumer record, its kind: 'stats' or 'bwd_reduce') pairs that may fuse."""
    limit = int(rt.limits.get("maxStorageBuffersPerShaderStage", 8))
    touch = _uses(cap)
    patched = {i for i, _, _ in cap.patches}
    out, taken = [], set()
    for i, vs in enumerate(cap.rec_versions):
        k = keys.get(cap.records[i][0])
        if vs is None or not k or k[:3] != ("conv", "split_sum", "f32") or len(k) != 4 or i in patched:
            continue
        bufs, words = cap.records[i][2], cap.records[i][3]
        vo, vp = vs[0], vs[1]
        # the partial sums: written by the conv, read by this split_sum only
        up = touch.get(vp, []) if vp >= 0 else []
        if vo < 0 or len(up) != 2 or up[0][1] != 0 or up[1] != (i, 1) or not cap.versions[vp][3]:
            continue
        uo = touch.get(vo, [])
        if len(uo) < 2 or uo[0] != (i, 0):
            continue
        r = uo[1][0]
        kr = keys.get(cap.records[r][0])
        if not kr or kr[0] != "bn" or kr[2] != "f32" or r in patched or r in taken or cap.rec_versions[r] is None:
            continue
        wr = cap.records[r][3]
        if (wr[BN.index("channels")] != words[54] or wr[BN.index("spatial")] != words[55]
                or wr[BN.index("batch")] * wr[BN.index("spatial")] != words[19]
                or len(cap.records[r][2]) + 1 + k[3] > limit):
            continue
        if kr[1] == "stats":   # x of the statistics, then of apply and the backward: all read, as written
            if uo[1][1] != 1 or wr[BN.index("x_offset")] != 0:
                continue
        elif kr[1] == "bwd_reduce":   # dy of the backward's two kernels only: a temporary
            ka = keys.get(cap.records[r + 1][0]) if r + 1 < len(cap.records) else None
            if (uo[1:] != [(r, 2), (r + 1, 1)] or not cap.versions[vo][3] or not ka or ka[:3] != ("bn", "bwd_apply", "f32")
                    or wr[BN.index("dy_offset")] != 0 or cap.records[r + 1][3][BN.index("dy_offset")] != 0):
                continue
        else:
            continue
        # the partial sums (and the bias) stay as they are until the consumer reads them
        if not _untouched(cap, i, r, bufs[1], vp) or (k[3] and not _untouched(cap, i, r, bufs[2], vs[2])):
            continue
        out.append((i, r, kr[1]))
        taken.add(r)
    return out


def _fuse_split_sums(rt, cap) -> int:
    """Each split_sum whose output a batch norm's statistics or backward reduce kernel reads first
    becomes part of that kernel (it reads the partial sums, and the bias, and writes the sum)."""
    if "bn" not in BN_VARIANT or not SPLIT_SUMS:
        return 0
    keys = _key_of(rt)
    found = _split_reads(rt, cap, keys)
    done: set[int] = set()
    for i, r, kind in found:
        _, _, bufs_s, words_s, _, _ = cap.records[i]
        vs_s = cap.rec_versions[i]
        has_bias = keys[cap.records[i][0]][3]
        pid, lid, bufs, words, gx, gy = cap.records[r]
        vs = cap.rec_versions[r]
        words = list(words) + [0] * max(0, BN.index("bias_stride") + 1 - len(words))
        words[BN.index("splits")] = words_s[23]
        if kind == "stats":   # (st, x, ...) -> (st, part, x, ..., bias?)
            words[BN.index("bias_offset")], words[BN.index("bias_stride")] = words_s[36], words_s[37]
            bufs = (bufs[0], bufs_s[1]) + tuple(bufs[1:]) + ((bufs_s[2],) if has_bias else ())
            vs = (vs[0], vs_s[1]) + tuple(vs[1:]) + ((vs_s[2],) if has_bias else ())
        else:                 # (sdy, sdx, dy, x, st, y?) -> (..., part)
            bufs, vs = tuple(bufs) + (bufs_s[1],), tuple(vs) + (vs_s[1],)
        pipe = BN_VARIANT["bn"](rt, keys[pid], len(bufs), channels=words[BN.index("channels")], split=True,
                                split_bias=bool(has_bias))
        if pipe is None:
            continue
        done.add(i)
        cap.records[r] = (pipe[0], pipe[1], bufs, words, gx, gy)
        cap.rec_versions[r] = vs
    _drop(cap, done)
    return len(done)


def _same(cap, r: int, a: int, q: int, b: int) -> bool:
    """Binding a of record r and binding b of record q hold the same buffer (and version)."""
    vr, vq = cap.rec_versions[r] or (), cap.rec_versions[q] or ()
    return (cap.records[r][2][a] == cap.records[q][2][b]
            and (vr[a] if a < len(vr) else -1) == (vq[b] if b < len(vq) else -1))


def _fuse_one_pass(rt, cap) -> int:
    """A training batch norm's statistics kernel followed by its apply, and its backward reduce followed
    by its backward apply, each become one kernel (one workgroup a channel) where the kernel choice says
    the channels are enough (BN_VARIANT's None otherwise)."""
    if "bn" not in BN_VARIANT or not ONE_PASS:
        return 0
    limit = int(rt.limits.get("maxStorageBuffersPerShaderStage", 8))
    keys = _key_of(rt)
    patched = {i for i, _, _ in cap.patches}
    drop: set[int] = set()
    for r in range(len(cap.records) - 1):
        k1, k2 = keys.get(cap.records[r][0]), keys.get(cap.records[r + 1][0])
        if (not k1 or not k2 or k1[0] != "bn" or k2[0] != "bn" or k1[2] != "f32" or k2[2] != "f32"
                or {r, r + 1} & patched or r in drop or cap.rec_versions[r] is None or cap.rec_versions[r + 1] is None):
            continue
        pid, lid, bufs, words, gx, gy = cap.records[r]
        _, _, bufs2, words2, _, _ = cap.records[r + 1]
        f1, f2 = set(k1[4:]), set(k2[4:])
        same_words = ("x_offset",)
        if k1[1] == "stats" and k2[1] == "apply":
            xb = 2 if "split" in f1 else 1
            if not (_same(cap, r, xb, r + 1, 1) and _same(cap, r, 0, r + 1, 2)):
                continue
            flags = {f: f in f2 for f in ("weight", "bias", "relu")}
            extra = (bufs2[0],) + tuple(bufs2[3:])
            extra_vs = (cap.rec_versions[r + 1][0],) + tuple(cap.rec_versions[r + 1][3:])
            names = ("w_offset", "b_offset")
        elif k1[1] == "bwd_reduce" and k2[1] == "bwd_apply":
            # (sdy, sdx, dy, x, st, y?, part?) and (dx, dy, x, st, sdy, sdx, w?, y?)
            pairs = [(2, 1), (3, 2), (4, 3), (0, 4), (1, 5)] + ([(5, len(bufs2) - 1)] if "relu" in f1 else [])
            if ("relu" in f1) != ("relu" in f2) or not all(_same(cap, r, a, r + 1, b) for a, b in pairs):
                continue
            flags = {"weight": "weight" in f2}
            extra = (bufs2[0],) + ((bufs2[6],) if "weight" in f2 else ())
            extra_vs = (cap.rec_versions[r + 1][0],) + ((cap.rec_versions[r + 1][6],) if "weight" in f2 else ())
            names = ("w_offset",)
            same_words = ("x_offset", "dy_offset", "y_offset")
        else:
            continue
        words = list(words)
        if len(bufs) + len(extra) > limit or any(words[BN.index(n)] != words2[BN.index(n)] for n in same_words):
            continue
        pipe = BN_VARIANT["bn"](rt, k1, len(bufs) + len(extra), channels=words[BN.index("channels")], apply=True,
                                **flags)
        if pipe is None:
            continue
        for n in names:
            words[BN.index(n)] = words2[BN.index(n)]
        cap.records[r] = (pipe[0], pipe[1], tuple(bufs) + extra, words, gx, gy)
        cap.rec_versions[r] = tuple(cap.rec_versions[r]) + extra_vs
        drop.add(r + 1)
    _drop(cap, drop)
    return len(drop)


def _fuse_grad_adds(rt, cap) -> int:
    """Each add_threshold_backward (or add, before a relu-masking backward) whose output a batch norm's
    backward reduce reads first, and its backward apply next, becomes part of the reduce kernel (which
    writes that output)."""
    if "bn" not in BN_VARIANT or not SPLIT_SUMS:
        return 0
    limit = int(rt.limits.get("maxStorageBuffersPerShaderStage", 8))
    keys = _key_of(rt)
    touch = _uses(cap)
    patched = {i for i, _, _ in cap.patches}
    done: set[int] = set()
    for i, vs in enumerate(cap.rec_versions):
        k = keys.get(cap.records[i][0])
        masked = _plain_ew(k, "add_threshold_backward", 3)   # else a plain add, the mask in the reduce
        if (vs is None or vs[0] < 0 or i in patched or not (masked or _plain_ew(k, "add", 2))
                or cap.records[i][3][EW.index("out_offset")] != 0):
            continue
        n = len(vs) - 1
        uo = touch.get(vs[0], [])
        if len(uo) < 3 or uo[0] != (i, 0) or uo[1][1] != 2 or uo[2] != (uo[1][0] + 1, 1):
            continue
        r = uo[1][0]
        kr, ka = keys.get(cap.records[r][0]), keys.get(cap.records[r + 1][0])
        if (not kr or kr[:3] != ("bn", "bwd_reduce", "f32") or kr[4:] != (() if masked else ("relu",)) or not ka
                or ka[:3] != ("bn", "bwd_apply", "f32") or ("relu" in ka[4:]) == masked or r in patched
                or len(cap.records[r][2]) + n > limit):
            continue
        bufs_i, words_i = cap.records[i][2], cap.records[i][3]
        pid, lid, bufs, words, gx, gy = cap.records[r]
        if (words[BN.index("dy_offset")] or cap.records[r + 1][3][BN.index("dy_offset")]
                or words_i[EW.index("numel")] != words[BN.index("numel")]
                or not all(_untouched(cap, i, r, bufs_i[j], vs[j]) for j in range(1, n + 1))):
            continue
        pipe = BN_VARIANT["bn"](rt, kr, len(bufs) + n, channels=words[BN.index("channels")], addgrad=True)
        if pipe is None:
            continue
        words = list(words) + [0] * max(0, BN.index("gb_offset") + 1 - len(words))
        for name, j in (("ga_offset", 0), ("gb_offset", 1), ("y_offset", 2))[:n]:
            words[BN.index(name)] = words_i[EW.index("offset", j)]
        cap.records[r] = (pipe[0], pipe[1], tuple(bufs) + tuple(bufs_i[1:]), words, gx, gy)
        cap.rec_versions[r] = tuple(cap.rec_versions[r]) + tuple(vs[1:])
        done.add(i)
    _drop(cap, done)
    return len(done)


def _apply_add_pairs(rt, cap, keys) -> list[tuple[int, int, int, int]]:
    """(batch-norm record, its output's binding, add record, the add's operand it wrote: 1 or 2)."""
    limit = int(rt.limits.get("maxStorageBuffersPerShaderStage", 8))
    out, taken = [], set()
    for i3, j, i1, b1 in _add_operands(cap, keys):
        k1 = keys.get(cap.records[i1][0])
        f1 = set(k1[4:]) if k1 else set()
        if (i3 in taken or not k1 or k1[0] != "bn" or k1[2] != "f32" or "relu" in f1 or "res" in f1
                or not (k1[1] == "apply" and b1 == 0 or k1[1] == "stats" and "apply" in f1 and b1 > 0)):
            continue
        bufs1, words1 = cap.records[i1][2], cap.records[i1][3]
        if (len(bufs1) >= limit or cap.records[i3][3][EW.index("offset", j - 1)] != 0
                or cap.records[i3][3][EW.index("numel")] != words1[BN.index("numel")]):
            continue
        mine = set(bufs1)
        if any(set(cap.records[k][2]) & mine for k in range(i1 + 1, i3)):
            continue
        out.append((i1, b1, i3, j))
        taken.add(i3)
    return out


def _fuse_apply_residuals(rt, cap) -> int:
    if "bn" not in BN_VARIANT or not RESIDUAL:
        return 0
    keys = _key_of(rt)
    done = set()
    for i1, b1, i3, j in _apply_add_pairs(rt, cap, keys):
        pid1, _, bufs1, words1, gx, gy = cap.records[i1]
        _, _, bufs3, words3, _, _ = cap.records[i3]
        words = list(words1) + [0] * max(0, BN.index("res_offset") + 1 - len(words1))
        words[BN.index("res_offset")] = words3[EW.index("offset", 2 - j)]   # the other operand's
        bufs = bufs1[:b1] + (bufs3[0],) + bufs1[b1 + 1:] + (bufs3[3 - j],)
        vs1, vs3 = cap.rec_versions[i1], cap.rec_versions[i3]
        pipe = BN_VARIANT["bn"](rt, keys[pid1], len(bufs), res=True,
                                res_relu=keys[cap.records[i3][0]][2] == "add_relu")
        cap.records[i3] = (pipe[0], pipe[1], bufs, words, gx, gy)
        cap.rec_versions[i3] = vs1[:b1] + (vs3[0],) + vs1[b1 + 1:] + (vs3[3 - j],)
        done.add(i1)
    _drop(cap, done)
    return len(done)


def fuse(rt, cap) -> int:
    """The rewrites, in place; returns how many dispatches went."""
    return (_fuse_split_sums(rt, cap) + _fuse_grad_adds(rt, cap) + _fuse_one_pass(rt, cap)
            + _fuse_apply_residuals(rt, cap))
