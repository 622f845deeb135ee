"""int64 as PyTorch has it: numpy's int64 on ``cpu``; on ``webgpu`` int32 words on the GPU and the values
that do not fit held on the host; the checks that keep the GPU from ever giving a wrong number.

``cpu``: an ``int64`` tensor is a numpy int64 array, with PyTorch's full range and its wrap-around at
2**64 (``torch.arange(70000).sum()`` is 2449965000, ``tensor([2**62]) * 4`` is 0; a Python int up to
2**64 wraps into int64 as in PyTorch, past it ``OverflowError('int too big to convert')``).

``webgpu``: a WebGPU buffer holds 32-bit words, and an int64 tensor whose values fit int32 (index tensors,
targets, counts: nearly all of them) lives there as int32, at no extra cost. One whose values do not fit
is **held on the host** (a numpy int64 array, ``CPUStorage.held``, device HOST64, while ``t.device``
reports ``webgpu:0``), as float64 is (device/host64.py): values entering past int32 (``torch.tensor``,
``full``, ``arange``, ``randint`` with big bounds, ``.to('webgpu')``, a loaded file) make such a tensor
instead of raising; the cpu kernels compute every op that touches one (and an int64 op of a GPU tensor
with a Python int past int32); a result that fits int32 goes back to the GPU, one that does not stays on
the host; views of a held tensor stay held. Composite ops built of GPU kernels (``unique``) run on the
cpu device when given a held tensor (ops/_int64_host.py), ``cat`` of one makes a held result.

What a GPU kernel computes stays on the GPU, and whether its exact int64 result needs the high word is
only known after a GPU -> host wait. So results are **promoted at first read** (device/gpu_int64_promote.py):
the kernels that can leave int32 and compute the exact 64-bit value (add, sub, mul, neg, abs, square,
pow, the division of -2**31 by -1, sum, prod, cumsum, cumprod, matmul) record a result past int32 in
their own slot of the error buffer instead of raising. The slots come back with every read (no extra
wait, upload or dispatch when nothing overflows); at that read a result that overflowed and that no
later GPU kernel used moves to the host with its exact value (computed again by the cpu kernel from its
operands, kept until the read), so ``torch.arange(70000).sum()`` prints 2449965000 and ``s + 1``,
``s * 2``, ``.item()``, ``.tolist()`` give PyTorch's values. One that a later GPU kernel used first (the
wrapped words went on: ``torch.arange(70000).sum() + 1`` before any read), or whose operands changed
before the read, raises ``OverflowError`` naming the op, the value and the user's line
(``sum: the int64 result 2449965000 does not fit in int32 ...``); with launch blocking the op itself
waits, so its result moves at once. Still raising as before (a result that cannot move): a result
written in place into a GPU tensor (``gpu_int64.add_(2**40)``, ``t.add_(1)`` past int32), a float
converted to int64, accumulating puts, the kernels of a captured graph (``torch.compile``, CUDA graphs:
a graph has no host syncs, so each replay is checked and raises), and past 255 such dispatches between
two reads. Results that fit are exact, also when partial sums or products on the way did not fit
(reductions and scans accumulate in two 32-bit words in WGSL, wrapping at 2**64 as PyTorch's int64 does).
``int32`` tensors keep PyTorch's wrap-around. The WGSL kernels record the first overflow in the
error buffer (device/gpu_errors.py) and it is raised at the next read, the end of the enclosing
``torch.scope()``, or at the op with launch blocking.

Matrix products (matmul, mm, bmm, mv, dot, einsum's contractions) are exact on both devices: on WebGPU
each product and the running sum are two 32-bit words (device/gpu_matmul_int64.py), so the result is
PyTorch's whenever it fits, also when products or partial sums did not (and moves to the host at its
first read when it does not). So is an accumulating put
(``index_add``, ``scatter_add``, ``index_put_(accumulate=True)``): on WebGPU its atomic adds carry into
high words kept in a scratch buffer, so the 64-bit total does not depend on the order they run in, and
only a total that does not fit raises. Where the devices differ (never by a wrong number): addmm and
baddbmm check the product before adding ``input`` on WebGPU, so a product past int32 that ``input``
brings back raises there unless launch blocking is on (``cpu`` adds in int64). Float ops never bind the error buffer; an int64 op that
checks counts as a dispatch that can fail, so a ``torch.scope()`` holding one (and no read) waits
for the GPU at its end, as for the index kernels.

Integer division by zero (``//``, ``%``, ``fmod``, ``div`` with a rounding mode, on any integer dtype)
is checked the same way: PyTorch raises ``RuntimeError: ZeroDivisionError`` and never returns a value.
The ``cpu`` device (and a host-held tensor) raises at the op (:func:`check_zero_divisor`); the WGSL blocks of
``ZERO_CHECKED`` record the first zero divisor under the error code in uniform word 61
(``zero_div`` in ops_int64.wgsl), raised as above. A Python number as the divisor is checked before
any kernel runs, on both devices.

The messages are module-level functions ``(a, b) -> str`` of the two words a kernel records
(the runtime's error-site contract): the operands of an elementwise op, or the low and high
words of a reduction's 64-bit result.
"""
from __future__ import annotations

