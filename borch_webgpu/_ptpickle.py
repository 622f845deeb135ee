"""The pickle inside a PyTorch checkpoint: PyTorch's weights-only unpickler, rebuilt here, and the pickler
``torch.save`` writes with.

Reading follows ``torch/_weights_only_unpickler.py`` (torch 2.13): the same opcodes (protocol 2 and 3;
anything else is "Unsupported operand"), the same allowlist of globals (``ALLOWED``: collections.OrderedDict
and Counter, torch.Size, torch.device, torch.Tensor, nn.Parameter, the dtypes, the storage classes, the
``torch._utils._rebuild_*`` functions, ``_codecs.encode``, ``set``, ``bytearray``, ``complex``), the same
blocked modules (sys, os, posix, nt) and the same error text, plus what it leaves out: limits on the
pickle's size, the values it pushes (``MAX_PICKLE_ITEMS``) and how deep the result nests
(``MAX_PICKLE_DEPTH``, a cycle counts as too deep), truncation, memo and stack checks, and strict checks
of every argument a rebuild function gets (sizes, strides, offsets inside the storage). The opcodes run
in a loop, never recursively, so no file can overflow the browser's stack.
"""
from __future__ import annotations

import _compat_pickle
import math
import pickle
from collections import Counter, OrderedDict

import numpy as np

from . import _dtype
from .tensor import Size, Tensor

MAX_PICKLE_BYTES = 128 << 20
MAX_PICKLE_ITEMS = 10_000_000
MAX_PICKLE_DEPTH = 100
MAX_DIMS = 32
_I64 = (1 << 63) - 1

UNSAFE_MESSAGE = (
    "In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` "
    "from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, "
    "but it can result in arbitrary code execution. Do it only if you got the file from a "
    "trusted source."
)
DOCS_MESSAGE = ("\n\nCheck the documentation of torch.load to learn more about types accepted by default with "
                "weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")
BLOCKED_MODULES = ("sys", "os", "posix", "nt")


def wo_message(message: str) -> str:
    """PyTorch's ``_get_wo_message``: how torch.load words a weights-only refusal."""
    if "was not an allowed global by default." in message:
        return ("Weights only load failed. This file can still be loaded, to do so you have two options, "
                "\033[1mdo those steps only if you trust the source of the checkpoint\033[0m. "
                f"\n\t(1) {UNSAFE_MESSAGE}\n\t(2) Alternatively, to load with `weights_only=True` please check "
                "the recommended steps in the following error message.\n\tWeightsUnpickler error: "
                + message + DOCS_MESSAGE)
    out = f"Weights only load failed. {UNSAFE_MESSAGE}\n"
    if "is blocked" not in message:
        out += ("Please file an issue with the following so that we can make "
                "`weights_only=True` compatible with your use case: WeightsUnpickler error: ")
    return out + "\n\n" + message + DOCS_MESSAGE


class _Bad(Exception):
    """A rebuild function's refusal, turned into a CheckpointError naming the file and the byte."""

    def __init__(self, kind: str, detail: str):
        super().__init__(detail)
        self.kind = kind


# ---- storages ------------------------------------------------------------------------------------------
# torch storage class -> (torch dtype name, file bytes as numpy reads them, our dtype or None)
_STORAGES = {"FloatStorage": ("float32", "f4"), "DoubleStorage": ("float64", "f8"),
             "HalfStorage": ("float16", "f2"), "BFloat16Storage": ("bfloat16", "u2"),
             "LongStorage": ("int64", "i8"), "IntStorage": ("int32", "i4"), "ShortStorage": ("int16", "i2"),
             "CharStorage": ("int8", "i1"), "ByteStorage": ("uint8", "u1"), "BoolStorage": ("bool", "u1"),
             "ComplexFloatStorage": ("complex64", "c8"), "ComplexDoubleStorage": ("complex128", "c16"),
             "QInt8Storage": ("qint8", None), "QUInt8Storage": ("quint8", None), "QInt32Storage": ("qint32", None),
             "QUInt4x2Storage": ("quint4x2", None), "QUInt2x4Storage": ("quint2x4", None)}
