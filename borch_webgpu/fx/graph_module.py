"""``torch.fx.GraphModule``: an ``nn.Module`` whose ``forward`` is Python generated from a Graph.

As in PyTorch 2.13, each GraphModule gets its own class (so ``forward`` can be replaced per instance),
the attributes the graph reads are copied from the root (parameters stay shared, tensors become
buffers), ``.code`` is the generated source and ``recompile()`` regenerates it after the graph
was edited.
"""
from __future__ import annotations

import copy
import itertools
import linecache
from typing import Any

from ..nn import Module
from ..tensor import Tensor
from .graph import Graph

__all__ = ["GraphModule"]

_NEXT_ID = itertools.count()


def _addindent(s_: str, num_spaces: int) -> str:
    s = s_.split("\n")
    if len(s) == 1:
        return s_
    first = s.pop(0)
    return first + "\n" + "\n".join((num_spaces * " ") + line if line.strip() else "" for line in s)


def _copy_attr(from_module: Module, to_module: Module, target: str) -> None:
    from ..nn import Parameter
    *prefix, field = target.split(".")
    for item in prefix:
        f = getattr(from_module, item)
        t = getattr(to_module, item, None)
        if f is t:
            return
        if t is None:
            t = Module()
            setattr(to_module, item, t)
        from_module, to_module = f, t
    orig = getattr(from_module, field)
    if isinstance(orig, Tensor) and not isinstance(orig, Parameter):
        to_module.register_buffer(field, orig)
    else:
        setattr(to_module, field, orig)


def _assign_attr(from_obj: Any, to_module: Module, target: str) -> None:
    from ..nn import Parameter
    *prefix, field = target.split(".")
    for item in prefix:
        t = getattr(to_module, item, None)
        if t is None:
            t = Module()
            setattr(to_module, item, t)
        to_module = t
    if isinstance(from_obj, Tensor) and not isinstance(from_obj, Parameter):
        to_module.register_buffer(field, from_obj)
    else:
        setattr(to_module, field, from_obj)


