"""``torch.nn.parallel``: ``DataParallel`` as PyTorch behaves with one device or none: the wrapped module runs
unchanged (there is one WebGPU device, so nothing is split or gathered). Distributed training
(``DistributedDataParallel``) is out of scope."""
from __future__ import annotations

from .modules.module import Module

__all__ = ["DataParallel"]


class DataParallel(Module):
    """Wraps ``module`` so that code written for several GPUs runs: ``forward`` calls the module itself.

    As in PyTorch, the parameters are the module's, under the prefix ``module.`` in ``state_dict()``;
    ``device_ids`` is ``[0]`` where the WebGPU device exists and ``[]`` elsewhere (PyTorch's answer without CUDA).

    Example::

        >>> import borch_webgpu as torch
        >>> m = torch.nn.DataParallel(torch.nn.Linear(3, 2))
        >>> m(torch.ones(4, 3)).shape, list(m.state_dict())
        (torch.Size([4, 2]), ['module.weight', 'module.bias'])
    """

    def __init__(self, module: Module, device_ids=None, output_device=None, dim: int = 0) -> None:
        super().__init__()
        from ..accelerator import is_available
        self.module = module
        self.device_ids = [0] if is_available() else []
        if device_ids is not None and is_available():
            ids = [d if isinstance(d, int) else (getattr(d, "index", None) or 0) for d in device_ids]
            if any(i != 0 for i in ids):
                raise ValueError(f"DataParallel: device_ids {list(device_ids)}: the WebGPU device is the only one "
                                 "(index 0)")
        self.output_device = self.device_ids[0] if self.device_ids else None
        self.dim = dim

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)
