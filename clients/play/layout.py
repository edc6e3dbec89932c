"""Where everything goes on the screen: a pure function from the view to styled text spans.

:func:`layout` knows nothing of curses: it returns :class:`Span` values (row, column, text,
style name) for a screen of a given size, so what the screen shows is testable without a
terminal and the painter (:mod:`croupier.clients.play.terminal`) stays a few lines. Cards
are drawn as small boxes (``Q♣``), named below ("Queen of Clubs"), the hole card as ``?``;
with many split hands the cards shrink to one line each.
"""

from __future__ import annotations

import attrs

from croupier.clients.play.view import HandState, TableView, card_name, total_text
from croupier.engine.cards import HIDDEN, SUITS

MIN_WIDTH = 60
MIN_HEIGHT = 18
"""The smallest screen the table fits on (one hand drawn in full)."""

SUIT_SYMBOLS = {"unicode": "♠♥♦♣", "ascii": "SHDC"}
BOX = {"unicode": "┌─┐│└┘", "ascii": "+-+|++"}
CARD_WIDTH = 5


@attrs.frozen
class Span:
    """``text`` at ``row``/``col`` in style ``style`` (a name the painter maps to colours)."""

    row: int
    col: int
    text: str
    style: str = "felt"


@attrs.frozen
class Prompt:
    """What the person is asked: a question, optional notes (a refusal, a hint), the typed
    entry for an amount, and the keys on offer as ``(key, label)`` pairs."""

    question: str
    keys: tuple[tuple[str, str], ...] = ()
    notes: tuple[str, ...] = ()
    entry: str | None = None


def too_small(width: int, height: int) -> bool:
    return width < MIN_WIDTH or height < MIN_HEIGHT


