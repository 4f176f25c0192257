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

if TYPE_CHECKING:
    from ..models.delete_integration_test_data_response_200_deleted import (
        DeleteIntegrationTestDataResponse200Deleted,
    )


T = TypeVar("T", bound="DeleteIntegrationTestDataResponse200")


@_attrs_define
class DeleteIntegrationTestDataResponse200:
    """
    Attributes:
        object_ (Literal['test_data_deletion']):
        integration_id (str): The live integration.
        test_integration_id (None | str): Its test twin, which owned the deleted data; null when it never had a test
            key.
        requests_deleted (int):
        deleted (DeleteIntegrationTestDataResponse200Deleted): How many of each kind of object this call deleted, by
            every service.
        has_more (bool): True when test requests are left (a call deletes at most 1000): call again.
    """

    object_: Literal["test_data_deletion"]
    integration_id: str
    test_integration_id: None | str
    requests_deleted: int
    deleted: DeleteIntegrationTestDataResponse200Deleted
    has_more: bool

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        integration_id = self.integration_id

        test_integration_id: None | str
        test_integration_id = self.test_integration_id

        requests_deleted = self.requests_deleted

        deleted = self.deleted.to_dict()

        has_more = self.has_more

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "integration_id": integration_id,
                "test_integration_id": test_integration_id,
                "requests_deleted": requests_deleted,
                "deleted": deleted,
                "has_more": has_more,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.delete_integration_test_data_response_200_deleted import (
            DeleteIntegrationTestDataResponse200Deleted,
        )

        d = dict(src_dict)
        object_ = cast(Literal["test_data_deletion"], d.pop("object"))
        if object_ != "test_data_deletion":
            raise ValueError(
                f"object must match const 'test_data_deletion', got '{object_}'"
            )

        integration_id = d.pop("integration_id")

        def _parse_test_integration_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        test_integration_id = _parse_test_integration_id(d.pop("test_integration_id"))

        requests_deleted = d.pop("requests_deleted")

        deleted = DeleteIntegrationTestDataResponse200Deleted.from_dict(
            d.pop("deleted")
        )

        has_more = d.pop("has_more")

        delete_integration_test_data_response_200 = cls(
            object_=object_,
            integration_id=integration_id,
            test_integration_id=test_integration_id,
            requests_deleted=requests_deleted,
            deleted=deleted,
            has_more=has_more,
        )

        return delete_integration_test_data_response_200
