"""The `openai` extractor's requests, against a stand-in HTTP server on 127.0.0.1 that behaves as llama.cpp's
server did (HTTP 500 to `response_format: json_schema`, answers to `json_object` with a schema) or as a `json_schema`
server does. Checked is our side: what is sent, the switch, the clear errors (a real server: docs/local-model.md)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from engram.extraction.base import EpisodeContext, ExtractionError
from engram.extraction.llm import LLMExtractor
from engram.extraction.openai_server import OpenAIServer

ANSWER = {"propositions": [{"text": "Caroline went hiking.", "subject": "Caroline", "concepts": ["hiking"]}]}
EPISODE = EpisodeContext("e1", "I went hiking yesterday.", "Caroline", "Melanie")


class Server:
    def __init__(self, accepts: set[str], content: str = json.dumps(ANSWER)) -> None:
        self.accepts = accepts
        self.content = content
        self.requests: list[dict[str, Any]] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                owner.requests.append(body)
                kind = body["response_format"]["type"]
                ok = kind in owner.accepts and "schema" in (
                    body["response_format"].get("json_schema") or body["response_format"]
                )
                reply = {"choices": [{"message": {"content": owner.content}}]} if ok else {"error": "unsupported"}
                data = json.dumps(reply).encode()
                self.send_response(200 if ok else 500)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}/v1"


@pytest.fixture()
def serve() -> Iterator[Any]:
    started: list[Server] = []

    def start(accepts: set[str], content: str = json.dumps(ANSWER)) -> Server:
        server = Server(accepts, content)
        threading.Thread(target=server.http.serve_forever, daemon=True).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.http.shutdown()
        server.http.server_close()


def test_a_json_schema_server_gets_json_schema(serve: Any) -> None:
    server = serve({"json_schema"})
    client = OpenAIServer(server.url, "m", "k", 5.0)
    drafts = LLMExtractor(client.generate).extract([EPISODE])
    assert [d.text for d in drafts] == ["Caroline went hiking."]
    assert [r["response_format"]["type"] for r in server.requests] == ["json_schema"]
    assert "maxLength" not in json.dumps(server.requests[0]["response_format"])  # the loose schema travels


def test_a_server_refusing_json_schema_gets_json_object_with_the_schema_from_then_on(serve: Any) -> None:
    server = serve({"json_object"})
    client = OpenAIServer(server.url, "m", "k", 5.0)
    extractor = LLMExtractor(client.generate)
    assert [d.text for d in extractor.extract([EPISODE])] == ["Caroline went hiking."]
    assert [d.text for d in extractor.extract([EPISODE])] == ["Caroline went hiking."]
    kinds = [r["response_format"]["type"] for r in server.requests]
    assert kinds == ["json_schema", "json_object", "json_object"] and client.response_format == "json_object"
    assert server.requests[1]["response_format"]["schema"]["properties"]["propositions"]


def test_invalid_output_is_retried_then_a_clear_job_error(serve: Any) -> None:
    server = serve({"json_schema"}, content='{"propositions": [{"text": "cut off')
    client = OpenAIServer(server.url, "m", "k", 5.0)
    with pytest.raises(ExtractionError, match="not a valid extraction"):
        LLMExtractor(client.generate, attempts=2).extract([EPISODE])
    assert [r["temperature"] for r in server.requests] == [0.0, 0.7]  # the retry samples


def test_a_server_that_is_down_is_a_clear_error(serve: Any) -> None:
    server = serve({"json_schema"})
    server.http.server_close()
    with pytest.raises(ExtractionError, match=r"extraction server http://127.0.0.1:\d+/v1 is unreachable"):
        OpenAIServer(server.url, "m", "k", 2.0).generate("prompt", 16)
    with pytest.raises(ExtractionError, match="BASE_URL"):
        OpenAIServer("", "m", "k", 2.0)
