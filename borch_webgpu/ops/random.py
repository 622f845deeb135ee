"""Random numbers from our own counter-based generator.

Element i of a draw is ``hash(seed, offset + i)`` (wgsl/random.wgsl; the same hash in numpy for
the cpu device), so ``manual_seed(s)`` makes every later draw reproducible, and uniform draws
are identical on both devices. It cannot reproduce PyTorch's own random stream: code that
seeds PyTorch and expects its exact numbers will see different (equally distributed) ones.
"""
from __future__ import annotations

import builtins
import math
import numbers
import time

import numpy as np

from .. import _dtype
from ..device import backend_for, canonical, capture, place
from ..tensor import Tensor
from ._registry import OpDef, api, methods, register
from .memory import assign, check_write
from .creation import _shape_arg, _size_arg

__all__ = ["Generator", "manual_seed", "seed", "initial_seed", "default_generator", "get_rng_state",
           "set_rng_state", "rand", "randn", "randint", "randperm", "rand_like", "randn_like", "randint_like",
           "normal", "bernoulli", "multinomial"]

for _n, _m in (("rand", "uniform"), ("randn", "normal"), ("randint", "randint"), ("randperm", "uniform")):
    register(OpDef(_n, "random", ("random.wgsl", _m), None, tol=(0, 0), doc="random draws (shape/dtype goldens)"))


class Generator:
    """``torch.Generator``: a seed and an offset into the counter-based stream."""

    def __init__(self, device="cpu"):
        self.device = canonical(device) if device != "cpu" else canonical("cpu")
        self._seed = 67280421310721
        self._offset = 0

    def manual_seed(self, seed: int) -> "Generator":
        if not isinstance(seed, numbers.Integral):
            raise TypeError(f"manual_seed expected an int, got {type(seed).__name__}")
        self._seed = builtins.int(seed) & 0xFFFFFFFFFFFFFFFF
        self._offset = 0
        return self

    def seed(self) -> int:
        s = time.time_ns() & 0xFFFFFFFFFFFFFFFF
        self.manual_seed(s)
        return s

    def initial_seed(self) -> int:
        return self._seed

    def get_state(self) -> Tensor:
        from .creation import tensor
        words = np.array([self._seed & 0xFFFFFFFF, self._seed >> 32, self._offset & 0xFFFFFFFF,
                          self._offset >> 32], dtype=np.int64) & 0xFFFFFFFF
        # each 32-bit word as a signed int32 (int64 tensors are held as int32); set_state masks it back
        return tensor(words.astype(np.uint32).view(np.int32).astype(np.int64))

    def set_state(self, state: Tensor) -> "Generator":
        a = [builtins.int(v) & 0xFFFFFFFF for v in state.tolist()]
        self._seed = a[0] | (a[1] << 32)
        self._offset = a[2] | (a[3] << 32)
        return self

    def _take(self, n: int) -> tuple[int, int]:
        """(32-bit key, counter start) for n counters, advancing the offset.

        Inside a captured step both are recomputed at each replay, from the offset the generator has
        then (a replay hook advances it by n, as the draw would): dropout masks differ per replay."""
        key, start = self._take_now(n)
        if capture.active() is None:
            return key, start
        cell = [key, start]

        def advance():
            cell[0], cell[1] = self._take_now(n)
        capture.on_replay(advance)
        return capture.DynWord(key, lambda: cell[0]), capture.DynWord(start, lambda: cell[1])

    def _take_now(self, n: int) -> tuple[int, int]:
        key = (self._seed ^ (self._seed >> 32) ^ ((self._offset >> 32) * 0x85EBCA6B)) & 0xFFFFFFFF
        start = self._offset & 0xFFFFFFFF
        self._offset += n
        return key, start


default_generator = Generator()


def manual_seed(seed: int) -> Generator:
    """Seed the default generator: later draws repeat exactly (not PyTorch's numbers)."""
    return default_generator.manual_seed(seed)


def seed() -> int:
    """Seed the default generator from the clock; returns the seed."""
    return default_generator.seed()


def initial_seed() -> int:
    """The seed the default generator was last seeded with.

    Example::

        >>> _ = torch.manual_seed(7)
        >>> torch.initial_seed()
        7
    """
    return default_generator.initial_seed()


def get_rng_state() -> Tensor:
    """The default generator's state as a tensor (for ``set_rng_state``).

    Example::

        >>> state = torch.get_rng_state()
        >>> a = torch.rand(3)
        >>> torch.set_rng_state(state)
        >>> bool((a == torch.rand(3)).all())
        True
    """
    return default_generator.get_state()


