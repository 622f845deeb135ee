"""The golden format, shared by the generator (real PyTorch) and the replay (borch_webgpu).

Numpy only, so it runs in CPython and in Pyodide. A tensor is stored as
``{"shape", "dtype", "b64"}`` (raw little-endian bytes), or for large inputs as
``{"shape", "dtype", "formula": seed}``: values from an integer hash that both sides compute
exactly. Large outputs keep a fixed sample of positions plus the sum and the sum of |x|.
"""
from __future__ import annotations

import base64
import math

import numpy as np

NP = {"float32": np.float32, "int64": np.int64, "int32": np.int32, "bool": np.bool_, "float16": np.float16,
      "float64": np.float64}  # float64: results only (float_power); inputs are the other dtypes
STORE_LIMIT = 4096      # outputs with more elements keep only a sample
SAMPLE = 256


def formula(shape, dtype: str, seed: int) -> np.ndarray:
    """Deterministic values in [-1, 1) (floats), [-50, 50) (ints) or {0, 1} (bool), exact everywhere."""
    n = math.prod(shape)
    i = np.arange(n, dtype=np.uint64)
    h = (i * np.uint64(2654435761) + np.uint64(seed * 40503 + 12345)) % np.uint64(2 ** 32)
    h = (h ^ (h >> np.uint64(13))) * np.uint64(2246822519) % np.uint64(2 ** 32)
    if dtype == "float32":
        v = (h.astype(np.float64) / 2.0 ** 31 - 1.0).astype(np.float32)
    elif dtype in ("int64", "int32"):
        v = (h % np.uint64(100)).astype(np.int64) - 50
    elif dtype == "bool":
        v = (h % np.uint64(2)).astype(np.bool_)
    else:
        raise ValueError(dtype)
    return v.astype(NP[dtype]).reshape(shape)


def encode(a: np.ndarray) -> dict:
    a = np.asarray(a)
    name = {np.dtype(v): k for k, v in NP.items()}[a.dtype]
    return {"shape": list(a.shape), "dtype": name, "b64": base64.b64encode(np.ascontiguousarray(a).tobytes()).decode()}


def decode(spec: dict) -> np.ndarray:
    shape, dt = tuple(spec["shape"]), NP[spec["dtype"]]
    if "formula" in spec:
        return formula(shape, spec["dtype"], spec["formula"])
    return np.frombuffer(base64.b64decode(spec["b64"]), dtype=dt).reshape(shape).copy()


def sample_positions(n: int, k: int = SAMPLE) -> np.ndarray:
    if n <= k:
        return np.arange(n)
    return np.unique(np.linspace(0, n - 1, k).astype(np.int64))


def encode_output(a: np.ndarray) -> dict:
    a = np.asarray(a)
    if a.size <= STORE_LIMIT:
        return encode(a)
    flat = a.reshape(-1)
    pos = sample_positions(flat.size)
    return {"shape": list(a.shape), "dtype": encode(flat[:1])["dtype"], "sample_pos": pos.tolist(),
            "sample": encode(flat[pos]), **summary(flat)}


def summary(flat: np.ndarray) -> dict:
    """Sums over the finite values, and how many are NaN, +inf and -inf."""
    f64 = flat.astype(np.float64)
    fin = f64[np.isfinite(f64)]
    return {"sum": float(fin.sum()), "abs_sum": float(np.abs(fin).sum()), "nan": int(np.isnan(f64).sum()),
            "posinf": int((f64 == np.inf).sum()), "neginf": int((f64 == -np.inf).sum())}


