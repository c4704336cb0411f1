"""Why an action was refused: in words a child understands, with the rule it enforces."""

from __future__ import annotations


class RuleViolation(Exception):
    """An action the rules forbid. Nothing changed.

    ``message`` is a plain sentence for the table; ``section`` names the rulebook
    section (or our documented interpretation) that forbids it.

    >>> e = RuleViolation("It is Mark's turn, not Julie's.", "Game Play")
    >>> str(e)
    "It is Mark's turn, not Julie's. (Rulebook: Game Play)"
    """

    def __init__(self, message: str, section: str = "") -> None:
        self.message = message
        self.section = section
        super().__init__(f"{message} (Rulebook: {section})" if section else message)


class Contradiction(RuleViolation):
    """A sighting disagrees with what is already recorded (the same card at two places,
    or a slot recorded as another card). Resend the action with ``confirm=True`` when the
    family says the new sighting is right: the old record is then dropped."""


class BadInput(RuleViolation):
    """An action that names something that does not exist (unknown card, slot, player)."""
