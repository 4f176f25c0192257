from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.create_handoff_request_body_category import (
    CreateHandoffRequestBodyCategory,
    check_create_handoff_request_body_category,
)
from ..models.create_handoff_request_body_test_scenario import (
    CreateHandoffRequestBodyTestScenario,
    check_create_handoff_request_body_test_scenario,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateHandoffRequestBody")


@_attrs_define
class CreateHandoffRequestBody:
    """When both are given, `budget_min` must not be above `budget_max`.

    Attributes:
        message (str):
        category (CreateHandoffRequestBodyCategory | Unset):
        name (str | Unset):
        email (str | Unset):
        company (str | Unset):
        website (str | Unset):
        subject (str | Unset):
        contact_permission (bool | Unset):
        marketplace_opt_in (bool | Unset):
        budget_min (float | Unset):
        budget_max (float | Unset):
        language (str | Unset): Extension (not in spec 1.0.2): the language the customer writes in. Automatic routing
            offers the request only to providers who work in it (or name no languages).
        test_scenario (CreateHandoffRequestBodyTestScenario | Unset): Extension, test mode only (a `hk_test_` key; a
            live key is refused): what the simulated provider does with the request. Without it, a scenario named in
            `message` is used, else `happy_path`. Each scenario’s events are listed in docs/test-mode.md.
        test_clock (str | Unset): Extension, test mode only: the test clock (`POST /v1/test-clocks`) the request runs
            on; advancing the clock fires its deadlines.
    """

    message: str
    category: CreateHandoffRequestBodyCategory | Unset = UNSET
    name: str | Unset = UNSET
    email: str | Unset = UNSET
    company: str | Unset = UNSET
    website: str | Unset = UNSET
    subject: str | Unset = UNSET
    contact_permission: bool | Unset = UNSET
    marketplace_opt_in: bool | Unset = UNSET
    budget_min: float | Unset = UNSET
    budget_max: float | Unset = UNSET
    language: str | Unset = UNSET
    test_scenario: CreateHandoffRequestBodyTestScenario | Unset = UNSET
    test_clock: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        message = self.message

        category: str | Unset = UNSET
        if not isinstance(self.category, Unset):
            category = self.category

        name = self.name

        email = self.email

        company = self.company

        website = self.website

        subject = self.subject

        contact_permission = self.contact_permission

        marketplace_opt_in = self.marketplace_opt_in

        budget_min = self.budget_min

        budget_max = self.budget_max

        language = self.language

        test_scenario: str | Unset = UNSET
        if not isinstance(self.test_scenario, Unset):
            test_scenario = self.test_scenario

        test_clock = self.test_clock

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "message": message,
            }
        )
        if category is not UNSET:
            field_dict["category"] = category
        if name is not UNSET:
            field_dict["name"] = name
        if email is not UNSET:
            field_dict["email"] = email
        if company is not UNSET:
            field_dict["company"] = company
        if website is not UNSET:
            field_dict["website"] = website
        if subject is not UNSET:
            field_dict["subject"] = subject
        if contact_permission is not UNSET:
            field_dict["contact_permission"] = contact_permission
        if marketplace_opt_in is not UNSET:
            field_dict["marketplace_opt_in"] = marketplace_opt_in
        if budget_min is not UNSET:
            field_dict["budget_min"] = budget_min
        if budget_max is not UNSET:
            field_dict["budget_max"] = budget_max
        if language is not UNSET:
            field_dict["language"] = language
        if test_scenario is not UNSET:
            field_dict["test_scenario"] = test_scenario
        if test_clock is not UNSET:
            field_dict["test_clock"] = test_clock

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        message = d.pop("message")

        _category = d.pop("category", UNSET)
        category: CreateHandoffRequestBodyCategory | Unset
        if isinstance(_category, Unset):
            category = UNSET
        else:
            category = check_create_handoff_request_body_category(_category)

        name = d.pop("name", UNSET)

        email = d.pop("email", UNSET)

        company = d.pop("company", UNSET)

        website = d.pop("website", UNSET)

        subject = d.pop("subject", UNSET)

        contact_permission = d.pop("contact_permission", UNSET)

        marketplace_opt_in = d.pop("marketplace_opt_in", UNSET)

        budget_min = d.pop("budget_min", UNSET)

        budget_max = d.pop("budget_max", UNSET)

        language = d.pop("language", UNSET)

        _test_scenario = d.pop("test_scenario", UNSET)
        test_scenario: CreateHandoffRequestBodyTestScenario | Unset
        if isinstance(_test_scenario, Unset):
            test_scenario = UNSET
        else:
            test_scenario = check_create_handoff_request_body_test_scenario(
                _test_scenario
            )

        test_clock = d.pop("test_clock", UNSET)

        create_handoff_request_body = cls(
            message=message,
            category=category,
            name=name,
            email=email,
            company=company,
            website=website,
            subject=subject,
            contact_permission=contact_permission,
            marketplace_opt_in=marketplace_opt_in,
            budget_min=budget_min,
            budget_max=budget_max,
            language=language,
            test_scenario=test_scenario,
            test_clock=test_clock,
        )

        return create_handoff_request_body
