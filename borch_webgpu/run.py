"""``python -m borch_webgpu.run [--node] [--mount PATH]... script.py [args...]``

Runs a Python file inside Pyodide with ``borch_webgpu`` importable and WebGPU on: in headless
Chromium (default) or in Node 20 with Dawn (``--node``). The script's stdout and stderr are
relayed as it prints; a Python exception prints its traceback and the exit status is non-zero;
``sys.exit(n)`` exits with n. The adapter is printed on stderr before the script's output.
``import torch`` (``torch.nn``, ``torchvision``, ...) runs borch_webgpu (borch_webgpu/_torch_alias.py),
with one note line on stderr when the script imports it; ``--no-torch-alias`` turns that off.
``BORCH_WEBGPU_LAUNCH_BLOCKING=1`` in the environment is passed in: each op that can fail (a bad
index) then waits for the GPU and raises at its own line (``CUDA_LAUNCH_BLOCKING=1``'s role).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import urllib.parse
from pathlib import Path

from . import _assets
from ._server import Site, serve

GUEST_HOME = "/home/pyodide"
CHROMIUM_FLAGS = ["--no-sandbox", "--enable-unsafe-webgpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
                  "--disable-dev-shm-usage"]
GUEST_ENV = ("BORCH_WEBGPU_LAUNCH_BLOCKING",)  # variables of this environment that the script sees


def guest_env(environ=None) -> dict[str, str]:
    """The variables of GUEST_ENV that are set here, for os.environ inside Pyodide."""
    environ = os.environ if environ is None else environ
    return {k: environ[k] for k in GUEST_ENV if k in environ}


def chromium_path() -> str:
    for cand in (os.environ.get("BORCH_CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser",
                 shutil.which("chromium") or "", shutil.which("chromium-browser") or ""):
        if cand and Path(cand).exists():
            return cand
    raise _assets.AssetError("Chromium not found: install Debian's chromium (apt-get install -y chromium) "
                             "or set BORCH_CHROMIUM to its path")


def guest_path(host: Path) -> str:
    host = host.resolve()
    try:
        rel = host.relative_to(Path.cwd().resolve())
    except ValueError:
        rel = Path(host.name)
    return f"{GUEST_HOME}/{rel.as_posix()}"


def mount_list(paths: list[str]) -> list[tuple[Path, str]]:
    out = []
    for p in paths:
        host = Path(p)
        if not host.exists():
            raise FileNotFoundError(f"--mount {p}: no such file or folder")
        items = [host] if host.is_file() else sorted(f for f in host.rglob("*") if f.is_file()
                                                      and "__pycache__" not in f.parts)
        out += [(f, guest_path(f)) for f in items]
    return out


class BrowserSession:
    """A booted Pyodide in headless Chromium, served from 127.0.0.1 (used by the runner and tests)."""

    def __init__(self, extra_files: dict[str, Path] | None = None, on_stdout=None, on_stderr=None,
                 on_request=None, chromium: str | None = None, playwright=None, env: dict[str, str] | None = None,
                 torch_alias: bool = True):
        try:
            from playwright.sync_api import sync_playwright
        except ImportError:
            raise _assets.AssetError("the Chromium runner needs Playwright, which this Python does not have: "
                                     "pip install 'borch_webgpu[run]' (or pip install playwright; never "
                                     "`playwright install`: Debian's chromium is used)") from None

        files = _assets.runtime_files()
        files.update(extra_files or {})
        self.wheel = next(k.split("/", 1)[1] for k in files if k.startswith("wheels/"))
        self.site = Site(files=files)  # the server reads site.files at request time
        self.server = serve(self.site)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}/"
        self._own_pw = playwright is None
        self._pw = sync_playwright().start() if playwright is None else playwright
        try:
            self.browser = self._pw.chromium.launch(executable_path=chromium or chromium_path(),
                                                    args=CHROMIUM_FLAGS, headless=True)
            self.page = self.browser.new_page()
            out = on_stdout or (lambda s: (sys.stdout.write(s), sys.stdout.flush()))
            err = on_stderr or (lambda s: (sys.stderr.write(s), sys.stderr.flush()))
            self.page.expose_function("borchStdout", lambda s: out(s))
            self.page.expose_function("borchStderr", lambda s: err(s))
            self.page.on("pageerror", lambda e: err(f"borch_webgpu: page error: {e}\n"))
            if on_request is not None:
                self.page.on("request", lambda r: on_request(r))
            query = {"wheel": self.wheel, **({"env": json.dumps(env)} if env else {}),
                     **({} if torch_alias else {"torch_alias": "0"})}
            self.page.goto(self.base + "runtime/runner.html?" + urllib.parse.urlencode(query))
            self.boot = self.page.evaluate("window.borchBoot")
        except BaseException:
            self.close()
            raise

    def mount(self, mounts: list[tuple[Path, str]]) -> None:
        if not mounts:
            return
        # URLs of this mount call only: the server sends validators and the page may cache, so a URL
        # must never name another file later (a reused /mount/3 came back as an earlier call's file)
        self._mounts = getattr(self, "_mounts", 0) + 1
        n = self._mounts
        extra = {f"mount/{n}/{i}": host for i, (host, _) in enumerate(mounts)}
        manifest = [[guest, f"/mount/{n}/{i}"] for i, (_, guest) in enumerate(mounts)]
        self.site.files.update(extra)
        manifest_path = _assets.cache_dir() / f"mount-{os.getpid()}-{n}.json"
        manifest_path.write_text(json.dumps(manifest))
        self.site.files[f"mount/{n}/manifest.json"] = manifest_path
        try:  # evaluate waits for borchMount's promise: the page has read the manifest by then
            self.page.evaluate("(u) => window.borchMount(u)", f"/mount/{n}/manifest.json")
        finally:
            manifest_path.unlink(missing_ok=True)

    def run(self, source: str, guest: str, argv: list[str], timeout_s: float | None = None) -> int:
        self.page.evaluate("""([s, p, a]) => { window.__borchResult = undefined;
            window.borchRun(s, p, a).then((c) => { window.__borchResult = {code: c}; },
                                         (e) => { window.__borchResult = {error: String(e && e.stack || e)}; }); }""",
                           [source, guest, argv])
        # a function, not an expression: Playwright runs a string expression through eval, which the
        # server's Content-Security-Policy refuses (script-src without 'unsafe-eval')
        self.page.wait_for_function("() => window.__borchResult !== undefined", polling=100,
                                    timeout=(timeout_s * 1000) if timeout_s else 0)
        res = self.page.evaluate("window.__borchResult")
        if "error" in res:
            sys.stderr.write(f"borch_webgpu: the runtime failed: {res['error']}\n")
            return 1
        return int(res["code"])

    def close(self) -> None:
        for f in (lambda: self.browser.close(), lambda: self._own_pw and self._pw.stop(),
                  lambda: self.server.shutdown()):
            try:
                f()
            except Exception:
                pass


def describe(gpu: dict) -> str:
    if not gpu.get("available"):
        return f"no WebGPU ({gpu.get('reason')}); tensors run on the cpu device (numpy)"
    a = gpu["adapter"]
    name = " / ".join(x for x in (a.get("vendor"), a.get("architecture"), a.get("device"), a.get("description")) if x)
    return name + (" - software renderer (SwiftShader, runs on the CPU)" if a.get("is_software") else "")


# how long past --timeout the watchdog waits for Playwright's own timeout and the browser's close
WATCHDOG_GRACE_S = 15.0


def _descendants(pid: int) -> list[int]:
    """The processes below pid (Linux /proc; elsewhere none are found and only the exit is forced)."""
    children: dict[int, list[int]] = {}
    try:
        for d in os.listdir("/proc"):
            if d.isdigit():
                try:
                    with open(f"/proc/{d}/stat", "rb") as f:
                        ppid = int(f.read().rsplit(b")", 1)[1].split()[1])
                except (OSError, ValueError, IndexError):
                    continue
                children.setdefault(ppid, []).append(int(d))
    except OSError:
        return []
    out, todo = [], [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


def _watchdog(timeout_s: float, done: threading.Event) -> None:
    """--timeout when the page never yields: a script busy with GPU work on a software adapter can
    keep Chromium so busy that Playwright's own timeout and close never come back (a loop of GPU ops
    that never reads a value). Past the grace, kill the browser and exit 124 as a timeout does."""
    if done.wait(timeout_s + WATCHDOG_GRACE_S):
        return
    sys.stderr.write(f"borch_webgpu.run: timed out after {timeout_s} s (the browser did not answer; killed it)\n")
    sys.stderr.flush()
    for pid in _descendants(os.getpid()):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    os._exit(124)


def run_browser(script: Path, args: list[str], mounts, timeout_s: float | None, torch_alias: bool = True) -> int:
    sess = BrowserSession(env=guest_env(), torch_alias=torch_alias)
    done = threading.Event()
    try:
        b = sess.boot
        sys.stderr.write(f"borch_webgpu: adapter: {describe(b['gpu'])} [Chromium]\n")
        sys.stderr.write(f"borch_webgpu: boot {b['timings']['totalMs'] / 1000:.2f} s\n")
        sys.stderr.flush()
        sess.mount(mounts)
        if timeout_s:   # from the script's start, as Playwright's timeout in sess.run
            threading.Thread(target=_watchdog, args=(timeout_s, done), daemon=True).start()
        return sess.run(script.read_text(encoding="utf-8"), guest_path(script), args, timeout_s)
    finally:
        sess.close()
        done.set()


def run_node(script: Path, args: list[str], mounts, timeout_s: float | None, torch_alias: bool = True) -> int:
    node = os.environ.get("BORCH_NODE") or shutil.which("node")
    if not node:
        raise _assets.AssetError("--node needs Node.js 20 (node on PATH or BORCH_NODE)")
    pyo = _assets.pyodide_dir()
    cfg = {"pyodide": str(pyo), "numpy": str(_assets.numpy_wheel()), "wheel": str(_assets.our_wheel()),
           "dawn": str(_assets.dawn_node()), "data": str(_assets.data_dir()), "script": str(script),
           "guest": guest_path(script), "argv": args,
           "mounts": [[str(h), g] for h, g in mounts], "env": guest_env(), "torchAlias": torch_alias}
    runner = Path(__file__).resolve().parent / "js" / "run_node.mjs"
    env = dict(os.environ, BORCH_NODE_RUN=json.dumps(cfg))
    try:
        return subprocess.run([node, "--experimental-wasm-stack-switching", str(runner)], env=env,
                              timeout=timeout_s).returncode
    except subprocess.TimeoutExpired:
        sys.stderr.write(f"borch_webgpu: timed out after {timeout_s} s\n")
        return 124


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m borch_webgpu.run",
                                 description="Run a Python script in Pyodide with borch_webgpu on WebGPU.")
    ap.add_argument("--node", action="store_true", help="run under Node 20 with Dawn instead of headless Chromium")
    ap.add_argument("--mount", action="append", default=[], metavar="PATH",
                    help="copy a file or folder (relative to the current folder) into the runtime's file system")
    ap.add_argument("--timeout", type=float, default=None, metavar="SECONDS", help="stop the script after this long")
    ap.add_argument("--no-torch-alias", dest="torch_alias", action="store_false",
                    help="'import torch' raises ModuleNotFoundError (by default it runs borch_webgpu, with a note)")
    ap.add_argument("script")
    ap.add_argument("args", nargs=argparse.REMAINDER)
    ns = ap.parse_args(argv)
    script = Path(ns.script)
    if not script.is_file():
        print(f"borch_webgpu.run: no such script: {ns.script}", file=sys.stderr)
        return 2
    try:
        mounts = mount_list(ns.mount)
        fn = run_node if ns.node else run_browser
        return fn(script, ns.args, mounts, ns.timeout, ns.torch_alias)
    except _assets.AssetError as e:
        print(f"borch_webgpu.run: {e}", file=sys.stderr)
        return 2
    except Exception as e:  # Playwright timeouts, a browser that does not start
        if type(e).__name__ == "TimeoutError":
            print(f"borch_webgpu.run: timed out after {ns.timeout} s", file=sys.stderr)
            return 124
        raise


if __name__ == "__main__":
    sys.exit(main())
