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


def _unit(*values: float) -> np.ndarray:
    vector = np.zeros(384, np.float32)
    vector[: len(values)] = values
    return vector / np.linalg.norm(vector)


def test_phrases_of_one_call_meet_the_schema_and_each_other() -> None:
    vectors = {
        "alpine lakes": _unit(1, 0.1),  # close to the schema key
        "river boats": _unit(0, 1),  # new
        "river boating": _unit(0.05, 1),  # close to the key accommodated just before, in the same call
        "desert": _unit(0, 0, 1),  # new: far from everything
    }
    schema = [SchemaKey("mountain lake", "mountain lake", _unit(1, 0))]
    assimilator = Assimilator(schema, lambda texts: np.stack([vectors[t] for t in texts]), threshold=0.95)
    result = assimilator.assimilate(list(vectors))
    assert (result["alpine lakes"].key, result["alpine lakes"].how) == ("mountain lake", MatchKind.EMBEDDING)
    assert result["river boats"].how is MatchKind.NEW and result["desert"].how is MatchKind.NEW
    assert (result["river boating"].key, result["river boating"].how) == ("river boat", MatchKind.EMBEDDING)
    assert set(assimilator.new_keys) == {"river boat", "desert"}  # keys are normalised (singular)
