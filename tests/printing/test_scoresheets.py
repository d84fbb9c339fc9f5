"""Scoresheets as a person reads them: the text on the page, and nothing off the page."""

from __future__ import annotations

import importlib
import io
import re
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command

from printing.render import fit_problems, fonts, layout, plan, render, render_one
from printing.render import paper as papers
from printing.render.paper import MARGIN
from printing.scoresheets import RoundMarks, blank_kinds, blank_sheet, filled_sheet
from scoring.engines.base import parse_record
from scoring.engines.registry import ENGINES
from tests.games import GAMES, expected
from tests.vectors import RUMMOLI_RULES_EXAMPLE, vector_record

NAMES = ["Zoë", "Łukasz", "Søren", "Ðorđe", "Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
LONG_NAME = "Maximiliana Wilhelmina Ødegård-Đurić"  # 35 characters, within the 40 allowed
PAPERS = ("A4", "LETTER")


def pdf_text(pdf: bytes, *, layout: bool = False) -> str:
    args = ["pdftotext", *(["-layout"] if layout else []), "-", "-"]
    done = subprocess.run(args, input=pdf, capture_output=True, check=True)
    return done.stdout.decode("utf-8")


def page_images(pdf: bytes, tmp_path: Path, dpi: int = 36):
    from PIL import Image

    source = tmp_path / "sheet.pdf"
    source.write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-png", "-r", str(dpi), str(source), str(tmp_path / "page")], check=True
    )
    pages = sorted(tmp_path.glob("page*.png"))
    assert pages, "pdftoppm made no pages"
    images = [Image.open(p).convert("L") for p in pages]
    for p in pages:
        p.unlink()
    return images


def round_lines(text: str) -> list[list[str]]:
    """The table rows of a ``pdftotext -layout`` page: lines that start with a round number."""
    return [line.split() for line in text.splitlines() if re.match(r"^\s+\d+\*?\s", line)]


def margins_are_blank(image, dpi: int, band_points: float) -> bool:
    """True when a band of ``band_points`` along every edge holds only white pixels."""
    band = max(1, int(band_points * dpi / 72))
    width, height = image.size
    strips = [
        image.crop((0, 0, width, band)),
        image.crop((0, height - band, width, height)),
        image.crop((0, 0, band, height)),
        image.crop((width - band, 0, width, height)),
    ]
    return all(strip.getextrema()[0] >= 250 for strip in strips)


def sample(game: str, players: int, rounds: int = 12, seed: int = 3, names=None):
    module = importlib.import_module(f"scoring.engines.samples.{game}")
    data = module.sample_record(rounds=rounds, seed=seed, players=players)
    data["players"] = list((names or NAMES)[:players])
    return parse_record(data, ENGINES)


def all_player_counts():
    return [(key, n) for key, engine in ENGINES.items() for n in engine.player_counts]


# --------------------------------------------------------------------------- filled sheets


def test_names_in_any_latin_script_print():
    record = parse_record(
        {
            "game": "roolz",
            "players": ["Zoë", "Łukasz", "Søren", "Ðorđe"],
            "rounds": [{"bidder": 0, "bid": 200, "won": {"A": 190, "B": 110}}],
        },
        ENGINES,
    )
    text = pdf_text(render_one(filled_sheet(record)))
    for name in ("Zoë", "Łukasz", "Søren", "Ðorđe"):
        assert name in text


def test_the_font_is_embedded():
    pdf = render_one(blank_sheet("roolz", 4))
    assert b"/FontFile2" in pdf  # an embedded TrueType font, not a base-14 stand-in
    assert b"DejaVuSans" in pdf


@pytest.mark.parametrize(("game", "players"), all_player_counts())
def test_filled_sheet_of_every_game_prints_names_totals_and_options(game, players):
    record = sample(game, players)
    engine = ENGINES[game]
    scored = engine.score(record)
    text = pdf_text(render_one(filled_sheet(record, scored=scored)), layout=True)
    for name in record.players:
        assert name in text
    total_line = next(line for line in text.splitlines() if line.startswith("Total"))
    for total in scored.totals:
        assert str(total) in total_line
    assert "Options in force:" in text
    first_option = next(spec for spec in engine.option_specs() if not spec.play_only)
    assert first_option.label in text
    assert "How it scores" in text
    assert "Signatures" in text


