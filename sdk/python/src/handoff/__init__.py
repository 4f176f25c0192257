"""Handoff's Python SDK: the agent API, typed from its OpenAPI document (``handoff._generated``,
by openapi-python-client) with a thin hand-written layer: retries with jitter, idempotency keys,
paging iterators, ``updates()`` over the long poll, problems as exceptions, webhook checks."""

__version__ = "0.1.0"

from standardwebhooks.webhooks import WebhookVerificationError

from ._retry import RetryPolicy
from .async_client import AsyncHandoff
from .client import Handoff
from .errors import FieldError, HandoffConnectionError, HandoffError
from .models import CreatedRequest, Event, Request
from .webhooks import verify_webhook

__all__ = [
    "AsyncHandoff",
    "CreatedRequest",
    "Event",
    "FieldError",
    "Handoff",
    "HandoffConnectionError",
    "HandoffError",
    "Request",
    "RetryPolicy",
    "WebhookVerificationError",
    "__version__",
    "verify_webhook",
]
