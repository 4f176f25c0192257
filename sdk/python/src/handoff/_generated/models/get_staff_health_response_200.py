from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.get_staff_health_response_200_status import (
    GetStaffHealthResponse200Status,
    check_get_staff_health_response_200_status,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.get_staff_health_response_200_gateway import (
        GetStaffHealthResponse200Gateway,
    )
    from ..models.get_staff_health_response_200_services import (
        GetStaffHealthResponse200Services,
    )


T = TypeVar("T", bound="GetStaffHealthResponse200")


@_attrs_define
class GetStaffHealthResponse200:
    """
    Attributes:
        status (GetStaffHealthResponse200Status):
        checked_at (str):
        services (GetStaffHealthResponse200Services):
        gateway (GetStaffHealthResponse200Gateway | Unset):
    """

    status: GetStaffHealthResponse200Status
    checked_at: str
    services: GetStaffHealthResponse200Services
    gateway: GetStaffHealthResponse200Gateway | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        status: str = self.status

        checked_at = self.checked_at

        services = self.services.to_dict()

        gateway: dict[str, Any] | Unset = UNSET
        if not isinstance(self.gateway, Unset):
            gateway = self.gateway.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "status": status,
                "checked_at": checked_at,
                "services": services,
            }
        )
        if gateway is not UNSET:
            field_dict["gateway"] = gateway

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.get_staff_health_response_200_gateway import (
            GetStaffHealthResponse200Gateway,
        )
        from ..models.get_staff_health_response_200_services import (
            GetStaffHealthResponse200Services,
        )

        d = dict(src_dict)
        status = check_get_staff_health_response_200_status(d.pop("status"))

        checked_at = d.pop("checked_at")

        services = GetStaffHealthResponse200Services.from_dict(d.pop("services"))

        _gateway = d.pop("gateway", UNSET)
        gateway: GetStaffHealthResponse200Gateway | Unset
        if isinstance(_gateway, Unset):
            gateway = UNSET
        else:
            gateway = GetStaffHealthResponse200Gateway.from_dict(_gateway)

        get_staff_health_response_200 = cls(
            status=status,
            checked_at=checked_at,
            services=services,
            gateway=gateway,
        )

        return get_staff_health_response_200
