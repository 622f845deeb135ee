"""Lazy modules: ``LazyModuleMixin`` and the layers whose input size is read from the first input
(``LazyLinear``, ``LazyConv1d/2d/3d``, ``LazyConvTranspose1d/2d/3d``, ``LazyBatchNorm1d/2d/3d``,
``LazyInstanceNorm1d/2d/3d``). Their parameters are :class:`~torch.nn.UninitializedParameter` until the first
forward (or ``load_state_dict``) gives them a shape; after that forward the module's class becomes the
ordinary one (``LazyLinear`` -> ``Linear``), as in PyTorch. An optimizer may be built before: it holds the
same parameter objects, which materialize in place."""
from __future__ import annotations

import itertools

from ...autograd import no_grad
from ...ops.creation import tensor
from ... import _dtype
from ..parameter import UninitializedBuffer, UninitializedParameter, is_lazy
from .batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d, _BatchNorm, _NormBase
from .conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from .instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d, _InstanceNorm
from .linear import Linear

__all__ = ["LazyModuleMixin", "LazyLinear", "LazyConv1d", "LazyConv2d", "LazyConv3d", "LazyConvTranspose1d",
           "LazyConvTranspose2d", "LazyConvTranspose3d", "LazyBatchNorm1d", "LazyBatchNorm2d", "LazyBatchNorm3d",
           "LazyInstanceNorm1d", "LazyInstanceNorm2d", "LazyInstanceNorm3d"]


class LazyModuleMixin:
    """Mixin for modules whose parameters get their shapes from the first input: ``initialize_parameters``
    runs in a forward pre-hook on the first call, then the class becomes ``cls_to_become``. A state dict
    with initialized tensors materializes the placeholders too.

    Example::

        >>> import borch_webgpu as torch
        >>> m = torch.nn.LazyLinear(3)
        >>> isinstance(m, torch.nn.modules.lazy.LazyModuleMixin), m.has_uninitialized_params()
        (True, True)
        >>> m(torch.ones(2, 5)).shape, type(m).__name__, m.weight.shape
        (torch.Size([2, 3]), 'Linear', torch.Size([3, 5]))
    """

    cls_to_become: type | None = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _hook_up(self)

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if is_lazy(param) or keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if is_lazy(buf) or keep_vars else buf.detach()

    def _lazy_load_hook(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                        error_msgs):
        for name, param in itertools.chain(self._parameters.items(), self._buffers.items()):
            key = prefix + name
            if key in state_dict and param is not None:
                input_param = state_dict[key]
                if is_lazy(param) and not is_lazy(input_param):
                    with no_grad():
                        param.materialize(input_param.shape)

    def initialize_parameters(self, *args, **kwargs):
        """Give the placeholders their shapes from the inputs (each lazy layer defines it)."""
        raise NotImplementedError(f"initialize_parameters is not implemented for {self.__class__.__name__}")

    def has_uninitialized_params(self) -> bool:
        """Whether a parameter or buffer is still a placeholder."""
        return any(is_lazy(p) for p in itertools.chain(self._parameters.values(), self._buffers.values()))

    def _infer_parameters(self, module, args, kwargs=None):
        kwargs = kwargs if kwargs else {}
        module.initialize_parameters(*args, **kwargs)
        if module.has_uninitialized_params():
            raise RuntimeError(f"module {self._get_name()} has not been fully initialized")
        module._initialize_hook.remove()
        module._load_hook.remove()
        delattr(module, "_initialize_hook")
        delattr(module, "_load_hook")
        if module.cls_to_become is not None:
            module.__class__ = module.cls_to_become

    def _replicate_for_data_parallel(self):
        raise RuntimeError("Modules with uninitialized parameters can't be used with `DataParallel`. Run a dummy "
                           "forward pass to correctly initialize the modules")


