from __future__ import annotations

import datetime
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

from ..models.list_provider_deliverables_response_200_data_item_status import (
    ListProviderDeliverablesResponse200DataItemStatus,
    check_list_provider_deliverables_response_200_data_item_status,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.list_provider_deliverables_response_200_data_item_files_item import (
        ListProviderDeliverablesResponse200DataItemFilesItem,
    )


T = TypeVar("T", bound="ListProviderDeliverablesResponse200DataItem")


@_attrs_define
class ListProviderDeliverablesResponse200DataItem:
    """
    Attributes:
        object_ (Literal['deliverable']):
        id (str):
        request_id (str):
        job_id (str):
        milestone_id (str):
        provider_id (str):
        title (str):
        url (None | str):
        description (None | str):
        status (ListProviderDeliverablesResponse200DataItemStatus):
        deadline_at (datetime.datetime | None):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        livemode (bool | Unset): Extension: false for test data (made with a `hk_test_` key). Always present in agent
            answers.
        files (list[ListProviderDeliverablesResponse200DataItemFilesItem] | Unset):
    """

    object_: Literal["deliverable"]
    id: str
    request_id: str
    job_id: str
    milestone_id: str
    provider_id: str
    title: str
    url: None | str
    description: None | str
    status: ListProviderDeliverablesResponse200DataItemStatus
    deadline_at: datetime.datetime | None
    created_at: datetime.datetime
    updated_at: datetime.datetime
    livemode: bool | Unset = UNSET
    files: list[ListProviderDeliverablesResponse200DataItemFilesItem] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        id = self.id

        request_id = self.request_id

        job_id = self.job_id

        milestone_id = self.milestone_id

        provider_id = self.provider_id

        title = self.title

        url: None | str
        url = self.url

        description: None | str
        description = self.description

        status: str = self.status

        deadline_at: None | str
        if isinstance(self.deadline_at, datetime.datetime):
            deadline_at = self.deadline_at.isoformat()
        else:
            deadline_at = self.deadline_at

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        livemode = self.livemode

        files: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.files, Unset):
            files = []
            for files_item_data in self.files:
                files_item = files_item_data.to_dict()
                files.append(files_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "id": id,
                "request_id": request_id,
                "job_id": job_id,
                "milestone_id": milestone_id,
                "provider_id": provider_id,
                "title": title,
                "url": url,
                "description": description,
                "status": status,
                "deadline_at": deadline_at,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )
        if livemode is not UNSET:
            field_dict["livemode"] = livemode
        if files is not UNSET:
            field_dict["files"] = files

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.list_provider_deliverables_response_200_data_item_files_item import (
            ListProviderDeliverablesResponse200DataItemFilesItem,
        )

        d = dict(src_dict)
        object_ = cast(Literal["deliverable"], d.pop("object"))
        if object_ != "deliverable":
            raise ValueError(f"object must match const 'deliverable', got '{object_}'")

        id = d.pop("id")

        request_id = d.pop("request_id")

        job_id = d.pop("job_id")

        milestone_id = d.pop("milestone_id")

        provider_id = d.pop("provider_id")

        title = d.pop("title")

        def _parse_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        url = _parse_url(d.pop("url"))

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        status = check_list_provider_deliverables_response_200_data_item_status(
            d.pop("status")
        )

        def _parse_deadline_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                deadline_at_type_0 = datetime.datetime.fromisoformat(data)

                return deadline_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        deadline_at = _parse_deadline_at(d.pop("deadline_at"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        livemode = d.pop("livemode", UNSET)

        _files = d.pop("files", UNSET)
        files: list[ListProviderDeliverablesResponse200DataItemFilesItem] | Unset = (
            UNSET
        )
        if _files is not UNSET:
            files = []
            for files_item_data in _files:
                files_item = (
                    ListProviderDeliverablesResponse200DataItemFilesItem.from_dict(
                        files_item_data
                    )
                )

                files.append(files_item)

        list_provider_deliverables_response_200_data_item = cls(
            object_=object_,
            id=id,
            request_id=request_id,
            job_id=job_id,
            milestone_id=milestone_id,
            provider_id=provider_id,
            title=title,
            url=url,
            description=description,
            status=status,
            deadline_at=deadline_at,
            created_at=created_at,
            updated_at=updated_at,
            livemode=livemode,
            files=files,
        )

        return list_provider_deliverables_response_200_data_item