def set_rng_state(state: Tensor) -> None:
    """Restore the default generator's state from ``get_rng_state()``."""
    default_generator.set_state(state)


# ---- the hash, in numpy (the cpu device) -------------------------------------------------------------
def _triple32(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.uint32)
    x ^= x >> np.uint32(17)
    x *= np.uint32(0xED5AD4BB)
    x ^= x >> np.uint32(11)
    x *= np.uint32(0xAC4C1B51)
    x ^= x >> np.uint32(15)
    x *= np.uint32(0x31848BAB)
    x ^= x >> np.uint32(14)
    return x


def _draw(key: int, counters: np.ndarray) -> np.ndarray:
    k = _triple32(np.array([key ^ 0x9E3779B9], dtype=np.uint32))[0]
    with np.errstate(over="ignore"):
        return _triple32(_triple32(counters.astype(np.uint32) * np.uint32(0x9E3779B9) + k) ^ k)


def _unit(key: int, counters: np.ndarray) -> np.ndarray:
    return (_draw(key, counters) >> np.uint32(8)).astype(np.float32) * np.float32(5.9604644775390625e-08)


def _host(mode: str, key: int, start: int, n: int, a: float, b: float) -> np.ndarray:
    i = (np.arange(n, dtype=np.uint64) + np.uint64(start)) & np.uint64(0xFFFFFFFF)
    if mode == "uniform":
        return np.float32(a) + (np.float32(b) - np.float32(a)) * _unit(key, i)
    if mode == "randint":
        return (np.int64(a) + (_draw(key, i) % np.uint32(int(b - a))).astype(np.int64))
    c1 = (np.uint64(start) + 2 * np.arange(n, dtype=np.uint64)) & np.uint64(0xFFFFFFFF)
    u1 = ((_draw(key, c1) >> np.uint32(8)) + np.uint32(1)).astype(np.float32) * np.float32(5.9604644775390625e-08)
    u2 = _unit(key, (c1 + np.uint64(1)) & np.uint64(0xFFFFFFFF))
    z = np.sqrt(np.float32(-2.0) * np.log(u1)) * np.cos(np.float32(6.283185307179586) * u2)
    return (np.float32(a) + np.float32(b) * z).astype(np.float32)


def _fill(mode: str, shape, dtype, device, a: float, b: float, generator=None, out: Tensor | None = None) -> Tensor:
    gen = generator or default_generator
    n = math.prod(shape)
    key, start = gen._take(n * (2 if mode == "normal" else 1))
    dev = place(canonical(device), dtype) if out is None else out._device
    if dev.type == "webgpu":  # (float64 is drawn on the host, as float32 samples widened)
        from ..device import gpu_random
        if out is not None and out.is_contiguous():
            gpu_random.fill(mode, out._storage, out._offset, dtype, n, key, start, a, b)
            out._bump_version()
            return out
        storage = gpu_random.fill(mode, None, 0, dtype, n, key, start, a, b)
        t = Tensor._make(storage, shape, dtype, dev)
    else:
        vals = _host(mode, key, start, n, a, b).reshape(shape)
        t = Tensor._make(backend_for(dev).from_numpy(vals.astype(dtype.storage_np), dtype), shape, dtype, dev)
    if out is not None:
        from .memory import assign
        assign(out, t)
        return out
    return t


def _float_dtype(op: str, dtype):
    d = dtype or _dtype.get_default_dtype()
    _dtype.check_supported(d, op)
    if not d.is_floating_point:
        names = {"int64": "Long", "int32": "Int", "bool": "Bool"}
        raise NotImplementedError(f"\"{'normal' if op == 'randn' else 'check_uniform_bounds'}\" not implemented for "
                                  f"'{names[d.name]}'")
    return d


def rand(*size, generator=None, dtype=None, device=None, requires_grad: bool = False, out=None, **kw) -> Tensor:
    """Uniform random numbers in [0, 1)."""
    shape = _size_arg("rand", size, kw.pop("size", None))
    if dtype is not None and dtype.is_complex:
        from . import _complex_more
        return _complex_more.random("rand", rand, shape, dtype, device, generator, requires_grad)
    t = _fill("uniform", shape, _float_dtype("rand", dtype), device, 0.0, 1.0, generator)
    return t.requires_grad_(requires_grad) if requires_grad else t


