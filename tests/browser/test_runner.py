"""`python -m borch_webgpu.run`: exit codes, tracebacks, output relayed as the script prints."""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import borch_webgpu


def runner(tmp_path: Path, source: str, *args: str, cwd: Path | None = None, python: str = sys.executable,
           flags: tuple[str, ...] = ()):
    script = tmp_path / "script.py"
    script.write_text(source)
    return subprocess.run([python, "-m", "borch_webgpu.run", *flags, str(script), *args], capture_output=True, text=True,
                          cwd=cwd or tmp_path, timeout=300)


def test_done_criterion_prints_12(tmp_path):
    r = runner(tmp_path, "import borch_webgpu\nprint((borch_webgpu.ones(2, 3) * 2).sum().item())\n")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "12.0\n"
    # the adapter comes on stderr, before anything the script prints
    assert "borch_webgpu: adapter:" in r.stderr.splitlines()[0]


def test_exception_gives_traceback_and_nonzero_exit(tmp_path):
    r = runner(tmp_path, "import borch_webgpu as torch\nprint('before')\n"
                         "torch.ones(2, 3) + torch.ones(4)\n")
    assert r.returncode == 1
    assert r.stdout == "before\n"
    assert "Traceback (most recent call last):" in r.stderr
    assert 'File "/home/pyodide/script.py", line 3, in <module>' in r.stderr
    assert "RuntimeError: add: The size of tensor a (3) must match the size of tensor b (4)" in r.stderr
    assert "runpy" not in r.stderr and "_borch_run_main" not in r.stderr


def test_sys_exit_code_and_argv(tmp_path):
    r = runner(tmp_path, "import sys\nprint(sys.argv[1:])\nsys.exit(int(sys.argv[1]))\n", "3", "x")
    assert r.returncode == 3
    assert r.stdout == "['3', 'x']\n"


def test_output_is_relayed_while_the_script_runs(tmp_path):
    script = tmp_path / "slow.py"
    script.write_text("import time, sys\nprint('first', flush=True)\nt = time.time()\n"
                      "while time.time() - t < 4: pass\nprint('second')\n")
    p = subprocess.Popen([sys.executable, "-m", "borch_webgpu.run", str(script)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    first = p.stdout.readline()
    t_first = time.time()
    second = p.stdout.readline()
    t_second = time.time()
    p.wait(timeout=120)
    assert (first, second) == ("first\n", "second\n")
    # 'first' arrived while the script was still busy, not at its end
    assert t_second - t_first > 2.5, t_second - t_first


def test_runner_works_from_an_installed_wheel_in_any_folder(tmp_path):
    """Install the built wheel into a fresh venv and run a script from an unrelated folder.

    The venv sees no base site-packages (a Playwright installed system-wide by hand must not make this
    pass): it gets this interpreter's own packages (the project's .venv, where the `run` extra
    installed Playwright and numpy) by a .pth file, as `pip install borch_webgpu[run]` would have put
    them beside it. (tests/unit/test_wheel.py checks the one-line message without Playwright.)"""
    import site
    import sysconfig

    from borch_webgpu._wheel import build_wheel

    wheel = build_wheel(tmp_path / "wheels")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)], check=True,
                   capture_output=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    bare = subprocess.run([str(py), "-c", "import playwright"], capture_output=True, text=True, cwd=elsewhere)
    assert bare.returncode != 0, "the new venv must not see a Playwright from outside the project"
    src = "import borch_webgpu\nprint((borch_webgpu.ones(2, 3) * 2).sum().item())\n"
    # this interpreter's packages (not its base's), after the venv's own: Playwright and its needs
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"], *site.getsitepackages()}
    venv_site = Path(subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                    capture_output=True, text=True, check=True).stdout.strip())
    (venv_site / "zz_project_packages.pth").write_text("".join(p + "\n" for p in sorted(ours) if Path(p).is_dir()))
    env_check = subprocess.run([str(py), "-c", "import borch_webgpu, playwright; print(borch_webgpu.__file__)"],
                               capture_output=True, text=True, cwd=elsewhere)
    assert env_check.returncode == 0 and str(venv) in env_check.stdout, env_check
    r = runner(elsewhere, src, python=str(py))
    assert r.returncode == 0, r.stderr
    assert r.stdout == "12.0\n"


TORCH_SCRIPT = """import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset
import torchvision
from torchvision import datasets, transforms
import borch_webgpu
assert torch is borch_webgpu and nn is borch_webgpu.nn and torchvision is borch_webgpu.vision
x = torch.ones(4, 3)
loader = DataLoader(TensorDataset(x, torch.arange(4)), batch_size=2)
layer = nn.Linear(3, 1)
opt = optim.SGD(layer.parameters(), lr=0.1)
loss = F.relu(layer(next(iter(loader))[0])).sum()
print(torch.__name__, x.device.type, transforms.ToTensor.__module__)
"""


def test_import_torch_runs_borch_webgpu_with_one_note(tmp_path):
    r = runner(tmp_path, TORCH_SCRIPT)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "borch_webgpu webgpu borch_webgpu.vision.transforms\n"
    notes = [ln for ln in r.stderr.splitlines() if ln.startswith("note: ")]
    assert notes == [f"note: 'import torch' runs borch_webgpu {borch_webgpu.__version__} here, not PyTorch "
                     "(torchvision: borch_webgpu.vision); --no-torch-alias turns it off"], r.stderr


def test_no_torch_alias_flag(tmp_path):
    r = runner(tmp_path, "import borch_webgpu\nimport torch\n", flags=("--no-torch-alias",))
    assert r.returncode == 1 and "note:" not in r.stderr
    assert "ModuleNotFoundError: No module named 'torch'" in r.stderr


def test_timeout_stops_a_gpu_loop_that_never_reads(tmp_path):
    """Issue 12 item 7: --timeout ends a script whose loop of GPU ops never reads a value (on a software
    adapter it kept Chromium too busy for Playwright's own timeout and close to come back)."""
    script = tmp_path / "spin.py"
    script.write_text("import borch_webgpu as torch\nx = torch.randn(32, 32)\nprint('spinning', flush=True)\n"
                      "while True:\n    x = (x @ x) * 0.01\n")
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "borch_webgpu.run", "--timeout", "5", str(script)],
                       capture_output=True, text=True, timeout=240)
    assert r.returncode == 124, (r.returncode, r.stderr[-2000:])
    assert "spinning" in r.stdout and "timed out after 5.0 s" in r.stderr, (r.stdout[-500:], r.stderr[-1000:])
    assert time.monotonic() - t0 < 180
