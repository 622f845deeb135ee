"""Python source for a Graph, written the way PyTorch 2.13's ``CodeGen._gen_python_code`` writes it:
one statement per node, values set to None after their last use, ``operator`` calls as infix
expressions, torch's own functions by their ``torch.*`` names (``torch`` is this package in the
generated code's globals)."""
from __future__ import annotations

import builtins
import keyword
import math
import re
import sys
import types
import typing
from dataclasses import dataclass
from typing import Any

from ._names import public_name, qualified_name
from .node import Node, _type_repr

__all__ = ["PythonCode", "Namespace", "gen_python_code", "snake_case", "magic_methods", "reflectable_magic_methods"]

_ORIGIN_TYPE_MAP = {list: typing.List, dict: typing.Dict, set: typing.Set, frozenset: typing.FrozenSet,
                    tuple: typing.Tuple}

reflectable_magic_methods = {
    "add": "{} + {}", "sub": "{} - {}", "mul": "{} * {}", "floordiv": "{} // {}", "truediv": "{} / {}",
    "div": "{} / {}", "mod": "{} % {}", "pow": "{} ** {}", "lshift": "{} << {}", "rshift": "{} >> {}",
    "and_": "{} & {}", "or_": "{} | {}", "xor": "{} ^ {}", "getitem": "{}[{}]", "matmul": "{} @ {}",
}
magic_methods = {
    "eq": "{} == {}", "ne": "{} != {}", "lt": "{} < {}", "gt": "{} > {}", "le": "{} <= {}", "ge": "{} >= {}",
    "pos": "+{}", "neg": "-{}", "invert": "~{}", **reflectable_magic_methods,
}
inplace_methods = {
    "iadd": "{} += {}", "iand": "{} &= {}", "ifloordiv": "{} //= {}", "ilshift": "{} <<= {}", "imod": "{} %= {}",
    "imul": "{} *= {}", "imatmul": "{} @= {}", "ior": "{} |= {}", "ipow": "{} **= {}", "irshift": "{} >>= {}",
    "isub": "{} -= {}", "itruediv": "{} /= {}", "ixor": "{} ^= {}", "setitem": "{}[{}] = {}",
}

_illegal_names: dict[str, object] = {k: object() for k in keyword.kwlist}
_illegal_names.update(builtins.__dict__)
_snake_case_sub = re.compile(r"(?<=[a-z])([A-Z])")
_illegal_char_regex = re.compile("[^0-9a-zA-Z_]+")
_name_regex = re.compile(r"^([a-zA-Z_][0-9a-zA-Z_]*?)(?:_(\d+))?$")


def snake_case(s: str) -> str:
    """``mod.pascalCase`` -> ``mod.pascal_case``; ``ALL_CAPS`` -> ``all_caps``."""
    return _snake_case_sub.sub(r"_\1", s).lower()


def _custom_builtins() -> dict[str, object]:
    pkg = sys.modules["borch_webgpu"]
    found = {"inf": math.inf, "nan": math.nan, "NoneType": type(None), "torch": pkg, "device": pkg.device,
             "fx_pytree": _RESERVED["fx_pytree"], "pytree": _RESERVED["pytree"]}
    _illegal_names.update(found)
    return found


# names PyTorch's generated code reserves for modules we do not have (pytree helpers)
_RESERVED = {"fx_pytree": object(), "pytree": object()}
_illegal_names.update(_RESERVED)
for _name in ("inf", "nan", "NoneType", "torch", "device"):
    _illegal_names[_name] = object()  # replaced by the objects on first use


class Namespace:
    """Unique Python identifiers for objects (PyTorch's ``_Namespace``)."""

    def __init__(self) -> None:
        self._obj_to_name: dict[Any, str] = {}
        self._used_names: set[str] = set()
        self._base_count: dict[str, int] = {}

    def create_name(self, candidate: str, obj: object | None) -> str:
        if obj is not None and obj in self._obj_to_name:
            return self._obj_to_name[obj]
        match = _name_regex.match(candidate)
        if match is None:
            candidate = _illegal_char_regex.sub("_", candidate)
            if not candidate:
                candidate = "_unnamed"
            if candidate[0].isdigit():
                candidate = f"_{candidate}"
            match = _name_regex.match(candidate)
            assert match is not None, candidate
        base, num = match.group(1, 2)
        if num is None or candidate in self._used_names:
            num = self._base_count.get(base, 0)
            if _illegal_names.get(candidate, obj) is not obj:
                num += 1
                candidate = f"{base}_{num}"
        else:
            num = int(num)
        while candidate in self._used_names:
            num += 1
            candidate = f"{base}_{num}"
        self._used_names.add(candidate)
        self._base_count[base] = num
        if obj is not None:
            self._obj_to_name[obj] = candidate
        return candidate

    def associate_name_with_obj(self, name: str, obj: object) -> None:
        self._obj_to_name.setdefault(obj, name)

    def _rename_object(self, obj: object, name: str) -> None:
        self._obj_to_name[obj] = name
        self._used_names.add(name)


