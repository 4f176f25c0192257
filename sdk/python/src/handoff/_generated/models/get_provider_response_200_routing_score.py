from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="GetProviderResponse200RoutingScore")


@_attrs_define
class GetProviderResponse200RoutingScore:
    """
    Attributes:
        score (float): 0 to 1, from the most recent outcomes: 0.5 × offers accepted + 0.2 × answer speed + 0.3 × jobs
            completed (each 0.5 without history). A higher score takes its turn more often.
        offers_accepted (int):
        offers_declined (int):
        offers_lapsed (int):
        median_response_seconds (float | None):
        jobs_completed (int):
        jobs_cancelled (int):
    """

    score: float
    offers_accepted: int
    offers_declined: int
    offers_lapsed: int
    median_response_seconds: float | None
    jobs_completed: int
    jobs_cancelled: int

    def to_dict(self) -> dict[str, Any]:
        score = self.score

        offers_accepted = self.offers_accepted

        offers_declined = self.offers_declined

        offers_lapsed = self.offers_lapsed

        median_response_seconds: float | None
        median_response_seconds = self.median_response_seconds

        jobs_completed = self.jobs_completed

        jobs_cancelled = self.jobs_cancelled

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "score": score,
                "offers_accepted": offers_accepted,
                "offers_declined": offers_declined,
                "offers_lapsed": offers_lapsed,
                "median_response_seconds": median_response_seconds,
                "jobs_completed": jobs_completed,
                "jobs_cancelled": jobs_cancelled,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        score = d.pop("score")

        offers_accepted = d.pop("offers_accepted")

        offers_declined = d.pop("offers_declined")

        offers_lapsed = d.pop("offers_lapsed")

        def _parse_median_response_seconds(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        median_response_seconds = _parse_median_response_seconds(
            d.pop("median_response_seconds")
        )

        jobs_completed = d.pop("jobs_completed")

        jobs_cancelled = d.pop("jobs_cancelled")

        get_provider_response_200_routing_score = cls(
            score=score,
            offers_accepted=offers_accepted,
            offers_declined=offers_declined,
            offers_lapsed=offers_lapsed,
            median_response_seconds=median_response_seconds,
            jobs_completed=jobs_completed,
            jobs_cancelled=jobs_cancelled,
        )

        return get_provider_response_200_routing_score
