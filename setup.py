"""Finds croupier's packages, so that a new folder (a built-in game, its web page or data)
ships without an edit here or in pyproject.toml.

The four top-level folders install as subpackages of the ``croupier`` namespace
(``engine/`` -> ``croupier.engine``, see ``package-dir`` in pyproject.toml). Every folder
below them is a package, those of data files (web pages, tables) included: setuptools ships
a folder's files only as package data of the package the folder is. A game's own tests
(``plugins/<game>/tests/``) do not ship.
"""

from setuptools import find_namespace_packages, setup

TOP = ("engine", "plugins", "protocol", "clients")

setup(
    packages=[
        f"croupier.{name}"
        for name in find_namespace_packages(
            include=[*TOP, *(f"{top}.*" for top in TOP)],
            exclude=["*.__pycache__", "*.tests", "*.tests.*"],  # a game's own tests stay home
        )
    ]
)
