"""Reading a document's bytes and decoding them: bounded in size and in time, every failure named.

    data = read_file("post.md", max_bytes=20 << 20)     # bytes; DocumentFailure when it cannot be read
    data = read_stream(sys.stdin.buffer, "-", max_bytes)
    text = decode(data, "post.md")

The read itself is bounded: at most `max_bytes + 1` bytes are ever read (a symlink to /dev/zero, or
stdin from /dev/urandom, stops at the limit), in blocks with `limits.check()` between them, so a
read runs under the document's time budget (a FIFO nobody writes to is interrupted by the budget's
alarm in the main thread). Folders, symlink loops and unreadable files raise UnreadableDocument.
"""
from __future__ import annotations

import errno
import os
import re
import stat
from typing import BinaryIO

from extractor import limits
from extractor.errors import DocumentTooLarge, UnreadableDocument

BLOCK = 1 << 20
WEB_ENCODINGS = ("utf_16", "utf_32", "cp1252", "latin_1", "iso8859_15")
_BOMS = ((b"\xff\xfe\x00\x00", "utf-32-le"), (b"\x00\x00\xfe\xff", "utf-32-be"),
         (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"))
_UTF8_MULTIBYTE = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}")
_LINE_END_CR = re.compile(r"\r\n?")
_OPEN_ERRORS = {errno.ELOOP: "is a symlink loop", errno.EISDIR: "is a folder, not a file",
                errno.EACCES: "cannot be read (permission denied)", errno.EPERM: "cannot be read (not permitted)",
                errno.ENAMETOOLONG: "has a name too long to open"}


def _too_large(doc: str, max_bytes: int, size: int | None = None) -> DocumentTooLarge:
    if size is None:  # a stream or device: the read stopped one byte past the limit
        return DocumentTooLarge(doc, f"over the {max_bytes}-byte limit (reading stopped there)")
    return DocumentTooLarge(doc, f"{size} bytes is over the {max_bytes}-byte limit")


def read_fd(fd: int, doc: str, max_bytes: int) -> bytes:
    """At most `max_bytes` bytes from an open descriptor, in blocks under the time budget."""
    parts: list[bytes] = []
    total = 0
    while True:
        limits.check()
        try:
            block = os.read(fd, min(BLOCK, max_bytes + 1 - total))
        except OSError as err:
            raise UnreadableDocument(doc, f"cannot be read ({err.strerror or err})") from None
        if not block:
            return b"".join(parts)
        parts.append(block)
        total += len(block)
        if total > max_bytes:
            raise _too_large(doc, max_bytes)


def read_file(path: str | os.PathLike, max_bytes: int, doc: str | None = None) -> bytes:
    """The bytes of a file (regular, FIFO or device), never more than `max_bytes`.

    FileNotFoundError is left to the caller (the commands say "no such file"); every other
    reason a path cannot be read raises UnreadableDocument naming it."""
    doc = doc or os.fsdecode(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise
    except OSError as err:
        reason = _OPEN_ERRORS.get(err.errno or 0, f"cannot be opened ({err.strerror or err})")
        raise UnreadableDocument(doc, reason) from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise UnreadableDocument(doc, _OPEN_ERRORS[errno.EISDIR])
        if stat.S_ISREG(st.st_mode) and st.st_size > max_bytes:
            raise _too_large(doc, max_bytes, st.st_size)
        return read_fd(fd, doc, max_bytes)
    finally:
        os.close(fd)


def read_stream(stream: BinaryIO, doc: str, max_bytes: int) -> bytes:
    """At most `max_bytes` bytes of a binary stream (stdin), under the time budget."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):  # an in-memory stream (tests, embedding): still bounded
        data = stream.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise _too_large(doc, max_bytes) from None
        return data
    return read_fd(fd, doc, max_bytes)


def _mostly_utf8(data: bytes) -> bool:
    """UTF-8 with a few broken bytes: more well-formed multi-byte sequences than bad ones, and under 1%."""
    text = data.decode("utf-8", "replace")
    bad = text.count("\ufffd") - data.count("\ufffd".encode())
    good = sum(1 for _ in _UTF8_MULTIBYTE.finditer(data))
    return 0 < bad < good and bad * 100 <= len(data)


def decode(data: bytes, doc: str) -> str:
    """UTF-8 (BOM stripped) when valid, or with a few broken bytes replaced; else the detected encoding.

    Binary content (a NUL byte anywhere) is refused; line ends are read as Python reads text files
    (universal newlines): CRLF and lone CR (old Mac) become LF, so spans index the text that
    `Path.read_text()` or `open()` gives a reader, whatever line ends the file was saved with."""
    return universal_newlines(_decode(data, doc))


def universal_newlines(text: str) -> str:
    """Line ends as universal newlines read them: CRLF and lone CR become LF (the text a reader's
    `open(path).read()` gives, which the spans then index)."""
    return _LINE_END_CR.sub("\n", text) if "\r" in text else text


def _decode(data: bytes, doc: str) -> str:
    for bom, enc in _BOMS:  # UTF-16/32 hold NUL bytes: recognise them by their byte-order mark
        if data.startswith(bom):
            try:
                return data[len(bom):].decode(enc)
            except UnicodeDecodeError:
                raise UnreadableDocument(doc, f"starts with a {enc} byte-order mark but is not {enc}") from None
    nul = data.find(b"\x00")
    if nul >= 0:
        raise UnreadableDocument(doc, f"binary content (a NUL byte at offset {nul})")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    if _mostly_utf8(data):
        return data.decode("utf-8-sig", "replace")
    from charset_normalizer import from_bytes  # slow to import; needed only for non-UTF-8 documents

    results = from_bytes(data)
    best = results.best()
    if best is None:
        raise UnreadableDocument(doc, "not UTF-8 and no text encoding could be detected")
    # Among equally clean decodings, prefer the encodings the web actually uses (HTML treats
    # latin-1 as cp1252): charset-normalizer alone picks e.g. cp775 for Western European text.
    calm = {m.encoding: m for m in results if m.chaos <= best.chaos}
    for enc in WEB_ENCODINGS:
        if enc in calm:
            return str(calm[enc])
    return str(best)
