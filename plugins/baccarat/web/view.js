// A baccarat table as the page draws it: the coup's Player and Banker hands as cards with
// their totals and the winner, and each seat's bets and chips, built from the table's
// events (bet, pass, coup, chips); each event in the game's own words.

import { cardElement } from "/js/cards.js";
import { h, num } from "/js/common.js";
import { change, gameSeats, updateSeats } from "/js/seats.js";

const SPOT_NAMES = { player: "player", banker: "banker", tie: "tie" };

export class BaccaratTable {
  constructor(info) {
    this.seats = gameSeats(info);
    this.round = null;
    this.coup = null;
    this.title = "The coup";
  }

  update(info) { updateSeats(this.seats, info); }

  seat(number) { return this.seats.find((s) => s.seat === number); }

  apply(e) {
    if (e.round !== undefined && num(e.round) !== this.round) {
      this.round = num(e.round);
      this.coup = null;
      for (const s of this.seats) { s.bets = null; s.passed = false; s.settled = false; s.start = s.chips; }
    }
    const seat = e.seat === undefined || e.seat === null ? null : this.seat(e.seat);
    if (e.kind === "bet" && seat) seat.bets = e.bets;
    else if (e.kind === "pass" && seat) seat.passed = true;
    else if (e.kind === "coup") this.coup = e;
    else if (e.kind === "chips" && seat) { seat.chips = Number(e.chips); seat.settled = true; }
  }

  /** The event's own words; the table's record of each action repeats them, so not that. */
  describe(e) { return e.kind === "action" ? null : e.text || e.kind; }

  render(dealerBox, seatsBox) {
    const c = this.coup;
    const side = (name, cards, total) => h("div", { class: `hand coup-side${c && c.winner === name ? " winner" : ""}`, role: "group",
      "aria-label": `${name}'s hand` },
    h("span", { class: "side-name" }, name[0].toUpperCase() + name.slice(1)), ...cards.map(cardElement),
    cards.length ? h("span", { class: "about total" }, String(total)) : h("span", { class: "muted" }, "no cards"),
    c && c.winner === name ? h("span", { class: "about outcome win" }, "wins") : null);
    const parts = [side("player", c ? c.player : [], c && c.player_total), side("banker", c ? c.banker : [], c && c.banker_total)];
    if (c && c.winner === "tie") parts.push(h("p", { class: "about outcome push" }, "A tie"));
    dealerBox.replaceChildren(...parts);
    seatsBox.replaceChildren(...this.seats.map((s) => {
      const bets = s.bets ? Object.entries(s.bets).map(([spot, amount]) => `${num(amount)} on ${SPOT_NAMES[spot] || spot}`).join(", ") : s.passed ? "sits out" : "no bet";
      return h("li", { class: "seat", "data-seat": s.seat },
        h("h3", {}, `Seat ${s.seat}: ${s.name}`),
        h("div", { class: "meta" }, `chips ${s.chips} · ${bets}${s.settled ? ` · ${change(s)}` : ""}`));
    }));
  }
}

export default BaccaratTable;
