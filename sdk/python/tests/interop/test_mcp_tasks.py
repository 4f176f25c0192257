"""A handoff as an MCP task, driven by the Python `mcp` client (a client we did not write).

Protocol revision 2026-07-28 with the Tasks extension (`io.modelcontextprotocol/tasks`,
SEP-2663), over Streamable HTTP at the gateway's /mcp with the test key as Bearer, and over stdio
(`handoff-mcp`, packages/mcp/src/stdio.ts, with the test key in its environment): the simulated
provider of test mode asks a question, so the task turns `input_required`; the answers go back
with `tasks/update` and the task completes with the deliverables as its result.
"""

from __future__ import annotations

import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, ClassVar, Literal

import anyio
import httpx2
import pytest
from mcp.client.client import Client
from mcp.client.extension import ClaimContext, ClientExtension, ResultClaim
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult, Request, RequestParams, Result
from pydantic import ConfigDict, Field

PROTOCOL = "2026-07-28"
TASKS = "io.modelcontextprotocol/tasks"
STDIO_ENTRY = Path(__file__).resolve().parents[4] / "packages" / "mcp" / "src" / "stdio.ts"


class CreateTaskResult(Result):
    """The extension's answer in lieu of a tool result: a task handle."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)
    result_type: Literal["task"] = Field(alias="resultType")
    task_id: str = Field(alias="taskId")
    status: str


class TaskParams(RequestParams):
    model_config = ConfigDict(extra="allow", populate_by_name=True)
    task_id: str = Field(alias="taskId")


class TaskRequest(Request[TaskParams, str]):
    """`tasks/get`, `tasks/update`, `tasks/cancel`: the task id also goes in `Mcp-Name`."""

    name_param = "taskId"


class TaskState(Result):
    model_config = ConfigDict(extra="allow", populate_by_name=True)
    task_id: str = Field(alias="taskId")
    status: str
    input_requests: dict[str, Any] | None = Field(default=None, alias="inputRequests")
    result: dict[str, Any] | None = None


async def _unused(result: CreateTaskResult, ctx: ClaimContext) -> CallToolResult:
    raise AssertionError("the test drives the task itself (allow_claimed=True)")


class Tasks(ClientExtension):
    """Declares the extension on each request and claims its `resultType: "task"`."""

    identifier: ClassVar[str] = TASKS

    def claims(self) -> list[ResultClaim[Any]]:
        return [ResultClaim(result_type="task", model=CreateTaskResult, resolve=_unused)]


def _answer(key: str) -> dict[str, Any]:
    kind = key.split(":")[0]
    if kind == "reply":
        return {"action": "accept", "content": {"message": "Tuesday, please."}}
    if kind == "proposal":
        return {"action": "accept", "content": {"decision": "accept"}}
    return {"action": "accept", "content": {"decision": "approve"}}


@asynccontextmanager
async def _client(transport: str, base_url: str, key: str) -> AsyncIterator[Client]:
    """A 2026-07-28 client with the extension, over the gateway's /mcp or the stdio entry."""
    if transport == "http":
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=30)
        async with (
            http,
            Client(
                streamable_http_client(f"{base_url}/mcp", http_client=http),
                mode=PROTOCOL,
                extensions=[Tasks()],
            ) as client,
        ):
            yield client
        return
    # `npx handoff-mcp` as an MCP host starts it; node runs the TypeScript entry directly.
    server = StdioServerParameters(
        command="node",
        args=[str(STDIO_ENTRY)],
        env={"PATH": os.environ["PATH"], "HANDOFF_URL": base_url, "HANDOFF_API_KEY": key},
    )
    async with Client(stdio_client(server), mode=PROTOCOL, extensions=[Tasks()]) as client:
        yield client


@pytest.mark.anyio
@pytest.mark.parametrize("transport", ["http", "stdio"])
async def test_a_handoff_runs_as_an_mcp_task_to_input_required_and_back(
    transport: str, base_url: str, test_key: str
) -> None:
    async with _client(transport, base_url, test_key) as client:
        session = client.session

        async def call(method: str, task_id: str, **params: Any) -> TaskState | Result:
            request = TaskRequest(method=method, params=TaskParams(taskId=task_id, **params))
            return await session.send_request(
                request, TaskState if method == "tasks/get" else Result
            )

        created = await session.call_tool(
            "create_handoff",
            {
                "message": "Paint our shop sign.",
                "budget_max": 300,
                "test_scenario": "asks_question",
            },
            allow_claimed=True,
        )
        assert isinstance(created, CreateTaskResult)
        assert created.status == "working"

        asked: list[str] = []
        seen: set[str] = set()
        deadline = time.monotonic() + 120
        state = TaskState(taskId=created.task_id, status="working")
        while state.status in ("working", "input_required"):
            assert time.monotonic() < deadline, f"the task is still {state.status}"
            got = await call("tasks/get", created.task_id)
            assert isinstance(got, TaskState)
            state = got
            seen.add(state.status)
            if state.status == "input_required":
                assert state.input_requests
                fresh = [key for key in state.input_requests if key not in asked]
                for key in fresh:
                    assert state.input_requests[key]["method"] == "elicitation/create"
                    asked.append(key)
                if fresh:
                    responses = {key: _answer(key) for key in fresh}
                    await call("tasks/update", created.task_id, inputResponses=responses)
            await anyio.sleep(0.3)

        assert [key.split(":")[0] for key in asked] == ["reply", "proposal", "milestone"]
        assert {"input_required", "completed"} <= seen
        assert state.status == "completed"
        assert state.result is not None
        deliverables = state.result["structuredContent"]["deliverables"]
        assert deliverables and deliverables[0]["url"].startswith("https://")
        links = [block for block in state.result["content"] if block["type"] == "resource_link"]
        assert links[0]["uri"] == deliverables[0]["url"]
