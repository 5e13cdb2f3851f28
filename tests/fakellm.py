"""A scripted OpenAI-compatible HTTP server on loopback, for tests.

Real HTTP, so timeouts, refused connections and broken bodies are what the
client really sees. Each chat-completions request takes the next scripted
behaviour (``ok``, ``content``, ``answer``, ``status``, ``hang``, ``hold``,
``garbage``, ``invalid_schema``, ``reset_mid_body``); when the script is empty it answers
with a valid result that echoes the request's user message. A request with
``"stream": true`` gets its completion as server-sent events (nanobot
streams). ``/v1/embeddings`` answers with deterministic, hash-based unit
vectors (held while ``hold_embeddings()`` is in force: an embedder that
makes no progress), and ``GET /v1/models`` (the daemon's start-up probe)
lists one model.

Every request's path, headers and JSON body are recorded, and the highest
number of chat requests in flight at once is tracked.
"""

from __future__ import annotations

import hashlib
import json
import socket
import struct
import sys
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

import msgspec

__all__ = [
    "Behaviour",
    "FakeLLM",
    "Recorded",
    "answer",
    "content",
    "garbage",
    "hang",
    "hold",
    "invalid_schema",
    "ok",
    "reset_mid_body",
    "status",
]


class _QuietServer(ThreadingHTTPServer):
    """Says nothing when a client goes away mid-request: a killed daemon does that on purpose."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@dataclass(frozen=True)
class Behaviour:
    """How the server answers one chat-completions request."""

    kind: str
    content: str = ""
    code: int = 200
    retry_after: str | None = None
    seconds: float = 0.0
    answer: Callable[[dict[str, Any]], dict[str, Any]] | None = None


def ok(result: Any) -> Behaviour:
    """A valid completion whose content is ``result`` (a dict or a msgspec Struct) as JSON."""
    if not isinstance(result, dict):
        result = msgspec.to_builtins(result)
    return Behaviour("content", content=json.dumps(result))


def content(text: str) -> Behaviour:
    """A valid completion whose message content is ``text`` verbatim."""
    return Behaviour("content", content=text)


def answer(respond: Callable[[dict[str, Any]], dict[str, Any]]) -> Behaviour:
    """A valid completion whose content is ``respond(request body)`` as JSON: a model that
    reads what it was sent (the ids it was shown, say) and answers from it."""
    return Behaviour("answer", answer=respond)


def status(code: int, retry_after: float | str | None = None, body: str = "") -> Behaviour:
    """An HTTP error ``code``, with a Retry-After header if given."""
    header = None if retry_after is None else str(retry_after)
    return Behaviour("status", code=code, retry_after=header, content=body)


def hang(seconds: float) -> Behaviour:
    """Send nothing for ``seconds`` (or until the server closes), then the default answer."""
    return Behaviour("hang", seconds=seconds)


def hold() -> Behaviour:
    """Send nothing until ``FakeLLM.release()`` (or close), then the default answer."""
    return Behaviour("hold")


def garbage(text: str = "<html>definitely not json</html>") -> Behaviour:
    """HTTP 200 whose body is ``text``, not a JSON completion."""
    return Behaviour("garbage", content=text)


def invalid_schema() -> Behaviour:
    """A valid completion whose content is JSON of the wrong shape."""
    return Behaviour("content", content=json.dumps({"summary": 42, "facts": "not a list"}))


def reset_mid_body() -> Behaviour:
    """Promise a body, send part of it, then reset the connection."""
    return Behaviour("reset")


@dataclass
class Recorded:
    """One request as the server received it."""

    path: str
    headers: dict[str, str]
    body: Any


def echo_result(request: dict[str, Any]) -> dict[str, Any]:
    """The default answer: the turns' text (their headers left out) as the summary, no facts."""
    users = [m["content"] for m in request.get("messages", []) if m.get("role") == "user"]
    turns = users[-1].partition("<turns>\n")[2].partition("\n</turns>")[0] if users else ""
    lines = [line for line in turns.splitlines() if not line.startswith("[#")]
    return {"summary": " ".join(lines), "facts": []}


