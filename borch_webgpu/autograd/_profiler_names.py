"""The profiler's event name of each public op: PyTorch's (``aten::mm``; operators as PyTorch names them)."""
from __future__ import annotations

__all__ = ["event_name"]

# PyTorch's event names where they are not ``aten::<python name>`` (checked against torch 2.13 in
# tests/golden/profiler.json); a name mapped to None is not an op and is never recorded
_ATEN = {"__add__": "add", "__radd__": "add", "__iadd__": "add_", "__sub__": "sub", "__rsub__": "rsub",
         "__isub__": "sub_", "__mul__": "mul", "__rmul__": "mul", "__imul__": "mul_", "__truediv__": "div",
         "__rtruediv__": "div", "__itruediv__": "div_", "__floordiv__": "floor_divide",
         "__rfloordiv__": "floor_divide", "__ifloordiv__": "floor_divide_", "__mod__": "remainder",
         "__rmod__": "remainder", "__imod__": "remainder_", "__pow__": "pow", "__rpow__": "pow", "__ipow__": "pow_",
         "__matmul__": "matmul", "__rmatmul__": "matmul", "__neg__": "neg", "__abs__": "abs", "__pos__": "positive",
         "__eq__": "eq", "__ne__": "ne", "__lt__": "lt", "__le__": "le", "__gt__": "gt", "__ge__": "ge",
         "__invert__": "bitwise_not", "__rand__": "bitwise_and", "__ror__": "bitwise_or", "__rxor__": "bitwise_xor",
         "__rlshift__": "bitwise_left_shift", "__rrshift__": "bitwise_right_shift",
         "cross_entropy": "cross_entropy_loss",
         # queries, hooks and printing: not ops
         "__repr__": None, "__str__": None, "__format__": None, "backward": None, "register_hook": None,
         "register_post_accumulate_grad_hook": None, "data_ptr": None, "const_data_ptr": None, "dim_order": None,
         "ndimension": None, "nbytes": None, "itemsize": None, "typename": None, "get_device": None,
         "result_type": None, "is_same_size": None}


def event_name(name: str) -> str | None:
    """PyTorch's profiler name of the public op ``name`` (``mm`` -> ``aten::mm``, ``__add__`` ->
    ``aten::add``), or None for names that are not ops (queries like ``is_tensor``, ``__repr__``).

    Example::

        >>> from borch_webgpu.autograd.profiler import event_name
        >>> event_name("mm"), event_name("__rsub__"), event_name("__and__"), event_name("is_tensor")
        ('aten::mm', 'aten::rsub', 'aten::__and__', None)
    """
    if name in _ATEN:
        mapped = _ATEN[name]
        return None if mapped is None else f"aten::{mapped}"
    if name.startswith("is_"):
        return None
    if name in ("__getitem__", "__setitem__"):
        return f"Tensor.{name}"
    return f"aten::{name}"   # PyTorch keeps the bitwise dunders: aten::__and__, aten::__ilshift__
