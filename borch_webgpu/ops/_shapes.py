"""Broadcasting rules over plain shapes (no tensors): the bottom of the ops, used by all of them."""
from __future__ import annotations

__all__ = ["broadcast_shapes"]


def broadcast_shapes(*shapes) -> tuple[int, ...]:
    """The shape that all ``shapes`` broadcast to (PyTorch's rules, its error text)."""
    ndim = max((len(s) for s in shapes), default=0)
    out = [1] * ndim
    for s in shapes:
        for i, n in enumerate(s, start=ndim - len(s)):
            if out[i] == 1:
                out[i] = n
            elif n != 1 and n != out[i]:
                raise RuntimeError(f"shape mismatch: objects cannot be broadcast to a single shape. Mismatch is "
                                   f"between {list(shapes[0])} and {list(s)}")
    return tuple(out)


def _broadcast(op: str, shapes) -> tuple[int, ...]:
    ndim = max((len(s) for s in shapes), default=0)
    out = [1] * ndim
    for k, s in enumerate(shapes):
        for i, n in reversed(list(enumerate(s, start=ndim - len(s)))):  # PyTorch names the last mismatch
            if out[i] == 1:
                out[i] = n
            elif n != 1 and n != out[i]:
                a, b = ("a", "b") if k == 1 else ("a", "c" if k == 2 else "b")
                raise RuntimeError(f"{op}: The size of tensor {a} ({out[i]}) must match the size of tensor {b} ({n}) "
                                   f"at non-singleton dimension {i}")
    return tuple(out)
