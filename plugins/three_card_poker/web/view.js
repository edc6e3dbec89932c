// A Three Card Poker table as the page draws it: the dealer's three cards (face down until
// the dealer shows them, then whether the hand qualifies), and each seat's ante, pair plus,
// play or fold, and its cards once shown at the settlement, built from the table's events
// (bet, pass, play, fold, dealer, result); each event in the game's own words.

import { cardElement } from "/js/cards.js";
import { h, num } from "/js/common.js";
import { change, gameSeats, updateSeats } from "/js/seats.js";

const HIDDEN = ["#", "#", "#"];

export class ThreeCardPokerTable {
  constructor(info) {
    this.seats = gameSeats(info);
    this.round = null;
    this.dealer = null;
    this.dealt = false;
    this.title = "Dealer";
    this.minBet = Number((info.rules && info.rules.min_bet) ?? 0);
  }

  update(info) { updateSeats(this.seats, info); }

  /** The game has no event for the deal: the hands are dealt once every seat with chips
   * for an ante and its play (twice the minimum) has bet or passed, and one has bet. */
  anted() {
    const asked = this.seats.filter((s) => s.start >= 2 * this.minBet);
    return asked.every((s) => s.bet || s.passed) && asked.some((s) => s.bet);
  }

  seat(number) { return this.seats.find((s) => s.seat === number); }

  apply(e) {
    if (e.round !== undefined && num(e.round) !== this.round) {
      this.round = num(e.round);
      this.dealer = null;
      this.dealt = false;
      for (const s of this.seats) Object.assign(s, { bet: null, passed: false, decision: null, cards: null, settled: false, start: s.chips });
    }
    const seat = e.seat === undefined || e.seat === null ? null : this.seat(e.seat);
    if (e.kind === "bet" && seat) seat.bet = { ante: e.ante, pair_plus: e.pair_plus };
    else if (e.kind === "pass" && seat) seat.passed = true;
    if ((e.kind === "bet" || e.kind === "pass") && this.anted()) this.dealt = true;
    else if ((e.kind === "play" || e.kind === "fold") && seat) { seat.decision = e.kind; this.dealt = true; }
    else if (e.kind === "dealer") { this.dealer = e; this.dealt = true; }
    else if (e.kind === "result" && seat) { seat.cards = e.cards; seat.chips = Number(e.chips); seat.settled = true; }
  }

  describe(e) { return e.kind === "action" ? null : e.text || e.kind; }

  render(dealerBox, seatsBox) {
    const d = this.dealer;
    const cards = d ? d.cards : this.dealt ? HIDDEN : [];
    dealerBox.replaceChildren(h("div", { class: "hand", role: "group", "aria-label": "the dealer's hand" },
      ...cards.map(cardElement),
      cards.length ? null : h("span", { class: "muted" }, "no cards"),
      d ? h("span", { class: `about outcome ${d.qualifies ? "push" : "lose"}` }, d.qualifies ? "qualifies" : "does not qualify") : null));
    seatsBox.replaceChildren(...this.seats.map((s) => {
      const bet = s.bet ? `ante ${num(s.bet.ante)}${Number(s.bet.pair_plus) ? `, pair plus ${num(s.bet.pair_plus)}` : ""}` : s.passed ? "sits out" : "no bet";
      const hand = s.cards || (s.bet && this.dealt ? HIDDEN : []);
      const outcome = s.decision ? h("span", { class: `about outcome ${s.decision === "fold" ? "lose" : "push"}` }, s.decision === "fold" ? "folds" : "plays") : null;
      return h("li", { class: "seat", "data-seat": s.seat },
        h("h3", {}, `Seat ${s.seat}: ${s.name}`),
        h("div", { class: "meta" }, `chips ${s.chips} · ${bet}${s.settled ? ` · ${change(s)}` : ""}`),
        h("div", { class: "hand", role: "group", "aria-label": `seat ${s.seat}'s hand` }, ...hand.map(cardElement),
          hand.length ? null : h("span", { class: "muted" }, "no cards"), outcome));
    }));
  }
}

export default ThreeCardPokerTable;
