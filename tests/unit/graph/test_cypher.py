from pathlib import Path

import pytest

from graph import cypher
from graph.cypher import CYPHER_DIR, load


def test_an_include_line_becomes_the_included_statement_at_its_indent() -> None:
    statement = load("recall/dense_episodes")
    assert "// include" not in statement
    # The included clause, indented as the include line was, without the included file's opening comment.
    assert (
        "\n  CALL (node, score) {\n    OPTIONAL MATCH (p:Proposition {space: $space})-[:PROVEN_BY]->(node)" in statement
    )
    assert "Included by the episode searches" not in statement


EPISODE_SEARCHES = ["exact", "dense", "fulltext", "page", "window", "window_told", "window_stated"]


def test_every_episode_search_takes_its_rows_from_one_clause() -> None:
    for search in EPISODE_SEARCHES:
        path = CYPHER_DIR / "recall" / f"{search}_episodes.cypher"
        text = path.read_text(encoding="utf-8")
        assert "// include recall/episode_knowledge" in text and "OPTIONAL MATCH (p:Proposition" not in text, path


def test_an_included_file_that_is_missing_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a.cypher").write_text("MATCH (n)\n// include nowhere\nRETURN n\n", encoding="utf-8")
    monkeypatch.setattr(cypher, "CYPHER_DIR", tmp_path)
    load.cache_clear()
    try:
        with pytest.raises(FileNotFoundError, match=r"nowhere\.cypher"):
            load("a")
    finally:
        load.cache_clear()
