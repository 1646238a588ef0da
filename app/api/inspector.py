"""The memory inspector (web/, built by infra/install.sh into web/dist) at /inspector: the same origin as /graphql, so
the page needs no CDN and no cross-origin grant; every answer carries a Content-Security-Policy that allows only this
origin's scripts and styles (no inline script, no eval) and the API's own HTTP and WebSocket endpoints."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse, Response

from engram.assets import INSPECTOR, asset_dir

INSPECTOR_DIST = asset_dir(INSPECTOR)  # web/dist, shipped in the package
PREFIX = "/inspector"
# 'self' in connect-src covers ws:/wss: to the same host (CSP level 3), which graphql-ws uses for job progress.
# GraphiQL's style sheet carries its fonts and icons as data: URLs (fonts and images: nothing that runs).
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; font-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'"
)
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def _file(dist: Path, path: str) -> Path | None:
    """The built file for `path`, never one outside `dist`; the page itself for any other path (hash routing)."""
    wanted = (dist / path).resolve()
    if path and wanted.is_file() and wanted.is_relative_to(dist.resolve()):
        return wanted
    index = dist / "index.html"
    return index if index.is_file() else None


def mount_inspector(app: FastAPI, dist: Path = INSPECTOR_DIST) -> None:
    @app.get(PREFIX, include_in_schema=False)
    async def inspector_root() -> Response:
        return RedirectResponse(f"{PREFIX}/", status_code=308, headers=HEADERS)

    @app.get(PREFIX + "/{path:path}", include_in_schema=False)
    async def inspector(path: str) -> Response:
        found = _file(dist, path)
        if found is None:
            return JSONResponse(
                {"error": f"the inspector is not built ({dist} has no index.html): run infra/install.sh"},
                status_code=503,
                headers=HEADERS,
            )
        # Hashed asset names change with their content: cache them for good, the page never.
        immutable = found.parent.name == "assets"
        cache = "public, max-age=31536000, immutable" if immutable else "no-cache"
        return FileResponse(found, headers={**HEADERS, "Cache-Control": cache})
