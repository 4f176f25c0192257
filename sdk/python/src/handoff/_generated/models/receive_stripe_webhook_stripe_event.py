from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.receive_stripe_webhook_stripe_event_data import (
        ReceiveStripeWebhookStripeEventData,
    )


T = TypeVar("T", bound="ReceiveStripeWebhookStripeEvent")


@_attrs_define
class ReceiveStripeWebhookStripeEvent:
    """
    Attributes:
        id (str): The Stripe event id, `evt_...`.
        object_ (Literal['event']):
        type_ (str): For example `payment_intent.succeeded`.
        data (ReceiveStripeWebhookStripeEventData):
    """

    id: str
    object_: Literal["event"]
    type_: str
    data: ReceiveStripeWebhookStripeEventData
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        object_ = self.object_

        type_ = self.type_

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "object": object_,
                "type": type_,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.receive_stripe_webhook_stripe_event_data import (
            ReceiveStripeWebhookStripeEventData,
        )

        d = dict(src_dict)
        id = d.pop("id")

        object_ = cast(Literal["event"], d.pop("object"))
        if object_ != "event":
            raise ValueError(f"object must match const 'event', got '{object_}'")

        type_ = d.pop("type")

        data = ReceiveStripeWebhookStripeEventData.from_dict(d.pop("data"))

        receive_stripe_webhook_stripe_event = cls(
            id=id,
            object_=object_,
            type_=type_,
            data=data,
        )

        receive_stripe_webhook_stripe_event.additional_properties = d
        return receive_stripe_webhook_stripe_event

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
