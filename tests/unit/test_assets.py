"""The assets the package ships (engram/assets): in a checkout each is a link to the folder the repository keeps it in,
so the editable install, the TypeScript client's code generator and the tests read the same files; the wheel's copies
are tested in tests/e2e/test_wheel_install.py."""

from __future__ import annotations

import pytest

from app.api.inspector import INSPECTOR_DIST
from app.cli.api_client import OPERATIONS
from engram.assets import CYPHER, INSPECTOR, asset_dir
from engram.assets import OPERATIONS as OPERATIONS_ASSET
from engram.settings import PROJECT_ROOT
from graph.cypher import CYPHER_DIR


@pytest.mark.parametrize(
    ("name", "folder"), [(CYPHER, "cypher"), (OPERATIONS_ASSET, "graphql/operations"), (INSPECTOR, "web/dist")]
)
def test_each_asset_is_the_repository_folder(name: str, folder: str) -> None:
    assert asset_dir(name).resolve() == (PROJECT_ROOT / folder).resolve()


def test_the_readers_find_their_assets_through_the_package() -> None:
    assert (
        asset_dir(CYPHER),
        asset_dir(OPERATIONS_ASSET),
        asset_dir(INSPECTOR),
    ) == (CYPHER_DIR, OPERATIONS, INSPECTOR_DIST)
    assert (CYPHER_DIR / "schema").is_dir() and (OPERATIONS / "remember.graphql").is_file()
