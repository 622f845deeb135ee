"""A static file server for 127.0.0.1 that sends the cross-origin isolation and security headers.

``Cross-Origin-Opener-Policy: same-origin`` and ``Cross-Origin-Embedder-Policy: require-corp``
give pages ``SharedArrayBuffer`` (Pyodide's interrupt buffer, the playground's Stop button). Every
answer (files, redirects, errors) also carries a Content-Security-Policy that allows only this origin
(plus ``'wasm-unsafe-eval'``, which WebAssembly compilation needs: Pyodide, ONNX Runtime Web) and
``X-Content-Type-Options: nosniff``. Files carry ``ETag`` and ``Last-Modified``; a revalidation that
matches gets ``304`` without the body, so a reload does not download Pyodide again.

``python -m borch_webgpu._server --root DIR [--port N] [--host H]`` serves a folder.
"""
from __future__ import annotations

import argparse
import email.utils
import errno
import html
import mimetypes
import os
import shutil
import sys
import threading
import time
import urllib.parse
from dataclasses import dataclass
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
         ".whl": "application/octet-stream", ".json": "application/json", ".zip": "application/zip",
         ".html": "text/html; charset=utf-8", ".css": "text/css", ".wgsl": "text/plain; charset=utf-8",
         ".svg": "image/svg+xml", ".png": "image/png", ".ico": "image/x-icon", ".bin": "application/octet-stream",
         ".md": "text/plain; charset=utf-8", ".txt": "text/plain; charset=utf-8", ".py": "text/plain; charset=utf-8"}

# 'self' only. script-src: 'wasm-unsafe-eval' lets WebAssembly.compile run (Pyodide, ORT Web) without
# allowing JavaScript eval. worker-src blob: is for ORT Web, which may start its proxy worker from a
# blob URL. img-src data: blob: for images that pages draw into canvases and export.
CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; "
       "connect-src 'self'; img-src 'self' data: blob:; style-src 'self'; font-src 'self'; "
       "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'")
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Referrer-Policy": "same-origin",
}
MAX_COMPONENT = 255     # bytes in one path segment (the usual file-name limit, NAME_MAX)
MAX_THREADS = 32        # requests handled at once; more connections wait in the listen queue
CHUNK = 1 << 16


@dataclass(frozen=True)
class Answer:
    """What a URL path resolves to: a file (200), a redirect (301, location) or an error page."""
    status: int
    path: Path | None = None
    location: str | None = None
    message: str = ""


class Site:
    """What the server serves: a folder and/or explicit URL path -> file entries (checked first)."""

    def __init__(self, root: Path | None = None, files: dict[str, Path] | None = None):
        self.root = Path(root).resolve() if root else None
        self.files = dict(files or {})
        self.body_bytes = 0          # bytes of file bodies sent (or being sent) so far: tests read it
        self._lock = threading.Lock()

    def count(self, n: int) -> None:
        with self._lock:
            self.body_bytes += n

    def answer(self, url_path: str) -> Answer:
        raw, _, query = url_path.split("#", 1)[0].partition("?")
        parts = urllib.parse.unquote(raw).split("/")
        if any(len(p.encode("utf-8", "surrogateescape")) > MAX_COMPONENT for p in parts):
            return Answer(414, message=f"a path component is longer than {MAX_COMPONENT} bytes")
        stack: list[str] = []
        for seg in parts:
            if seg in ("", "."):
                continue
            if seg == ".." or "\0" in seg or "\\" in seg:
                if seg != ".." or not stack:   # climbing out of the site: the same 404 as a missing file
                    return Answer(404)
                stack.pop()
                continue
            stack.append(seg)
        rel = "/".join(stack)
        slash = raw.endswith("/")
        redirect = Answer(301, location="/" + urllib.parse.quote(rel) + "/" + (f"?{query}" if query else ""))
        if rel in self.files and not slash:
            return Answer(200, self.files[rel])
        index = f"{rel}/index.html" if rel else "index.html"
        if index in self.files:
            return Answer(200, self.files[index]) if slash or not rel else redirect
        if self.root is None:
            return Answer(404)
        try:
            p = (self.root / rel).resolve()
            if p != self.root and self.root not in p.parents:   # a link that leads out of the site
                return Answer(404)
            if p.is_dir():
                if not (p / "index.html").is_file():
                    return Answer(404)
                return Answer(200, p / "index.html") if slash or not rel else redirect
            if p.is_file() and not slash:
                return Answer(200, p)
        except OSError:
            pass
        return Answer(404)

    def resolve(self, url_path: str) -> Path | None:
        a = self.answer(url_path)
        return a.path if a.status == 200 else None

    def error_page(self, status: int, message: str = "") -> bytes:
        """The site's own 404.html for 404 (when the site has one), else a short page of ours."""
        if status == 404:
            try:
                page = self.files.get("404.html") or (self.root / "404.html" if self.root else None)
                if page is not None and page.is_file():
                    return page.read_bytes()
            except OSError:
                pass
        from http import HTTPStatus
        try:
            title = f"{status} {HTTPStatus(status).phrase}"
        except ValueError:
            title = str(status)
        text = html.escape(message or title)
        return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>{title}</title></head>'
                f'<body><h1>{title}</h1><p>{text}</p><p><a href="/">borch_webgpu</a></p></body></html>\n').encode()


