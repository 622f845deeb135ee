"""``import torch`` in the page's Python: a ``sys.meta_path`` finder that answers ``torch`` (and
``torch.nn``, ``torch.utils.data``, ...) with borch_webgpu's own modules and ``torchvision`` with
``borch_webgpu.vision``.

Installed only inside Pyodide (the runtime does it at boot; ``python -m borch_webgpu.run
--no-torch-alias`` and the playground's Settings turn it off): in CPython a real installed torch is
never shadowed, and :func:`install` refuses there. Even under Pyodide, a real ``torch`` that Python's
own path finder can find wins.

What the alias is, it says: ``torch is borch_webgpu``, so ``torch.__name__ == "borch_webgpu"`` and
``torch.__version__`` is borch_webgpu's version (a script that prints them learns the truth);
``torch.nn is borch_webgpu.nn`` (one module object per module, never a copy). The first import of
an aliased name in a run prints one line on stderr (:data:`NOTE`).
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys

__all__ = ["ALIASES", "TorchAliasFinder", "install", "uninstall", "configure", "begin_run", "installed"]

ALIASES = {"torch": "borch_webgpu", "torchvision": "borch_webgpu.vision"}
NOTE = "note: 'import torch' runs borch_webgpu {version} here, not PyTorch (torchvision: borch_webgpu.vision){hint}"


def _version() -> str:
    from ._version import __version__
    return __version__


class _AliasLoader(importlib.abc.Loader):
    """Hands back the already importable target module itself (no second copy is executed)."""

    def __init__(self, finder: TorchAliasFinder, target: str):
        self.finder, self.target = finder, target

    def create_module(self, spec):
        self.finder.announce()
        module = importlib.import_module(self.target)
        self.own_spec = module.__spec__
        return module

    def exec_module(self, module) -> None:
        # importlib keeps a module's own __name__, __loader__ and __file__ but always sets __spec__ to
        # the alias's: put the module's own back (importlib.resources reads the package from it)
        module.__spec__ = self.own_spec


class TorchAliasFinder(importlib.abc.MetaPathFinder):
    """Finds ``torch[.x.y]`` as ``borch_webgpu[.x.y]`` and ``torchvision[.x]`` as ``borch_webgpu.vision[.x]``.

    ``hint`` ends the note line (how to turn the alias off where it runs); ``write`` prints it
    (default: ``sys.stderr.write``)."""

    def __init__(self, hint: str = "", write=None, aliases: dict[str, str] | None = None):
        self.hint = hint
        self.write = write
        self.aliases = dict(ALIASES if aliases is None else aliases)
        self.announced = False

    def target_of(self, fullname: str) -> str | None:
        root, dot, rest = fullname.partition(".")
        base = self.aliases.get(root)
        return None if base is None else base + dot + rest

    def find_spec(self, fullname, path=None, target=None):
        name = self.target_of(fullname)
        if name is None:
            return None
        root = fullname.partition(".")[0]
        if root == fullname:
            if importlib.machinery.PathFinder.find_spec(root) is not None:
                return None  # a real torch / torchvision is installed: it wins
        elif not self.is_alias(root, sys.modules.get(root)):
            return None      # torch.x under a real torch: not ours to answer
        try:
            found = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            found = None
        if found is None:
            return None      # ModuleNotFoundError names what the script asked for (torch.foo)
        return importlib.util.spec_from_loader(fullname, _AliasLoader(self, name))

    def is_alias(self, name: str, module) -> bool:
        target = self.target_of(name)
        return module is not None and target is not None and sys.modules.get(target) is module

    def announce(self) -> None:
        if self.announced:
            return
        self.announced = True
        (self.write or sys.stderr.write)(NOTE.format(version=_version(), hint=self.hint) + "\n")

    def forget(self) -> None:
        """Drop the aliased names from ``sys.modules`` and the note's 'said' mark: the next run's
        ``import torch`` comes through this finder again (and the note is printed once more)."""
        for name in [n for n in sys.modules if n.partition(".")[0] in self.aliases]:
            if self.is_alias(name, sys.modules[name]):
                del sys.modules[name]
        self.announced = False


def installed() -> TorchAliasFinder | None:
    """The finder on ``sys.meta_path``, or None."""
    return next((f for f in sys.meta_path if isinstance(f, TorchAliasFinder)), None)


def install(hint: str = "") -> TorchAliasFinder:
    """Put the finder first on ``sys.meta_path`` (again, with a new hint, if it is there already).

    Raises RuntimeError outside Pyodide: in CPython ``import torch`` must mean the real one."""
    if sys.platform != "emscripten":
        raise RuntimeError("the 'import torch' alias is installed only in the page's Python (Pyodide): "
                           "in CPython import borch_webgpu (or borch_webgpu as torch) by its own name")
    uninstall()
    finder = TorchAliasFinder(hint)
    sys.meta_path.insert(0, finder)
    return finder


def uninstall() -> None:
    """Remove the finder and the aliased modules: ``import torch`` raises ModuleNotFoundError again."""
    finder = installed()
    while finder is not None:
        finder.forget()
        sys.meta_path.remove(finder)
        finder = installed()


def configure(enabled: bool, hint: str = "") -> None:
    """The runtime's switch (boot and each playground run): on with this hint, or off."""
    if not enabled:
        uninstall()
    elif installed() is None or installed().hint != hint:
        install(hint)


def begin_run() -> None:
    """Before a script runs: the note is said once per run, when the script imports torch."""
    finder = installed()
    if finder is not None:
        finder.forget()