def fake_embedding(text: str, dimension: int) -> list[float]:
    """A unit vector that depends only on ``text`` and ``dimension``."""
    raw = hashlib.shake_256(text.encode("utf-8")).digest(2 * dimension)
    values = [v / 32767.5 - 1.0 for v in struct.unpack(f"<{dimension}H", raw)]
    norm = sum(v * v for v in values) ** 0.5 or 1.0
    return [v / norm for v in values]


@dataclass
class _State:
    script: deque[Behaviour] = field(default_factory=deque)
    requests: list[Recorded] = field(default_factory=list)
    in_flight: int = 0
    max_in_flight: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    closing: threading.Event = field(default_factory=threading.Event)
    released: threading.Event = field(default_factory=threading.Event)
    embeddings_open: threading.Event = field(default_factory=threading.Event)


class FakeLLM:
    """The server; use as a context manager (or the ``fake_llm`` fixture)."""

    def __init__(
        self,
        *,
        dimension: int = 384,
        default: Callable[[dict[str, Any]], dict[str, Any]] = echo_result,
    ) -> None:
        self.dimension = dimension
        self.default = default
        self._state = _State()
        self._state.embeddings_open.set()
        self._server = _QuietServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def script(self, *behaviours: Behaviour) -> None:
        """Queue behaviours for the next chat requests, in order."""
        with self._state.lock:
            self._state.script.extend(behaviours)

    def clear(self) -> int:
        """Drop the behaviours not used yet (the fault is over); returns how many there were."""
        with self._state.lock:
            left = len(self._state.script)
            self._state.script.clear()
            return left

    @property
    def requests(self) -> list[Recorded]:
        """Chat-completions requests received so far."""
        with self._state.lock:
            return [r for r in self._state.requests if r.path.endswith("/chat/completions")]

    @property
    def all_requests(self) -> list[Recorded]:
        with self._state.lock:
            return list(self._state.requests)

    @property
    def in_flight(self) -> int:
        """Chat requests being answered right now."""
        return self._state.in_flight

    @property
    def max_in_flight(self) -> int:
        """The most chat requests that were ever in flight at once."""
        return self._state.max_in_flight

    def release(self) -> None:
        """Let every ``hold()`` request, current and future, answer."""
        self._state.released.set()

    def hold_embeddings(self) -> None:
        """Answer no embeddings request until ``release_embeddings()`` (or close).

        The daemon's indexer then cannot move its cursor, so its backlog grows
        with every append, deterministically: no timing decides the outcome.
        """
        self._state.embeddings_open.clear()

    def release_embeddings(self) -> None:
        """Answer embeddings requests again, the held ones first."""
        self._state.embeddings_open.set()

    def start(self) -> Self:
        self._thread.start()
        return self

    def close(self) -> None:
        self._state.closing.set()
        self._state.released.set()
        self._state.embeddings_open.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _next(self) -> Behaviour | None:
        with self._state.lock:
            return self._state.script.popleft() if self._state.script else None

    def _record(self, recorded: Recorded) -> None:
        with self._state.lock:
            self._state.requests.append(recorded)

    def _enter(self) -> None:
        with self._state.lock:
            self._state.in_flight += 1
            self._state.max_in_flight = max(self._state.max_in_flight, self._state.in_flight)

    def _leave(self) -> None:
        with self._state.lock:
            self._state.in_flight -= 1


def _completion(request: dict[str, Any], text: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 0,
        "model": request.get("model", ""),
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
    }