def randn(*size, generator=None, dtype=None, device=None, requires_grad: bool = False, out=None, **kw) -> Tensor:
    """Standard normal random numbers."""
    shape = _size_arg("randn", size, kw.pop("size", None))
    if dtype is not None and dtype.is_complex:
        from . import _complex_more
        return _complex_more.random("randn", randn, shape, dtype, device, generator, requires_grad)
    t = _fill("normal", shape, _float_dtype("randn", dtype), device, 0.0, 1.0, generator)
    return t.requires_grad_(requires_grad) if requires_grad else t


def randint(low, high=None, size=None, *, generator=None, dtype=None, device=None,
            requires_grad: bool = False) -> Tensor:
    """Random integers in [low, high): ``randint(high, size)`` or ``randint(low, high, size)``."""
    if size is None:
        if isinstance(high, (tuple, list)):
            low, high, size = 0, low, high
        else:
            raise TypeError("randint() missing 1 required positional argument: 'size'")
    elif high is None:
        low, high = 0, low
    shape = _shape_arg("randint", (tuple(size),))
    low, high = builtins.int(low), builtins.int(high)
    if high <= low:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    d = dtype or _dtype.int64
    if not (-(2 ** 31) <= low and high <= 2 ** 31):
        if d.name != "int64" or not (-(2 ** 63) <= low and high <= 2 ** 63):
            raise RuntimeError(f"randint: [{low}, {high}) is out of bounds for {d}")
        return _randint64(shape, d, device, low, high, generator)
    if d.host and d.category == 1:  # int8, uint8, int16: the bounds must fit, as PyTorch checks them
        info, cname = np.iinfo(d.np), {"uint8": "unsigned char", "int8": "signed char", "int16": "short int"}[d.name]
        for what, v in (("from", low), ("to - 1", high - 1)):
            if not info.min <= v <= info.max:
                raise RuntimeError(f"{what} is out of bounds for {cname}")
    return _fill("randint", shape, d, device, builtins.float(low), builtins.float(high), generator)


def _randint64(shape, d, device, low: int, high: int, generator) -> Tensor:
    """int64 draws in [low, high) past int32: two 32-bit draws a value, on the host (values past int32 are
    held there on webgpu too, device/int64_range.py)."""
    gen = generator or default_generator
    n = math.prod(shape)
    key, start = gen._take(2 * n)
    w = _draw(key, (np.arange(2 * n, dtype=np.uint64) + np.uint64(start)) & np.uint64(0xFFFFFFFF)).astype(np.uint64)
    with np.errstate(over="ignore"):
        u = (w[0::2] << np.uint64(32)) | w[1::2]
        if high - low < 2 ** 64:
            u = u % np.uint64(high - low)
        u = u + np.uint64(low & (2 ** 64 - 1))
    from .creation import tensor
    return tensor(u.view(np.int64).reshape(shape), dtype=d, device=device)


