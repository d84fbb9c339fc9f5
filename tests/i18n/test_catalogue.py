"""The catalogues: complete (no empty or fuzzy entry), compiled as committed, and holding
every string the code marks (``makemessages`` finds nothing new and nothing gone)."""

from __future__ import annotations

import gettext
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import override_settings

from tests.i18n.catalogue import LANGUAGES, ROOT, catalogue, gettext_tool, statistics

# What makemessages reads for each catalogue: the project's code and templates for the
# pages' (django), the scripts for theirs (djangojs: gettext() in static/js, served at
# /jsi18n/<language>.js).
SOURCES = {
    "django": ("common", "config", "printing", "scoring", "tournaments", "templates", "manage.py"),
    "djangojs": ("static", "manage.py"),
}
EACH = pytest.mark.parametrize(
    ("language", "domain"), [(language, domain) for language in LANGUAGES for domain in SOURCES]
)


@EACH
def test_every_entry_is_translated_and_none_is_fuzzy(language, domain):
    translated, fuzzy, untranslated = statistics(catalogue(language, domain))
    assert translated > 0
    assert (fuzzy, untranslated) == (0, 0), (
        f"{language} {domain}: {fuzzy} fuzzy, {untranslated} empty"
    )


@EACH
def test_the_committed_mo_is_the_catalogue_compiled(language, domain, tmp_path):
    po = catalogue(language, domain)
    fresh = tmp_path / f"{domain}.mo"
    subprocess.run([gettext_tool("msgfmt"), "--check", "-o", str(fresh), str(po)], check=True)
    with fresh.open("rb") as made, po.with_suffix(".mo").open("rb") as committed:
        want = gettext.GNUTranslations(made)._catalog  # type: ignore[attr-defined]
        have = gettext.GNUTranslations(committed)._catalog  # type: ignore[attr-defined]
    assert have == want, "run: manage.py compilemessages (and commit the .mo)"


@EACH
def test_makemessages_finds_nothing_new_and_nothing_gone(language, domain, tmp_path, monkeypatch):
    """makemessages over a copy of the project (its sources linked, its catalogue copied)
    leaves the catalogue complete: no marked string lacks a translation, none changed
    under its translation (fuzzy), none is left that the code no longer marks."""
    project = tmp_path / "project"
    project.mkdir()
    for name in SOURCES[domain]:
        os.symlink(ROOT / name, project / name)
    copied = project / "locale" / language / "LC_MESSAGES" / f"{domain}.po"
    copied.parent.mkdir(parents=True)
    shutil.copy(catalogue(language, domain), copied)
    gettext_tool("xgettext")
    monkeypatch.chdir(project)
    with override_settings(LOCALE_PATHS=[project / "locale"]):
        call_command("makemessages", locale=[language], domain=domain, symlinks=True, verbosity=0)
    _, fuzzy, untranslated = statistics(copied)
    text = copied.read_text(encoding="utf-8")
    gone = [line for line in text.splitlines() if line.startswith("#~ msgid")]
    assert (fuzzy, untranslated) == (0, 0), (
        f"{domain} strings marked but not translated ({untranslated}) or changed ({fuzzy}): "
        f"run manage.py makemessages -d {domain} -l {language}, translate, compilemessages"
    )
    assert not gone, f"{domain} strings no longer marked anywhere: {gone}"


def test_the_cores_mark_every_problem():
    """Every problem of a moved core is a template marked N_ (or a name holding one):
    never an f-string, a concatenation or a str() of pieces."""
    import ast

    from tests.i18n.catalogue import MARKED_CORES

    # Calls whose argument at this position is a problem's or a phrase's template.
    template_at = {
        "fail": 1,
        "Problem": 0,
        "Phrase": 0,
        "Words": 0,
        "single": 0,
        "invalid": 0,
        "SchedulingError": 0,
        "BracketUserError": 0,
    }
    found = []
    for name in MARKED_CORES:
        path = Path(ROOT / name)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            at = template_at.get(called)
            if at is None or len(node.args) <= at:
                continue
            argument = node.args[at]
            marked = isinstance(argument, ast.Call) and getattr(argument.func, "id", "") == "N_"
            named = isinstance(argument, ast.Name | ast.Attribute | ast.Subscript | ast.IfExp)
            if not (marked or named):
                found.append(f"{name}:{node.lineno}: {ast.unparse(argument)[:60]}")
    assert not found, "templates not marked with N_:\n" + "\n".join(found)


def test_every_module_of_the_cores_is_read_but_the_named_exclusions():
    from tests.i18n.catalogue import CORES_EXCLUDED, MARKED_CORES

    every = {
        path.relative_to(ROOT).as_posix()
        for top in ("scoring/engines", "tournaments")
        for path in (ROOT / top).rglob("*.py")
        if top != "tournaments" or "/core/" in path.relative_to(ROOT).as_posix()
    } | {"common/phrases.py"}
    assert set(CORES_EXCLUDED) <= every, "an exclusion names no module"
    assert set(MARKED_CORES) == every - set(CORES_EXCLUDED)
    assert "scoring/engines/registry.py" in MARKED_CORES
