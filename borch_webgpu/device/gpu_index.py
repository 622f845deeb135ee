"""WebGPU side of indexing: the `take` and `put` kernels of wgsl/index.wgsl.

Both can fail (an index outside its dim): each dispatch carries the code of its error site (the
exception, PyTorch's message, the op and the user's line; device/gpu_errors.py), and the runtime
raises it at the next read, at the end of the enclosing scope(), or at once with launch blocking."""
from __future__ import annotations

import numpy as np

from . import kernels
from .gpu_backend import MAX_RANK, GPUStorage, f32_bits
from .int64_range import accumulate_message
from .webgpu import groups_for, runtime

def _source(mode: str, T: str, src: str) -> str:
    head, modes = kernels.blocks("index.wgsl")
    return kernels.fill(head + modes[mode], T=T, SRC=src)


def _words(n, shape, dim, o_off, i_off, size, s_off, code, o_str, i_str, s_str, scalar_bits=0, negative=False):
    if len(shape) > MAX_RANK:
        raise NotImplementedError(f"indexing tensors of more than {MAX_RANK} dims")
    w = [0] * 60
    w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8] = n, len(shape), dim, o_off, i_off, size, s_off, code, \
        scalar_bits
    w[9] = 1 if negative else 0
    for base, vals in ((12, shape), (24, o_str), (36, i_str), (48, s_str)):
        for j, v in enumerate(vals):
            w[base + j] = int(v) & 0xFFFFFFFF
    return w


def take(x, dim: int, idx, idx_strides, out_shape, exc: type, message, op: str, negative: bool = False) -> GPUStorage:
    """out[c] = x[c with c[dim] replaced by idx[c . idx_strides]] for c over out_shape; a bad index raises
    exc(message) as from op (message: see Runtime.error_code)."""
    rt = runtime()
    n = int(np.prod(out_shape)) if out_shape else 1
    out = GPUStorage(rt, n * x.dtype.gpu_np.itemsize)
    if n == 0:
        return out
    T = x.dtype.wgsl
    pipe = rt.pipeline(("take", T), lambda: _source("take", T, ""), "wrrw")
    code = rt.error_code(exc, message, op)
    w = _words(n, out_shape, dim, x._offset, idx._offset, x._shape[dim], 0, code, x._stride, idx_strides, (),
               negative=negative)
    rt.dispatch(pipe, (out.bid, x._storage.bid, idx._storage.bid, rt.err_buffer), w, groups_for(n))
    if rt.launch_blocking:
        rt.after_fallible()
    return out


def put(out, dim: int, idx, idx_strides, src, src_shape, accumulate: bool, exc: type, message, op: str) -> None:
    """out[c with c[dim] = idx[c . idx_strides]] (+)= src[c] for c over src_shape; src may be a scalar."""
    rt = runtime()
    n = int(np.prod(src_shape)) if src_shape else 1
    if n == 0:
        return
    T = out.dtype.wgsl
    scalar = not hasattr(src, "_storage")
    wide = accumulate and out.dtype.name == "int64"   # int64 held as int32: exact 64-bit sums, then checked
    if accumulate:
        mode = "add_f32" if T == "f32" else ("add_i64" if wide else "add_i32")
        if T not in ("f32", "i32"):
            raise NotImplementedError(f"accumulating into {out.dtype} tensors")
    else:
        mode = "put"
    src_expr = ("T(bitcast<f32>(pu(8u)))" if T == "f32" else "T(bitcast<i32>(pu(8u)))") if scalar else "src[r.s]"
    pipe = rt.pipeline(("put", mode, T, scalar), lambda: _source(mode, T, src_expr), "wrrww" if wide else "wrrw")
    code = rt.error_code(exc, message, op)
    if scalar:
        bits = f32_bits(float(src)) if T == "f32" else int(src) & 0xFFFFFFFF
        src_buf, s_off, s_str = idx._storage.bid, 0, [0] * len(src_shape)
    else:
        bits, src_buf, s_off, s_str = 0, src._storage.bid, src._offset, src._stride
    w = _words(n, src_shape, dim, out._offset, idx._offset, out._shape[dim], s_off, code, out._stride, idx_strides,
               s_str, bits)
    if not wide:
        rt.dispatch(pipe, (out._storage.bid, src_buf, idx._storage.bid, rt.err_buffer), w, groups_for(n))
    else:
        _put_int64(rt, pipe, w, out._storage, src_buf, idx._storage.bid, op)
    if rt.launch_blocking:
        rt.after_fallible()


def _put_int64(rt, pipe, w, out: GPUStorage, src_buf: int, idx_buf: int, op: str) -> None:
    """An accumulating put into int64 (held as int32), exact whatever order the atomic adds run in: the
    high words of the 64-bit sums live in a scratch buffer (one per word of out, set to the sign extension
    of out's words first), and a last pass refuses a total that leaves int32 (PyTorch's value would be
    one we cannot hold); partial sums that pass 2**31 and come back are fine."""
    m = out.nbytes // 4
    hi = GPUStorage(rt, m * 4)
    code = rt.error_code(OverflowError, accumulate_message(op), op)
    side = [0] * 60
    side[0], side[10] = m, code
    p = rt.pipeline(("put", "hi"), lambda: _source("hi", "i32", ""), "wrrw")
    rt.dispatch(p, (hi.bid, out.bid, idx_buf, rt.err_buffer), side, groups_for(m))
    rt.dispatch(pipe, (out.bid, src_buf, idx_buf, rt.err_buffer, hi.bid), w, groups_for(int(w[0])))
    check = side[:11] + [1] + side[12:]   # a list of its own: words may be packed when the work is flushed
    rt.dispatch(p, (hi.bid, out.bid, idx_buf, rt.err_buffer), check, groups_for(m))
