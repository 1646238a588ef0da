"""clients/typescript/src/generated/graphql.ts is what GraphQL Code Generator makes of graphql/schema.graphql and
graphql/operations/ today (the TypeScript twin of test_client_codegen.py): a changed operation without
`npm run generate` in clients/typescript fails here."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from engram.settings import PROJECT_ROOT

PACKAGE = PROJECT_ROOT / "clients" / "typescript"
CHECK = PACKAGE / "scripts" / "check-generated.mjs"


def _check(**env: str) -> subprocess.CompletedProcess[str]:
    node = shutil.which("node")
    assert node, "no node: run infra/install.sh"
    assert (PACKAGE / "node_modules" / ".bin" / "graphql-codegen").exists(), "run infra/install.sh (npm ci)"
    return subprocess.run(
        [node, str(CHECK)], capture_output=True, text=True, timeout=300, env={**os.environ, **env}, check=False
    )


def test_the_committed_typescript_client_is_what_the_generator_makes() -> None:
    result = _check()
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_drift_check_sees_an_operation_changed_without_regeneration(tmp_path: Path) -> None:
    operations = PROJECT_ROOT / "graphql" / "operations"
    for path in operations.glob("*.graphql"):
        shutil.copy2(path, tmp_path / path.name)
    users = tmp_path / "users.graphql"
    users.write_text(users.read_text().replace("users { user }", "users { user __typename }"))
    result = _check(ENGRAM_CODEGEN_DOCUMENTS=f"{tmp_path.as_posix()}/*.graphql")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "out of date" in result.stderr
