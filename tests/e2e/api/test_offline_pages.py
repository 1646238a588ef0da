"""Every page the API serves works with no network: it references no other host, and every script and style sheet it
names is served by the API itself (issue 44: GraphiQL loaded its scripts from a CDN and stayed on "Loading...")."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

from fastapi.testclient import TestClient
from starlette.routing import Route

from app.api.server import create_app
from app.api.services import ApiServices
from engram.settings import EngramSettings

BASE = "http://testserver"


class _References(HTMLParser):
    """The URLs a page loads: scripts, style sheets, images, frames, and any absolute URL inside a script."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        for attribute in ("src", "href") if tag in ("script", "link", "img", "iframe", "source") else ():
            if named.get(attribute):
                self.urls.append(str(named[attribute]))
        self._in_script = tag == "script"

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:  # import("https://..."), fetch("//cdn..."): loaded from elsewhere all the same
            self.urls += re.findall(r"""["'`]((?:https?:)?//[^"'`\s]+)""", data)


def test_every_page_and_what_it_loads_come_from_the_api(settings: EngramSettings, services: ApiServices) -> None:
    dev = settings.model_copy(update={"api": settings.api.model_copy(update={"development": True})})
    app = create_app(dev, services)
    # Every GET path: the documented ones (the GraphQL router's among them) and the app's own routes (/mcp).
    documented = {path for path, methods in app.openapi()["paths"].items() if "get" in methods}
    mounted = {route.path for route in app.routes if isinstance(route, Route) and "GET" in (route.methods or set())}
    paths = sorted(path for path in documented | mounted if "{" not in path)
    assert "/graphql" in paths
    pages: dict[str, list[str]] = {}
    with TestClient(app, base_url=BASE) as client:
        for path in paths:
            response = client.get(path, headers={"accept": "text/html"})
            if response.status_code == 200 and response.headers["content-type"].startswith("text/html"):
                parser = _References()
                parser.feed(response.text)
                pages[path] = parser.urls
        assert "/graphql" in pages, "development mode serves a page at /graphql"
        for path, urls in pages.items():
            for url in (url for url in urls if not url.startswith("data:")):  # inline data needs no network
                absolute = urljoin(f"{BASE}{path}", url)
                assert urlsplit(absolute).netloc == urlsplit(BASE).netloc, f"{path} loads {url} from another host"
                assert client.get(absolute).status_code == 200, f"{path} loads {url}, which the API does not serve"
        # The page itself says where queries go and how to send the key.
        page = client.get("/graphql", headers={"accept": "text/html"}).text
        assert "Authorization: Bearer" in page and "graphql/schema.graphql" in page
