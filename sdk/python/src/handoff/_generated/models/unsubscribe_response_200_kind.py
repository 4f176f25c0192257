from typing import Literal

UnsubscribeResponse200Kind = Literal[
    "deadline_reminder",
    "message_received",
    "milestone_reviewed",
    "payment_completed",
    "proposal_decided",
    "request_routed",
]

UNSUBSCRIBE_RESPONSE_200_KIND_VALUES: set[UnsubscribeResponse200Kind] = {
    "deadline_reminder",
    "message_received",
    "milestone_reviewed",
    "payment_completed",
    "proposal_decided",
    "request_routed",
}


def check_unsubscribe_response_200_kind(value: str) -> UnsubscribeResponse200Kind:
    if value in UNSUBSCRIBE_RESPONSE_200_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UNSUBSCRIBE_RESPONSE_200_KIND_VALUES!r}"
    )
