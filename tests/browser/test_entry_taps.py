"""A typical round of each game entered by touch alone on a phone held upright (390x844) and
sideways (844x390), the touches counted and held to the goals, the other side's
confirmation included where the table asks for one: Roolz 5 at 2 to 6 players with no keyboard,
also for a bid of 185; Roolz (5 players, a called partner) 5; Roller Derby 5, and 5 for
all or nothing (4: the dice are not asked then); Rook Sluff 9 at 6 players, 11 at 8, 13
at 10 (a bid per player, team A's tricks, Save and the confirmation); Rummoli (4 players)
8, the hand saving itself after a short countdown once the pad fills the last count, and
9 with the confirmation.

Every touch is a tap on the page (no typing); a field that would open the phone's
keyboard must never take the focus. The round stored is the round meant.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from scoring.models import Confirmation, Game, Round
from scoring.services import game_create
from tests.browser.pages import Phone, settle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SAVED = 8_000
# A field opens the keyboard when it takes text and does not say inputmode="none".
WATCH_KEYBOARD = """
window.keyboardOpenedBy = [];
document.addEventListener("focusin", function (event) {
  const el = event.target;
  if (!el.matches || !el.matches("input, textarea, select")) return;
  if (["radio", "checkbox", "button", "submit", "hidden"].includes(el.type)) return;
  if (el.getAttribute("inputmode") === "none") return;
  window.keyboardOpenedBy.push(el.name || el.id);
});
"""


class Touches:
    """Taps on the page, counted."""

    def __init__(self, page: Page):
        self.page = page
        self.count = 0

    def tap(self, target: Locator) -> None:
        target.tap()
        self.count += 1

    def chip(self, field: str, label: str) -> None:
        chips = self.page.locator(f"fieldset[data-field='{field}'] label.chip")
        self.tap(chips.filter(has_text=re.compile(rf"^\s*{re.escape(label)}\b")).first)

    def button(self, name: str, scope: str = "#entry") -> None:
        self.tap(self.page.locator(scope).get_by_role("button", name=name, exact=True).first)

    def save(self) -> None:
        self.tap(Phone(self.page).save_button)

    def keyboard_opened(self) -> list[str]:
        return self.page.evaluate("window.keyboardOpenedBy")


UPRIGHT = {"width": 390, "height": 844}
SIDEWAYS = {"width": 844, "height": 390}


@pytest.fixture(params=[UPRIGHT, SIDEWAYS], ids=["upright", "sideways"])
def held(request, page: Page) -> dict[str, int]:
    """The phone held upright or sideways."""
    page.set_viewport_size(request.param)
    return request.param


def open_table(page: Page, live_server, game: Game, me: str | None = None) -> Touches:
    page.add_init_script(WATCH_KEYBOARD)
    page.goto(f"{live_server.url}/t/{game.table_token}/")
    expect(page.locator("#entry form[data-entry]")).to_be_visible()
    if me:  # who holds the phone is said once, not per round
        Phone(page).i_am(me)
    return Touches(page)


def saved_entry(game: Game, number: int = 1) -> dict:
    return Round.objects.get(game=game, number=number).entry


def roolz(confirmation: str = Confirmation.OTHER_SIDE) -> Game:
    return game_create(
        record={"game": "roolz", "players": ["Ann", "Ben", "Cat", "Dan"]},
        confirmation=confirmation,
    ).game


@pytest.mark.parametrize(
    ("bid", "took", "points_button"),
    [(200, 200, "Made exactly"), (185, 205, "205")],
    ids=["made-exactly", "bid-185"],
)
def test_a_roolz_round_is_five_touches_with_no_keyboard(
    live_server, page: Page, held, bid, took, points_button
):
    game = roolz()
    touches = open_table(page, live_server, game, me="Ann")
    touches.chip("bidder", "Ben")
    touches.tap(page.locator(f"[data-set=bid][data-value='{bid}']"))
    touches.tap(page.locator("[data-points] button", has_text=points_button))
    expect(page.locator("#f-won-B")).to_have_value(str(took))
    expect(page.locator("#f-won-A")).to_have_value(str(300 - took))
    touches.save()
    confirm_on_the_same_phone(page, touches, "Ben")

    assert touches.count <= 5, touches.count
    assert touches.keyboard_opened() == []
    round_ = Round.objects.get(game=game, number=1)
    assert round_.status == Round.Status.CONFIRMED
    assert round_.entry["bidder"] == 1
    assert round_.entry["bid"] == bid
    assert round_.entry["won"] == {"A": 300 - took, "B": took}


@pytest.mark.parametrize("players", [2, 3, 6])
def test_a_roolz_round_is_five_touches_at_every_count(live_server, page: Page, held, players):
    """Ben bids 200 and makes it exactly, Ann enters it and Ben confirms (at 4 and at 5
    players: the tests above)."""
    names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"][:players]
    game = game_create(
        record={"game": "roolz", "players": names}, confirmation=Confirmation.OTHER_SIDE
    ).game
    touches = open_table(page, live_server, game, me="Ann")
    touches.chip("bidder", "Ben")
    touches.tap(page.locator("[data-set=bid][data-value='200']"))
    touches.tap(page.locator("[data-points] button", has_text="Made exactly"))
    touches.save()
    confirm_on_the_same_phone(page, touches, "Ben")

    assert touches.count <= 5, touches.count
    assert touches.keyboard_opened() == []
    round_ = Round.objects.get(game=game, number=1)
    assert round_.status == Round.Status.CONFIRMED
    assert (round_.entry["bidder"], round_.entry["bid"]) == (1, 200)


def confirm_on_the_same_phone(page: Page, touches: Touches, who: str) -> None:
    """The phone is handed to a player of the other side, who confirms."""
    pending = Phone(page).pending
    expect(pending).to_be_visible(timeout=SAVED)
    confirm = pending.get_by_role("button", name=f"Confirm as {who}")
    expect(confirm).to_be_in_viewport()
    touches.tap(confirm)
    expect(pending).to_have_count(0, timeout=SAVED)


def test_a_roolz_round_of_five_with_a_called_partner_is_five_touches(live_server, page: Page, held):
    players = ["Ann", "Ben", "Cat", "Dan", "Eve"]
    game = game_create(
        record={"game": "roolz", "players": players}, confirmation=Confirmation.OTHER_SIDE
    ).game
    touches = open_table(page, live_server, game, me="Cat")
    # Cat bid 200 and called the card Eve held: one tap says both.
    touches.tap(page.locator("[data-side-grid] label[data-bidder='2'][data-partner='4']"))
    expect(page.locator("input[name=bidder][value='2']")).to_be_checked()
    expect(page.locator("input[name=partners][value='4']")).to_be_checked()
    touches.tap(page.locator("[data-set=bid][data-value='200']"))
    touches.tap(page.locator("[data-points] button", has_text="Made exactly"))
    touches.save()
    confirm_on_the_same_phone(page, touches, "Ann")

    assert touches.count <= 5, touches.count
    assert touches.keyboard_opened() == []
    round_ = Round.objects.get(game=game, number=1)
    assert round_.status == Round.Status.CONFIRMED
    assert (round_.entry["bidder"], round_.entry["partners"], round_.entry["bid"]) == (2, [4], 200)
    assert sum(round_.entry["won"].values()) == 300


def test_the_whole_roolz_bid_ladder_is_one_tap_away(live_server, page: Page, held):
    game = roolz(Confirmation.OFF)
    open_table(page, live_server, game)
    ladder = page.locator("[data-set=bid]")
    values = [int(v) for v in ladder.evaluate_all("els => els.map(e => e.dataset.value)")]
    spec = next(s for s in game.engine.round_fields(4, game.options) if s.name == "bid")
    assert values == list(range(spec.minimum, spec.maximum + 1, spec.step))
    page.locator("fieldset[data-field='bidder'] label.chip").first.tap()
    for button in (ladder.first, ladder.last):
        button.scroll_into_view_if_needed()
        expect(button).to_be_in_viewport()
        box, bar = button.bounding_box(), page.locator(".actions").bounding_box()
        assert box is not None and bar is not None
        assert box["y"] + box["height"] <= bar["y"] + 1, "a bid under the Save bar"


DERBY_PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


def test_a_roller_derby_deal_is_five_touches(live_server, page: Page, held):
    game = game_create(
        record={"game": "roller_derby", "players": DERBY_PLAYERS},
        confirmation=Confirmation.OTHER_SIDE,
    ).game
    touches = open_table(page, live_server, game, me="Ann")
    touches.tap(page.locator("fieldset.dice").nth(0).locator("label.chip", has_text="3"))
    touches.tap(page.locator("fieldset.dice").nth(1).locator("label.chip", has_text="4"))
    touches.chip("tricks", "6")
    touches.save()
    confirm_on_the_same_phone(page, touches, "Ben")

    assert touches.count <= 5, touches.count
    assert touches.keyboard_opened() == []
    round_ = Round.objects.get(game=game, number=1)
    assert round_.status == Round.Status.CONFIRMED
    assert round_.entry == {"dice": [3, 4], "tricks": 6}


def test_an_all_or_nothing_deal_asks_no_dice(live_server, page: Page, held):
    """All or nothing scores 150 or 0 whatever the dice show: once it is called the dice
    are not asked (the engine departs from rules.md there on purpose), and what is kept is
    what was entered."""
    game = game_create(
        record={"game": "roller_derby", "players": DERBY_PLAYERS},
        confirmation=Confirmation.OTHER_SIDE,
    ).game
    touches = open_table(page, live_server, game, me="Ann")
    touches.tap(page.locator("label.switch", has_text="All or nothing"))
    expect(page.locator("[data-dice]")).to_be_hidden()
    touches.chip("made", "Made")
    touches.save()
    confirm_on_the_same_phone(page, touches, "Ben")

    assert touches.count <= 5, touches.count
    assert touches.count == 4, touches.count
    assert touches.keyboard_opened() == []
    round_ = Round.objects.get(game=game, number=1)
    assert round_.status == Round.Status.CONFIRMED
    assert round_.entry == {"all_or_nothing": True, "made": True}
    expect(page.locator("#live")).to_contain_text("150")


def test_dice_tapped_before_all_or_nothing_was_called_are_not_sent(live_server, page: Page):
    game = game_create(record={"game": "roller_derby", "players": DERBY_PLAYERS}).game
    touches = open_table(page, live_server, game)
    touches.tap(page.locator("fieldset.dice").nth(0).locator("label.chip", has_text="5"))
    touches.tap(page.locator("label.switch", has_text="All or nothing"))
    touches.chip("made", "Failed")
    touches.save()
    Phone(page).saved("Deal 1 saved", timeout=SAVED)
    assert saved_entry(game) == {"all_or_nothing": True, "made": False}


IN_SIGHT = """block => {
  const cell = document.querySelector(block + " [data-pad-cell].is-current");
  if (!cell) return true;
  const box = cell.getBoundingClientRect();
  const over = [document.querySelector(block + " .pad"), document.querySelector(".actions")];
  const apart = (a, b) => a.bottom <= b.top + 1 || b.bottom <= a.top + 1
    || a.right <= b.left + 1 || b.right <= a.left + 1;
  return box.top >= 0 && box.bottom <= window.innerHeight
    && over.every(el => !el || apart(box, el.getBoundingClientRect()));
}"""


def box_in_hand_in_sight(page: Page, block: str) -> None:
    """The box the pad fills next is on screen, clear of the pad and the Save bar (once the
    page's own scrolling has settled: slow on a busy machine)."""
    page.wait_for_function(IN_SIGHT, arg=block, timeout=10_000)


SLUFF_NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo"]
SLUFF_PLAYERS = SLUFF_NAMES[:6]
# players: (taps, the other side's confirmation included; team A's tricks)
SLUFF_GOALS = {6: (9, 7), 8: (11, 8), 10: (13, 5)}


def sluff_bids(players: int) -> list[int]:
    """Everyone bids 1 or 2, and Cat sluffs."""
    bids = [1 if players == 10 else 2] * players
    bids[2] = 0
    return bids


def tap_the_bids(page: Page, touches: Touches, bids: list[int]) -> None:
    """Bids go round from the dealer's left (Ann deals: Ben first), the box in hand always
    in sight, clear of the pad and the Save bar."""
    pad = page.locator("[data-sluff] .pad")
    players = len(bids)
    for seat in [*range(1, players), 0]:
        expect(page.locator(f"#f-bids-{seat}")).to_have_class(re.compile(r"\bis-current\b"))
        touches.tap(pad.get_by_role("button", name=str(bids[seat]), exact=True))
        box_in_hand_in_sight(page, "[data-sluff]")


@pytest.mark.parametrize("players", sorted(SLUFF_GOALS))
def test_a_rook_sluff_deal_asks_only_what_the_rules_score(live_server, page: Page, held, players):
    """A bid per player, team A's tricks (team B's are the rest), Save and the other side's
    confirmation: 9 taps at 6 players, 11 at 8, 13 at 10; a Sluff took no trick until told."""
    goal, team_a = SLUFF_GOALS[players]
    total = 11 if players == 10 else 14
    game = game_create(
        record={"game": "rook_sluff", "players": SLUFF_NAMES[:players]},
        confirmation=Confirmation.OTHER_SIDE,
    ).game
    touches = open_table(page, live_server, game, me="Ben")
    bids = sluff_bids(players)
    tap_the_bids(page, touches, bids)
    expect(page.locator("[data-team-bid=A]")).to_have_text(str(sum(bids[0::2])))
    expect(page.locator("[data-team-bid=B]")).to_have_text(str(sum(bids[1::2])))
    expect(page.get_by_label("Cat's Sluff took a trick")).not_to_be_checked()
    expect(page.locator("#f-team_tricks-A")).to_have_class(re.compile(r"\bis-current\b"))
    pad = page.locator("[data-sluff] .pad")
    touches.tap(pad.get_by_role("button", name=str(team_a), exact=True))
    expect(page.locator("#f-team_tricks-B")).to_have_value(str(total - team_a))
    touches.save()
    confirm_on_the_same_phone(page, touches, "Ann")

    assert touches.count <= goal, touches.count
    assert touches.keyboard_opened() == []
    round_ = Round.objects.get(game=game, number=1)
    assert round_.status == Round.Status.CONFIRMED
    assert round_.entry == {"bids": bids, "team_tricks": {"A": team_a, "B": total - team_a}}


def test_a_sluff_who_took_a_trick_is_one_tap_beside_their_bid(live_server, page: Page, held):
    game = game_create(record={"game": "rook_sluff", "players": SLUFF_PLAYERS}).game
    touches = open_table(page, live_server, game)
    bids = sluff_bids(6)
    tap_the_bids(page, touches, bids)
    took = page.get_by_label("Cat's Sluff took a trick")
    touches.tap(took.locator("xpath=.."))
    expect(took).to_be_checked()
    expect(page.get_by_label("Ben's Sluff took a trick")).to_be_hidden()  # Ben bid 2
    pad = page.locator("[data-sluff] .pad")
    touches.tap(pad.get_by_role("button", name="7", exact=True))
    touches.save()
    Phone(page).saved("Deal 1 saved", timeout=SAVED)
    assert touches.count == 6 + 3
    assert saved_entry(game) == {
        "bids": bids,
        "team_tricks": {"A": 7, "B": 7},
        "failed_sluffs": [2],
    }


def test_a_bid_changed_from_a_sluff_drops_its_trick(live_server, page: Page):
    """A box ticked for a Sluff goes with it when the bid is changed to another number."""
    game = game_create(record={"game": "rook_sluff", "players": SLUFF_PLAYERS}).game
    touches = open_table(page, live_server, game)
    bids = sluff_bids(6)
    tap_the_bids(page, touches, bids)
    took = page.get_by_label("Cat's Sluff took a trick")
    took.locator("xpath=..").tap()
    page.locator("#f-bids-2").tap()
    page.locator("[data-sluff] .pad").get_by_role("button", name="3", exact=True).tap()
    expect(page.locator("[data-sluff-took]").nth(2)).to_be_hidden()
    expect(took).not_to_be_checked()
    page.locator("#f-team_tricks-A").tap()
    page.locator("[data-sluff] .pad").get_by_role("button", name="9", exact=True).tap()
    Phone(page).save_button.tap()
    Phone(page).saved("Deal 1 saved", timeout=SAVED)
    assert saved_entry(game) == {
        "bids": [2, 2, 3, 2, 2, 2],
        "team_tricks": {"A": 9, "B": 5},
    }


RUMMOLI_PLAYERS = ["Ann", "Ben", "Cat", "Dan"]
CLAIMS = {"ten_spades": "Dan", "jack_diamonds": "Ben", "king_hearts": "Cat", "ace_spades": "Ann"}
PAST_THE_COUNTDOWN = 3_500  # ms: the countdown is 3 seconds


def time_passes(page: Page, ms: int) -> None:
    """The page's clock (installed before the page opened) jumps ``ms`` ahead, every timer
    due meanwhile fired; then whatever that sent has been answered."""
    page.clock.run_for(ms)
    settle(page)


def pay_card(page: Page, section: str, who: str) -> Locator:
    return page.locator(f"input[name='pay_cards.{section}'][aria-label$=': {who}'] + span")


def saving(request) -> bool:
    """A request that saves the round (not its preview)."""
    body = request.post_data or ""
    to_entry = request.method == "POST" and request.url.endswith("/entry/")
    return to_entry and "action=preview" not in body


def save_posts(page: Page) -> list[str]:
    """The bodies of the saves the page sends, as they leave."""
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.post_data) if saving(request) else None)
    return sent


