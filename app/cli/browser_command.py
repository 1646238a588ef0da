"""`engram browser`: explore a memory space in Neo4j Browser.

Prints the Browser URL (which pre-fills the connect form and the space's parameters), the `:style` command that
applies `cypher/browser/style.grass`, and the exploration queries of `cypher/browser/`, with example parameter
values picked from the space.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlsplit

import neo4j
from rich.console import Console

from engram.settings import EngramSettings
from graph.cypher import CYPHER_DIR, load

BROWSER_DIR = CYPHER_DIR / "browser"
STYLE_FILE = BROWSER_DIR / "style.grass"

_PARAMETER = re.compile(r"\$(\w+)")


@dataclass(frozen=True)
class ExplorationQuery:
    """One `cypher/browser/<name>.cypher` file: what its header comment says, its parameters, its text."""

    name: str
    description: str
    parameters: tuple[str, ...]
    text: str

    @property
    def path(self) -> Path:
        return BROWSER_DIR / f"{self.name}.cypher"


def exploration_queries() -> list[ExplorationQuery]:
    """The exploration queries, by file name."""
    queries = []
    for path in sorted(BROWSER_DIR.glob("*.cypher")):
        text = path.read_text(encoding="utf-8").strip()
        header = [line.lstrip("/ ").rstrip() for line in text.splitlines() if line.startswith("//")]
        body = "\n".join(line for line in text.splitlines() if not line.startswith("//"))
        parameters = tuple(dict.fromkeys(_PARAMETER.findall(body)))
        queries.append(ExplorationQuery(path.stem, " ".join(header), parameters, text))
    return queries


def style_rules(grass: str | None = None) -> dict[str, dict[str, str]]:
    """The GraSS style sheet as Browser stores it: {selector: {property: value}} (e.g. "node.Concept")."""
    text = STYLE_FILE.read_text(encoding="utf-8") if grass is None else grass
    rules: dict[str, dict[str, str]] = {}
    for selector, block in re.findall(r"([\w.\-]+)\s*\{((?:[^{}\"]|\"[^\"]*\")*)\}", text):
        props = (part.split(":", 1) for part in block.split(";") if ":" in part)
        rules[selector] = {key.strip(): value.strip().strip('"') for key, value in props}
    return rules


def style_command() -> str:
    """`:style {...}` on one line, in the JSON form Browser accepts: no `;`, so multi-statement mode keeps it whole."""
    return ":style " + json.dumps(style_rules(), separators=(",", ":"))


def example_parameters(driver: neo4j.Driver, database: str, space: str) -> dict[str, str | None]:
    """Parameter values for every exploration query, picked from what `space` holds (None where it has nothing)."""
    records, _, _ = driver.execute_query(
        load("browser/examples/parameters"), space=space, database_=database, routing_=neo4j.RoutingControl.READ
    )
    values: dict[str, str | None] = {"space": space}
    values.update(records[0].data() if records else {})
    return values


def params_command(parameters: dict[str, str | None]) -> str:
    """`:params {space: "demo", ...}`: sets the parameters in Browser (strings quoted as JSON, which Cypher reads)."""
    return ":params {" + ", ".join(f"{key}: {json.dumps(value)}" for key, value in parameters.items()) + "}"


def browser_url(settings: EngramSettings, parameters: dict[str, str | None] | None = None) -> str:
    """The Browser URL that pre-fills the connect form (URL, user, database) and, given them, the parameters."""
    bolt = urlsplit(settings.neo4j.uri)
    host = bolt.hostname or "127.0.0.1"
    # Always a direct Bolt URL: with neo4j:// Browser connects where the server's routing table says, which may not
    # be this server (a stack on other ports advertised the default one) and then times out.
    scheme = bolt.scheme.replace("neo4j", "bolt")
    dbms = f"{scheme}://{settings.neo4j.user}@{host}:{bolt.port or 7687}"
    url = f"http://{host}:{settings.neo4j.http_port}/browser/?dbms={quote(dbms, safe=':/@')}"
    url += f"&db={quote(settings.neo4j.database)}"
    if parameters:
        url += f"&cmd=params&arg={quote(params_command(parameters)[len(':params ') :], safe='')}"
    return url


def print_browser(
    console: Console, settings: EngramSettings, driver: neo4j.Driver, space: str, query: str | None, style: bool
) -> None:
    """What `engram browser` prints: everything, or only the `:style` command, or only one query."""
    queries = exploration_queries()
    if style:
        console.print(style_command(), markup=False, highlight=False, soft_wrap=True)
        return
    if query is not None:
        chosen = [q for q in queries if q.name == query]
        if not chosen:
            raise ValueError(f"no exploration query {query!r}; there are: {', '.join(q.name for q in queries)}")
        console.print(chosen[0].text, markup=False, highlight=False, soft_wrap=True)
        return
    try:
        driver.verify_connectivity()  # fails at once where the query would retry for half a minute
        parameters = example_parameters(driver, settings.neo4j.database, space)
        note = "" if parameters.get("proposition") else "  (nothing in this space yet: ingest something first)"
    except (neo4j.exceptions.DriverError, neo4j.exceptions.Neo4jError) as exc:
        parameters = {"space": space, "proposition": None, "key": None, "dimension": None, "fact": None}
        note = f"  (no example values: Neo4j at {settings.neo4j.uri} answers {type(exc).__name__}; is it up?)"
    out = [
        f"Neo4j Browser for space '{space}':",
        f"  {browser_url(settings, parameters)}",
        f"  Log in as {settings.neo4j.user} (password: $NEO4J_PASSWORD, default engram-dev-password); the link",
        "  pre-fills the connect form and puts the :params command below in the editor: run it (Ctrl+Enter).",
        "",
        "1. Parameters (example values picked from the space; change them to explore something else):",
        f"  {params_command(parameters)}",
        *([note] if note else []),
        "",
        "2. Colours and captions per label (optional, kept by Browser): run the output of",
        f"  engram browser --space {space} --style",
        f"  or drag {STYLE_FILE.relative_to(CYPHER_DIR.parent)} onto the panel that `:style` opens.",
        "",
        "3. Exploration queries (paste one into the editor; `engram browser --space S --query NAME` prints it alone):",
    ]
    for q in queries:
        params = ", ".join(f"${p}" for p in q.parameters)
        out += ["", f"-- {q.name} ({params})", q.text]
    console.print("\n".join(out), markup=False, highlight=False, soft_wrap=True)
