"""Helpers the tests share: the happy path's events, and a loopback HTTP server that answers
from a script (for the retry tests) or collects deliveries (for the webhook tests)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

#: docs/test-mode.md, `happy_path`: the sixteen events, in sequence order.
HAPPY_PATH = [
    "request.created:submitted",
    "request.updated:routed",
    "request.updated:routed",
    "message.created",
    "proposal.received:submitted",
    "proposal.accepted:accepted",
    "request.updated:in_progress",
    "milestone.created:open",
    "deliverable.created:submitted",
    "milestone.submitted:submitted",
    "milestone.approved:approved",
    "payment.requested:pending_approval",
    "payment.requested:approved",
    "payment.completed:completed",
    "job.completed:completed",
    "request.updated:completed",
]


@dataclass
class Received:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Answer:
    status: int
    body: bytes = b"{}"
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class LoopbackServer:
    url: str
    received: list[Received]


@contextmanager
def loopback_server(answer: Callable[[Received], Answer]) -> Iterator[LoopbackServer]:
    """An HTTP server on 127.0.0.1 that records each call and answers what ``answer`` says."""
    received: list[Received] = []

    class Handler(BaseHTTPRequestHandler):
        def _serve(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            call = Received(
                self.command,
                self.path,
                {k.lower(): v for k, v in self.headers.items()},
                self.rfile.read(length),
            )
            received.append(call)
            reply = answer(call)
            self.send_response(reply.status)
            headers = {"content-type": "application/json", **reply.headers}
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("content-length", str(len(reply.body)))
            self.end_headers()
            self.wfile.write(reply.body)

        do_GET = do_POST = _serve

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield LoopbackServer(f"http://127.0.0.1:{server.server_address[1]}", received)
    finally:
        server.shutdown()
        server.server_close()


def label(event_type: str, status: object) -> str:
    return f"{event_type}:{status}" if isinstance(status, str) else event_type
