"""Applies the versioned schema files `cypher/schema/NNNN_name.cypher` idempotently.

Each file's statements use `IF NOT EXISTS`, so re-running is harmless; the applied version, name and
checksum are recorded as `(:SchemaMigration)` nodes. A file edited after it was applied is refused:
schema changes go into a new numbered file.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

import neo4j

from graph.cypher import CYPHER_DIR, load, split_statements

SCHEMA_DIR = CYPHER_DIR / "schema"
_FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.cypher$")


class MigrationError(RuntimeError):
    """The graph's recorded schema does not match the files."""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    path: Path

    @property
    def text(self) -> str:
        return self.path.read_text(encoding="utf-8")

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()


def discover(schema_dir: Path = SCHEMA_DIR) -> list[Migration]:
    """The schema files in version order."""
    migrations = []
    for path in sorted(schema_dir.glob("*.cypher")):
        match = _FILE_NAME.match(path.name)
        if not match:
            raise MigrationError(f"schema file {path.name} is not named NNNN_name.cypher")
        migrations.append(Migration(int(match.group(1)), match.group(2), path))
    versions = [m.version for m in migrations]
    if len(set(versions)) != len(versions):
        raise MigrationError(f"duplicate schema versions in {schema_dir}")
    return migrations


def applied_versions(driver: neo4j.Driver, database: str) -> dict[int, str]:
    """Version -> checksum of every migration recorded in the graph."""
    records, _, _ = driver.execute_query(load("migrations/applied_versions"), database_=database)
    return {int(r["version"]): str(r["checksum"]) for r in records}


def migrate(driver: neo4j.Driver, database: str, schema_dir: Path = SCHEMA_DIR) -> list[int]:
    """Apply every schema file not yet recorded; returns the versions applied now."""
    done = applied_versions(driver, database)
    applied_now = []
    for migration in discover(schema_dir):
        if migration.version in done:
            if done[migration.version] != migration.checksum:
                raise MigrationError(
                    f"schema file {migration.path.name} changed after it was applied; "
                    "add a new numbered file instead of editing an applied one"
                )
            continue
        for statement in split_statements(migration.text):
            # Schema statements cannot share a transaction with writes: one auto-commit each.
            driver.execute_query(statement, database_=database)
        driver.execute_query(
            load("migrations/record_version"),
            version=migration.version,
            name=migration.name,
            checksum=migration.checksum,
            database_=database,
        )
        applied_now.append(migration.version)
    driver.execute_query(load("migrations/await_indexes"), database_=database)
    return applied_now
