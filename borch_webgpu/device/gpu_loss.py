"""Cross-entropy on the ``webgpu`` device: the kernels of wgsl/loss.wgsl (the rows' losses and
log-sum-exps, their total, the input gradient), packed with device/layouts.py's CE. The forward is
one dispatch: ``rows`` alone for ``reduction='none'``, ``one`` (rows and total in one workgroup) up to
``ONE_ROWS`` rows and ``ONE_ELEMENTS`` logits (a classifier's batch), ``rows`` then ``total`` past
that; the backward is one (``bwd``). ops/_nn_ce.py
calls these with a contiguous float32 (N, C) input and a contiguous int64 (N,) target (stored as
i32 on this device).

Pipeline keys: ("ce", mode). The forward keeps one float32 buffer ``aux`` of 2N + 1 values for the
backward: the rows' losses (the output itself for ``reduction='none'``), their log-sum-exps, and
the number of targets not ignored.
"""
from __future__ import annotations

from . import kernels
from .gpu_backend import GPUStorage, backend
from .layouts import CE
from .webgpu import groups_for

__all__ = ["forward", "backward", "source", "MEAN"]

MEAN = {"mean": 1, "sum": 0, "none": 2}
_MASKS = {"rows": "wrrw", "total": "wwr", "one": "wwrrw", "bwd": "wrrrr"}
# one workgroup walks four rows at a time: past these, a workgroup per row and a second dispatch win
ONE_ROWS = 1024
ONE_ELEMENTS = 1 << 18


def source(mode: str) -> str:
    head, blocks = kernels.blocks("loss.wgsl")
    return kernels.fill(head + blocks[mode], UNIFORMS=CE.wgsl(), COMMON=kernels.common("f32"))


def _pipe(mode: str):
    return backend().rt.pipeline(("ce", mode), lambda: source(mode), _MASKS[mode])


def forward(x, t, ignore_index: int, reduction: str, exc: type, message, op: str) -> tuple[GPUStorage, GPUStorage]:
    """(out, aux): out holds the reduced loss (one float32; for 'none', out is aux, whose first N values
    are the rows' losses). A target outside [0, C) that is not ignore_index raises exc(message) from op
    (device/gpu_errors.py)."""
    rt = backend().rt
    N, K = x.shape
    aux = GPUStorage(rt, 4 * (2 * N + 1))
    words = CE.pack(rows=N, classes=K, x_offset=x._offset, t_offset=t._offset, ignore_index=int(ignore_index),
                    err_code=rt.error_code(exc, message, op), mean=MEAN[reduction])
    if reduction != "none" and N <= ONE_ROWS and N * K <= ONE_ELEMENTS:
        out = GPUStorage(rt, 4)
        rt.dispatch(_pipe("one"), (out.bid, aux.bid, x._storage.bid, t._storage.bid, rt.err_buffer), words, 1)
        if rt.launch_blocking:
            rt.after_fallible()
        return out, aux
    rt.dispatch(_pipe("rows"), (aux.bid, x._storage.bid, t._storage.bid, rt.err_buffer), words, N)
    if rt.launch_blocking:
        rt.after_fallible()
    if reduction == "none":
        return aux, aux
    out = GPUStorage(rt, 4)
    rt.dispatch(_pipe("total"), (out.bid, aux.bid, t._storage.bid), words, 1)
    return out, aux


def backward(x, t, aux: GPUStorage, gy, ignore_index: int, reduction: str) -> GPUStorage:
    """dx (N, C) of the forward above for the output gradient gy (contiguous float32: one value, or N
    for 'none')."""
    rt = backend().rt
    N, K = x.shape
    dx = GPUStorage(rt, 4 * N * K)
    words = CE.pack(rows=N, classes=K, x_offset=x._offset, t_offset=t._offset, ignore_index=int(ignore_index),
                    mean=MEAN[reduction], g_offset=gy._offset)
    rt.dispatch(_pipe("bwd"), (dx.bid, x._storage.bid, t._storage.bid, aux.bid, gy._storage.bid), words,
                groups_for(N * K))
    return dx
