"""The three rule sets a table can choose (docs/rules.md, "Rule sets")."""

from __future__ import annotations

from dataclasses import dataclass


class UnknownRules(ValueError):
    """A rule set name we do not know."""


@dataclass(frozen=True)
class RuleSet:
    """A rule set: whether artifacts are played, leftovers pooled, artifacts at
    their printed values."""

    name: str
    artifacts: bool
    pooled: bool
    printed_artifact_values: bool

    def artifact_value(self, printed: int, carried_before: int) -> int:
        """What an artifact is worth when it is the (carried_before + 1)-th carried out."""
        if self.printed_artifact_values:
            return printed
        return 5 if carried_before < 3 else 10


INCAN_GOLD = RuleSet("incan-gold", artifacts=True, pooled=True, printed_artifact_values=False)
INCAN_GOLD_2020 = RuleSet(
    "incan-gold-2020", artifacts=True, pooled=True, printed_artifact_values=True
)
DIAMANT = RuleSet("diamant", artifacts=False, pooled=False, printed_artifact_values=False)

RULE_SETS: dict[str, RuleSet] = {r.name: r for r in (INCAN_GOLD, INCAN_GOLD_2020, DIAMANT)}
DEFAULT_RULES = INCAN_GOLD.name


def rule_set(name: object) -> RuleSet:
    if isinstance(name, str) and name in RULE_SETS:
        return RULE_SETS[name]
    raise UnknownRules(f"unknown rules {name!r} (one of {', '.join(RULE_SETS)})")
