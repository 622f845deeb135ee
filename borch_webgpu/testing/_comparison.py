"""``assert_close``: PyTorch's torch/testing/_comparison.py, for the inputs that exist here.

Inputs are paired up (recursing through sequences and mappings); each pair is None, bools,
Python numbers, or tensor-likes (tensors, and anything ``as_tensor`` takes when both sides are of
related types). Building the pairs stops at the first problem; comparing them collects mismatches
and raises the first, with PyTorch's exception type and message text.
"""
from __future__ import annotations

import cmath
import collections.abc
import contextlib
from typing import Any, Callable

import numpy as np

from .. import _dtype
from ..tensor import Tensor

# {dtype name: (rtol, atol)}; any other dtype compares exactly
_DTYPE_PRECISIONS = {"float16": (0.001, 1e-5), "float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7),
                     "complex128": (1e-7, 1e-7)}
# the dtype of a Python number, for its default tolerances
_NUMBER_DTYPE = {int: "int64", float: "float64", complex: "complex128"}


class _ErrorMeta(Exception):
    """A user-facing failure: the exception type, its message and where in the inputs it happened."""

    def __init__(self, type: type[Exception], msg: str, *, id: tuple = ()) -> None:  # noqa: A002
        super().__init__(msg)
        self.type, self.msg, self.id = type, msg, id

    def to_error(self, msg: str | Callable[[str], str] | None = None) -> Exception:
        if not isinstance(msg, str):
            generated = self.msg
            if self.id:
                generated += f"\n\nThe failure occurred for item {''.join(str([item]) for item in self.id)}"
            msg = msg(generated) if callable(msg) else generated
        return self.type(msg)


class _Unsupported(Exception):
    """This kind of pair cannot hold these inputs: try the next kind."""


def _tolerances(dtype_names, rtol, atol, id) -> tuple[float, float]:
    if (rtol is None) ^ (atol is None):
        raise _ErrorMeta(ValueError, "Both 'rtol' and 'atol' must be either specified or omitted, but got no "
                                     f"{'rtol' if rtol is None else 'atol'}.", id=id)
    if rtol is not None:
        return rtol, atol
    rtols, atols = zip(*[_DTYPE_PRECISIONS.get(d, (0.0, 0.0)) for d in dtype_names])
    return max(rtols), max(atols)


def _diff_msg(identifier: str, extra: str | None, abs_diff, abs_idx, atol, rel_diff, rel_idx, rtol) -> str:
    equality = rtol == 0 and atol == 0

    def line(kind, diff, idx, tol):
        if idx is None:
            text = f"{kind.title()} difference: {diff}"
        else:
            text = f"Greatest {kind} difference: {diff} at index {idx}"
        return text + ("" if equality else f" (up to {tol} allowed)") + "\n"

    msg = f"{identifier} are not {'equal' if equality else 'close'}!\n\n"
    if extra:
        msg += f"{extra.strip()}\n"
    msg += line("absolute", abs_diff, abs_idx, atol) + line("relative", rel_diff, rel_idx, rtol)
    return msg.strip()


def _scalar_mismatch_msg(actual, expected, rtol, atol) -> str:
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    return _diff_msg("Scalars", f"Expected {expected} but got {actual}.", abs_diff, None, atol, rel_diff, None, rtol)


def _tensor_mismatch_msg(actual: Tensor, expected: Tensor, matches: Tensor, rtol, atol) -> str:
    # computed on the host, in the tensors' dtype as PyTorch does (integers in int64, their
    # relative difference in float32); the greatest difference propagates NaN, first index wins
    m = matches.numpy().reshape(-1)
    a, e = actual.detach().numpy().reshape(-1), expected.detach().numpy().reshape(-1)
    n = m.size
    total = n - int(m.sum())
    extra = f"Mismatched elements: {total} / {n} ({total / n:.1%})"
    if not actual.dtype.is_floating_point:
        a, e = a.astype(np.int64), e.astype(np.int64)
    with np.errstate(all="ignore"):
        abs_diff = np.abs(a - e)
        abs_diff[m] = 0
        if actual.dtype.is_floating_point:
            rel_diff = abs_diff / np.abs(e)
        else:
            rel_diff = abs_diff.astype(np.float32) / np.abs(e).astype(np.float32)
    rel_diff[m] = 0

    def unravel(flat: int) -> tuple[int, ...]:
        return tuple(int(i) for i in np.unravel_index(flat, tuple(matches.shape))) if matches.dim() else ()

    ia, ir = int(np.argmax(abs_diff)), int(np.argmax(rel_diff))
    return _diff_msg("Tensor-likes", extra, abs_diff[ia].item(), unravel(ia), atol, rel_diff[ir].item(),
                     unravel(ir), rtol)


