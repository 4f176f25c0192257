"""What both clients need for files: an upload's body from bytes, a path or a binary file object
(streamed, never read whole into memory), and the download request, which carries no key."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import IO, Any, Protocol

import httpx

#: What ``upload_file`` takes: the bytes, a path to open, or a binary file object (``open(…,
#: "rb")``, ``io.BytesIO``).
FileContent = bytes | bytearray | memoryview | str | os.PathLike[str] | IO[bytes]

CHUNK_BYTES = 256 * 1024
DEFAULT_CONTENT_TYPE = "application/octet-stream"


class _Downloadable(Protocol):
    @property
    def download_url(self) -> str: ...


class _RequestFile(_Downloadable, Protocol):
    @property
    def id(self) -> str: ...

    @property
    def request_id(self) -> str: ...


#: Where ``download_file`` reads: a file the API answered (its URL renewed when expired) or a URL.
DownloadSource = str | _Downloadable


class Chunks:
    """A file's bytes in chunks, read from the start again for each attempt (the transport's
    retries send the body again): a path is opened again, a seekable file object rewound. A file
    object that cannot seek is sent once."""

    def __init__(self, source: Path | IO[bytes]) -> None:
        self._source = source
        self._start = source.tell() if not isinstance(source, Path) and source.seekable() else None
        self._sent = False

    def length(self) -> int | None:
        """The bytes to send, when known without reading them (a ``Content-Length``)."""
        if isinstance(self._source, Path):
            return self._source.stat().st_size
        if self._start is None:
            return None
        end = self._source.seek(0, os.SEEK_END)
        self._source.seek(self._start)
        return end - self._start

    def __iter__(self) -> Iterator[bytes]:
        if isinstance(self._source, Path):
            with self._source.open("rb") as opened:
                yield from _read(opened)
            return
        if self._start is not None:
            self._source.seek(self._start)
        elif self._sent:
            raise RuntimeError("the file object cannot seek, so its bytes cannot be sent again")
        self._sent = True
        yield from _read(self._source)


class AsyncChunks:
    """``Chunks`` for the asynchronous client (each chunk is read from the file in turn)."""

    def __init__(self, chunks: Chunks) -> None:
        self._chunks = chunks

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self._chunks:
            yield chunk


def _read(opened: IO[bytes]) -> Iterator[bytes]:
    while chunk := opened.read(CHUNK_BYTES):
        yield chunk


def upload_body(file: FileContent) -> tuple[bytes | Chunks, dict[str, str]]:
    """The body of an upload and its ``Content-Length`` header when it is known."""
    if isinstance(file, bytes | bytearray | memoryview):
        return bytes(file), {}
    chunks = Chunks(Path(file) if isinstance(file, str | os.PathLike) else file)
    length = chunks.length()
    return chunks, ({} if length is None else {"Content-Length": str(length)})


def upload_request(
    client: httpx.Client | httpx.AsyncClient,
    path: str,
    file: FileContent,
    *,
    filename: str,
    content_type: str | None,
    headers: dict[str, str],
) -> httpx.Request:
    """The upload as one request: the body is the file's bytes exactly, its type declared."""
    content, length = upload_body(file)
    sent: Any = (
        AsyncChunks(content)
        if isinstance(client, httpx.AsyncClient) and isinstance(content, Chunks)
        else content
    )
    return client.build_request(
        "POST",
        path,
        params={"filename": filename},
        content=sent,
        headers={"Content-Type": content_type or DEFAULT_CONTENT_TYPE, **length, **headers},
    )


def download_request(client: httpx.Client | httpx.AsyncClient, url: str) -> httpx.Request:
    """A GET of a signed download URL without the key: the URL alone is the capability."""
    request = client.build_request("GET", url)
    request.headers.pop("Authorization", None)
    request.headers["Accept"] = "*/*"
    return request


def url_of(source: DownloadSource) -> str:
    return source if isinstance(source, str) else source.download_url


def renewable(source: DownloadSource) -> _RequestFile | None:
    """The file whose URL can be renewed by reading it again, if ``source`` is one."""
    if isinstance(source, str):
        return None
    if isinstance(getattr(source, "id", None), str) and isinstance(
        getattr(source, "request_id", None), str
    ):
        return source  # type: ignore[return-value]
    return None
