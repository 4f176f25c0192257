"""A handoff as an A2A task, driven by a client we did not write: the Python ``a2a-sdk``.

It reads the gateway's Agent Card (``/.well-known/agent-card.json``), sends a message that
becomes a test request (the simulated provider plays ``asks_question``), streams the task's
updates until the provider's question makes it input-required, and receives the push
notifications its config asked for on an HTTP server of its own (docs/a2a.md).
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import anyio
import httpx
import pytest
from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
from a2a.types.a2a_pb2 import (
    GetTaskRequest,
    Message,
    Part,
    Role,
    SendMessageConfiguration,
    SendMessageRequest,
    TaskPushNotificationConfig,
    TaskState,
)
from google.protobuf import json_format, struct_pb2


class _Pushes:
    """A local HTTP server that keeps every POST it gets: headers and JSON body."""

    def __init__(self) -> None:
        self.received: list[tuple[dict[str, str], dict[str, object]]] = []
        pushes = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                pushes.received.append(({k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(204)
                self.end_headers()

            def log_message(self, format: str, *args: object) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/a2a-push"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _data(value: dict[str, object]) -> struct_pb2.Value:
    return json_format.ParseDict(value, struct_pb2.Value())


@pytest.mark.anyio
async def test_a2a_card_message_stream_and_push(base_url: str, test_key: str) -> None:
    pushes = _Pushes()
    http = httpx.AsyncClient(headers={"Authorization": f"Bearer {test_key}"}, timeout=60)
    try:
        card = await A2ACardResolver(http, base_url).get_agent_card()
        assert card.name == "Handoff"
        assert card.capabilities.streaming and card.capabilities.push_notifications
        assert card.supported_interfaces[0].url == f"{base_url}/a2a"
        assert card.supported_interfaces[0].protocol_version == "1.0"
        assert card.security_schemes["agent_key"].http_auth_security_scheme.scheme == "Bearer"
        assert any(skill.id == "handoff.home-services" for skill in card.skills)

        # The client's default config after reading the card: JSON-RPC 1.0, streaming.
        client = ClientFactory(ClientConfig(httpx_client=http)).create(card)
        token = uuid.uuid4().hex
        request = SendMessageRequest(
            message=Message(
                message_id=str(uuid.uuid4()),
                role=Role.ROLE_USER,
                parts=[
                    Part(text="Please find me a plumber for a leaking kitchen tap this week."),
                    Part(
                        data=_data({"category": "home-services", "test_scenario": "asks_question"})
                    ),
                ],
            ),
            configuration=SendMessageConfiguration(
                task_push_notification_config=TaskPushNotificationConfig(
                    url=pushes.url, token=token
                )
            ),
        )
        events = [event async for event in client.send_message(request)]
        assert events[0].HasField("task")
        task_id = events[0].task.id
        assert task_id.startswith("req_")
        last = events[-1]
        assert last.HasField("status_update")
        assert last.status_update.status.state == TaskState.TASK_STATE_INPUT_REQUIRED
        question = last.status_update.status.message
        assert question.role == Role.ROLE_AGENT and question.parts[0].text

        task = await client.get_task(GetTaskRequest(id=task_id))
        assert task.status.state == TaskState.TASK_STATE_INPUT_REQUIRED
        assert task.history[0].role == Role.ROLE_USER

        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            waiting = [
                (headers, body)
                for headers, body in pushes.received
                if body.get("statusUpdate", {}).get("status", {}).get("state")
                == "TASK_STATE_INPUT_REQUIRED"
            ]
            if waiting:
                break
            await anyio.sleep(0.2)
        assert waiting, f"no input-required push among {pushes.received}"
        headers, body = waiting[0]
        assert headers["x-a2a-notification-token"] == token
        assert headers["webhook-signature"].startswith("v1,")
        assert body["statusUpdate"]["taskId"] == task_id
        await client.close()
    finally:
        await http.aclose()
        pushes.close()
