from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.get_staff_health_response_200_services_additional_property_status import (
    GetStaffHealthResponse200ServicesAdditionalPropertyStatus,
    check_get_staff_health_response_200_services_additional_property_status,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="GetStaffHealthResponse200ServicesAdditionalProperty")


@_attrs_define
class GetStaffHealthResponse200ServicesAdditionalProperty:
    """
    Attributes:
        status (GetStaffHealthResponse200ServicesAdditionalPropertyStatus):
        latency_ms (float | Unset):
        instance (str | Unset):
        version (str | Unset):
        error (str | Unset):
    """

    status: GetStaffHealthResponse200ServicesAdditionalPropertyStatus
    latency_ms: float | Unset = UNSET
    instance: str | Unset = UNSET
    version: str | Unset = UNSET
    error: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        status: str = self.status

        latency_ms = self.latency_ms

        instance = self.instance

        version = self.version

        error = self.error

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "status": status,
            }
        )
        if latency_ms is not UNSET:
            field_dict["latency_ms"] = latency_ms
        if instance is not UNSET:
            field_dict["instance"] = instance
        if version is not UNSET:
            field_dict["version"] = version
        if error is not UNSET:
            field_dict["error"] = error

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        status = (
            check_get_staff_health_response_200_services_additional_property_status(
                d.pop("status")
            )
        )

        latency_ms = d.pop("latency_ms", UNSET)

        instance = d.pop("instance", UNSET)

        version = d.pop("version", UNSET)

        error = d.pop("error", UNSET)

        get_staff_health_response_200_services_additional_property = cls(
            status=status,
            latency_ms=latency_ms,
            instance=instance,
            version=version,
            error=error,
        )

        return get_staff_health_response_200_services_additional_property
