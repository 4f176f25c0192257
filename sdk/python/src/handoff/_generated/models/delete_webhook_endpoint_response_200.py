from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="DeleteWebhookEndpointResponse200")


@_attrs_define
class DeleteWebhookEndpointResponse200:
    """
    Attributes:
        object_ (Literal['webhook_endpoint']):
        id (str):
        deleted (bool):
        livemode (bool | Unset): Extension: false for test data (made with a `hk_test_` key). Always present in agent
            answers.
    """

    object_: Literal["webhook_endpoint"]
    id: str
    deleted: bool
    livemode: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        id = self.id

        deleted = self.deleted

        livemode = self.livemode

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "id": id,
                "deleted": deleted,
            }
        )
        if livemode is not UNSET:
            field_dict["livemode"] = livemode

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        object_ = cast(Literal["webhook_endpoint"], d.pop("object"))
        if object_ != "webhook_endpoint":
            raise ValueError(
                f"object must match const 'webhook_endpoint', got '{object_}'"
            )

        id = d.pop("id")

        deleted = d.pop("deleted")

        livemode = d.pop("livemode", UNSET)

        delete_webhook_endpoint_response_200 = cls(
            object_=object_,
            id=id,
            deleted=deleted,
            livemode=livemode,
        )

        return delete_webhook_endpoint_response_200
