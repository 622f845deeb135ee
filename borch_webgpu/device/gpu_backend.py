"""The ``webgpu`` device at the tensor level: storages over pooled GPU buffers, and the kernel
families (elementwise, reduce) that ops are dispatched to."""
from __future__ import annotations

import functools

import numpy as np

from . import gpu_int64_promote as promote, host64, kernels, trace_fusion, webgpu as _webgpu
from .capture import f32_word
from .int64_range import CHECKED_EW, MESSAGES, OP_NAMES, ZERO_CHECKED, ZERO_DIVISION, fits_int32
from .layouts import EW, RED
from .webgpu import WG, groups_for, runtime

MAX_RANK = 12


class GPUStorage:
    __slots__ = ("rt", "bid", "size", "nbytes", "__weakref__")

    def __init__(self, rt, nbytes: int, fresh: bool = False):
        self.rt = rt
        self.nbytes = nbytes
        self.bid, self.size = rt.alloc(max(nbytes, 4), fresh)

    @property
    def backend(self):
        return backend()

    def __del__(self):
        try:
            self.rt.release(self.bid, self.size)
        except Exception:  # interpreter shutdown
            pass


def contiguous_strides(shape) -> tuple[int, ...]:
    return _contiguous(tuple(shape))


@functools.lru_cache(maxsize=4096)
def _contiguous(shape: tuple[int, ...]) -> tuple[int, ...]:
    st, acc = [], 1
    for s in reversed(shape):
        st.append(acc)
        acc *= s
    return tuple(reversed(st))


def broadcast_strides(t, shape):
    """t's strides seen in the broadcast output shape (0 on broadcast dims)."""
    if t._shape == shape:
        return t._stride
    pad = len(shape) - len(t._shape)
    out = [0] * pad
    for s, st, o in zip(t._shape, t._stride, shape[pad:]):
        out.append(0 if s == 1 and o != 1 else st)
    return out


def coalesce(shape, stride_lists):
    """Merge adjacent dims that are contiguous in every operand; drop size-1 dims."""
    dims = [(s, [sl[d] for sl in stride_lists]) for d, s in enumerate(shape) if s != 1]
    out: list[tuple[int, list[int]]] = []
    for s, sts in dims:
        if out:
            ps, psts = out[-1]
            if all(p == c * s for p, c in zip(psts, sts)):
                out[-1] = (ps * s, sts)
                continue
        out.append((s, sts))
    return [s for s, _ in out], [[sts[k] for _, sts in out] for k in range(len(stride_lists))]


f32_bits = f32_word  # a Dyn (a value recomputed per replay) gives a patchable word


def scalar_bits(x, C) -> int:
    if C.wgsl in ("f32", "f16"):
        return f32_bits(x)
    return int(x) & 0xFFFFFFFF


def _values(raw: bytes, dt: np.dtype, shape, stride) -> np.ndarray:
    """A tensor's values (a new array of its shape) from the bytes of its span read back."""
    a = np.frombuffer(raw, dtype=dt)
    return np.lib.stride_tricks.as_strided(a, shape=shape, strides=tuple(s * dt.itemsize for s in stride)).copy()


