"""A local Gemini-compatible generateContent server that tests script, for the real google-genai SDK."""

from __future__ import annotations

import argparse
import json
import re
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from kikimimi_dev.local.embed_standin import EmbedRoute
from kikimimi_dev.local.gemini_bodies import (
    candidate_body,
    default_responder,
    error_body,
    estimate_tokens,
)

# Both /v1beta/models/X:generateContent and Vertex's .../publishers/google/models/X:generateContent.
_PATH = re.compile(r"/models/(?P<model>[^/:]+):generateContent$")

# A responder gets the parsed request body and returns the answer text, or an object sent as JSON.
Responder = Callable[[dict[str, Any]], "str | dict[str, Any] | list[Any]"]


@dataclass(frozen=True)
class RecordedRequest:
    """One generateContent call as the stand-in saw it."""

    path: str
    model: str
    body: dict[str, Any]
    headers: dict[str, str]

    @property
    def generation_config(self) -> dict[str, Any]:
        """The body's generationConfig (empty when absent)."""
        return dict(self.body.get("generationConfig") or {})

    @property
    def tools(self) -> list[str]:
        """The tools the request offers the model, by the body's key (googleSearch, urlContext …)."""
        return [name for tool in self.body.get("tools") or [] for name in tool]

    @property
    def system_text(self) -> str:
        """The system instruction's text parts joined."""
        parts = (self.body.get("systemInstruction") or {}).get("parts") or []
        return "".join(p.get("text", "") for p in parts)


@dataclass
class _Step:
    """One scripted answer: an HTTP status and body, or None to use the responder; plus a delay."""

    status: int = 200
    body: dict[str, Any] | None = None
    text: str | None = None
    delay_s: float = 0.0
    usage: tuple[int, ...] | None = None  # (prompt, candidates[, thoughts]) token counts
    sources: tuple[tuple[str, str], ...] = ()  # (uri, title) of the grounding chunks
    finish: str = "STOP"  # the candidate's finish reason