def enter_a_rummoli_hand(page: Page, touches: Touches, last: bool = True) -> None:
    """Ben wins the poker, four pay cards are claimed, and the pad gives Ann 3, Cat 5 and
    (unless ``last`` is false) Dan 2: Ben, who won the poker, went out."""
    touches.chip("poker.winners", "Ben")
    # (the preview in the Save bar grows to two lines: a tap waits until it stands still)
    expect(page.locator("#preview")).to_contain_text("Not complete yet", timeout=SAVED)
    for section, who in CLAIMS.items():
        touches.tap(pay_card(page, section, who))
    # Ben won the poker and leads: he is counted as going out until someone else is tapped.
    expect(page.locator("input[name=went_out][value='1']")).to_be_checked()
    expect(page.locator("[data-went-out-note]")).to_contain_text("Ben won the poker")
    # A swipe (not a tap) brings the boxes of the cards left to the middle of the screen.
    page.locator("[data-end-of-hand] .cards-grid").evaluate(
        "el => el.scrollIntoView({block: 'center'})"
    )
    pad = page.locator("[data-end-of-hand] .pad")
    for cards in (3, 5, 2) if last else (3, 5):  # Ann, Cat, Dan: the pad skips Ben
        box_in_hand_in_sight(page, "[data-end-of-hand]")
        touches.tap(pad.get_by_role("button", name=str(cards), exact=True))


