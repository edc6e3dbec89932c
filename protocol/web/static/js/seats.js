// The seats of a card game drawn by the page (baccarat, Three Card Poker): their names,
// chips, and what a round did to them.

export function seatName(s) {
  if (s.kind === "free") return "free";
  return s.player || s.kind;
}

/** What the seats of a card game share: names, chips, and a change per round. */
export function gameSeats(info) {
  return info.seats.map((s, i) => ({ seat: s.seat, name: seatName(s), chips: Number(info.chips[i] ?? 0), start: Number(info.chips[i] ?? 0) }));
}

/** "won 20", "lost 10" or "even" from a seat's chips before and after the round. */
export function change(seat) {
  const d = seat.chips - seat.start;
  return d > 0 ? `won ${d}` : d < 0 ? `lost ${-d}` : "even";
}