def test_a_finished_roolz_game_names_the_winner_and_the_options():
    record = parse_record(
        {
            "game": "roolz",
            "players": ["Zoë", "Łukasz", "Søren", "Ðorđe"],
            "options": {"target": 400, "point_discards": True, "no_slough": True},
            "rounds": [
                {"bidder": 0, "bid": 200, "won": {"A": 210, "B": 90}},
                {"misdeal": True},
                {
                    "bidder": 1,
                    "bid": 185,
                    "won": {"A": 65, "B": 235},
                    "penalties": [{"player": 2, "points": 50, "reason": "revoke"}],
                },
                {"bidder": 2, "bid": 250, "won": {"A": 300, "B": 0}, "all_tricks": "A"},
            ],
        },
        ENGINES,
    )
    text = pdf_text(render_one(filled_sheet(record)), layout=True)
    assert "Winner: Team A (Zoë & Søren) with 625 points (after 4 rounds)." in text
    assert "Target score: 400" in text
    assert "Point cards may be discarded: yes" in text
    assert "No sloughing: yes" in text  # a play-only option that is on
    assert "Lead trump any time" not in text  # play-only options that are off are left out
    assert "Misdeal" in text
    assert "Round 3: penalty, Søren -50 (revoke)." in text
    rows = {row[0]: row for row in round_lines(text)}
    assert "+210" in rows["1"] and "+90" in rows["1"]
    assert "+400" in rows["4"]  # 300 and the 100 for every trick
    total_line = next(line for line in text.splitlines() if line.startswith("Total"))
    assert total_line.split()[1:] == ["625", "325"]


def test_corrected_and_pending_rounds_are_marked():
    record = sample("roolz", 4, rounds=6)
    marks = {
        2: RoundMarks(corrected=True),
        5: RoundMarks(corrected=True),
        6: RoundMarks(pending=True),
    }
    text = pdf_text(render_one(filled_sheet(record, marks=marks)), layout=True)
    assert "Rounds 2, 5 (marked *) corrected after first entry." in text
    labels = [row[0] for row in round_lines(text)]
    assert "2*" in labels and "5*" in labels and "3" in labels
    assert "Waiting for confirmation: round 6." in text
    assert "pending" in text


def test_confirmed_rounds_show_who_confirmed():
    record = sample("roller_derby", 4, rounds=3)
    sheet = filled_sheet(record, marks={1: RoundMarks(confirmed_by=3)})
    text = pdf_text(render_one(sheet), layout=True)
    rows = round_lines(text)
    assert rows[0][0] == "1" and rows[0][-1] == "Ðorđe"  # the Initials column
    assert rows[1][0] == "2" and rows[1][-1] != "Ðorđe"


def test_roller_derby_early_finish_and_winner():
    record = parse_record(
        {
            "game": "roller_derby",
            "players": ["Zoë", "Łukasz", "Søren", "Ðorđe"],
            "options": {"jokers_for_sale": True},
            "rounds": [
                {"dice": [3, 4], "tricks": 6},
                {"dice": [5, 5], "all_or_nothing": True, "made": False},
                {"dice": [2, 2], "tricks": 4, "jokers": 1},
            ],
            "ended_early": True,
        },
        ENGINES,
    )
    text = pdf_text(render_one(filled_sheet(record)), layout=True)
    assert "Winner: Team B (Łukasz & Ðorđe) with 181 points" in text
    assert "ended early" in text
    assert "Jokers for sale: yes" in text
    assert "3+4" in text and "2+2" in text


def test_rook_sluff_team_bids_and_draw():
    record = parse_record(
        {
            "game": "rook_sluff",
            "players": NAMES[:6],
            "options": {"deals": 2},
            "rounds": [
                {"bids": [1, 2, 4, 1, 3, 2], "tricks": [3, 2, 2, 3, 2, 2]},
                {"bids": [1, 2, 4, 1, 3, 2], "tricks": [3, 2, 2, 3, 2, 2]},
            ],
        },
        ENGINES,
    )
    text = pdf_text(render_one(filled_sheet(record)), layout=True)
    assert "Winner: Team B (Łukasz, Ðorđe & Ben) with 104 points (after 2 deals)." in text
    total_line = next(line for line in text.splitlines() if line.startswith("Total"))
    assert total_line.split()[1:] == ["0", "104"]


