"""The WebGPU side of scans and sorts: uniform words, pipeline keys and dispatches for
wgsl/scan.wgsl (cumsum, cumprod) and wgsl/sort.wgsl (sort, argsort, topk, and the scatter/gather
their gradients use).

Every kernel walks rows: the run along one dim for each position of the other dims, which are
coalesced and addressed through strides, so any dim of any view is scanned or sorted in place
without a copy. Pipelines are keyed by kernel, mode and dtypes only; sizes travel in uniforms.
"""
from __future__ import annotations

from . import gpu_int64_promote as promote, kernels
from .int64_range import CHECKED_SCAN, MESSAGES
from .gpu_backend import MAX_RANK, GPUStorage, backend, coalesce, contiguous_strides, software_adapter
from .webgpu import groups_for

__all__ = ["scan", "sort", "scatter", "gather", "SCAN_STATE_WORDS"]

TILE = 1024          # elements one workgroup scans per step (256 threads x 4)
LOCAL = 2048         # pairs one workgroup sorts in shared memory (16 KiB of keys and indices)
# Threads of the shared-memory sort modes (local, init, merge). Software adapters: SwiftShader runs each
# barrier by switching every 4-thread subgroup in and out, and the network has one barrier a step; on a
# 2-core machine (Chromium 156, 2026-12-04) sorting 64 rows of 1,000 took 81 ms with 256 threads, 38 with
# 64, 28 with 16, 25 with 4; one row of 100,000: 708, 263, 199, 150 ms.
SORT_WG = {"gpu": 256, "software": 4}
FUSED_STEPS = 2      # bitonic steps per global pass over the work buffer (1 or 2; sort.wgsl holds 4 pairs)
SCAN_STATE_WORDS = {"sum_f": 3, "prod_f": 3, "sum_i": 1, "prod_i": 1, "logaddexp_f": 1}
_MASK = 0xFFFFFFFF


def _rows(op: str, shape, d: int, stride_lists):
    """The kept dims (all but d), coalesced jointly over every operand's strides."""
    kept = [i for i in range(len(shape)) if i != d]
    kshape, kstrides = coalesce([shape[i] for i in kept], [[sl[i] for i in kept] for sl in stride_lists])
    if len(kshape) > MAX_RANK:
        raise NotImplementedError(f"{op}: tensors with more than {MAX_RANK} non-mergeable dims besides dim {d}")
    return kshape, kstrides


def _put_rows(words, kshape, kstrides, starts) -> None:
    words[2] = len(kshape)
    words[12:12 + len(kshape)] = kshape
    for start, st in zip(starts, kstrides):
        words[start:start + len(st)] = [s & _MASK for s in st]


# ---- scans ------------------------------------------------------------------------------------------
def _scan_source(block: str, T: str, C: str, R: str, mode: str, carry: bool, checked: bool = False) -> str:
    """checked: the int64 block of ops_int64.wgsl (a 64-bit state; the error buffer bound last)."""
    head, parts = kernels.blocks("scan.wgsl")
    load = f"fn load(base: u32, j: u32) -> C {{ return C(x[base + j * pu(4u)]); }}"
    binds = {
        "0": ["@group(0) @binding(1) var<storage, read_write> out: array<R>;",
              f"@group(0) @binding(2) var<storage, read> x: array<{T}>;", load],
        "1": ["@group(0) @binding(1) var<storage, read_write> part: array<S>;",
              f"@group(0) @binding(2) var<storage, read> x: array<{T}>;", load],
        "2": ["@group(0) @binding(1) var<storage, read_write> part: array<S>;"],
        "3": ["@group(0) @binding(1) var<storage, read_write> out: array<R>;",
              f"@group(0) @binding(2) var<storage, read> x: array<{T}>;", load],
    }[mode]
    if carry:
        binds.append("@group(0) @binding(3) var<storage, read> part: array<S>;")
    if checked:  # after the bindings (modes 1 and 2 never use it: a binding outside their layout)
        binds.append(kernels.err_binding(1 + sum(b.startswith("@group") for b in binds) if mode in "03" else 7))
    return kernels.fill(head + parts[mode], C=C, R=R, COMMON=kernels.wgsl_file("common.wgsl"),
                        OP=kernels.op_block(kernels.INT64_FILE if checked else "scan.wgsl", block),
                        BINDINGS="\n".join(binds),
                        CARRY="part[flat]" if carry else "s_zero()")


