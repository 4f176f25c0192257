"""A LangGraph agent that hands a request off and resumes on the answer.

The model decides to hand off (a ``hand_off`` tool call); the graph creates the request, waits
on ``updates()`` for the provider, and when the provider asks a question it pauses with
``interrupt()`` so that the customer can answer; resumed with the answer
(``Command(resume=...)``), it replies to the provider and waits for the proposal.

    HANDOFF_URL=http://127.0.0.1:8080 HANDOFF_API_KEY=hk_test_... \\
        .tools/python-venv/bin/python sdk/python/examples/langgraph_agent.py

The model here is any LangChain chat model that can call the tool; the tests
(tests/test_examples.py) and ``__main__`` use a scripted one, so nothing leaves the machine.
"""

from __future__ import annotations

import os
from typing import Any, TypedDict

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command, interrupt

from handoff import Handoff


class State(TypedDict, total=False):
    messages: list[AnyMessage]
    request_id: str
    after: int
    question: str
    proposal: dict[str, Any]


def build_graph(
    client: Handoff, model: BaseChatModel, *, timeout: float = 120
) -> CompiledStateGraph:
    """The graph, with an in-memory checkpointer (an interrupt needs one)."""

    def agent(state: State) -> State:
        reply = model.invoke(state["messages"])
        return {"messages": [*state["messages"], reply]}

    def hand_off(state: State) -> State:
        last = state["messages"][-1]
        assert isinstance(last, AIMessage) and last.tool_calls
        created = client.requests.create(last.tool_calls[0]["args"])
        return {"request_id": created.id, "after": 0}

    def wait_for_provider(state: State) -> State:
        """Follows the request until the provider asks something or proposes."""
        for event in client.requests.updates(
            state["request_id"], after=state["after"], timeout=timeout
        ):
            obj = event.data.object_
            if (
                event.type_ == "message.created"
                and obj["author_role"] == "provider"
                and "?" in obj["message"]
            ):
                return {"after": event.data.sequence, "question": obj["message"]}
            if event.type_ == "proposal.received":
                return {"after": event.data.sequence, "proposal": obj.additional_properties}
        raise AssertionError("updates() ended")  # it only ends by timeout, which raises

    def ask_customer(state: State) -> State:
        # Pauses the run; `Command(resume=answer)` continues it here with the customer's answer.
        answer = interrupt({"request_id": state["request_id"], "question": state["question"]})
        client.requests.send_message(state["request_id"], str(answer))
        return {"question": ""}

    graph = StateGraph(State)
    graph.add_node("agent", agent)
    graph.add_node("hand_off", hand_off)
    graph.add_node("wait_for_provider", wait_for_provider)
    graph.add_node("ask_customer", ask_customer)
    graph.add_edge(START, "agent")
    graph.add_conditional_edges(
        "agent", lambda s: "hand_off" if s["messages"][-1].tool_calls else END, ["hand_off", END]
    )
    graph.add_edge("hand_off", "wait_for_provider")
    graph.add_conditional_edges(
        "wait_for_provider",
        lambda s: END if s.get("proposal") else "ask_customer",
        ["ask_customer", END],
    )
    graph.add_edge("ask_customer", "wait_for_provider")
    return graph.compile(checkpointer=InMemorySaver())


def scripted_model(
    message: str, budget_max: int, scenario: str | None = None
) -> GenericFakeChatModel:
    """A chat model that answers with one ``hand_off`` tool call: no network, same graph."""
    args: dict[str, Any] = {"message": message, "budget_max": budget_max}
    if scenario is not None:
        args["test_scenario"] = scenario
    call = {"name": "hand_off", "args": args, "id": "call_hand_off_1", "type": "tool_call"}
    return GenericFakeChatModel(messages=iter([AIMessage(content="", tool_calls=[call])]))


def run(graph: CompiledStateGraph, ask: str, answer: str, thread_id: str) -> State:
    """Runs the graph to its interrupt (if the provider asks), answers, and runs it to the end."""
    config = {"configurable": {"thread_id": thread_id}}
    graph.invoke({"messages": [HumanMessage(ask)]}, config)
    while graph.get_state(config).next:
        graph.invoke(Command(resume=answer), config)
    return graph.get_state(config).values


if __name__ == "__main__":
    with Handoff(os.environ["HANDOFF_API_KEY"], base_url=os.environ["HANDOFF_URL"]) as handoff:
        request = "Please run asks_question: paint a mural in our café, up to $400."
        final = run(build_graph(handoff, scripted_model(request, 400)), request, "Mondays.", "demo")
        print(final["request_id"], final["proposal"]["amount"], final["proposal"]["currency"])
