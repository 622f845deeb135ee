"""Tensor: a strided view of a device storage, with PyTorch's names."""
from __future__ import annotations

import builtins
import math

import numpy as np

from . import _dtype
from .device import HOST64, WEBGPU
from .device.gpu_backend import GPUStorage, contiguous_strides
from .device.int64_range import fits_int32

__all__ = ["Tensor"]


class _GradMode:
    """The grad-mode switches (autograd/grad_mode.py's ``STATE``; kept here, below autograd, because
    ``Tensor._make`` marks tensors made inside ``inference_mode()``)."""
    grad_enabled = True
    inference = False


_GRAD_MODE = _GradMode()


class Tensor:
    """A multi-dimensional array on the ``cpu`` or ``webgpu`` device (``torch.Tensor``)."""

    # a dict: the values are the docstrings of the public slots
    __slots__ = {"_storage": None, "_shape": None, "_stride": None, "_offset": None,
                 "dtype": "The data type of the elements (``torch.float32``, ``torch.int64``, ``torch.bool``, ...).",
                 "_device": None, "_requires_grad": None,
                 "grad": "The gradient that ``backward()`` accumulated for this leaf tensor (None until then).",
                 "grad_fn": "The graph node that made this tensor (None for leaves and tensors made without grad).",
                 "_output_nr": None, "_accumulator": None, "_retains_grad": None, "_hooks": None, "_base": None,
                 "_view_src_fn": None, "_view_fn": None, "_ver": None, "__weakref__": None}

    def __init__(self, *args, **kwargs):
        raise TypeError("Tensor cannot be constructed directly here; use borch_webgpu.tensor(data), "
                        "zeros(...), ones(...) or empty(...)")

    @classmethod
    def _make(cls, storage, shape, dtype, device, stride=None, offset=0) -> "Tensor":
        if device is HOST64 or dtype.host or (
                storage.__class__ is not GPUStorage and device is not None and device.type == "webgpu"):
            storage, device, stride, offset = _host64_place(storage, shape, dtype, device, stride, offset)
        if dtype is _dtype.bfloat16 and not storage.rounded:
            _round_bf16_storage(storage)
        t = object.__new__(cls)
        t._storage = storage
        t._shape = tuple(shape)
        t._stride = tuple(stride) if stride is not None else contiguous_strides(t._shape)
        t._offset = offset
        t.dtype = dtype
        t._device = device
        t._requires_grad = False
        t.grad = None
        t.grad_fn = None
        t._output_nr = 0
        t._accumulator = None
        t._retains_grad = False
        t._hooks = None
        t._base = None
        t._view_src_fn = None
        t._view_fn = None
        # version counter, shared by views and detach(); .data gets its own. Made inside inference_mode() it
        # is an _InferenceVersion, so views share that mark (is_inference()) as they share the counter
        t._ver = _InferenceVersion((0,)) if _GRAD_MODE.inference else [0]
        return t

    # ---- properties -----------------------------------------------------------------------
    @property
    def shape(self) -> "Size":
        """The size of each dim, as a ``torch.Size`` (a tuple).

        Example::

            >>> torch.zeros(2, 3).shape
            torch.Size([2, 3])
        """
        return Size(self._shape)

    def size(self, dim: int | None = None):
        """``shape``, or the size of one ``dim``."""
        if dim is None:
            return Size(self._shape)
        return self._shape[_wrap_dim(dim, len(self._shape), "size")]

    def stride(self, dim: int | None = None):
        """The step in elements between neighbours along each dim (or along ``dim``)."""
        if dim is None:
            return self._stride
        return self._stride[_wrap_dim(dim, len(self._shape), "stride")]

    def storage_offset(self) -> int:
        """Where this tensor starts in its storage, in elements."""
        return self._offset

    @property
    def device(self):
        """The device the data lives on: ``webgpu:0`` or ``cpu`` (float64 on ``webgpu`` is held on the
        host but reports ``webgpu:0``; see the dtypes)."""
        d = self._device
        return WEBGPU if d is HOST64 else d

    @property
    def ndim(self) -> int:
        """The number of dims (``dim()``)."""
        return len(self._shape)

    def dim(self) -> int:
        """The number of dims."""
        return len(self._shape)

    def numel(self) -> int:
        """The number of elements (also ``nelement()``).

        Example::

            >>> torch.zeros(2, 3).numel()
            6
        """
        return math.prod(self._shape)

    nelement = numel

    def element_size(self) -> int:
        """Bytes per element of this dtype."""
        return self.dtype.itemsize

    def is_contiguous(self) -> bool:
        """True when the elements lie in memory in row-major order without gaps."""
        expected = 1
        for s, st in zip(reversed(self._shape), reversed(self._stride)):
            if s != 1 and st != expected:
                return False
            expected *= s
        return True

    def is_floating_point(self) -> bool:
        """True for float dtypes."""
        return self.dtype.is_floating_point

    @property
    def is_cuda(self) -> bool:
        """True on the WebGPU device (what code written for CUDA asks to mean 'on the GPU')."""
        return self._device.type == "webgpu"

    @property
    def is_cpu(self) -> bool:
        """True on the ``cpu`` device.

        Example::

            >>> torch.ones(2, device="cpu").is_cpu
            True
        """
        return self._device.type == "cpu"

    # PyTorch's other device and layout flags: none of these devices or layouts exist here
    is_xpu = is_mps = is_meta = is_mkldnn = is_quantized = is_nested = is_sparse = is_sparse_csr = \
        property(lambda self: False, doc="False: borch_webgpu has no such device or layout (PyTorch's flag). "
                                         "Example: ``torch.ones(2).is_mps`` is ``False``.")

    @property
    def requires_grad(self) -> bool:
        """True when operations on this tensor are recorded for ``backward()``."""
        return self._requires_grad or self.grad_fn is not None

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if value and not (self.dtype.is_floating_point or self.dtype.is_complex):
            raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
        if self.grad_fn is not None and not value:
            raise RuntimeError("you can only change requires_grad flags of leaf variables. If you want to use a "
                               "computed variable in a subgraph that doesn't require differentiation use "
                               "var_no_grad = var.detach().")
        self._requires_grad = builtins.bool(value)

    def requires_grad_(self, requires_grad: bool = True) -> "Tensor":
        """Set ``requires_grad`` in place (floating-point leaves only) and return this tensor.

        Example::

            >>> torch.ones(2).requires_grad_().requires_grad
            True
        """
        self.requires_grad = requires_grad
        return self

    @property
    def is_leaf(self) -> bool:
        """True for tensors not made by a recorded operation; only leaves get ``.grad``."""
        return self.grad_fn is None

    @property
    def retains_grad(self) -> bool:
        """True after ``retain_grad()`` on a non-leaf tensor."""
        return self._retains_grad

    @property
    def output_nr(self) -> int:
        """Which output of its ``grad_fn`` this tensor is."""
        return self._output_nr

    def _version_get(self) -> int:
        return self._ver[0]

    _version = property(_version_get)

    def _bump_version(self) -> None:
        self._ver[0] += 1

    def detach(self) -> "Tensor":
        """A tensor sharing this one's data, cut from the graph (``requires_grad=False``)."""
        t = Tensor._make(self._storage, self._shape, self.dtype, self._device, self._stride, self._offset)
        t._ver = self._ver
        return t

    def detach_(self) -> "Tensor":
        if self._base is not None and self._base.requires_grad:
            raise RuntimeError("Can't detach views in-place. Use detach() instead.")
        self.grad_fn = None
        self._requires_grad = False
        return self

    @property
    def data(self) -> "Tensor":
        """The values without the graph; unlike detach(), in-place changes through it are not tracked."""
        t = Tensor._make(self._storage, self._shape, self.dtype, self._device, self._stride, self._offset)
        if type(self._ver) is _InferenceVersion:
            t._ver = _InferenceVersion((0,))
        return t

    @data.setter
    def data(self, other: "Tensor") -> None:
        if not isinstance(other, Tensor):
            raise TypeError(f"data must be a Tensor, got {type(other).__name__}")
        self._storage, self._shape, self._stride, self._offset = other._storage, other._shape, other._stride, \
            other._offset
        self.dtype, self._device = other.dtype, other._device

    def retain_grad(self) -> None:
        """Keep ``.grad`` for this non-leaf tensor after backward."""
        if not self.requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self.grad_fn is None or self._retains_grad:
            return
        import weakref
        ref = weakref.ref(self)

        def keep(g):
            t = ref()
            if t is not None:
                t.grad = g.detach() if t.grad is None else (t.grad + g).detach()
        keep.retains_grad = True   # the engine runs it after the tensor's other hooks
        self.grad_fn.register_prehook(self._output_nr, keep)
        self._retains_grad = True

    # ---- conversion -----------------------------------------------------------------------
    def _backend(self):
        return self._storage.backend

    def _host(self, what: str) -> np.ndarray:
        """The values as a numpy array of the API dtype (blocks on the GPU)."""
        b = self._backend()
        arr = b.to_numpy(self, what) if b.name == "webgpu" else b.to_numpy(self)
        return _to_api_dtype(arr, self.dtype)

    def numpy(self, *, force: bool = False) -> np.ndarray:
        """The values as a numpy array; on WebGPU this waits for the GPU and returns a copy.

        On the ``cpu`` device a float32, float64, float16, int32 or int64 tensor returns a view of its own
        memory, as PyTorch does: writes to either show in the other (``force=True`` returns a copy). bool is
        held in 32 bits here, so it comes back as a copy.

        Example::

            >>> t = torch.zeros(3, device="cpu")
            >>> t.numpy()[0] = 5.0
            >>> t
            tensor([5., 0., 0.])
        """
        if self.requires_grad and not force:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
        if self.dtype is _dtype.bfloat16:  # numpy has no bfloat16 (PyTorch's message)
            raise TypeError("Got unsupported ScalarType BFloat16")
        if not force and self._device.type == "cpu" and self.dtype.np == self.dtype.storage_np:
            return self._backend().view(self)
        return self._host("Tensor.numpy()")

    async def numpy_async(self) -> np.ndarray:
        """``numpy()`` for code that cannot block: ``await t.numpy_async()``."""
        b = self._backend()
        arr = await b.to_numpy_async(self) if b.name == "webgpu" else b.to_numpy(self)
        return _to_api_dtype(arr, self.dtype)

    def tolist(self):
        """The values as (nested) Python lists; on WebGPU this waits for the GPU.

        Example::

            >>> torch.tensor([[1, 2], [3, 4]]).tolist()
            [[1, 2], [3, 4]]
        """
        return self._host("Tensor.tolist()").tolist()

    def item(self):
        """The value of a one-element tensor as a Python number; on WebGPU this waits for the GPU.

        Example::

            >>> torch.tensor([2.5]).item()
            2.5
        """
        if self.numel() != 1:
            raise RuntimeError(f"a Tensor with {self.numel()} elements cannot be converted to Scalar")
        return self._host("Tensor.item()").reshape(()).item()

    async def item_async(self):
        """``item()`` for code that cannot block: ``await t.item_async()``."""
        if self.numel() != 1:
            raise RuntimeError(f"a Tensor with {self.numel()} elements cannot be converted to Scalar")
        return (await self.numpy_async()).reshape(()).item()

    async def tolist_async(self):
        """``tolist()`` for code that cannot block: ``await t.tolist_async()``."""
        return (await self.numpy_async()).tolist()

    def __float__(self) -> float:
        if self.dtype.is_complex:
            raise RuntimeError("value cannot be converted to type double without overflow")
        return builtins.float(self.item())

    def __int__(self) -> int:
        if self.dtype.is_complex:
            raise RuntimeError("value cannot be converted to type int64_t without overflow")
        return builtins.int(self.item())

    def __complex__(self) -> complex:
        return builtins.complex(self.item())

    def __bool__(self) -> bool:
        if self.numel() != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return builtins.bool(self.item())

    def __index__(self) -> int:
        if self.dtype.is_floating_point or self.numel() != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return builtins.int(self.item())

    def __len__(self) -> int:
        if not self._shape:
            raise TypeError("len() of a 0-d tensor")
        return self._shape[0]

    def __array__(self, dtype=None, copy=None):
        a = self.numpy(force=bool(copy))
        return a.astype(dtype) if dtype is not None else a

    def __format__(self, spec: str) -> str:
        if self.dim() == 0:
            return self.item().__format__(spec)
        return object.__format__(self, spec)

    def __hash__(self) -> int:
        return id(self)

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        if self.grad_fn is not None:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) support the deepcopy "
                               "protocol at the moment.  If you were attempting to deepcopy a module, this may be "
                               "because of a torch.nn.utils.weight_norm usage, see "
                               "https://github.com/pytorch/pytorch/pull/103001")
        new = self.detach().clone()
        if type(self) is not Tensor:
            new = type(self).__new__(type(self), new, self._requires_grad) if hasattr(type(self), "__new__") else new
        new._requires_grad = self._requires_grad
        memo[id(self)] = new
        if self.grad is not None:
            new.grad = self.grad.__deepcopy__(memo)
        return new

    # ---- device and dtype moves ---------------------------------------------------------
    def cpu(self) -> "Tensor":
        """A copy on the ``cpu`` device (this tensor when it is there already)."""
        return self.to("cpu")

    def cuda(self, device=None) -> "Tensor":
        """A copy on the WebGPU device (``'cuda'`` means the GPU here)."""
        return self.to("webgpu")

    def webgpu(self) -> "Tensor":
        """A copy on the WebGPU device."""
        return self.to("webgpu")

    def float(self) -> "Tensor":
        """``to(torch.float32)``."""
        return self.to(_dtype.float32)

    def int(self) -> "Tensor":
        """``to(torch.int32)``."""
        return self.to(_dtype.int32)

    def long(self) -> "Tensor":
        """``to(torch.int64)`` (held as int32: values past 2**31 raise ``OverflowError``)."""
        return self.to(_dtype.int64)

    def bool(self) -> "Tensor":
        """``to(torch.bool)``."""
        return self.to(_dtype.bool_)

    def byte(self) -> "Tensor":
        """``to(torch.uint8)``: integers wrap modulo 256, floats are truncated toward zero first.

        Example::

            >>> torch.tensor([300, -1]).byte()
            tensor([ 44, 255], dtype=torch.uint8)
        """
        return self.to(_dtype.uint8)

    def char(self) -> "Tensor":
        """``to(torch.int8)`` (wraps modulo 256 into -128..127).

        Example::

            >>> torch.tensor([200, -3]).char()
            tensor([-56,  -3], dtype=torch.int8)
        """
        return self.to(_dtype.int8)

    def short(self) -> "Tensor":
        """``to(torch.int16)`` (wraps modulo 65536 into -32768..32767).

        Example::

            >>> torch.tensor([40000, 7]).short()
            tensor([-25536,      7], dtype=torch.int16)
        """
        return self.to(_dtype.int16)

    def half(self) -> "Tensor":
        """``to(torch.float16)``; needs an adapter with ``shader-f16`` on WebGPU."""
        return self.to(_dtype.float16)

    def bfloat16(self) -> "Tensor":
        """``to(torch.bfloat16)``: each value rounded to the nearest bfloat16 (ties to even); on WebGPU held
        on the host, as float64 is (see the dtypes).

        Example::

            >>> torch.tensor([1.0, 3.14159]).bfloat16()
            tensor([1.0000, 3.1406], dtype=torch.bfloat16)
        """
        return self.to(_dtype.bfloat16)

    def double(self) -> "Tensor":
        """``to(torch.float64)`` (on WebGPU held on the host, see the dtypes).

        Example::

            >>> torch.tensor([1.5]).double()
            tensor([1.5000], dtype=torch.float64)
        """
        return self.to(_dtype.float64)

    def type(self, dtype=None):
        """Without ``dtype``: the legacy type name (``'torch.FloatTensor'``); with it: ``to(dtype)``.

        Example::

            >>> torch.zeros(2).type()
            'torch.FloatTensor'
        """
        if dtype is None:
            return {"float32": "torch.FloatTensor", "int64": "torch.LongTensor", "int32": "torch.IntTensor",
                    "bool": "torch.BoolTensor", "float16": "torch.HalfTensor",
                    "float64": "torch.DoubleTensor", "uint8": "torch.ByteTensor", "int8": "torch.CharTensor",
                    "int16": "torch.ShortTensor", "complex64": "torch.ComplexFloatTensor",
                    "complex128": "torch.ComplexDoubleTensor", "bfloat16": "torch.BFloat16Tensor"}[self.dtype.name]
        return self.to(dtype)