def too_small_message(width: int, height: int) -> list[Span]:
    """The notice shown instead of the table while the screen is too small."""
    lines = [
        "The terminal is too small",
        f"({width}x{height}, need {MIN_WIDTH}x{MIN_HEIGHT}).",
        "Enlarge it to resume; Ctrl-C quits.",
    ]
    top = max(0, height // 2 - 1)
    spans = []
    for i, line in enumerate(lines):
        text = line[:width]
        spans.append(Span(top + i, max(0, (width - len(text)) // 2), text, "status"))
    return spans


def card_face(code: str, charset: str) -> tuple[str, str]:
    """The card's three-character face (``"Q♣ "``, ``"10♥"``, ``" ? "``) and its style."""
    if code == HIDDEN:
        return " ? ", "card-back"
    rank = "10" if code[0] == "T" else code[0]
    suit = SUIT_SYMBOLS[charset][SUITS.index(code[1])]
    style = "card-red" if code[1] in "HD" else "card"
    return f"{rank}{suit}".ljust(3), style


def draw_cards(codes: list[str], row: int, col: int, width: int, charset: str) -> list[Span]:
    """Cards as three-row boxes from ``row``/``col``, overlapping when they do not fit."""
    box = BOX[charset]
    step = CARD_WIDTH + 1
    if codes and col + step * len(codes) > width:
        step = max(2, (width - col - CARD_WIDTH) // max(1, len(codes) - 1))
    spans = []
    for i, code in enumerate(codes):
        x = col + i * step
        face, style = card_face(code, charset)
        spans.append(Span(row, x, box[0] + box[1] * 3 + box[2], style))
        spans.append(Span(row + 1, x, box[3] + face + box[3], style))
        spans.append(Span(row + 2, x, box[4] + box[1] * 3 + box[5], style))
    return spans


def inline_cards(codes: list[str], row: int, col: int, charset: str) -> list[Span]:
    """Cards on one line (compact mode): `` Q♣  7♥ ``."""
    spans = []
    for i, code in enumerate(codes):
        face, style = card_face(code, charset)
        spans.append(Span(row, col + i * 5, f" {face}", style))
    return spans


def names(codes: list[str]) -> str:
    return ", ".join(card_name(c) for c in codes)


def hand_label(view: TableView, index: int, hand: HandState, charset: str = "unicode") -> str:
    hands = view.my_hands
    who = "You" if len(hands) == 1 else f"Hand {index + 1} of {len(hands)}"
    parts = [f"{who}: {total_text(hand.cards)}" if hand.cards else who]
    if hand.stake:
        parts.append(f"bet {hand.stake}")
    if hand.outcome:
        parts.append("BLACKJACK" if hand.outcome == "natural" else hand.outcome.upper())
    return f"  {dot(charset)}  ".join(parts)


def dot(charset: str) -> str:
    """The separator between parts of a line: a middle dot, or ``-`` in ASCII."""
    return "·" if charset == "unicode" else "-"


def dealer_label(dealer: list[str]) -> str:
    """ "Dealer shows an Ace" / "Dealer shows 10" while the hole card is down (one card
    is no hand: never "Soft 11"), then "Dealer: 17"."""
    shown = [c for c in dealer if c != HIDDEN]
    if HIDDEN in dealer:
        if len(shown) == 1 and shown[0][:1] == "A":
            return "Dealer shows an Ace"
        return f"Dealer shows {total_text(shown)}"
    return f"Dealer: {total_text(dealer)}" if dealer else "Dealer"


def layout(
    view: TableView, prompt: Prompt | None, width: int, height: int, charset: str
) -> list[Span]:
    """Everything on a ``width`` x ``height`` screen (assumed not :func:`too_small`)."""
    spans: list[Span] = []
    left = f" croupier blackjack {dot(charset)} {view.title}"
    right = f"Round {view.round}  Chips {view.chips}  Bet {view.at_stake} "
    room = max(0, width - len(right) - 1)  # one blank keeps the two parts apart
    if len(left) > room:  # the title (a server's table number, the seed) first
        left = f" {view.title}"
    if len(left) > room:  # cut visibly, not in the middle of a number run into "Round"
        left = left[: max(0, room - 1)] + ("…" if charset == "unicode" else "~")
    bar = left.ljust(width - len(right)) + right
    spans.append(Span(0, 0, bar[:width], "title"))

    # the dealer
    dealer = view.dealer
    spans.append(Span(2, 2, dealer_label(dealer), "label"))
    spans += draw_cards(dealer, 3, 2, width, charset)
    if dealer:
        spans.append(Span(6, 2, names(dealer)[: width - 4], "names"))

    # the person's hands: full boxes when they fit, one line each otherwise
    hands = view.my_hands
    prompt_rows = 2 + (len(prompt.notes) if prompt else 0)
    bottom = height - prompt_rows  # first row of the prompt
    row = 8
    compact = row + 5 * len(hands) + 2 > bottom
    acting = view.acting[1] if view.acting[0] == view.seat else -1
    if not hands:
        spans.append(Span(row, 2, "You", "label"))
        row += 1
    for i, hand in enumerate(hands):
        marker = "▶ " if len(hands) > 1 and i == acting and hand.outcome is None else ""
        if charset == "ascii" and marker:
            marker = "> "
        style = {"win": "win", "natural": "win", "push": "label"}.get(hand.outcome or "", "label")
        if hand.outcome in ("lose", "bust", "surrender"):
            style = "lose"
        label = marker + hand_label(view, i, hand, charset)
        spans.append(Span(row, 2, label[: width - 4], style))
        if compact:
            spans += inline_cards(hand.cards, row + 1, 4, charset)
            row += 2
        else:
            spans += draw_cards(hand.cards, row + 1, 2, width, charset)
            spans.append(Span(row + 4, 2, names(hand.cards)[: width - 4], "names"))
            row += 5
        if row >= bottom - 1:
            break

    # other seats (a shared table), one line each
    for seat, others in sorted(view.hands.items()):
        if seat == view.seat or row >= bottom - 2:
            continue
        text = "   ".join(
            f"{' '.join(h.cards)} ({total_text(h.cards)})" if h.cards else f"bet {h.stake}"
            for h in others
        )  # a seat whose first card has not come yet shows its bet, not an empty hand
        spans.append(Span(row, 2, f"Seat {seat}: {text}"[: width - 4], "names"))
        row += 1

    # what just happened: the newest lines of the log above the prompt, newest brightest
    free = bottom - row - 1
    if free > 0 and view.log:
        lines = view.log[-free:]
        for i, line in enumerate(lines):
            style = "status" if i == len(lines) - 1 else "log"
            spans.append(Span(bottom - len(lines) + i - 1, 2, line[: width - 4], style))

    if prompt is not None:
        spans += prompt_spans(prompt, bottom, width)
    return spans


def prompt_spans(prompt: Prompt, row: int, width: int) -> list[Span]:
    spans = []
    for note in prompt.notes:
        spans.append(Span(row, 2, note[: width - 4], "note"))
        row += 1
    question = prompt.question + ("" if prompt.entry is None else f" {prompt.entry}_")
    spans.append(Span(row, 2, question[: width - 4], "prompt"))
    col = 2
    for key, label in prompt.keys:
        text = f"[{key}] {label}"
        if col + len(text) > width - 2:
            break
        spans.append(Span(row + 1, col, f"[{key}]", "key"))
        spans.append(Span(row + 1, col + len(key) + 3, label, "prompt"))
        col += len(text) + 3
    return spans
