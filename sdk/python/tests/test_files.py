"""Files in both clients: ``upload_file`` from bytes, a path and a file object (streamed) answers
the SHA-256 of what was sent, ``download_file`` gives the same bytes back (renewing an expired or
altered URL when it holds the file), ``send_message(attachments=)`` attaches them, and a key that
does not own the request gets 404."""

from __future__ import annotations

import hashlib
import io
import os
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import pytest

from handoff import AsyncHandoff, Handoff, HandoffError

PDF = b"%PDF-1.7\n" + os.urandom(200 * 1024)
LOG = b"GET /menu 500\n" * 40_000


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def altered(url: str) -> str:
    """The same URL with its signature's first character changed."""
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query))
    signature = query["signature"]
    query["signature"] = ("B" if signature[0] == "A" else "A") + signature[1:]
    return urlunsplit(parts._replace(query=urlencode(query)))


def test_uploads_stream_and_download_the_same_bytes(
    base_url: str, api_key: str, test_key: str, tmp_path: Path
) -> None:
    log_path = tmp_path / "server.log"
    log_path.write_bytes(LOG)
    with Handoff(api_key, base_url=base_url) as client:
        created = client.requests.create(message="Fix the layout of our menu page.")
        from_bytes = client.requests.upload_file(created.id, PDF, filename="brief.pdf")
        assert (from_bytes.filename, from_bytes.size, from_bytes.sha256) == (
            "brief.pdf",
            len(PDF),
            sha256(PDF),
        )
        assert from_bytes.content_type == "application/pdf"
        assert (from_bytes.request_id, from_bytes.uploaded_by) == (created.id, "agent")

        # A path (as str) is opened and streamed; its name on the request is the one given.
        from_path = client.requests.upload_file(
            created.id, str(log_path), filename="../logs/server.log", content_type="text/plain"
        )
        assert (from_path.filename, from_path.size) == ("server.log", len(LOG))
        assert from_path.sha256 == sha256(LOG)

        # A file object is streamed from where it stands.
        notes = io.BytesIO(b"skip me|Steps: add a cake, pay, see an error.\n")
        notes.seek(len(b"skip me|"))
        from_object = client.requests.upload_file(created.id, notes, filename="steps.txt")
        assert from_object.sha256 == sha256(b"Steps: add a cake, pay, see an error.\n")

        listed = client.requests.list_files(created.id)
        assert sorted(file.id for file in listed) == sorted(
            [from_bytes.id, from_path.id, from_object.id]
        )
        read = client.requests.get_file(created.id, from_path.id)
        assert client.requests.download_file(read) == LOG
        assert client.requests.download_file(from_bytes.download_url) == PDF

        # Holding the file, a refused URL is renewed; a bare URL cannot be.
        from_bytes.download_url = altered(from_bytes.download_url)
        assert client.requests.download_file(from_bytes) == PDF
        with pytest.raises(HandoffError) as refused:
            client.requests.download_file(from_bytes.download_url)
        assert (refused.value.status, refused.value.code) == (403, "download_url_invalid")

        message = client.requests.send_message(
            created.id, "The brief and the log.", attachments=[from_bytes.id, from_path.id]
        )
        assert [(file.id, file.sha256) for file in message.attachments] == [
            (from_bytes.id, sha256(PDF)),
            (from_path.id, sha256(LOG)),
        ]

    # The integration's test key does not own the live request: the same 404 as no request.
    with Handoff(test_key, base_url=base_url) as other:
        for attempt in (
            lambda: other.requests.list_files(created.id, token=created.request_token),
            lambda: other.requests.get_file(created.id, from_bytes.id, token=created.request_token),
        ):
            with pytest.raises(HandoffError) as missing:
                attempt()
            assert missing.value.status == 404


@pytest.mark.anyio
async def test_the_async_client_uploads_a_path_and_downloads_it(
    base_url: str, api_key: str, tmp_path: Path
) -> None:
    path = tmp_path / "brief.pdf"
    path.write_bytes(PDF)
    async with AsyncHandoff(api_key, base_url=base_url) as client:
        created = await client.requests.create(message="Review our contract.")
        uploaded = await client.requests.upload_file(created.id, path, filename="brief.pdf")
        assert (uploaded.size, uploaded.sha256) == (len(PDF), sha256(PDF))
        with path.open("rb") as opened:
            again = await client.requests.upload_file(created.id, opened, filename="copy.pdf")
        assert again.sha256 == sha256(PDF)
        [newest, _] = await client.requests.list_files(created.id)
        assert newest.id == again.id
        assert await client.requests.download_file(newest) == PDF
        sent = await client.requests.send_message(
            created.id, {"message": "The contract."}, attachments=[uploaded.id]
        )
        assert [file.filename for file in sent.attachments] == ["brief.pdf"]