def the_hand_meant(game: Game, claims: dict[str, str] = CLAIMS) -> None:
    entry = saved_entry(game)
    seats = {name: seat for seat, name in enumerate(RUMMOLI_PLAYERS)}
    assert entry["pay_cards"] == {section: seats[who] for section, who in claims.items()}
    assert entry["poker"] == {"winners": [1]}
    assert entry["went_out"] == 1
    assert entry["cards_left"] == [3, 0, 5, 2]


def wait_button(page: Page) -> Locator:
    return page.locator(".actions").get_by_role("button", name="Wait", exact=True)


def counting_down(page: Page) -> None:
    expect(Phone(page).save_button).to_have_text(re.compile(r"^Saving hand 1 in [123]…$"))
    expect(wait_button(page)).to_be_visible()


def not_counting_down(page: Page) -> None:
    expect(Phone(page).save_button).to_have_text("Save hand 1")
    expect(wait_button(page)).to_have_count(0)
    expect(page.locator("[data-countdown-status]")).to_have_text("")


def test_a_rummoli_hand_of_four_is_eight_touches(live_server, page: Page, held):
    game = game_create(record={"game": "rummoli", "players": RUMMOLI_PLAYERS}).game
    touches = open_table(page, live_server, game)
    sent = save_posts(page)
    enter_a_rummoli_hand(page, touches)
    # No tap on Save: the last count starts a countdown, said once to a screen reader.
    counting_down(page)
    status = page.locator("[data-countdown-status]")
    said = "Saving hand 1 in 3 seconds. Tap Wait to keep editing."
    expect(status).to_have_text(said)
    expect(Phone(page).save_button).to_have_text("Saving hand 1 in 2…")
    expect(status).to_have_text(said)  # not again every second
    Phone(page).saved("Hand 1 saved", timeout=SAVED)

    assert touches.count <= 8, touches.count
    assert touches.keyboard_opened() == []
    the_hand_meant(game)
    # sent as a Save tap sends it: its button's value and the form's key
    assert len(sent) == 1, sent
    assert "action=save" in sent[0] and "key=" in sent[0]