def compare(got: np.ndarray, want_spec: dict, rtol: float, atol: float, signed_zero: bool = False) -> str | None:
    """None when ``got`` matches the stored expectation, else a one-line reason.

    An element passes within ``atol + rtol * |want|``, widened by ``2 * dev`` where PyTorch's
    float32 result is itself ``dev`` away from the float64 one (long sums and accumulated
    gradients, whose float32 rounding depends on summation order): a result no further from
    the exact value than PyTorch's own is within that band. For sums of many terms the band is
    also ``SCALE_ULPS`` ulps of ``scale``, the sum of the terms' magnitudes (the op on |inputs|):
    summation error is bounded by the terms, not by a result that cancellation made small."""
    shape = tuple(want_spec["shape"])
    got = np.asarray(got)
    if tuple(got.shape) != shape:
        return f"shape {tuple(got.shape)} != expected {shape}"
    want_dtype = want_spec["dtype"]
    got_name = {np.dtype(v): k for k, v in NP.items()}.get(got.dtype)
    if got_name != want_dtype:
        return f"dtype {got_name} != expected {want_dtype}"
    if "sample_pos" in want_spec:
        flat = got.reshape(-1)
        pos = np.asarray(want_spec["sample_pos"], dtype=np.int64)
        dev = _slack(want_spec, "sample_dev", "sample_scale")
        err = _close(flat[pos], decode(want_spec["sample"]), rtol, atol, signed_zero, dev)
        if err:
            return "sampled " + err
        got_sum = summary(flat)
        for key in ("nan", "posinf", "neginf"):
            if got_sum[key] != want_spec[key]:
                return f"{got_sum[key]} {key} values, expected {want_spec[key]}"
        n = max(flat.size, 1)
        for key in ("sum", "abs_sum"):
            val, want = got_sum[key], want_spec[key]
            # a sum of n values each within rtol/atol differs by at most that much per element
            tol = atol * n + rtol * want_spec["abs_sum"] + 1e-6 * abs(want) + 2 * want_spec.get("sum_dev", 0.0) + \
                SCALE_ULPS * want_spec.get("sum_scale", 0.0)
            if not abs(val - want) <= tol:
                return f"{key} {val!r} != expected {want!r} (tolerance {tol:.3g})"
        return None
    return _close(got, decode(want_spec), rtol, atol, signed_zero, _slack(want_spec, "dev", "scale"))


SCALE_ULPS = 8 * 2.0 ** -24  # 8 ulps (relative) of the sum of magnitudes


def _slack(spec: dict, dev_key: str, scale_key: str):
    """Half the extra tolerance per element: dev, plus SCALE_ULPS / 2 of the scale."""
    out = None
    if dev_key in spec:
        out = decode(spec[dev_key]).astype(np.float64)
    if scale_key in spec:
        s = decode(spec[scale_key]).astype(np.float64) * (SCALE_ULPS / 2)
        out = s if out is None else out + s
    return out


def _close(got: np.ndarray, want: np.ndarray, rtol: float, atol: float, signed_zero: bool = False,
           dev: np.ndarray | None = None) -> str | None:
    if got.dtype == np.bool_ or want.dtype == np.bool_ or got.dtype.kind in "iu":
        bad = got != want
    else:
        g, w = got.astype(np.float64), want.astype(np.float64)
        both_nan = np.isnan(g) & np.isnan(w)
        same_inf = np.isinf(w) & (g == w)
        slack = 0.0 if dev is None else 2.0 * dev.astype(np.float64)
        with np.errstate(invalid="ignore"):
            close = np.abs(g - w) <= atol + rtol * np.abs(w) + slack
        # WGSL lets GPUs flush subnormal results (below 1.18e-38) to zero: an expected subnormal
        # matches a zero
        flushed = (np.abs(w) < 1.1754944e-38) & (g == 0)
        bad = ~(both_nan | same_inf | close | flushed)
        if signed_zero:  # where PyTorch gives an exact zero, its sign must match too
            bad |= (w == 0) & (g == 0) & (np.signbit(w) != np.signbit(g))
    if not bad.any():
        return None
    idx = np.argwhere(bad)[0]
    return (f"{int(bad.sum())} of {bad.size} values differ; first at {tuple(int(i) for i in idx)}: "
            f"got {got[tuple(idx)]!r}, expected {want[tuple(idx)]!r}")
