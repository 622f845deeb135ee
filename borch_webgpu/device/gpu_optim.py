"""Fused optimizer updates on the ``webgpu`` device (wgsl/optim.wgsl), packed with device/layouts.py's
OPTM and OPTA. optim/_fused.py decides when they apply and passes the hyper-parameters (floats, or
``capture.Dyn`` values that a captured step recomputes at every replay). Both are multi-tensor
("foreach"): one dispatch updates as many parameters as the device's storage-buffer limit allows
over the bindings a parameter takes (at most the layout's rows):

- ``sgd_multi``: SGD (p, g and, with momentum, its buffer; 14 rows);
- ``adam_multi``: Adam / AdamW (p, g, exp_avg, exp_avg_sq and, with amsgrad, max_exp_avg_sq; 7 rows).
"""
from __future__ import annotations

from . import kernels
from .gpu_backend import backend
from .layouts import OPTA, OPTM
from .webgpu import groups_for

__all__ = ["sgd_multi", "adam_multi", "multi_source", "per_dispatch", "ROWS"]

ROWS = {"sgd_multi": 14, "adam_multi": 7}   # OPTM's and OPTA's rows
LAYOUT = {"sgd_multi": OPTM, "adam_multi": OPTA}
_DECL = "@group(0) @binding({}) var<storage, {}> {}: array<f32>;"


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


def _adam_update(j: int, flags: frozenset) -> list[str]:
    """WGSL lines of the Adam update of element i of tensor j (buffers p, g, ea: exp_avg, sq: exp_avg_sq,
    mx: max_exp_avg_sq), as optim/adam.py's tensor code computes it."""
    off = lambda c: f"u_tensor({j}u, {c}u)"  # noqa: E731
    lines = [f"let pi = {off(1)} + i;", f"var d = g{j}[{off(2)} + i];"]
    if "maximize" in flags:
        lines.append("d = -d;")
    lines.append(f"var w = p{j}[pi];")
    if "weight_decay" in flags:
        lines.append("w = w * u_decay_factor();" if "decoupled" in flags else "d = d + u_weight_decay() * w;")
    lines += [f"let mi = {off(3)} + i;", f"let vi = {off(4)} + i;", f"let m0 = ea{j}[mi];",
              # lerp(m, d, 1 - beta1) as PyTorch computes it (weight < 0.5: start + weight * (end - start),
              # else end - (end - start) * (1 - weight))
              "let wt = u_one_minus_beta1();",
              "let m = select(d - (d - m0) * (1.0f - wt), m0 + wt * (d - m0), abs(wt) < 0.5f);",
              f"let v = sq{j}[vi] * u_beta2() + d * u_one_minus_beta2() * d;",
              f"ea{j}[mi] = m;", f"sq{j}[vi] = v;", "var vv = v;"]
    if "amsgrad" in flags:
        lines += [f"let ki = {off(5)} + i;", f"vv = max(mx{j}[ki], v);", f"mx{j}[ki] = vv;"]
    lines += [f"let denom = sqrt(vv) / u_tensor_f({j}u, 1u) + u_eps();",
              f"p{j}[pi] = w + (m * u_tensor_f({j}u, 0u)) / denom;"]
    return lines


def _names(mode: str, flags: frozenset) -> list[str]:
    """The buffers one parameter binds, in binding order; all but the gradient (last) are written."""
    if mode == "sgd_multi":
        return ["p", "s", "g"] if "momentum" in flags else ["p", "g"]
    return ["p", "ea", "sq"] + (["mx"] if "amsgrad" in flags else []) + ["g"]


def multi_source(mode: str, flags: frozenset, k: int) -> str:
    """sgd_multi / adam_multi for k parameters: their bindings and one case per tensor."""
    head, blocks = kernels.blocks("optim.wgsl")
    names = _names(mode, flags)
    decls, cases = [], []
    for j in range(k):
        for n, name in enumerate(names):
            decls.append(_DECL.format(1 + len(names) * j + n, "read" if name == "g" else "read_write", f"{name}{j}"))
        if mode == "sgd_multi":
            body = _sgd_update(f"p{j}", f"g{j}", f"s{j}", flags, lambda c, j=j: f"u_tensor({j}u, {c}u)")
        else:
            body = _adam_update(j, flags)
        cases.append(f"    case {j}u: {{\n      " + "\n      ".join(body) + "\n    }")
    return kernels.fill(head + blocks["multi"], UNIFORMS=LAYOUT[mode].wgsl(), MULTI_DECLS="\n".join(decls),
                        MULTI_CASES="\n".join(cases))


