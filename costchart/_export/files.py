"""Output paths and writing files: every failure of the file system as one worded error.

:func:`save`, :func:`report` and the command line's ``--out`` share these, so a path is
refused the same way wherever it is given: :func:`output_path` checks a file's name and
folder before any work, :func:`write_file` writes it and :func:`make_folder` makes a
folder. An :class:`OSError` becomes a :class:`~costchart.CostchartError` naming the
parameter (``name``: ``path`` for the library, ``--out`` for the command line), the path,
what the file system said and the fix (:func:`os_error`).
"""

from __future__ import annotations

import errno
from collections.abc import Sequence
from os import PathLike
from pathlib import Path

from costchart._io.errors import CostchartError

__all__ = ["make_folder", "os_error", "output_path", "write_file"]

#: What to do about each refusal of the file system (by errno); others get the generic fix.
_FIXES = {
    errno.EEXIST: "it already exists as a file; pass the name of a new or existing folder",
    errno.ENOTDIR: "a part of it is a file, not a folder; pass a path in an existing folder",
    errno.EISDIR: "it is a folder; pass a file name",
    errno.EACCES: "permission denied; pass a path in a folder you can write to",
    errno.EPERM: "permission denied; pass a path in a folder you can write to",
    errno.EROFS: "the file system is read-only; pass a path on a writable disk",
    errno.ENOSPC: "the disk is full; free some space or pass a path on another disk",
    errno.ENAMETOOLONG: "File name too long; pass a shorter file name",
}


def _named(path, name: str | None) -> str:
    """``'x.csv'`` for the library (whose messages say ``path=`` elsewhere), ``--out 'x.csv'``."""
    return f"{name} {str(path)!r}" if name else repr(str(path))


def os_error(error: OSError, path, *, name: str | None = None, doing: str = "write") -> str:
    """The message of a file system's refusal: the option, the path, the reason and the fix.

    Examples
    --------
    >>> import errno
    >>> os_error(OSError(errno.EROFS, "Read-only file system"), "/ro/x.csv", name="--out")
    "cannot write --out '/ro/x.csv': the file system is read-only; pass a path on a writable disk"
    """
    fix = None if error.errno is None else _FIXES.get(error.errno)
    path = Path(path)
    if fix is None and error.errno == errno.ENOENT and not path.parent.is_dir():
        fix = f"the folder {str(path.parent)!r} does not exist; create it first"
    if fix is None:
        reason = error.strerror or type(error).__name__
        thing = "file name" if doing == "write" else "folder name"
        fix = f"{reason}; pass a {thing} the file system accepts, in a folder you can write to"
    return f"cannot {doing} {_named(path, name)}: {fix}"


def output_path(path, suffixes: Sequence[str], *, name: str | None = None, other: str = "") -> Path:
    """``path`` as a Path with one of ``suffixes``, in an existing folder, not a folder.

    ``name`` is the option that gave the path (``--out``); the library says ``path=``.
    ``other`` ends the message refusing a suffix (the command line's ``--out -``).
    """
    given = name or "path="
    if not isinstance(path, (str, PathLike)):
        msg = f"{given}{path!r} must be a file name (a str or pathlib.Path)"
        raise CostchartError(msg)
    path = Path(path)
    shown = f"{name} {str(path)!r}" if name else f"path={str(path)!r}"
    suffix = path.suffix.lower()
    if "\0" in str(path):
        msg = f"{shown} holds a null character, which no file name can; remove it"
        raise CostchartError(msg)
    try:
        is_folder, parent_exists = path.is_dir(), path.parent.is_dir()
        parent_is_file = path.parent.exists() and not parent_exists
    except OSError as error:  # e.g. a name longer than the file system allows
        raise CostchartError(os_error(error, path, name=name)) from None
    if is_folder:
        msg = f"{shown} is a folder; pass a file name such as {str(path / 'chart.html')!r}"
        raise CostchartError(msg)
    if suffix not in suffixes:
        msg = (
            f"cannot tell the format of {_named(path, name)} from its suffix {suffix!r}; "
            f"end it in {', '.join(suffixes)}{other}"
        )
        raise CostchartError(msg)
    if parent_is_file:
        msg = (
            f"cannot write {_named(path, name)}: {str(path.parent)!r} is a file, not a folder; "
            "pass a path in an existing folder"
        )
        raise CostchartError(msg)
    if not parent_exists:
        home = ""
        if str(path).startswith("~"):  # a shell expands ~; Python does not
            home = f" (Python does not expand '~': pass {str(path.expanduser())!r})"
        msg = (
            f"cannot write {_named(path, name)}: the folder {str(path.parent)!r} does not "
            f"exist; create it first{home}"
        )
        raise CostchartError(msg)
    return path


def write_file(path: Path, content: str | bytes, *, name: str | None = None) -> None:
    """Write ``content`` to ``path``, or say plainly why the file system refused it."""
    try:
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    except OSError as error:
        raise CostchartError(os_error(error, path, name=name)) from None


def make_folder(path: Path, *, name: str | None = None) -> Path:
    """Make the folder ``path`` (and its parents) unless it exists; refusals worded."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        refusal = error
        if path.exists() and not path.is_dir():
            refusal = FileExistsError(errno.EEXIST, "File exists")
        message = os_error(refusal, path, name=name, doing="make the folder")
        raise CostchartError(message) from None
    return path