def scan(x, d: int, block: str, C, R, reverse: bool = False) -> GPUStorage:
    """Inclusive scan of x along dim d with an op block of scan.wgsl (computing in C, stored as R),
    into a new contiguous storage of x's shape; ``reverse`` scans from the end of each row."""
    rt = backend().rt
    shape = tuple(x._shape)
    numel = 1
    for s in shape:
        numel *= s
    out = GPUStorage(rt, numel * R.gpu_np.itemsize)
    if numel == 0:
        return out
    n = shape[d]
    M = numel // n
    ostr = contiguous_strides(shape)
    kshape, kstr = _rows("scan", shape, d, [x._stride, ostr])
    in_off, in_ds, out_off, out_ds = x._offset, x._stride[d], 0, ostr[d]
    if reverse:  # start at the last element and walk back: negative strides wrap in u32
        in_off, in_ds = in_off + (n - 1) * in_ds, -in_ds
        out_off, out_ds = out_off + (n - 1) * out_ds, -out_ds
    words = [0] * 63
    words[0:7] = [M, n, 0, in_off & _MASK, in_ds & _MASK, out_off & _MASK, out_ds & _MASK]
    _put_rows(words, kshape, kstr, (24, 36))
    T = x.dtype.wgsl
    # int64 results (cumsum/cumprod of integers): 64-bit states; a result past int32 is an OverflowError
    checked = R.name == "int64" and block in CHECKED_SCAN
    err = (rt.err_buffer,) if checked else ()
    slot = 0
    if checked:
        words[60] = rt.error_code(OverflowError, MESSAGES[CHECKED_SCAN[block]], CHECKED_SCAN[block])
        slot = words[62] = rt.i64_reserve()   # a result past int32 moves to the host at the next read

    def pipe(mode: str, mask: str, carry: bool = False):
        # modes 0 and 3 write results, so they bind the error buffer; 1 and 2 only carry states
        writes = checked and mode in ("0", "3")
        key = ("scan", block, T, C.wgsl, R.wgsl, mode, carry, checked)
        return rt.pipeline(key, lambda: _scan_source(block, T, C.wgsl, R.wgsl, mode, carry, checked),
                           mask + "w" * writes)

    if n <= 64:  # short rows: one thread each
        words[7], words[8] = n, 1
        rt.dispatch(pipe("3", "wr"), (out.bid, x._storage.bid) + err, words, groups_for(M))
        return _after(rt, checked, out, slot, x, d, block, reverse, R)
    if M >= 256 or n < 8 * TILE:  # enough rows to fill the GPU, or short ones: one workgroup per row
        words[7], words[8] = n, 1
        rt.dispatch(pipe("0", "wr"), (out.bid, x._storage.bid) + err, words, M)
        return _after(rt, checked, out, slot, x, d, block, reverse, R)
    # long rows, few of them: ~2048 workgroups over chunks of >= 2 tiles; chunk totals, their exclusive
    # scan, then each chunk again from its carry
    chunk = TILE * max(2, -(-n // (TILE * -(-2048 // M))))
    G = -(-n // chunk)
    words[7], words[8] = chunk, G
    part = GPUStorage(rt, M * G * 4 * (2 if checked else SCAN_STATE_WORDS[block]))
    rt.dispatch(pipe("1", "wr"), (part.bid, x._storage.bid), list(words), M * G)
    rt.dispatch(pipe("2", "w"), (part.bid,), list(words), M)
    rt.dispatch(pipe("0", "wrr", True), (out.bid, x._storage.bid, part.bid) + err, list(words), M * G)
    return _after(rt, checked, out, slot, x, d, block, reverse, R)


def _after(rt, checked: bool, out: GPUStorage, slot=0, x=None, d=0, block="", reverse=False, R=None) -> GPUStorage:
    if slot:
        xs = promote.Operand(x)
        rt.i64_arm(slot, out, R, [xs], promote.scan_values(xs, d, block == "prod_i", reverse))
        if rt.launch_blocking:
            return rt.i64_blocking(out)
    if checked and rt.launch_blocking:
        rt.after_fallible()
    return out


# ---- sorts --------------------------------------------------------------------------------------------
def _sort_wg(rt) -> int:
    """Threads of the shared-memory sort modes on runtime rt's adapter (SORT_WG)."""
    return SORT_WG["software" if software_adapter(rt) else "gpu"]


def _sort_source(T: str, mode: str, wg: int = 256) -> str:
    head, parts = kernels.blocks("sort.wgsl")
    xb = "@group(0) @binding({}) var<storage, read> x: array<T>;"
    outs = ["@group(0) @binding({}) var<storage, read_write> vals: array<T>;",
            "@group(0) @binding({}) var<storage, read_write> idxs: array<i32>;"]
    tmp = "@group(0) @binding({}) var<storage, read_write> tmp: array<vec2<u32>>;"
    binds = {
        "local": outs + [xb],
        "init": [tmp, xb],
        "step": [tmp],
        "merge": [tmp] + outs + [xb],
        "scatter": ["@group(0) @binding({}) var<storage, read_write> out: array<T>;",
                    "@group(0) @binding({}) var<storage, read> src: array<T>;",
                    "@group(0) @binding({}) var<storage, read> idx: array<i32>;"],
    }
    binds["gather"] = binds["scatter"]
    text = "\n".join(b.format(i + 1) for i, b in enumerate(binds[mode]))
    return kernels.fill(head + parts[mode], T=T, COMMON=kernels.wgsl_file("common.wgsl"),
                        OP=kernels.op_block("sort.wgsl", "sort"), BINDINGS=text, WG=str(wg))


def _next_pow2(n: int) -> int:
    return 1 << max(0, (n - 1).bit_length())


def sort(x, d: int, descending: bool, kout: int) -> tuple[GPUStorage, GPUStorage]:
    """Stable sort of x along dim d: (values, int32 indices) of the first ``kout`` positions, as new
    contiguous storages of x's shape with dim d of size kout."""
    rt = backend().rt
    shape = tuple(x._shape)
    numel = 1
    for s in shape:
        numel *= s
    n = shape[d] if shape else 1
    M = numel // n if n else 0
    out_shape = shape[:d] + (kout,) + shape[d + 1:]
    item = x.dtype.gpu_np.itemsize
    vals = GPUStorage(rt, M * kout * item)
    idxs = GPUStorage(rt, M * kout * 4)
    if M == 0 or kout == 0:
        return vals, idxs
    ostr = contiguous_strides(out_shape)
    kshape, kstr = _rows("sort", shape, d, [x._stride, ostr])
    seg = _next_pow2(n)
    base = [0] * 60
    base[0:12] = [M, n, 0, x._offset, x._stride[d], ostr[d], seg, 0, 0, int(descending), kout, 0]
    _put_rows(base, kshape, kstr, (24, 36))
    T = x.dtype.wgsl

    def pipe(mode: str, mask: str):
        wg = _sort_wg(rt)
        return rt.pipeline(("sort", mode, T, wg), lambda: _sort_source(T, mode, wg), mask)

    if seg <= LOCAL:
        per = LOCAL // seg
        rt.dispatch(pipe("local", "wwr"), (vals.bid, idxs.bid, x._storage.bid), base, groups_for(M, per))
        return vals, idxs
    if seg * 8 > rt.max_binding:
        raise RuntimeError(f"sort: a row of {n} elements needs a {seg * 8}-byte work buffer, above this adapter's "
                           f"maxStorageBufferBindingSize ({rt.max_binding} bytes)")
    rows = max(1, min(M, rt.max_binding // (seg * 8)))
    tmp = GPUStorage(rt, rows * seg * 8)
    blocks = seg // LOCAL
    for row0 in range(0, M, rows):
        mr = min(rows, M - row0)

        def w(k=0, j=0):
            words = list(base)
            words[0], words[7], words[8], words[11] = mr, k, j, row0
            return words
        rt.dispatch(pipe("init", "wr"), (tmp.bid, x._storage.bid), w(), mr * blocks)
        k = 2 * LOCAL
        while k <= seg:
            j = k // 2
            while j >= LOCAL:  # up to FUSED_STEPS steps per pass over tmp
                steps = min(FUSED_STEPS, (j // LOCAL).bit_length())
                words = w(k, j)
                words[48] = steps
                rt.dispatch(pipe("step", "w"), (tmp.bid,), words, groups_for(mr * seg >> steps))
                j >>= steps
            rt.dispatch(pipe("merge", "wwwr"), (tmp.bid, vals.bid, idxs.bid, x._storage.bid), w(k), mr * blocks)
            k *= 2
    return vals, idxs


def _take_put(mode: str, src, idx, d: int, out_shape, out_storage, K: int) -> None:
    rt = backend().rt
    shape = tuple(idx._shape)  # rows and K positions are walked over idx's shape
    numel = 1
    for s in shape:
        numel *= s
    if numel == 0:
        return
    M = numel // K
    ostr = contiguous_strides(out_shape)
    kshape, kstr = _rows(mode, shape, d, [src._stride, idx._stride, ostr])
    words = [0] * 60
    words[0:9] = [M, K, 0, src._offset, idx._offset, 0, src._stride[d], idx._stride[d], ostr[d]]
    _put_rows(words, kshape, kstr, (24, 36, 48))
    T = src.dtype.wgsl
    p = rt.pipeline(("sort", mode, T), lambda: _sort_source(T, mode), "wrr")
    rt.dispatch(p, (out_storage.bid, src._storage.bid, idx._storage.bid), words, groups_for(numel))


def scatter(src, idx, d: int, n: int, zeros_storage) -> GPUStorage:
    """out[..., idx[..., j], ...] = src[..., j, ...] along d into ``zeros_storage`` (contiguous, dim d of
    size n, already zero); idx holds distinct positions per row."""
    out_shape = tuple(idx._shape[:d]) + (n,) + tuple(idx._shape[d + 1:])
    _take_put("scatter", src, idx, d, out_shape, zeros_storage, idx._shape[d])
    return zeros_storage


def gather(src, idx, d: int) -> GPUStorage:
    """out[..., j, ...] = src[..., idx[..., j], ...] along d, contiguous in idx's shape."""
    rt = backend().rt
    numel = 1
    for s in idx._shape:
        numel *= s
    out = GPUStorage(rt, numel * src.dtype.gpu_np.itemsize)
    _take_put("gather", src, idx, d, tuple(idx._shape), out, idx._shape[d])
    return out