class _InferenceVersion(list):
    """The version counter of a tensor made inside ``inference_mode()`` (a list, as the others are)."""

    __slots__ = ()


class Size(tuple):
    """``torch.Size``: a tuple that prints as ``torch.Size([2, 3])``."""

    def __repr__(self) -> str:
        return f"torch.Size({list(self)})"

    def __getitem__(self, key):
        r = tuple.__getitem__(self, key)
        return Size(r) if isinstance(key, slice) else r

    def __add__(self, other):
        return Size(tuple.__add__(self, tuple(other)))

    def numel(self) -> int:
        return math.prod(self)


def _wrap_dim(dim: int, ndim: int, op: str) -> int:
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(f"{op}: Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim % n


def _round_bf16_storage(storage) -> None:
    """A bfloat16 tensor's storage holds bfloat16 values (float32 arrays rounded to them, borch_webgpu/_dtype.py):
    results that an op stored unrounded are rounded once, here, where every tensor is made."""
    from .device.bf16 import round_inplace
    round_inplace(storage.array)
    storage.rounded = True


def _host64_place(storage, shape, dtype, device, stride, offset):
    """Keep the float64 rule of the webgpu device (borch_webgpu/_dtype.py): a float64 tensor made for
    webgpu is held on the host (its storage is a numpy array, device HOST64), so is an int64 one whose
    storage holds values past int32 (and its views); a tensor of another dtype made on the host for webgpu
    (``x64 > 0``, ``x64.float()``, ``x64.argmax()``, an int64 result within int32) is uploaded."""
    if dtype.host:
        if device.type == "webgpu":
            assert storage.backend.name == "cpu", f"a {dtype.name} webgpu tensor must have a host storage"
            device = HOST64
        return storage, device, stride, offset
    if storage.__class__ is GPUStorage:
        return storage, WEBGPU, stride, offset
    if dtype is _dtype.int64 and (getattr(storage, "held", False) or not fits_int32(storage.array)):
        storage.held = True  # int64 values past int32: held on the host, as are its views (int64_range.py)
        return storage, HOST64, stride, offset
    from .device.cpu import BACKEND as CPU_BACKEND
    from .device.gpu_backend import backend
    meta = Tensor._make(storage, shape, _dtype.float32, None, stride, offset)  # a view for the cpu backend
    meta.dtype = dtype
    arr = CPU_BACKEND.to_numpy(meta)
    return backend().from_numpy(arr, dtype), WEBGPU, None, 0


def _to_api_dtype(arr: np.ndarray, d) -> np.ndarray:
    if d.name == "bool":
        return arr.astype(np.bool_)
    if arr.dtype != d.np:
        return arr.astype(d.np)
    return arr