def test_a_rummoli_hand_of_four_is_eight_touches_and_the_confirmation(
    live_server, page: Page, held
):
    game = game_create(
        record={"game": "rummoli", "players": RUMMOLI_PLAYERS},
        confirmation=Confirmation.OTHER_SIDE,
    ).game
    touches = open_table(page, live_server, game, me="Ann")
    enter_a_rummoli_hand(page, touches)
    counting_down(page)
    confirm_on_the_same_phone(page, touches, "Ben")

    assert touches.count <= 8 + 1, touches.count
    assert touches.keyboard_opened() == []
    assert Round.objects.get(game=game, number=1).status == Round.Status.CONFIRMED
    the_hand_meant(game)


def test_wait_stops_the_hand_saving_itself(live_server, page: Page):
    game = game_create(record={"game": "rummoli", "players": RUMMOLI_PLAYERS}).game
    page.clock.install()
    touches = open_table(page, live_server, game)
    sent = save_posts(page)
    enter_a_rummoli_hand(page, touches)
    counting_down(page)
    wait = wait_button(page)
    box = wait.bounding_box()
    assert box is not None and box["height"] >= 44 and box["width"] >= 44, box
    assert wait.evaluate("el => el.type") == "button"
    touches.tap(wait)
    not_counting_down(page)
    time_passes(page, 4_000)
    assert sent == []
    assert not Round.objects.filter(game=game).exists()
    expect(page.locator("#f-cards_left-3")).to_have_value("2")  # the form keeps everything
    touches.save()
    Phone(page).saved("Hand 1 saved", timeout=SAVED)
    the_hand_meant(game)


