"""Where in the user's code something happened: the checker's own folders, the standard library
and installed packages are not the user's code."""

from __future__ import annotations

import sysconfig
import traceback
from pathlib import Path
from traceback import FrameSummary

NOT_USER_CODE = tuple({Path(sysconfig.get_paths()[kind]).resolve()
                       for kind in ("stdlib", "platstdlib", "purelib", "platlib")}
                      | {Path(__file__).resolve().parents[1] / package
                         for package in ("checker", "mechanisms", "obligations")})
"""Folders whose code is not the user's: the standard library, installed packages, dpcert."""


def user_location(error: BaseException) -> FrameSummary | None:
    """Where ``error`` happened in the user's code: the offending line of a ``SyntaxError``, else
    the last frame of its traceback that is not in the import machinery, the standard library,
    an installed package or dpcert itself (so a raise inside dpcert points at the user's call)."""
    if isinstance(error, SyntaxError) and error.filename and error.lineno:
        return FrameSummary(error.filename, error.lineno, "<module>",
                            line=(error.text or "").strip())
    frames = [frame for frame in traceback.extract_tb(error.__traceback__)
              if is_user_code(frame.filename)]
    return frames[-1] if frames else None


def is_user_code(filename: str) -> bool:
    """A frame's file is the user's: a real file outside :data:`NOT_USER_CODE`."""
    if filename.startswith("<"):  # <frozen importlib._bootstrap>, <string>
        return False
    file = Path(filename).resolve()
    return not any(file.is_relative_to(folder) for folder in NOT_USER_CODE)