STORAGE_OF = {v[0]: k for k, v in _STORAGES.items() if v[1]}


class StorageType:
    """A torch storage class named in a checkpoint (``torch.FloatStorage``)."""

    def __init__(self, name: str, torch_dtype: str, code: str | None):
        self.name, self.torch_dtype, self.code = name, torch_dtype, code
        self.itemsize = int(code[1:]) if code else None

    def __repr__(self) -> str:
        return f"<class 'torch.{self.name}'>"


class LoadedStorage:
    """One ``data/<key>`` record, read and typed; device storages are made from it on first use."""

    def __init__(self, array: np.ndarray, stype: StorageType, key: str, location: str, device):
        self.array, self.stype, self.key, self.location, self.device = array, stype, key, location, device
        self._made: dict = {}

    def numel(self) -> int:
        return self.array.size

    def made(self, dtype, dev):
        """The device storage (its values as ``dtype``) on ``dev``, made once."""
        from .device import backend_for, place
        k = (dtype.name, str(dev))
        if k not in self._made:
            if dtype.name == "float16" and place(dev, dtype).type == "webgpu":
                from .ops.creation import _require_f16
                _require_f16("torch.load")
            arr = self.array
            if dtype.name == "bool":
                arr = arr != 0
            elif arr.dtype != dtype.np:
                arr = arr.astype(dtype.np)
            try:
                self._made[k] = backend_for(place(dev, dtype)).from_numpy(arr, dtype)
            except OverflowError as e:
                raise _Bad("UnsupportedValue", f"storage {self.key!r} ({self.stype.torch_dtype}): {e}") from None
        return self._made[k]


def _torch_dtype(stype: StorageType):
    name = stype.torch_dtype
    if name == "bfloat16":
        return _dtype.bfloat16  # float32 arrays holding the bfloat16 values exactly (device/bf16.py)
    return _dtype._ALL.get(name)


def _int(v, what: str, lo: int = 0) -> int:
    if type(v) is not int or not lo <= v <= _I64:
        raise _Bad("InvalidTensor", f"{what} is {_short(v)}, not an integer from {lo} to 2**63-1")
    return v


def _short(v) -> str:
    r = repr(v)
    return r if len(r) <= 80 else r[:77] + "..."


def _ints(v, what: str) -> tuple:
    if not isinstance(v, tuple) or len(v) > MAX_DIMS:
        raise _Bad("InvalidTensor", f"{what} is {_short(v)}, not a tuple of at most {MAX_DIMS} integers")
    return tuple(_int(x, what) for x in v)


def _tensor(storage, offset, size, stride, dtype=None) -> Tensor:
    if not isinstance(storage, LoadedStorage):
        raise _Bad("InvalidTensor", f"a tensor's storage is {_short(storage)}, not a storage of the file")
    offset = _int(offset, "the storage offset")
    size, stride = _ints(size, "the size"), _ints(stride, "the stride")
    if len(size) != len(stride):
        raise _Bad("InvalidTensor", f"size {list(size)} and stride {list(stride)} differ in length")
    if dtype is None:
        dtype = _torch_dtype(storage.stype)
    if dtype is None:
        raise _Bad("UnsupportedDtype", f"storage {storage.key!r} holds torch.{storage.stype.torch_dtype}, which "
                                       "borch_webgpu has no dtype for")
    numel = math.prod(size)
    if numel > _I64:
        raise _Bad("InvalidTensor", f"size {list(size)} has {numel} elements, past 2**63-1")
    if numel:
        need = offset + 1 + sum((s - 1) * st for s, st in zip(size, stride))
        item = storage.array.itemsize
        if need > storage.numel():
            raise _Bad("InvalidTensor", f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset "
                                        f"{offset}, and itemsize {item} requiring a storage size of {need * item} "
                                        f"are out of bounds for storage of size {storage.numel() * item} "
                                        f"(storage {storage.key!r})")
    st = storage.made(dtype, storage.device)
    from .device import place
    return Tensor._make(st, size, dtype, place(storage.device, dtype), stride, offset)