class GPUBackend:
    name = "webgpu"

    def __init__(self, rt):
        self.rt = rt

    def empty(self, numel: int, dtype) -> GPUStorage:
        if dtype.host:  # float64, int8, uint8, int16: held on the host (device/host64.py)
            return host64.CPU.empty(numel, dtype)
        return GPUStorage(self.rt, numel * dtype.gpu_np.itemsize)

    def from_numpy(self, arr: np.ndarray, dtype) -> GPUStorage:
        if dtype.host:
            return host64.CPU.from_numpy(arr, dtype)
        if dtype.name == "int64" and arr.dtype.kind in "iu" and arr.dtype.itemsize >= 4 and arr.dtype != np.int32 \
                and not fits_int32(arr):
            st = host64.CPU.from_numpy(arr, dtype)   # values past int32: held on the host (int64_range.py)
            st.held = True
            return st
        a = np.ascontiguousarray(arr, dtype=dtype.gpu_np)
        st = GPUStorage(self.rt, a.nbytes, fresh=True)
        self.rt.write(st.bid, 0, a)  # a fresh buffer has no pending readers
        return st

    def _span(self, t):
        item = t.dtype.gpu_np.itemsize
        if 0 in t._shape:
            return 0, 0
        last = sum((s - 1) * st for s, st in zip(t._shape, t._stride))
        return t._offset * item, (last + 1) * item

    def to_numpy(self, t, what: str = "reading a tensor") -> np.ndarray:
        start, nbytes = self._span(t)
        dt = t.dtype.gpu_np
        if nbytes == 0:
            return np.zeros(t._shape, dtype=dt)
        try:
            return _values(self.rt.read(t._storage.bid, start, nbytes, what), dt, t._shape, t._stride)
        except promote.Promoted:   # its int64 values past int32 moved to the host as the read finished
            return host64.CPU.to_numpy(t)

    def to_cpu_later(self, t, what: str = "Tensor.to('cpu', non_blocking=True)"):
        """A cpu storage (t's values, contiguous) whose copy starts now and is waited for on first use."""
        from .cpu import DeferredCPUStorage
        start, nbytes = self._span(t)
        dt, shape, stride, host = t.dtype.gpu_np, t._shape, t._stride, t.dtype.storage_np
        if nbytes == 0:
            return DeferredCPUStorage(lambda: np.zeros(int(np.prod(shape)), dtype=host))
        finish = self.rt.read_later(t._storage.bid, start, nbytes, what)
        src = promote.Operand(t)

        def values():
            try:
                return _values(finish(), dt, shape, stride).reshape(-1).astype(host, copy=False)
            except promote.Promoted:
                return host64.CPU.to_numpy(src).reshape(-1).astype(host, copy=False)
        return DeferredCPUStorage(values)

    async def to_numpy_async(self, t, what: str = "reading a tensor") -> np.ndarray:
        start, nbytes = self._span(t)
        dt = t.dtype.gpu_np
        if nbytes == 0:
            return np.zeros(t._shape, dtype=dt)
        try:
            return _values(await self.rt.read_async(t._storage.bid, start, nbytes, what), dt, t._shape, t._stride)
        except promote.Promoted:
            return host64.CPU.to_numpy(t)

    # ---- kernel families ------------------------------------------------------------------------
    def elementwise(self, op, operands, C, R, shape, out_dtype=None, params=(), out=None, wgsl=None) -> GPUStorage:
        """Run an elementwise op: compute in C, the op returns R, the result is stored as out_dtype (R).

        params: up to three op parameters (floats, read in WGSL with u_param(j)). out: a tensor view to
        write into instead of a new contiguous storage (an in-place op or an assignment)."""
        O = out_dtype or R
        if host64.needed(operands, C, O) or (out is not None and out._storage.__class__ is not GPUStorage):
            return host64.elementwise(self, op, operands, C, R, shape, O, params, out, wgsl)
        numel = 1
        for s in shape:
            numel *= s
        if out is None:
            storage = GPUStorage(self.rt, numel * O.gpu_np.itemsize)
            out_off = 0
        else:
            storage = out._storage
            out_off = out._offset
        if numel == 0:
            return storage
        cstr = contiguous_strides(shape)
        strided_out = out is not None and tuple(out._stride) != cstr
        kinds, types, bufs, offsets, scalars, strided = [], [], [storage.bid], [0, 0, 0], [0, 0, 0], []
        for k, x in enumerate(operands):
            if isinstance(x, (bool, int, float)):
                kinds.append("v")
                types.append(C.wgsl)
                scalars[k] = scalar_bits(x, C)
                continue
            bs = broadcast_strides(x, shape)
            types.append(x.dtype.wgsl)
            if out is not None and x._storage is storage:
                # the operand is the output itself (an in-place op): WebGPU cannot bind one buffer as
                # read-only and read-write in a dispatch, so it is read through the output binding
                kinds.append("o")
                continue
            bufs.append(x._storage.bid)
            offsets[k] = x._offset
            if tuple(bs) == cstr:
                kinds.append("c")
            else:
                kinds.append("s")
                strided.append((k, bs))
        if strided_out:
            if len(operands) > 2:
                raise NotImplementedError(f"{op.name}: writing into a non-contiguous view with 3 operands")
            strided.append((2, list(out._stride)))
            offsets[2] = out_off
        rank, shp, sts = 0, [], []
        if strided:
            shp, sts = coalesce(shape, [bs for _, bs in strided])
            rank = len(shp)
            if rank > MAX_RANK:
                raise NotImplementedError(f"{op.name}: tensors with more than {MAX_RANK} non-mergeable dims")
        # negative strides (internal flip views) wrap around in the kernel's u32 arithmetic
        words = EW.pack(numel=numel, rank=rank, out_offset=out_off, offset=offsets, scalar=scalars, param=params,
                        shape=shp, stride={k: st for (k, _), st in zip(strided, sts)})
        kinds_t, types_t = tuple(kinds), tuple(types)
        ob = O.name == "bool" and R.name != "bool"
        file, block = wgsl or op.wgsl
        # int64 (held as int32): the ops that can leave int32's range check it; integer divisions check
        # for a zero divisor (device/int64_range.py)
        checked = self._int_check(file, block, C, O) if C.category == 1 or O.name == "int64" else ""
        key = ("ew", file, block, C.wgsl, R.wgsl, O.wgsl, ob, kinds_t, types_t, strided_out, checked)
        mask = "w" + "r" * (len(bufs) - 1)
        if checked:
            mask += "w"
            bufs.append(self.rt.err_buffer)
            zero_op = ZERO_CHECKED.get(block) if checked != "convert" else None
            if checked != "zero":
                which = block if checked == "op" else "convert"
                words[EW.index("err_code")] = self.rt.error_code(OverflowError, MESSAGES[which],
                                                                 OP_NAMES.get(which, which))
            if zero_op is not None:
                words[EW.index("err_zero")] = self.rt.error_code(RuntimeError, ZERO_DIVISION, zero_op,
                                                                 count=checked == "zero")
        # a fresh int64 result that may leave int32: moved to the host at the next read when it did
        # (device/gpu_int64_promote.py)
        slot = self.rt.i64_reserve() if checked == "op" and out is None else 0
        words[EW.index("err_slot")] = slot
        pipe = self.rt.pipeline(key, lambda: kernels.elementwise_source(file, block, C.wgsl, R.wgsl, O.wgsl, ob,
                                                                           kinds_t, types_t, strided_out, checked),
                                mask)
        self.rt.dispatch(pipe, tuple(bufs), words, groups_for(numel))
        if slot:
            ops = promote.operands(operands)
            self.rt.i64_arm(slot, storage, O, ops, promote.elementwise_values(op, ops, C, R, shape, O, params, wgsl))
        if checked and self.rt.launch_blocking:
            if slot:
                return self.rt.i64_blocking(storage)
            self.rt.after_fallible()
        variant = EPILOGUES.get((file, block)) if out is None and C.wgsl == "f32" and R.wgsl == "f32" else None
        if variant is not None:
            # an in-place relu of this fresh result recorded next becomes its epilogue (Runtime.take_epilogue)
            vkey = key[:2] + (variant,) + key[3:]
            self.rt.offer_epilogue("relu", storage.bid, numel, lambda: self.rt.pipeline(
                vkey, lambda: kernels.elementwise_source(file, variant, C.wgsl, R.wgsl, O.wgsl, ob, kinds_t, types_t,
                                                         strided_out), "w" + "r" * (len(bufs) - 1)))
        return storage

    @staticmethod
    def _int_check(file: str, block: str, C, O) -> str:
        """"op": the int64 block of ops_int64.wgsl; "convert": a float stored as int64 is checked; "zero":
        the integer division's own block, which checks its divisor; "": no check (no error buffer)."""
        if C.name == "int64" and (file, block) in CHECKED_EW:
            return "op"
        if C.category == 1 and block in ZERO_CHECKED and file == "ops_binary.wgsl":
            return "zero"
        if O.name == "int64" and C.is_floating_point:
            return "convert"
        return ""

    def reduce(self, op, x, dims: tuple[int, ...], out_shape, C, R, params=(), wgsl=None) -> GPUStorage:
        """Reduce x over dims: compute in C, result R; params are read in WGSL with u_param(j)."""
        if host64.needed((x,), C, R):
            return host64.reduce(self, op, x, dims, out_shape, C, R, params, wgsl)
        kept = [d for d in range(len(x._shape)) if d not in dims]
        M = 1
        for d in kept:
            M *= x._shape[d]
        K = 1
        for d in dims:
            K *= x._shape[d]
        out = GPUStorage(self.rt, max(M, 1) * R.gpu_np.itemsize)
        if M == 0:
            return out
        kshape, (kstr,) = coalesce([x._shape[d] for d in kept], [[x._stride[d] for d in kept]])
        rshape, (rstr,) = coalesce([x._shape[d] for d in dims], [[x._stride[d] for d in dims]])
        if len(kshape) > MAX_RANK or len(rshape) > MAX_RANK:
            raise NotImplementedError(f"{op.name}: tensors with more than {MAX_RANK} non-mergeable dims")
        words = RED.pack(rows=M, red_len=K, kept_rank=len(kshape), red_rank=len(rshape), in_offset=x._offset,
                         param=[float(p) if not isinstance(p, float) else p for p in params],
                         kept_shape=kshape, kept_stride=kstr, red_shape=rshape, red_stride=rstr)
        in_t, (file, block) = x.dtype.wgsl, (wgsl or op.wgsl)
        # int64 sums and products: a 64-bit state, and a result past int32 is an OverflowError
        checked = C.name == "int64" and block in INT64_REDUCE
        extra, state_words = ((self.rt.err_buffer,), 2) if checked else ((), op.state_words)
        slot = 0
        if checked:
            words[RED.index("err_code")] = self.rt.error_code(OverflowError, MESSAGES[block], op.name)
            slot = words[RED.index("err_slot")] = self.rt.i64_reserve()

        rw = reduce_width(self.rt)

        def pipe(mode, in_type):
            key = ("red", file, block, C.wgsl, R.wgsl, in_type, mode, rw, checked)
            return self.rt.pipeline(key, lambda: kernels.reduce_source(file, block, C.wgsl, R.wgsl, in_type,
                                                                       R.wgsl, mode, checked, rw), "wr" + "w" * checked)

        if K <= 64 or (M >= 2048 and K <= 1024):
            self.rt.dispatch(pipe(1, in_t), (out.bid, x._storage.bid) + extra, words, groups_for(M))
        elif M >= 64 or K <= 8192:
            self.rt.dispatch(pipe(0, in_t), (out.bid, x._storage.bid) + extra, words, M)
        else:
            G = min(1024, groups_for(K, 4 * WG))
            chunk = groups_for(K, G)
            G = groups_for(K, chunk)
            words[RED.index("chunk")], words[RED.index("groups")] = chunk, G
            part = GPUStorage(self.rt, M * G * 4 * state_words)
            self.rt.dispatch(pipe(2, in_t), (part.bid, x._storage.bid) + extra, words, M * G)
            self.rt.dispatch(pipe(3, "S"), (out.bid, part.bid) + extra, words, M)
        if slot:
            xs = promote.Operand(x)
            self.rt.i64_arm(slot, out, R, [xs], promote.reduce_values(op, xs, dims, out_shape, C, R, params, wgsl))
        if checked and self.rt.launch_blocking:
            if slot:
                return self.rt.i64_blocking(out)
            self.rt.after_fallible()
        return out


