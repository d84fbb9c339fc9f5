/* Rummoli at the table: the widow buyer appears for a sale; who went out has no cards left;
 * a claimed pay card's section stands out; until someone is tapped under "Went out", the one
 * poker winner is counted as going out (the poker winner leads the first card), said beside
 * the choice and changed by one tap there, or by a 0 tapped for another player's cards; the
 * hand is complete for a save by itself once the poker pot has a winner, who went out is
 * known and a widow bought has its buyer and price (the cards left are the pad's). */
(function () {
  "use strict";

  function wentOutRadio(end, seat) {
    return end.querySelector('input[name="went_out"][value="' + seat + '"]');
  }

  /* Who went out follows the poker winner while nobody has been chosen there by hand. */
  function followPokerWinner(form, end, changed) {
    if (!changed) {
      /* a form shown with someone already out (a correction, a refused save) keeps them */
      if (end.querySelector('input[name="went_out"]:checked')) end.dataset.wentOutChosen = "1";
      return false;
    }
    if (changed.name === "went_out") {
      end.dataset.wentOutChosen = "1";
      end.querySelectorAll('input[name="went_out"][data-follows]').forEach(function (radio) {
        delete radio.dataset.follows;
      });
      return false;
    }
    if (end.dataset.wentOutChosen) return false;
    const seatCell = changed.closest ? changed.closest("[data-cards-seat]") : null;
    if (seatCell && changed.value === "0") {
      /* 0 cards left for another player: that player went out, not the poker winner */
      const radio = wentOutRadio(end, seatCell.dataset.cardsSeat);
      if (!radio || radio.disabled || radio.checked) return false;
      end.querySelectorAll('input[name="went_out"][data-follows]').forEach(function (other) {
        other.checked = false;
        delete other.dataset.follows;
      });
      radio.checked = true;
      end.dataset.wentOutChosen = "1";
      return true;
    }
    if (changed.name !== "poker.winners") return false;
    const winners = form.querySelectorAll('input[name="poker.winners"]:checked');
    const follow = winners.length === 1 ? wentOutRadio(end, winners[0].value) : null;
    const before = end.querySelector('input[name="went_out"][data-follows]');
    if (before === follow && follow) return false;
    if (before) {
      before.checked = false;
      delete before.dataset.follows;
    }
    if (follow && !follow.disabled) {
      follow.checked = true;
      follow.dataset.follows = "1";
    }
    return true;
  }

  function syncEndOfHand(form, end, changed) {
    const moved = followPokerWinner(form, end, changed);
    const out = end.querySelector('input[name="went_out"]:checked');
    const outChanged = moved || Boolean(changed && changed.name === "went_out");
    end.querySelectorAll("[data-cards-seat]").forEach(function (cell) {
      const input = cell.querySelector("input");
      const isOut = Boolean(out) && out.value === cell.dataset.cardsSeat;
      cell.classList.toggle("is-out-player", isOut);
      if (!outChanged) return;
      if (isOut) {
        input.value = 0;
        input.dataset.outZero = "1";
        input.classList.remove("is-current");
      } else if (input.dataset.outZero) {
        /* the 0 given to whoever went out goes with them: this player's cards are counted */
        delete input.dataset.outZero;
        if (input.value === "0") input.value = "";
      }
    });
    const note = end.querySelector("[data-went-out-note]");
    if (note) {
      const follows = out && out.dataset.follows;
      note.hidden = !follows;
      if (follows) {
        const name = out.closest("label").querySelector(".chip-label");
        note.textContent = name
          ? interpolate(gettext("%(name)s won the poker, so is counted as going out: tap who did if not."), { name: name.textContent }, true)
          : gettext("The poker winner won the poker, so is counted as going out: tap who did if not.");
      }
    }
    const pads = window.tablescorePads;
    const pad = end.querySelector("[data-pad]");
    if (outChanged && pads && pad) {
      /* the pad moves on to the first player still to count */
      const current = pads.current(pad);
      /* (a poker winner tapped far above moves it without taking the page there) */
      pads.take(pad, current && current.value === "" ? current : pads.next(pad, null), moved);
    }
  }

  function syncRummoli(form, changed) {
    const widow = form.querySelector("[data-widow]");
    if (widow) {
      const mode = widow.querySelector('input[name="widow"]:checked');
      widow.querySelectorAll("[data-when-widow]").forEach(function (el) {
        el.hidden = !mode || mode.value !== el.dataset.whenWidow;
      });
    }
    const end = form.querySelector("[data-end-of-hand]");
    if (end) syncEndOfHand(form, end, changed);
    form.querySelectorAll("[data-pay-section]").forEach(function (head) {
      const claimed = form.querySelector('input[name="' + head.dataset.paySection + '"]:checked');
      head.classList.toggle("is-claimed", Boolean(claimed));
    });
  }

  function completeRummoli(form) {
    const end = form.querySelector("[data-end-of-hand]");
    if (!end) return true;
    const widow = form.querySelector('input[name="widow"]:checked');
    if (widow && widow.value === "buy") {
      const price = form.querySelector('input[name="widow.price"]');
      if (!form.querySelector('input[name="widow.buyer"]:checked') || (price && price.value === "")) return false;
    }
    const cards = Array.from(end.querySelectorAll("[data-cards-seat] input:not([disabled])"));
    return Boolean(form.querySelector('input[name="poker.winners"]:checked')) &&
      Boolean(end.querySelector('input[name="went_out"]:checked')) &&
      cards.every(function (input) { return input.value !== ""; });
  }

  window.tablescore.register({ sync: syncRummoli, complete: completeRummoli });
})();
