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

from ..models.update_integration_response_200_scopes_item import (
    UpdateIntegrationResponse200ScopesItem,
    check_update_integration_response_200_scopes_item,
)

if TYPE_CHECKING:
    from ..models.update_integration_response_200_keys_item import (
        UpdateIntegrationResponse200KeysItem,
    )


T = TypeVar("T", bound="UpdateIntegrationResponse200")


@_attrs_define
class UpdateIntegrationResponse200:
    """
    Attributes:
        object_ (Literal['integration']):
        id (str):
        application_id (str):
        app_name (str):
        scopes (list[UpdateIntegrationResponse200ScopesItem]):
        livemode (bool): False for a test integration: the twin that owns an integration’s test keys and test data.
        live_integration_id (None | str): On a test integration, the live integration it is the twin of.
        test_integration_id (None | str): On a live integration, its test twin once a test key was issued.
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        keys (list[UpdateIntegrationResponse200KeysItem]):
    """

    object_: Literal["integration"]
    id: str
    application_id: str
    app_name: str
    scopes: list[UpdateIntegrationResponse200ScopesItem]
    livemode: bool
    live_integration_id: None | str
    test_integration_id: None | str
    created_at: datetime.datetime
    updated_at: datetime.datetime
    keys: list[UpdateIntegrationResponse200KeysItem]

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        id = self.id

        application_id = self.application_id

        app_name = self.app_name

        scopes = []
        for scopes_item_data in self.scopes:
            scopes_item: str = scopes_item_data
            scopes.append(scopes_item)

        livemode = self.livemode

        live_integration_id: None | str
        live_integration_id = self.live_integration_id

        test_integration_id: None | str
        test_integration_id = self.test_integration_id

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        keys = []
        for keys_item_data in self.keys:
            keys_item = keys_item_data.to_dict()
            keys.append(keys_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "id": id,
                "application_id": application_id,
                "app_name": app_name,
                "scopes": scopes,
                "livemode": livemode,
                "live_integration_id": live_integration_id,
                "test_integration_id": test_integration_id,
                "created_at": created_at,
                "updated_at": updated_at,
                "keys": keys,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.update_integration_response_200_keys_item import (
            UpdateIntegrationResponse200KeysItem,
        )

        d = dict(src_dict)
        object_ = cast(Literal["integration"], d.pop("object"))
        if object_ != "integration":
            raise ValueError(f"object must match const 'integration', got '{object_}'")

        id = d.pop("id")

        application_id = d.pop("application_id")

        app_name = d.pop("app_name")

        scopes = []
        _scopes = d.pop("scopes")
        for scopes_item_data in _scopes:
            scopes_item = check_update_integration_response_200_scopes_item(
                scopes_item_data
            )

            scopes.append(scopes_item)

        livemode = d.pop("livemode")

        def _parse_live_integration_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        live_integration_id = _parse_live_integration_id(d.pop("live_integration_id"))

        def _parse_test_integration_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        test_integration_id = _parse_test_integration_id(d.pop("test_integration_id"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        keys = []
        _keys = d.pop("keys")
        for keys_item_data in _keys:
            keys_item = UpdateIntegrationResponse200KeysItem.from_dict(keys_item_data)

            keys.append(keys_item)

        update_integration_response_200 = cls(
            object_=object_,
            id=id,
            application_id=application_id,
            app_name=app_name,
            scopes=scopes,
            livemode=livemode,
            live_integration_id=live_integration_id,
            test_integration_id=test_integration_id,
            created_at=created_at,
            updated_at=updated_at,
            keys=keys,
        )

        return update_integration_response_200
