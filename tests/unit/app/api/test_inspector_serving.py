"""/inspector serves the built web/ app with its Content-Security-Policy, never a file outside the build, and says
so when the app is not built."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.api.inspector import mount_inspector


def _client(dist: Path) -> TestClient:
    app = FastAPI()
    mount_inspector(app, dist)
    return TestClient(app)


def _built(tmp_path: Path) -> Path:
    dist = tmp_path / "dist"
    (dist / "assets").mkdir(parents=True)
    (dist / "index.html").write_text("<!doctype html><script type=module src=/inspector/assets/a.js></script>")
    (dist / "assets" / "a.js").write_text("console.log(1)")
    (tmp_path / "secret.txt").write_text("not for the web")
    return dist


def test_the_page_and_its_assets_carry_the_policy(tmp_path: Path) -> None:
    client = _client(_built(tmp_path))
    page = client.get("/inspector/")
    assert page.status_code == 200 and "<script" in page.text
    policy = page.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy
    assert "default-src 'none'" in policy and "frame-ancestors 'none'" in policy
    assert page.headers["cache-control"] == "no-cache"
    asset = client.get("/inspector/assets/a.js")
    assert asset.text == "console.log(1)" and "immutable" in asset.headers["cache-control"]
    assert asset.headers["content-security-policy"] == policy
    assert client.get("/inspector", follow_redirects=False).headers["location"] == "/inspector/"


def test_no_file_outside_the_build_is_served(tmp_path: Path) -> None:
    client = _client(_built(tmp_path))
    for path in ("/inspector/../secret.txt", "/inspector/%2e%2e/secret.txt", "/inspector/assets/../../secret.txt"):
        answer = client.get(path)
        assert "not for the web" not in answer.text, path


def test_an_unbuilt_inspector_says_how_to_build_it(tmp_path: Path) -> None:
    answer = _client(tmp_path / "missing").get("/inspector/")
    assert answer.status_code == 503 and "infra/install.sh" in answer.json()["error"]
