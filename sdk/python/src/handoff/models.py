"""Names for the generated models an agent meets most, which the generator names after the
operation that answers them."""

from ._generated.models import (
    CreateHandoffRequestResponse201 as CreatedRequest,
)
from ._generated.models import (
    GetRequestResponse200 as Request,
)
from ._generated.models import (
    WaitForRequestUpdatesResponse200DataItem as Event,
)

__all__ = ["CreatedRequest", "Event", "Request"]