class GraphModule(Module):
    """A module built from ``root`` (a Module or a dict of name -> attribute) and a Graph.

    Example:
        >>> import borch_webgpu as torch
        >>> import borch_webgpu.fx as fx
        >>> def f(x):
        ...     return torch.relu(x) * 2
        >>> gm = fx.symbolic_trace(f)
        >>> gm(torch.tensor([-1.0, 3.0]))
        tensor([0., 6.])
        >>> for node in gm.graph.nodes:
        ...     if node.op == "call_function" and node.target is torch.relu:
        ...         node.target = torch.sigmoid
        >>> _ = gm.recompile()
        >>> print(gm.code.strip().splitlines()[1].strip())
        relu = torch.sigmoid(x);  x = None
    """

    def __new__(cls, *args, **kwargs):
        for t in cls.__mro__:
            if t.__qualname__.split(".")[-1] != "GraphModuleImpl":
                cls = t
                break

        class GraphModuleImpl(cls):
            pass
        return super().__new__(GraphModuleImpl)

    def __init__(self, root, graph: Graph, class_name: str = "GraphModule") -> None:
        super().__init__()
        self.__class__.__name__ = class_name
        if isinstance(root, Module):
            if hasattr(root, "training"):
                self.training = root.training
            for node in graph.nodes:
                if node.op in ("get_attr", "call_module"):
                    _copy_attr(root, self, node.target)
        elif isinstance(root, dict):
            targets_to_copy = []
            for node in graph.nodes:
                if node.op in ("get_attr", "call_module"):
                    if node.target not in root:
                        raise RuntimeError(f"Node {node} referenced target {node.target} but that target was "
                                           "not provided in ``root``!")
                    targets_to_copy.append(node.target)
            targets_to_copy.sort(key=lambda t: t.count("."))
            for target_to_copy in targets_to_copy:
                _assign_attr(root[target_to_copy], self, target_to_copy)
        else:
            raise RuntimeError("Unsupported type " + str(root) + " passed for root!")
        self.graph = graph
        self.meta: dict[str, Any] = {}

    # ---- graph / code -------------------------------------------------------------------------------
    @property
    def graph(self) -> Graph:
        """The Graph; setting it regenerates ``forward``."""
        return self._graph

    @graph.setter
    def graph(self, g: Graph) -> None:
        object.__setattr__(self, "_graph", g)
        g.owning_module = self
        self.recompile()

    @property
    def code(self) -> str:
        """The generated Python source of ``forward``."""
        if not hasattr(self, "_code"):
            raise RuntimeError("Code has not been generated! Please report a bug to PyTorch")
        return self._code

    def recompile(self):
        """Regenerate ``forward`` from ``self.graph`` (call it after editing the graph)."""
        python_code = self._graph.python_code(root_module="self")
        object.__setattr__(self, "_code", python_code.src)
        cls = type(self)
        filename = f"<eval_with_key>.{next(_NEXT_ID)}"
        globals_ = dict(python_code.globals)
        globals_["__builtins__"] = __builtins__
        linecache.cache[filename] = (len(python_code.src), None, python_code.src.splitlines(True), filename)
        exec(compile(python_code.src, filename, "exec"), globals_)
        cls.forward = globals_["forward"]
        return python_code

    def print_readable(self, print_output: bool = True, include_stride: bool = False,
                       include_device: bool = False, colored: bool = False) -> str:
        """The generated code as a class (and that of child GraphModules), printed and returned."""
        return _print_readable(self, self._get_name(), print_output)

    def __str__(self) -> str:
        orig_str = super().__repr__()
        return "\n".join([orig_str, self._code, "# To see more debug info, please use `graph_module.print_readable()`"])

    def __repr__(self) -> str:
        return super().__repr__()

    def __deepcopy__(self, memo):
        res = Module.__new__(Module)
        memo[id(self)] = res
        fake_mod = Module()
        fake_mod.__dict__ = copy.deepcopy(self.__dict__, memo)
        res = GraphModule(fake_mod, fake_mod.__dict__["_graph"], self._get_name())
        res.meta = copy.deepcopy(getattr(self, "meta", {}), memo)
        return res

    def __copy__(self):
        res = GraphModule(self, self.graph, self._get_name())
        res.meta = getattr(self, "meta", {})
        return res

    # ---- submodules ---------------------------------------------------------------------------------
    def add_submodule(self, target: str, m: Module) -> bool:
        """Install ``m`` at dotted path ``target`` (creating empty Modules on the way)."""
        *prefix, field = target.split(".")
        mod: Module = self
        for item in prefix:
            submod = getattr(mod, item, None)
            if submod is None:
                submod = Module()
                setattr(mod, item, submod)
            if not isinstance(submod, Module):
                return False
            mod = submod
        mod.add_module(field, m)
        return True

    def delete_submodule(self, target: str) -> bool:
        """Remove the submodule at ``target``; False if there is none."""
        atoms = target.split(".")
        path, target_submod = atoms[:-1], atoms[-1]
        mod: Module = self
        for item in path:
            if not hasattr(mod, item):
                return False
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                return False
        if not hasattr(mod, target_submod) or not isinstance(getattr(mod, target_submod), Module):
            return False
        delattr(mod, target_submod)
        return True

    def delete_all_unused_submodules(self) -> None:
        """Remove every submodule that no ``call_module`` / ``get_attr`` node uses."""
        used: list[str] = []
        for node in self.graph.nodes:
            if node.op in ("call_module", "get_attr") and isinstance(node.target, str):
                used.extend(itertools.accumulate(node.target.split("."), lambda x, y: ".".join([x, y] if y else [x])))
                if node.op == "call_module":
                    try:
                        submod = self.get_submodule(node.target)
                        used.extend(".".join([node.target, n]) for n, _ in submod.named_modules() if n != "")
                    except AttributeError:
                        pass
        to_delete = [name for name, _ in self.named_modules() if name not in used]
        for name in to_delete:
            self.delete_submodule(name)


def _print_readable(module: GraphModule, module_name: str, print_output: bool = True) -> str:
    from ._codegen import gen_python_code
    module_code = gen_python_code(list(module.graph.nodes), "self", verbose=True).src
    module_code = module_code.lstrip("\n")
    module_code = f"class {module_name}(torch.nn.Module):\n" + module_code
    module_code = _addindent(module_code, 4)
    submodule_code_list = [""]
    for submodule_name, submodule in module.named_children():
        if isinstance(submodule, GraphModule):
            submodule_code_list.append(_print_readable(submodule, submodule_name, print_output=False))
    submodule_code = _addindent("\n".join(submodule_code_list), 4)
    output = module_code + submodule_code
    if print_output:
        print(module_code + submodule_code)
    return output