import numpy as np

__all__ = ["ZERO_DIVISION", "ZERO_CHECKED", "check_zero_divisor",
           "INT32_MIN", "INT32_MAX", "TAIL", "USED_TAIL", "HIDDEN_TAIL", "fits_int32", "MESSAGES", "CHECKED_EW", "CHECKED_SCAN", "OP_NAMES", "result_message", "accumulate_message",
           "check_array", "signed32", "wrap64"]

INT32_MIN, INT32_MAX = -(2 ** 31), 2 ** 31 - 1
_TAIL = ("does not fit in int32, which a WebGPU kernel computes int64 in (int64 values past int32 are held on "
         "the host, but a GPU kernel cannot return one): compute it on the host (.cpu()), in float32, or keep the "
         "values smaller")
TAIL = _TAIL
# a result past int32 that a later GPU kernel read (wrapped) before any read promoted it (gpu_int64_promote.py)
USED_TAIL = ("does not fit in int32, which a WebGPU kernel computes int64 in, and a later GPU op used it (or "
             "changed its operands) before it was read (a result past int32 moves to the host, exact, when it is "
             "read first): read it first (.item(), print(), torch.webgpu.synchronize()), compute it on the host "
             "(.cpu()), or keep the values smaller")
# a result past int32 that something other than tensors held at the read (inside an op): it cannot move
HIDDEN_TAIL = ("does not fit in int32, which a WebGPU kernel computes int64 in, and it was held inside an op when "
               "it was read, so it could not move to the host: compute it on the host (.cpu()), or keep the values "
               "smaller")
_IN_PLACE = ("does not fit in int32, which this GPU tensor holds (int64 values past int32 are held on the host, "
             "but a GPU tensor written in place cannot move there): compute out of place, or on the host (.cpu())")


def fits_int32(a: np.ndarray) -> bool:
    """Whether the integer array a (any width) holds only values of int32's range (what a GPU buffer holds)."""
    return a.size == 0 or (a.min() >= INT32_MIN and a.max() <= INT32_MAX)


def signed32(w: int) -> int:
    w &= 0xFFFFFFFF
    return w - (1 << 32) if w >= 1 << 31 else w


def wrap64(v: int) -> int:
    """v as PyTorch's int64 holds it (two's complement, modulo 2**64)."""
    v &= (1 << 64) - 1
    return v - (1 << 64) if v >= 1 << 63 else v


def _ipow(a: int, b: int) -> int:
    if b < 0:
        return 1 if a == 1 else ((-1 if b % 2 else 1) if a == -1 else 0)
    return wrap64(pow(a, b, 1 << 64))


def _binary(name: str, sym: str, fn):
    def message(a: int, b: int) -> str:
        a, b = signed32(a), signed32(b)
        left = f"({a})" if a < 0 and sym == "**" else a
        return f"{name}: the int64 result of {left} {sym} {b} = {fn(a, b)} {_TAIL}"
    message.__name__ = f"overflow_{name}"
    return message


def _unary(name: str, form: str, fn):
    def message(a: int, b: int = 0) -> str:
        a = signed32(a)
        return f"{name}: the int64 result of {form.format(a)} = {fn(a)} {_TAIL}"
    message.__name__ = f"overflow_{name}"
    return message


def result_message(name: str):
    """The message of a reduction or scan whose 64-bit result (low word a, high word b) does not fit."""
    def message(a: int, b: int) -> str:
        return f"{name}: the int64 result {wrap64((b & 0xFFFFFFFF) << 32 | (a & 0xFFFFFFFF))} {_TAIL}"
    message.__name__ = f"overflow_{name}"
    return message


