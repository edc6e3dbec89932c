// A blackjack table as the page draws it: the state built from the table's events (seats'
// hands, bets and chips, the dealer's hand) and each event in words.

import { cardElement, cardName } from "/js/cards.js";
import { h, num } from "/js/common.js";
import { seatName, updateSeats } from "/js/seats.js";

const ACTIONS = {
  hit: "hits", stand: "stands", double: "doubles", split: "splits", surrender: "surrenders",
  raise: "raises", insurance: "takes insurance", decline: "declines",
  pass: "sits this round out",
};
const OUTCOMES = {
  win: "wins", lose: "loses", push: "pushes", natural: "wins with a natural",
  bust: "busts", surrender: "surrendered",
};

function totalText(total, soft) {
  if (total === undefined || total === null) return "";
  return soft ? `soft ${total}` : `${total}`;
}

export class BlackjackTable {
  constructor(info) {
    this.seats = info.seats.map((s, i) => ({
      seat: s.seat, name: seatName(s), chips: Number(info.chips[i] ?? 0), staked: 0, paid: 0, hands: [],
    }));
    this.dealer = { cards: [], total: null, soft: false };
    this.round = null;
    this.ownRounds = true;  // its events say when a round starts: no heading of the page's own
  }

  /** Chips and names from a table info (at start, and in each table.status). */
  update(info) { updateSeats(this.seats, info); }

  seat(number) { return this.seats.find((s) => s.seat === number); }

  hand(seat, index) {
    while (seat.hands.length <= index) seat.hands.push({ cards: [], total: null, soft: false, outcome: null });
    return seat.hands[index];
  }

  /** Apply one event to the state. */
  apply(e) {
    const seat = e.seat === undefined || e.seat === null ? null : this.seat(e.seat);
    switch (e.kind) {
      case "round":
        this.round = e.round;
        this.dealer = { cards: [], total: null, soft: false };
        for (const s of this.seats) { s.hands = []; s.staked = 0; s.paid = 0; }
        break;
      case "chips":
        if (seat) {
          seat.chips += Number(e.amount);
          if (e.amount < 0) seat.staked -= Number(e.amount);
          else seat.paid += Number(e.amount);
        }
        break;
      case "deal":
        if (seat) {
          const hand = this.hand(seat, e.hand ?? 0);
          hand.cards.push(e.card);
          hand.total = e.total; hand.soft = e.soft;
        } else {
          this.dealer.cards.push(e.card);
          if (e.total !== undefined) { this.dealer.total = e.total; this.dealer.soft = e.soft; }
        }
        break;
      case "reveal": {
        const hole = this.dealer.cards.indexOf("#");
        if (hole >= 0) this.dealer.cards[hole] = e.card;
        else this.dealer.cards.push(e.card);
        this.dealer.total = e.total; this.dealer.soft = e.soft;
        break;
      }
      case "action":
        if (seat && e.action === "split") this.hand(seat, seat.hands.length);
        break;
      case "settle":
        if (seat) {
          const hand = this.hand(seat, e.hand ?? 0);
          hand.outcome = e.outcome;
          if (e.total !== undefined) hand.total = e.total;
        }
        break;
      default:
        break;
    }
  }

  /** The event in words, or null for one not worth a line (a stake's chips). */
  describe(e) {
    const seat = e.seat === undefined || e.seat === null ? null : this.seat(e.seat);
    const who = seat ? `Seat ${seat.seat} (${seat.name})` : "The dealer";
    const handNote = seat && e.hand ? `, hand ${e.hand + 1}` : "";
    switch (e.kind) {
      case "round": return `Round ${num(e.round)}`;
      case "shuffle": return "The shoe is shuffled";
      case "deck-added": return "A deck is added to the shoe";
      case "leave": return `${who} leaves${e.reason ? `: ${e.reason}` : ""}`;
      case "chips":
        return e.amount > 0 ? `${who} is paid ${num(e.amount)}${e.reason ? ` (${e.reason})` : ""}` : null;
      case "deal":
        if (!seat) {
          if (e.card === "#") return "The dealer deals the hole card face down";
          const verb = this.dealer.cards.length >= 2 ? "draws" : "shows";
          return `The dealer ${verb} the ${cardName(e.card)}: ${totalText(e.total, e.soft)}`;
        }
        return `${who}${handNote} ${e.reason === "draw" ? "draws" : "is dealt"} the ${cardName(e.card)}: ${totalText(e.total, e.soft)}`;
      case "peek":
        return e.outcome === "blackjack" ? "The dealer peeks: blackjack" : "The dealer peeks: no blackjack";
      case "action": {
        if (e.action === "bet") return `${who} bets ${num(e.amount)}`;
        if (e.action === "decline") {
          const up = this.dealer.cards[0];
          return `${who} declines ${up && up[0] === "A" ? "insurance" : "to surrender"}`;
        }
        const more = e.amount ? ` (${num(e.amount)})` : "";
        return `${who}${handNote} ${ACTIONS[e.action] || e.action}${more}`;
      }
      case "refused": return `${who}: an answer was refused${e.reason ? `: ${e.reason}` : ""}`;
      case "default": return `${who} gets the default${e.action ? ` (${e.action})` : ""}${e.reason ? `: ${e.reason}` : ""}`;
      case "reveal": return `The dealer turns over the ${cardName(e.card)}: ${totalText(e.total, e.soft)}`;
      case "settle":
        return `${who}${handNote} ${OUTCOMES[e.outcome] || e.outcome}${e.total !== undefined ? ` with ${e.total}` : ""}`;
      case "end": return `Round ${num(e.round)} is settled`;
      default: return e.text || `${e.kind}`;
    }
  }

  /** Draw the dealer and the seats into their containers. */
  render(dealerBox, seatsBox) {
    const dealer = { ...this.dealer, outcome: this.dealer.total > 21 ? "bust" : null };
    dealerBox.replaceChildren(...handElements(dealer, "the dealer's hand"));
    seatsBox.replaceChildren(...this.seats.map((s) => seatElement(s)));
  }
}

function handElements(hand, label) {
  const cards = hand.cards.map(cardElement);
  const about = [];
  if (hand.cards.length && hand.total !== null) about.push(totalText(hand.total, hand.soft));
  const parts = [...cards];
  if (about.length) parts.push(h("span", { class: "about total" }, about.join(" ")));
  if (hand.outcome) parts.push(h("span", { class: `about outcome ${hand.outcome}` }, OUTCOMES[hand.outcome] || hand.outcome));
  return [h("div", { class: "hand", role: "group", "aria-label": label }, parts)];
}

function seatElement(s) {
  const hands = s.hands.length
    ? s.hands.flatMap((hand, i) => handElements(hand, `seat ${s.seat}, hand ${i + 1}`))
    : [h("div", { class: "hand" }, h("span", { class: "muted" }, "no cards"))];
  const bet = s.staked ? `bet ${s.staked}` : "no bet";
  const paid = s.paid ? `, paid ${s.paid}` : "";
  return h("li", { class: "seat", "data-seat": s.seat },
    h("h3", {}, `Seat ${s.seat}: ${s.name}`),
    h("div", { class: "meta" }, `chips ${s.chips} · ${bet}${paid}`),
    ...hands);
}

export default BlackjackTable;
