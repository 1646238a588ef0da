"""The `openai` extractor against llama.cpp's own OpenAI-compatible server (`python -m llama_cpp.server`), started
and stopped here on a free 127.0.0.1 port with the local-model extra's GGUF file. That server answers
`response_format: json_schema` with an error and takes `json_object` with a schema: the extractor must switch, and
every episode must give a valid extraction or a clear ExtractionError. Needs llama-cpp-python (skipped without)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest

from engram.extraction.base import EpisodeContext, ExtractionError
from engram.extraction.llm import LLMExtractor
from engram.extraction.openai_server import OpenAIServer
from engram.extraction.prompts.extract_propositions import TEXT_CHARS

pytestmark = [pytest.mark.local_model, pytest.mark.timeout(1800)]
DAY = datetime(2023, 5, 8, tzinfo=UTC)
EPISODES = [
    EpisodeContext(
        "e1", "I went to the LGBTQ support group yesterday and it was so powerful.", "Caroline", "Melanie", DAY
    ),
    EpisodeContext("e2", "I painted a lake sunrise last year! It's special to me.", "Melanie", "Caroline", DAY),
]
START_S = 300  # loading is about a second idle; minutes on a machine this loaded


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def server(local_gguf: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pytest.importorskip("sse_starlette", reason="llama.cpp's server needs pip install 'llama-cpp-python[server]'")
    port = free_port()
    log = tmp_path_factory.mktemp("llamacpp-server") / "server.log"
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(local_gguf)]
    command += ["--host", "127.0.0.1", "--port", str(port), "--n_ctx", "2048", "--model_alias", "gemma3-270m"]
    env = {**os.environ, "OMP_WAIT_POLICY": "PASSIVE"}
    with log.open("w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + START_S
        while True:
            assert process.poll() is None, f"llama.cpp's server exited: {log.read_text()[-2000:]}"
            try:
                if httpx.get(f"{url}/models", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, f"llama.cpp's server did not answer in {START_S} s"
            time.sleep(1)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def test_the_extractor_switches_to_json_object_and_every_episode_is_valid_or_a_clear_error(server: str) -> None:
    talk = OpenAIServer(server, "gemma3-270m", "none", timeout_s=600)
    assert talk.response_format == "json_schema"
    extractor = LLMExtractor(talk.generate, attempts=2)
    extractor._max_new_tokens = 160  # a test's budget: a base model that repeats itself is cut off sooner
    outcomes: list[object] = []
    for episode in EPISODES:
        try:
            drafts = extractor.extract([episode])
        except ExtractionError as error:
            assert "not a valid extraction" in str(error), error
            outcomes.append(error)
            continue
        assert all(d.episode_ids == [episode.episode_id] and 0 < len(d.text) <= TEXT_CHARS for d in drafts)
        outcomes.append(drafts)
    assert talk.response_format == "json_object"  # the real server refused json_schema; the switch held
    assert len(outcomes) == len(EPISODES)


def test_a_server_that_stopped_is_a_clear_error() -> None:
    talk = OpenAIServer(f"http://127.0.0.1:{free_port()}/v1", "gemma3-270m", "none", timeout_s=5)
    with pytest.raises(ExtractionError, match="unreachable"):
        LLMExtractor(talk.generate, 160, attempts=1).extract([EPISODES[0]])