def randperm(n: int, *, generator=None, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """A random permutation of 0..n-1."""
    if not isinstance(n, numbers.Integral) or isinstance(n, builtins.bool):
        raise TypeError(f"randperm(): argument 'n' (position 1) must be int, not {type(n).__name__}")
    if n < 0:
        raise RuntimeError(f"randperm: n must be non-negative, got {n}")
    if dtype is not None and dtype.name == "bool":
        raise NotImplementedError("\"randperm\" not implemented for 'Bool'")
    gen = generator or default_generator
    key, start = gen._take(n)
    keys = _draw(key, (np.arange(n, dtype=np.uint64) + np.uint64(start)) & np.uint64(0xFFFFFFFF))
    perm = np.argsort(keys, kind="stable").astype(np.int64)
    from .creation import tensor
    return tensor(perm, dtype=dtype or _dtype.int64, device=device)


def rand_like(input: Tensor, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """``rand`` with ``input``'s shape (and its dtype and device unless given).

    Example::

        >>> torch.rand_like(torch.zeros(2, 3)).shape
        torch.Size([2, 3])
    """
    return rand(input._shape, dtype=dtype or input.dtype, device=device or input.device, requires_grad=requires_grad)


def randn_like(input: Tensor, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """``randn`` with ``input``'s shape (and its dtype and device unless given).

    Example::

        >>> torch.randn_like(torch.zeros(2, 3)).shape
        torch.Size([2, 3])
    """
    return randn(input._shape, dtype=dtype or input.dtype, device=device or input.device, requires_grad=requires_grad)


def randint_like(input: Tensor, low=0, high=None, *, dtype=None, device=None) -> Tensor:
    """``randint(low, high)`` with ``input``'s shape (``randint_like(x, high)`` draws from ``[0, high)``).

    Example::

        >>> bool((torch.randint_like(torch.zeros(100), 5) < 5).all())
        True
    """
    if high is None:
        low, high = 0, low
    return randint(low, high, input._shape, dtype=dtype or input.dtype, device=device or input.device)


def normal(mean=0.0, std=1.0, size=None, *, generator=None, dtype=None, device=None) -> Tensor:
    """Normal random numbers with the given mean and std (numbers, or tensors of one shape)."""
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        ref = mean if isinstance(mean, Tensor) else std
        z = randn(ref._shape, generator=generator, dtype=ref.dtype, device=ref.device)
        return z * std + mean
    return _fill("normal", _shape_arg("normal", (tuple(size),)), _float_dtype("normal", dtype), device,
                 builtins.float(mean), builtins.float(std), generator)


def bernoulli(input: Tensor, p=None, *, generator=None) -> Tensor:
    """1 with probability ``input`` (or ``p``), else 0."""
    u = rand(input._shape, generator=generator, device=input.device)
    prob = input if p is None else p
    return (u < prob).to(input.dtype)


def multinomial(input: Tensor, num_samples: int, replacement: bool = False, *, generator=None) -> Tensor:
    """Indices sampled from the rows of ``input`` (non-negative weights)."""
    w = input._host("multinomial()").astype(np.float64)
    rows = w.reshape(-1, w.shape[-1])
    gen = generator or default_generator
    out = np.zeros((rows.shape[0], num_samples), np.int64)
    for r, row in enumerate(rows):
        if row.sum() <= 0 or (row < 0).any() or not np.isfinite(row).all():
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        if not replacement and num_samples > (row > 0).sum():
            raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
        key, start = gen._take(num_samples)
        u = _unit(key, (np.arange(num_samples, dtype=np.uint64) + np.uint64(start)) & np.uint64(0xFFFFFFFF))
        p = row.copy()
        for j in range(num_samples):
            c = np.cumsum(p / p.sum())
            k = builtins.min(builtins.int(np.searchsorted(c, u[j], side="right")), len(p) - 1)
            out[r, j] = k
            if not replacement:
                p[k] = 0
    from .creation import tensor
    return tensor(out.reshape(w.shape[:-1] + (num_samples,)), device=input.device)


def _uniform_(self, a: float = 0.0, b: float = 1.0, *, generator=None):
    """Fill with samples from the uniform distribution on ``[a, b)``.

    Example::

        >>> x = torch.empty(1000).uniform_(-1, 1)
        >>> bool((x >= -1).all() and (x < 1).all())
        True
    """
    check_write("uniform_", self)
    return _fill("uniform", self._shape, self.dtype, self.device, builtins.float(a), builtins.float(b), generator,
                 out=self)


def _normal_(self, mean: float = 0.0, std: float = 1.0, *, generator=None):
    """Fill with samples from the normal distribution N(``mean``, ``std``²)."""
    check_write("normal_", self)
    return _fill("normal", self._shape, self.dtype, self.device, builtins.float(mean), builtins.float(std),
                 generator, out=self)


def _random_(self, low=0, high=None, *, generator=None):
    """Fill with integers from ``[low, high)`` (``random_(high)`` draws from ``[0, high)``).

    Example::

        >>> bool((torch.empty(100).random_(3) < 3).all())
        True
    """
    check_write("random_", self)
    if high is None:
        low, high = 0, low
    return _fill("randint", self._shape, self.dtype, self.device, builtins.float(low), builtins.float(high),
                 generator, out=self)


def _bernoulli_(self, p=0.5, *, generator=None):
    check_write("bernoulli_", self)
    assign(self, bernoulli(self, p, generator=generator))
    return self


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
api("uniform_", method=_uniform_)
api("normal_", method=_normal_)
api("random_", method=_random_)
api("bernoulli_", method=_bernoulli_)
api("bernoulli", bernoulli)
api("multinomial", multinomial)
api("normal", normal, tensor=False)
methods(("rand", rand), ("rand_like", rand_like), ("randint", randint), ("randint_like", randint_like),
        ("randn", randn), ("randn_like", randn_like), ("randperm", randperm), ("manual_seed", manual_seed),
        ("seed", seed), ("initial_seed", initial_seed), ("get_rng_state", get_rng_state),
        ("set_rng_state", set_rng_state), tensor=False)
