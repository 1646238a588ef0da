"""The memory inspector (web/, served by the API at /inspector) in Debian's headless Chromium against the test stack:
sign in (a wrong key first), remember three texts for a user watching each job finish over the subscription, find the
user with counts, list the memories (a fact's attribute and value), search and open a result's fact (subject, attribute
and value as the API holds them) and provenance, correct it and see the chain and what ended it, draw the graph view,
forget the user and see them gone from the list, from search and from the export. Memory text holding HTML and
scripts is shown as text and runs nothing; the Content-Security-Policy blocks an inline script; axe-core (from npm,
web/node_modules) finds no serious or critical violation on any page of the inspector visited; GraphiQL's tab opens.

Screenshots of each page are written to the test's temporary folder (pytest's tmp_path); with
`ENGRAM_INSPECTOR_SCREENSHOT=docs/inspector.png` the memory page with its provenance and chain is also written there
(how the README's picture is made).
"""

from __future__ import annotations

import json
import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import neo4j
import pytest

from engram.settings import PROJECT_ROOT, EngramSettings
from graph.admin import delete_space
from graph.api_keys import ApiKeyStore
from tests.support.graphql_client import GraphQL

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
AXE = PROJECT_ROOT / "web" / "node_modules" / "axe-core" / "axe.min.js"
XSS_TEXT = '<img src=x onerror="window.__xss=1"> and <script>window.__xss=2</script> is what I typed'
TEXTS = (
    "I keep my red bike in the garden shed.",
    "My sister Priya moved to Lisbon last spring.",
    XSS_TEXT,
)
RUN_AXE = """
const done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ['violations']}).then(
  r => done(r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
               .map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5)}))),
  e => done([{id: 'axe failed', impact: 'critical', nodes: [String(e)]}]));
"""

pytestmark = pytest.mark.skipif(
    not (CHROMIUM and CHROMEDRIVER),
    reason="Chromium or chromedriver is not installed (infra/install.sh installs Debian chromium + chromium-driver)",
)


@pytest.fixture()
def space_key(settings: EngramSettings, driver: neo4j.Driver) -> Iterator[str]:
    """A space of its own and its key, as the operator issues them (`engram space create`)."""
    name = f"test-inspector-{uuid.uuid4().hex[:10]}"
    keys = ApiKeyStore(driver, settings.neo4j.database)
    keys.create_space(name)
    try:
        yield keys.issue(name, "inspector").secret
    finally:
        delete_space(driver, settings.neo4j.database, name)


class Page:
    """The browser on the inspector, with waits, screenshots and the axe check of each page it visits."""

    def __init__(self, origin: str, shots: Path) -> None:
        from selenium import webdriver
        from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.support.ui import WebDriverWait

        options = webdriver.ChromeOptions()
        options.binary_location = str(CHROMIUM)
        for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000"):
            options.add_argument(arg)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.browser = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
        self.browser.set_script_timeout(60)
        self.wait = WebDriverWait(
            self.browser, 120, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException)
        )
        self.origin = origin
        self.shots = shots
        self.violations: dict[str, Any] = {}
        self.console: list[dict[str, Any]] = []

    def go(self, fragment: str) -> None:
        self.browser.get(f"{self.origin}/inspector/{fragment}")

    def find(self, css: str) -> Any:
        from selenium.webdriver.common.by import By

        return self.wait.until(lambda b: b.find_element(By.CSS_SELECTOR, css), f"no {css}")

    def text(self) -> str:
        from selenium.webdriver.common.by import By

        return str(self.browser.find_element(By.TAG_NAME, "body").text)

    def until_text(self, wanted: str) -> None:
        self.wait.until(lambda b: wanted in self.text(), f"no {wanted!r} on the page")

    def fill(self, css: str, value: str) -> None:
        field = self.find(css)
        field.clear()
        field.send_keys(value)

    def check(self, name: str) -> None:
        """A screenshot and the axe-core check of the page as it is now."""
        self.browser.save_screenshot(str(self.shots / f"{name}.png"))
        if not self.browser.execute_script("return typeof axe !== 'undefined'"):
            self.browser.execute_script(AXE.read_text(encoding="utf-8"))
        found = self.browser.execute_async_script(RUN_AXE)
        if found:
            self.violations[name] = found
        self.console += self.browser.get_log("browser")

    def no_alert(self) -> None:
        from selenium.common.exceptions import NoAlertPresentException

        try:
            alert = self.browser.switch_to.alert
        except NoAlertPresentException:
            return
        raise AssertionError(f"a script ran: alert {alert.text!r}")


