"""The site server (borch_webgpu/_server.py) over a real loopback socket: security headers on every
answer, directory redirects, the site's own 404 page, one answer for every path outside the site,
over-long path components, HTTP validators (304), a busy port, and 200 concurrent requests."""
from __future__ import annotations

import concurrent.futures
import hashlib
import http.client
import os
import random
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from borch_webgpu._server import MAX_THREADS, Site, serve

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def tree(tmp_path):
    """tmp/site is served; tmp/outside (a folder) and tmp/secret.txt sit next to it, outside the site."""
    site = tmp_path / "site"
    (site / "lessons").mkdir(parents=True)
    (site / "index.html").write_text("<html>home</html>")
    (site / "404.html").write_text("<html><h1 id=not-found>our 404 page</h1></html>")
    (site / "lessons" / "index.html").write_text("<html>lessons</html>")
    (site / "lessons" / "01.html").write_text("<html>lesson 1</html>")
    (site / "app.mjs").write_text("export const x = 1;\n")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "index.html").write_text("outside")
    (tmp_path / "secret.txt").write_text("secret")
    (site / "link").symlink_to(tmp_path / "outside")
    return site


@pytest.fixture
def server(tree):
    site = Site(root=tree)
    httpd = serve(site)
    yield site, httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()


def get(port, path, headers=None, method="GET"):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        c.request(method, path, headers=headers or {})
        r = c.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        c.close()


def test_every_answer_carries_the_security_headers(server):
    _, port = server
    for path, status in (("/", 200), ("/app.mjs", 200), ("/lessons", 301), ("/nope", 404), ("/" + "x" * 300, 414)):
        got, h, _ = get(port, path)
        assert got == status, path
        csp = h.get("content-security-policy", "")
        directives = dict((d.split(" ", 1) + [""])[:2] for d in (x.strip() for x in csp.split(";")) if d)
        assert directives.get("default-src") == "'self'", (path, csp)
        assert directives.get("script-src") == "'self' 'wasm-unsafe-eval'", (path, csp)
        assert directives.get("object-src") == "'none'" and "http" not in csp and "'unsafe-eval'" not in csp
        assert h.get("x-content-type-options") == "nosniff", path
        assert h.get("cross-origin-opener-policy") == "same-origin", path
        assert h.get("cross-origin-embedder-policy") == "require-corp", path
    h = get(port, "/app.mjs")[1]
    assert h["content-type"] == "text/javascript" and "python" not in h["server"].lower(), h


def test_a_folder_without_its_slash_redirects(server, tree):
    _, port = server
    status, h, _ = get(port, "/lessons?x=1")
    assert (status, h["location"]) == (301, "/lessons/?x=1")
    assert get(port, "/lessons/")[2] == b"<html>lessons</html>"
    # the same in a Site made of explicit entries (the runner's)
    httpd = serve(Site(files={"playground/index.html": tree / "index.html", "a.js": tree / "app.mjs"}))
    try:
        p = httpd.server_address[1]
        assert get(p, "/playground")[:2][0] == 301 and get(p, "/playground")[1]["location"] == "/playground/"
        assert get(p, "/playground/")[0] == 200 and get(p, "/a.js")[0] == 200
        assert get(p, "/a.js/")[0] == 404
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_missing_pages_get_the_sites_404_page(server):
    _, port = server
    status, h, body = get(port, "/lessons/99-missing.html")
    assert status == 404 and h["content-type"].startswith("text/html")
    assert b"our 404 page" in body and b"Error response" not in body
    assert get(port, "/nope", method="HEAD")[2] == b""


def test_paths_outside_the_site_get_one_answer_whether_or_not_they_exist(server):
    _, port = server
    answers = {path: get(port, path)[:3:2] for path in (
        "/../outside", "/../outside/", "/../nowhere", "/../nowhere/", "/../secret.txt", "/../missing.txt",
        "/%2e%2e/secret.txt", "/lessons/../../secret.txt", "/..%2fsecret.txt", "/link/", "/link/index.html",
        "/lessons/..\\..\\secret.txt", "/a%00b")}
    assert set(answers.values()) == {answers["/../nowhere"]}, answers
    assert answers["/../nowhere"][0] == 404
    assert get(port, "/lessons/../index.html")[2] == b"<html>home</html>"   # inside the site: fine


def test_an_over_long_path_component_gets_414_with_a_message(server):
    _, port = server
    for path in ("/" + "a" * 256, "/lessons/" + "b" * 5000 + "/c", "/" + "%C3%A9" * 200):
        status, _, body = get(port, path)
        assert status == 414, path
        assert b"longer than 255 bytes" in body
    assert get(port, "/" + "a" * 255)[0] == 404


def test_files_carry_validators_and_a_match_gets_304(server, tree):
    site, port = server
    status, h, body = get(port, "/app.mjs")
    assert status == 200 and h["etag"] and h["last-modified"]
    sent = site.body_bytes
    status, h2, body2 = get(port, "/app.mjs", {"If-None-Match": h["etag"]})
    assert (status, body2, h2["etag"]) == (304, b"", h["etag"])
    assert get(port, "/app.mjs", {"If-Modified-Since": h["last-modified"]})[0] == 304
    assert site.body_bytes == sent           # no body went out for either 304
    f = tree / "app.mjs"
    f.write_text("export const x = 2;\n")
    os.utime(f, (time.time() + 5, time.time() + 5))
    status, h3, body3 = get(port, "/app.mjs", {"If-None-Match": h["etag"]})
    assert status == 200 and body3 == b"export const x = 2;\n" and h3["etag"] != h["etag"]


def test_a_busy_port_gets_one_readable_line(tree):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        r = subprocess.run([sys.executable, "-m", "borch_webgpu._server", "--root", str(tree), "--port", str(port)],
                           capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 1
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    assert f"127.0.0.1:{port} is already in use" in r.stderr and "--port" in r.stderr


def test_200_concurrent_requests_get_the_right_bytes(tmp_path):
    """200 clients at once over loopback, each checking the sha256 of what it got; the server handles at
    most MAX_THREADS at a time (the rest wait in the listen queue) and every one is answered."""
    rng = random.Random(0)
    want = {}
    for i in range(40):
        data = rng.randbytes(rng.choice((10, 1000, 50_000, 400_000)))
        (tmp_path / f"f{i}.bin").write_bytes(data)
        want[f"/f{i}.bin"] = hashlib.sha256(data).hexdigest()
    (tmp_path / "index.html").write_text("<html></html>")
    site = Site(root=tmp_path)
    httpd = serve(site)
    port = httpd.server_address[1]
    paths = [f"/f{i % 40}.bin" for i in range(200)]

    def fetch(path):
        status, _, body = get(port, path)
        return path, status, hashlib.sha256(body).hexdigest()

    t0 = time.perf_counter()
    try:
        with concurrent.futures.ThreadPoolExecutor(200) as pool:
            results = list(pool.map(fetch, paths, timeout=120))
    finally:
        httpd.shutdown()
        httpd.server_close()
    elapsed = time.perf_counter() - t0
    assert len(results) == 200
    bad = [(p, s) for p, s, h in results if s != 200 or h != want[p]]
    assert not bad, bad
    assert 1 <= httpd.peak <= MAX_THREADS, httpd.peak
    assert elapsed < 60, elapsed

