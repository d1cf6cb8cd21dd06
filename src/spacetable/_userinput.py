"""Reading what a user hands us (a file named on the command line, an uploaded body) into
JSON, within limits: the one path the CLI and the server share (docs/formats.md, Limits).

A file must be a regular file (a FIFO or ``/dev/zero`` is refused before anything is
read from it) of at most ``limit`` bytes; JSON text may start with a UTF-8 byte-order mark,
may nest at most 1024 arrays or objects deep, and holds no number too large for a double.
Every refusal is an :class:`InputError` whose message names the problem in one line.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import orjson

#: The largest file a referee reads (table and turn files, combat scripts alike;
#: docs/formats.md, Limits).
MAX_FILE_BYTES = 1 << 20
#: How deep arrays and objects may nest (orjson's own limit, which it enforces).
MAX_JSON_DEPTH = 1024

_BOM = b"\xef\xbb\xbf"
#: orjson's messages for the limits it enforces, in our words.
_JSON_LIMITS = {
    "depth limit exceeded": f"arrays or objects nested more than {MAX_JSON_DEPTH} deep",
    "number is infinity when parsed as double": "a number too large",
}


class InputError(ValueError):
    """A file or body that cannot be read as asked: the message names the problem."""


def read_limited(path: Path | str, limit: int) -> bytes:
    """The bytes of the regular file at ``path``, refusing one larger than ``limit`` bytes.

    The file is opened without blocking and checked before it is read, so a FIFO or a
    device (``/dev/zero``) is refused at once; at most ``limit + 1`` bytes are read, so a
    file that grows while it is read is refused too. Raises :class:`InputError`."""
    # O_NONBLOCK: opening a FIFO with no writer would otherwise wait forever.
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise InputError(f"cannot read the file ({exc.strerror})") from exc
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a directory" if stat.S_ISDIR(mode) else "not a regular file"
            raise InputError(f"cannot read the file: it is {kind}")
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0 and (chunk := os.read(fd, min(left, 1 << 16))):
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
    except OSError as exc:
        raise InputError(f"cannot read the file ({exc.strerror})") from exc
    finally:
        os.close(fd)
    if len(data) > limit:
        raise InputError(f"the file is larger than {limit:,} bytes")
    return data


def parse_json(data: bytes | str) -> Any:
    """Decode JSON text (UTF-8 bytes, with or without a byte-order mark, or a string).

    Raises :class:`InputError` naming the line and column of the problem: malformed JSON,
    text that is not UTF-8, nesting deeper than :data:`MAX_JSON_DEPTH`, a number too large
    for a double (a 400-digit integer), ``NaN`` or ``Infinity``. Integers beyond 64 bits
    that still fit a double are read as floats, which the formats then refuse where they
    want a whole number."""
    if isinstance(data, str):
        data = data.removeprefix("\ufeff").encode("utf-8", "surrogatepass")
    else:
        data = data.removeprefix(_BOM)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"the text is not UTF-8 (byte {exc.start})") from None
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        problem = _JSON_LIMITS.get(exc.msg, exc.msg)
        raise InputError(
            f"malformed JSON at line {exc.lineno}, column {exc.colno}: {problem}"
        ) from None


def clipped(value: Any, chars: int = 40) -> str:
    """``repr(value)`` cut to about ``chars`` characters, for an error message that must
    not echo a whole upload back (a huge integer is described by its length)."""
    if isinstance(value, int) and value.bit_length() > 128:
        return f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
    shown = repr(value)
    return shown if len(shown) <= chars else f"{shown[: chars - 3]}..."


def listed(names: list[str], chars: int = 200) -> str:
    """``names`` joined by commas, cut to about ``chars`` characters."""
    text = ", ".join(names)
    return text if len(text) <= chars else f"{text[: chars - 3]}..."
