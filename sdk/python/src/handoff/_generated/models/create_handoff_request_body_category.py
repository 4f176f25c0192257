from typing import Literal

CreateHandoffRequestBodyCategory = Literal[
    "accounting",
    "customer-support",
    "design",
    "home-services",
    "legal",
    "marketing",
    "other",
    "travel",
    "web-development",
    "writing",
]

CREATE_HANDOFF_REQUEST_BODY_CATEGORY_VALUES: set[CreateHandoffRequestBodyCategory] = {
    "accounting",
    "customer-support",
    "design",
    "home-services",
    "legal",
    "marketing",
    "other",
    "travel",
    "web-development",
    "writing",
}


def check_create_handoff_request_body_category(
    value: str,
) -> CreateHandoffRequestBodyCategory:
    if value in CREATE_HANDOFF_REQUEST_BODY_CATEGORY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CREATE_HANDOFF_REQUEST_BODY_CATEGORY_VALUES!r}"
    )
