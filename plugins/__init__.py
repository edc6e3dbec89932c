"""croupier's built-in plugins.

Each module here is a plugin registered as an entry point of the ``croupier`` distribution
(see ``[project.entry-points.croupier]`` in pyproject.toml). Plugins reach the engine only
through ``croupier.engine``'s public API and its hooks.
"""
