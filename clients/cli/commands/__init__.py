"""Subcommands. Each module defines ``register(subparsers)``; ``main`` finds them all."""
