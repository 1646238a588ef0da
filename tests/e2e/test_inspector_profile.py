"""The inspector's Profile page (web/src/views/Profile.tsx) in headless Chromium against the test stack, in the style of
test_inspector.py: Lena told where she lives and works, later that she moved from Porto to Graz. Her profile shows
what memory believes now (home: Graz, since August 2025, with the turn that told it) and what it believed before
(home: Porto, valid to when the move began); the value opens the fact's own page. A turn holding HTML and a script is
shown as text and runs nothing; axe-core finds no serious or critical violation; the shared memory has no profile."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import neo4j
import pytest

from engram.settings import EngramSettings
from graph.admin import delete_space
from graph.api_keys import ApiKeyStore
from tests.e2e.test_inspector import AXE, CHROMEDRIVER, CHROMIUM, Page
from tests.support.graphql_client import GraphQL, operation

XSS = 'My sister <img src=x onerror="window.__xss=1"> lives in Rome <script>window.__xss=2</script>.'
TURNS = [
    ("porto", "2025-03-01T10:00:00Z", "I live in Porto and work at a bakery near the station."),
    ("graz", "2025-09-10T10:00:00Z", "Big news: I moved from Porto to Graz last month, and I started at a shipping "
                                     "firm there."),
    ("sister", "2025-09-11T10:00:00Z", XSS),
]  # fmt: skip

pytestmark = pytest.mark.skipif(
    not (CHROMIUM and CHROMEDRIVER),
    reason="Chromium or chromedriver is not installed (infra/install.sh installs Debian chromium + chromium-driver)",
)


@pytest.fixture()
def space_key(settings: EngramSettings, driver: neo4j.Driver) -> Iterator[str]:
    name = f"test-profile-{uuid.uuid4().hex[:10]}"
    keys = ApiKeyStore(driver, settings.neo4j.database)
    keys.create_space(name)
    try:
        yield keys.issue(name, "inspector").secret
    finally:
        delete_space(driver, settings.neo4j.database, name)


def test_the_profile_page_shows_each_slot_now_and_before(
    settings: EngramSettings, space_key: str, tmp_path: Path
) -> None:
    origin = f"http://{settings.api.host}:{settings.api.port}"
    assert httpx.get(f"{origin}/inspector/").status_code == 200, "the inspector is not built: infra/install.sh"
    assert AXE.is_file()
    with httpx.Client(base_url=origin, timeout=60) as http:
        gql = GraphQL(http, space_key)
        for turn_id, at, text in TURNS:
            job = gql(operation("remember"), {"text": text, "user": "lena", "id": turn_id, "at": at,
                                              "session": turn_id})["remember"]  # fmt: skip
            gql.wait_for_job(job["id"], timeout_s=600)
    page = Page(origin, tmp_path)
    try:
        page.go("")
        page.fill("#space-key", space_key)
        page.find(".signin button[type=submit]").click()
        page.find("tr[data-user='lena'] a[href*='#/profile']").click()  # from the Users page

        now = page.find("table.profile-now tr[data-slot='home']")
        assert "Graz" in now.text and "2025-08-01" in now.text, now.text
        assert "turn graz" in now.text and "I moved from Porto to Graz" in now.text  # the proving turn
        before = page.find("table.profile-before tr[data-slot='home'][data-value='Porto']")
        assert "2025-03-01" in before.text and "2025-08-01" in before.text and "turn porto" in before.text
        assert page.find("h1").text == "Profile of lena"
        page.no_alert()
        assert page.browser.execute_script("return window.__xss") is None  # the turn with HTML ran nothing
        page.check("profile")

        now.find_element("css selector", "td.value a").click()  # the value opens the fact's page
        page.find("table.provenance")
        page.until_text("I moved from Porto to Graz")

        page.go("#/profile")  # the shared memory
        page.until_text("The shared memory has no profile")
        page.check("profile-shared")
    finally:
        page.console += page.browser.get_log("browser")
        page.browser.quit()
    assert not page.violations, json.dumps(page.violations, indent=1)
    errors = [e["message"] for e in page.console if e["level"] == "SEVERE" and "401" not in e["message"]]
    assert not errors, errors
