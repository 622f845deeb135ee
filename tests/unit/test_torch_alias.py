"""borch_webgpu/_torch_alias.py in CPython: install() refuses here; the finder itself, put on
sys.meta_path by hand in a fresh interpreter, answers torch / torchvision with our own modules."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from borch_webgpu import _torch_alias

ROOT = Path(__file__).resolve().parents[2]


def guest(code: str, tmp_path: Path, extra_path: str = "") -> subprocess.CompletedProcess:
    """Run code in a fresh CPython with the finder first on sys.meta_path (install()'s guard bypassed)."""
    head = ("import sys\nfrom borch_webgpu import _torch_alias as A\n"
            "finder = A.TorchAliasFinder('; HINT')\nsys.meta_path.insert(0, finder)\n")
    env_path = str(ROOT) + (":" + extra_path if extra_path else "")
    return subprocess.run([sys.executable, "-c", head + textwrap.dedent(code)], capture_output=True, text=True,
                          cwd=tmp_path, env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"}, timeout=120)


def test_install_refuses_outside_pyodide():
    assert sys.platform != "emscripten"
    before = list(sys.meta_path)
    with pytest.raises(RuntimeError, match="only in the page's Python"):
        _torch_alias.install()
    assert sys.meta_path == before and _torch_alias.installed() is None
    _torch_alias.configure(False)    # turning it off is always allowed
    with pytest.raises(RuntimeError):
        _torch_alias.configure(True)


def test_names_resolve_to_the_same_module_objects_and_the_note_is_said_once(tmp_path):
    r = guest("""
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        import torch.optim as optim
        from torch.utils.data import DataLoader, TensorDataset
        import torchvision
        from torchvision import datasets, transforms
        import borch_webgpu, borch_webgpu.vision
        assert torch is borch_webgpu and nn is borch_webgpu.nn and F is borch_webgpu.nn.functional
        assert optim is borch_webgpu.optim and sys.modules["torch.utils.data"] is borch_webgpu.utils.data
        assert DataLoader is borch_webgpu.utils.data.DataLoader and TensorDataset is borch_webgpu.utils.data.TensorDataset
        assert torchvision is borch_webgpu.vision and transforms is borch_webgpu.vision.transforms
        assert datasets is borch_webgpu.vision.datasets
        assert torch.__spec__.name == "borch_webgpu" and nn.__spec__.name == "borch_webgpu.nn"
        from importlib import resources
        assert resources.files("borch_webgpu").joinpath("wgsl", "elementwise.wgsl").is_file()
        print(torch.__name__, torch.__version__ == borch_webgpu.__version__, nn.__name__)
        print((torch.ones(2, 3) * 2).sum().item())
        try:
            import torch.no_such_module
        except ModuleNotFoundError as e:
            print("missing:", e.name)
        finder.forget()                       # the next run: aliases gone, the note said again
        assert "torch" not in sys.modules and "torch.nn" not in sys.modules
        assert "borch_webgpu.nn" in sys.modules
        import torch.nn
        assert torch.nn is borch_webgpu.nn
        sys.meta_path.remove(finder); finder.forget()
        try:
            import torch
        except ModuleNotFoundError as e:
            print("off:", e)
        """, tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["borch_webgpu True borch_webgpu.nn", "12.0",
                                     "missing: torch.no_such_module", "off: No module named 'torch'"]
    notes = [ln for ln in r.stderr.splitlines() if ln.startswith("note: ")]
    assert notes == [_torch_alias.NOTE.format(version=_torch_alias._version(), hint="; HINT")] * 2, r.stderr


def test_a_script_that_never_imports_torch_gets_no_note(tmp_path):
    r = guest("import borch_webgpu\nprint(finder.target_of('torch.nn.functional'), finder.target_of('numpy'))\n",
              tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "borch_webgpu.nn.functional None\n" and "note:" not in r.stderr


def test_a_real_torch_is_never_shadowed(tmp_path):
    real = tmp_path / "site"
    (real / "torch" / "nn").mkdir(parents=True)
    (real / "torch" / "__init__.py").write_text("REAL = True\n")
    (real / "torch" / "nn" / "__init__.py").write_text("REAL_NN = True\n")
    r = guest("import torch, torch.nn\nprint(torch.REAL, torch.nn.REAL_NN, finder.announced)\n", tmp_path, str(real))
    assert r.returncode == 0, r.stderr
    assert r.stdout == "True True False\n" and "note:" not in r.stderr
