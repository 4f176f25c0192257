from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="GetCapabilitiesResponse200FilesDefaultLimits")


@_attrs_define
class GetCapabilitiesResponse200FilesDefaultLimits:
    """
    Attributes:
        file_bytes (int):
        request_bytes (int):
        files_per_request (int):
    """

    file_bytes: int
    request_bytes: int
    files_per_request: int

    def to_dict(self) -> dict[str, Any]:
        file_bytes = self.file_bytes

        request_bytes = self.request_bytes

        files_per_request = self.files_per_request

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "file_bytes": file_bytes,
                "request_bytes": request_bytes,
                "files_per_request": files_per_request,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        file_bytes = d.pop("file_bytes")

        request_bytes = d.pop("request_bytes")

        files_per_request = d.pop("files_per_request")

        get_capabilities_response_200_files_default_limits = cls(
            file_bytes=file_bytes,
            request_bytes=request_bytes,
            files_per_request=files_per_request,
        )

        return get_capabilities_response_200_files_default_limits
