"""Site step: bundle the playground's editor (CodeMirror 6) into build/site/playground/editor.js.

The npm packages are pinned in scripts/site/package.json and package-lock.json. ``npm ci`` installs
them once into the cache (``$BORCH_WEBGPU_CACHE/npm/site``, keyed by the lock's hash) and esbuild,
from the same lock, bundles scripts/site/20_playground_editor.mjs into one ES module served from our
own origin: the page fetches nothing from a CDN. Needs Node.js 20 with npm (the first time, the npm
registry).
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

from borch_webgpu._assets import AssetError, cache_dir, log

HERE = Path(__file__).resolve().parent
ENTRY = HERE / "20_playground_editor.mjs"


def node_modules() -> Path:
    """``npm ci`` of scripts/site/ into the cache (skipped while the lock is unchanged)."""
    dest = cache_dir() / "npm" / "site"
    lock = (HERE / "package-lock.json").read_bytes()
    want = hashlib.sha256(lock + (HERE / "package.json").read_bytes()).hexdigest()
    stamp = dest / ".lock-hash"
    if stamp.exists() and stamp.read_text() == want and (dest / "node_modules").is_dir():
        return dest / "node_modules"
    npm = shutil.which("npm")
    if not npm:
        raise AssetError("the playground's editor is bundled with npm packages: install Node.js 20 (with npm)")
    dest.mkdir(parents=True, exist_ok=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(HERE / name, dest / name)
    log(f"npm ci (site: CodeMirror, esbuild) into {dest}")
    # --ignore-scripts: esbuild's postinstall only swaps its JS launcher for the native binary, which
    # the launcher finds by itself in the platform package (@esbuild/linux-x64, ...)
    r = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts"], cwd=dest,
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise AssetError(f"npm ci failed in {dest}:\n{r.stdout}\n{r.stderr}")
    stamp.write_text(want)
    return dest / "node_modules"


def bundle(out: Path) -> Path:
    """esbuild: ENTRY and its imports -> one minified ES module at ``out``."""
    nm = node_modules()
    node = shutil.which("node")
    if not node:
        raise AssetError("node is needed to run esbuild: install Node.js 20")
    out.parent.mkdir(parents=True, exist_ok=True)
    cmd = [node, str(nm / "esbuild" / "bin" / "esbuild"), str(ENTRY), "--bundle", "--format=esm", "--minify",
           "--target=es2020", "--legal-comments=eof", "--log-level=warning", f"--outfile={out}",
           "--banner:js=/* borch_webgpu playground editor: CodeMirror 6 (MIT, codemirror.net) and its lezer "
           "Python grammar, from npm (versions in scripts/site/package-lock.json), bundled by esbuild */"]
    # the entry lives in the repo, its packages in the cache: NODE_PATH lets esbuild find them
    r = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "NODE_PATH": str(nm)})
    if r.returncode != 0 or not out.exists():
        raise AssetError(f"esbuild failed to bundle {ENTRY.name}:\n{r.stdout}\n{r.stderr}")
    return out


def build(site_dir: Path) -> None:
    out = bundle(Path(site_dir) / "playground" / "editor.js")
    log(f"playground editor bundle: {out.stat().st_size / 1024:.0f} KiB")
