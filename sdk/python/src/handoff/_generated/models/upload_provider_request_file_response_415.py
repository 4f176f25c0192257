from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.problem_errors_item import ProblemErrorsItem


T = TypeVar("T", bound="UploadProviderRequestFileResponse415")


@_attrs_define
class UploadProviderRequestFileResponse415:
    """
    Attributes:
        type_ (str):
        title (str):
        status (int):
        detail (str):
        code (str):
        request_id (str):
        errors (list[ProblemErrorsItem] | Unset):
        allowed (list[str] | Unset):
        detected (None | str | Unset):
    """

    type_: str
    title: str
    status: int
    detail: str
    code: str
    request_id: str
    errors: list[ProblemErrorsItem] | Unset = UNSET
    allowed: list[str] | Unset = UNSET
    detected: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        title = self.title

        status = self.status

        detail = self.detail

        code = self.code

        request_id = self.request_id

        errors: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.errors, Unset):
            errors = []
            for errors_item_data in self.errors:
                errors_item = errors_item_data.to_dict()
                errors.append(errors_item)

        allowed: list[str] | Unset = UNSET
        if not isinstance(self.allowed, Unset):
            allowed = self.allowed

        detected: None | str | Unset
        if isinstance(self.detected, Unset):
            detected = UNSET
        else:
            detected = self.detected

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "title": title,
                "status": status,
                "detail": detail,
                "code": code,
                "request_id": request_id,
            }
        )
        if errors is not UNSET:
            field_dict["errors"] = errors
        if allowed is not UNSET:
            field_dict["allowed"] = allowed
        if detected is not UNSET:
            field_dict["detected"] = detected

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.problem_errors_item import ProblemErrorsItem

        d = dict(src_dict)
        type_ = d.pop("type")

        title = d.pop("title")

        status = d.pop("status")

        detail = d.pop("detail")

        code = d.pop("code")

        request_id = d.pop("request_id")

        _errors = d.pop("errors", UNSET)
        errors: list[ProblemErrorsItem] | Unset = UNSET
        if _errors is not UNSET:
            errors = []
            for errors_item_data in _errors:
                errors_item = ProblemErrorsItem.from_dict(errors_item_data)

                errors.append(errors_item)

        allowed = cast(list[str], d.pop("allowed", UNSET))

        def _parse_detected(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        detected = _parse_detected(d.pop("detected", UNSET))

        upload_provider_request_file_response_415 = cls(
            type_=type_,
            title=title,
            status=status,
            detail=detail,
            code=code,
            request_id=request_id,
            errors=errors,
            allowed=allowed,
            detected=detected,
        )

        upload_provider_request_file_response_415.additional_properties = d
        return upload_provider_request_file_response_415

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
