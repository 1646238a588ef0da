import numpy as np

from engram.embedding import get_embedder
from engram.extraction.assimilation import Assimilator, MatchKind, SchemaKey


def _schema(*keys: str) -> list[SchemaKey]:
    vectors = get_embedder().encode(list(keys))
    return [SchemaKey(k, k, v) for k, v in zip(keys, vectors, strict=True)]


def test_exact_normalized_embedding_and_new() -> None:
    assimilator = Assimilator(_schema("support group", "new york city", "painting"), get_embedder().encode, 0.85)
    result = assimilator.assimilate(
        ["support group", "Support Groups", "New-York City", "paintings", "quantum physics"]
    )
    assert result["support group"].how is MatchKind.EXACT
    assert result["Support Groups"].key == "support group" and result["Support Groups"].how is MatchKind.NORMALIZED
    assert result["New-York City"].key == "new york city"
    assert result["paintings"].key == "painting"
    assert result["quantum physics"].how is MatchKind.NEW
    assert set(assimilator.new_keys) == {"quantum physics"}


def test_close_embedding_assimilates_into_an_existing_key() -> None:
    assimilator = Assimilator(_schema("dog"), get_embedder().encode, threshold=0.8)
    result = assimilator.assimilate(["dogs", "puppy dog"])
    assert result["puppy dog"].how in (MatchKind.EMBEDDING, MatchKind.NEW)
    assert result["dogs"].key == "dog"


def test_new_keys_are_visible_to_later_phrases_of_the_same_job() -> None:
    assimilator = Assimilator([], get_embedder().encode)
    first = assimilator.assimilate(["Hiking Trails"])
    second = assimilator.assimilate(["hiking trail"])
    assert first["Hiking Trails"].how is MatchKind.NEW
    assert second["hiking trail"].key == "hiking trail" and second["hiking trail"].how is MatchKind.EXACT


def test_empty_schema_and_empty_phrases() -> None:
    assimilator = Assimilator([], lambda texts: np.zeros((len(texts), 384), np.float32))
    assert assimilator.assimilate(["!!", ""]) == {}