class _Pair:
    def __init__(self, actual, expected, id: tuple) -> None:  # noqa: A002
        self.actual, self.expected, self.id = actual, expected, id

    def fail(self, type_: type[Exception], msg: str):
        raise _ErrorMeta(type_, msg, id=self.id)


class _NonePair(_Pair):
    def __init__(self, actual, expected, *, id, **_) -> None:  # noqa: A002
        if not (actual is None or expected is None):
            raise _Unsupported
        super().__init__(actual, expected, id)

    def compare(self) -> None:
        if not (self.actual is None and self.expected is None):
            self.fail(AssertionError, f"None mismatch: {self.actual} is not {self.expected}")


class _BooleanPair(_Pair):
    def __init__(self, actual, expected, *, id, **_) -> None:  # noqa: A002
        if not all(isinstance(x, (bool, np.bool_)) for x in (actual, expected)):
            raise _Unsupported
        super().__init__(*(bool(x) for x in (actual, expected)), id)

    def compare(self) -> None:
        if self.actual is not self.expected:
            self.fail(AssertionError, f"Booleans mismatch: {self.actual} is not {self.expected}")


class _NumberPair(_Pair):
    def __init__(self, actual, expected, *, id, rtol=None, atol=None, equal_nan=False, check_dtype=False,  # noqa: A002
                 **_) -> None:
        if not all(isinstance(x, (int, float, complex, np.number)) for x in (actual, expected)):
            raise _Unsupported
        actual, expected = (x.item() if isinstance(x, np.number) else x for x in (actual, expected))
        super().__init__(actual, expected, id)
        for x in (actual, expected):
            if type(x) not in _NUMBER_DTYPE:  # a bool against a number: PyTorch fails inside NumberPair too
                raise RuntimeError(f"assert_close: cannot compare {type(actual).__name__}(): {actual!r} with "
                                   f"{type(expected).__name__}(): {expected!r} (a bool is compared only with a bool)")
        self.rtol, self.atol = _tolerances([_NUMBER_DTYPE[type(x)] for x in (actual, expected)], rtol, atol, id)
        self.equal_nan, self.check_dtype = equal_nan, check_dtype

    def compare(self) -> None:
        a, e = self.actual, self.expected
        if self.check_dtype and type(a) is not type(e):
            self.fail(AssertionError, f"The (d)types do not match: {type(a)} != {type(e)}.")
        if a == e or (self.equal_nan and cmath.isnan(a) and cmath.isnan(e)):
            return
        abs_diff = abs(a - e)
        if cmath.isfinite(abs_diff) and abs_diff <= self.atol + self.rtol * abs(e):
            return
        self.fail(AssertionError, _scalar_mismatch_msg(a, e, self.rtol, self.atol))


class _TensorLikePair(_Pair):
    def __init__(self, actual, expected, *, id, allow_subclasses=True, rtol=None, atol=None,  # noqa: A002
                 equal_nan=False, check_device=True, check_dtype=True, check_layout=True, check_stride=False,
                 **_) -> None:
        related = isinstance(actual, type(expected)) or isinstance(expected, type(actual))
        if not related or (not allow_subclasses and type(actual) is not type(expected)):
            raise _Unsupported
        actual, expected = (self._to_tensor(x) for x in (actual, expected))
        super().__init__(actual, expected, id)
        self.rtol, self.atol = _tolerances([actual.dtype.name, expected.dtype.name], rtol, atol, id)
        self.equal_nan, self.check_device, self.check_dtype = equal_nan, check_device, check_dtype
        self.check_stride = check_stride  # check_layout: every tensor here is strided

    @staticmethod
    def _to_tensor(x) -> Tensor:
        if isinstance(x, Tensor):
            return x
        from ..ops.creation import as_tensor
        try:
            return as_tensor(x)
        except Exception as err:  # noqa: BLE001 - not a tensor-like: another pair kind may take it
            raise _Unsupported from err

    def _mismatch(self, attribute: str, a, e) -> None:
        self.fail(AssertionError, f"The values for attribute '{attribute}' do not match: {a} != {e}.")

    def compare(self) -> None:
        a, e = self.actual, self.expected
        if a.shape != e.shape:
            self._mismatch("shape", a.shape, e.shape)
        if self.check_stride and a.stride() != e.stride():
            self._mismatch("stride()", a.stride(), e.stride())
        if self.check_device and a.device != e.device:
            self._mismatch("device", a.device, e.device)
        if self.check_dtype and a.dtype is not e.dtype:
            self._mismatch("dtype", a.dtype, e.dtype)
        if a.device != e.device:
            a, e = a.cpu(), e.cpu()
        if a.dtype is not e.dtype:
            d = _dtype.promote_types(a.dtype, e.dtype)
            a, e = a.to(d), e.to(d)
        from ..ops.compare import isclose
        from ..ops.reduce import all as all_
        matches = isclose(a.detach(), e.detach(), rtol=self.rtol, atol=self.atol, equal_nan=self.equal_nan)
        if all_(matches).item():
            return
        if a.dim() == 0:
            self.fail(AssertionError, _scalar_mismatch_msg(a.item(), e.item(), self.rtol, self.atol))
        self.fail(AssertionError, _tensor_mismatch_msg(a, e, matches, self.rtol, self.atol))


