"""``torch.fx.passes.shape_prop``: run a GraphModule on example inputs and record each node's
``TensorMetadata`` (shape, dtype, requires_grad, stride, memory_format, is_quantized, qparams) in
``node.meta['tensor_meta']``, with the Python type of its value in ``node.meta['type']``."""
from __future__ import annotations

from typing import Any, NamedTuple

from ...tensor import Tensor
from ..interpreter import Interpreter
from ..node import Node, map_aggregate

__all__ = ["TensorMetadata", "ShapeProp"]


class TensorMetadata(NamedTuple):
    shape: Any
    dtype: Any
    requires_grad: bool
    stride: tuple
    memory_format: Any
    is_quantized: bool
    qparams: dict


def _extract_tensor_metadata(result: Tensor) -> TensorMetadata:
    # memory_format: "contiguous_format" as a name (our tensors have no other layout objects)
    return TensorMetadata(result.shape, result.dtype, result.requires_grad, tuple(result.stride()),
                          "contiguous_format" if result.is_contiguous() else None, False, {})


class ShapeProp(Interpreter):
    """Record what every node produces when the module runs on ``args``.

    Example:
        >>> import borch_webgpu as torch
        >>> import borch_webgpu.fx as fx
        >>> from borch_webgpu.fx.passes.shape_prop import ShapeProp
        >>> gm = fx.symbolic_trace(torch.nn.Linear(3, 2))
        >>> _ = ShapeProp(gm).propagate(torch.zeros(4, 3))
        >>> [tuple(n.meta["tensor_meta"].shape) for n in gm.graph.nodes if n.op != "output"]
        [(4, 3), (2, 3), (2,), (4, 2)]
    """

    def __init__(self, gm, fake_mode=None) -> None:
        super().__init__(gm)

    def run_node(self, n: Node) -> Any:
        result = super().run_node(n)
        found_tensor = False

        def extract(obj):
            nonlocal found_tensor
            if isinstance(obj, Tensor):
                found_tensor = True
                return _extract_tensor_metadata(obj)
            return obj
        meta = map_aggregate(result, extract)
        if found_tensor:
            n.meta["tensor_meta"] = meta
        n.meta["type"] = type(result)
        return result

    def propagate(self, *args) -> Any:
        """Run the module on ``args`` (annotating every node) and return its output."""
        return super().run(*args)