@pytest.mark.parametrize("what", ["pay card", "chip"])
def test_a_tap_in_the_form_stops_the_hand_saving_itself(live_server, page: Page, what):
    game = game_create(record={"game": "rummoli", "players": RUMMOLI_PLAYERS}).game
    page.clock.install()
    touches = open_table(page, live_server, game)
    enter_a_rummoli_hand(page, touches)
    counting_down(page)
    claims = dict(CLAIMS)
    if what == "pay card":
        touches.tap(pay_card(page, "queen_clubs", "Cat"))
        claims["queen_clubs"] = "Cat"
    else:  # Ben, who went out, tapped again: nothing changes but the countdown stops
        touches.chip("went_out", "Ben")
    not_counting_down(page)
    time_passes(page, PAST_THE_COUNTDOWN)
    assert not Round.objects.filter(game=game).exists()
    touches.save()
    Phone(page).saved("Hand 1 saved", timeout=SAVED)
    the_hand_meant(game, claims)


def test_save_during_the_countdown_saves_at_once_and_once(live_server, page: Page):
    game = game_create(record={"game": "rummoli", "players": RUMMOLI_PLAYERS}).game
    page.clock.install()
    touches = open_table(page, live_server, game)
    sent = save_posts(page)
    enter_a_rummoli_hand(page, touches)
    expect(Phone(page).save_button).to_have_text("Saving hand 1 in 3…")
    with page.expect_request(lambda request: saving(request), timeout=1_500):
        touches.save()  # not 3 seconds later
    Phone(page).saved("Hand 1 saved", timeout=SAVED)
    time_passes(page, PAST_THE_COUNTDOWN)
    assert len(sent) == 1, sent
    assert Round.objects.filter(game=game).count() == 1
    the_hand_meant(game)
    expect(wait_button(page)).to_have_count(0)
    expect(Phone(page).save_button).to_have_text("Save hand 2")


