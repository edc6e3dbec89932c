"""However ``croupier play --connect`` ends, the terminal is given back as it was: echo and
newline translation on (a decision left pending used to redraw after the screen closed,
putting curses' modes back behind the shell), the tally printed on a clean line."""

from __future__ import annotations

import re
import signal
from typing import Any

import pytest

from tests.termkit import CROUPIER, Term


def quit_at_bet(term: Term, server: Any) -> None:
    term.press("\r", "[H] Hit")
    term.press("s", "Play again? Your bet")
    term.press("q")


def quit_mid_hand(term: Term, server: Any) -> None:
    term.press("\r", "[H] Hit")
    term.press("q", "forfeit")
    term.press("y")


def ctrl_c(term: Term, server: Any) -> None:
    term.press("\r", "[H] Hit")
    term.press("\x03")


def server_gone(term: Term, server: Any) -> None:
    term.press("\r", "[H] Hit")
    server.send_signal(signal.SIGKILL)


def server_gone_at_bet(term: Term, server: Any) -> None:
    server.send_signal(signal.SIGKILL)


@pytest.mark.parametrize(
    "ending",
    [quit_at_bet, quit_mid_hand, ctrl_c]  # the server killed and gone: slow
    + [pytest.param(f, marks=pytest.mark.slow) for f in (server_gone, server_gone_at_bet)],
)
def test_every_ending_restores_the_terminal(server, ending):
    where = f"127.0.0.1:{server.port}"
    shell = (
        f'trap : INT; {CROUPIER} play --connect {where} --seed 5; echo "status $?"; '
        "stty -a | tr ' ;' '\\n\\n' | grep -x -- '-\\?echo\\|-\\?onlcr\\|-\\?icanon' | "
        "tr '\\n' ' '; echo '<modes'"
    )
    term = Term(shell=shell)
    term.wait_for("Your bet (1-100)")
    ending(term, server)
    assert term.finish() == 0
    modes = re.search(r"(\S.*) <modes", term.output())
    assert modes is not None, term.output()
    assert sorted(modes.group(1).split()) == ["echo", "icanon", "onlcr"]
    lines = term.text.splitlines()  # the shell's screen after the game: nothing staircased
    assert any(line.startswith("Thanks for playing. ") for line in lines), term.text
    assert any(re.match(r"status \d+$", line.rstrip()) for line in lines), term.text
