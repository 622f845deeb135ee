"""``torch.jit.save`` / ``torch.jit.load`` for what this package traces: a zip of our own layout.

PyTorch's jit archive holds TorchScript code, which nothing here can run, so we do not imitate it.
Ours (``borch_webgpu_jit/`` inside the zip):

- ``format``: the marker ``borch_webgpu.jit archive 1``;
- ``code.py``: the fx-generated ``forward`` (checked before it runs: one function, plain statements,
  no imports, no double-underscore attributes, names limited to its locals and fx's globals);
- ``module.pkl``: the module tree without tensors, read back by an unpickler that builds only
  borch_webgpu's own ``nn`` classes and plain containers (a user-defined module becomes a plain
  ``nn.Module`` holding the same children: the graph never calls it, fx traced through it);
- ``tensors.pt``: every parameter, buffer and constant, written by ``torch.save``;
- ``extra/<name>``: ``_extra_files``.

``torch.jit.load`` of a TorchScript file written by PyTorch raises a ``RuntimeError`` that says what the
file is and what to do instead.
"""
from __future__ import annotations

import ast
import builtins
import io
import math
import os
import pickle
import sys
import zipfile
from collections import OrderedDict

from ..nn import Module, Parameter
from ..tensor import Tensor

__all__ = ["save_module", "load_module", "MARKER"]

MARKER = b"borch_webgpu.jit archive 1\n"
_DIR = "borch_webgpu_jit/"
_HOOKS = ("_forward_hooks", "_forward_hooks_with_kwargs", "_forward_hooks_always_called", "_forward_pre_hooks",
          "_forward_pre_hooks_with_kwargs", "_state_dict_hooks", "_state_dict_pre_hooks",
          "_load_state_dict_pre_hooks", "_load_state_dict_post_hooks", "_backward_hooks", "_backward_pre_hooks")
_PLAIN = (int, float, bool, str, type(None), complex, bytes)


class _Module(Module):
    """A user-defined module inside a saved archive: its children, tensors and plain attributes."""

    def _get_name(self) -> str:
        return self.__dict__.get("_jit_class_name", "Module")


def _own_class(m: Module) -> bool:
    mod = type(m).__module__
    return mod.startswith("borch_webgpu.nn") or mod.startswith("borch_webgpu.ao.nn")


def _plain(v) -> bool:
    if isinstance(v, _PLAIN):
        return True
    if isinstance(v, (tuple, list)):
        return all(_plain(x) for x in v)
    return False


def _skeleton(m: Module, extra: dict | None = None) -> Module:
    own = _own_class(m)
    cls = type(m) if own else _Module
    new = cls.__new__(cls)
    d = {}
    for k, v in m.__dict__.items():
        if k.startswith("_jit_") or k in _HOOKS:
            continue
        if k == "_modules":
            d[k] = OrderedDict((n, None if c is None else _skeleton(c)) for n, c in v.items())
        elif k in ("_parameters", "_buffers", "_non_persistent_buffers_set", "training") or own or \
                isinstance(v, Tensor) or _plain(v):
            d[k] = v
    for k in _HOOKS:
        if k in m.__dict__:
            d[k] = OrderedDict()
    if not own:
        d["_jit_class_name"] = type(m).__name__
    d.update(extra or {})
    new.__dict__.update(d)
    return new


class _Pickler(pickle.Pickler):
    def __init__(self, f, tensors: dict) -> None:
        super().__init__(f, protocol=4)
        self.tensors = tensors
        self.keys: dict[int, str] = {}

    def persistent_id(self, obj):
        if isinstance(obj, Tensor):
            key = self.keys.setdefault(id(obj), str(len(self.keys)))
            self.tensors[key] = obj.detach()
            return ("tensor", key, isinstance(obj, Parameter), bool(obj.requires_grad))
        return None


_ALLOWED = {("collections", "OrderedDict"), ("builtins", "set"), ("builtins", "frozenset"), ("builtins", "slice")}


