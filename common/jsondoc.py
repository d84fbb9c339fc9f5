"""The one reader of every JSON document that comes in: the desk's uploads (an event, a
club's roster), the commands' files, the API's bodies.

Plain Python, no Django. Whatever the bytes, the answer is the decoded document or
``DocumentError`` with a sentence saying why not: too large, not UTF-8, not JSON, nested
deeper than a document of ours ever is (the decoder's own limit caught, the rest walked
without recursion), NaN or Infinity (which JSON does not have), a lone surrogate (which
cannot be stored or printed as text), a number too long to read. What the document holds
is then its schema's to check (a NUL in a name, say, named by its path).
"""

from __future__ import annotations

import json
from typing import Any

# Deeper than any document of ours (a game's deal inside an event is about ten levels down).
DEEPEST = 64


class DocumentError(ValueError):
    """A document that cannot be read: ``reason`` says why, in a sentence's words (no
    leading capital, no full stop), to follow "the file ..." or "the body ..."."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def _no_constant(name: str) -> Any:
    raise DocumentError(f"holds {name}, which JSON does not have")


def nesting(document: Any, deepest: int) -> bool:
    """Whether the arrays and objects of ``document`` nest deeper than ``deepest``; walked
    without recursion, so that no nesting can exhaust the stack."""
    stack: list[tuple[Any, int]] = [(document, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list):
            if depth + 1 > deepest:
                return True
            items = value.values() if isinstance(value, dict) else value
            stack.extend((item, depth + 1) for item in items if isinstance(item, dict | list))
    return False


def read_json(raw: bytes | str, *, largest: int, deepest: int = DEEPEST) -> Any:
    """The document JSON text ``raw`` holds, or DocumentError saying why it cannot be read.

    ``largest`` is in bytes; a UTF-8 byte order mark is allowed (a spreadsheet's export).
    """
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    if len(data) > largest:
        raise DocumentError(f"is larger than {largest} bytes")
    if not data.strip():
        raise DocumentError("is empty")
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
    except RecursionError:  # the decoder's own stack: far past any depth we take
        raise DocumentError(f"nests deeper than {deepest} levels") from None
    except (MemoryError, OverflowError):
        raise DocumentError("is not JSON that can be read") from None
    if nesting(document, deepest):
        raise DocumentError(f"nests deeper than {deepest} levels")
    try:
        # Lone surrogates decode as JSON but cannot be stored or printed as text.
        json.dumps(document, ensure_ascii=False).encode("utf-8")
    except (UnicodeError, ValueError, RecursionError):
        raise DocumentError("holds a character that is not valid text") from None
    return document
