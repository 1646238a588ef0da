"""Neo4j Browser exploration: the queries of cypher/browser/ on data ingested by the pipeline, never leaving their
space; the recall result's Browser snippet; `engram browser`; and headless Chromium loading the real Browser,
connecting, applying the style sheet, running an exploration query and rendering its graph (screenshot).

`ENGRAM_BROWSER_SCREENSHOT=docs/browser.png` writes the screenshot there (how the README's picture is made).
"""

from __future__ import annotations

import json
import os
import shutil
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import neo4j
import pytest

from app.cli.browser_command import (
    browser_url,
    example_parameters,
    exploration_queries,
    params_command,
    style_command,
    style_rules,
)
from engram.embedding import get_embedder
from engram.settings import EngramSettings
from graph.dimensions import build_dimensions
from graph.recall.engine import RecallEngine
from graph.recall.models import RecallRequest
from tests.e2e.conftest import CONVERSATION, DOCUMENT, TRAJECTORY
from tests.support.cli import engram
from tests.support.graph_queries import rows
from tests.support.jobs import ingest

CORRECTION: dict[str, Any] = {
    "type": "conversation",
    "id": "chat-2",
    "title": "Melanie's correction",
    "sessions": [
        {
            "id": "s3",
            "started_at": "2023-06-02T09:00:00Z",
            "turns": [
                {
                    "speaker": "Melanie",
                    "id": "D3:1",
                    "text": "Correction: the charity race I ran was for a children's hospital, not mental health.",
                }
            ],
        }
    ],
}
STRAY_EDGES = ("ASSOCIATED", "SAME_AS", "MENTIONS", "PROVEN_BY", "PART_OF", "IN", "SUPERSEDES")


@dataclass(frozen=True)
class Explored:
    space: str
    other: str
    parameters: dict[str, str | None]


@pytest.fixture(scope="module")
def explored(driver: neo4j.Driver) -> Iterator[Explored]:
    """A space with a conversation, a document, a trajectory, dimensions and a superseded fact; a second space with
    the same conversation (so the same ids), and stray edges from the first space into the second."""
    space, other = f"test-{uuid.uuid4().hex[:12]}", f"test-{uuid.uuid4().hex[:12]}"
    try:
        ingest(space, [CONVERSATION, DOCUMENT, TRAJECTORY, CORRECTION])
        ingest(other, [CONVERSATION])
        build_dimensions(driver, "neo4j", space)
        # Supersession as a correction records it (newer)-[:SUPERSEDES]->(older), history kept.
        (superseded,) = rows(
            driver,
            "MATCH (new:Proposition {space: $s}) WHERE new.text CONTAINS 'children' "
            "MATCH (old:Proposition {space: $s}) WHERE old.text CONTAINS 'mental health' AND old <> new "
            "MERGE (new)-[:SUPERSEDES]->(old) SET old.status = 'superseded', old.expired_at = datetime() "
            "RETURN count(*) AS n",
            s=space,
        )
        assert superseded["n"] >= 1
        # A bug elsewhere must not make Browser show another tenant: one stray edge of each type into `other`.
        for rel in STRAY_EDGES:
            driver.execute_query(
                f"MATCH (a {{space: $s}}), (b {{space: $o}}) WITH a, b LIMIT 400 CREATE (a)-[:{rel}]->(b)",
                s=space,
                o=other,
            )
        parameters = example_parameters(driver, "neo4j", space)
        yield Explored(space, other, parameters)
    finally:
        for name in (space, other):
            driver.execute_query("MATCH (n {space: $s}) DETACH DELETE n", s=name)


