"""Reading a PyTorch checkpoint: the archive, its storages, and the weights-only unpickler's loop
(``torch/_weights_only_unpickler.py``'s ``Unpickler.load``, opcode for opcode, with the checks listed in
borch_webgpu/_ptpickle.py)."""
from __future__ import annotations

import math
import pickle
import struct
import warnings
from collections import Counter, OrderedDict

import numpy as np

from . import _ptpickle as P
from ._ptpickle import _Bad
from ._ptzip import CheckpointError, read_archive

__all__ = ["load_archive", "depth_of", "full_unpickler"]

_ONE = {pickle.NONE[0]: None, pickle.NEWTRUE[0]: True, pickle.NEWFALSE[0]: False}
_FIXED = {pickle.BININT[0]: (4, "<i"), pickle.BININT2[0]: (2, "<H"), pickle.BINFLOAT[0]: (8, ">d"),
          pickle.BININT1[0]: (1, "<B")}


class _Malformed(Exception):
    pass


class WeightsUnpickler:
    """torch's weights-only unpickler over ``data``, with storages from ``persistent_load``."""

    def __init__(self, data: bytes, persistent_load, weights_only: bool = True):
        self.data, self.pos, self.persistent_load = data, 0, persistent_load
        self.user = P.user_allowed()
        self.weights_only = weights_only

    def _read(self, n: int) -> bytes:
        b = self.data[self.pos:self.pos + n]
        if len(b) < n:
            raise _Malformed(f"the pickle ends inside an opcode ({n} bytes wanted at byte {self.pos}, "
                             f"{len(b)} left)")
        self.pos += n
        return b

    def _line(self) -> str:
        end = self.data.find(b"\n", self.pos, self.pos + 1024)
        if end < 0:
            raise _Malformed(f"a GLOBAL at byte {self.pos} has no newline within 1024 bytes")
        s = self.data[self.pos:end]
        self.pos = end + 1
        try:
            return s.decode("utf-8")
        except UnicodeDecodeError:
            raise _Malformed(f"a GLOBAL name at byte {self.pos} is not UTF-8") from None

    def load(self):
        stack: list = []
        metastack: list = []
        memo: dict = {}
        items = 0
        known = set(map(id, P.allowed().values())) | set(map(id, self.user.values()))
        from .nn.parameter import Parameter
        from .tensor import Tensor
        while True:
            at = self.pos
            if at >= len(self.data):
                raise _Malformed(f"the pickle ends at byte {at} without a STOP opcode")
            key = self.data[at]
            self.pos += 1
            items += 1
            if items > P.MAX_PICKLE_ITEMS:
                raise _Malformed(f"the pickle runs past {P.MAX_PICKLE_ITEMS} opcodes (the limit)")
            self.at = at
            try:
                if key in _ONE:
                    stack.append(_ONE[key])
                elif key in _FIXED:
                    n, fmt = _FIXED[key]
                    stack.append(struct.unpack(fmt, self._read(n))[0])
                elif key == pickle.BINUNICODE[0]:
                    n = struct.unpack("<I", self._read(4))[0]
                    stack.append(str(self._read(n), "utf-8", "surrogatepass"))
                elif key == pickle.SHORT_BINSTRING[0]:  # torch.load decodes these as UTF-8
                    stack.append(self._read(self._read(1)[0]).decode("utf-8"))
                elif key == pickle.LONG1[0]:
                    stack.append(pickle.decode_long(self._read(self._read(1)[0])))
                elif key == pickle.GLOBAL[0]:
                    module = self._line()
                    name = self._line()
                    stack.append(P.resolve_global(P.global_name(module, name), self.user))
                elif key == pickle.REDUCE[0]:
                    args = stack.pop()
                    func = stack[-1]
                    if id(func) not in known or isinstance(func, P.StorageType):
                        msg = f"Trying to call reduce for unrecognized function {func!r}"
                        raise pickle.UnpicklingError(msg)
                    if not isinstance(args, tuple):
                        raise _Malformed(f"REDUCE of {func!r} got {P._short(args)}, not an argument tuple")
                    try:
                        stack[-1] = func(*args)
                    except (_Bad, CheckpointError, pickle.UnpicklingError):
                        raise
                    except Exception as e:  # a user-allowlisted global, or wrong arity
                        raise _Malformed(f"calling {getattr(func, '__name__', func)!r} failed: "
                                         f"{type(e).__name__}: {e}") from None
                elif key == pickle.NEWOBJ[0]:
                    args = stack.pop()
                    cls = stack.pop()
                    if not isinstance(args, tuple):
                        raise _Malformed(f"NEWOBJ got {P._short(args)}, not an argument tuple")
                    if cls is Parameter:
                        stack.append(Parameter(*args))
                    elif id(cls) in known and isinstance(cls, type) and cls is not Tensor:
                        stack.append(cls.__new__(cls, *args))
                    else:
                        raise pickle.UnpicklingError("Can only create new object for nn.Parameter or classes "
                                                     f"allowlisted via `add_safe_globals` but got {cls}")
                elif key == pickle.BUILD[0]:
                    state = stack.pop()
                    inst = stack[-1]
                    if type(inst) is OrderedDict:
                        if not isinstance(state, dict) or not all(type(k) is str for k in state):
                            raise _Malformed(f"BUILD of an OrderedDict got state {P._short(state)}")
                        inst.__dict__.update(state)
                    elif type(inst) is Parameter:
                        P._set_state(inst, state)
                    elif id(type(inst)) in known:
                        if hasattr(inst, "__setstate__"):
                            inst.__setstate__(state)
                        else:
                            inst.__dict__.update(state)
                    else:
                        raise pickle.UnpicklingError("Can only build Tensor, Parameter, OrderedDict or types "
                                                     f"allowlisted via `add_safe_globals`, but got {type(inst)}")
                elif key == pickle.APPEND[0]:
                    item = stack.pop()
                    if type(stack[-1]) is not list:
                        raise pickle.UnpicklingError(f"Can only append to lists, but got {type(stack[-1])}")
                    stack[-1].append(item)
                elif key == pickle.APPENDS[0]:
                    got = stack
                    stack = metastack.pop()
                    if type(stack[-1]) is not list:
                        raise pickle.UnpicklingError(f"Can only extend lists, but got {type(stack[-1])}")
                    stack[-1].extend(got)
                elif key in (pickle.SETITEM[0], pickle.SETITEMS[0]):
                    if key == pickle.SETITEM[0]:
                        v = stack.pop()
                        got = [stack.pop(), v]
                    else:
                        got = stack
                        stack = metastack.pop()
                        if len(got) % 2:
                            raise _Malformed(f"SETITEMS got {len(got)} values, not key-value pairs")
                    target = stack[-1]
                    if type(target) not in (dict, OrderedDict, Counter):
                        op = "SETITEM" if key == pickle.SETITEM[0] else "SETITEMS"
                        raise pickle.UnpicklingError(f"Can only {op} for dict, collections.OrderedDict, "
                                                     f"collections.Counter, but got {type(target)}")
                    for i in range(0, len(got), 2):
                        target[got[i]] = got[i + 1]
                elif key == pickle.MARK[0]:
                    if len(metastack) >= P.MAX_PICKLE_DEPTH:
                        raise _Malformed(f"MARKs nest past {P.MAX_PICKLE_DEPTH} (the depth limit)")
                    metastack.append(stack)
                    stack = []
                elif key == pickle.TUPLE[0]:
                    got = stack
                    stack = metastack.pop()
                    stack.append(tuple(got))
                elif key == pickle.TUPLE1[0]:
                    stack[-1] = (stack[-1],)
                elif key == pickle.TUPLE2[0]:
                    if len(stack) < 2:
                        raise IndexError
                    stack[-2:] = [(stack[-2], stack[-1])]
                elif key == pickle.TUPLE3[0]:
                    if len(stack) < 3:
                        raise IndexError
                    stack[-3:] = [(stack[-3], stack[-2], stack[-1])]
                elif key == pickle.EMPTY_TUPLE[0]:
                    stack.append(())
                elif key == pickle.EMPTY_LIST[0]:
                    stack.append([])
                elif key == pickle.EMPTY_DICT[0]:
                    stack.append({})
                elif key == pickle.EMPTY_SET[0]:
                    stack.append(set())
                elif key == pickle.BINPERSID[0]:
                    pid = stack.pop()
                    if type(pid) is not tuple and type(pid) is not int:
                        raise pickle.UnpicklingError(f"persistent_load id must be tuple or int, but got "
                                                     f"{type(pid)}")
                    if type(pid) is tuple and len(pid) > 0 and _ascii(pid[0]) != "storage":
                        raise pickle.UnpicklingError(f"Only persistent_load of storage is allowed, but got "
                                                     f"{type(pid[0])}")
                    stack.append(self.persistent_load(pid))
                elif key in (pickle.BINGET[0], pickle.LONG_BINGET[0]):
                    i = self._read(1)[0] if key == pickle.BINGET[0] else struct.unpack("<I", self._read(4))[0]
                    if i not in memo:
                        raise _Malformed(f"memo entry {i} is read before it is written")
                    stack.append(memo[i])
                elif key in (pickle.BINPUT[0], pickle.LONG_BINPUT[0]):
                    i = self._read(1)[0] if key == pickle.BINPUT[0] else struct.unpack("<I", self._read(4))[0]
                    memo[i] = stack[-1]
                elif key == pickle.PROTO[0]:
                    proto = self._read(1)[0]
                    if proto != 2:
                        warnings.warn(f"Detected pickle protocol {proto} in the checkpoint, which was not the "
                                      "default pickle protocol used by `torch.load` (2). The weights_only "
                                      "Unpickler might not support all instructions implemented by this "
                                      "protocol, please file an issue for adding support if you encounter this.",
                                      stacklevel=4)
                elif key == pickle.STOP[0]:
                    if not stack:
                        raise IndexError
                    return stack.pop()
                else:
                    raise pickle.UnpicklingError(f"Unsupported operand {key}")
            except IndexError:
                raise _Malformed(f"opcode {bytes([key])!r} at byte {at} pops more values than the stack holds") \
                    from None
            except UnicodeDecodeError as e:
                raise _Malformed(f"a string at byte {at} is not UTF-8 ({e.reason} at its byte {e.start})") from None
            except TypeError as e:  # unhashable keys, set items (a map_location's own TypeError passes)
                if key == pickle.BINPERSID[0]:
                    raise
                raise _Malformed(f"opcode {bytes([key])!r} at byte {at}: {e}") from None