_backend: GPUBackend | None = None

# threads that fold one output in a workgroup reduction (reduce.wgsl modes 0/2/3, batch norm's statistics
# and backward sums): measured on SwiftShader (Chromium, 2 cores), 64 threads take a third to a half of
# the time of 256, whose 8 barrier rounds a CPU renderer pays dearly, and 16 about a quarter less than 64
# again (2026-12-04: x.sum() of 401,408 floats 24.7 -> 16.0 ms, mean over (0, 2, 3) 31.6 -> 21.7 ms,
# softmax of 64 x 784 14.0 -> 11.3 ms; 4 threads were no better than 16); GPUs keep 256
REDUCE_WIDTH = {"gpu": 256, "software": 16}


def software_adapter(rt) -> bool:
    """True when runtime rt's adapter is a software renderer (SwiftShader, llvmpipe); cached on rt."""
    soft = rt.__dict__.get("_software_adapter")
    if soft is None:
        from .webgpu import is_software
        soft = rt.__dict__["_software_adapter"] = is_software(getattr(rt, "adapter", None) or {})
    return soft


def reduce_width(rt) -> int:
    """REDUCE_WIDTH for runtime rt's adapter."""
    return REDUCE_WIDTH["software" if software_adapter(rt) else "gpu"]


INT64_REDUCE = ("sum", "prod")

# elementwise blocks that have a relu'd variant: (file, block) -> the variant's block
EPILOGUES = {("ops_binary.wgsl", "add"): "add_relu"}


def _ew_pipeline(rt, key: tuple):
    """trace_fusion's hook: the pipeline of an elementwise key (contiguous operands, no int64 check)."""
    return rt.pipeline(key, lambda: kernels.elementwise_source(*key[1:10]), "w" + "r" * len(key[7]))


trace_fusion.EW_PIPELINE.append(_ew_pipeline)


def backend() -> GPUBackend:
    global _backend
    if _backend is None or _backend.rt is not _webgpu._runtime:   # none yet, or torch.webgpu.reset()
        _backend = GPUBackend(runtime())
    return _backend