@dataclass
class PythonCode:
    """The source of ``forward`` and the globals it runs with."""
    src: str
    globals: dict[str, Any]
    _lineno_map: dict | None = None


def _format_target(base: str, target: str) -> str:
    r = base
    for e in target.split("."):
        r = f'getattr({r}, "{e}")' if not e.isidentifier() else f"{r}.{e}"
    return r


def gen_python_code(nodes, root_module: str, verbose: bool = False) -> PythonCode:
    from ..tensor import Tensor
    namespace = Namespace()
    names = {}

    def node_repr(n: Node) -> str:
        if n not in names:
            names[n] = namespace.create_name(n.name, n)
        return names[n]

    free_vars: list[str] = []
    wrapped_fns: dict[str, None] = {}
    return_annotation = [""]
    body: list[str] = []
    globals_: dict[str, Any] = {}

    def add_global(name_hint: str, obj: Any) -> str:
        if name_hint.startswith("torch.") and (public_name(obj) is not None or
                                               getattr(obj, "__module__", "").startswith("borch_webgpu")):
            return name_hint  # reachable through the ``torch`` global (this package)
        global_name = namespace.create_name(name_hint, obj)
        globals_[global_name] = obj
        return global_name

    for name, obj in _custom_builtins().items():
        if name in _RESERVED:
            namespace.create_name(name, obj)
        else:
            add_global(name, obj)

    def get_repr(arg: object) -> str:
        if isinstance(arg, Node):
            return node_repr(arg)
        if isinstance(arg, tuple) and hasattr(arg, "_fields"):
            global_name = add_global(qualified_name(type(arg)), type(arg))
            return f"{global_name}{repr(tuple(arg))}"
        if isinstance(arg, Tensor):
            return f"torch.Tensor(size={list(arg.size())}, dtype={str(arg.dtype).split('.')[-1]})"
        if isinstance(arg, tuple):
            return f"({get_repr(arg[0])},)" if len(arg) == 1 else "(" + ", ".join(get_repr(a) for a in arg) + ")"
        if isinstance(arg, list):
            return "[" + ", ".join(get_repr(a) for a in arg) + "]"
        if isinstance(arg, slice):
            return f"slice({get_repr(arg.start)}, {get_repr(arg.stop)}, {get_repr(arg.step)})"
        if isinstance(arg, dict):
            return "{" + ", ".join(f"{get_repr(k)}: {get_repr(v)}" for k, v in arg.items()) + "}"
        if isinstance(arg, type):
            return add_global(qualified_name(arg), arg)
        if callable(arg) and not isinstance(arg, (str, bytes)) and getattr(arg, "__name__", None):
            qn = qualified_name(arg)
            return add_global(qn, arg)
        if isinstance(arg, float) and (math.isinf(arg) or math.isnan(arg)):
            return repr(arg)
        return repr(arg)

    def type_repr(o) -> str:
        if o == ():
            return "()"
        typename = _type_repr(o)
        if isinstance(o, types.UnionType) and "|" in typename:
            return "|".join(type_repr(arg) for arg in typing.get_args(o))
        origin_type = getattr(o, "__origin__", None)
        if origin_type:
            if isinstance(o, typing._GenericAlias):  # pre-PEP 585 spelling: typing.List[...]
                origin_type = _ORIGIN_TYPE_MAP.get(origin_type, origin_type)
            origin_typename = add_global(_type_repr(origin_type), origin_type)
            type_args = typing.get_args(o)
            if type_args:
                return f"{origin_typename}[{','.join(type_repr(arg) for arg in type_args)}]"
            return origin_typename
        return add_global(typename, o)

    def annotation(node: Node) -> str:
        return "" if node.type is None else f" : {type_repr(node.type)}"

    def format_args(args, kwargs) -> str:
        res = [get_repr(a) for a in args]
        res.extend(f"{k} = {get_repr(v)}" for k, v in kwargs.items())
        return ", ".join(res)

    node_to_last_use: dict[Node, Node] = {}
    user_to_last_uses: dict[Node, list[Node]] = {}
    for node in reversed(list(nodes)):
        for input_node in node._input_nodes:
            if input_node not in node_to_last_use:
                node_to_last_use[input_node] = node
                user_to_last_uses.setdefault(node, []).append(input_node)

    def delete_unused_values(user: Node) -> None:
        if user.op == "placeholder":
            return
        if user.op == "output":
            body.append("\n")
            return
        to_delete = list(user_to_last_uses.get(user, []))
        if len(user.users) == 0:
            to_delete.append(user)
        if to_delete:
            body.append(";  " + " = ".join([node_repr(n) for n in to_delete] + ["None"]) + "\n")
        else:
            body.append("\n")

    def emit_node(node: Node) -> None:
        if node.op == "placeholder":
            default = "" if not node.args else f" = {get_repr(node.args[0])}"
            free_vars.append(f"{node.target}{annotation(node)}{default}")
            raw_name = node.target.replace("*", "")
            if raw_name != node_repr(node):
                body.append(f"{node_repr(node)} = {raw_name}\n")
            return
        if node.op == "call_method":
            body.append(f"{node_repr(node)} = {_format_target(get_repr(node.args[0]), node.target)}"
                        f"({format_args(node.args[1:], node.kwargs)})")
            return
        if node.op == "call_function":
            target = node.target
            if getattr(target, "__module__", "") == "_operator" and target.__name__ in magic_methods:
                body.append(f"{node_repr(node)} = "
                            f"{magic_methods[target.__name__].format(*(get_repr(a) for a in node.args))}")
                return
            if getattr(target, "__module__", "") == "_operator" and target.__name__ in inplace_methods:
                body.append(f"{inplace_methods[target.__name__].format(*(get_repr(a) for a in node.args))};  "
                            f"{node_repr(node)} = {get_repr(node.args[0])}")
                return
            qn = node._qualname if node._qualname is not None else qualified_name(target)
            if node._qualname is not None:
                global_name = qn
            else:
                global_name = add_global(qn, target)
            if (global_name == "getattr" and isinstance(node.args, tuple) and len(node.args) == 2
                    and isinstance(node.args[1], str) and node.args[1].isidentifier()):
                body.append(f"{node_repr(node)} = {_format_target(get_repr(node.args[0]), node.args[1])}")
                return
            body.append(f"{node_repr(node)} = {global_name}({format_args(node.args, node.kwargs)})")
            if node.meta.get("is_wrapped", False):
                wrapped_fns.setdefault(global_name)
            return
        if node.op == "call_module":
            body.append(f"{node_repr(node)} = {_format_target(root_module, node.target)}"
                        f"({format_args(node.args, node.kwargs)})")
            return
        if node.op == "get_attr":
            body.append(f"{node_repr(node)} = {_format_target(root_module, node.target)}")
            return
        if node.op == "output":
            if node.type is not None:
                return_annotation[0] = f" -> {type_repr(node.type)}"
            body.append(f"return {get_repr(node.args[0])}")
            return
        raise NotImplementedError(f"node: {node.op} {node.target}")

    prev_summary = None
    for node in nodes:
        if verbose and node.op not in ("placeholder", "output"):
            summary = "\n# No stacktrace found for following nodes\n"
            if summary != prev_summary:
                prev_summary = summary
                body.append(summary)
        emit_node(node)
        delete_unused_values(node)
    if not body:
        body.append("pass\n")
    wrap_stmts = ""
    if wrapped_fns:
        from ._wrap import wrap
        wrap_name = add_global("torch.fx._symbolic_trace.wrap", wrap)  # PyTorch's own spelling
        wrap_stmts = "\n".join(f'{wrap_name}("{name}")' for name in wrapped_fns)
    if not free_vars or free_vars[0] != "self":
        free_vars.insert(0, "self")
    prologue = f"def forward({', '.join(free_vars)}){return_annotation[0]}:"
    code = "".join(body).lstrip("\n")
    code = "\n".join("    " + line for line in code.split("\n"))
    return PythonCode(f"\n{wrap_stmts}\n\n{prologue}\n{code}", globals_)