class LazyLinear(LazyModuleMixin, Linear):
    """:class:`Linear` with ``in_features`` read from the first input's last dim.

    Example::

        >>> import borch_webgpu as torch
        >>> m = torch.nn.LazyLinear(4)
        >>> m
        LazyLinear(in_features=0, out_features=4, bias=True)
        >>> _ = m(torch.ones(2, 3)); m
        Linear(in_features=3, out_features=4, bias=True)
    """

    cls_to_become = Linear

    def __init__(self, out_features: int, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__(0, 0, False)
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    def reset_parameters(self) -> None:
        """Linear's initialization, once the shapes are known."""
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input) -> None:
        """Materialize ``weight`` (out_features, input.shape[-1]) and ``bias``, then initialize them."""
        if self.has_uninitialized_params():
            with no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()
        if self.in_features == 0:
            if input.shape[-1] != self.weight.shape[-1]:
                raise AssertionError(f"The in_features inferred from input: {input.shape[-1]} is not equal to "
                                     f"in_features from self.weight: {self.weight.shape[-1]}")
            self.in_features = input.shape[-1]


class _LazyConvXdMixin(LazyModuleMixin):
    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def initialize_parameters(self, input, *args, **kwargs) -> None:
        if self.has_uninitialized_params():
            self.in_channels = self._get_in_channels(input)
            if self.in_channels % self.groups != 0:
                raise ValueError("in_channels must be divisible by groups")
            if self.transposed:
                self.weight.materialize((self.in_channels, self.out_channels // self.groups, *self.kernel_size))
            else:
                self.weight.materialize((self.out_channels, self.in_channels // self.groups, *self.kernel_size))
            if self.bias is not None:
                self.bias.materialize((self.out_channels,))
            self.reset_parameters()

    def _get_in_channels(self, input) -> int:
        num_dims_no_batch = self._num_spatial_dims + 1
        num_dims_batch = num_dims_no_batch + 1
        if input.dim() not in (num_dims_no_batch, num_dims_batch):
            raise RuntimeError(f"Expected {num_dims_no_batch}D (unbatched) or {num_dims_batch}D (batched) input to "
                               f"{self.__class__.__name__}, but got input of size: {input.shape}")
        return input.shape[1] if input.dim() == num_dims_batch else input.shape[0]

    def _lazy_conv_init(self, out_channels: int, bias: bool, device, dtype) -> None:
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)


def _lazy_conv(name: str, base: type, dims: int, transposed: bool) -> type:
    """``Lazy<base>``: ``base``'s signature without ``in_channels``, read from the first input's channels."""
    if transposed:
        def __init__(self, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1, bias=True,
                     dilation=1, padding_mode="zeros", device=None, dtype=None) -> None:
            base.__init__(self, 0, 0, kernel_size, stride, padding, output_padding, groups, False, dilation,
                          padding_mode, device=device, dtype=dtype)
            _hook_up(self)
            self._lazy_conv_init(out_channels, bias, device, dtype)
    else:
        def __init__(self, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                     padding_mode="zeros", device=None, dtype=None) -> None:
            base.__init__(self, 0, 0, kernel_size, stride, padding, dilation, groups, False, padding_mode,
                          device=device, dtype=dtype)
            _hook_up(self)
            self._lazy_conv_init(out_channels, bias, device, dtype)
    doc = f""":class:`{base.__name__}` with ``in_channels`` read from the first input (dim 1, or 0 unbatched).

    Example::

        >>> import borch_webgpu as torch
        >>> m = torch.nn.{name}(4, 3)
        >>> _ = m(torch.ones({', '.join(['1', '2'] + ['5'] * dims)})); type(m).__name__, m.in_channels
        ('{base.__name__}', 2)
    """
    return type(name, (_LazyConvXdMixin, base), {"__init__": __init__, "__doc__": doc, "cls_to_become": base,
                                                  "_num_spatial_dims": dims, "__module__": __name__})


def _hook_up(self) -> None:
    """LazyModuleMixin.__init__'s hooks (the generated classes call their base's __init__ directly)."""
    self._load_hook = self._register_load_state_dict_pre_hook(self._lazy_load_hook)
    self._initialize_hook = self.register_forward_pre_hook(self._infer_parameters, with_kwargs=True)

LazyConv1d = _lazy_conv("LazyConv1d", Conv1d, 1, False)
LazyConv2d = _lazy_conv("LazyConv2d", Conv2d, 2, False)
LazyConv3d = _lazy_conv("LazyConv3d", Conv3d, 3, False)
LazyConvTranspose1d = _lazy_conv("LazyConvTranspose1d", ConvTranspose1d, 1, True)
LazyConvTranspose2d = _lazy_conv("LazyConvTranspose2d", ConvTranspose2d, 2, True)
LazyConvTranspose3d = _lazy_conv("LazyConvTranspose3d", ConvTranspose3d, 3, True)


class _LazyNormBase(LazyModuleMixin, _NormBase):
    def __init__(self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None, dtype=None, *,
                 bias=True) -> None:
        _NormBase.__init__(self, 0, eps, momentum, False, False, device=device, dtype=dtype, bias=False)
        _hook_up(self)
        self.affine = affine
        self.track_running_stats = track_running_stats
        if self.affine:
            self.weight = UninitializedParameter(device=device, dtype=dtype)
            if bias:
                self.bias = UninitializedParameter(device=device, dtype=dtype)
        if self.track_running_stats:
            self.running_mean = UninitializedBuffer(device=device, dtype=dtype)
            self.running_var = UninitializedBuffer(device=device, dtype=dtype)
            self.num_batches_tracked = tensor(0, dtype=_dtype.int64, device=device)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input) -> None:
        if self.has_uninitialized_params():
            self.num_features = input.shape[1]
            if self.affine:
                self.weight.materialize((self.num_features,))
                if self.bias is not None:
                    self.bias.materialize((self.num_features,))
            if self.track_running_stats:
                self.running_mean.materialize((self.num_features,))
                self.running_var.materialize((self.num_features,))
            self.reset_parameters()


def _lazy_norm(name: str, family: type, base: type, ranks: tuple, no_batch_dim: int | None) -> type:
    def _check_input_dim(self, input) -> None:
        if input.dim() not in ranks:
            want = " or ".join(f"{r}D" for r in ranks)
            raise ValueError(f"expected {want} input (got {input.dim()}D input)")
    shape = {2: "4, 3", 3: "4, 3, 5", 4: "2, 3, 4, 4", 5: "2, 3, 2, 2, 2"}[ranks[-1]]
    doc = f""":class:`{base.__name__}` with ``num_features`` read from the first input's dim 1.

    Example::

        >>> import borch_webgpu as torch
        >>> m = torch.nn.{name}()
        >>> _ = m(torch.randn({shape})); type(m).__name__, m.num_features
        ('{base.__name__}', 3)
    """
    attrs = {"__doc__": doc, "cls_to_become": base, "_check_input_dim": _check_input_dim, "__module__": __name__}
    if no_batch_dim is not None:
        attrs["_no_batch_dim"] = no_batch_dim
    return type(name, (_LazyNormBase, family), attrs)


LazyBatchNorm1d = _lazy_norm("LazyBatchNorm1d", _BatchNorm, BatchNorm1d, (2, 3), None)
LazyBatchNorm2d = _lazy_norm("LazyBatchNorm2d", _BatchNorm, BatchNorm2d, (4,), None)
LazyBatchNorm3d = _lazy_norm("LazyBatchNorm3d", _BatchNorm, BatchNorm3d, (5,), None)
LazyInstanceNorm1d = _lazy_norm("LazyInstanceNorm1d", _InstanceNorm, InstanceNorm1d, (2, 3), 2)
LazyInstanceNorm2d = _lazy_norm("LazyInstanceNorm2d", _InstanceNorm, InstanceNorm2d, (3, 4), 3)
LazyInstanceNorm3d = _lazy_norm("LazyInstanceNorm3d", _InstanceNorm, InstanceNorm3d, (4, 5), 4)
