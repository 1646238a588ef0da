"""The memory inspector (web/) in Debian's headless Chromium against the test stack, where things go wrong, and by
keyboard alone (in the style of test_inspector.py, whose Page drives the browser):

  - a key revoked while the page is open: the next call is refused, the page says so and goes back to the sign-in
    page, keeping nothing (no key in sessionStorage, nothing in localStorage or cookies, no memory text on the page);
  - the API down, then back: the page is loaded through a TCP proxy this test starts and stops (the test stack's
    API runs on for the tests after this one); while it is stopped a call shows the "does not answer" banner with a
    Retry (the session is kept), and Retry after it is back draws the page;
  - an upload over the API's body limit: the server's refusal (413, PAYLOAD_TOO_LARGE) is shown;
  - the Memories view's session and agent filters, alone and together, over episodes remembered with each;
  - sign-in, search and forget with the keyboard only (Tab, Shift+Tab, typing, Enter): the confirmation takes the
    focus on Cancel.

The upload and keyboard tests ran green against the test stack; the first run of the other three failed on what the
test itself got wrong (a key revoked through graph.api_keys in a tree whose driver routed that write as a read, the
proxy's listener closed while its accept thread still held it, an episode's text read without its speaker prefix).
Their fixes have not run yet, so they are marked skip until they do.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import neo4j
import pytest

from engram.settings import EngramSettings
from graph.admin import delete_space
from graph.api_keys import ApiKeyStore
from tests.e2e.test_inspector import CHROMEDRIVER, CHROMIUM, Page
from tests.support.graphql_client import GraphQL, operation

pytestmark = pytest.mark.skipif(
    not (CHROMIUM and CHROMEDRIVER),
    reason="Chromium or chromedriver is not installed (infra/install.sh installs Debian chromium + chromium-driver)",
)

REFUSED = "The key was refused"
DOWN = "The API does not answer"


@dataclass
class Space:
    name: str
    key: str
    key_id: str
    keys: ApiKeyStore


@pytest.fixture()
def space(settings: EngramSettings, driver: neo4j.Driver) -> Iterator[Space]:
    name = f"test-inspector-fail-{uuid.uuid4().hex[:8]}"
    keys = ApiKeyStore(driver, settings.neo4j.database)
    keys.create_space(name)
    issued = keys.issue(name, "inspector")
    try:
        yield Space(name, issued.secret, issued.info.id, keys)
    finally:
        delete_space(driver, settings.neo4j.database, name)


def _origin(settings: EngramSettings) -> str:
    origin = f"http://{settings.api.host}:{settings.api.port}"
    assert httpx.get(f"{origin}/inspector/").status_code == 200, "the inspector is not built: infra/install.sh"
    return origin


def _remember(origin: str, key: str, turns: list[dict[str, Any]]) -> None:
    """Remembers each turn through the API and waits for its job."""
    with httpx.Client(base_url=origin, timeout=60) as http:
        gql = GraphQL(http, key)
        for turn in turns:
            job = gql(operation("remember"), turn)["remember"]
            assert job["__typename"] == "Job", job
            gql.wait_for_job(job["id"], timeout_s=600)


def _sign_in(page: Page, key: str) -> None:
    page.go("")
    page.fill("#space-key", key)
    page.find(".signin button[type=submit]").click()
    page.find("header nav")


def _quit(page: Page) -> list[dict[str, Any]]:
    try:
        return list(page.console) + list(page.browser.get_log("browser"))
    finally:
        page.browser.quit()


def _storage(page: Page) -> dict[str, Any]:
    return dict(
        page.browser.execute_script(
            "return {session: sessionStorage.length, local: localStorage.length, cookies: document.cookie}"
        )
    )


def test_a_key_revoked_while_the_page_is_open_ends_the_session_keeping_nothing(
    settings: EngramSettings, space: Space, tmp_path: Path
) -> None:
    origin = _origin(settings)
    user = f"rita-{uuid.uuid4().hex[:6]}"
    _remember(origin, space.key, [{"text": "Rita's locker code is 4711.", "user": user, "session": "s1"}])
    with httpx.Client(base_url=origin, timeout=60) as http:  # the owner mints the key the tab signs in with
        owner = GraphQL(http, space.key)
        minted = owner(operation("api_keys"), {"label": "inspector tab"}, operation_name="CreateApiKey")
    tab_key, tab_key_id = minted["createApiKey"]["secret"], minted["createApiKey"]["key"]["id"]
    page = Page(origin, tmp_path)
    try:
        _sign_in(page, tab_key)
        page.find(f"tr[data-user='{user}']")
        page.go(f"#/memories?user={user}")
        page.find("form.filters button[type=button]").click()  # the timeline: the turn's own text
        page.until_text("locker code is 4711")
        assert _storage(page)["session"] == 1  # the key, in this tab only

        with httpx.Client(base_url=origin, timeout=60) as http:  # the owner revokes it while the page is open
            revoked = GraphQL(http, space.key)(
                operation("api_keys"), {"id": tab_key_id}, operation_name="RevokeApiKey"
            )["revokeApiKey"]
        assert revoked["__typename"] == "ApiKey" and revoked["revokedAt"], revoked

        page.go(f"#/search?user={user}")  # the next call carries the revoked key
        page.fill("#query", "What is Rita's locker code?")
        page.find("form.search button[type=submit]").click()
        alert = page.find(".signin [role=alert]")
        page.wait.until(lambda b: REFUSED in alert.text, "no word that the key was refused")
        page.check("revoked")
        assert page.find("#space-key").get_attribute("value") == ""
        assert _storage(page) == {"session": 0, "local": 0, "cookies": ""}
        assert "4711" not in page.text() and user not in page.text()  # nothing of the space is left on the page
        assert not page.browser.find_elements("css selector", "header nav")

        page.browser.back()  # Back does not bring the space back either: the page is the sign-in page still
        page.find("#space-key")
        assert "4711" not in page.text()
    finally:
        console = _quit(page)
    assert not page.violations, json.dumps(page.violations, indent=1)
    errors = [e["message"] for e in console if e["level"] == "SEVERE" and "401" not in e["message"]]
    assert not errors, errors


class Proxy:
    """A TCP proxy to the API on a port of its own, stopped (connections refused) and started again at will."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.port = 0
        self._listener: socket.socket | None = None
        self._acceptor: threading.Thread | None = None
        self._sockets: set[socket.socket] = set()
        self._lock = threading.Lock()

    def start(self) -> None:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        listener.settimeout(0.2)
        self.port = listener.getsockname()[1]
        self._listener = listener
        self._acceptor = threading.Thread(target=self._accept, args=(listener,), daemon=True)
        self._acceptor.start()

    def stop(self) -> None:
        listener, self._listener = self._listener, None
        if listener is not None:
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)
            listener.close()
        if self._acceptor is not None:  # until it is gone the kernel still queues (then resets) connections
            self._acceptor.join(timeout=10)
            self._acceptor = None
        with self._lock:
            doomed, self._sockets = self._sockets, set()
        for sock in doomed:
            _close(sock)

    def _accept(self, listener: socket.socket) -> None:
        while self._listener is listener:
            try:
                client, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            try:
                server = socket.create_connection(self.upstream, timeout=10)
            except OSError:
                _close(client)
                continue
            client.settimeout(None)
            server.settimeout(None)
            with self._lock:
                self._sockets |= {client, server}
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                _close(sock)
                with self._lock:
                    self._sockets.discard(sock)


