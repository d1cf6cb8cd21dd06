"""Reading what a user hands us (a file named on the command line, an uploaded body) into
JSON, within limits: the one path the CLI and the server share (docs/formats.md, Limits).

A file must be a regular file (a FIFO or ``/dev/zero`` is refused before anything is
read from it) of at most ``limit`` bytes; JSON text may start with a UTF-8 byte-order mark,
may nest at most 1024 arrays or objects deep, and holds no number too large for a double.
Every refusal is an :class:`InputError` whose message names the problem in one line: its
English text, and the same as a phrase (:mod:`spacetable.i18n.phrase`) for a reader of
another language. The JSON parser's own words are catalog messages too (:data:`_JSON_WORDS`).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Any

import orjson

from spacetable.i18n import ENGLISH, N_, Translator
from spacetable.i18n.phrase import Phrase, Reason, Value, phrase, refusal

#: The largest file a referee reads (table and turn files, combat scripts alike;
#: docs/formats.md, Limits).
MAX_FILE_BYTES = 1 << 20
#: How deep arrays and objects may nest (orjson's own limit, which it enforces).
MAX_JSON_DEPTH = 1024

_BOM = b"\xef\xbb\xbf"
#: orjson's messages for the limits it enforces, in our words.
_JSON_LIMITS = {
    "depth limit exceeded": phrase(
        "arrays or objects nested more than {most} deep", most=str(MAX_JSON_DEPTH)
    ),
    "number is infinity when parsed as double": phrase("a number too large"),
}
#: Every other message of orjson's parser (yyjson's words, orjson 3.10 and later), as
#: catalog messages: the English is the parser's own, so a message missing here (a newer
#: parser's) still shows, in English.
_JSON_WORDS = {
    message: Phrase(message)
    for message in (
        N_("Input is a zero-length, empty document"),
        N_("input data is empty"),
        N_("unexpected end of data"),
        N_("unexpected content after document"),
        N_("unexpected character, expected a JSON value"),
        N_("unexpected character, expected ',' or ']'"),
        N_("unexpected character, expected ',' or '}'"),
        N_("unexpected character, expected ':' after key"),
        N_("unexpected character, expected a string key"),
        N_("trailing comma is not allowed"),
        N_("invalid literal, expected 'null'"),
        N_("invalid literal, expected 'true'"),
        N_("invalid literal, expected 'false'"),
        N_("number with leading zero is not allowed"),
        N_("no digit after decimal point"),
        N_("no digit after exponent sign"),
        N_("no digit after sign"),
        N_("unexpected control character in string"),
        N_("invalid escaped sequence in string"),
        N_("invalid escape in string"),
        N_("no low surrogate in string"),
        N_("invalid high surrogate in string"),
        N_("invalid low surrogate in string"),
        N_("invalid UTF-8 encoding in string"),
        N_("invalid utf-8 encoding in string"),
        N_("UTF-8 byte order mark (BOM) is not supported"),
        N_("failed to allocate memory"),
        N_("str is not valid UTF-8: surrogates not allowed"),
    )
}
#: The system's words for why a file cannot be opened or read (``strerror``), by error
#: number, as catalog messages (used only where the system says exactly these words).
_OS_WORDS = {
    errno.ENOENT: N_("No such file or directory"),
    errno.EACCES: N_("Permission denied"),
    errno.EPERM: N_("Operation not permitted"),
    errno.ENOTDIR: N_("Not a directory"),
    errno.EISDIR: N_("Is a directory"),
    errno.ELOOP: N_("Too many levels of symbolic links"),
    errno.ENAMETOOLONG: N_("File name too long"),
    errno.EIO: N_("Input/output error"),
}


class InputError(ValueError):
    """A file or body that cannot be read as asked: the message names the problem, and
    :attr:`says` is the same as a phrase (for a reader of another language)."""

    @property
    def says(self) -> Phrase | None:
        """The message as a phrase (:mod:`spacetable.i18n.phrase`), or ``None``."""
        said = self.args[0] if self.args else None
        return said.phrase if isinstance(said, Reason) else None


def os_words(exc: OSError) -> Value:
    """The system's words for ``exc`` (its ``strerror``) as a phrase when the catalogs have
    them, else as the system says them."""
    why = str(exc.strerror)
    known = _OS_WORDS.get(exc.errno) if exc.errno is not None else None
    return Phrase(known) if known is not None and known == why else why


def os_said(exc: OSError, tr: Translator = ENGLISH) -> str:
    """The system's words for ``exc`` in ``tr``'s language where the catalogs have them."""
    why = os_words(exc)
    return why.text(tr) if isinstance(why, Phrase) else str(why)


def _cannot_read(exc: OSError) -> InputError:
    """The refusal for a file the system cannot open or read."""
    return InputError(refusal("cannot read the file ({why})", why=os_words(exc)))


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
        raise _cannot_read(exc) from exc
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise InputError(refusal("cannot read the file: it is a directory"))
        if not stat.S_ISREG(mode):
            raise InputError(refusal("cannot read the file: it is not a regular file"))
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0 and (chunk := os.read(fd, min(left, 1 << 16))):
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
    except OSError as exc:
        raise _cannot_read(exc) from exc
    finally:
        os.close(fd)
    if len(data) > limit:
        raise InputError(refusal("the file is larger than {most} bytes", most=limit))
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
        raise InputError(
            refusal("the text is not UTF-8 (byte {byte})", byte=str(exc.start))
        ) from None
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        problem = _JSON_LIMITS.get(exc.msg) or _json_words(exc.msg)
        raise InputError(
            refusal(
                "malformed JSON at line {line}, column {column}: {problem}",
                line=str(exc.lineno),
                column=str(exc.colno),
                problem=problem,
            )
        ) from None


def _json_words(message: str) -> Value:
    """The JSON parser's ``message`` as a catalog phrase, or as it is when we lack it."""
    return _JSON_WORDS.get(message) or message


def json_error_said(exc: orjson.JSONDecodeError) -> Value:
    """``str(exc)`` (the parser's words, line, column and character) as a phrase, for a
    reader of another language; ``str(exc)`` itself if the parser words it otherwise."""
    said = phrase(
        "{problem}: line {line} column {column} (char {char})",
        problem=_json_words(exc.msg),
        line=str(exc.lineno),
        column=str(exc.colno),
        char=str(exc.pos),
    )
    return said if said.text() == str(exc) else str(exc)


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
