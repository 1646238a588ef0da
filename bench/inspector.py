"""The memory inspector (web/, at /inspector) in Debian's headless Chromium against the running stack, side by side:

  - first_load_ms: the page (HTML, JS, CSS) loaded with the browser's cache off, until the sign-in form is drawn;
  - js_gzip_kb: the JavaScript of the first load, gzipped (and all of it, the lazy graph chunk included);
  - list_first_page_ms: a space with 10,000 memories (bench.synthetic_graph): from opening the list to its first page
    drawn; list_scroll_page_ms: each further page of 100 as the list is scrolled to its end;
  - graph_first_expansion_ms: the graph view from a concept that 300+ memories mention, until its first expansion
    is drawn and laid out (`graph_nodes` nodes: follow answers 20 links per type, so 300 nodes, the view's cap, need
    several expansions);
  - graph_300_interactive_ms: from there, "Expand to the cap" clicked until the view holds 300 nodes, laid out and
    drawn (two animation frames after it says it is ready), so a click on a node is answered: the repeated follows
    of the nodes expanded (`graph_300_expansions`; each node is asked for the link types its kind can have,
    `graph_300_requests` in all; six nodes at a time, concepts first), one layout (`graph_300_layout_ms`, breadth
    first past 100 nodes), the paint; graph_300_from_open_ms counts from opening the view;
  - ui_over_client_recall: the same recall through the UI (submit, results drawn) and through the client's request
    alone (the same operation POSTed from the same page): the ratio of the medians.

Needs the stack running (`make up`) and web/ built (infra/install.sh). Writes bench/results/inspector.json, with the
load average beside the figures (the machine may be shared: say so where the figures are quoted).

    ~/.cache/engram/venv/bin/python -m bench.inspector [--memories 10000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import gzip
import os
import shutil
import statistics
from typing import Any

from bench.common import write_result
from bench.synthetic_graph import SyntheticGraph
from engram.ids import stable_id
from engram.settings import PROJECT_ROOT, get_settings
from graph.admin import delete_space
from graph.api_keys import ApiKeyStore
from graph.driver import get_driver
from graph.memory_writer import MemoryWriter

DIST = PROJECT_ROOT / "web" / "dist"
RECALL = (PROJECT_ROOT / "graphql" / "operations" / "recall.graphql").read_text(encoding="utf-8")
# Timed in the page: from the moment the hash changes to the moment `done()` (a JS condition) holds.
TIME_UNTIL = """
const [hash, condition, timeoutMs] = arguments;
const finish = arguments[arguments.length - 1];
const check = new Function('return (' + condition + ')');
const start = performance.now();
if (hash !== null) location.hash = hash;
(function poll() {
  let ok = false;
  try { ok = check(); } catch (e) {}
  if (ok) return finish(performance.now() - start);
  if (performance.now() - start > timeoutMs) return finish(-1);
  requestAnimationFrame(poll);
})();
"""
DRAWN_SINCE_NAVIGATION = """
const [selector] = arguments;
const finish = arguments[arguments.length - 1];
(function poll() {
  if (document.querySelector(selector)) return finish(performance.now());
  requestAnimationFrame(poll);
})();
"""
UI_RECALL = """
const finish = arguments[arguments.length - 1];
const searches = () => document.querySelector('section[data-searches]').dataset.searches;
const before = searches();
const start = performance.now();
document.querySelector('form.search button[type=submit]').click();
(function poll() {
  if (searches() !== before) return finish(performance.now() - start);
  requestAnimationFrame(poll);
})();
"""
CLIENT_RECALL = """
const [query, key, recallDocument] = arguments;
const finish = arguments[arguments.length - 1];
const start = performance.now();
fetch('/graphql', {method: 'POST', headers: {'content-type': 'application/json', authorization: 'Bearer ' + key},
  body: JSON.stringify({query: recallDocument, variables: {query}})})
  .then(r => r.json()).then(b => finish(b.data && b.data.recall ? performance.now() - start : -1), () => finish(-1));
