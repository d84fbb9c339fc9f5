"""The one reader of every JSON document that comes in: the desk's uploads (an event, a
club's roster), the commands' files, the API's bodies.

Plain Python, no Django. Whatever the bytes, the answer is the decoded document or
``DocumentError`` with a sentence saying why not: too large, not UTF-8, not JSON, nested
deeper than a document of ours ever is (checked before decoding, so that no nesting can
exhaust the stack), NaN or Infinity (which JSON does not have), a lone surrogate (which
cannot be stored or printed as text), a number too long to read. What the document holds
is then its schema's to check (a NUL in a name, say, named by its path).
"""

from __future__ import annotations

import json
import re
from typing import Any

# Deeper than any document of ours (a game's deal inside an event is about ten levels down).
DEEPEST = 64
# The brackets of the structure once the strings (which may hold brackets) are taken out.
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(rb"[\[\]{}]")


class DocumentError(ValueError):
    """A document that cannot be read: ``reason`` says why, in a sentence's words (no
    leading capital, no full stop), to follow "the file ..." or "the body ..."."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def _no_constant(name: str) -> Any:
    raise DocumentError(f"holds {name}, which JSON does not have")


def nesting(raw: bytes) -> int:
    """How deep the arrays and objects of JSON text ``raw`` nest (its strings left out)."""
    depth = deepest = 0
    for found in _BRACKET.finditer(_STRING.sub(b'""', raw)):
        if found.group() in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def read_json(raw: bytes | str, *, largest: int, deepest: int = DEEPEST) -> Any:
    """The document JSON text ``raw`` holds, or DocumentError saying why it cannot be read.

    ``largest`` is in bytes; a UTF-8 byte order mark is allowed (a spreadsheet's export).
    """
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    if len(data) > largest:
        raise DocumentError(f"is larger than {largest} bytes")
    if not data.strip():
        raise DocumentError("is empty")
    if nesting(data) > deepest:
        raise DocumentError(f"nests deeper than {deepest} levels")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise DocumentError("is not UTF-8 text") from None
    try:
        document = json.loads(text, parse_constant=_no_constant)
    except DocumentError:
        raise
    except json.JSONDecodeError as error:
        raise DocumentError(
            f"is not JSON: {error.msg} at line {error.lineno}, column {error.colno}"
        ) from None
    except ValueError:  # past the JSON errors: a number too long for int()
        raise DocumentError("holds a number too long to read") from None
    except (RecursionError, MemoryError, OverflowError):
        # Not past the nesting check, but a reader never lets one through.
        raise DocumentError("is not JSON that can be read") from None
    try:
        # Lone surrogates decode as JSON but cannot be stored or printed as text.
        json.dumps(document, ensure_ascii=False).encode("utf-8")
    except (UnicodeError, ValueError, RecursionError):
        raise DocumentError("holds a character that is not valid text") from None
    return document