def test_rummoli_ledger_with_leftovers():
    example = vector_record(RUMMOLI_RULES_EXAMPLE)
    del example["options"]
    example["players"] = ["Zoë", "Łukasz", "Søren", "Ðorđe"]
    example["rounds"] = example["rounds"][:1]
    record = parse_record(example, ENGINES)
    text = pdf_text(render_one(filled_sheet(record)), layout=True)
    assert "Winner: Łukasz with 63 chips (after 1 hand)." in text
    assert "the 8 chips left on the board went to Ðorđe" in text
    for heading in ("Widow", "Poker", "Pay cards", "10♠", "AK♦", "789", "Out", "Chips"):
        assert heading in text
    total_line = next(line for line in text.splitlines() if line.startswith("Total"))
    assert total_line.split()[1:] == ["44", "63", "38", "55"]


def rummoli_betting_record(players: int, names=None):
    """A betting hand in which seat n bets n chips and seat 1 wins, then a deadlock."""
    return parse_record(
        {
            "game": "rummoli",
            "players": list((names or NAMES)[:players]),
            "options": {"poker": "betting"},
            "rounds": [
                {
                    "poker": {"winners": [0], "bets": [seat + 1 for seat in range(players)]},
                    "pay_cards": {"ten_spades": players - 1},
                    "went_out": 0,
                    "cards_left": [0] + [1] * (players - 1),
                },
                {"went_out": None, "cards_left": [2] * players},
            ],
        },
        ENGINES,
    )


def word_boxes(pdf: bytes) -> list[tuple[str, float, float, float]]:
    """The words of a one-page PDF as (text, left, right, middle height)."""
    done = subprocess.run(
        ["pdftotext", "-bbox", "-", "-"], input=pdf, capture_output=True, check=True
    )
    pattern = r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<'
    return [
        (text, float(x0), float(x1), (float(y0) + float(y1)) / 2)
        for x0, y0, x1, y1, text in re.findall(pattern, done.stdout.decode("utf-8"))
    ]


def test_rummoli_betting_prints_every_players_bet():
    """The rules' test vector: the betting hand shows each seat's bet in its own column."""
    example = vector_record(RUMMOLI_RULES_EXAMPLE)
    del example["end"]
    example["players"] = ["Zoë", "Łukasz", "Søren", "Ðorđe"]
    record = parse_record(example, ENGINES)
    for paper in PAPERS:
        text = pdf_text(render_one(filled_sheet(record), paper), layout=True)
        rows = {row[0]: row for row in round_lines(text)}
        # Per seat: bet, cards left, +/-, chips; then the chips on the board.
        seats = [("3", "2", "+3", "47"), ("0", "4", "-13", "50"), ("3", "1", "-5", "33")]
        seats += [("3", "3", "-7", "40")]
        assert rows["2"][-17:] == [*(cell for seat in seats for cell in seat), "30"]
        # A hand without bets leaves the bet columns empty.
        seats = [("3", "-6", "44"), ("0", "+13", "63"), ("5", "-12", "38"), ("2", "-3", "47")]
        assert rows["1"][-13:] == [*(cell for seat in seats for cell in seat), "8"]
        headings = next(line for line in text.splitlines() if "Chips" in line)
        assert headings.split().count("Bet") == 4
        assert "Bets" not in headings.split()
        assert "(Bet: the chips" in text


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("players", range(2, 9))
def test_rummoli_betting_bets_sit_under_each_players_bet_heading(players, paper):
    names = [LONG_NAME, *NAMES]
    sheet = filled_sheet(rummoli_betting_record(players, names))
    assert fit_problems(sheet, paper) == []
    words = word_boxes(render_one(sheet, paper))
    bet_headings = sorted((w for w in words if w[0] == "Bet"), key=lambda w: w[1])
    assert len(bet_headings) == players
    label = next(
        w for w in words if w[0] == "1" and w[1] < MARGIN + 12 and w[3] > bet_headings[0][3]
    )
    for seat, (_, left, right, _) in enumerate(bet_headings):
        under = [
            w[0]
            for w in words
            if abs(w[3] - label[3]) < 2 and left - 2 <= w[1] and w[2] <= right + 2
        ]
        assert under == [str(seat + 1)], (seat, under)
    # The +/- columns give way to the bets at seven and eight players.
    assert sum(w[0] == "+/-" for w in words) == (players if players < 7 else 0)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("players", range(2, 9))
