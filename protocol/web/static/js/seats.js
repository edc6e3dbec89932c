// The seats of a card game drawn by the page (every game's view): their names, chips, and
// what a round did to them.

export function seatName(s) {
  if (s.kind === "free") return "free";
  return s.player || s.kind;
}

/** What the seats of a card game share: names, chips, and a change per round. */
export function gameSeats(info) {
  return info.seats.map((s, i) => ({ seat: s.seat, name: seatName(s), chips: Number(info.chips[i] ?? 0), start: Number(info.chips[i] ?? 0) }));
}

/** Names, and the final chips once the table finished, from a table info (at start and in
 * each table.status) into the view's `seats`, seat for seat. */
export function updateSeats(seats, info) {
  info.seats.forEach((s, i) => {
    const seat = seats[i];
    if (!seat) return;
    seat.name = seatName(s);
    if (info.state === "finished" && info.chips[i] !== undefined) seat.chips = Number(info.chips[i]);
  });
}

/** "won 20", "lost 10" or "even" from a seat's chips before and after the round. */
export function change(seat) {
  const d = seat.chips - seat.start;
  return d > 0 ? `won ${d}` : d < 0 ? `lost ${-d}` : "even";
}