_PAIR_TYPES = (_NonePair, _BooleanPair, _NumberPair, _TensorLikePair)


def _originate(actual, expected, id: tuple, options: dict) -> list[_Pair]:  # noqa: A002
    seq = collections.abc.Sequence
    if isinstance(actual, seq) and not isinstance(actual, str) and isinstance(expected, seq) and \
            not isinstance(expected, str):
        if len(actual) != len(expected):
            raise _ErrorMeta(AssertionError, f"The length of the sequences mismatch: {len(actual)} != {len(expected)}",
                             id=id)
        return [p for i in range(len(actual)) for p in _originate(actual[i], expected[i], (*id, i), options)]
    if isinstance(actual, collections.abc.Mapping) and isinstance(expected, collections.abc.Mapping):
        ak, ek = set(actual.keys()), set(expected.keys())
        if ak != ek:
            raise _ErrorMeta(AssertionError, "The keys of the mappings do not match:\n"
                                             f"Missing keys in the actual mapping: {sorted(ek - ak)}\n"
                                             f"Additional keys in the actual mapping: {sorted(ak - ek)}", id=id)
        keys: Any = ak
        with contextlib.suppress(Exception):  # sorted when the keys allow it, for a deterministic first failure
            keys = sorted(keys)
        return [p for k in keys for p in _originate(actual[k], expected[k], (*id, k), options)]
    for pair_type in _PAIR_TYPES:
        try:
            return [pair_type(actual, expected, id=id, **options)]
        except _Unsupported:
            continue
    raise _ErrorMeta(TypeError, f"No comparison pair was able to handle inputs of type {type(actual)} and "
                                f"{type(expected)}.", id=id)


def assert_close(actual: Any, expected: Any, *, allow_subclasses: bool = True, rtol: float | None = None,
                 atol: float | None = None, equal_nan: bool = False, check_device: bool = True,
                 check_dtype: bool = True, check_layout: bool = True, check_stride: bool = False,
                 msg: str | Callable[[str], str] | None = None) -> None:
    """Raise ``AssertionError`` unless ``actual`` and ``expected`` are close (``torch.testing.assert_close``).

    Tensors (and tensor-likes such as numpy arrays, when both sides are) are close when they have
    the same shape, device and dtype (each check can be turned off: then both go to the cpu and to
    ``promote_types`` of the two dtypes) and every element satisfies
    ``|actual - expected| <= atol + rtol * |expected|``; infinities only equal themselves, NaN
    matches NaN only with ``equal_nan``. Python numbers, bools and None compare too, and so do
    sequences and mappings of them, element by element.

    Default tolerances (give both ``rtol`` and ``atol``, or neither): float32 ``1.3e-6`` / ``1e-5``,
    float64 ``1e-7`` / ``1e-7``,
    float16 ``1e-3`` / ``1e-5``, Python floats ``1e-7`` / ``1e-7``, integers and bools exact; with two
    dtypes, the looser.

    Args:
        actual: the value to check.
        expected: the reference value.
        allow_subclasses (bool): accept directly related types (``nn.Parameter`` and ``Tensor``).
        rtol (float, optional): relative tolerance.
        atol (float, optional): absolute tolerance.
        equal_nan (bool): count two NaNs as equal.
        check_device (bool): require the same device.
        check_dtype (bool): require the same dtype.
        check_layout (bool): require the same layout (every tensor here is strided).
        check_stride (bool): require the same strides.
        msg (str or callable, optional): the message to raise instead, or a function of the generated one.

    Example::

        >>> torch.testing.assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.000001]))
        >>> torch.testing.assert_close(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 2.0, 3.1]))
        Traceback (most recent call last):
        ...
        AssertionError: Tensor-likes are not close!
        <BLANKLINE>
        Mismatched elements: 1 / 3 (33.3%)
        Greatest absolute difference: 0.09999990463256836 at index (2,) (up to 1e-05 allowed)
        Greatest relative difference: 0.032258033752441406 at index (2,) (up to 1.3e-06 allowed)
    """
    __tracebackhide__ = True
    options = {"allow_subclasses": allow_subclasses, "rtol": rtol, "atol": atol, "equal_nan": equal_nan,
               "check_device": check_device, "check_dtype": check_dtype, "check_layout": check_layout,
               "check_stride": check_stride}
    try:
        pairs = _originate(actual, expected, (), options)
    except _ErrorMeta as meta:
        raise meta.to_error() from None
    for pair in pairs:
        try:
            pair.compare()
        except _ErrorMeta as meta:
            raise meta.to_error(msg) from None
