"""Autograd: graph nodes, the backward engine, grad modes and ``autograd.Function``.

No formulas live here: each op records its own backward (written with other ops, so that
``create_graph=True`` differentiates through it) via :func:`record`.
"""
from __future__ import annotations

from .engine import backward, grad
from .gradcheck import GradcheckError, gradcheck
from .function import Function, FunctionCtx, once_differentiable
from .graph import Node, record
from .variable import Variable
from . import profiler
from .grad_mode import enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled, no_grad, \
    set_grad_enabled

__all__ = ["backward", "grad", "gradcheck", "GradcheckError", "Function", "FunctionCtx", "once_differentiable", "Node", "record", "Variable", "no_grad",
           "enable_grad", "set_grad_enabled", "inference_mode", "is_grad_enabled", "is_inference_mode_enabled", "profiler"]
