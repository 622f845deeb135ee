"""float64 on the webgpu device (WGSL has no f64; the design is in borch_webgpu/_dtype.py): the GPU
backend hands every elementwise op and reduction that touches float64 to the cpu backend. float32
(or int, bool) operands still on the GPU are read back first (a wait); a result that is float64
stays on the host (a numpy array, device HOST64), any other result is uploaded to the GPU."""
from __future__ import annotations

from .. import _dtype
from .cpu import BACKEND as CPU, CPUStorage


def needed(operands, C, O) -> bool:
    """Whether an op with compute dtype C and stored dtype O (operands: tensors and scalars) runs here."""
    if C.name == "float64" or O.name == "float64":
        return True
    return any(isinstance(getattr(x, "_storage", None), CPUStorage) for x in operands)


def _on_host(x):
    """x itself (a scalar, or a tensor held on the host), or a contiguous host copy of its values."""
    st = getattr(x, "_storage", None)
    if st is None or isinstance(st, CPUStorage):
        return x
    from ..tensor import Tensor
    from . import CPU as CPU_DEVICE
    arr = st.backend.to_numpy(x, "a float64 op (float64 is computed on the host, see the dtypes)")
    return Tensor._make(CPU.from_numpy(arr, x.dtype), x._shape, x.dtype, CPU_DEVICE)


def _result(gpu, storage, O, shape, out):
    """The op's result as the GPU backend returns it: float64 on the host, else on the GPU (or in out)."""
    if out is None:
        if O.name == "float64":
            return storage
        return gpu.from_numpy(storage.array, O)
    if isinstance(out._storage, CPUStorage):
        return out._storage
    from ..ops.creation import COPY
    from ..tensor import Tensor
    from . import WEBGPU
    tmp = Tensor._make(gpu.from_numpy(storage.array, O), shape, O, WEBGPU)
    C = {"bool": _dtype.int32, "float16": _dtype.float32}.get(O.name, O)
    return gpu.elementwise(COPY, [tmp], C, C, shape, out.dtype, out=out)


def elementwise(gpu, op, operands, C, R, shape, O, params, out, wgsl):
    args = [_on_host(x) for x in operands]
    host_out = out if out is not None and isinstance(out._storage, CPUStorage) else None
    st = CPU.elementwise(op, args, C, R, shape, O, params=params, out=host_out, wgsl=wgsl)
    return _result(gpu, st, O, shape, out)


def reduce(gpu, op, x, dims, out_shape, C, R, params, wgsl):
    st = CPU.reduce(op, _on_host(x), dims, out_shape, C, R, params=params, wgsl=wgsl)
    return _result(gpu, st, R, out_shape, None)
