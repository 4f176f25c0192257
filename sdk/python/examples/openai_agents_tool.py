"""An OpenAI Agents SDK agent whose tool hands the customer's request to a human provider.

    HANDOFF_URL=http://127.0.0.1:8080 HANDOFF_API_KEY=hk_test_... OPENAI_API_KEY=sk-... \\
        .tools/python-venv/bin/python sdk/python/examples/openai_agents_tool.py

The tests (tests/test_examples.py) run the same agent with a scripted model instead of OpenAI's.
"""

from __future__ import annotations

import os

from agents import Agent, Model, Runner, function_tool
from agents.tool import FunctionTool

from handoff import Handoff

INSTRUCTIONS = (
    "You help a small business's customers. When a customer asks for work a person must do "
    "(design, writing, repairs), hand it off with the hand_off_to_human tool, then tell the "
    "customer the request's id."
)


def hand_off_tool(client: Handoff) -> FunctionTool:
    """The tool, bound to one Handoff client."""

    @function_tool
    def hand_off_to_human(message: str, budget_max: int | None = None) -> str:
        """Hands a customer's request to a human provider through Handoff.

        Args:
            message: What the customer needs, in their words, with every detail they gave.
            budget_max: The most the customer will pay, in USD, when they said so.
        """
        request = {"message": message}
        if budget_max is not None:
            request["budget_max"] = budget_max
        created = client.requests.create(request)
        return f"Handed off as {created.id} (status {created.status})."

    return hand_off_to_human


def build_agent(client: Handoff, model: Model | str = "gpt-4.1-mini") -> Agent:
    return Agent(
        name="Front desk",
        instructions=INSTRUCTIONS,
        tools=[hand_off_tool(client)],
        model=model,
    )


if __name__ == "__main__":
    with Handoff(os.environ["HANDOFF_API_KEY"], base_url=os.environ["HANDOFF_URL"]) as handoff:
        result = Runner.run_sync(
            build_agent(handoff), "Can someone design a logo for my bakery? Up to $300."
        )
        print(result.final_output)
