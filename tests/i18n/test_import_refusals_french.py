"""The desk's event import says what is wrong with a document in the reader's language:
the field by its path and the problem through marked words (a key missing, a value of the
wrong type, a text too long, a key the document does not have), and why a file is not
JSON that can be read."""

from __future__ import annotations

import html
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from scoring.wording import problem_text
from tests.i18n.test_desk_pages import FRENCH
from tests.tournaments.helpers import ROOLZ_OPTIONS
from tournaments.events import services
from tournaments.events.document import document_problems

pytestmark = pytest.mark.django_db


@pytest.fixture
def desk(client):
    director = get_user_model().objects.create_user("director", password="x", is_staff=True)
    client.force_login(director)
    return client, director


def exported(director) -> dict:
    event = services.event_create(
        owner=director, name="Vendredi", game="roolz", options=ROOLZ_OPTIONS
    )
    services.entrants_import_csv(event=event, text="Ann\nBen\nCat", user=director)
    return services.event_export(event=event)


def uploaded(client, raw: bytes, **headers: str) -> str:
    upload = SimpleUploadedFile("e.json", raw, content_type="application/json")
    page = client.post(reverse("tournaments:event_import"), {"file": upload}, **headers)
    return html.unescape(page.content.decode())


def broken(document: dict) -> dict:
    event = {**document["event"], "rounds_planned": "3", "name": "N" * 81, "colour": "red"}
    return {
        **{k: v for k, v in document.items() if k != "entrants"},
        "event": event,
    }


def test_an_imported_documents_mistakes_are_said_in_french(desk):
    client, director = desk
    raw = json.dumps(broken(exported(director))).encode()
    french = uploaded(client, raw, **FRENCH)
    assert "Event.rounds_planned: devrait être un nombre entier" in french
    assert "Event.name: dépasse 80 caractères" in french
    assert "Event.colour: n'est pas une clé de ce document" in french
    assert "Entrants: est manquant" in french
    assert "Input should be" not in french and "Field required" not in french
    english = uploaded(client, raw)
    assert "Event.rounds_planned: should be a whole number" in english
    assert "Event.name: is longer than 80 characters" in english
    assert "Event.colour: is not a key this document has" in english
    assert "Entrants: is missing" in english


def test_a_file_that_is_not_json_is_said_in_french(desk):
    client, _ = desk
    french = uploaded(client, b'{"format": ', **FRENCH)
    assert (
        "Fichier\u00a0: pas un document JSON lisible\u00a0: il n'est pas du JSON\u00a0:" in french
    )
    assert "à la ligne 1, colonne 12" in french
    assert "il est vide" in uploaded(client, b"  ", **FRENCH)
    assert "it is empty." in uploaded(client, b"  ")


def test_a_value_no_branch_of_its_union_takes_is_named_at_its_own_path(desk):
    _, director = desk
    document = exported(director)
    document["rounds"] = [
        {"number": 1, "status": "draft", "tables": [], "report": {"means": {"a": 1}}}
    ]
    _, problems = document_problems(document)
    with translation.override("fr-ca"):
        said = [(p.field, problem_text(p)) for p in problems]
    assert said == [("rounds[0].report.means", "n'est pas une valeur que ce champ accepte")]
