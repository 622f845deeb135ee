"""``torch.autograd.gradcheck``: the gradients that backward computes, checked against finite differences
(PyTorch's slow mode: the whole Jacobian, one input element and one output element at a time). Use float64
inputs, as in PyTorch: float32's rounding is larger than the default tolerances."""
from __future__ import annotations

import warnings

import numpy as np

__all__ = ["gradcheck", "GradcheckError"]


class GradcheckError(RuntimeError):
    """Raised by :func:`gradcheck` when the analytical and numerical Jacobians differ."""


def _as_tuple(x) -> tuple:
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def gradcheck(func, inputs, *, eps: float = 1e-06, atol: float = 1e-05, rtol: float = 0.001,
              raise_exception: bool = True, nondet_tol: float = 0.0, check_undefined_grad: bool = True,
              check_grad_dtypes: bool = False, check_batched_grad: bool = False,
              check_batched_forward_grad: bool = False, check_forward_ad: bool = False,
              check_backward_ad: bool = True, fast_mode: bool = False, masked: bool | None = None) -> bool:
    """True when ``func``'s backward agrees with central differences of step ``eps`` for every input that
    requires grad (``|analytical - numerical| <= atol + rtol * |numerical|``); otherwise raises
    :class:`GradcheckError` with PyTorch's message (or returns False with ``raise_exception=False``).

    The forward-mode, batched and fast-mode checks of PyTorch's signature are not run here (their flags are
    accepted and ignored).

    Example::

        >>> import borch_webgpu as torch
        >>> x = torch.tensor([0.3, 0.7], dtype=torch.float64, requires_grad=True)
        >>> torch.autograd.gradcheck(lambda a: (a * a).sin(), (x,))
        True
    """
    from .engine import grad
    from .grad_mode import no_grad
    inputs = _as_tuple(inputs)
    diff = [i for i, x in enumerate(inputs) if getattr(x, "requires_grad", False)]
    if not diff:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of them "
                         "have requires_grad=True.")
    for i in diff:
        if inputs[i].dtype.name != "float64":
            warnings.warn(f"Input #{i} requires gradient and is not a double precision floating point or complex. "
                          "This check will likely fail if all the inputs are not of double precision floating "
                          "point or complex. ", stacklevel=2)
    outputs = [o for o in _as_tuple(func(*inputs)) if getattr(o, "requires_grad", False)]

    def evaluate(i: int, arr: np.ndarray) -> list[np.ndarray]:
        args = list(inputs)
        args[i] = inputs[i].new_tensor(arr)
        with no_grad():
            outs = [o for o in _as_tuple(func(*args)) if getattr(o, "dtype", None) is not None and
                    o.dtype.is_floating_point]
        return [o.detach().numpy(force=True).astype(np.float64).reshape(-1) for o in outs]

    for oi, out in enumerate(outputs):
        n_out = out.numel()
        flat = out.reshape(-1)
        for i in diff:
            x = inputs[i]
            base = x.detach().numpy(force=True).copy()
            numerical = np.zeros((x.numel(), n_out))
            for j in range(x.numel()):
                plus, minus = base.copy().reshape(-1), base.copy().reshape(-1)
                plus[j] += eps
                minus[j] -= eps
                numerical[j] = (evaluate(i, plus.reshape(base.shape))[oi] - evaluate(i, minus.reshape(base.shape))[oi]
                                ) / (2 * eps)
            analytical = np.zeros((x.numel(), n_out))
            for k in range(n_out):
                (g,) = grad(flat[k], (x,), retain_graph=True, allow_unused=True)
                if g is not None:
                    analytical[:, k] = g.detach().numpy(force=True).astype(np.float64).reshape(-1)
            if not np.allclose(analytical, numerical, rtol=rtol, atol=atol):
                if not raise_exception:
                    return False
                num = out.new_tensor(numerical)
                ana = out.new_tensor(analytical)
                raise GradcheckError(f"Jacobian mismatch for output {oi} with respect to input {i},\n"
                                     f"numerical:{num}\nanalytical:{ana}\n")
    return True