class _Unpickler(pickle.Unpickler):
    def __init__(self, f, tensors: dict) -> None:
        super().__init__(f)
        self.tensors = tensors

    def find_class(self, module: str, name: str):
        if (module, name) in _ALLOWED:
            return super().find_class(module, name)
        if module.startswith("borch_webgpu."):
            obj = super().find_class(module, name)
            if isinstance(obj, type) and issubclass(obj, Module):
                return obj
        raise pickle.UnpicklingError(f"torch.jit.load: the archive's module tree names {module}.{name}, which is "
                                     "not a borch_webgpu nn class; refusing to build it")

    def persistent_load(self, pid):
        if not (isinstance(pid, tuple) and len(pid) == 4 and pid[0] == "tensor" and pid[1] in self.tensors):
            raise pickle.UnpicklingError(f"torch.jit.load: bad tensor reference {pid!r}")
        t = self.tensors[pid[1]]
        if pid[2]:
            return Parameter(t, requires_grad=pid[3])
        return t.requires_grad_(pid[3]) if pid[3] else t


_GLOBALS = {"torch", "inf", "nan", "NoneType", "device", "getattr"}
_NODES = (ast.Module, ast.FunctionDef, ast.arguments, ast.arg, ast.Assign, ast.Return, ast.Expr, ast.Name,
          ast.Load, ast.Store, ast.Del, ast.Attribute, ast.Call, ast.keyword, ast.Constant, ast.Subscript, ast.Slice,
          ast.Tuple, ast.List, ast.Dict, ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.operator,
          ast.unaryop, ast.cmpop, ast.boolop, ast.Starred)


def _check_code(src: str) -> None:
    """The saved ``forward`` must look like fx's output before we run it."""
    tree = ast.parse(src)
    funcs = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    if len(tree.body) != 1 or len(funcs) != 1 or funcs[0].name != "forward":
        raise RuntimeError("torch.jit.load: the archive's code.py is not one fx-generated forward function")
    args = funcs[0].args
    local = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
    local |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            local.add(n.id)
    for n in ast.walk(tree):
        bad = None
        if not isinstance(n, _NODES):
            bad = type(n).__name__
        elif isinstance(n, ast.Attribute) and n.attr.startswith("__"):
            bad = f"attribute {n.attr}"
        elif isinstance(n, ast.Name) and n.id not in local and n.id not in _GLOBALS:
            bad = f"name {n.id}"
        elif isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value.startswith("__"):
            bad = f"string {n.value!r}"
        elif isinstance(n, ast.FunctionDef) and (n.decorator_list or n is not funcs[0]):
            bad = "a nested or decorated function"
        if bad:
            raise RuntimeError(f"torch.jit.load: the archive's code.py holds {bad}, which fx never generates; "
                               "refusing to run it")


def _globals() -> dict:
    from ..device import device
    # the package namespace the code calls as ``torch`` (fx's codegen finds it the same way: importing
    # the package from below would be a cycle)
    return {"torch": sys.modules["borch_webgpu"], "inf": math.inf, "nan": math.nan, "NoneType": type(None), "device": device,
            "getattr": getattr, "__builtins__": builtins}


