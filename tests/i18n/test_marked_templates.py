"""Every word a person sees on a marked page is marked for translation: what is left of
the template once its translated parts, tags and variables are taken out holds no word.

Every template under templates/ is read (``MARKED_TEMPLATES``): a new page is checked
without being listed."""

from __future__ import annotations

import re

import pytest

from tests.i18n.catalogue import MARKED_TEMPLATES, NOT_WORDS, ROOT

SHOWN_ATTRIBUTES = ("title", "alt", "placeholder", "aria-label", "label")


def unmarked_words(source: str) -> list[str]:
    text = re.sub(r"{%\s*comment\s*%}.*?{%\s*endcomment\s*%}", " ", source, flags=re.S)
    text = re.sub(r"{#.*?#}", " ", text, flags=re.S)
    text = re.sub(r"{%\s*blocktranslate.*?{%\s*endblocktranslate\s*%}", " ", text, flags=re.S)
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", text, flags=re.S)
    text = re.sub(r"{%.*?%}", " ", text, flags=re.S)
    text = re.sub(r"{{.*?}}", " ", text, flags=re.S)
    words: list[str] = []
    # Attributes a person reads (a tooltip, a placeholder, what a screen reader says).
    for attribute in SHOWN_ATTRIBUTES:
        for value in re.findall(rf'\s{attribute}="([^"]*)"', text):
            words.extend(re.findall(r"[^\W\d_]{2,}", value))
    # Text between tags.
    between = re.sub(r"<[^>]*>", " ", text)
    between = re.sub(r"&[a-z]+;|&#\d+;", " ", between)
    words.extend(re.findall(r"[^\W\d_]{2,}", between))
    return [word for word in words if word not in NOT_WORDS]


@pytest.mark.parametrize("name", MARKED_TEMPLATES)
def test_no_word_of_a_marked_page_is_left_unmarked(name):
    source = (ROOT / "templates" / name).read_text(encoding="utf-8")
    assert unmarked_words(source) == []


def test_the_check_sees_an_unmarked_word():
    assert unmarked_words('<p>{% translate "Home" %} Back</p>') == ["Back"]
    assert unmarked_words('<a title="Open it">{% translate "x" %}</a>') == ["Open", "it"]
    assert unmarked_words("{% blocktranslate %}Page {{ n }}{% endblocktranslate %}") == []


def test_every_template_is_read_but_the_named_exclusions():
    from tests.i18n.catalogue import MARKED_TEMPLATES, TEMPLATES_EXCLUDED

    every = {p.relative_to(ROOT / "templates").as_posix() for p in ROOT.glob("templates/**/*")}
    every = {name for name in every if name.endswith(".html")}
    assert set(TEMPLATES_EXCLUDED) <= every, "an exclusion names no template"
    assert set(MARKED_TEMPLATES) == every - set(TEMPLATES_EXCLUDED)
    assert "tournaments/desk.html" in MARKED_TEMPLATES and "scoring/entry/roolz.html" in every
