from typing import Literal

CreateHumanRequestLegacyBodyCategory = Literal[
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

CREATE_HUMAN_REQUEST_LEGACY_BODY_CATEGORY_VALUES: set[
    CreateHumanRequestLegacyBodyCategory
] = {
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


def check_create_human_request_legacy_body_category(
    value: str,
) -> CreateHumanRequestLegacyBodyCategory:
    if value in CREATE_HUMAN_REQUEST_LEGACY_BODY_CATEGORY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CREATE_HUMAN_REQUEST_LEGACY_BODY_CATEGORY_VALUES!r}"
    )