def _nodes(value: Any) -> Iterator[neo4j.graph.Node]:
    if isinstance(value, neo4j.graph.Node):
        yield value
    elif isinstance(value, neo4j.graph.Path):
        yield from value.nodes
    elif isinstance(value, neo4j.graph.Relationship):
        yield from (n for n in value.nodes if n is not None)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _nodes(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _nodes(item)


def _run(driver: neo4j.Driver, query: str, parameters: dict[str, Any]) -> list[neo4j.Record]:
    records, _, _ = driver.execute_query(query, parameters)
    return records


def test_example_parameters_name_what_the_space_holds(driver: neo4j.Driver, explored: Explored) -> None:
    p = explored.parameters
    assert p["space"] == explored.space
    assert all(p[name] for name in ("proposition", "key", "dimension", "fact")), p
    # The fact is one with a history, not the fallback to `proposition`.
    history = "MATCH (n:Proposition {space: $s, id: $id}) RETURN COUNT { (n)-[:SUPERSEDES]->({space: $s}) } AS n"
    assert rows(driver, history, s=explored.space, id=p["fact"]) == [{"n": 1}]


def test_every_exploration_query_shows_its_space_and_nothing_else(driver: neo4j.Driver, explored: Explored) -> None:
    queries = {q.name: q for q in exploration_queries()}
    expected = {"proposition_provenance", "concept_neighbourhood", "dimension", "superseded_history", "space_overview"}
    assert expected <= set(queries)
    labels_seen: dict[str, set[str]] = {}
    for q in queries.values():
        assert q.description and "Parameters:" in q.description, q.name
        assert all(explored.parameters.get(p) for p in q.parameters), (q.name, q.parameters)
        records = _run(driver, q.text, {p: explored.parameters[p] for p in q.parameters})
        assert records, f"{q.name} returned no rows"
        nodes = [n for r in records for n in _nodes(list(r.values()))]
        assert all(n["space"] == explored.space for n in nodes), f"{q.name} left its space"
        labels_seen[q.name] = {label for n in nodes for label in n.labels}
    assert {"Proposition", "Episode", "Source", "Concept"} <= labels_seen["proposition_provenance"]
    assert {"Concept", "Proposition", "Dimension"} <= labels_seen["concept_neighbourhood"]
    assert {"Dimension", "Concept"} <= labels_seen["dimension"]


def test_superseded_history_walks_the_chain_newest_first(driver: neo4j.Driver, explored: Explored) -> None:
    (query,) = [q for q in exploration_queries() if q.name == "superseded_history"]
    for fact in (explored.parameters["fact"], "mental health"):  # from either end, by id or by words
        records = _run(driver, query.text, {"space": explored.space, "fact": fact})
        assert [r["status"] for r in records] == ["active", "superseded"]
        assert "children's hospital" in records[0]["text"] and "mental health" in records[1]["text"]
        assert records[1]["expired_at"] is not None and records[1]["provenance"]


def test_space_overview_counts_the_space(driver: neo4j.Driver, explored: Explored) -> None:
    (query,) = [q for q in exploration_queries() if q.name == "space_overview"]
    counts = {(r["kind"], r["name"]): r["count"] for r in _run(driver, query.text, {"space": explored.space})}
    (truth,) = rows(driver, "MATCH (n:Episode {space: $s}) RETURN count(n) AS n", s=explored.space)
    assert counts[("node", "Episode")] == truth["n"] and counts[("node", "Dimension")] >= 1
    assert counts[("relationship", "SUPERSEDES")] >= 1 and counts[("relationship", "PROVEN_BY")] >= 1


def test_the_recall_snippet_shows_the_items_and_stays_in_the_space(driver: neo4j.Driver, explored: Explored) -> None:
    embedder = get_embedder()
    engine = RecallEngine(driver, "neo4j", embedder.encode, embedder.count_tokens)
    result = engine.recall(RecallRequest(space=explored.space, query="What charity race did Melanie run?"))
    assert result.items
    records = _run(driver, result.cypher, {})
    assert {r["n"]["id"] for r in records} == {i.id for i in result.items}
    assert all(n["space"] == explored.space for n in _nodes([list(r.values()) for r in records]))
    assert any(r["r"] is not None and r["r"].type == "PROVEN_BY" for r in records)


def test_engram_browser_prints_url_parameters_style_and_queries(explored: Explored, settings: EngramSettings) -> None:
    done = engram("browser", "--space", explored.space)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert f"http://127.0.0.1:{settings.neo4j.http_port}/browser/?dbms=" in out and "&cmd=params&arg=" in out
    assert params_command(explored.parameters) in out
    assert all(f"-- {q.name} (" in out and q.text in out for q in exploration_queries())
    style = engram("browser", "--space", explored.space, "--style")
    rules = json.loads(style.stdout.strip().removeprefix(":style "))
    assert rules == style_rules() and ";" not in style.stdout
    assert {f"node.{label}" for label in ("Proposition", "Concept", "Episode", "Dimension")} <= set(rules)
    assert rules["node.Proposition"]["caption"] == "{text}" and rules["node.Concept"]["caption"] == "{name}"
    unknown = engram("browser", "--space", explored.space, "--query", "nope")
    assert unknown.returncode == 2 and "no exploration query 'nope'" in " ".join(unknown.stdout.split())


# -- headless Chromium against the real Neo4j Browser ------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
CHROMEDRIVER = shutil.which("chromedriver")
# A paste event into the focused editor (Monaco reads the text from the event's clipboard data).
PASTE = """
const data = new DataTransfer();
data.setData('text/plain', arguments[0]);
const paste = new ClipboardEvent('paste', {clipboardData: data, bubbles: true, cancelable: true});
document.activeElement.dispatchEvent(paste);
"""


def _settling_wait(browser: Any) -> Any:
    """A 60 s wait that retries while the Browser's React controls settle: an element found a moment ago may be
    replaced, not yet take input (CI once found the connect form's username field so), or be covered."""
    from selenium.common.exceptions import (
        ElementClickInterceptedException,
        ElementNotInteractableException,
        NoSuchElementException,
        StaleElementReferenceException,
    )
    from selenium.webdriver.support.ui import WebDriverWait

    settling = (
        NoSuchElementException,
        StaleElementReferenceException,
        ElementNotInteractableException,
        ElementClickInterceptedException,
    )
    return WebDriverWait(browser, 60, ignored_exceptions=settling)


@pytest.mark.skipif(
    not (CHROMIUM and CHROMEDRIVER),
    reason="Chromium or chromedriver is not installed (infra/install.sh installs Debian chromium + chromium-driver)",
)
def test_browser_connects_styles_and_renders_an_exploration_query(
    driver: neo4j.Driver, explored: Explored, settings: EngramSettings, tmp_path: Path
) -> None:
    from selenium import webdriver
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.remote.webdriver import WebDriver
    from selenium.webdriver.support.ui import WebDriverWait

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1600,1000"):
        options.add_argument(arg)
    browser = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    wait = _settling_wait(browser)
    parameters = {**explored.parameters, "proposition": "melanie"}  # words: several propositions of Melanie's
    (query,) = [q for q in exploration_queries() if q.name == "proposition_provenance"]
    expected = {
        n.element_id
        for r in _run(driver, query.text, {p: parameters[p] for p in query.parameters})
        for n in _nodes(list(r.values()))
    }
    assert len(expected) >= 10
    embedder = get_embedder()
    engine = RecallEngine(driver, "neo4j", embedder.encode, embedder.count_tokens)
    snippet = engine.recall(RecallRequest(space=explored.space, query="What did Melanie paint?")).cypher
    snippet_nodes = {n.element_id for r in _run(driver, snippet, {}) for n in _nodes(list(r.values()))}
    assert snippet_nodes

    def click(selector: str) -> None:
        def clicked(b: WebDriver) -> bool:
            b.find_element(By.CSS_SELECTOR, selector).click()
            return True

        wait.until(clicked, f"could not click {selector}")

    def run_in_editor(command: str) -> None:
        """Paste `command` into the editor, as a person would, and run it."""
        click("#monaco-main-editor")
        browser.execute_script(PASTE, command)
        click("[data-testid=editor-Run]")

    def connected(b: WebDriver) -> bool:
        return "Connected to Neo4j" in b.page_source

    def connect() -> None:
        """Fill in the password and connect; again if a click went to a form still being set up."""
        username = wait.until(lambda b: b.find_element(By.CSS_SELECTOR, "[data-testid=username]"))
        assert username.get_attribute("value") == "neo4j"  # pre-filled from the URL

        def submitted(b: WebDriver) -> bool:
            if connected(b):
                return True
            password = b.find_element(By.CSS_SELECTOR, "[data-testid=password]")
            password.clear()
            password.send_keys(settings.neo4j.password.get_secret_value())
            b.find_element(By.CSS_SELECTOR, "[data-testid=connect]").click()
            return True

        for attempt in range(3):
            wait.until(submitted, "could not fill in the connect form")
            try:
                WebDriverWait(browser, 30).until(connected)
                return
            except TimeoutException:
                if attempt == 2:
                    raise

    def drawn(count: int) -> Callable[[WebDriver], bool]:
        return lambda b: len(b.find_elements(By.CSS_SELECTOR, "svg g.node")) == count

    try:
        # The URL `engram browser` prints: it pre-fills the connect form and puts `:params` in the editor.
        browser.get(browser_url(settings, parameters))
        connect()
        click("[data-testid=editor-Run]")
        wait.until(lambda b: "Successfully set your parameters" in b.page_source)

        # What `engram browser --style` prints, then the query, pasted into the editor.
        run_in_editor(style_command())
        wait.until(lambda b: "node.Proposition" in (b.execute_script("return localStorage['neo4j.grass']") or ""))
        # The Cypher snippet a recall result carries draws its items, provenance and concepts.
        run_in_editor(snippet)
        wait.until(drawn(len(snippet_nodes)))
        run_in_editor(":clear")
        wait.until(drawn(0))

        run_in_editor(query.text)
        wait.until(drawn(len(expected)))  # every node the query returns is drawn
        # The result frame is the newest, so the first: full screen, then zoom the graph to fit it.
        click("button[title=Fullscreen]")
        time.sleep(3)  # the force layout settles
        click("button[aria-label=zoom-to-fit]")
        time.sleep(2)
        shot = Path(os.environ.get("ENGRAM_BROWSER_SCREENSHOT") or tmp_path / "browser.png")
        shot.parent.mkdir(parents=True, exist_ok=True)
        assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 20_000
        fills = {c.get_attribute("fill") for c in browser.find_elements(By.CSS_SELECTOR, "svg g.node circle")}
        captions = " ".join(t.text for t in browser.find_elements(By.CSS_SELECTOR, "svg g.node text"))
    except Exception:
        browser.save_screenshot(str(tmp_path / "failure.png"))
        (tmp_path / "failure.html").write_text(browser.page_source, encoding="utf-8")
        print(f"Browser at the failure: {tmp_path / 'failure.png'}")
        # What the Browser said (a connection error, a query error) reaches the CI log, not only the screenshot.
        print("Browser text at the failure:", " ".join(browser.find_element(By.TAG_NAME, "body").text.split())[-2000:])
        raise
    finally:
        browser.quit()
    style = style_rules()  # drawn in the Engram style: its colours and captions
    assert {style[f"node.{label}"]["color"] for label in ("Proposition", "Episode", "Source", "Concept")} <= fills
    assert "Melanie" in captions and "charity" in captions  # proposition texts and concept names


@pytest.mark.skipif(
    not (CHROMIUM and CHROMEDRIVER),
    reason="Chromium or chromedriver is not installed (infra/install.sh installs Debian chromium + chromium-driver)",
)
def test_the_plain_browser_url_connects_to_this_stack(
    driver: neo4j.Driver, settings: EngramSettings, tmp_path: Path
) -> None:
    """http://<host>:<http port>/browser/ with nothing in the query: Browser's default connect URL (neo4j://, from
    the server's discovery document) must reach this stack's Neo4j, not time out or reach another one (issue 44; a
    stack on other ports, as the test command's, advertised the default Bolt port). The URL `engram browser` prints
    names the Bolt URL itself."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.remote.webdriver import WebDriver

    bolt = settings.neo4j.uri.split("://", 1)[1]
    printed = (
        f"http://{bolt.split(':')[0]}:{settings.neo4j.http_port}/browser/?dbms=bolt://{settings.neo4j.user}@{bolt}&"
    )
    assert browser_url(settings).startswith(printed)
    routed = settings.model_copy(update={"neo4j": settings.neo4j.model_copy(update={"uri": f"neo4j://{bolt}"})})
    assert browser_url(routed).startswith(printed)  # a neo4j:// setting still prints the direct Bolt URL
    store = rows(driver, "CALL db.info() YIELD id RETURN id")[0]["id"]
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,900"):
        options.add_argument(arg)
    browser = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    wait = _settling_wait(browser)

    def submitted(b: WebDriver) -> bool:
        username = b.find_element(By.CSS_SELECTOR, "[data-testid=username]")
        username.clear()
        username.send_keys(settings.neo4j.user)
        password = b.find_element(By.CSS_SELECTOR, "[data-testid=password]")
        password.clear()
        password.send_keys(settings.neo4j.password.get_secret_value())
        b.find_element(By.CSS_SELECTOR, "[data-testid=connect]").click()
        return True

    try:
        browser.get(f"http://{bolt.split(':')[0]}:{settings.neo4j.http_port}/browser/")
        wait.until(submitted, "could not fill in the connect form")
        wait.until(lambda b: "Connected to Neo4j" in b.page_source, "the plain Browser URL did not connect")
        # And to this server, not to one the routing table named (the same password opens a neighbour stack): the
        # queries Browser runs answer with this store's id.
        wait.until(lambda b: b.find_element(By.CSS_SELECTOR, "#monaco-main-editor").click() or True)
        browser.execute_script(PASTE, "CALL db.info() YIELD id RETURN 'store:' + id AS store")
        wait.until(lambda b: b.find_element(By.CSS_SELECTOR, "[data-testid=editor-Run]").click() or True)
        wait.until(lambda b: f"store:{store}" in b.page_source, "Browser's queries went to another server")
    except Exception:
        browser.save_screenshot(str(tmp_path / "plain-url-failure.png"))
        print("Browser text at the failure:", " ".join(browser.find_element(By.TAG_NAME, "body").text.split())[-2000:])
        raise
    finally:
        browser.quit()
