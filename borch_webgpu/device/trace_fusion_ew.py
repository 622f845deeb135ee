"""Elementwise chains over a captured trace (device/capture.py): one kernel instead of several.

An elementwise dispatch whose result is a temporary that exactly one later elementwise dispatch
reads (``y = x * torch.sigmoid(x)``, ``(a - b) ** 2``, most composite backward formulas) is folded
into that reader: the reader's kernel computes the producer's op first, in a register, and reads
the producer's operands instead of the temporary. Folding repeats, so a chain (or a tree: a reader
may take several producers) of up to ``MAX_STAGES`` ops becomes one dispatch, with one storage
buffer per distinct outside operand.

What folds: float32 elementwise ops of ops_*.wgsl over operands of any strides (contiguous ones of the
output's shape, broadcast or transposed views: a LayerNorm written out, attention's head reshapes)
or Python scalars, written into new memory (no in-place or strided output, no int64 range check, no
bool result). A temporary folds only where its reader reads it contiguously: element i of the
reader is element i of the producer. The fused kernel runs each op's own WGSL function on the same
float32 values, so the results are eager's: each stage's result is rounded to float32 as it was
when stored (``keep`` in :func:`stage_code` stops a compiler from contracting it into the next
stage; tests/browser/test_trace_fusion_ew_webgpu.py compares bit for bit, on SwiftShader in CI and
on the H200). The producer moves to the reader's place in the trace, so no record in between may
touch any buffer version the producer reads.

A fused record's pipeline key is ``("ewf", stages, views)``; a stage is ``(file, block, args)`` and an
arg ``("x", n)`` outside operand n, ``("v", n)`` scalar n of the uniform block, or ``("s", m)`` the
result of stage m. ``views[n]`` is None for a contiguous outside operand, else its (coalesced) shape
and strides, which the kernel's index arithmetic takes as constants: a captured trace's shapes are
fixed, and a broadcast operand costs no uniform words. Its words are device/layouts.py's ``EWF``.
"""
from __future__ import annotations

import re

from . import kernels
from .layouts import EW, EWF
from .trace_graph import _drop, _key_of, _uses

__all__ = ["fuse", "EWF", "MAX_STAGES", "source"]

MAX_STAGES = EWF.fields["param"].shape[0]
MAX_SCALARS = EWF.fields["scalar"].shape[0]
ENABLED = True   # off: A/B runs (``_bench_resnet.py --no-ew-fusion``)


class _Chain:
    """One record seen as stages over outside operands (buffer, version, offset, view), scalars and
    params; a view is None (contiguous) or (shape, strides) over the output's elements."""

    def __init__(self, stages, ext, scalars, params, numel, out_offset, gx, gy):
        self.stages, self.ext, self.scalars, self.params = stages, ext, scalars, params
        self.numel, self.out_offset, self.gx, self.gy = numel, out_offset, gx, gy


def _plain(k) -> bool:
    """A float32 elementwise key over contiguous operands and scalars, into new contiguous memory."""
    return (bool(k) and k[0] == "ew" and k[3:7] == ("f32", "f32", "f32", False) and set(k[7]) <= {"c", "v", "s"}
            and set(k[8]) == {"f32"} and not k[9] and not k[10])


def _view(words, k: int):
    """Operand k's (shape, strides) from an elementwise record's words; None where a word is not a
    plain number (one recomputed at each replay cannot become a constant)."""
    rank = words[EW.index("rank")]
    shape = tuple(words[EW.index("shape", d)] for d in range(rank))
    stride = tuple(words[EW.index("stride", k, d)] for d in range(rank))
    if type(rank) is not int or any(type(w) is not int for w in shape + stride):
        return None
    return shape, stride


def _chain(key, rec, vs) -> _Chain:
    _, _, bufs, words, gx, gy = rec
    vs = vs or (-1,) * len(bufs)
    if key[0] == "ewf":
        n_ext = len(bufs) - 1
        n_sc = sum(a[0] == "v" for st in key[1] for a in st[2])
        ext = [(bufs[1 + n], vs[1 + n], words[EWF.index("offset", n)], key[2][n]) for n in range(n_ext)]
        sc = [words[EWF.index("scalar", n)] for n in range(n_sc)]
        params = [[words[EWF.index("param", m, j)] for j in range(3)] for m in range(len(key[1]))]
        return _Chain(list(key[1]), ext, sc, params, words[EWF.index("numel")], words[EWF.index("out_offset")],
                      gx, gy)
    args, ext, sc, b = [], [], [], 1
    for k, kind in enumerate(key[7]):
        if kind == "v":
            args.append(("v", len(sc)))
            sc.append(words[EW.index("scalar", k)])
        else:
            view = None
            if kind == "s":
                view = _view(words, k)
                if view is None:
                    return None
            args.append(("x", len(ext)))
            ext.append((bufs[b], vs[b], words[EW.index("offset", k)], view))
            b += 1
    params = [[words[EW.index("param", j)] for j in range(3)]]
    return _Chain([(key[1], key[2], tuple(args))], ext, sc, params, words[EW.index("numel")],
                  words[EW.index("out_offset")], gx, gy)