def save_module(m: Module, gm, consts: dict, f, _extra_files: dict | None = None) -> None:
    """Write module ``m`` (whose forward is ``gm``'s code) to ``f``."""
    from ..serialization import save
    pc = gm.graph.python_code(root_module="self")
    std = _globals()
    for k, v in pc.globals.items():
        if k != "__builtins__" and not (k in std and (std[k] is v or k in ("inf", "nan"))):
            raise RuntimeError(f"torch.jit.save: the graph calls {k} ({v!r}), which a saved archive cannot name; "
                               "save the module's state_dict() instead")
    _check_code(pc.src)
    tensors: dict = {}
    buf = io.BytesIO()
    extra = dict(consts)
    extra["_jit_saved_name"] = getattr(m, "original_name", type(m).__name__)
    if m.__dict__.get("_jit_frozen_paths"):   # a traced module's training flags, frozen as PyTorch's trace does
        extra["_jit_frozen_paths"] = dict(m.__dict__["_jit_frozen_paths"])
    _Pickler(buf, tensors).dump(_skeleton(m, extra))
    tbuf = io.BytesIO()
    save(tensors, tbuf)
    try:   # what load will refuse, refuse now
        _Unpickler(io.BytesIO(buf.getvalue()), tensors).load()
    except pickle.UnpicklingError as err:
        raise RuntimeError(f"torch.jit.save: {err}; save the module's state_dict() instead") from err
    own = isinstance(f, (str, os.PathLike))
    fh = open(f, "wb") if own else f
    try:
        with zipfile.ZipFile(fh, "w", zipfile.ZIP_STORED) as z:
            z.writestr(_DIR + "format", MARKER)
            z.writestr(_DIR + "code.py", pc.src)
            z.writestr(_DIR + "module.pkl", buf.getvalue())
            z.writestr(_DIR + "tensors.pt", tbuf.getvalue())
            for name, data in (_extra_files or {}).items():
                z.writestr(_DIR + "extra/" + name, data if isinstance(data, bytes) else str(data).encode())
    finally:
        if own:
            fh.close()


def _what_is(names: list[str], f) -> str | None:
    if any(n.endswith("constants.pkl") or "/code/__torch__" in n for n in names):
        return (f"torch.jit.load: {f!r} is a TorchScript archive written by PyTorch's torch.jit.save; borch_webgpu "
                "cannot run TorchScript code. In PyTorch, save the weights instead (torch.save(model.state_dict(), "
                "path)), build the model from its Python class here and load them with "
                "model.load_state_dict(torch.load(path))")
    if any(n.endswith("data.pkl") for n in names):
        return (f"torch.jit.load: {f!r} is a torch.save checkpoint, not a jit archive; read it with torch.load "
                "(and model.load_state_dict for a state dict)")
    return None


def load_module(f, code_module_class, map_location=None, _extra_files: dict | None = None):
    """Read what :func:`save_module` wrote; ``code_module_class(forward)`` makes the module's class."""
    from ..serialization import load
    name = f if isinstance(f, (str, os.PathLike)) else getattr(f, "name", "<file>")
    data = open(f, "rb").read() if isinstance(f, (str, os.PathLike)) else (f if isinstance(f, bytes) else f.read())
    try:
        z = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as err:
        raise RuntimeError(f"torch.jit.load: {name!r} is not a zip archive, so neither a borch_webgpu jit archive "
                           "nor a TorchScript file") from err
    names = z.namelist()
    if _DIR + "format" not in names:
        msg = _what_is(names, name)
        raise RuntimeError(msg or f"torch.jit.load: {name!r} is a zip archive without {_DIR}format: not written by "
                                  "torch.jit.save here")
    if z.read(_DIR + "format") != MARKER:
        raise RuntimeError(f"torch.jit.load: {name!r} has an unknown jit archive format "
                           f"{z.read(_DIR + 'format')[:40]!r}")
    src = z.read(_DIR + "code.py").decode()
    _check_code(src)
    tensors = load(io.BytesIO(z.read(_DIR + "tensors.pt")), map_location=map_location, weights_only=True)
    tree = _Unpickler(io.BytesIO(z.read(_DIR + "module.pkl")), tensors).load()
    g = _globals()
    exec(compile(src, f"<jit archive {name}>", "exec"), g)
    cls = code_module_class(g["forward"])
    obj = cls.__new__(cls)
    obj.__dict__.update(tree.__dict__)
    object.__setattr__(obj, "_jit_original_name", obj.__dict__.pop("_jit_saved_name", "Module"))
    object.__setattr__(obj, "_jit_code", src)
    if _extra_files is not None:
        for k in list(_extra_files):
            if _DIR + "extra/" + k in names:
                _extra_files[k] = z.read(_DIR + "extra/" + k)
    return obj
