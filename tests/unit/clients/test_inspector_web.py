"""The memory inspector's own checks (web/): ESLint (typescript-eslint, react-hooks) and Prettier (`npm run lint`),
and its component tests (`npm test`: vitest with Testing Library in jsdom, a fake client, no server) for the views
that hold logic (Memory, Search, Memories). The browser flows against the stack are tests/e2e/test_inspector*.py."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

from engram.settings import PROJECT_ROOT

WEB = PROJECT_ROOT / "web"


def _npm(script: str) -> subprocess.CompletedProcess[str]:
    npm = shutil.which("npm")
    assert npm, "no npm: run infra/install.sh"
    assert (WEB / "node_modules" / ".bin" / "vitest").exists(), "run infra/install.sh (npm ci in web/)"
    return subprocess.run(
        [npm, "run", "-s", script],
        cwd=WEB,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "CI": "1", "NO_COLOR": "1", "FORCE_COLOR": "0"},
        check=False,
    )


def test_the_inspector_passes_eslint_and_prettier() -> None:
    result = _npm("lint")
    assert result.returncode == 0, (result.stdout + result.stderr)[-6000:]


def test_the_inspector_component_tests_pass() -> None:
    result = _npm("test")
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-6000:]
    # Every file and every test ran and passed (vitest's summary: "Tests  18 passed (18)", nothing skipped).
    files = re.search(r"Test Files\s+(\d+) passed \((\d+)\)", output)
    tests = re.search(r"Tests\s+(\d+) passed \((\d+)\)", output)
    assert files and tests, output[-3000:]
    assert files[1] == files[2] and int(files[1]) >= 3, files[0]
    assert tests[1] == tests[2], tests[0]