def _merge(p: _Chain, q: _Chain, e: int) -> _Chain:
    """q with its outside operand e replaced by p's result (p's stages first)."""
    ext = []

    def slot(x) -> int:   # one binding per distinct (buffer, version, offset, view)
        if x not in ext:
            ext.append(x)
        return ext.index(x)

    n_sc, n_st = len(p.scalars), len(p.stages)
    stages = []
    for f, blk, args in p.stages:
        stages.append((f, blk, tuple(("x", slot(p.ext[a[1]])) if a[0] == "x" else a for a in args)))
    for f, blk, args in q.stages:
        new = []
        for a in args:
            if a[0] == "x":
                new.append(("s", n_st - 1) if a[1] == e else ("x", slot(q.ext[a[1]])))
            elif a[0] == "v":
                new.append(("v", a[1] + n_sc))
            else:
                new.append(("s", a[1] + n_st))
        stages.append((f, blk, tuple(new)))
    return _Chain(stages, ext, p.scalars + q.scalars, p.params + q.params, q.numel, q.out_offset, q.gx, q.gy)


def _record(rt, c: _Chain):
    """(record, versions) of a fused chain."""
    key = ("ewf", tuple(c.stages), tuple(x[3] for x in c.ext))
    pid, lid = rt.pipeline(key, lambda: source(key[1], key[2]), "w" + "r" * len(c.ext))
    words = EWF.pack(numel=c.numel, out_offset=c.out_offset, offset=[x[2] for x in c.ext])
    for n, w in enumerate(c.scalars):
        words[EWF.index("scalar", n)] = w
    for m, ps in enumerate(c.params):
        for j, w in enumerate(ps):
            words[EWF.index("param", m, j)] = w
    return (pid, lid, None, words, c.gx, c.gy), tuple(x[1] for x in c.ext)


def _renamed(block: str, m: int) -> str:
    """An op block with its functions (``op`` and any helper) suffixed by the stage number, and its
    parameters read from the stage's own run of words."""
    for name in set(re.findall(r"\bfn\s+(\w+)\s*\(", block)):
        block = re.sub(rf"\b{name}\s*\(", f"{name}_s{m}(", block)
    return block.replace("u_param(", f"u_param_s{m}(")


def _index_fn(n: int, view, offset: str) -> str:
    """Outside operand n's element for output element i: its offset plus, for a view, the output
    index taken apart over the view's shape (constants) and weighed by its strides (u32 words:
    negative strides wrap around as in the elementwise kernel)."""
    if view is None:
        return f"fn at{n}(i: u32) -> u32 {{ return {offset} + i; }}"
    body = [f"fn at{n}(i: u32) -> u32 {{", "  var r = i;", f"  var o = {offset};"]
    shape, stride = view
    for d in range(len(shape) - 1, -1, -1):
        st = stride[d] & 0xFFFFFFFF
        if d == 0:
            body.append(f"  o += r * {st}u;" if st else "")
        else:
            if st:
                body.append(f"  o += (r % {shape[d]}u) * {st}u;")
            body.append(f"  r = r / {shape[d]}u;")
    return "\n".join(line for line in body if line) + "\n  return o;\n}"


def stage_code(stages, views, offset, scalar, param, zero: str) -> tuple[list[str], list[str]]:
    """WGSL of a chain over bindings ``in0..``: (declarations, body lines computing ``s0..`` for
    element ``i``). offset(n), scalar(n): WGSL expressions of outside operand n's element offset and
    scalar n's float32 bits; param(m): the body of stage m's ``u_param(j)``; zero: a u32 expression
    that is 0 but that the compiler cannot know (a uniform word's high bit).

    Each stage's result passes through ``keep``: its bits XORed with that zero. A GPU compiler may
    otherwise contract one stage's multiply and the next stage's add into a fused multiply-add (the
    H200's did), which eager, storing every result as float32 in between, never does; an integer
    operation on the bits makes the rounded float32 the only value the next stage can use."""
    n_ext = len(views)
    decls = [_index_fn(n, views[n], offset(n)) for n in range(n_ext)]
    decls.append(f"fn keep(v: f32) -> f32 {{ return bitcast<f32>(bitcast<u32>(v) ^ {zero}); }}")
    body = []
    for m, (f, blk, args) in enumerate(stages):
        decls.append(f"fn u_param_s{m}(j: u32) -> f32 {{ {param(m)} }}")
        decls.append(_renamed(kernels.op_block(f, blk), m))
        vals = [f"in{a[1]}[at{a[1]}(i)]" if a[0] == "x" else
                f"bitcast<f32>({scalar(a[1])})" if a[0] == "v" else f"s{a[1]}" for a in args]
        body.append(f"  let s{m} = keep(op_s{m}({', '.join(vals)}));")
    return decls, body


