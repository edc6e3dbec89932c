"""Type-check the four source folders as the ``croupier.*`` packages they install as.

mypy maps files to modules by folder, and ``engine/`` installs as ``croupier.engine``
(pyproject's package-dir), so this builds a throwaway tree of links with that shape and
runs mypy on it with the project's configuration.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("engine", "plugins", "protocol", "clients")

with tempfile.TemporaryDirectory() as tmp:
    package = Path(tmp) / "croupier"
    package.mkdir()
    for folder in FOLDERS:
        (package / folder).symlink_to(ROOT / folder, target_is_directory=True)
    args = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml")]
    for folder in FOLDERS:
        args += ["-p", f"croupier.{folder}"]
    sys.exit(subprocess.run(args, cwd=tmp).returncode)
