"""The browser client is served by the real server (``python -m server``): the page, its
module, the vendored msgpack library, and nothing outside ``client_web/``."""

from __future__ import annotations

import http.client
import re
from collections.abc import Iterator

import pytest

from .conftest import ROOT, _free_port, serve

CLIENT = ROOT / "client_web"
MSGPACK = "/vendor/msgpack/dist.esm/index.mjs"


def _get(port: int, path: str) -> tuple[int, str, bytes]:
    """GET with the path sent as written (no client-side normalisation of ``..``)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.getheader("Content-Type") or "", response.read()
    finally:
        conn.close()


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    data = tmp_path_factory.mktemp("data")
    number = _free_port()
    with serve(["--port", str(number), "--data", str(data)], data):
        yield number


def test_root_serves_the_page_with_its_module(port: int) -> None:
    status, kind, body = _get(port, "/")
    assert status == 200
    assert kind.startswith("text/html")
    html = body.decode()
    assert re.search(r'<script type="module" src="js/main\.js"></script>', html)
    assert 'name="viewport"' in html
    assert _get(port, "/index.html")[2] == body


@pytest.mark.parametrize("path", ["/js/main.js", "/js/net.js", MSGPACK])
def test_scripts_are_served_as_javascript(port: int, path: str) -> None:
    status, kind, body = _get(port, path)
    assert status == 200
    assert "javascript" in kind
    assert body


def test_style_is_served_as_css(port: int) -> None:
    status, kind, _ = _get(port, "/style.css")
    assert status == 200
    assert kind.startswith("text/css")


def test_the_connection_imports_the_vendored_msgpack() -> None:
    source = (CLIENT / "js" / "net.js").read_text()
    assert f'from "..{MSGPACK}"' in source


def test_every_module_of_the_vendored_msgpack_is_served(port: int) -> None:
    """Follow the relative imports of the ESM build: none may be missing."""
    seen: set[str] = set()
    todo = [MSGPACK]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        status, kind, body = _get(port, path)
        assert status == 200, path
        assert "javascript" in kind, path
        base = path.rsplit("/", 1)[0]
        for target in re.findall(r'(?:from|import)\s*"(\.{1,2}/[^"]+)"', body.decode()):
            parts = base.split("/")
            for piece in target.split("/"):
                if piece == "..":
                    parts.pop()
                elif piece != ".":
                    parts.append(piece)
            todo.append("/".join(parts))
    assert len(seen) > 5
    assert (CLIENT / "vendor/msgpack/LICENSE").is_file()


@pytest.mark.parametrize(
    "path",
    [
        "/../pyproject.toml",
        "/%2e%2e/pyproject.toml",
        "/%2E%2E%2Fpyproject.toml",
        "/..%2fpyproject.toml",
        "/vendor/../../pyproject.toml",
        "/vendor/msgpack/../../../server/__main__.py",
        "//etc/passwd",
        "/vendor/",
        "/no-such-file.js",
    ],
)
def test_nothing_outside_client_web_is_served(port: int, path: str) -> None:
    status, _, body = _get(port, path)
    assert status == 404, (path, body[:100])
    assert b"[project]" not in body


def test_every_module_of_the_page_is_served_from_main(port: int) -> None:
    """The page's ES modules: all reached from js/main.js by their imports, all served."""
    seen: set[str] = set()
    todo = ["/js/main.js"]
    while todo:
        path = todo.pop()
        if path in seen or path.startswith("/vendor/"):
            continue
        seen.add(path)
        status, kind, body = _get(port, path)
        assert status == 200 and "javascript" in kind, path
        base = path.rsplit("/", 1)[0]
        for target in re.findall(r'(?:from|import)\s*"(\.{1,2}/[^"]+)"', body.decode()):
            parts = base.split("/")
            for piece in target.split("/"):
                if piece == "..":
                    parts.pop()
                elif piece != ".":
                    parts.append(piece)
            todo.append("/".join(parts))
    on_disk = {f"/js/{p.name}" for p in (CLIENT / "js").glob("*.js")}
    assert seen == on_disk, on_disk ^ seen


def test_modules_are_small_and_share_one_store() -> None:
    """One module per view, each small; the page's mutable state lives in store.js only (no
    other module declares a top-level `let` or `var`); the pots are the server's (no copy of
    the engine's pot layering in the page)."""
    for path in sorted((CLIENT / "js").glob("*.js")):
        source = path.read_text()
        assert source.count("\n") < 450, path.name
        if path.name != "store.js":
            assert not re.search(r"^(let|var)\s", source, re.M), path.name
        assert "layerPots" not in source and "computePots" not in source, path.name
    assert not (CLIENT / "pots.js").exists() and not (CLIENT / "app.js").exists()
