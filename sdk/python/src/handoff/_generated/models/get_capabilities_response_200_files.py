from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.get_capabilities_response_200_files_default_limits import (
        GetCapabilitiesResponse200FilesDefaultLimits,
    )


T = TypeVar("T", bound="GetCapabilitiesResponse200Files")


@_attrs_define
class GetCapabilitiesResponse200Files:
    """
    Attributes:
        types (list[str]):
        max_attachments (int):
        download_url_ttl_seconds (int):
        default_limits (GetCapabilitiesResponse200FilesDefaultLimits):
    """

    types: list[str]
    max_attachments: int
    download_url_ttl_seconds: int
    default_limits: GetCapabilitiesResponse200FilesDefaultLimits

    def to_dict(self) -> dict[str, Any]:
        types = self.types

        max_attachments = self.max_attachments

        download_url_ttl_seconds = self.download_url_ttl_seconds

        default_limits = self.default_limits.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "types": types,
                "max_attachments": max_attachments,
                "download_url_ttl_seconds": download_url_ttl_seconds,
                "default_limits": default_limits,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.get_capabilities_response_200_files_default_limits import (
            GetCapabilitiesResponse200FilesDefaultLimits,
        )

        d = dict(src_dict)
        types = cast(list[str], d.pop("types"))

        max_attachments = d.pop("max_attachments")

        download_url_ttl_seconds = d.pop("download_url_ttl_seconds")

        default_limits = GetCapabilitiesResponse200FilesDefaultLimits.from_dict(
            d.pop("default_limits")
        )

        get_capabilities_response_200_files = cls(
            types=types,
            max_attachments=max_attachments,
            download_url_ttl_seconds=download_url_ttl_seconds,
            default_limits=default_limits,
        )

        return get_capabilities_response_200_files
