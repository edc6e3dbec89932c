"""The ``croupier`` command line: one module per subcommand in ``commands/``."""