def _close(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()


def test_the_api_down_then_back_shows_a_banner_and_retry_recovers(
    settings: EngramSettings, space: Space, tmp_path: Path
) -> None:
    origin = _origin(settings)
    user = f"otto-{uuid.uuid4().hex[:6]}"
    _remember(origin, space.key, [{"text": "Otto waters the ferns on Sundays.", "user": user}])
    proxy = Proxy((settings.api.host, settings.api.port))
    proxy.start()
    proxied = f"http://127.0.0.1:{proxy.port}"
    page = Page(proxied, tmp_path)
    try:
        _sign_in(page, space.key)
        page.find(f"tr[data-user='{user}']")

        proxy.stop()  # the API is down, as far as the page can tell
        with pytest.raises(httpx.ConnectError):
            httpx.get(f"{proxied}/inspector/", timeout=5)
        page.go(f"#/search?user={user}")
        page.fill("#query", "When does Otto water the ferns?")
        page.find("form.search button[type=submit]").click()
        banner = page.find(".banner[role=alert]")
        page.wait.until(lambda b: DOWN in banner.text, "no banner saying the API does not answer")
        assert _storage(page)["session"] == 1  # an outage does not end the session
        # The search waits for the person's choice (Retry or Dismiss), saying so on its button.
        assert page.find("form.search button[type=submit]").text == "Searching…"
        page.check("api-down")

        page.find(".banner button").click()  # Retry, still down: the banner comes back
        page.wait.until(lambda b: DOWN in page.find(".banner[role=alert]").text, "no banner after a failed retry")

        proxy.start()  # back, on the same port
        page.find(".banner button").click()  # Retry
        page.wait.until(lambda b: not b.find_elements("css selector", ".banner"), "the banner stayed")
        result = page.find(".results")
        page.wait.until(lambda b: "ferns" in result.text, "the retried recall drew nothing")
        page.check("api-back")
    finally:
        console = _quit(page)
        proxy.stop()
    assert not page.violations, json.dumps(page.violations, indent=1)
    # The refused connections are logged by the browser; nothing else may be.
    errors = [
        e["message"]
        for e in console
        if e["level"] == "SEVERE"
        and "ERR_CONNECTION_REFUSED" not in e["message"]
        and "Failed to fetch" not in e["message"]
    ]
    assert not errors, errors


def test_an_upload_over_the_limit_shows_the_servers_refusal(
    settings: EngramSettings, space: Space, tmp_path: Path
) -> None:
    origin = _origin(settings)
    limit = settings.api.max_body_bytes
    turn = "x" * 1000
    records = [
        {
            "type": "conversation",
            "id": f"big-{i}",
            "sessions": [{"id": "s", "turns": [{"speaker": "ana", "text": turn}]}],
        }
        for i in range(limit // 1000 + 100)
    ]
    upload = tmp_path / "too-big.jsonl"
    upload.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    assert upload.stat().st_size > limit
    page = Page(origin, tmp_path)
    try:
        _sign_in(page, space.key)
        page.go("#/remember")
        page.find("#remember-file").send_keys(str(upload))
        page.find("form.remember button[type=submit]").click()
        banner = page.find(".banner[role=alert]")
        page.wait.until(lambda b: "413" in banner.text, "no refusal shown")
        assert f"request body over {limit} bytes" in banner.text, banner.text  # the server's own words
        assert _storage(page)["session"] == 1  # a refused upload does not end the session
        page.check("upload-refused")
    finally:
        console = _quit(page)
    with httpx.Client(base_url=origin, timeout=60) as http:
        stats = GraphQL(http, space.key)("query { stats { episodes sources } }", {})["stats"]
    assert stats == {"episodes": 0, "sources": 0}  # nothing of it was written
    assert not page.violations, json.dumps(page.violations, indent=1)
    errors = [e["message"] for e in console if e["level"] == "SEVERE" and "413" not in e["message"]]
    assert not errors, errors


def test_the_session_and_agent_filters(settings: EngramSettings, space: Space, tmp_path: Path) -> None:
    origin = _origin(settings)
    user = f"mia-{uuid.uuid4().hex[:6]}"
    said = {
        ("planner", "s1"): "Mia plans the trip to Oslo.",
        ("planner", "s2"): "Mia books a hotel near the fjord.",
        ("coach", "s1"): "Mia runs five kilometres each morning.",
        (None, "s3"): "Mia reads a novel about sailors.",
    }
    _remember(
        origin,
        space.key,
        [{"text": text, "user": user, "agent": agent, "session": session} for (agent, session), text in said.items()],
    )
    page = Page(origin, tmp_path)

    def timeline(session: str, agent: str) -> set[str]:
        from selenium.webdriver.common.keys import Keys

        for field, value in (("session", session), ("agent", agent)):
            box = page.find(f"form.filters input[name={field}]")
            box.send_keys(Keys.CONTROL, "a")  # typed over as a person would (clear() is unseen by React)
            box.send_keys(Keys.BACKSPACE)
            if value:
                box.send_keys(value)
            page.wait.until(lambda b, box=box, value=value: box.get_attribute("value") == value)
        before = page.browser.execute_script("return document.querySelector('p.count').dataset.pages")
        page.find("form.filters button[type=button]").click()  # the timeline of episodes, with the filters
        page.wait.until(
            lambda b: (
                b.execute_script("return document.querySelector('p.count').dataset.pages") != before
                and "Loading" not in page.find("p.count").text
            ),
            "the filtered list did not come",
        )
        total = page.find("p.count").text.split()[0]
        if total == "0":
            return set()
        page.wait.until(lambda b: len(b.find_elements("css selector", ".row")) == int(total), f"not {total} rows drawn")
        shown = {  # an episode's text is "speaker: what was said"
            row.find_element("css selector", "a.text").text.removeprefix(f"{user}: ")
            for row in page.browser.find_elements("css selector", ".row")
        }
        return shown

    try:
        _sign_in(page, space.key)
        page.go(f"#/memories?user={user}")
        page.find("form.filters")
        assert timeline("", "") == set(said.values())
        assert timeline("s1", "") == {said[("planner", "s1")], said[("coach", "s1")]}
        assert timeline("", "planner") == {said[("planner", "s1")], said[("planner", "s2")]}
        assert timeline("s1", "planner") == {said[("planner", "s1")]}
        assert timeline("s3", "coach") == set()
        page.until_text("Nothing here for these filters")
        page.check("filters")
    finally:
        console = _quit(page)
    assert not page.violations, json.dumps(page.violations, indent=1)
    errors = [e["message"] for e in console if e["level"] == "SEVERE"]
    assert not errors, errors


def _keys(page: Page, *keys: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(page.browser).send_keys(*keys).perform()


def _tab_to(page: Page, matches: Callable[[], bool], what: str, back: bool = False, limit: int = 60) -> None:
    """Presses Tab (Shift+Tab with `back`) until the focused element is the one wanted."""
    from selenium.webdriver.common.keys import Keys

    for _ in range(limit):
        if matches():
            return
        if back:
            from selenium.webdriver.common.action_chains import ActionChains

            ActionChains(page.browser).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
        else:
            _keys(page, Keys.TAB)
    raise AssertionError(f"Tab never reached {what}")


def _focused(page: Page, css: str) -> Callable[[], bool]:
    return lambda: bool(page.browser.execute_script("return document.activeElement.matches(arguments[0])", css))


def test_sign_in_search_and_forget_with_the_keyboard_only(
    settings: EngramSettings, space: Space, tmp_path: Path
) -> None:
    from selenium.webdriver.common.keys import Keys

    origin = _origin(settings)
    user = f"kai-{uuid.uuid4().hex[:6]}"
    _remember(origin, space.key, [{"text": "I keep my red bike in the garden shed.", "user": user}])
    page = Page(origin, tmp_path)
    try:
        page.go("")
        page.find("#space-key")
        _tab_to(page, _focused(page, "#space-key"), "the key field")
        _keys(page, space.key, Keys.ENTER)
        page.find(f"tr[data-user='{user}']")

        _tab_to(page, _focused(page, f"tr[data-user='{user}'] a[href*='#/search']"), "the user's Search link")
        _keys(page, Keys.ENTER)
        page.find("#query")
        _tab_to(page, _focused(page, "#query"), "the question field")
        _keys(page, "Where is the bike?", Keys.ENTER)
        page.find(".result a")
        page.check("keyboard-search")

        _tab_to(page, _focused(page, ".result[data-kind=proposition] a"), "the fact found")
        fact_id = page.browser.execute_script("return document.activeElement.getAttribute('href')").split("id=")[1]
        _keys(page, Keys.ENTER)
        page.find("table.provenance")

        _tab_to(page, _focused(page, "p.forget button.danger"), "Forget this memory")
        _keys(page, Keys.ENTER)
        page.find(".confirm")
        assert _focused(page, ".confirm button:not(.danger)")(), "the confirmation did not take the focus on Cancel"
        page.check("keyboard-confirm")
        _keys(page, Keys.ESCAPE)  # Escape cancels
        page.wait.until(lambda b: not b.find_elements("css selector", ".confirm"), "Escape did not cancel")

        _tab_to(page, _focused(page, "p.forget button.danger"), "Forget this memory, again", back=True)
        _keys(page, Keys.ENTER)
        page.find(".confirm")
        _tab_to(page, _focused(page, ".confirm button.danger"), "the confirmation's Forget", back=True)
        _keys(page, Keys.ENTER)
        page.wait.until(lambda b: "#/memories" in b.current_url, "forgetting did not lead back to the memories")
    finally:
        console = _quit(page)
    with httpx.Client(base_url=origin, timeout=60) as http:
        node = GraphQL(http, space.key)(operation("memory"), {"id": fact_id, "user": user})["node"]
    assert node is None, node  # forgotten
    assert not page.violations, json.dumps(page.violations, indent=1)
    errors = [e["message"] for e in console if e["level"] == "SEVERE"]
    assert not errors, errors
