"""The Blackjack randomizer language: tokenizer, grammar and validation (no randomness here).

Grammar (docs/randomizers.md has the prose)::

    spec     := body [ "first" list ]
    body     := [ NUMBER ] "bag" "of" list
              | "sequence" "of" list
              | list [ "with" NUMBER "history" [ NUMBER "rolls" ] [ "starting" list ] ]
    list     := PIECE { "," PIECE }
    PIECE    := [A-Za-z0-9_]+ that is not a keyword
    NUMBER   := [0-9]+

Whitespace may separate any two tokens. Every error is a :class:`SpecError` pointing at the
column where the text stops making sense; limits keep every accepted spec cheap to build.
"""

from __future__ import annotations

import re

import attrs

from croupier.engine import SpecError

KEYWORDS = frozenset({"bag", "of", "sequence", "with", "history", "rolls", "first", "starting"})
MAX_ENTRIES = 65_536
MAX_HISTORY = 256
MAX_ROLLS = 256
MAX_DIGITS = 9

_TOKEN = re.compile(r"\s*(?:(?P<word>[A-Za-z0-9_]+)|(?P<comma>,)|(?P<other>\S))")


@attrs.frozen
class Token:
    kind: str  # "word", "comma", "other" or "end"
    text: str
    pos: int


@attrs.frozen
class Spec:
    """A parsed spec. ``kind`` is "list", "bag" or "sequence".

    ``history`` is the number of past entries that block a deal (0 for none), ``rolls``
    ``None`` means "roll until an entry outside the history comes up", ``starting`` the
    initial history (oldest first) and ``first`` the list the first piece comes from.
    """

    kind: str
    entries: tuple[str, ...]
    count: int = 0  # bag: how many of the shuffled bag are dealt before reshuffling
    history: int = 0
    rolls: int | None = None
    starting: tuple[str, ...] | None = None
    first: tuple[str, ...] | None = None


def tokenize(text: str) -> list[Token]:
    tokens: list[Token] = []
    pos = 0
    while True:
        match = _TOKEN.match(text, pos)
        if match is None:  # only whitespace is left
            tokens.append(Token("end", "", len(text.rstrip())))
            return tokens
        kind = match.lastgroup or "other"
        tokens.append(Token(kind, match.group(kind), match.start(kind)))
        pos = match.end()


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = tokenize(text)
        self.i = 0

    # -- helpers ---------------------------------------------------------------------------
    @property
    def tok(self) -> Token:
        return self.tokens[self.i]

    def error(self, message: str, token: Token | None = None) -> SpecError:
        token = token or self.tok
        return SpecError(message, self.text, token.pos)

    def describe(self, token: Token) -> str:
        return "the end of the spec" if token.kind == "end" else repr(token.text)

    def at(self, word: str) -> bool:
        return self.tok.kind == "word" and self.tok.text == word

    def expect(self, word: str) -> Token:
        if not self.at(word):
            raise self.error(f"expected {word!r}, found {self.describe(self.tok)}")
        token = self.tok
        self.i += 1
        return token

    def number(self, what: str, low: int, high: int) -> tuple[int, Token]:
        token = self.tok
        if token.kind != "word" or not token.text.isdigit():
            raise self.error(f"expected {what} (a number), found {self.describe(token)}")
        if len(token.text.lstrip("0")) > MAX_DIGITS or not low <= int(token.text) <= high:
            raise self.error(f"{what} must be between {low} and {high}, not {token.text}")
        self.i += 1
        return int(token.text), token

    def piece_list(self, what: str) -> tuple[tuple[str, ...], list[Token]]:
        tokens: list[Token] = []
        pieces: list[str] = []
        while True:
            token = self.tok
            if token.kind != "word":
                raise self.error(f"expected a piece in {what}, found {self.describe(token)}")
            if token.text in KEYWORDS:
                raise self.error(f"expected a piece in {what}, found the keyword {token.text!r}")
            pieces.append(token.text)
            tokens.append(token)
            if len(pieces) > MAX_ENTRIES:
                raise self.error(f"{what} has more than {MAX_ENTRIES} entries", token)
            self.i += 1
            if self.tok.kind != "comma":
                return tuple(pieces), tokens
            self.i += 1

    # -- grammar ---------------------------------------------------------------------------
    def spec(self) -> Spec:
        spec = self.body()
        if self.at("first"):
            self.i += 1
            first, _ = self.piece_list("the first list")
            spec = attrs.evolve(spec, first=first)
        if self.at("with") and spec.kind != "list":
            raise self.error(f"'with N history' applies to a plain list, not to a {spec.kind}")
        if self.tok.kind != "end":
            expected = "'first' or the end of the spec"
            if spec.kind == "list" and not spec.history and spec.first is None:
                expected = "',', 'with', 'first' or the end of the spec"
            raise self.error(f"expected {expected}, found {self.describe(self.tok)}")
        return spec

    def body(self) -> Spec:
        if self.at("sequence"):
            self.i += 1
            self.expect("of")
            entries, _ = self.piece_list("the sequence")
            return Spec("sequence", entries)
        count_token: Token | None = None
        if self.tok.kind == "word" and self.tok.text.isdigit() and self.peek_word("bag"):
            count_token = self.tok
            self.i += 1
        if self.at("bag"):
            self.i += 1
            self.expect("of")
            entries, _ = self.piece_list("the bag")
            if count_token is None:
                return Spec("bag", entries, count=len(entries))
            return Spec("bag", entries, count=self.bag_count(count_token, len(entries)))
        entries, _ = self.piece_list("the list")
        if not self.at("with"):
            return Spec("list", entries)
        self.i += 1
        history, history_token = self.number("the history length", 0, MAX_HISTORY)
        self.expect("history")
        rolls: int | None = None
        if self.tok.kind == "word" and self.tok.text.isdigit():
            rolls, _ = self.number("the number of rolls", 1, MAX_ROLLS)
            self.expect("rolls")
        elif history >= len(entries):
            raise self.error(
                f"a history of {history} blocks all {len(entries)} entries, so nothing "
                "could ever be dealt (give fewer, or add 'N rolls')",
                history_token,
            )
        starting: tuple[str, ...] | None = None
        if self.at("starting"):
            self.i += 1
            starting_token = self.tok
            starting, tokens = self.piece_list("the starting history")
            if len(starting) != history:
                raise self.error(
                    f"the starting history has {len(starting)} pieces but the history "
                    f"holds {history}",
                    starting_token,
                )
            for piece, token in zip(starting, tokens, strict=True):
                if piece not in entries:
                    raise self.error(f"{piece!r} in the starting history is not in the list", token)
        return Spec("list", entries, history=history, rolls=rolls, starting=starting)

    def peek_word(self, word: str) -> bool:
        nxt = self.tokens[self.i + 1] if self.i + 1 < len(self.tokens) else None
        return nxt is not None and nxt.kind == "word" and nxt.text == word

    def bag_count(self, token: Token, size: int) -> int:
        if len(token.text.lstrip("0")) > MAX_DIGITS or not 1 <= int(token.text) <= size:
            raise self.error(
                f"a bag of {size} can deal 1 to {size} pieces before reshuffling, not {token.text}",
                token,
            )
        return int(token.text)


def parse_spec(text: str) -> Spec:
    """Parse Blackjack-language ``text``; raise :class:`SpecError` pointing at the problem."""
    if not text.strip():
        raise SpecError("empty randomizer spec")
    return _Parser(text).spec()
