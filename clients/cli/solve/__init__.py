"""Front ends of ``croupier solve NAME``: one module per solver with its own options.

A module here defines ``register(subparsers)`` and adds one parser named after its solver.
Solvers without a module of their own (third-party ones) are reached through
``croupier solve call NAME PROBLEM_JSON``.
"""
