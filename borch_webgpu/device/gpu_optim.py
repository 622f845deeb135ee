"""Fused optimizer updates on the ``webgpu`` device (wgsl/optim.wgsl): one dispatch per parameter
updates it and its state in one pass, packed with device/layouts.py's OPT. optim/_fused.py decides
when they apply and passes the hyper-parameters (floats, or ``capture.Dyn`` values that a captured
step recomputes at every replay)."""
from __future__ import annotations

from . import kernels
from .gpu_backend import backend
from .layouts import OPT
from .webgpu import groups_for

__all__ = ["sgd", "adam", "source"]


def source(mode: str, flags: frozenset) -> str:
    head, blocks = kernels.blocks("optim.wgsl")
    on = {f: str(f in flags).lower() for f in ("maximize", "weight_decay", "momentum", "nesterov", "amsgrad",
                                               "decoupled")}
    n_state = {"sgd": int("momentum" in flags), "adam": 3 if "amsgrad" in flags else 2}[mode]
    decl = "@group(0) @binding({}) var<storage, read_write> {}: array<f32>;"
    return kernels.fill(
        head + blocks[mode], UNIFORMS=OPT.wgsl(), MAXIMIZE=on["maximize"], WEIGHT_DECAY=on["weight_decay"],
        AMSGRAD=on["amsgrad"], DECOUPLED=on["decoupled"],
        S0_DECL=decl.format(2, "s0") if n_state >= 1 else "", S1_DECL=decl.format(3, "s1") if n_state >= 2 else "", S2_DECL=decl.format(4, "s2") if n_state >= 3 else "",
        G_BINDING=str(2 + n_state),
        SGD_MOMENTUM=("let si = u_s0_offset() + i;\n  var b = d;\n"
                      "  if (u_first() == 0u) { b = s0[si] * u_momentum() + u_one_minus_dampening() * d; }\n"
                      "  s0[si] = b;\n  " + ("d = d + u_momentum() * b;" if "nesterov" in flags else "d = b;")
                      if mode == "sgd" and n_state else ""),
        AMSGRAD_MAX=("let ki = u_s2_offset() + i;\n  vv = max(s2[ki], v);\n  s2[ki] = vv;" if n_state >= 3 else ""))


def _f(v):
    """A float for an f32 field (an int would be stored as its integer bits); a Dyn stays a Dyn."""
    return v if isinstance(v, float) else float(v)


def _run(mode: str, flags: frozenset, p, states, g, **words) -> None:
    rt = backend().rt
    words = {k: (_f(v) if OPT.fields[k].kind == "f32" else v) for k, v in words.items()}
    key = ("optim", mode) + tuple(sorted(flags))
    pipe = rt.pipeline(key, lambda: source(mode, flags), "w" * (1 + len(states)) + "r")
    offs = {f"s{k}_offset": s._offset for k, s in enumerate(states)}
    w = OPT.pack(numel=p.numel(), p_offset=p._offset, g_offset=g._offset, **offs, **words)
    bufs = (p._storage.bid,) + tuple(s._storage.bid for s in states) + (g._storage.bid,)
    rt.dispatch(pipe, bufs, w, groups_for(p.numel()))


def sgd(p, g, buf, first: bool, lr, weight_decay, momentum, dampening, nesterov: bool, maximize: bool) -> None:
    """p (and the momentum buffer buf, initialised to the gradient when first) updated in place."""
    flags = frozenset(f for f, on in (("maximize", maximize), ("weight_decay", weight_decay != 0),
                                      ("momentum", momentum != 0), ("nesterov", nesterov)) if on)
    states = (buf,) if buf is not None else ()
    _run("sgd", flags, p, states, g, first=int(first), neg_lr=-lr, weight_decay=weight_decay, momentum=momentum,
         one_minus_dampening=1 - dampening)


def adam(p, g, exp_avg, exp_avg_sq, max_exp_avg_sq, *, lr, beta1, beta2, eps, weight_decay, decoupled: bool,
         step_size, bc2_sqrt, maximize: bool) -> None:
    """Adam / AdamW: p, exp_avg, exp_avg_sq (and max_exp_avg_sq with amsgrad) updated in place."""
    flags = frozenset(f for f, on in (("maximize", maximize), ("weight_decay", weight_decay != 0),
                                      ("amsgrad", max_exp_avg_sq is not None), ("decoupled", decoupled)) if on)
    states = (exp_avg, exp_avg_sq) + ((max_exp_avg_sq,) if max_exp_avg_sq is not None else ())
    _run("adam", flags, p, states, g, weight_decay=weight_decay, one_minus_beta1=1 - beta1, beta2=beta2,
         one_minus_beta2=1 - beta2, eps=eps, bc2_sqrt=bc2_sqrt, neg_step_size=-step_size,
         decay_factor=1 - lr * weight_decay)