def _f(v):
    """A float for an f32 field (an int would be stored as its integer bits); a Dyn stays a Dyn."""
    return v if isinstance(v, float) else float(v)


def _sgd_flags(weight_decay, momentum, nesterov: bool, maximize: bool) -> frozenset:
    return frozenset(f for f, on in (("maximize", maximize), ("weight_decay", weight_decay != 0),
                                     ("momentum", momentum != 0), ("nesterov", nesterov)) if on)


def per_dispatch(mode: str, flags: frozenset) -> int:
    """How many parameters one dispatch of ``mode`` updates on this device: its storage-buffer limit
    over the bindings a parameter takes, at most the layout's rows."""
    limit = int(backend().rt.limits.get("maxStorageBuffersPerShaderStage", 8))
    return max(1, min(ROWS[mode], limit // len(_names(mode, flags))))


def _dispatch(mode: str, flags: frozenset, items, words: list, buffers) -> None:
    rt = backend().rt
    k, names = len(items), _names(mode, flags)
    pipe = rt.pipeline(("optim", mode, k) + tuple(sorted(flags)), lambda: multi_source(mode, flags, k),
                       ("w" * (len(names) - 1) + "r") * k)
    bufs: list[int] = []
    for ts in buffers:
        bufs += [t._storage.bid for t in ts]
    rt.dispatch(pipe, tuple(bufs), words, sum(groups_for(it[0].numel()) for it in items))


def sgd_flags(weight_decay, momentum, nesterov: bool, maximize: bool) -> frozenset:
    return frozenset(f for f, on in (("maximize", maximize), ("weight_decay", weight_decay != 0),
                                     ("momentum", momentum != 0), ("nesterov", nesterov)) if on)


def sgd_multi(items, first: bool, lr, weight_decay, momentum, dampening, nesterov: bool, maximize: bool) -> None:
    """SGD over items [(p, g, buf or None)] (at most per_dispatch() of them) in one dispatch."""
    flags = sgd_flags(weight_decay, momentum, nesterov, maximize)
    mom = "momentum" in flags
    rows = [(p.numel(), p._offset, g._offset, b._offset if mom else 0) for p, g, b in items]
    w = OPTM.pack(count=len(items), first=int(first), neg_lr=_f(-lr), weight_decay=_f(weight_decay),
                  momentum=_f(momentum), one_minus_dampening=_f(1 - dampening), tensor=rows)
    _dispatch("sgd_multi", flags, items, w, [(p, b, g) if mom else (p, g) for p, g, b in items])


def adam_flags(weight_decay, amsgrad: bool, decoupled: bool, maximize: bool) -> frozenset:
    return frozenset(f for f, on in (("maximize", maximize), ("weight_decay", weight_decay != 0),
                                     ("amsgrad", amsgrad), ("decoupled", decoupled)) if on)


def adam_multi(items, *, lr, beta1, beta2, eps, weight_decay, amsgrad: bool, decoupled: bool, maximize: bool) -> None:
    """Adam / AdamW over items [(p, g, exp_avg, exp_avg_sq, max_exp_avg_sq or None, step_size, bc2_sqrt)]
    (at most per_dispatch() of them) in one dispatch; p and the state updated in place."""
    flags = adam_flags(weight_decay, amsgrad, decoupled, maximize)
    rows = [(p.numel(), p._offset, g._offset, m._offset, v._offset, x._offset if amsgrad else 0)
            for p, g, m, v, x, _, _ in items]
    w = OPTA.pack(count=len(items), weight_decay=_f(weight_decay), one_minus_beta1=_f(1 - beta1), beta2=_f(beta2),
                  one_minus_beta2=_f(1 - beta2), eps=_f(eps), decay_factor=_f(1 - lr * weight_decay), tensor=rows,
                  tensor_f=[(_f(-ss), _f(bc)) for *_, ss, bc in items])
    _dispatch("adam_multi", flags, items, w, [(p, m, v, x, g) if amsgrad else (p, m, v, g) for p, g, m, v, x, _, _ in items])
