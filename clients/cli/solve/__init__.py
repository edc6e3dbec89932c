"""Front ends of ``croupier solve NAME`` kept in the command line: blackjack's (its
exact solver, index generation and ``--by-sim`` measurement share the client's rule flags,
index sets and plots). A game's own front end comes from its plugin
(``croupier_command_lines``: baccarat, Three Card Poker, Minesweeper); solvers without one
(third-party ones) are reached through ``croupier solve call NAME PROBLEM_JSON``.
"""
