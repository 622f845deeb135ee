"""WebGPU side of int64 matrix products (matmul, mm, bmm, mv, dot, einsum's contractions): the exact kernel
of wgsl/matmul_int64.wgsl. int64 is held as int32 here; each product and the running sum are exact in two
32-bit words, so the result is PyTorch's whenever it fits int32 (also when a product or a partial sum did
not); a result that does not fit moves to the host, exact, at its first read (device/gpu_int64_promote.py),
or raises ``OverflowError`` naming the op and the value when a later GPU op used it first.
No (M, K, N) intermediate: memory is the inputs and the output."""
from __future__ import annotations

from . import gpu_int64_promote as promote, kernels
from .gpu_backend import GPUStorage
from .int64_range import MESSAGES
from .webgpu import groups_for, runtime


def _source() -> str:
    return kernels.fill(kernels.wgsl_file("matmul_int64.wgsl"), COMMON=kernels.common("i32"),
                        ERR=kernels.err_binding(4))


def gemm(a, b, op: str = "matmul") -> GPUStorage:
    """The contiguous (B, M, N) int32 words of a @ b for int64 tensors a (B, M, K) and b (B, K, N) (any
    strides, batch dims already broadcast); a result past int32 moves to the host at the next read (a host
    storage comes back at once with launch blocking), or raises as from ``op``."""
    rt = runtime()
    nb, m, k = a._shape
    n = b._shape[2]
    out = GPUStorage(rt, nb * m * n * 4)
    if nb * m * n == 0:
        return out
    pipe = rt.pipeline(("matmul_int64",), _source, "wrrw")
    words = [0] * 63
    words[:12] = [nb, m, n, k, a._offset, b._offset, *a._stride, *b._stride]
    words = [w & 0xFFFFFFFF for w in words]
    words[60] = rt.error_code(OverflowError, MESSAGES["matmul"], op)
    words[62] = slot = rt.i64_reserve()   # a result past int32 moves to the host at the next read
    rt.dispatch(pipe, (out.bid, a._storage.bid, b._storage.bid, rt.err_buffer), words, groups_for(nb * m * n))
    if slot:
        sa, sb = promote.Operand(a), promote.Operand(b)
        rt.i64_arm(slot, out, a.dtype, [sa, sb], promote.matmul_values(sa, sb))
        if rt.launch_blocking:
            return rt.i64_blocking(out)
    if rt.launch_blocking:
        rt.after_fallible()
    return out