def _ascii(v):
    return v.decode("ascii") if isinstance(v, bytes) else v


def depth_of(obj, limit: int = P.MAX_PICKLE_DEPTH):
    """How deep containers (list, tuple, dict, set) nest in obj: ``math.inf`` for one that contains itself,
    and any number past ``limit`` once one is found (iterative: the walk cannot overflow a stack)."""
    depth: dict = {}
    active: set = set()
    todo = [(obj, False)]
    while todo:
        o, done = todo.pop()
        if type(o) not in (list, tuple, dict, OrderedDict, Counter, set, frozenset):
            continue
        i = id(o)
        kids = [x for kv in o.items() for x in kv] if isinstance(o, dict) else list(o)
        if done:
            active.discard(i)
            depth[i] = 1 + max((depth.get(id(k), 0) for k in kids), default=0)
            if depth[i] > limit:
                return depth[i]
            continue
        if i in depth:
            continue
        if i in active:
            return math.inf
        active.add(i)
        todo.append((o, True))
        todo.extend((k, False) for k in kids)
    return depth.get(id(obj), 0)


def load_archive(data: bytes, file: str, device_for, weights_only: bool = True, unpickler=None):
    """The object in checkpoint ``data``; ``device_for(location, numel, stype)`` places each storage."""
    zf = read_archive(data, file)
    if zf.has("constants.pkl"):
        raise CheckpointError("TorchScript", file, "this is a TorchScript archive (torch.jit.save), which "
                                                   "borch_webgpu cannot run; save the model's state_dict() instead")
    if not zf.has("version") and not zf.has(".data/version"):
        raise CheckpointError("MissingRecord", file, f"the archive has no {zf.prefix}version record")
    raw = zf.read("version" if zf.has("version") else ".data/version", 64, "the version record")
    try:
        version = int(raw.decode("ascii").strip())
    except ValueError:
        version = None
    if version is None or not 1 <= version <= 10:
        raise CheckpointError("UnsupportedVersion", file, f"the archive's version record is {raw[:20]!r}; PyTorch "
                                                          "reads versions 1 to 10")
    order = "<"
    if zf.has("byteorder"):
        b = zf.read("byteorder", 16, "the byteorder record")
        if b not in (b"little", b"big"):
            raise CheckpointError("InvalidRecord", file, f"Unknown endianness type: {b[:20]!r}")
        order = "<" if b == b"little" else ">"
    storages: dict = {}

    def persistent_load(pid):
        if not isinstance(pid, tuple) or len(pid) != 5:
            raise _Malformed(f"a persistent id {P._short(pid)} is not ('storage', type, key, location, numel)")
        _, stype, key, location, numel = pid
        key, location = _ascii(key), _ascii(location)
        if not isinstance(stype, P.StorageType) or type(key) is not str or type(location) is not str:
            raise _Malformed(f"a persistent id {P._short(pid)} is not ('storage', type, key, location, numel)")
        if type(numel) is not int or numel < 0:
            raise _Malformed(f"storage {key!r} has {P._short(numel)} elements")
        if key in storages:
            s = storages[key]
            if s.stype.name != stype.name or s.numel() != numel:
                raise CheckpointError("InvalidStorage", file, f"storage {key!r} is named as {s.numel()} x "
                                      f"{s.stype.name} and as {numel} x {stype.name}")
            return s
        if stype.code is None:
            raise _Bad("UnsupportedDtype", f"storage {key!r} is a {stype.name} (torch.{stype.torch_dtype}), which "
                                           "borch_webgpu has no dtype for")
        name = f"data/{key}"
        nbytes = numel * stype.itemsize
        if zf.has(name) and zf.size(name) != nbytes:
            raise CheckpointError("InvalidStorage", file, f"record size ({zf.size(name)} bytes) does not match "
                                  f"expected size ({nbytes} bytes = {numel} elements * {stype.itemsize} "
                                  f"bytes/element) for {zf.prefix + name!r}")
        arr = np.frombuffer(zf.read(name), dtype=order + stype.code)
        if stype.torch_dtype == "bfloat16":
            arr = (arr.astype(np.uint32) << 16).view(np.float32)
        elif order == ">":
            arr = arr.astype(arr.dtype.newbyteorder("="))
        s = P.LoadedStorage(arr, stype, key, location, None)
        s.device = device_for(location, s)
        storages[key] = s
        return s

    pkl = zf.read("data.pkl", P.MAX_PICKLE_BYTES, "data.pkl")
    where = f"{zf.prefix}data.pkl"
    u = (unpickler or WeightsUnpickler)(pkl, persistent_load, weights_only)
    try:
        result = u.load()
    except _Malformed as e:
        raise CheckpointError("InvalidPickle", file, f"{where}: {e}") from None
    except _Bad as e:
        raise CheckpointError(e.kind, file, f"{where} at byte {u.at}: {e}") from None
    depth = depth_of(result)
    if depth > P.MAX_PICKLE_DEPTH:
        raise CheckpointError("TooDeep", file, f"{where} holds a container that contains itself" if depth == math.inf
                              else f"{where} nests containers {depth} deep; the limit is {P.MAX_PICKLE_DEPTH}")
    return result


def full_unpickler(data: bytes, persistent_load, weights_only: bool = False):
    """``weights_only=False``: Python's own unpickler (any class it names is imported and may run code);
    PyTorch's names map to borch_webgpu's."""
    import io

    class U(pickle.Unpickler):
        def find_class(self, module, name):
            full = P.global_name(module, name)
            if full in P.allowed():
                return P.resolve_global(full, {})
            if module == "torch" or module.startswith("torch."):
                import importlib
                try:
                    return getattr(importlib.import_module("borch_webgpu" + module[5:]), name)
                except (ImportError, AttributeError):
                    raise pickle.UnpicklingError(f"{full}: borch_webgpu has no counterpart of this PyTorch name") \
                        from None
            return super().find_class(module, name)

    class Wrap:
        at = 0

        def __init__(self):
            self.u = U(io.BytesIO(data), encoding="utf-8")
            self.u.persistent_load = persistent_load

        def load(self):
            return self.u.load()

    w = Wrap()
    return w

