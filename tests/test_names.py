"""Names that say one thing each: no two classes of ours share a name (an
exception, a notice's reason and a tracker's event were all ``NotACard``),
and an exception's name ends in ``Error`` where a reason or an event could
take the same words."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

from companion.notices import NotACard, NothingToUndo, StepRefused
from companion.session import NothingToUndoError
from ui.kivyfree.notice_words import notice_text

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("companion", "hardware", "incan_companion", "storage", "ui", "vision")


def _classes() -> dict[str, list[str]]:
    found: dict[str, list[str]] = defaultdict(list)
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                if isinstance(node, ast.ClassDef):
                    found[node.name].append(str(path.relative_to(ROOT)))
    return found


def test_no_two_classes_of_ours_share_a_name() -> None:
    twice = {name: where for name, where in _classes().items() if len(where) > 1}
    assert twice == {}


def test_a_reason_is_no_exception_and_the_exceptions_say_error() -> None:
    classes = _classes()
    assert classes["NotACardError"] == ["companion/cards.py"]
    assert classes["NothingToUndoError"] == ["companion/session.py"]
    assert classes["ForeignPlaced"] == ["vision/tracker.py"]
    assert not issubclass(NotACard, BaseException) and not issubclass(NothingToUndo, BaseException)


def test_the_sessions_refusal_to_undo_is_worded_by_its_name() -> None:
    # The table passes a refusal on by its class name (StepRefused.rule).
    refused = StepRefused(NothingToUndoError.__name__, "nothing to undo")
    assert notice_text(refused) == notice_text(NothingToUndo()) == "Nothing to undo."
