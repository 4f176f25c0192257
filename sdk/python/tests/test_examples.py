"""The two examples in examples/, run with scripted models (no network) against the stack; each
test checks that the request the agent handed off really exists there."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from agents import Model, ModelResponse, Runner, Usage, set_tracing_disabled
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

from handoff import Handoff

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))

import langgraph_agent
import openai_agents_tool


@pytest.fixture
def client(base_url: str, test_key: str) -> Iterator[Handoff]:
    with Handoff(test_key, base_url=base_url) as client:
        yield client


def staff_sees(base_url: str, staff_token: str, request_id: str) -> dict[str, Any]:
    answer = httpx.get(
        f"{base_url}/v1/staff/requests/{request_id}",
        headers={"Authorization": f"Bearer {staff_token}"},
    )
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_the_langgraph_agent_hands_off_pauses_on_the_question_and_resumes(
    client: Handoff, base_url: str, staff_token: str
) -> None:
    ask = "Paint a mural in our café, about 3 by 2 metres, up to $400."
    graph = langgraph_agent.build_graph(
        client, langgraph_agent.scripted_model(ask, 400, "asks_question"), timeout=60
    )
    config = {"configurable": {"thread_id": "test-mural"}}
    graph.invoke({"messages": [langgraph_agent.HumanMessage(ask)]}, config)
    paused = graph.get_state(config)
    assert paused.next == ("ask_customer",)
    [pending] = paused.interrupts
    assert "which day" in pending.value["question"]

    graph.invoke(langgraph_agent.Command(resume="Any Monday morning."), config)
    final = graph.get_state(config)
    assert final.next == ()
    proposal = final.values["proposal"]
    assert (proposal["amount"], proposal["currency"]) == (400, "USD")

    request_id = final.values["request_id"]
    messages = [m.message for m in client.requests.messages(request_id)]
    assert "Any Monday morning." in messages
    seen = staff_sees(base_url, staff_token, request_id)
    assert seen["message"] == ask


class ScriptedModel(Model):
    """Answers the first turn with a call of the hand-off tool, and the next with text."""

    def __init__(self, arguments: str) -> None:
        self.arguments = arguments
        self.turns = 0
        self.tool_output: str | None = None

    async def get_response(
        self, system_instructions: Any, input: Any, *args: Any, **kwargs: Any
    ) -> ModelResponse:
        self.turns += 1
        if self.turns == 1:
            output: list[Any] = [
                ResponseFunctionToolCall(
                    type="function_call",
                    id="fc_1",
                    call_id="call_1",
                    name="hand_off_to_human",
                    arguments=self.arguments,
                    status="completed",
                )
            ]
        else:
            self.tool_output = next(
                str(item.get("output"))
                for item in input
                if isinstance(item, dict) and item.get("type") == "function_call_output"
            )
            output = [
                ResponseOutputMessage(
                    type="message",
                    id="msg_1",
                    role="assistant",
                    status="completed",
                    content=[
                        ResponseOutputText(
                            type="output_text", text=f"Done: {self.tool_output}", annotations=[]
                        )
                    ],
                )
            ]
        return ModelResponse(output=output, usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        raise NotImplementedError("the scripted model does not stream")


def test_the_openai_agents_tool_creates_the_request(
    client: Handoff, base_url: str, staff_token: str
) -> None:
    set_tracing_disabled(True)  # traces would go to OpenAI
    message = "A logo for Rosa's Bakery, warm colours. Please run happy_path."
    model = ScriptedModel(f'{{"message": "{message}", "budget_max": 300}}')
    result = Runner.run_sync(
        openai_agents_tool.build_agent(client, model), "I need a bakery logo, up to $300."
    )

    assert model.turns == 2
    assert model.tool_output is not None and model.tool_output.startswith("Handed off as req_")
    assert result.final_output == f"Done: {model.tool_output}"
    request_id = model.tool_output.split()[3]
    request = client.requests.get(request_id)
    assert (request.message, request.budget_max) == (message, 300)
    assert staff_sees(base_url, staff_token, request_id)["id"] == request_id
