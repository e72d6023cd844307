"""The in-game menu: the rules a table forgets.

State in, frozen view model out; no Kivy.
"""

from __future__ import annotations

from companion.rules import RULE_SETS
from ui.kivyfree.i18n import _


def rules_reminder(rules: str) -> str:
    """The rules a table forgets, for the menu: artifacts and leftovers under ``rules``."""
    rule_set = RULE_SETS[rules]
    lines = [_("A second hazard of one kind ends the round: everyone still in the temple "
               "loses the gems in hand.")]
    if not rule_set.artifacts:
        lines.append(_("No artifacts in this game."))
    elif rule_set.printed_artifact_values:
        lines.append(_("Artifacts keep their printed values: 5, 7, 8, 10 and 12. Only a seat "
                       "that leaves alone takes them."))
    else:
        lines.append(_("Artifacts: the first three carried out are worth 5 each, every later "
                       "one 10. Only a seat that leaves alone takes them."))
    if rule_set.pooled:
        lines.append(_("Leftovers: seats that leave together share all the gems left on the "
                       "path; what does not divide stays on the path."))
    else:
        lines.append(_("Leftovers: seats that leave together split each card's gems on its "
                       "own; what does not divide stays on that card."))
    return "\n".join(lines)
