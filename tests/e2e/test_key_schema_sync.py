"""Key tries stay consistent across processes through the graph and the Redis change log (real Neo4j, Redis).

A second Python process accommodates and retires keys; this process's trie follows without a rebuild, and the
next constrained generation names exactly the new schema.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import neo4j
import outlines
import pytest
import redis
import torch

from engram.concept_keys.decoder import KeyDecoder
from engram.concept_keys.sync import KeyKind, KeyLog
from engram.embedding import get_embedder
from engram.settings import EngramSettings, KeySettings
from graph.concept_keys.tries import Accommodator, ConstrainedKeyNamer, KeySchemas, load_key_strings
from graph.recall.logic.abstract import ConstrainedAbstractor, OfflineAbstractor, create_abstractor
from graph.recall.neo4j_searcher import GraphSearcher
from tests.support.graph_queries import rows
from tests.support.tiny_lm import build_tiny_lm

pytestmark = pytest.mark.e2e
PROMPT = "Name the memory key.\nKey:\n"
SECOND_PROCESS = textwrap.dedent(
    """
    import sys
    import redis
    from transformers import AutoTokenizer
    from engram.embedding import get_embedder
    from engram.concept_keys.tokenization import KeyTokenizer
    from engram.settings import get_settings
    from graph.driver import get_driver
    from graph.concept_keys.tries import Accommodator, KeySchemas

    model_dir, space = sys.argv[1], sys.argv[2]
    settings = get_settings()
    schemas = KeySchemas(get_driver(), settings.neo4j.database, redis.Redis.from_url(settings.redis.url))
    schema = schemas.get(KeyTokenizer(AutoTokenizer.from_pretrained(model_dir)), space)
    accommodator = Accommodator(get_driver(), settings.neo4j.database, schema, space, get_embedder().encode)
    print(accommodator.accommodate("Pottery Classes"), accommodator.retire("hiking"), sep="\\n")
    """
)


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("tiny-lm-e2e")
    build_tiny_lm(str(directory))
    return directory


@pytest.fixture(scope="module")
def decoder(model_dir: Path) -> KeyDecoder:
    model, tokenizer = build_tiny_lm(str(model_dir))
    return KeyDecoder(outlines.from_transformers(model, tokenizer))


@pytest.fixture()
def client(settings: EngramSettings, space: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(settings.redis.url)
    yield client
    for kind in KeyKind:
        log = KeyLog(client, space, kind)
        client.delete(log.stream, log.counter)


@pytest.fixture()
def schemas(driver: neo4j.Driver, settings: EngramSettings, client: redis.Redis) -> KeySchemas:
    return KeySchemas(driver, settings.neo4j.database, client)


def _accommodator(
    driver: neo4j.Driver, settings: EngramSettings, schemas: KeySchemas, decoder: KeyDecoder, space: str
) -> Accommodator:
    schema = schemas.get(decoder.tokenizer, space)
    return Accommodator(driver, settings.neo4j.database, schema, space, get_embedder().encode)


def test_a_second_process_changes_the_keys_and_this_trie_follows(
    driver: neo4j.Driver,
    settings: EngramSettings,
    schemas: KeySchemas,
    decoder: KeyDecoder,
    model_dir: Path,
    space: str,
) -> None:
    accommodator = _accommodator(driver, settings, schemas, decoder, space)
    for phrase in ["Hiking", "painting", "Paris museums"]:
        accommodator.accommodate(phrase)
    schema = schemas.get(decoder.tokenizer, space)
    trie = schema.trie()
    assert set(trie.keys()) == {"hiking", "painting", "paris museum"}
    reloads = schema.reloads

    done = subprocess.run(
        [sys.executable, "-c", SECOND_PROCESS, str(model_dir), space], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-2:] == ["pottery class", "True"]

    expected = {"painting", "paris museum", "pottery class"}
    assert schema.trie() is trie and schema.reloads == reloads  # applied in place, not rebuilt
    assert (
        set(trie.keys()) == expected == set(load_key_strings(driver, settings.neo4j.database, space, KeyKind.CONCEPT))
    )
    assert {c.key for c in decoder.name_keys(PROMPT, schema.trie(), 5)} == expected


def test_a_trimmed_or_reset_log_means_a_reload_and_reconcile_catches_silent_writers(
    driver: neo4j.Driver,
    settings: EngramSettings,
    schemas: KeySchemas,
    decoder: KeyDecoder,
    client: redis.Redis,
    space: str,
) -> None:
    accommodator = _accommodator(driver, settings, schemas, decoder, space)
    accommodator.accommodate("gardening")
    schema = schemas.get(decoder.tokenizer, space)
    # Someone else accommodates while this process is not looking, and the log is trimmed away.
    driver.execute_query(
        "CREATE (:Concept {space: $space, id: 'con_manual', key: 'baking', name: 'baking'})", space=space
    )
    schema.log.publish(added=["baking"])
    client.xtrim(schema.log.stream, maxlen=0)
    reloads = schema.reloads
    assert "baking" in schema.trie() and schema.reloads == reloads + 1
    # A writer that does not publish at all is caught by reconciling against the graph.
    driver.execute_query("MATCH (c:Concept {space: $space, key: 'baking'}) DETACH DELETE c", space=space)
    assert schema.reconcile() == (0, 1)
    assert set(schema.trie().keys()) == {"gardening"}
    # Forget empties the log instead of publishing a removal (that entry would keep the forgotten key in Redis):
    # the version moves on, and every reader reloads from the graph.
    accommodator.accommodate("knitting")
    assert "knitting" in schema.trie()
    driver.execute_query("MATCH (c:Concept {space: $space, key: 'knitting'}) DETACH DELETE c", space=space)
    schema.log.reset()
    assert client.xlen(schema.log.stream) == 0
    reloads = schema.reloads
    assert set(schema.trie().keys()) == {"gardening"} and schema.reloads == reloads + 1


def test_a_key_still_mentioned_is_not_retired(
    driver: neo4j.Driver, settings: EngramSettings, schemas: KeySchemas, decoder: KeyDecoder, space: str
) -> None:
    accommodator = _accommodator(driver, settings, schemas, decoder, space)
    key = accommodator.accommodate("support group")
    driver.execute_query(
        "MATCH (c:Concept {space: $space, key: $key}) CREATE (:Proposition {space: $space, id: 'p1'})-[:MENTIONS]->(c)",
        space=space,
        key=key,
    )
    assert not accommodator.retire(key)
    assert key in schemas.get(decoder.tokenizer, space).trie()


def test_the_abstractor_names_only_keys_of_the_space(
    driver: neo4j.Driver, settings: EngramSettings, schemas: KeySchemas, decoder: KeyDecoder, space: str
) -> None:
    accommodator = _accommodator(driver, settings, schemas, decoder, space)
    keys = {accommodator.accommodate(p) for p in ["hiking", "pottery", "adoption agency", "charity race"]}
    abstractor = ConstrainedAbstractor(decoder, schemas, k=3)
    assert len(set(abstractor.named_keys("What did Caroline research?", space))) == 3
    assert set(abstractor.named_keys("What did Caroline research?", space)) <= keys
    searcher = GraphSearcher(driver, settings.neo4j.database, space, None)
    vector = get_embedder().encode(["What did Caroline research?"])[0].tolist()
    with ThreadPoolExecutor(1) as searches:
        hits = abstractor.concepts("What did Caroline research?", vector, searcher, searches)
    assert {h.key for h in hits} >= set(abstractor.named_keys("What did Caroline research?", space))
    assert {h.key for h in hits} <= keys


def test_without_a_model_the_abstractor_stays_offline(
    driver: neo4j.Driver, settings: EngramSettings, client: redis.Redis
) -> None:
    abstractor = create_abstractor(KeySettings(model=""), driver, settings.neo4j.database, client)
    assert isinstance(abstractor, OfflineAbstractor)


def test_extraction_names_existing_keys_or_accommodates_new_ones(
    driver: neo4j.Driver, settings: EngramSettings, schemas: KeySchemas, model_dir: Path, space: str
) -> None:
    model, tokenizer = build_tiny_lm(str(model_dir))
    sampling = KeyDecoder(outlines.from_transformers(model, tokenizer), do_sample=True, temperature=2.0)
    accommodator = _accommodator(driver, settings, schemas, sampling, space)
    existing = {accommodator.accommodate(p) for p in ["hiking", "dog"]}
    namer = ConstrainedKeyNamer(sampling, schemas, driver, settings.neo4j.database, get_embedder().encode)
    phrases = ["hike", "my dog", "yesterday"]
    named: set[str] = set()
    for seed in range(6):
        torch.manual_seed(seed)
        named |= set(namer.name(space, "Caroline went hiking yesterday with her dog.", phrases))
    in_graph = set(load_key_strings(driver, settings.neo4j.database, space, KeyKind.CONCEPT))
    # Every name is a key of the graph now, or the raw phrase where the model's new key was not a valid key.
    assert named <= in_graph | set(phrases)
    assert named & existing, "sampling never chose an existing key"
    accommodated = in_graph - existing
    assert accommodated, "sampling never took the new-key escape"
    stored = rows(driver, "MATCH (c:Concept {space: $s}) RETURN c.key AS key, c.embedding AS e", s=space)
    assert all(r["e"] for r in stored)  # accommodated keys carry an embedding, like every Concept
