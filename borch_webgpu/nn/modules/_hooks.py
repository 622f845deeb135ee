"""``RemovableHandle`` (torch.utils.hooks), what ``register_*_hook`` returns, and the forward call with hooks."""
from __future__ import annotations

import itertools
import warnings
import weakref

__all__ = ["RemovableHandle", "call_with_hooks"]


class RemovableHandle:
    """Removes the hook it was made for: ``handle.remove()`` (or leave a ``with handle:`` block)."""

    _next_id = itertools.count()

    def __init__(self, hooks_dict: dict, *, extra_dict=None) -> None:
        self.hooks_dict_ref = weakref.ref(hooks_dict)
        self.id = next(RemovableHandle._next_id)
        extras = [] if extra_dict is None else (extra_dict if isinstance(extra_dict, list) else [extra_dict])
        self.extra_dict_ref = tuple(weakref.ref(d) for d in extras)

    def remove(self) -> None:
        for ref in (self.hooks_dict_ref, *self.extra_dict_ref):
            d = ref()
            if d is not None and self.id in d:
                del d[self.id]

    # deepcopy and pickle carry the dicts themselves, so a copied module's handle (a lazy module keeps its
    # initializing hook's) removes the hook from the copy's dict, not from the original's
    def __getstate__(self):
        return (self.hooks_dict_ref(), self.id, tuple(ref() for ref in self.extra_dict_ref))

    def __setstate__(self, state) -> None:
        from collections import OrderedDict
        self._dict_alive = state[0] if state[0] is not None else OrderedDict()
        self.hooks_dict_ref = weakref.ref(self._dict_alive)
        self.id = state[1]
        extras = state[2] if len(state) > 2 and state[2] is not None else ()
        self.extra_dict_ref = tuple(weakref.ref(d) for d in extras if d is not None)
        del self._dict_alive

    def __enter__(self) -> "RemovableHandle":
        return self

    def __exit__(self, *exc) -> None:
        self.remove()


def call_with_hooks(module, args: tuple, kwargs: dict):
    """``module.forward(*args, **kwargs)`` with its forward pre-hooks and hooks, PyTorch's order and
    rules (a pre-hook's result replaces the inputs, a hook's the output; ``always_call`` hooks also
    run when forward raises)."""
    called = set()
    result = None
    try:
        for hook_id, hook in list(module._forward_pre_hooks.items()):
            if hook_id in module._forward_pre_hooks_with_kwargs:
                r = hook(module, args, kwargs)
                if r is not None:
                    if isinstance(r, tuple) and len(r) == 2:
                        args, kwargs = r
                    else:
                        raise RuntimeError(f"forward pre-hook must return None or a tuple of (new_args, new_kwargs), "
                                           f"but got {r}.")
            else:
                r = hook(module, args)
                if r is not None:
                    args = r if isinstance(r, tuple) else (r,)
        result = module.forward(*args, **kwargs)
        for hook_id, hook in list(module._forward_hooks.items()):
            if hook_id in module._forward_hooks_always_called:
                called.add(hook_id)
            if hook_id in module._forward_hooks_with_kwargs:
                r = hook(module, args, kwargs, result)
            else:
                r = hook(module, args, result)
            if r is not None:
                result = r
        return result
    except Exception:
        for hook_id, hook in list(module._forward_hooks.items()):
            if hook_id in module._forward_hooks_always_called and hook_id not in called:
                try:
                    if hook_id in module._forward_hooks_with_kwargs:
                        r = hook(module, args, kwargs, result)
                    else:
                        r = hook(module, args, result)
                    if r is not None:
                        result = r
                except Exception as e:  # noqa: BLE001 - PyTorch silences these with a warning
                    warnings.warn("module forward hook with ``always_call=True`` raised an exception that was "
                                  f"silenced as another error was raised in forward: {e}", stacklevel=3)
        raise
