// Playing cards drawn as cards, each with its name as a text alternative ("Queen of Clubs").
// Codes are the protocol's: rank (2-9, T, J, Q, K, A) then suit (C, D, H, S); "#" is a card
// dealt face down.

import { h } from "./common.js";

const RANKS = { A: "Ace", K: "King", Q: "Queen", J: "Jack", T: "Ten", 9: "Nine", 8: "Eight",
  7: "Seven", 6: "Six", 5: "Five", 4: "Four", 3: "Three", 2: "Two" };
const SUITS = { C: ["Clubs", "\u2663"], D: ["Diamonds", "\u2666"], H: ["Hearts", "\u2665"], S: ["Spades", "\u2660"] };

/** "Queen of Clubs" for "QC"; "a face-down card" for "#". */
export function cardName(code) {
  if (code === "#") return "a face-down card";
  const rank = RANKS[code[0]];
  const suit = SUITS[code[1]];
  if (!rank) return code;
  return suit ? `${rank} of ${suit[0]}` : rank;
}

/** The card's element: rank and suit symbol, its name for screen readers and on hover. */
export function cardElement(code) {
  if (code === "#") {
    return h("span", { class: "card back", role: "img", "aria-label": "a face-down card", title: "face down" });
  }
  const rank = code[0] === "T" ? "10" : code[0];
  const suit = SUITS[code[1]];
  const red = code[1] === "H" || code[1] === "D";
  const name = cardName(code);
  return h("span", { class: red ? "card red" : "card", role: "img", "aria-label": name, title: name },
    h("span", { class: "rank", "aria-hidden": "true" }, rank),
    h("span", { class: "suit", "aria-hidden": "true" }, suit ? suit[1] : ""));
}
