import re

from graph.space_indexes import SpaceIndexes


def test_names_are_derived_from_the_space_and_safe_to_write_into_ddl() -> None:
    names = SpaceIndexes.of("acme/support`) DROP INDEX x //")
    assert names == SpaceIndexes.of("acme/support`) DROP INDEX x //")
    written = [i.name for i in names.indexes()] + [i.label for i in names.indexes()]
    for name in written:
        assert re.fullmatch(r"[A-Za-z_]+_[0-9a-f]{20}", name)
    assert names.label("propositions") != SpaceIndexes.of("acme/support").label("propositions")
    assert len({names.label(kind) for kind in ("propositions", "episodes", "concepts")}) == 3


def test_each_kind_has_the_indexes_recall_searches_it_by() -> None:
    names = SpaceIndexes.of("acme")
    made = {(i.kind, i.ddl) for i in names.indexes()}
    assert made == {
        ("propositions", "create_vector_index"),
        ("episodes", "create_vector_index"),
        ("concepts", "create_vector_index"),
        ("propositions", "create_fulltext_index"),
        ("episodes", "create_fulltext_index"),
    }
    assert len({i.name for i in names.indexes()}) == 5
    assert names.vector("prescriptions") is None and names.fulltext("concepts") is None
