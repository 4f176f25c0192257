from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.receive_stripe_webhook_stripe_event_data_object import (
        ReceiveStripeWebhookStripeEventDataObject,
    )


T = TypeVar("T", bound="ReceiveStripeWebhookStripeEventData")


@_attrs_define
class ReceiveStripeWebhookStripeEventData:
    """
    Attributes:
        object_ (ReceiveStripeWebhookStripeEventDataObject):
    """

    object_: ReceiveStripeWebhookStripeEventDataObject
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "object": object_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.receive_stripe_webhook_stripe_event_data_object import (
            ReceiveStripeWebhookStripeEventDataObject,
        )

        d = dict(src_dict)
        object_ = ReceiveStripeWebhookStripeEventDataObject.from_dict(d.pop("object"))

        receive_stripe_webhook_stripe_event_data = cls(
            object_=object_,
        )

        receive_stripe_webhook_stripe_event_data.additional_properties = d
        return receive_stripe_webhook_stripe_event_data

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
