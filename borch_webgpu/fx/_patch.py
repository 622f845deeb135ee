"""Attributes set for a while and put back: what a trace patches for its length (``Module.__call__``
/ ``__getattr__``, the names given to ``wrap``) and what _dispatch.py patches while Proxies live."""
from __future__ import annotations

__all__ = ["Patcher"]

class Patcher:
    """Set attributes / dict entries for the duration of a ``with`` block, then put them back."""

    def __init__(self) -> None:
        self.saved: list = []

    def patch(self, owner, name: str, value) -> None:
        had = name in vars(owner) if isinstance(owner, type) else hasattr(owner, name)
        old = vars(owner).get(name) if isinstance(owner, type) else getattr(owner, name, None)
        self.saved.append(("attr", owner, name, had, old))
        setattr(owner, name, value)

    def patch_dict(self, d: dict, name: str, value) -> None:
        self.saved.append(("dict", d, name, name in d, d.get(name)))
        d[name] = value

    def __enter__(self) -> "Patcher":
        return self

    def __exit__(self, *exc) -> None:
        for kind, owner, name, had, old in reversed(self.saved):
            if kind == "dict":
                if had:
                    owner[name] = old
                else:
                    owner.pop(name, None)
            elif had:
                setattr(owner, name, old)
            else:
                delattr(owner, name)
        self.saved.clear()
