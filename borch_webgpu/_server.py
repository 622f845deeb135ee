"""A static file server for 127.0.0.1 that sends the cross-origin isolation headers.

``Cross-Origin-Opener-Policy: same-origin`` and ``Cross-Origin-Embedder-Policy: require-corp``
give pages ``SharedArrayBuffer`` (Pyodide's interrupt buffer, the playground's Stop button).
"""
from __future__ import annotations

import mimetypes
import posixpath
import threading
import urllib.parse
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
         ".whl": "application/octet-stream", ".json": "application/json", ".zip": "application/zip",
         ".html": "text/html; charset=utf-8", ".css": "text/css", ".wgsl": "text/plain; charset=utf-8",
         ".svg": "image/svg+xml", ".png": "image/png", ".bin": "application/octet-stream",
         ".md": "text/plain; charset=utf-8"}


class Site:
    """What the server serves: a folder and/or explicit URL path -> file entries (checked first)."""

    def __init__(self, root: Path | None = None, files: dict[str, Path] | None = None):
        self.root = Path(root) if root else None
        self.files = dict(files or {})

    def resolve(self, url_path: str) -> Path | None:
        path = posixpath.normpath(urllib.parse.unquote(url_path.split("?", 1)[0].split("#", 1)[0])).lstrip("/")
        if path in (".", ""):
            path = "index.html"
        if path.startswith(".."):
            return None
        if path in self.files:
            return self.files[path]
        if self.root is not None:
            p = self.root / path
            if p.is_dir():
                p = p / "index.html"
            if p.is_file():
                return p
        return None


def make_handler(site: Site, quiet: bool = True):
    class Handler(SimpleHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            self._serve(head=False)

        def do_HEAD(self):  # noqa: N802
            self._serve(head=True)

        def _serve(self, head: bool):
            p = site.resolve(self.path)
            if p is None:
                if self.path.rstrip("/").split("?")[0] and site.root is not None and \
                        (site.root / self.path.lstrip("/").split("?")[0]).is_dir() and not self.path.endswith("/"):
                    self.send_response(301)
                    self.send_header("Location", self.path + "/")
                    self.end_headers()
                    return
                self.send_error(404, "not found")
                return
            data = p.read_bytes()
            ctype = TYPES.get(p.suffix) or mimetypes.guess_type(p.name)[0] or "application/octet-stream"
            self.send_response(200)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
            self.send_header("Cross-Origin-Resource-Policy", "same-origin")
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            if not head:
                try:
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        def log_message(self, fmt, *args):
            if not quiet:
                super().log_message(fmt, *args)

    return Handler


def serve(site: Site, host: str = "127.0.0.1", port: int = 0, quiet: bool = True) -> ThreadingHTTPServer:
    """Start serving in a daemon thread; the bound port is ``server.server_address[1]``."""
    httpd = ThreadingHTTPServer((host, port), make_handler(site, quiet))
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd
