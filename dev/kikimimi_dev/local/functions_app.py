"""All Cloud Functions in one functions-framework process, routed by path (/ingest, /judge, /reply); each
function takes at most as many requests at once as its deployment would (terraform/functions.tf)."""

from __future__ import annotations

import argparse
import json
import threading
from pathlib import Path
from typing import Any

from werkzeug.middleware.dispatcher import DispatcherMiddleware
from werkzeug.serving import WSGIRequestHandler, make_server
from werkzeug.wrappers import Request, Response

import kikimimi
from kikimimi.settings import Settings

FUNCTIONS = {
    "ingest": "cloudevent",
    "judge": "http",
    "reply": "http",
    "summarize": "http",
    "forget": "http",
    "reflect": "http",
    "maintain": "http",
}
# As terraform/functions.tf deploys them (a test compares): requests one instance serves at once, and the
# most instances. This process stands for every instance of every function: a function takes up to
# concurrency × instances requests at once, and the others wait for a thread, as Cloud Run queues them.
CONCURRENCY = {"ingest": 8, "judge": 1, "reply": 1, "summarize": 1, "forget": 1, "reflect": 1, "maintain": 1}
INSTANCES = {"ingest": 10, "judge": 10, "reply": 5, "summarize": 3, "forget": 3, "reflect": 3, "maintain": 1}


def source_path() -> Path:
    """functions/main.py: beside the kikimimi package, in a checkout as in a deployed bundle."""
    return Path(kikimimi.__file__).resolve().parents[1] / "main.py"


class _QuietHandler(WSGIRequestHandler):
    """No access log line per request (Cloud Run writes its request logs outside the instance); the
    functions' own JSON lines are the output the local stack reads."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        return None


def _health(environ: dict[str, Any], start_response: Any) -> Any:
    request = Request(environ)
    status = 200 if request.path in ("/", "/healthz") else 404
    mark = request.args.get("mark")
    if status == 200 and mark:
        # A barrier for the local stack's reader: every line printed before this one has been read
        # once this one is (one stdout, written in order).
        print(json.dumps({"event": "mark", "mark": mark}), flush=True)
    return Response("ok" if status == 200 else "not found", status=status)(environ, start_response)


def _rooted(app: Any) -> Any:
    """Serve `/ingest` itself (not only `/ingest/`) as Cloud Run does, instead of a 308 redirect."""

    def wrapped(environ: dict[str, Any], start_response: Any) -> Any:
        if not environ.get("PATH_INFO"):
            environ["PATH_INFO"] = "/"
        return app(environ, start_response)

    return wrapped


def _bounded(app: Any, limit: int) -> Any:
    """At most `limit` requests inside the function at once; the others wait their turn."""
    gate = threading.BoundedSemaphore(limit)

    def wrapped(environ: dict[str, Any], start_response: Any) -> Any:
        with gate:
            return app(environ, start_response)

    return wrapped


def make_app(source: Path | None = None) -> Any:
    """One WSGI app: each function is mounted at /{name}, exactly as functions-framework serves it."""
    import functions_framework

    source = source or source_path()
    mounts = {
        f"/{name}": _bounded(
            _rooted(functions_framework.create_app(target=name, source=str(source), signature_type=kind)),
            CONCURRENCY[name] * INSTANCES[name],
        )
        for name, kind in FUNCTIONS.items()
    }
    return DispatcherMiddleware(_health, mounts)


def _warm_up() -> None:
    """Load the offline model at start, not on the first reply (it takes seconds on a CPU)."""
    from kikimimi import bootstrap
    from kikimimi.ports import LLMRequest

    try:
        bootstrap.process_deps().writer.generate(
            LLMRequest(purpose="warm_up", system="Answer: ok", max_output_tokens=2)
        )
    except Exception as exc:  # a failed warm-up only means the first reply pays the load
        print(f"offline model warm-up failed: {exc}", flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m kikimimi_dev.local.functions_app", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args(argv)
    server = make_server(args.host, args.port, make_app(), threaded=True, request_handler=_QuietHandler)
    if Settings.from_env().llm_backend == "offline":
        threading.Thread(target=_warm_up, name="llm-warm-up", daemon=True).start()
    print(f"functions listening on http://{args.host}:{args.port}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