def _check_hooks(hooks):
    if not isinstance(hooks, (dict, OrderedDict)) or hooks:
        raise _Bad("InvalidTensor", f"backward hooks {_short(hooks)} (a checkpoint's tensors carry an empty "
                                    "OrderedDict there)")


def _grad(t: Tensor, requires_grad) -> Tensor:
    if type(requires_grad) is not bool:
        raise _Bad("InvalidTensor", f"requires_grad is {_short(requires_grad)}, not a bool")
    if requires_grad:
        if not t.dtype.is_floating_point:
            raise _Bad("InvalidTensor", f"a {t.dtype} tensor requires grad; only floating point tensors can")
        t.requires_grad = True
    return t


def rebuild_tensor(storage, storage_offset, size, stride):
    return _tensor(storage, storage_offset, size, stride)


def rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks, metadata=None):
    _check_hooks(backward_hooks)
    if metadata:
        raise _Bad("UnsupportedTensor", f"tensor metadata {_short(metadata)} (conjugate/negative views) is not "
                                        "supported")
    return _grad(_tensor(storage, storage_offset, size, stride), requires_grad)


def rebuild_tensor_v3(storage, storage_offset, size, stride, requires_grad, backward_hooks, dtype, metadata=None):
    if not isinstance(dtype, _dtype.dtype) or not isinstance(storage, LoadedStorage) or storage.array.itemsize != 1:
        raise _Bad("InvalidTensor", f"_rebuild_tensor_v3 got storage {_short(storage)} and dtype {_short(dtype)}")
    code = STORAGE_OF[dtype.name]
    raw = storage.array
    if raw.size % dtype.itemsize:
        raise _Bad("InvalidTensor", f"storage {storage.key!r} has {raw.size} bytes, not a whole number of "
                                    f"{dtype} elements")
    typed = LoadedStorage(raw.view(raw.dtype.byteorder.replace("|", "<") + _STORAGES[code][1]),
                          StorageType(code, dtype.name, _STORAGES[code][1]), storage.key, storage.location,
                          storage.device)
    return rebuild_tensor_v2(typed, storage_offset, size, stride, requires_grad, backward_hooks, metadata)


def rebuild_parameter(data, requires_grad, backward_hooks):
    from .nn.parameter import Parameter
    if not isinstance(data, Tensor) or type(requires_grad) is not bool:
        raise _Bad("InvalidTensor", f"_rebuild_parameter got {_short(data)}, {_short(requires_grad)}")
    _check_hooks(backward_hooks)
    if requires_grad and not data.dtype.is_floating_point:
        raise _Bad("InvalidTensor", f"a {data.dtype} parameter requires grad; only floating point tensors can")
    return Parameter(data, requires_grad)


def rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    p = rebuild_parameter(data, requires_grad, backward_hooks)
    _set_state(p, state)
    return p


def _set_state(obj, state):
    if isinstance(state, tuple) and len(state) == 2:
        d, slots = state
        state = {**(d or {}), **(slots or {})}
    if not isinstance(state, dict):
        raise _Bad("InvalidTensor", f"a tensor's Python state is {_short(state)}, not a dict")
    for k, v in state.items():
        if type(k) is not str or k.startswith("__") or hasattr(type(obj), k):
            raise _Bad("InvalidTensor", f"a tensor's Python state sets {_short(k)}, which would replace an "
                                        "attribute of the tensor class")
        setattr(obj, k, v)


def rebuild_from_type_v2(func, new_type, args, state):
    from .nn.parameter import Parameter
    if func not in _REBUILDS or not isinstance(args, tuple):
        raise _Bad("InvalidTensor", f"_rebuild_from_type_v2 got {_short(func)} and {_short(args)}")
    t = func(*args)
    if new_type is Parameter and not isinstance(t, Parameter):
        t = Parameter(t, t.requires_grad)
    elif new_type not in (Tensor, Parameter):
        raise _Bad("UnsupportedTensor", f"a tensor subclass {_short(new_type)} is not supported")
    if state:
        if type(t) is Tensor:
            raise _Bad("UnsupportedTensor", f"a tensor with Python attributes {sorted(map(str, state))[:5]}: "
                                            "borch_webgpu tensors hold none")
        _set_state(t, state)
    return t