def _chunks(request: dict[str, Any], text: str) -> list[dict[str, Any]]:
    """A streamed completion: the text in one delta, the stop, then the usage."""
    head = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 0}
    head["model"] = request.get("model", "")
    delta = {"role": "assistant", "content": text}
    return [
        {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
        {**head, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
        {
            **head,
            "choices": [],
            "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
        },
    ]


def _handler_for(fake: FakeLLM) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: tests read ``fake.requests`` instead."""

        def _send(
            self,
            code: int,
            body: bytes,
            headers: dict[str, str] | None = None,
            kind: str = "application/json",
        ) -> None:
            self.send_response(code)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        def _json(self, code: int, obj: Any, headers: dict[str, str] | None = None) -> None:
            self._send(code, json.dumps(obj).encode(), headers)

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            try:
                request = json.loads(raw)
            except ValueError:
                request = None
            fake._record(Recorded(self.path, dict(self.headers.items()), request))
            if self.path.endswith("/embeddings") and isinstance(request, dict):
                self._embeddings(request)
            elif self.path.endswith("/chat/completions") and isinstance(request, dict):
                fake._enter()
                try:
                    self._chat(request, fake._next())
                except OSError:
                    self.close_connection = True  # the client went away
                finally:
                    fake._leave()
            else:
                self._json(404, {"error": {"message": f"no route for {self.path}"}})

        def do_GET(self) -> None:
            fake._record(Recorded(self.path, dict(self.headers.items()), None))
            if self.path.endswith("/models"):
                self._json(200, {"object": "list", "data": [{"id": "fake", "object": "model"}]})
            else:
                self._json(404, {"error": {"message": f"no route for {self.path}"}})

        def _answer(self, request: dict[str, Any], text: str) -> None:
            """A completion; a ``"stream": true`` request gets it as server-sent events."""
            if not request.get("stream"):
                self._json(200, _completion(request, text))
                return
            events = "".join(f"data: {json.dumps(chunk)}\n\n" for chunk in _chunks(request, text))
            self._send(200, (events + "data: [DONE]\n\n").encode(), None, "text/event-stream")

        def _chat(self, request: dict[str, Any], behaviour: Behaviour | None) -> None:
            if behaviour is None:
                self._answer(request, json.dumps(fake.default(request)))
            elif behaviour.kind == "content":
                self._answer(request, behaviour.content)
            elif behaviour.kind == "answer" and behaviour.answer is not None:
                self._answer(request, json.dumps(behaviour.answer(request)))
            elif behaviour.kind == "status":
                headers = (
                    {} if behaviour.retry_after is None else {"Retry-After": behaviour.retry_after}
                )
                body = behaviour.content or json.dumps({"error": {"message": "scripted error"}})
                self._send(behaviour.code, body.encode(), headers)
            elif behaviour.kind == "hang":
                if fake._state.closing.wait(behaviour.seconds):
                    self.close_connection = True
                    return
                self._chat(request, None)
            elif behaviour.kind == "hold":
                fake._state.released.wait()
                if fake._state.closing.is_set():
                    self.close_connection = True
                    return
                self._chat(request, None)
            elif behaviour.kind == "garbage":
                self._send(200, behaviour.content.encode())
            elif behaviour.kind == "reset":
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", "10000")
                self.end_headers()
                self.wfile.write(b'{"choices": [{"message": ')
                self.wfile.flush()
                self.connection.setsockopt(
                    socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)
                )
                self.connection.close()
                self.close_connection = True
            else:
                raise ValueError(f"unknown behaviour {behaviour.kind!r}")

        def _embeddings(self, request: dict[str, Any]) -> None:
            fake._state.embeddings_open.wait()
            if fake._state.closing.is_set():
                self.close_connection = True
                return
            inputs = request.get("input", [])
            texts = [inputs] if isinstance(inputs, str) else list(inputs)
            dimension = int(request.get("dimensions") or fake.dimension)
            data = [
                {"object": "embedding", "index": i, "embedding": fake_embedding(t, dimension)}
                for i, t in enumerate(texts)
            ]
            self._json(
                200,
                {
                    "object": "list",
                    "data": data,
                    "model": request.get("model", ""),
                    "usage": {"prompt_tokens": 0, "total_tokens": 0},
                },
            )

    return Handler


def extractive_config(llm: FakeLLM) -> str:
    """Extractive consolidation only on request (no LLM); embeddings from ``llm``, to be quick."""
    return f"""
[consolidation]
idle_after = 600.0
budget_tokens = 100000
hard_tokens = 200000

[embeddings]
provider = "openai"
base_url = "{llm.base_url}"
model = "fake-embed"
"""
