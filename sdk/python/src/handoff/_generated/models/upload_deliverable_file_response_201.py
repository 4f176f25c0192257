from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

from ..models.upload_deliverable_file_response_201_content_type import (
    UploadDeliverableFileResponse201ContentType,
    check_upload_deliverable_file_response_201_content_type,
)
from ..models.upload_deliverable_file_response_201_purpose import (
    UploadDeliverableFileResponse201Purpose,
    check_upload_deliverable_file_response_201_purpose,
)
from ..models.upload_deliverable_file_response_201_uploaded_by import (
    UploadDeliverableFileResponse201UploadedBy,
    check_upload_deliverable_file_response_201_uploaded_by,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="UploadDeliverableFileResponse201")


@_attrs_define
class UploadDeliverableFileResponse201:
    """
    Attributes:
        id (str):
        filename (str):
        size (int):
        content_type (UploadDeliverableFileResponse201ContentType):
        sha256 (str):
        object_ (Literal['file']):
        request_id (str):
        purpose (UploadDeliverableFileResponse201Purpose):
        uploaded_by (UploadDeliverableFileResponse201UploadedBy):
        created_at (datetime.datetime):
        download_url (str):
        download_url_expires_at (datetime.datetime):
        milestone_id (str | Unset):
        livemode (bool | Unset): Extension: false for test data (made with a `hk_test_` key). Always present in agent
            answers.
    """

    id: str
    filename: str
    size: int
    content_type: UploadDeliverableFileResponse201ContentType
    sha256: str
    object_: Literal["file"]
    request_id: str
    purpose: UploadDeliverableFileResponse201Purpose
    uploaded_by: UploadDeliverableFileResponse201UploadedBy
    created_at: datetime.datetime
    download_url: str
    download_url_expires_at: datetime.datetime
    milestone_id: str | Unset = UNSET
    livemode: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        filename = self.filename

        size = self.size

        content_type: str = self.content_type

        sha256 = self.sha256

        object_ = self.object_

        request_id = self.request_id

        purpose: str = self.purpose

        uploaded_by: str = self.uploaded_by

        created_at = self.created_at.isoformat()

        download_url = self.download_url

        download_url_expires_at = self.download_url_expires_at.isoformat()

        milestone_id = self.milestone_id

        livemode = self.livemode

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "filename": filename,
                "size": size,
                "content_type": content_type,
                "sha256": sha256,
                "object": object_,
                "request_id": request_id,
                "purpose": purpose,
                "uploaded_by": uploaded_by,
                "created_at": created_at,
                "download_url": download_url,
                "download_url_expires_at": download_url_expires_at,
            }
        )
        if milestone_id is not UNSET:
            field_dict["milestone_id"] = milestone_id
        if livemode is not UNSET:
            field_dict["livemode"] = livemode

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        filename = d.pop("filename")

        size = d.pop("size")

        content_type = check_upload_deliverable_file_response_201_content_type(
            d.pop("content_type")
        )

        sha256 = d.pop("sha256")

        object_ = cast(Literal["file"], d.pop("object"))
        if object_ != "file":
            raise ValueError(f"object must match const 'file', got '{object_}'")

        request_id = d.pop("request_id")

        purpose = check_upload_deliverable_file_response_201_purpose(d.pop("purpose"))

        uploaded_by = check_upload_deliverable_file_response_201_uploaded_by(
            d.pop("uploaded_by")
        )

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        download_url = d.pop("download_url")

        download_url_expires_at = datetime.datetime.fromisoformat(
            d.pop("download_url_expires_at")
        )

        milestone_id = d.pop("milestone_id", UNSET)

        livemode = d.pop("livemode", UNSET)

        upload_deliverable_file_response_201 = cls(
            id=id,
            filename=filename,
            size=size,
            content_type=content_type,
            sha256=sha256,
            object_=object_,
            request_id=request_id,
            purpose=purpose,
            uploaded_by=uploaded_by,
            created_at=created_at,
            download_url=download_url,
            download_url_expires_at=download_url_expires_at,
            milestone_id=milestone_id,
            livemode=livemode,
        )

        return upload_deliverable_file_response_201