def _unsupported(what: str):
    def refuse(*args):
        raise _Bad("UnsupportedTensor", f"{what} are not supported by borch_webgpu")
    refuse.__name__ = what
    return refuse


def _encode(obj, encoding="utf-8", errors="strict"):
    if type(obj) is not str or encoding not in ("latin1", "latin-1", "utf-8", "utf8", "ascii"):
        raise _Bad("InvalidValue", f"_codecs.encode({_short(obj)}, {_short(encoding)}): bytes are pickled as "
                                   "encode(str, 'latin1')")
    return obj.encode(encoding, errors if errors in ("strict", "surrogatepass") else "strict")


def _bytearray(*args):
    if args and (len(args) > 1 or not isinstance(args[0], (bytes, bytearray))):
        raise _Bad("InvalidValue", f"bytearray{_short(args)}: only bytearray(bytes) is read")
    return bytearray(*args)


def _container(cls):
    def make(*args):
        if len(args) > 1 or (args and not isinstance(args[0], (list, tuple, dict, set, frozenset))):
            raise _Bad("InvalidValue", f"{cls.__name__}{_short(args)}: expected one list, tuple, dict or set")
        try:
            return cls(*args)
        except (TypeError, ValueError) as e:
            raise _Bad("InvalidValue", f"{cls.__name__}(...): {e}") from None
    return make


def _complex(*args):
    if len(args) > 2 or not all(type(a) in (int, float) for a in args):
        raise _Bad("InvalidValue", f"complex{_short(args)}")
    return complex(*args)


def _size(*args):
    if len(args) != 1 or not isinstance(args[0], (tuple, list)) or not all(type(x) is int for x in args[0]):
        raise _Bad("InvalidValue", f"torch.Size{_short(args)}")
    return Size(args[0])


def _device(*args):
    from .device import device
    try:
        return device(*args)
    except (RuntimeError, TypeError, ValueError) as e:
        raise _Bad("InvalidValue", f"torch.device{_short(args)}: {e}") from None


def _get_layout(name):
    if name != "torch.strided":
        raise _Bad("UnsupportedTensor", f"layout {_short(name)}: only torch.strided tensors exist here")
    return name


class _NoDtype:
    def __init__(self, name):
        self.name = name


_REBUILDS = {rebuild_tensor, rebuild_tensor_v2, rebuild_tensor_v3, rebuild_parameter, rebuild_parameter_with_state}