def test_the_last_count_typed_on_the_keyboard_starts_no_countdown(live_server, page: Page):
    game = game_create(record={"game": "rummoli", "players": RUMMOLI_PLAYERS}).game
    touches = open_table(page, live_server, game)
    enter_a_rummoli_hand(page, touches, last=False)
    page.locator("[data-end-of-hand] [data-pad-keypad]").tap()
    expect(page.locator("#f-cards_left-3")).to_be_focused()
    page.keyboard.type("2")
    expect(page.locator("#preview")).to_contain_text("Ben +13", timeout=SAVED)
    not_counting_down(page)
    assert not Round.objects.filter(game=game).exists()


def test_a_hand_saved_itself_offline_waits_in_the_outbox(live_server, page: Page):
    game = game_create(record={"game": "rummoli", "players": RUMMOLI_PLAYERS}).game
    touches = open_table(page, live_server, game)
    key = page.locator("input[name=key]").input_value()
    enter_a_rummoli_hand(page, touches, last=False)
    page.context.set_offline(True)
    page.locator("[data-end-of-hand] .pad").get_by_role("button", name="2", exact=True).tap()
    counting_down(page)
    expect(page.locator("[data-outbox]")).to_be_visible(timeout=SAVED)
    kept = page.evaluate("JSON.parse(localStorage.getItem('tablescore-outbox') || '[]')")
    assert [(item["key"], item["action"]) for item in kept] == [(key, "save")]
    assert not Round.objects.filter(game=game).exists()
    page.context.set_offline(False)
    Phone(page).saved("Hand 1 saved", timeout=15_000)
    the_hand_meant(game)


