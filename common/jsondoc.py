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

from common.phrases import N_, Phrase, fill

# Deeper than any document of ours (a game's deal inside an event is about ten levels down).
DEEPEST = 64


class DocumentError(ValueError):
    """A document that cannot be read: ``reason`` says why, in a sentence's words (no
    leading capital, no full stop), to follow "the file ..." or "the body ...".

    ``phrase``: the reason as its template (marked with ``N_``) and values, for the outer
    layer to say in the reader's language; ``reason`` is the English."""

    def __init__(self, template: str, **values: Any):
        self.phrase = Phrase(template, values)
        self.reason = fill(template, values)
        super().__init__(self.reason)


def _no_constant(name: str) -> Any:
    raise DocumentError(N_("holds {name}, which JSON does not have"), name=name)


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
        raise DocumentError(N_("is larger than {largest} bytes"), largest=largest)
    if not data.strip():
        raise DocumentError(N_("is empty"))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise DocumentError(N_("is not UTF-8 text")) from None
    try:
        document = json.loads(text, parse_constant=_no_constant)
    except DocumentError:
        raise
    except json.JSONDecodeError as error:
        raise DocumentError(
            N_("is not JSON: {error} at line {line}, column {column}"),
            error=error.msg,  # the decoder's own words (English)
            line=error.lineno,
            column=error.colno,
        ) from None
    except ValueError:  # past the JSON errors: a number too long for int()
        raise DocumentError(N_("holds a number too long to read")) from None
    except RecursionError:  # the decoder's own stack: far past any depth we take
        raise DocumentError(N_("nests deeper than {deepest} levels"), deepest=deepest) from None
    except (MemoryError, OverflowError):
        raise DocumentError(N_("is not JSON that can be read")) from None
    if nesting(document, deepest):
        raise DocumentError(N_("nests deeper than {deepest} levels"), deepest=deepest)
    try:
        # Lone surrogates decode as JSON but cannot be stored or printed as text.
        json.dumps(document, ensure_ascii=False).encode("utf-8")
    except (UnicodeError, ValueError, RecursionError):
        raise DocumentError(N_("holds a character that is not valid text")) from None
    return document
