from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.get_async_api_document_response_200_channels import (
        GetAsyncApiDocumentResponse200Channels,
    )
    from ..models.get_async_api_document_response_200_info import (
        GetAsyncApiDocumentResponse200Info,
    )


T = TypeVar("T", bound="GetAsyncApiDocumentResponse200")


@_attrs_define
class GetAsyncApiDocumentResponse200:
    """
    Attributes:
        asyncapi (str):
        info (GetAsyncApiDocumentResponse200Info):
        channels (GetAsyncApiDocumentResponse200Channels):
    """

    asyncapi: str
    info: GetAsyncApiDocumentResponse200Info
    channels: GetAsyncApiDocumentResponse200Channels
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        asyncapi = self.asyncapi

        info = self.info.to_dict()

        channels = self.channels.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "asyncapi": asyncapi,
                "info": info,
                "channels": channels,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.get_async_api_document_response_200_channels import (
            GetAsyncApiDocumentResponse200Channels,
        )
        from ..models.get_async_api_document_response_200_info import (
            GetAsyncApiDocumentResponse200Info,
        )

        d = dict(src_dict)
        asyncapi = d.pop("asyncapi")

        info = GetAsyncApiDocumentResponse200Info.from_dict(d.pop("info"))

        channels = GetAsyncApiDocumentResponse200Channels.from_dict(d.pop("channels"))

        get_async_api_document_response_200 = cls(
            asyncapi=asyncapi,
            info=info,
            channels=channels,
        )

        get_async_api_document_response_200.additional_properties = d
        return get_async_api_document_response_200

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
