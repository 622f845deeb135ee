"""``torch.testing.make_tensor`` (PyTorch's torch/testing/_creation.py, for the dtypes that exist here) and the
deprecated ``torch.testing.assert_allclose``. The values come from borch_webgpu's random generator, so they
are not PyTorch's numbers; the bounds, defaults, clamping, checks and messages are PyTorch's."""
from __future__ import annotations

import collections.abc
import functools
import math
import warnings

from .._dtype import finfo, iinfo
from ..tensor import Tensor

__all__ = ["make_tensor", "assert_allclose"]

_INTEGRAL = ("uint8", "int8", "int16", "int32", "int64")
_FLOATING = ("float16", "bfloat16", "float32", "float64")
_COMPLEX = ("complex64", "complex128")


def make_tensor(*shape, dtype, device, low=None, high=None, requires_grad: bool = False, noncontiguous: bool = False,
                exclude_zero: bool = False, memory_format=None) -> Tensor:
    """A tensor of ``shape`` on ``device`` filled with values drawn uniformly from ``[low, high)``; the defaults
    are PyTorch's (bool [0, 2), unsigned [0, 10), signed [-9, 10), floating and complex [-9, 9)), bounds
    outside the dtype's range are clamped to it; ``noncontiguous`` gives a strided view, ``exclude_zero``
    replaces zeros by 1 (integers) or the dtype's ``tiny``.

    Example::

        >>> t = torch.testing.make_tensor(2, 3, dtype=torch.float32, device="cpu", low=-1, high=1)
        >>> t.shape, bool(((t >= -1) & (t < 1)).all())
        (torch.Size([2, 3]), True)
        >>> torch.testing.make_tensor((4,), dtype=torch.int64, device="cpu", noncontiguous=True).is_contiguous()
        False
    """
    from ..ops.creation import empty
    from ..ops.random import randint
    from ..ops.complex import view_as_real
    name = dtype.name

    def modify_low_high(low, high, *, lowest_inclusive, highest_exclusive, default_low, default_high):
        low = low if low is not None else default_low
        high = high if high is not None else default_high
        if any(isinstance(v, float) and math.isnan(v) for v in (low, high)):
            raise ValueError(f"`low` and `high` cannot be NaN, but got low={low} and high={high}")
        elif low == high and name in _FLOATING + _COMPLEX:
            warnings.warn("Passing `low==high` to `torch.testing.make_tensor` for floating or complex types is "
                          "deprecated since 2.1 and will be removed in 2.3. Use `torch.full(...)` instead.",
                          FutureWarning, stacklevel=3)
        elif low >= high:
            raise ValueError(f"`low` must be less than `high`, but got {low} >= {high}")
        elif high < lowest_inclusive or low >= highest_exclusive:
            raise ValueError(f"The value interval specified by `low` and `high` is [{low}, {high}), but {dtype} only "
                             f"supports [{lowest_inclusive}, {highest_exclusive})")
        low = min(max(low, lowest_inclusive), highest_exclusive)
        high = min(max(high, lowest_inclusive), highest_exclusive)
        if name == "bool" or name in _INTEGRAL:
            return math.ceil(low), math.ceil(high)
        return low, high

    if len(shape) == 1 and isinstance(shape[0], collections.abc.Sequence):
        shape = shape[0]
    shape = tuple(shape)
    if noncontiguous and memory_format is not None:
        raise ValueError(f"The parameters `noncontiguous` and `memory_format` are mutually exclusive, but got "
                         f"noncontiguous={noncontiguous} and memory_format={memory_format}")
    if requires_grad and (name == "bool" or name in _INTEGRAL):
        raise ValueError(f"`requires_grad=True` is not supported for boolean and integral dtypes, but got "
                         f"dtype={dtype}")
    noncontiguous = noncontiguous and functools.reduce(lambda x, y: x * y, shape, 1) > 1
    if noncontiguous:
        shape = (*shape[:-1], 2 * shape[-1])
    if name == "bool":
        low, high = modify_low_high(low, high, lowest_inclusive=0, highest_exclusive=2, default_low=0, default_high=2)
        result = randint(low, high, shape, device=device, dtype=dtype)
    elif name in _INTEGRAL:
        info = iinfo(dtype)
        low, high = modify_low_high(low, high, lowest_inclusive=info.min,
                                    highest_exclusive=info.max + (1 if name != "int64" else 0),
                                    default_low=-9, default_high=10)
        result = randint(low, high, shape, device=device, dtype=dtype)
    elif name in _FLOATING + _COMPLEX:
        info = finfo(dtype)
        low, high = modify_low_high(low, high, lowest_inclusive=info.min, highest_exclusive=info.max,
                                    default_low=-9, default_high=9)
        result = empty(shape, device=device, dtype=dtype)
        target = view_as_real(result) if name in _COMPLEX else result
        if high - low >= finfo(target.dtype).max:
            target.uniform_(low / 2, high / 2).mul_(2)
        else:
            target.uniform_(low, high)
    else:
        raise TypeError(f"The requested dtype '{dtype}' is not supported by torch.testing.make_tensor(). To request "
                        "support, file an issue at: https://github.com/pytorch/pytorch/issues")
    if noncontiguous:
        result = result[..., 1::2]
    elif memory_format is not None:
        result = result.clone(memory_format=memory_format)
    if exclude_zero:
        result[result == 0] = 1 if (name == "bool" or name in _INTEGRAL) else finfo(dtype).tiny
    if name in _FLOATING + _COMPLEX:
        result.requires_grad = requires_grad
    return result


def assert_allclose(actual, expected, rtol=None, atol=None, equal_nan: bool = True, msg: str = "") -> None:
    """Deprecated since PyTorch 1.12 (a ``FutureWarning``): :func:`assert_close` with this function's old
    defaults (float16 (1e-3, 1e-3), float32 (1e-4, 1e-5), float64 (1e-5, 1e-8); dtypes need not match).

    Example::

        >>> import warnings
        >>> with warnings.catch_warnings(record=True) as w:
        ...     warnings.simplefilter("always")
        ...     torch.testing.assert_allclose(torch.tensor([1.0]), [1.00001])
        >>> w[0].category.__name__
        'FutureWarning'
    """
    from ..ops.creation import tensor
    from ._comparison import assert_close
    warnings.warn("`torch.testing.assert_allclose()` is deprecated since 1.12 and will be removed in a future "
                  "release. Please use `torch.testing.assert_close()` instead. You can find detailed upgrade "
                  "instructions in https://github.com/pytorch/pytorch/issues/61844.", FutureWarning, stacklevel=2)
    if not isinstance(actual, Tensor):
        actual = tensor(actual)
    if not isinstance(expected, Tensor):
        expected = tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:
        precisions = {"float16": (1e-3, 1e-3), "float32": (1e-4, 1e-5), "float64": (1e-5, 1e-8)}
        rtols, atols = zip(*[precisions.get(t.dtype.name, (0.0, 0.0)) for t in (actual, expected)])
        rtol, atol = max(rtols), max(atols)
    assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan, check_device=True, check_dtype=False,
                 check_stride=False, msg=msg or None)