def _convert(a: int, b: int) -> str:
    return (f"to(torch.int64): the float value {np.uint32(a & 0xFFFFFFFF).view(np.float32)} converted to int64 "
            f"{_TAIL}")


# the message of each checked WGSL block (both devices use them: the same op, the same words)
MESSAGES = {
    "add": _binary("add", "+", lambda a, b: a + b),
    "sub": _binary("sub", "-", lambda a, b: a - b),
    "mul": _binary("mul", "*", lambda a, b: a * b),
    "pow_i": _binary("pow", "**", _ipow),
    "ipow_scalar": _binary("pow", "**", _ipow),
    "add_scaled": lambda a, b: f"add: the int64 result of {signed32(a)} + alpha * {signed32(b)} {_TAIL}",
    "neg": _unary("neg", "-({})", lambda a: -a),
    "abs": _unary("abs", "abs({})", abs),
    "square": _unary("square", "({})**2", lambda a: a * a),
    "div_trunc_i": _binary("div", "//", lambda a, b: -a),   # only INT_MIN / -1 overflows
    "div_floor_i": _binary("floor_divide", "//", lambda a, b: -a),
    "convert": _convert,
    "sum": result_message("sum"),
    "prod": result_message("prod"),
    "cumsum": result_message("cumsum"),
    "cumprod": result_message("cumprod"),
    "matmul": result_message("matmul"),
}

CHECKED_EW = {("ops_binary.wgsl", b) for b in ("add", "sub", "mul", "pow_i", "add_scaled", "div_trunc_i",
                                               "div_floor_i")} | \
    {("ops_unary.wgsl", b) for b in ("neg", "abs", "square", "ipow_scalar")}
CHECKED_SCAN = {"sum_i": "cumsum", "prod_i": "cumprod"}
# the op a checked block's error names (PyTorch's name: add with alpha is add, an integer power is pow)
OP_NAMES = {"pow_i": "pow", "ipow_scalar": "pow", "add_scaled": "add", "div_trunc_i": "div",
            "div_floor_i": "floor_divide", "convert": "to"}


# integer division by zero: PyTorch's exception and message (RuntimeError), and the blocks that check it
ZERO_DIVISION = "ZeroDivisionError"
ZERO_CHECKED = {"div_trunc_i": "div", "div_floor_i": "floor_divide", "remainder_i": "remainder", "fmod_i": "fmod"}


def check_zero_divisor(a: np.ndarray, b: np.ndarray) -> None:
    """Raise PyTorch's error when an integer division a / b (arrays that broadcast) has a zero divisor
    and at least one element (an empty result raises nothing, as in PyTorch)."""
    b = np.asarray(b)
    if b.size and (b == 0).any() and np.broadcast(np.asarray(a), b).size:
        raise RuntimeError(ZERO_DIVISION)


_ACCUMULATE: dict = {}


def accumulate_message(op: str):
    """The message of an accumulating put (index_add, scatter_add, index_put_ with accumulate) whose
    total at one position leaves int32 (the kernel records the low and high words of the exact 64-bit
    total); one function per op, so that error sites are interned."""
    fn = _ACCUMULATE.get(op)
    if fn is None:
        fn = _ACCUMULATE[op] = result_message(op)
    return fn


def check_array(name: str, values: np.ndarray, operands=(), block: str | None = None, in_place: bool = False) -> None:
    """Raise OverflowError when an int64 result (a numpy integer array, exact) leaves int32's range;
    operands (arrays broadcast to values' shape, or scalars) name the first bad element's inputs, in
    the WGSL kernel's words when the op's block has a message. in_place: the result is written into a GPU
    tensor."""
    if fits_int32(values):
        return
    flat = np.flatnonzero((values < INT32_MIN) | (values > INT32_MAX))[0]
    at = np.unravel_index(flat, values.shape)
    v = int(values[at])
    if in_place:
        raise OverflowError(f"{name}: the int64 result {v} {_IN_PLACE}")
    if operands and block in MESSAGES:
        ab = [int(np.asarray(x)[at] if np.ndim(x) else x) for x in operands[:2]]
        raise OverflowError(MESSAGES[block](*ab, *([0] * (2 - len(ab)))))
    if operands:
        vals = ", ".join(str(int(np.asarray(x)[at] if np.ndim(x) else x)) for x in operands)
        raise OverflowError(f"{name}: the int64 result {v} (element {tuple(int(i) for i in at)}) of the operands "
                            f"({vals}) {_TAIL}")
    raise OverflowError(f"{name}: the int64 result {v} {_TAIL}")