class GeminiStandIn:
    """A scripted stand-in for the Gemini generateContent endpoint on 127.0.0.1."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self._host, self._port = host, port
        self._lock = threading.Lock()
        self._steps: deque[_Step | float] = deque()  # a float is a delay for the step after it
        self._responder: Responder = default_responder
        self._stopping = threading.Event()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self.requests: list[RecordedRequest] = []
        self.embeddings = EmbedRoute()  # :batchEmbedContents / :embedContent

    @property
    def url(self) -> str:
        """The base URL to give the SDK as http_options.base_url."""
        if self._server is None:
            raise RuntimeError("stand-in not started")
        return f"http://{self._host}:{self._server.server_address[1]}"

    def start(self) -> str:
        """Bind, serve in a daemon thread, and return the base URL."""
        if self._server is None:
            self._stopping.clear()
            self._server = ThreadingHTTPServer((self._host, self._port), _handler_for(self))
            self._server.daemon_threads = True  # a handler sleeping on a delay must not block stop()
            self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
            self._thread.start()
        return self.url

    def stop(self) -> None:
        """Stop serving and wake handlers sleeping on a scripted delay."""
        self._stopping.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> GeminiStandIn:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def reply_text(self, text: str, usage: tuple[int, ...] | None = None) -> None:
        """Queue a candidate whose text is `text`; `usage` is (prompt, candidates[, thoughts]) tokens."""
        self._push(_Step(text=text, usage=usage))

    def reply_cut_off(self, text: str) -> None:
        """Queue a candidate that stopped at maxOutputTokens (finish reason MAX_TOKENS) after `text`."""
        self._push(_Step(text=text, finish="MAX_TOKENS"))

    def reply_grounded(self, text: str, sources: list[tuple[str, str]]) -> None:
        """Queue a candidate grounded on the web: `sources` are the (uri, title) of its grounding chunks,
        as Google Search grounding reports them (a redirect link titled by the site)."""
        self._push(_Step(text=text, sources=tuple(sources)))

    def reply_json(self, obj: Any, usage: tuple[int, ...] | None = None) -> None:
        """Queue a candidate whose text is `obj` encoded as JSON."""
        self.reply_text(json.dumps(obj, ensure_ascii=False), usage)

    def error(self, status: int, grpc_status: str | None = None, message: str | None = None) -> None:
        """Queue an error reply in Google's JSON error shape."""
        self._push(_Step(status=status, body=error_body(status, grpc_status, message)))

    def delay(self, seconds: float) -> None:
        """Hold the next answer (scripted or default) for `seconds` before sending it."""
        with self._lock:
            self._steps.append(float(seconds))

    def empty(self) -> None:
        """Queue a reply with no candidates, as when a prompt is blocked."""
        self._push(_Step(body={"candidates": [], "promptFeedback": {"blockReason": "SAFETY"}}))

    def invalid_json(self, text: str = "this is not JSON {") -> None:
        """Queue a candidate whose text does not parse as JSON."""
        self.reply_text(text)

    def set_responder(self, fn: Responder | None) -> None:
        """Answer unscripted calls with `fn(body)`; None restores the schema-aware default."""
        with self._lock:
            self._responder = fn or default_responder

    def reset(self) -> None:
        """Forget the script, the recorded requests and any custom responder."""
        with self._lock:
            self._steps.clear()
            self.requests.clear()
            self._responder = default_responder
        self.embeddings.reset()

    def _push(self, step: _Step) -> None:
        with self._lock:
            self._steps.append(step)

    def _answer(self, record: RecordedRequest) -> tuple[int, dict[str, Any], float]:
        """Record the call and decide status, body and delay for it."""
        with self._lock:
            self.requests.append(record)
            # Delays and the step they hold are taken together so a later call cannot steal the step.
            delay, head = 0.0, self._steps.popleft() if self._steps else _Step()
            while isinstance(head, float):
                delay, head = delay + head, self._steps.popleft() if self._steps else _Step()
            step = replace(head, delay_s=delay)
            responder = self._responder
        if step.body is not None:
            return step.status, step.body, step.delay_s
        text = step.text
        if text is None:
            try:
                answer = responder(record.body)
            except Exception as exc:  # a broken responder should fail the call, not hang it
                return 500, error_body(500, message=f"responder failed: {exc!r}"), step.delay_s
            text = answer if isinstance(answer, str) else json.dumps(answer, ensure_ascii=False)
        usage = step.usage or (estimate_tokens(json.dumps(record.body)), estimate_tokens(text))
        body = candidate_body(text, record.model, usage, step.sources, step.finish)
        return step.status, body, step.delay_s


def _handler_for(standin: GeminiStandIn) -> type[BaseHTTPRequestHandler]:
    """A request handler class bound to one stand-in."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as httpx expects

        def do_POST(self) -> None:
            path = self.path.split("?", 1)[0]
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if (embedded := standin.embeddings.answer(path, raw)) is not None:
                self._send(*embedded)
                return
            match = _PATH.search(path)
            if match is None:
                self._send(404, error_body(404, message=f"no route {path}"))
                return
            try:
                body = json.loads(raw or b"{}")
            except json.JSONDecodeError:
                self._send(400, error_body(400, message="body is not JSON"))
                return
            headers = {k.lower(): v for k, v in self.headers.items()}
            record = RecordedRequest(path, match["model"], body, headers)
            status, answer, delay_s = standin._answer(record)
            if delay_s and standin._stopping.wait(delay_s):
                return
            self._send(status, answer)

        def _send(self, status: int, body: dict[str, Any]) -> None:
            data = json.dumps(body, ensure_ascii=False).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json; charset=UTF-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test); nothing to tell it

        def log_message(self, format: str, *args: Any) -> None:
            pass  # quiet: tests assert on `requests`, not on the access log

    return Handler


def main(argv: list[str] | None = None) -> None:
    """Run the stand-in in the foreground until interrupted."""
    parser = argparse.ArgumentParser(description="Local Gemini generateContent stand-in")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)
    standin = GeminiStandIn(port=args.port)
    print(f"gemini stand-in listening on {standin.start()}", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        standin.stop()


if __name__ == "__main__":
    main()
