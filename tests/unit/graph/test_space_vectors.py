import re

from graph.space_vectors import SpaceVectorIndexes


def test_names_are_derived_from_the_space_and_safe_to_write_into_ddl() -> None:
    names = SpaceVectorIndexes.of("acme/support`) DROP INDEX x //")
    assert names == SpaceVectorIndexes.of("acme/support`) DROP INDEX x //")
    for name in (names.proposition_label, names.episode_label, names.propositions, names.episodes):
        assert re.fullmatch(r"[A-Za-z_]+_[0-9a-f]{20}", name)
    assert names.proposition_label != SpaceVectorIndexes.of("acme/support").proposition_label
    assert names.proposition_label != names.episode_label
    assert set(names.by_label()) == {"propositions", "episodes"}
