"""The TypeScript client (clients/typescript): its unit tests, and its end-to-end test against the stack's API in a
space of its own (remember with the job's progress over graphql-ws, recall with provenance, memories, correct and
history, associate, export, forget the user, a wrong key), all under node's test runner."""

from __future__ import annotations

import os
import shutil
import subprocess
import uuid

import neo4j

from engram.settings import PROJECT_ROOT, EngramSettings
from tests.support.graphql_client import create_space

PACKAGE = PROJECT_ROOT / "clients" / "typescript"


def test_the_typescript_client_end_to_end(settings: EngramSettings, driver: neo4j.Driver) -> None:
    npm = shutil.which("npm")
    assert npm, "no npm: run infra/install.sh"
    origin = f"http://{settings.api.host}:{settings.api.port}"
    admin_key = settings.api.admin_key.get_secret_value()
    name = f"test-ts-{uuid.uuid4().hex[:10]}"
    try:
        key = create_space(f"{origin}/graphql", admin_key, name)
        result = subprocess.run(
            [npm, "run", "-s", "test:run"],
            cwd=PACKAGE,
            capture_output=True,
            text=True,
            timeout=600,
            env={**os.environ, "ENGRAM_E2E_URL": origin, "ENGRAM_E2E_KEY": key},
            check=False,
        )
        output = result.stdout + result.stderr
        assert result.returncode == 0, output[-6000:]
        assert "# fail 0" in output and "# skipped 0" in output, output[-3000:]
    finally:
        driver.execute_query("MATCH (n {space: $space}) DETACH DELETE n", space=name)