COUNTDOWN_IN_SIGHT = """() => {
  const shown = el => {
    const box = el.getBoundingClientRect();
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    const top = document.elementFromPoint(x, y);
    return box.top >= 0 && box.bottom <= window.innerHeight && box.left >= 0
      && box.right <= window.innerWidth && Boolean(top) && (top === el || el.contains(top));
  };
  const save = document.querySelector("button.save");
  const wait = document.querySelector(".actions [data-wait]");
  const bar = document.querySelector(".actions").getBoundingClientRect();
  const waitBox = wait.getBoundingClientRect();
  const problems = [];
  const text = save.textContent.trim();
  if (!/^Saving hand 1 in [123]…$/.test(text)) problems.push("text " + text);
  if (!shown(save)) problems.push("Save hidden");
  if (!shown(wait)) problems.push("Wait hidden");
  if (save.scrollWidth > save.clientWidth + 1) problems.push("Save text spills");
  const words = document.createRange();
  words.selectNodeContents(save);
  const lines = new Set(Array.from(words.getClientRects(), line => Math.round(line.top)));
  if (lines.size !== 1) problems.push("Save wraps");
  if (waitBox.top < bar.top || waitBox.bottom > bar.bottom + 1) problems.push("Wait off the bar");
  document.querySelectorAll("#preview .delta-chip").forEach(chip => {
    if (!shown(chip)) problems.push("preview hidden: " + chip.textContent.trim());
  });
  document.querySelectorAll("[data-end-of-hand] [data-pad-cell]").forEach(cell => {
    if (!shown(cell)) problems.push("box hidden: " + cell.id);
  });
  return problems;
}"""


def test_the_countdown_and_wait_are_in_sight(live_server, page: Page, held):
    game = game_create(record={"game": "rummoli", "players": RUMMOLI_PLAYERS}).game
    touches = open_table(page, live_server, game)
    enter_a_rummoli_hand(page, touches)
    counting_down(page)
    expect(page.locator("#preview .delta-chip")).to_have_count(4)
    assert page.evaluate(COUNTDOWN_IN_SIGHT) == []
    touches.tap(wait_button(page))
    not_counting_down(page)


def test_who_went_out_follows_the_poker_winner_only_until_told(live_server, page: Page):
    """A 0 tapped for another player's cards says who went out; a choice made by hand stays
    whoever wins the poker."""
    game = game_create(record={"game": "rummoli", "players": ["Ann", "Ben", "Cat", "Dan"]}).game
    open_table(page, live_server, game)
    went_out = page.locator("fieldset[data-field='went_out']")
    page.locator("fieldset[data-field='poker.winners'] label.chip", has_text="Ben").tap()
    expect(went_out.locator("input[value='1']")).to_be_checked()
    expect(page.locator("#f-cards_left-1")).to_have_value("0")
    pad = page.locator("[data-end-of-hand] .pad")
    for cards in (3, 0):  # Ann 3, Cat none: Cat went out, not Ben
        pad.get_by_role("button", name=str(cards), exact=True).tap()
    expect(went_out.locator("input[value='2']")).to_be_checked()
    expect(page.locator("[data-went-out-note]")).to_be_hidden()
    expect(page.locator("#f-cards_left-1")).to_have_value("")  # Ben's cards are counted now
    for cards in (2, 4):  # Dan, then Ben
        pad.get_by_role("button", name=str(cards), exact=True).tap()
    page.locator("fieldset[data-field='poker.winners'] label.chip", has_text="Dan").tap()
    expect(went_out.locator("input[value='2']")).to_be_checked()
    Phone(page).save_button.tap()
    Phone(page).saved("Hand 1 saved", timeout=SAVED)
    entry = saved_entry(game)
    assert entry["poker"] == {"winners": [1, 3]}
    assert (entry["went_out"], entry["cards_left"]) == (2, [3, 4, 0, 2])


def test_a_split_poker_pot_leaves_who_went_out_to_be_told(live_server, page: Page):
    game = game_create(record={"game": "rummoli", "players": ["Ann", "Ben", "Cat"]}).game
    open_table(page, live_server, game)
    winners = page.locator("fieldset[data-field='poker.winners'] label.chip")
    winners.filter(has_text="Ann").tap()
    winners.filter(has_text="Cat").tap()
    expect(page.locator("fieldset[data-field='went_out'] input:checked")).to_have_count(0)
    expect(page.locator("#f-cards_left-0")).to_have_value("")