def _etag(st) -> str:
    return f'"{st.st_size:x}-{st.st_mtime_ns:x}"'


def _not_modified(headers, etag: str, mtime: float) -> bool:
    inm = headers.get("If-None-Match")
    if inm is not None:
        tags = [t.strip().removeprefix("W/") for t in inm.split(",")]
        return "*" in tags or etag in tags
    ims = headers.get("If-Modified-Since")
    if ims:
        try:
            return int(mtime) <= email.utils.parsedate_to_datetime(ims).timestamp()
        except (TypeError, ValueError, OverflowError):
            return False
    return False


def make_handler(site: Site, quiet: bool = True):
    class Handler(SimpleHTTPRequestHandler):
        timeout = 60   # a client that sends nothing for this long is dropped (it holds a thread)
        server_version = "borch_webgpu"   # not Python's version
        sys_version = ""

        def do_GET(self):  # noqa: N802
            self._serve(head=False)

        def do_HEAD(self):  # noqa: N802
            self._serve(head=True)

        def end_headers(self):
            for k, v in SECURITY_HEADERS.items():
                self.send_header(k, v)
            super().end_headers()

        def send_error(self, code, message=None, explain=None):
            body = site.error_page(code, message or "")
            self.send_response(code)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Connection", "close")
            self.close_connection = True
            self.end_headers()
            if getattr(self, "command", None) != "HEAD" and code >= 200 and code not in (204, 304):
                self._write(body)

        def _write(self, data: bytes) -> None:
            try:
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass

        def _serve(self, head: bool):
            a = site.answer(self.path)
            if a.status == 301:
                self.send_response(301)
                self.send_header("Location", a.location)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            if a.status != 200:
                self.send_error(a.status, a.message)
                return
            p = a.path
            try:
                f = p.open("rb")
            except OSError:
                self.send_error(404)
                return
            with f:
                st = os.fstat(f.fileno())
                etag = _etag(st)
                self.send_response(304 if _not_modified(self.headers, etag, st.st_mtime) else 200)
                self.send_header("ETag", etag)
                self.send_header("Last-Modified", email.utils.formatdate(st.st_mtime, usegmt=True))
                self.send_header("Cache-Control", "no-cache")   # revalidate each time: a 304 is cheap
                if self._status == 304:
                    self.end_headers()
                    return
                ctype = TYPES.get(p.suffix) or mimetypes.guess_type(p.name)[0] or "application/octet-stream"
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(st.st_size))
                self.end_headers()
                if head:
                    return
                site.count(st.st_size)   # before the bytes go out: a client that has them sees the count
                try:
                    shutil.copyfileobj(f, self.wfile, CHUNK)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        def send_response(self, code, message=None):
            self._status = code
            super().send_response(code, message)

        def log_message(self, fmt, *args):
            if not quiet:
                super().log_message(fmt, *args)

    return Handler


class _Server(ThreadingHTTPServer):
    """ThreadingHTTPServer with at most MAX_THREADS requests in flight and a deep listen queue."""
    daemon_threads = True
    request_queue_size = 256

    def __init__(self, addr, handler, max_threads: int = MAX_THREADS, quiet: bool = True):
        self._slots = threading.BoundedSemaphore(max_threads)
        self._count_lock = threading.Lock()
        self.in_flight = 0
        self.peak = 0            # the most requests handled at once (tests read it)
        self.quiet = quiet
        super().__init__(addr, handler)

    def process_request(self, request, client_address):
        self._slots.acquire()
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def process_request_thread(self, request, client_address):
        with self._count_lock:
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)
        try:
            super().process_request_thread(request, client_address)
        finally:
            with self._count_lock:
                self.in_flight -= 1
            self._slots.release()

    def handle_error(self, request, client_address):
        if not self.quiet:   # one line, not a traceback
            e = sys.exc_info()[1]
            sys.stderr.write(f"borch_webgpu server: request from {client_address[0]} failed: {e!r}\n")


def serve(site: Site, host: str = "127.0.0.1", port: int = 0, quiet: bool = True) -> ThreadingHTTPServer:
    """Start serving in a daemon thread; the bound port is ``server.server_address[1]``."""
    httpd = _Server((host, port), make_handler(site, quiet), quiet=quiet)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def main(argv: list[str] | None = None, default_root: Path | None = None) -> int:
    ap = argparse.ArgumentParser(prog="serve", description="Serve the built site on 127.0.0.1.")
    ap.add_argument("--root", type=Path, default=default_root, required=default_root is None)
    ap.add_argument("--port", type=int, default=8000)
    ap.add_argument("--host", default="127.0.0.1")
    ns = ap.parse_args(argv)
    if not (ns.root / "index.html").is_file():
        print(f"serve: {ns.root} has no index.html: run python scripts/build_site.py first", file=sys.stderr)
        return 1
    try:
        httpd = serve(Site(root=ns.root), ns.host, ns.port, quiet=False)
    except OSError as e:
        why = ("is already in use (is another server running? stop it, or pick a port with --port N)"
               if e.errno == errno.EADDRINUSE else f"cannot be opened: {e.strerror or e}")
        print(f"serve: {ns.host}:{ns.port} {why}", file=sys.stderr)
        return 1
    print(f"serving borch_webgpu on http://{ns.host}:{httpd.server_address[1]}/  (Ctrl+C stops)", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        httpd.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
