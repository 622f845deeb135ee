"""Fused optimizer updates on the ``webgpu`` device (wgsl/optim.wgsl), packed with device/layouts.py's
OPT and OPTM. optim/_fused.py decides when they apply and passes the hyper-parameters (floats, or
``capture.Dyn`` values that a captured step recomputes at every replay):

- ``adam``: one dispatch per parameter updates it and its state in one pass;
- ``sgd_multi``: SGD over several parameters in one dispatch (as many as the device's storage-buffer
  limit allows, at most 14: OPTM's rows), the multi-tensor ("foreach") form of the update.
"""
from __future__ import annotations

from . import kernels
from .gpu_backend import backend
from .layouts import OPT, OPTM
from .webgpu import groups_for

__all__ = ["sgd_multi", "adam", "source", "multi_source", "per_dispatch", "MULTI_MAX"]

MULTI_MAX = 14  # OPTM's rows
_DECL = "@group(0) @binding({}) var<storage, {}> {}: array<f32>;"
_SINGLE = """{P}
{S0}
{S1}
{G}

fn index(gid: vec3<u32>, nwg: vec3<u32>) -> u32 {{ return gid.y * nwg.x * 256u + gid.x; }}

fn grad(i: u32) -> f32 {{
  var d = g[u_g_offset() + i];
  if (MAXIMIZE) {{ d = -d; }}
  return d;
}}"""


def _sgd_update(p: str, g: str, s: str, flags: frozenset, off) -> list[str]:
    """WGSL lines of the SGD update of element i (buffers p, g, s; off(k): the p / g / s offset word)."""
    lines = [f"let pi = {off(1)} + i;", f"var d = {g}[{off(2)} + i];"]
    if "maximize" in flags:
        lines.append("d = -d;")
    if "weight_decay" in flags:
        lines.append(f"d = d + u_weight_decay() * {p}[pi];")
    if "momentum" in flags:
        lines += [f"let si = {off(3)} + i;", "var b = d;",
                  f"if (u_first() == 0u) {{ b = {s}[si] * u_momentum() + u_one_minus_dampening() * d; }}",
                  f"{s}[si] = b;", "d = d + u_momentum() * b;" if "nesterov" in flags else "d = b;"]
    lines.append(f"{p}[pi] = {p}[pi] + u_neg_lr() * d;")
    return lines


def _on(flags: frozenset, name: str) -> str:
    return str(name in flags).lower()


def source(mode: str, flags: frozenset) -> str:
    """The one-parameter mode adam (s0 exp_avg, s1 exp_avg_sq, s2 max_exp_avg_sq with amsgrad)."""
    head, blocks = kernels.blocks("optim.wgsl")
    n_state = 3 if "amsgrad" in flags else 2
    single = _SINGLE.format(P=_DECL.format(1, "read_write", "p"),
                            S0=_DECL.format(2, "read_write", "s0") if n_state >= 1 else "",
                            S1=_DECL.format(3, "read_write", "s1") if n_state >= 2 else "",
                            G=_DECL.format(2 + n_state, "read", "g"))
    return kernels.fill(
        head + blocks[mode], UNIFORMS=OPT.wgsl(), MAXIMIZE=_on(flags, "maximize"),
        WEIGHT_DECAY=_on(flags, "weight_decay"), AMSGRAD=_on(flags, "amsgrad"), DECOUPLED=_on(flags, "decoupled"),
        SINGLE=single, S2_DECL=_DECL.format(4, "read_write", "s2") if n_state >= 3 else "",
        AMSGRAD_MAX=("let ki = u_s2_offset() + i;\n  vv = max(s2[ki], v);\n  s2[ki] = vv;" if n_state >= 3 else ""))


def multi_source(flags: frozenset, k: int) -> str:
    """sgd_multi for k parameters: bindings p_j, s_j (with momentum), g_j, and one case per tensor."""
    head, blocks = kernels.blocks("optim.wgsl")
    per = 3 if "momentum" in flags else 2
    decls, cases = [], []
    for j in range(k):
        b = 1 + per * j
        decls.append(_DECL.format(b, "read_write", f"p{j}"))
        if per == 3:
            decls.append(_DECL.format(b + 1, "read_write", f"s{j}"))
        decls.append(_DECL.format(b + per - 1, "read", f"g{j}"))
        body = _sgd_update(f"p{j}", f"g{j}", f"s{j}", flags, lambda c, j=j: f"u_tensor({j}u, {c}u)")
        cases.append(f"    case {j}u: {{\n      " + "\n      ".join(body) + "\n    }")
    return kernels.fill(head + blocks["sgd_multi"], UNIFORMS=OPTM.wgsl(), SINGLE="",
                        MAXIMIZE=_on(flags, "maximize"), WEIGHT_DECAY=_on(flags, "weight_decay"),
                        MULTI_DECLS="\n".join(decls), MULTI_CASES="\n".join(cases))


def _f(v):
    """A float for an f32 field (an int would be stored as its integer bits); a Dyn stays a Dyn."""
    return v if isinstance(v, float) else float(v)


def _sgd_flags(weight_decay, momentum, nesterov: bool, maximize: bool) -> frozenset:
    return frozenset(f for f, on in (("maximize", maximize), ("weight_decay", weight_decay != 0),
                                     ("momentum", momentum != 0), ("nesterov", nesterov)) if on)


def _run(mode: str, flags: frozenset, p, states, g, **words) -> None:
    rt = backend().rt
    words = {k: (_f(v) if OPT.fields[k].kind == "f32" else v) for k, v in words.items()}
    key = ("optim", mode) + tuple(sorted(flags))
    pipe = rt.pipeline(key, lambda: source(mode, flags), "w" * (1 + len(states)) + "r")
    offs = {f"s{k}_offset": s._offset for k, s in enumerate(states)}
    w = OPT.pack(numel=p.numel(), p_offset=p._offset, g_offset=g._offset, **offs, **words)
    bufs = (p._storage.bid,) + tuple(s._storage.bid for s in states) + (g._storage.bid,)
    rt.dispatch(pipe, bufs, w, groups_for(p.numel()))


def per_dispatch(momentum: bool) -> int:
    """How many parameters one sgd_multi dispatch updates on this device: its storage-buffer limit over
    the bindings a parameter takes (p, g and, with momentum, its buffer), at most MULTI_MAX."""
    limit = int(backend().rt.limits.get("maxStorageBuffersPerShaderStage", 8))
    return max(1, min(MULTI_MAX, limit // (3 if momentum else 2)))


def sgd_multi(items, first: bool, lr, weight_decay, momentum, dampening, nesterov: bool, maximize: bool) -> None:
    """SGD over items [(p, g, buf or None)] (at most per_dispatch() of them) in one dispatch."""
    rt = backend().rt
    flags = _sgd_flags(weight_decay, momentum, nesterov, maximize)
    k, mom = len(items), "momentum" in flags
    pipe = rt.pipeline(("optim", "sgd_multi", k) + tuple(sorted(flags)), lambda: multi_source(flags, k),
                       ("wwr" if mom else "wr") * k)
    rows = [(p.numel(), p._offset, g._offset, b._offset if mom else 0) for p, g, b in items]
    w = OPTM.pack(count=k, first=int(first), neg_lr=_f(-lr), weight_decay=_f(weight_decay), momentum=_f(momentum),
                  one_minus_dampening=_f(1 - dampening), tensor=rows)
    bufs: list[int] = []
    for p, g, b in items:
        bufs += [p._storage.bid] + ([b._storage.bid] if mom else []) + [g._storage.bid]
    rt.dispatch(pipe, tuple(bufs), w, sum(groups_for(p.numel()) for p, _, _ in items))


def adam(p, g, exp_avg, exp_avg_sq, max_exp_avg_sq, *, lr, beta1, beta2, eps, weight_decay, decoupled: bool,
         step_size, bc2_sqrt, maximize: bool) -> None:
    """Adam / AdamW: p, exp_avg, exp_avg_sq (and max_exp_avg_sq with amsgrad) updated in place."""
    flags = frozenset(f for f, on in (("maximize", maximize), ("weight_decay", weight_decay != 0),
                                      ("amsgrad", max_exp_avg_sq is not None), ("decoupled", decoupled)) if on)
    states = (exp_avg, exp_avg_sq) + ((max_exp_avg_sq,) if max_exp_avg_sq is not None else ())
    _run("adam", flags, p, states, g, weight_decay=weight_decay, one_minus_beta1=1 - beta1, beta2=beta2,
         one_minus_beta2=1 - beta2, eps=eps, bc2_sqrt=bc2_sqrt, neg_step_size=-step_size,
         decay_factor=1 - lr * weight_decay)