def _allowed() -> dict:
    from .nn.parameter import Parameter
    rc = {"collections.OrderedDict": _container(OrderedDict), "collections.Counter": _container(Counter),
          "torch.nn.parameter.Parameter": Parameter, "torch.serialization._get_layout": _get_layout,
          "torch.Size": _size, "torch.Tensor": Tensor, "torch.device": _device, "_codecs.encode": _encode,
          "builtins.bytearray": _bytearray, "builtins.set": _container(set), "builtins.complex": _complex,
          "torch._utils._rebuild_tensor": rebuild_tensor, "torch._utils._rebuild_tensor_v2": rebuild_tensor_v2,
          "torch._utils._rebuild_tensor_v3": rebuild_tensor_v3,
          "torch._utils._rebuild_parameter": rebuild_parameter,
          "torch._utils._rebuild_parameter_with_state": rebuild_parameter_with_state,
          "torch._tensor._rebuild_from_type_v2": rebuild_from_type_v2}
    for f in ("qtensor", "sparse_tensor", "meta_tensor_no_storage", "nested_tensor", "wrapper_subclass",
              "device_tensor_from_numpy", "device_tensor_from_cpu_tensor"):
        rc[f"torch._utils._rebuild_{f}"] = _unsupported(f"{f.replace('_', ' ')}s (torch._utils._rebuild_{f})")
    for name, (tdt, code) in _STORAGES.items():
        st = StorageType(name, tdt, code)
        rc[f"torch.{name}"] = rc[f"torch.cuda.{name}"] = st
    rc["torch.storage.UntypedStorage"] = StorageType("UntypedStorage", "uint8", "u1")
    rc["torch.storage.TypedStorage"] = _unsupported("typed storages named torch.storage.TypedStorage")
    for name in ("float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8", "bool",
                 "complex32", "complex64", "complex128", "bits16", "bits1x8", "bits2x4", "bits4x2", "bits8",
                 "float4_e2m1fn_x2", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz",
                 "float8_e8m0fnu", "qint32", "qint8", "quint2x4", "quint4x2", "quint8",
                 *(f"uint{i}" for i in (1, 2, 3, 4, 5, 6, 7, 16, 32, 64)), *(f"int{i}" for i in range(1, 8))):
        rc[f"torch.{name}"] = _dtype._ALL.get(name) or _NoDtype(name)
    for t in ("Float", "Double", "Half", "BFloat16", "Long", "Int", "Short", "Char", "Byte", "Bool"):
        for mod in ("torch", "torch.cuda") + (("torch.sparse", "torch.cuda.sparse") if t != "Bool" else ()):
            rc[f"{mod}.{t}Tensor"] = _unsupported(f"legacy tensor classes ({mod}.{t}Tensor)")
    for q in ("per_tensor_affine", "per_tensor_symmetric", "per_channel_affine", "per_channel_symmetric",
              "per_channel_affine_float_qparams"):
        rc[f"torch.{q}"] = _unsupported(f"quantization schemes (torch.{q})")
    return rc


_ALLOWED: dict | None = None
SAFE_GLOBALS: set = set()  # torch.serialization.add_safe_globals


def allowed() -> dict:
    global _ALLOWED
    if _ALLOWED is None:
        _ALLOWED = _allowed()
    return _ALLOWED


def user_allowed() -> dict:
    rc = {}
    for f in SAFE_GLOBALS:
        if isinstance(f, tuple):
            if len(f) != 2:
                raise ValueError(f"Expected tuple of length 2 (global, str of callable full path), but got tuple "
                                 f"of length: {len(f)}")
            if type(f[1]) is not str:
                raise TypeError(f"Expected second item in tuple to be str of callable full path, but got: "
                                f"{type(f[1])}")
            rc[f[1]] = f[0]
        else:
            rc[f"{f.__module__}.{f.__qualname__}"] = f
    return rc


def global_name(module: str, name: str) -> str:
    if (module, name) in _compat_pickle.NAME_MAPPING:
        module, name = _compat_pickle.NAME_MAPPING[(module, name)]
    elif module in _compat_pickle.IMPORT_MAPPING:
        module = _compat_pickle.IMPORT_MAPPING[module]
    return f"{module}.{name}"


def resolve_global(full: str, user: dict):
    """What GLOBAL ``full`` names for the weights-only unpickler, or PyTorch's refusal."""
    module = full.rsplit(".", 1)[0]
    if module in BLOCKED_MODULES:
        raise pickle.UnpicklingError(f"Trying to load unsupported GLOBAL {full} whose module {module} is blocked.")
    if full in allowed():
        obj = allowed()[full]
        if isinstance(obj, _NoDtype):
            raise _Bad("UnsupportedDtype", f"torch.{obj.name} is not a borch_webgpu dtype")
        return obj
    if full in user:
        return user[full]
    shown = full
    if shown.startswith("builtins"):
        shown = shown[len("builtins"):]
        shown = shown[1:] if shown.startswith(".") else "builtins" + shown
    raise pickle.UnpicklingError(
        f"Unsupported global: GLOBAL {shown} was not an allowed global by default. "
        f"Please use `torch.serialization.add_safe_globals([{shown}])` or the "
        f"`torch.serialization.safe_globals([{shown}])` context manager to allowlist this global "
        "if you trust this class/function.")