def test_blank_rummoli_betting_sheet_has_a_bet_column_per_player(players, paper):
    sheet = blank_sheet("rummoli", players, {"poker": "betting"})
    laid_out = plan(sheet, paper)
    assert len(laid_out.pages) == 1
    assert len(laid_out.pages[0].rows) >= sheet.blank_rows
    assert fit_problems(sheet, paper) == []
    pdf = render_one(sheet, paper)
    assert [w[0] for w in word_boxes(pdf)].count("Bet") == players
    assert "Poker method: betting" in pdf_text(pdf)


def test_an_open_blank_rummoli_sheet_has_no_bet_columns():
    text = pdf_text(render_one(blank_sheet("rummoli", 4)))
    assert "☐ betting" in text
    assert "Bet" not in text.split()


def test_a_game_in_progress_says_who_leads():
    record = parse_record(
        {
            "game": "roolz",
            "players": ["Zoë", "Łukasz"],
            "rounds": [{"bidder": 1, "bid": 170, "won": {"bidder": 200, "opponents": 100}}],
        },
        ENGINES,
    )
    text = pdf_text(render_one(filled_sheet(record)))
    assert "In progress after 1 round: Łukasz leads with 200 points." in text


def test_a_long_game_runs_over_pages_with_the_totals_at_the_end(tmp_path):
    record = sample("rummoli", 3, rounds=80, seed=1)
    assert len(record.rounds) > 60
    sheet = filled_sheet(record)
    laid_out = plan(sheet, "A4")
    assert len(laid_out.pages) >= 2
    assert fit_problems(sheet, "A4") == []
    pdf = render_one(sheet)
    text = pdf_text(pdf)
    assert f"page {len(laid_out.pages)} of {len(laid_out.pages)}" in text
    assert "continued" in text
    assert text.count("Total") == 1 or "Total" in text.split("continued")[-1]
    assert all(margins_are_blank(image, 36, MARGIN - 6) for image in page_images(pdf, tmp_path))


def test_a_game_full_of_penalties_keeps_its_notes_on_the_page():
    rounds = [
        {
            "bidder": n % 4,
            "bid": 170,
            "won": {"A": 150, "B": 150},
            "penalties": [{"player": n % 4, "points": 5, "reason": "talking across the table"}],
        }
        for n in range(60)
    ]
    record = parse_record(
        {"game": "roolz", "players": NAMES[:4], "options": {"target": 100000}, "rounds": rounds},
        ENGINES,
    )
    sheet = filled_sheet(record)
    assert len(sheet.notes) == 60
    assert fit_problems(sheet, "LETTER") == []
    assert "more lines of notes" in pdf_text(render_one(sheet, "LETTER"))


def test_long_names_are_shortened_in_cells_and_printed_whole_in_the_header():
    names = [LONG_NAME, "Łukasz", "Søren", "Ðorđe"]
    record = sample("roller_derby", 4, rounds=8, names=names)
    sheet = filled_sheet(record)
    assert fit_problems(sheet, "A4") == []
    text = pdf_text(render_one(sheet))
    assert LONG_NAME in text  # the players line
    assert "…" in text  # shortened where a column is narrow


# --------------------------------------------------------------------------- blank sheets

EXPECTED_HEADINGS = {game: expected(game).SHEET_HEADINGS for game in GAMES}


