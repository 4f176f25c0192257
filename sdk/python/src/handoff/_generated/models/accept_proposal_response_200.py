from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.accept_proposal_response_200_job import AcceptProposalResponse200Job
    from ..models.accept_proposal_response_200_proposal import (
        AcceptProposalResponse200Proposal,
    )


T = TypeVar("T", bound="AcceptProposalResponse200")


@_attrs_define
class AcceptProposalResponse200:
    """
    Attributes:
        proposal (AcceptProposalResponse200Proposal):
        job (AcceptProposalResponse200Job):
    """

    proposal: AcceptProposalResponse200Proposal
    job: AcceptProposalResponse200Job

    def to_dict(self) -> dict[str, Any]:
        proposal = self.proposal.to_dict()

        job = self.job.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "proposal": proposal,
                "job": job,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.accept_proposal_response_200_job import (
            AcceptProposalResponse200Job,
        )
        from ..models.accept_proposal_response_200_proposal import (
            AcceptProposalResponse200Proposal,
        )

        d = dict(src_dict)
        proposal = AcceptProposalResponse200Proposal.from_dict(d.pop("proposal"))

        job = AcceptProposalResponse200Job.from_dict(d.pop("job"))

        accept_proposal_response_200 = cls(
            proposal=proposal,
            job=job,
        )

        return accept_proposal_response_200
