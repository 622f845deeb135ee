"""Split sums riding on a later conv dispatch: the last rewrite of a captured trace (device/trace_fusion.py).

A weight gradient split along its long reduction adds up its partial sums in a ``wgrad_sum`` dispatch,
and a split-K input gradient (or forward) in a ``split_sum``: a few microseconds of memory-bound work,
one dispatch each (a ResNet-18 training step on a GPU has about thirty). When nothing uses the sum
before the next conv dispatch of the trace (a weight gradient is read by the optimizer at the end of
the step; an input gradient by the batch norm backward after its layer's weight gradient), that conv
dispatch takes the sum as its **tail**: it is dispatched with the sum's workgroups after its own (word
58 says where they begin; wgsl/conv.wgsl's ``tail`` block), and they do what the sum's kernel did,
in its order, so every value is the same bit for bit. The sum's dispatch goes; its partial sums live
until the host dispatch instead. A split sum that a batch norm kernel already took
(device/trace_fusion_bn.py) is gone before this pass runs.

Hosts are the plain GEMM kernels (forward, input gradient, weight gradient: no epilogue, so uniform
words 58..62 are free; an input gradient with more than 4 stride phases uses them and is skipped), one
tail each.
"""
from __future__ import annotations

from .trace_graph import _drop, _key_of, _uses

__all__ = ["fuse", "TAIL", "ENABLED"]

# kernel family -> fn(rt, host key, host buffers, kind, has_bias) -> ((pipeline, layout), threads a
# workgroup) of the host kernel with a tail; device/gpu_conv.py registers "conv"
TAIL: dict = {}
ENABLED = True   # off: A/B runs
HOST_PASSES = ("fwd", "dgrad", "wgrad")
MAX_HOST_PHASES = 4   # an input gradient's phases use words 54.. (conv.wgsl)


def _is_host(k) -> bool:
    return (bool(k) and k[0] == "conv" and k[1] in HOST_PASSES
            and (len(k) == 6 or (len(k) == 7 and k[6] == "split")))


def _sum_kind(k):
    """(kind, has_bias) of a split sum that may ride as a tail, else None."""
    if not k or k[0] != "conv" or len(k) != 4:
        return None
    if k[1] == "wgrad_sum":
        return "wgrad_sum", bool(k[3])
    if k[1] == "split_sum" and not k[3]:
        return "split_sum", False
    return None


def _tail_words(kind: str, words) -> list[int]:
    """Words 59..62 of the tail from the sum's own words (conv.wgsl's wgrad_sum and split_sum)."""
    if kind == "wgrad_sum":   # columns, splits, CO, the weight's columns
        return [words[19], words[23], words[4], words[38]]
    return [words[19], words[23], words[54], words[55]]   # columns, splits, channels, pixels an image


def _free_between(cap, lo: int, hi: int, bid: int) -> bool:
    """No record strictly between lo and hi, nor hi itself, binds buffer bid."""
    return all(bid not in cap.records[k][2] for k in range(lo + 1, hi + 1))


def fuse(rt, cap) -> int:
    """Each split sum whose outputs nothing uses before the next conv dispatch becomes that
    dispatch's tail; returns how many dispatches went."""
    if "conv" not in TAIL or not ENABLED:
        return 0
    keys = _key_of(rt)
    limit = int(rt.limits.get("maxStorageBuffersPerShaderStage", 8))
    touch = _uses(cap)
    patched = {i for i, _, _ in cap.patches}
    hosted, done = set(), set()
    for r, vs in enumerate(cap.rec_versions):
        kind = _sum_kind(keys.get(cap.records[r][0]))
        if kind is None or vs is None or r in patched:
            continue
        h = next((q for q in range(r + 1, len(cap.records)) if _is_host(keys.get(cap.records[q][0]))), None)
        if h is None or h in hosted or h in patched:
            continue
        _, _, bufs, words, _, _ = cap.records[r]
        pid_h, _, bufs_h, words_h, gx, gy = cap.records[h]
        key_h = keys[pid_h]
        if (key_h[2] != keys[cap.records[r][0]][2] or len(bufs_h) + len(bufs) > limit
                or (key_h[1] == "dgrad" and words_h[39] > MAX_HOST_PHASES)):
            continue
        # the partial sums: read by this sum only; what it writes: used by nothing up to the host
        vp = vs[1]
        if vp < 0 or [u for u in touch.get(vp, []) if u[1] != 0] != [(r, 1)]:
            continue
        outs = [j for j in range(len(bufs)) if j != 1]
        if not all(vs[j] >= 0 and all(u == (r, j) or u[0] > h for u in touch.get(vs[j], [])) for j in outs):
            continue
        if not all(_free_between(cap, r, h, b) for b in bufs):
            continue
        (pid, lid), threads = TAIL["conv"](rt, key_h, len(bufs_h), kind[0], kind[1])
        w = list(words_h) + [0] * max(0, 63 - len(words_h))
        start = gx * gy                     # the host's own workgroups (padding included) come first
        w[58] = start
        w[59:63] = _tail_words(kind[0], words)
        groups = start + -(-(w[61] * w[59]) // threads)
        ngx = min(groups, rt.max_groups)
        cap.records[h] = (pid, lid, tuple(bufs_h) + tuple(bufs), w, ngx, -(-groups // ngx))
        cap.rec_versions[h] = tuple(cap.rec_versions[h] or (-1,) * len(bufs_h)) + tuple(vs)
        hosted.add(h)
        done.add(r)
    _drop(cap, done)
    return len(done)
