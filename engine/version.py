"""croupier's installed version, in a module of its own so that engine modules can name it
without importing the engine's package (which imports them: a circle)."""

from importlib import metadata


def _installed() -> str:
    try:
        return metadata.version("croupier")
    except metadata.PackageNotFoundError:  # running from a checkout that was never installed
        return "0+unknown"


__version__ = _installed()
"""croupier's version, as installed (``0+unknown`` in a checkout that never was)."""
