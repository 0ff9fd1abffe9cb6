"""The Vega libraries' JavaScript bundle, kept on disk between processes.

Every offline page, report and notebook output holds vega, vega-lite and vega-embed as one
script, which vl-convert bundles on request: about 1.5 s, paid again by every new process
that saves HTML. The bundle depends only on vl-convert's version, the Vega-Lite version and
the embedding snippet, so it is kept in the user's cache folder under a name made of them,
and read back in milliseconds.

- The folder is ``$COSTCHART_CACHE_DIR`` if set, else the platform's user cache folder
  (``$XDG_CACHE_HOME/costchart`` or ``~/.cache/costchart`` on Linux,
  ``~/Library/Caches/costchart`` on macOS, ``%LOCALAPPDATA%/costchart/Cache`` on Windows).
  ``COSTCHART_CACHE_DIR=""`` turns the cache off.
- Each file starts with the SHA-256 of the rest; a file that does not match (cut short,
  changed) is bundled again and replaced. Files are written whole (a temporary file
  renamed), so two processes never read half a file.
- Where the folder cannot be made, read or written (a read-only home, a full disk), the
  bundle is made in memory as before: the cache can make saving faster, never make it fail.
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

__all__ = ["cache_folder", "cached_bundle"]

#: The environment variable naming the cache folder ("" turns the cache off).
ENVIRONMENT = "COSTCHART_CACHE_DIR"


def cache_folder() -> Path | None:
    """The folder the bundles are kept in, or ``None`` when the cache is off."""
    chosen = os.environ.get(ENVIRONMENT)
    if chosen is not None:
        return Path(chosen).expanduser() if chosen.strip() else None
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA")
        return Path(base) / "costchart" / "Cache" if base else None
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "costchart"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "costchart"


def cached_bundle(key: tuple[str, ...], make: Callable[[], str]) -> str:
    """The bundle for ``key`` from the cache folder, or ``make()`` (and kept there).

    ``key`` holds what the bundle depends on (versions and the snippet); ``make`` bundles.
    """
    try:
        folder = cache_folder()
    except (RuntimeError, OSError):  # no home folder to find (e.g. an unknown ~user)
        folder = None
    if folder is None:
        return make()
    digest = hashlib.sha256("\0".join(key).encode()).hexdigest()[:24]
    path = folder / f"vega-bundle-{digest}.js"
    found = _read(path)
    if found is not None:
        return found
    code = make()
    _write(path, code)
    return code


def _read(path: Path) -> str | None:
    """The bundle kept at ``path``, or ``None`` if absent, unreadable or not whole."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    check, _, code = text.partition("\n")
    if check != "// sha256 " + hashlib.sha256(code.encode()).hexdigest():
        return None
    return code


def _write(path: Path, code: str) -> None:
    """Keep ``code`` at ``path``, whole or not at all; failures are silent."""
    text = "// sha256 " + hashlib.sha256(code.encode()).hexdigest() + "\n" + code
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".vega-bundle-")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                file.write(text)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError:
        return
