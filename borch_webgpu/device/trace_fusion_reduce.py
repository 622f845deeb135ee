"""Elementwise producers folded into the reduction that reads them, over a captured trace.

``(dy * xhat).sum(0)``, ``(x - m).pow(2).mean(-1)``, ``(-g).sum()``: a float32 elementwise result
(one op, or a chain device/trace_fusion_ew.py already made) that only a reduction reads becomes that
reduction's **prologue**: the reduction's kernel computes each element it folds from the producer's
operands instead of loading it (reduce.wgsl's ``load``), and the temporary and its dispatch go. A
transformer layer's training step has a dozen (the LayerNorm and softmax backward formulas, the bias
gradients' sums of products).

Values are eager's bit for bit: each element is the same float32 result of the same WGSL functions,
and the reduction folds the elements in the order it did. The reduction's uniform words stay as they
were (device/layouts.py's RED has no room for more), so the producer's element offsets, scalars and
parameters are constants of the kernel, as its views are; a trace's values of them are fixed (a record
whose words change at replay is left alone). They are XORed with a zero the compiler cannot know, so
it cannot fold them into the arithmetic differently from eager, where they are uniform words; the
last stage's result passes through trace_fusion_ew's ``keep``, so it cannot be contracted into the
reduction's add.

Runs after trace_fusion_ew (whose chains it folds whole) in device/trace_fusion.py. A fused record's
key is ``("redf", reduction key, stages, views, offsets, scalars, params)``.
"""
from __future__ import annotations

from . import kernels
from . import trace_fusion_ew as ew
from .trace_graph import _drop, _key_of, _uses

__all__ = ["fuse", "ENABLED", "source"]

ENABLED = True   # off: A/B runs
FOLDING_MODES = (0, 1, 2)   # reduce.wgsl modes that read x (3 merges partial states)


def _reduction(k) -> bool:
    """A float32 reduction reading a float32 input (no int64 state) in a mode that loads x."""
    return (bool(k) and k[0] == "red" and k[3] == "f32" and k[5] == "f32" and k[6] in FOLDING_MODES
            and not k[8])


def _constant(words) -> bool:
    return all(type(w) is int for w in words)


def _f32_bits(w: int) -> str:
    return f"{w & 0xFFFFFFFF}u"


def source(red_key, stages, views, offsets, scalars, params) -> str:
    _, file, block, C, R, in_t, mode, rw, _ = red_key

    zero = "(u_rows() >> 31u)"   # 0, unknown to the compiler: constants stay opaque, as uniforms are

    def param(m: int) -> str:
        vals = ", ".join(f"bitcast<f32>({_f32_bits(w)} ^ {zero})" for w in params[m])
        return f"var p = array<f32, {len(params[m])}>({vals}); return p[j];"

    decls, body = ew.stage_code(stages, views, lambda n: f"{offsets[n]}u", lambda n: f"({_f32_bits(scalars[n])} ^ {zero})",
                                param, zero)
    bindings = [f"@group(0) @binding({2 + n}) var<storage, read> in{n}: array<f32>;" for n in range(len(views))]
    load = ("\n".join(decls) + "\nfn load(base: u32, j: u32) -> C {\n  let i = base + red_off(j);\n"
            + "\n".join(body) + f"\n  return C(s{len(stages) - 1});\n}}")
    return kernels.reduce_source(file, block, C, R, in_t, R, mode, False, rw, prologue=("\n".join(bindings), load))


def fuse(rt, cap) -> int:
    """Fold elementwise producers into the reductions that alone read them; returns how many went."""
    if not ENABLED:
        return 0
    limit = ew.operand_limit(rt)   # the producer's operands
    keys = _key_of(rt)
    patched = {i for i, _, _ in cap.patches}
    touch = _uses(cap)
    owner: dict[int, int] = {}   # folded producer -> its reduction
    for q, vs in enumerate(cap.rec_versions):
        pid, _, bufs, words, gx, gy = cap.records[q]
        kq = keys.get(pid)
        if vs is None or len(vs) != 2 or q in patched or not _reduction(kq) or vs[1] < 0:
            continue
        uses = touch.get(vs[1], [])
        if len(uses) != 2 or uses[0][1] != 0 or uses[1] != (q, 1) or not cap.versions[vs[1]][3]:
            continue
        p = uses[0][0]
        kp = keys.get(cap.records[p][0])
        if p in patched or p in owner or not ew._foldable(kp):
            continue
        c = ew._chain(kp, cap.records[p], cap.rec_versions[p])
        if (c is None or c.out_offset or len(c.ext) > limit or not _constant(c.scalars)
                or not _constant([x[2] for x in c.ext]) or not _constant([w for ps in c.params for w in ps])
                or ew._between(cap, p, q, c.ext, owner) or any(b == bufs[0] and v < 0 for b, v, _, _ in c.ext)):
            continue
        key = ("redf", kq, tuple(c.stages), tuple(x[3] for x in c.ext), tuple(x[2] for x in c.ext),
               tuple(c.scalars), tuple(tuple(ps) for ps in c.params))
        new_pid, lid = rt.pipeline(key, lambda: source(*key[1:]), "w" + "r" * len(c.ext))
        cap.records[q] = (new_pid, lid, (bufs[0],) + tuple(x[0] for x in c.ext), words, gx, gy)
        cap.rec_versions[q] = (vs[0],) + tuple(x[1] for x in c.ext)
        owner[p] = q
    _drop(cap, set(owner))
    return len(owner)
