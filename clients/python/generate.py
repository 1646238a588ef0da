"""Generate the typed Python client (engram_client) from graphql/schema.graphql and graphql/operations/.

ariadne-codegen writes one client per run, async or sync; this script runs it twice and merges the two
outputs into one package: the models, inputs and enums are the same files in both runs (checked here), and
the clients live beside each other (`AsyncEngramClient` in async_client.py, `EngramClient` in sync_client.py).

    python clients/python/generate.py           # rewrite clients/python/engram_client/
    python clients/python/generate.py --check   # exit 1 if the committed package differs from a fresh run

Run it with the interpreter that has ariadne-codegen (`infra/install.sh` builds one at
$ENGRAM_CODEGEN_VENV, default ~/.cache/engram/codegen-venv: its graphql-core cannot share the API's venv).
"""

from __future__ import annotations

import argparse
import filecmp
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CLIENT_DIR = Path(__file__).resolve().parent
ROOT = CLIENT_DIR.parent.parent
PACKAGE = "engram_client"
SCHEMA = ROOT / "graphql" / "schema.graphql"
OPERATIONS = ROOT / "graphql" / "operations"

# (client class, module, base client module, async?)
VARIANTS = [
    ("AsyncEngramClient", "async_client", "async_base_client", True),
    ("EngramClient", "sync_client", "base_client", False),
]
SCALARS = """
[tool.ariadne-codegen.scalars.DateTime]
type = "datetime.datetime"

[tool.ariadne-codegen.scalars.JSON]
type = "typing.Any"
"""


def _operations_for(workdir: Path, is_async: bool) -> Path:
    """Every operation for the async client; the sync one cannot hold subscriptions (a websocket stream)."""
    if is_async:
        return OPERATIONS
    folder = workdir / "sync_operations"
    folder.mkdir()
    for path in OPERATIONS.glob("*.graphql"):
        if not re.search(r"^\s*subscription\b", path.read_text(encoding="utf-8"), flags=re.MULTILINE):
            shutil.copy2(path, folder / path.name)
    return folder


def _config(target: Path, operations: Path, client: str, module: str, is_async: bool) -> str:
    return f"""[tool.ariadne-codegen]
schema_path = "{SCHEMA.as_posix()}"
queries_path = "{operations.as_posix()}"
target_package_name = "{PACKAGE}"
target_package_path = "{target.as_posix()}"
client_name = "{client}"
client_file_name = "{module}"
async_client = {"true" if is_async else "false"}
include_comments = "none"
{SCALARS}"""


def _run_codegen(workdir: Path, client: str, module: str, is_async: bool) -> Path:
    target = workdir / module
    target.mkdir(parents=True)
    config = workdir / f"{module}.toml"
    operations = _operations_for(workdir, is_async)
    config.write_text(_config(target, operations, client, module, is_async), encoding="utf-8")
    codegen = Path(sys.executable).with_name("ariadne-codegen")
    subprocess.run([str(codegen), "--config", str(config)], check=True, cwd=workdir, stdout=subprocess.DEVNULL)
    return target / PACKAGE


# httpx's default 5 s read timeout is shorter than a recall on a busy server or an ingest that waits: the clients'
# own default is a minute (an `http_client` of the caller's keeps its settings).
DEFAULT_TIMEOUT = "httpx.Timeout(60.0, connect=10.0)"


def _with_default_timeout(source: str) -> str:
    patched = re.sub(
        r"httpx\.(Async)?Client\(headers=headers\)",
        rf"httpx.\1Client(headers=headers, timeout={DEFAULT_TIMEOUT})",
        source,
    )
    if patched == source:
        raise SystemExit("the generated base client no longer builds its httpx client as expected")
    return patched


# People write the API's address either way: its base URL (`http://host:8000`, as ENGRAM_URL and the CLI) or its
# GraphQL endpoint (`.../graphql`). The generated client posts to `url` as given; both forms reach the endpoint.
ENDPOINT_URL = (
    '        self.url = url if not url or url.rstrip("/").endswith("/graphql") else url.rstrip("/") + "/graphql"\n'
)


def _with_endpoint_url(source: str) -> str:
    patched = source.replace("        self.url = url\n", ENDPOINT_URL, 1)
    if patched == source:
        raise SystemExit("the generated base client no longer keeps its url as expected")
    return patched


def _init_module(async_init: str, sync_init: str) -> str:
    """The async run's __init__ plus the sync client's import and export (the rest of the two is the same)."""
    sync_imports = [
        line for line in sync_init.splitlines() if "sync_client import" in line or "base_client import" in line
    ]
    lines = async_init.splitlines()
    last_import = max(i for i, line in enumerate(lines) if line.startswith("from "))
    lines[last_import + 1 : last_import + 1] = [line for line in sync_imports if line not in lines]
    body = "\n".join(lines)
    for name in ("BaseClient", "EngramClient"):
        body = body.replace("__all__ = [", f'__all__ = [\n    "{name}",', 1)
    return body + "\n"


def generate(out: Path) -> None:
    """Write the merged package to `out` (replacing it)."""
    with tempfile.TemporaryDirectory() as tmp:
        built = {module: _run_codegen(Path(tmp), client, module, a) for client, module, _, a in VARIANTS}
        async_pkg, sync_pkg = built["async_client"], built["sync_client"]
        only_one = {f"{m}.py" for _, m, _, _ in VARIANTS} | {f"{b}.py" for _, _, b, _ in VARIANTS} | {"__init__.py"}
        # Modules of subscription results exist in the async run only.
        shared = sorted(p.name for p in sync_pkg.glob("*.py") if p.name not in only_one)
        _, mismatch, missing = filecmp.cmpfiles(async_pkg, sync_pkg, shared, shallow=False)
        if mismatch or missing:
            raise SystemExit(f"async and sync runs disagree on shared modules: {mismatch + missing}")
        if out.exists():
            shutil.rmtree(out)
        shutil.copytree(async_pkg, out)
        for name in ("sync_client.py", "base_client.py"):
            shutil.copy2(sync_pkg / name, out / name)
        for name in ("base_client.py", "async_base_client.py"):
            source = (out / name).read_text(encoding="utf-8")
            (out / name).write_text(_with_endpoint_url(_with_default_timeout(source)), encoding="utf-8")
        init = _init_module((async_pkg / "__init__.py").read_text(), (sync_pkg / "__init__.py").read_text())
        (out / "__init__.py").write_text(init, encoding="utf-8")
        (out / "py.typed").write_text("", encoding="utf-8")


def drift(committed: Path) -> list[str]:
    """Files that differ between `committed` and a fresh generation (empty when in sync)."""
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / PACKAGE
        generate(fresh)
        names = {p.name for p in fresh.iterdir()} | {p.name for p in committed.glob("*") if p.name != "__pycache__"}
        return sorted(
            n
            for n in names
            if not (committed / n).is_file()
            or not (fresh / n).is_file()
            or not filecmp.cmp(committed / n, fresh / n, shallow=False)
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="only report drift; exit 1 if there is any")
    args = parser.parse_args()
    target = CLIENT_DIR / PACKAGE
    if args.check:
        changed = drift(target)
        if changed:
            print(f"engram_client is out of date ({', '.join(changed)}): run python clients/python/generate.py")
            raise SystemExit(1)
        print("engram_client matches graphql/schema.graphql and graphql/operations/")
        return
    generate(target)
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
