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
    from ..models.suggest_request_routing_response_200_candidates_item import (
        SuggestRequestRoutingResponse200CandidatesItem,
    )
    from ..models.suggest_request_routing_response_200_excluded import (
        SuggestRequestRoutingResponse200Excluded,
    )


T = TypeVar("T", bound="SuggestRequestRoutingResponse200")


@_attrs_define
class SuggestRequestRoutingResponse200:
    """
    Attributes:
        object_ (Literal['routing_suggestions']):
        request_id (str):
        category (None | str):
        paused (bool):
        summary (str):
        candidates (list[SuggestRequestRoutingResponse200CandidatesItem]):
        excluded (SuggestRequestRoutingResponse200Excluded):
    """

    object_: Literal["routing_suggestions"]
    request_id: str
    category: None | str
    paused: bool
    summary: str
    candidates: list[SuggestRequestRoutingResponse200CandidatesItem]
    excluded: SuggestRequestRoutingResponse200Excluded

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        request_id = self.request_id

        category: None | str
        category = self.category

        paused = self.paused

        summary = self.summary

        candidates = []
        for candidates_item_data in self.candidates:
            candidates_item = candidates_item_data.to_dict()
            candidates.append(candidates_item)

        excluded = self.excluded.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "request_id": request_id,
                "category": category,
                "paused": paused,
                "summary": summary,
                "candidates": candidates,
                "excluded": excluded,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.suggest_request_routing_response_200_candidates_item import (
            SuggestRequestRoutingResponse200CandidatesItem,
        )
        from ..models.suggest_request_routing_response_200_excluded import (
            SuggestRequestRoutingResponse200Excluded,
        )

        d = dict(src_dict)
        object_ = cast(Literal["routing_suggestions"], d.pop("object"))
        if object_ != "routing_suggestions":
            raise ValueError(
                f"object must match const 'routing_suggestions', got '{object_}'"
            )

        request_id = d.pop("request_id")

        def _parse_category(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        category = _parse_category(d.pop("category"))

        paused = d.pop("paused")

        summary = d.pop("summary")

        candidates = []
        _candidates = d.pop("candidates")
        for candidates_item_data in _candidates:
            candidates_item = SuggestRequestRoutingResponse200CandidatesItem.from_dict(
                candidates_item_data
            )

            candidates.append(candidates_item)

        excluded = SuggestRequestRoutingResponse200Excluded.from_dict(d.pop("excluded"))

        suggest_request_routing_response_200 = cls(
            object_=object_,
            request_id=request_id,
            category=category,
            paused=paused,
            summary=summary,
            candidates=candidates,
            excluded=excluded,
        )

        return suggest_request_routing_response_200