def _remember(page: Page, user: str, text: str, done: int) -> None:
    page.fill("#remember-user", user)
    page.fill("#remember-text", text)
    page.find("form.remember button[type=submit]").click()
    page.wait.until(
        lambda b: (
            page.find(".job").get_attribute("data-jobs") == str(done)
            and page.find(".job").get_attribute("data-state") == "SUCCEEDED"
        ),
        f"the job for {text!r} did not finish",
    )


def _fact_of(origin: str, key: str, user: str, memory_id: str) -> dict[str, Any]:
    """The fact the API holds for a memory (the page must show it as it is)."""
    query = (
        "query($id: ID!, $u: String) { node(id: $id, user: $u) { ... on Proposition { fact { subject attribute value } "
        "} } }"
    )
    with httpx.Client(base_url=origin, timeout=60) as http:
        node = GraphQL(http, key)(query, {"id": memory_id, "u": user})["node"]
    assert node and node["fact"], f"{memory_id} is no fact: {node}"
    return node["fact"]  # type: ignore[no-any-return]


def test_the_inspector_flow_in_chromium(settings: EngramSettings, space_key: str, tmp_path: Path) -> None:
    origin = f"http://{settings.api.host}:{settings.api.port}"
    served = httpx.get(f"{origin}/inspector/")
    assert served.status_code == 200, "the inspector is not built: infra/install.sh builds web/"
    policy = served.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert AXE.is_file(), "axe-core comes from web/node_modules (npm ci in infra/install.sh)"
    user = f"ana-{uuid.uuid4().hex[:6]}"
    page = Page(origin, tmp_path)
    try:
        page.go("")
        page.check("sign-in")
        page.fill("#space-key", "egk_not_a_key")
        page.find(".signin button[type=submit]").click()
        page.until_text("refused")
        assert page.browser.execute_script("return sessionStorage.length") == 0
        page.fill("#space-key", space_key)
        page.find(".signin button[type=submit]").click()
        page.until_text("Nothing in this space yet")  # an empty space: an empty state, not an error
        assert space_key not in page.browser.current_url
        page.check("users-empty")

        page.go(f"#/remember?user={user}")
        for done, text in enumerate(TEXTS, start=1):
            _remember(page, user, text, done)
        page.check("remember")

        page.go("#/users")
        row = page.find(f"tr[data-user='{user}']")
        assert row.find_element("css selector", "td:nth-child(2)").text == "3"  # three episodes
        page.check("users")

        page.go(f"#/memories?user={user}")
        page.wait.until(lambda b: int(page.find(".scroller").get_attribute("data-loaded") or 0) > 0)
        listed = [row.text for row in page.browser.find_elements("css selector", ".row")]
        bike_row = next(row for row in listed if "bike" in row)
        page.check("memories")
        page.find("form.filters button[type=button]").click()  # the timeline of episodes
        page.until_text("is what I typed")
        assert XSS_TEXT in page.text()  # shown as text
        page.no_alert()
        assert page.browser.execute_script("return window.__xss") is None
        page.check("timeline")

        page.go(f"#/search?user={user}")
        page.fill("#query", "Where is the bike?")
        page.find("form.search button[type=submit]").click()
        first = page.find(".result[data-kind=proposition] a")  # the fact, not the turn
        assert "bike" in first.text
        page.check("search")
        first.click()
        page.find("table.provenance")
        page.until_text("garden shed")
        provenance = page.find("table.provenance").text
        assert user in provenance and "remember" in provenance  # the speaker and the source
        # The fact it states, as text: subject · attribute · value (the row in the list showed attribute · value).
        bike_id = parse_qs(urlsplit(page.browser.current_url).fragment.split("?", 1)[1])["id"][0]
        fact = _fact_of(origin, space_key, user, bike_id)
        assert "bike" in fact["value"], fact
        shown = page.find(".fact-of .fact")
        assert shown.text == f"{fact['subject']} · {fact['attribute']} · {fact['value']}"
        assert shown.get_attribute("data-attribute") == fact["attribute"]
        assert f"{fact['attribute']} · {fact['value']}" in bike_row
        assert "Valid from" in page.text() and "Ended by" not in page.text()
        page.check("memory")

        page.fill("#correct-text", "I keep my blue bike in the garage.")
        page.find("form.correct button[type=submit]").click()
        page.find("ol.chain")
        page.until_text("I keep my blue bike in the garage.")
        assert "garden shed" in page.find("ol.chain").text  # what it replaced
        page.check("corrected")
        if os.environ.get("ENGRAM_INSPECTOR_SCREENSHOT"):
            page.browser.save_screenshot(os.environ["ENGRAM_INSPECTOR_SCREENSHOT"])

        page.find("ol.chain a").click()  # the fact it replaced: superseded, with its turn and concepts
        page.until_text("superseded")
        assert page.find(".fact-of .fact").get_attribute("data-value") == fact["value"]
        page.wait.until(lambda b: "blue bike" in page.find(".ended-by a").text, "no 'ended by' the correction")
        page.find("a[href*='#/graph']").click()
        page.wait.until(lambda b: page.find(".graph").get_attribute("data-ready") == "yes")
        drawn = int(page.find(".graph").get_attribute("data-nodes"))
        assert drawn >= 3  # the old fact, the one that superseded it, the turn that proves it, its concepts
        assert page.browser.execute_script(
            "return [...document.querySelectorAll('.graph canvas')].some(c => c.width > 0 && c.height > 0)"
        )
        page.check("graph")

        # The CSP: a script put inline into the page does not run.
        page.browser.execute_script(
            "const s = document.createElement('script'); s.textContent = 'window.__inline = 1'; "
            "document.body.appendChild(s);"
        )
        assert page.browser.execute_script("return window.__inline") is None

        page.go("#/explorer")  # GraphiQL, from npm, loaded on demand, with the space's key
        page.find(".graphiql-container")
        page.browser.save_screenshot(str(tmp_path / "explorer.png"))

        page.go("#/users")
        page.find(f"tr[data-user='{user}'] button.danger").click()
        confirm = page.find(".confirm")
        # it names what goes: the three remembered turns and the correction's own episode (a correction is proven
        # by itself: docs/supersession.md)
        assert user in confirm.text and "4 episodes" in confirm.text, confirm.text
        page.check("forget-confirm")
        confirm.find_element("css selector", "button.danger").click()
        page.until_text(f"Forgot {user}")
        page.wait.until(
            lambda b: not b.find_elements("css selector", f"tr[data-user='{user}']"), "the user is still listed"
        )

        page.go(f"#/search?user={user}")
        page.fill("#query", "Where is the bike?")
        page.find("form.search button[type=submit]").click()
        page.until_text("Nothing came back")
        page.check("search-after-forget")
    finally:
        page.console += page.browser.get_log("browser")
        page.browser.quit()
    with httpx.Client(base_url=origin, timeout=60) as http:
        exported = GraphQL(http, space_key)("query($u: String) { export(user: $u) { records jsonl } }", {"u": user})
    assert exported["export"] == {"records": 0, "jsonl": ""}
    assert not page.violations, json.dumps(page.violations, indent=1)
    refused = [entry["message"] for entry in page.console if "Content Security Policy" in entry["message"]]
    assert all("inline script" in m for m in refused), refused  # only the test's own inline script was refused
    errors = [
        entry["message"]
        for entry in page.console
        if entry["level"] == "SEVERE"
        and "Content Security Policy" not in entry["message"]
        and "401" not in entry["message"]
    ]
    assert not errors, errors
