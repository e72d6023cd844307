"""The suite's own lists name files and tests that exist: a renamed file would
drop out of them without a word (no longer marked slow, no longer first)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import LONGEST_FIRST, SLOW

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("listed", [*SLOW, *LONGEST_FIRST])
def test_every_listed_file_and_test_exists(listed: str) -> None:
    path, _, name = listed.partition("::")
    assert (ROOT / path).is_file(), path
    if name:
        assert f"def {name}" in (ROOT / path).read_text(encoding="utf-8"), listed


def test_no_file_is_listed_twice_in_the_order() -> None:
    assert len(set(LONGEST_FIRST)) == len(LONGEST_FIRST)