def source(stages, views=None) -> str:
    n_ext = 1 + max([a[1] for _, _, args in stages for a in args if a[0] == "x"], default=-1)
    views = views or (None,) * n_ext
    decls, body = stage_code(stages, views, lambda n: f"u_offset({n}u)", lambda n: f"u_scalar({n}u)",
                             lambda m: f"return u_param({m}u, j);", "(u_numel() >> 31u)")
    lines = [EWF.wgsl(), "alias C = f32;", "alias R = f32;",
             "@group(0) @binding(1) var<storage, read_write> out: array<f32>;"]
    lines += [f"@group(0) @binding({2 + n}) var<storage, read> in{n}: array<f32>;" for n in range(n_ext)]
    lines.append(kernels.common("f32"))
    lines += decls
    lines.append("@compute @workgroup_size(256)\n"
                 "fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,\n"
                 "        @builtin(local_invocation_index) li: u32) {\n"
                 "  let i = (wg.y * nwg.x + wg.x) * 256u + li;\n"
                 "  if (i >= u_numel()) { return; }\n" + "\n".join(body) + "\n"
                 f"  out[u_out_offset() + i] = s{len(stages) - 1};\n}}")
    return "\n".join(lines) + "\n"


def _between(cap, lo: int, hi: int, ext, owner) -> bool:
    """Does a record strictly between lo and hi (one not already folded into hi) bind one of these
    (buffer, version) operands?"""
    owned = {v for _, v, _, _ in ext if v >= 0}
    outside = {b for b, v, _, _ in ext if v < 0}
    for r in range(lo + 1, hi):
        if owner.get(r) == hi:
            continue
        bufs, vs = cap.records[r][2], cap.rec_versions[r] or (-1,) * len(cap.records[r][2])
        if owned & set(vs) or any(v < 0 and b in outside for b, v in zip(bufs, vs)):
            return True
    return False


def _foldable(k) -> bool:
    return _plain(k) or bool(k and k[0] == "ewf")


def operand_limit(rt) -> int:
    """How many storage buffers a fused kernel may read beside the one it writes (at most 8)."""
    return min(int(rt.limits.get("maxStorageBuffersPerShaderStage", 8)) - 1, 8)


def fuse(rt, cap) -> int:
    """Fold elementwise producers into their only reader; returns how many dispatches went."""
    if not ENABLED:
        return 0
    limit = operand_limit(rt)   # outside operands
    keys = _key_of(rt)
    patched = {i for i, _, _ in cap.patches}
    touch = _uses(cap)
    owner: dict[int, int] = {}       # folded record -> the record it went into
    fused: dict[int, _Chain] = {}
    for q, vs in enumerate(cap.rec_versions):
        kq = keys.get(cap.records[q][0])
        if vs is None or q in patched or not _foldable(kq):
            continue
        c = _chain(kq, cap.records[q], vs)
        if c is None:
            continue
        out = cap.records[q][2][0]
        grew = True
        while grew:
            grew = False
            for e, (_, v, off, view) in enumerate(c.ext):
                uses = touch.get(v, []) if v >= 0 else []
                if (off or view is not None or len(uses) != 2 or uses[0][1] != 0 or not cap.versions[v][3]
                        or (uses[1][0] != q and owner.get(uses[1][0]) != q)):
                    continue
                p = uses[0][0]
                kp = keys.get(cap.records[p][0])
                if p in patched or p in owner or not _foldable(kp):
                    continue
                cp = fused.get(p) or _chain(kp, cap.records[p], cap.rec_versions[p])
                if cp is None or cp.numel != c.numel or cp.out_offset or _between(cap, p, q, cp.ext, owner):
                    continue
                m = _merge(cp, c, e)
                if (len(m.stages) > MAX_STAGES or len(m.ext) > limit or len(m.scalars) > MAX_SCALARS
                        or any(b == out and v < 0 for b, v, _, _ in m.ext)):
                    # WebGPU cannot bind a buffer for reading and writing in one dispatch. A capture
                    # temporary that the reader's result reused is fine: plan() gives the two
                    # versions, which now overlap at this record, different buffers
                    continue
                c, owner[p], grew = m, q, True
                fused.pop(p, None)
                for r, o in owner.items():   # what went into p goes on with it
                    if o == p:
                        owner[r] = q
                break
        if len(c.stages) > 1:
            fused[q] = c
    for q, c in fused.items():
        rec, vers = _record(rt, c)
        cap.records[q] = rec[:2] + ((cap.records[q][2][0],) + tuple(x[0] for x in c.ext),) + rec[3:]
        cap.rec_versions[q] = (cap.rec_versions[q][0],) + vers
    _drop(cap, set(owner))
    return len(owner)