"""


EXPAND_TO_CAP = """
const [timeoutMs] = arguments;
const finish = arguments[arguments.length - 1];
const graph = () => document.querySelector('.graph');
const start = performance.now();
document.querySelector('button.expand-all').click();
(function poll() {
  const g = graph();
  if (g && g.dataset.ready === 'yes' && Number(g.dataset.nodes) >= 300) {
    // laid out; then painted: two frames later the canvas shows it and a click is answered
    return requestAnimationFrame(() => requestAnimationFrame(() => finish(performance.now() - start)));
  }
  if (performance.now() - start > timeoutMs) return finish(-1);
  requestAnimationFrame(poll);
})();
"""


def _gzip_kb(paths: list[Any]) -> float:
    return round(sum(len(gzip.compress(p.read_bytes(), 9)) for p in paths) / 1024, 1)


def _browser() -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(shutil.which("chromium"))
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000"):
        options.add_argument(arg)
    browser = webdriver.Chrome(service=Service(str(shutil.which("chromedriver"))), options=options)
    browser.set_script_timeout(300)
    return browser


def _timed(browser: Any, hash_: str | None, condition: str, timeout_s: float = 100) -> float:
    # Under selenium's own 120 s command timeout, so a wait that fails says what it waited for.
    elapsed = float(browser.execute_async_script(TIME_UNTIL, hash_, condition, timeout_s * 1000))
    if elapsed < 0:
        raise SystemExit(f"timed out waiting for {condition} after {hash_}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--scroll-pages", type=int, default=10)
    parser.add_argument(
        "--note",
        default="",
        help="what the machine was doing (written beside the figures, e.g. 'shared: other test runs beside it')",
    )
    args = parser.parse_args()
    settings = get_settings()
    driver, database = get_driver(), settings.neo4j.database
    origin = f"http://{settings.api.host}:{settings.api.port}"
    space = f"bench-inspector-{args.memories}"
    keys = ApiKeyStore(driver, database)
    delete_space(driver, database, space)
    keys.create_space(space)
    key = keys.issue(space, "bench").secret
    graph = SyntheticGraph(space, args.memories, seed=args.memories)
    graph.write(MemoryWriter(driver, database), driver, database)
    # The most mentioned concept (Zipf: topic 0) is the graph view's start: its MENTIONS links exceed the cap.
    concept = stable_id("con", space, "topic 0")

    entry = [p for p in (DIST / "assets").glob("index-*.js")]
    result: dict[str, Any] = {
        "memories": args.memories,
        "js_gzip_kb": _gzip_kb(entry),
        "js_gzip_kb_all": _gzip_kb(sorted((DIST / "assets").glob("*.js"))),
    }
    result["load_average_before"] = [round(x, 2) for x in os.getloadavg()]
    browser = _browser()
    try:
        browser.execute_cdp_cmd("Network.enable", {})
        browser.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
        loads = []
        for _ in range(args.repeats):
            browser.get("about:blank")
            browser.get(f"{origin}/inspector/")
            # performance.now() counts from the navigation's start: the time to the drawn sign-in form.
            loads.append(float(browser.execute_async_script(DRAWN_SINCE_NAVIGATION, "#space-key")))
        result["first_load_ms"] = round(statistics.median(loads), 1)
        result["first_load_ms_runs"] = [round(x, 1) for x in loads]
        browser.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})

        browser.execute_script("sessionStorage.setItem('engram.inspector.key', arguments[0])", key)
        browser.get(f"{origin}/inspector/#/users")
        browser.refresh()  # the page reads the key when it starts (a hash change alone does not restart it)
        _timed(browser, None, "document.querySelector('table.users')")
        firsts, pages = [], []
        for _ in range(args.repeats):
            _timed(browser, "#/users", "document.querySelector('table.users')")
            firsts.append(
                _timed(browser, "#/memories", "Number(document.querySelector('.scroller')?.dataset.loaded) > 0")
            )
            for page in range(2, args.scroll_pages + 1):
                browser.execute_script("const s = document.querySelector('.scroller'); s.scrollTop = s.scrollHeight;")
                pages.append(
                    _timed(browser, None, f"Number(document.querySelector('.scroller').dataset.loaded) >= {page * 100}")
                )
        result["list_first_page_ms"] = round(statistics.median(firsts), 1)
        result["list_scroll_page_ms"] = round(statistics.median(pages), 1)
        result["list_runs"] = {"first_page_ms": [round(x, 1) for x in firsts], "pages_scrolled": len(pages)}

        graphs = []
        for _ in range(args.repeats):
            _timed(browser, "#/users", "document.querySelector('table.users')")
            graphs.append(
                _timed(browser, f"#/graph?id={concept}", "document.querySelector('.graph')?.dataset.ready === 'yes'")
            )
        # follow answers at most 20 links of each type, so one expansion draws fewer than the cap of 300: this is the
        # first expansion's time and size (graph_300_interactive_ms needs expansions clicked until the cap).
        result["graph_first_expansion_ms"] = round(statistics.median(graphs), 1)
        result["graph_nodes"] = int(
            browser.execute_script("return Number(document.querySelector('.graph').dataset.nodes)")
        )

        # Expanded to the cap: ~12 follows per node expanded, so each repeat signs in with a key of its own (the
        # per-key rate limit is 600 requests a minute).
        full, from_open, expansions = [], [], []
        for repeat in range(args.repeats):
            fresh = keys.issue(space, f"bench-graph-{repeat}").secret
            browser.execute_script("sessionStorage.setItem('engram.inspector.key', arguments[0])", fresh)
            browser.get(f"{origin}/inspector/#/users")
            browser.refresh()
            _timed(browser, None, "document.querySelector('table.users')")
            opened = _timed(
                browser, f"#/graph?id={concept}", "document.querySelector('.graph')?.dataset.ready === 'yes'"
            )
            expanded = float(browser.execute_async_script(EXPAND_TO_CAP, 100_000))
            if expanded < 0:
                raise SystemExit("the graph view did not reach its cap")
            full.append(expanded)
            from_open.append(opened + expanded)
            expansions.append(
                int(browser.execute_script("return Number(document.querySelector('.graph').dataset.expanded)"))
            )
        result["graph_300_interactive_ms"] = round(statistics.median(full), 1)
        result["graph_300_interactive_ms_runs"] = [round(x, 1) for x in full]
        result["graph_300_from_open_ms"] = round(statistics.median(from_open), 1)
        result["graph_300_nodes"] = int(
            browser.execute_script("return Number(document.querySelector('.graph').dataset.nodes)")
        )
        result["graph_300_expansions"] = expansions
        graph_data = browser.execute_script("return {...document.querySelector('.graph').dataset}")
        result["graph_300_requests"] = int(graph_data["requests"])  # follows, the first expansion's included
        result["graph_300_layout_ms"] = int(graph_data["layoutMs"])  # the last layout alone, in the page

        query = " ".join(graph.first_facts(1)[0][0].split()[3:9])
        _timed(browser, "#/search", "document.querySelector('#query')")
        browser.execute_script(
            "const q = document.querySelector('#query');"
            "Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(q, arguments[0]);"
            "q.dispatchEvent(new Event('input', {bubbles: true}));",
            query,
        )
        ui, client = [], []
        for _ in range(args.repeats):
            client.append(float(browser.execute_async_script(CLIENT_RECALL, query, key, RECALL)))
            ui.append(float(browser.execute_async_script(UI_RECALL)))
        assert min(client) > 0, "the client's recall failed"
        result["recall_ui_ms"] = round(statistics.median(ui), 1)
        result["recall_client_ms"] = round(statistics.median(client), 1)
        result["ui_over_client_recall"] = round(statistics.median(ui) / statistics.median(client), 3)
    finally:
        browser.quit()
        delete_space(driver, database, space)
    result["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    result["note"] = args.note
    print(write_result("inspector", result))
    for name, value in result.items():
        print(f"{name}: {value}")


if __name__ == "__main__":
    main()