@pytest.mark.parametrize("kind", blank_kinds(), ids=lambda kind: kind.key)
def test_blank_sheet_has_the_games_columns_options_reminder_and_signatures(kind):
    sheet = blank_sheet(kind.game, kind.players, kind.options)
    text = pdf_text(render_one(sheet))
    for heading in EXPECTED_HEADINGS[kind.game]:
        assert heading in text, heading
    engine = ENGINES[kind.game]
    options = {**(kind.options or {})}
    for spec in engine.round_fields(kind.players, engine.resolve_options(options, kind.players)):
        if spec.column and spec.kind not in {"per_seat", "object"}:
            assert spec.column.split()[0] in text, spec.column
    assert "Options (tick or fill in):" in text
    assert "How it scores" in text
    assert "Signatures: initial each round" in text or "Signatures" in text
    assert "Initials" in text or (kind.game == "rummoli" and kind.players >= 7)
    for seat in range(1, kind.players + 1):
        assert f"Seat {seat}" in text


def test_blank_roolz_five_has_a_partner_column_and_the_twofer_rule():
    text = pdf_text(render_one(blank_sheet("roolz", 5)))
    assert "Partner" in text
    assert "twofer" in text


def test_blank_roller_derby_has_rows_for_a_long_game_and_a_rule_after_the_short_one():
    sheet = blank_sheet("roller_derby", 4)
    laid_out = plan(sheet, "A4")
    rows = laid_out.pages[0].rows
    assert len(rows) == 8
    assert rows[3].rule_after and not any(r.rule_after for r in rows[4:])


def test_blank_rook_sluff_has_a_row_per_deal():
    for players in (6, 8, 10):
        laid_out = plan(blank_sheet("rook_sluff", players), "LETTER")
        assert len(laid_out.pages[0].rows) == players


def test_blank_sheet_with_options_in_force():
    sheet = blank_sheet("roolz", 4, {"target": 1500, "must_reach_on_bid": True})
    text = pdf_text(render_one(sheet))
    assert "Options in force:" in text
    assert "Target score: 1500" in text
    assert "Win only on a made bid: yes" in text


# --------------------------------------------------------------------------- fitting the page


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("kind", blank_kinds(), ids=lambda kind: kind.key)
def test_every_blank_sheet_fits_one_page(kind, paper):
    sheet = blank_sheet(kind.game, kind.players, kind.options)
    laid_out = plan(sheet, paper)
    frame = laid_out.frame
    assert len(laid_out.pages) == 1
    assert laid_out.table_width <= frame.width + 0.01
    for placed in laid_out.columns:
        assert frame.x <= placed.x and placed.x + placed.width <= frame.right + 0.01
    assert len(laid_out.pages[0].rows) >= sheet.blank_rows
    assert laid_out.row_height >= layout.BLANK_ROW_MIN
    assert fit_problems(sheet, paper) == []


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize(("game", "players"), all_player_counts())
def test_every_filled_sheet_fits(game, players, paper):
    names = [LONG_NAME, *NAMES]
    sheet = filled_sheet(sample(game, players, rounds=30, names=names))
    assert fit_problems(sheet, paper) == []


@pytest.mark.parametrize("paper", PAPERS)
def test_rendered_margins_are_blank_on_every_kind_of_sheet(paper, tmp_path):
    """Render every blank kind and a filled sheet of every game; look at the pixels."""
    sheets = [blank_sheet(k.game, k.players, k.options) for k in blank_kinds()]
    sheets += [filled_sheet(sample(game, max(ENGINES[game].player_counts))) for game in ENGINES]
    pdf = render(sheets, paper)
    images = page_images(pdf, tmp_path)
    assert len(images) == len(sheets)
    portrait = papers.PAPER_SIZES[paper]
    for image, sheet in zip(images, sheets, strict=True):
        width, height = image.size
        expected = sorted(round(side * 36 / 72) for side in portrait)
        assert sorted((width, height)) == pytest.approx(expected, abs=1)
        assert margins_are_blank(image, 36, MARGIN - 6), sheet.title
        assert image.getextrema()[0] < 100  # and the page is not empty


def test_paper_size_sets_the_page():
    sheet = blank_sheet("roolz", 4)
    a4 = render_one(sheet, "A4")
    letter = render_one(sheet, "LETTER")
    assert b"/MediaBox [ 0 0 595.2756 841.8898 ]" in a4
    assert b"/MediaBox [ 0 0 612 792 ]" in letter
    assert "US Letter" in pdf_text(letter)