def test_a_pay_card_tapped_twice_is_unclaimed(live_server, page: Page):
    game = game_create(record={"game": "rummoli", "players": ["Ann", "Ben", "Cat", "Dan"]}).game
    open_table(page, live_server, game)
    cell = page.locator("input[name='pay_cards.ten_spades'][aria-label$=': Dan']")
    cell.locator("xpath=..").tap()
    expect(cell).to_be_checked()
    cell.locator("xpath=..").tap()
    expect(cell).not_to_be_checked()


# --------------------------------------------------------------------------- typed points


def test_a_roolz_side_being_typed_in_is_never_refilled(live_server, page: Page):
    """Team A typed 190 fills B with 110; B cleared and typed 210 stays 210 (not "110210")."""
    game = roolz(Confirmation.OFF)
    open_table(page, live_server, game)
    page.locator("#f-won-A").click()
    page.keyboard.type("190")
    expect(page.locator("#f-won-B")).to_have_value("110")
    page.locator("#f-won-B").click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Backspace")
    expect(page.locator("#f-won-B")).to_have_value("")
    page.keyboard.type("210")
    expect(page.locator("#f-won-B")).to_have_value("210")
    # A was typed by hand: it is not overwritten, and the sum is pointed out.
    expect(page.locator("#f-won-A")).to_have_value("190")
    expect(page.locator("[data-won-warning]")).to_contain_text("400")
    # Cleared and left, A is the rest again.
    page.locator("#f-won-A").click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Backspace")
    expect(page.locator("#f-won-A")).to_have_value("")
    page.locator("#f-won-B").click()
    expect(page.locator("#f-won-A")).to_have_value("90")


# --------------------------------------------------------------------------- errors in sight


@pytest.mark.parametrize(
    "game_kind",
    ["roolz", "rook_sluff", "rummoli"],
)
def test_an_error_after_a_refused_save_is_in_sight_above_the_save_bar(
    live_server, page: Page, screenshot, game_kind
):
    players = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"] if game_kind == "rook_sluff" else None
    record = {"game": game_kind, "players": players or ["Ann", "Ben", "Cat", "Dan"]}
    game = game_create(record=record).game
    touches = open_table(page, live_server, game)
    if game_kind == "roolz":
        touches.chip("bidder", "Ann")
        touches.tap(page.locator("[data-set=bid][data-value='200']"))
        page.locator("#f-won-A").fill("193")  # not a multiple of 5
    elif game_kind == "rook_sluff":
        pad = page.locator("[data-sluff] .pad")
        for value in (1, 1, 1, 1, 1):  # Fay's bid missing
            touches.tap(pad.get_by_role("button", name=str(value), exact=True))
    else:
        touches.chip("widow", "Bought")
        touches.chip("widow.buyer", "Cat")  # no price
        touches.chip("went_out", "Ben")
        pad = page.locator("[data-end-of-hand] .pad")
        for cards in (3, 5, 2):
            touches.tap(pad.get_by_role("button", name=str(cards), exact=True))
    touches.save()
    bar_message = page.locator(".actions [data-first-problem]")
    expect(bar_message).to_be_visible(timeout=SAVED)
    message = page.locator("#entry .field-errors .error").first
    expect(message).to_be_in_viewport()
    bar = page.locator(".actions").bounding_box()
    box = message.bounding_box()
    assert bar is not None and box is not None
    assert box["y"] + box["height"] <= bar["y"] + 1, (box, bar)
    assert box["y"] >= 52  # below the top bar
    assert message.inner_text().strip() in bar_message.inner_text()
    screenshot(page, f"refused-save-{game_kind}", full_page=False)
    assert not Round.objects.filter(game=game).exists()


def test_a_penalty_with_nobody_is_refused_naming_the_field(live_server, page: Page):
    game = roolz(Confirmation.OFF)
    touches = open_table(page, live_server, game)
    touches.chip("bidder", "Ann")
    touches.tap(page.locator("[data-set=bid][data-value='200']"))
    touches.tap(page.locator("[data-points] button", has_text="Made exactly"))
    page.locator("details.penalties > summary").click()
    page.fill("#f-penalties-0-points", "5000")
    touches.save()
    expect(page.locator(".actions [data-first-problem]")).to_contain_text(
        "Penalty 1: choose the player who is penalised.", timeout=SAVED
    )
    assert not Round.objects.filter(game=game).exists()