def test_wide_sheets_turn_to_landscape():
    assert plan(blank_sheet("rook_sluff", 10), "A4").is_landscape
    assert not plan(blank_sheet("roolz", 4), "A4").is_landscape


def test_copies_of_a_blank_sheet_are_drawn_once():
    sheet = blank_sheet("rummoli", 5)
    one = render([sheet], "A4")
    many = render([sheet] * 40, "A4")
    assert pdf_text(many).count("Rummoli scoresheet") == 40
    assert len(many) < 2 * len(one)  # one shared drawing, placed on every page


def test_progress_is_reported_per_sheet():
    seen = []
    sheets = [blank_sheet("roolz", 2)] * 3 + [blank_sheet("roolz", 3)]
    render(sheets, "A4", on_progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]


def test_a_missing_font_says_what_to_install(monkeypatch):
    monkeypatch.setattr(fonts, "FONT_DIRS", ("/nonexistent/fonts",))
    monkeypatch.delenv("TABLESCORE_FONT_DIR", raising=False)
    with pytest.raises(fonts.FontMissing, match="fonts-dejavu-core"):
        fonts.font_paths()


def test_unknown_paper_is_refused():
    with pytest.raises(ValueError, match="A4 or LETTER"):
        papers.normalise_paper("A3")
    assert papers.normalise_paper("us letter") == "LETTER"


# --------------------------------------------------------------------------- the command


def test_scoresheet_command_from_a_record(tmp_path):
    record = tmp_path / "game.json"
    record.write_text(
        '{"format": 1, "game": "roolz", "players": ["Zoë", "Łukasz", "Søren", "Ðorđe"],'
        ' "options": {"target": 1000}, "rounds": ['
        '{"bidder": 0, "bid": 200, "won": {"A": 190, "B": 110}}, {"misdeal": true}]}',
        encoding="utf-8",
    )
    out = tmp_path / "sheet.pdf"
    call_command("scoresheet", str(record), "-o", str(out))
    text = pdf_text(out.read_bytes(), layout=True)
    assert "Zoë" in text and "Ðorđe" in text
    assert "Target score: 1000" in text
    assert "-200" in text and "+110" in text


def test_scoresheet_command_blank_by_game_and_players(tmp_path):
    out = tmp_path / "blank.pdf"
    call_command(
        "scoresheet", "--game", "rook_sluff", "--players", "8", "-o", str(out), "--paper", "letter"
    )
    pdf = out.read_bytes()
    assert b"/MediaBox [ 0 0 792 612 ]" in pdf  # US Letter, turned for eight players
    text = pdf_text(pdf)
    assert "Rook Sluff scoresheet" in text and "Seat 8" in text


def test_scoresheet_command_blank_with_a_shaping_option(tmp_path):
    out = tmp_path / "blank.pdf"
    call_command(
        "scoresheet",
        "--game",
        "roolz",
        "--players",
        "6",
        "--option",
        "six_player=three_pairs",
        "-o",
        str(out),
    )
    text = pdf_text(out.read_bytes())
    assert "Team C" in text and "Three pairs" in text
    assert "Bids run from 110 to 300" in text


def test_scoresheet_command_refuses_an_invalid_record(tmp_path, capsys):
    record = tmp_path / "bad.json"
    record.write_text(
        '{"game": "roolz", "players": ["A", "B"], '
        '"rounds": [{"bidder": 0, "bid": 172, "won": {"bidder": 150, "opponents": 150}}]}'
    )
    out = tmp_path / "x.pdf"
    stderr = io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("scoresheet", str(record), "-o", str(out), stderr=stderr)
    assert exit_.value.code == 2
    assert "round 1: bid 172 is not a multiple of 5" in stderr.getvalue()
    assert not out.exists()


def test_scoresheet_command_refuses_a_player_count_the_game_lacks(tmp_path):
    stderr = io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command(
            "scoresheet",
            "--game",
            "rummoli",
            "--players",
            "9",
            "-o",
            str(tmp_path / "x.pdf"),
            stderr=stderr,
        )
    assert exit_.value.code == 2
    assert "Rummoli is played by 2, 3, 4, 5, 6, 7, 8 players, not 9" in stderr.getvalue()
