"""The words of the two decisions, spelled once.

The eldest stands or begs; the dealer, when the eldest begs, runs the cards or gives
one. Every table, chart, report and tuned policy names a role, its two options, their
difference and the chart of that difference through a ``Role`` here, so a word
changes in one place. Option 0 and option 1 are the kernels' flag values (a tuned
table's entry, the forced first decision of a paired deal); a difference is always
option 1 minus option 0.

>>> ELDEST.options, ELDEST.diff, ELDEST.diff_key, ELDEST.chart_file
(('stand', 'beg'), 'beg - stand', 'beg_minus_stand', 'beg-minus-stand.png')
>>> DEALER.options, DEALER.diff, DEALER.chart_stem
(('run', 'give'), 'give - run', 'give-minus-run')
>>> [role.forces(flag) for role in ROLES for flag in (0, 1)]
[(0, -1), (1, -1), (1, 0), (1, 1)]
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.decisions import FORCE_BEG, FORCE_GIVE, ROLE_DEALER, ROLE_ELDEST
from ..engine.layout import T_BEG, T_GIVE


@dataclass(frozen=True)
class Role:
    """One deciding seat and its two options."""

    name: str                 # the role's key in tables, JSON and --seat: "eldest" or "dealer"
    seat: str                 # the seat in prose: "the eldest", "the dealer"
    options: tuple[str, str]  # option 0 (flag 0), option 1 (flag 1)
    kernel: int               # engine.decisions.ROLE_*
    table: int                # offset of the tuned policy's table in a parameter row (engine.layout.T_*)

    @property
    def option0(self) -> str:
        return self.options[0]

    @property
    def option1(self) -> str:
        return self.options[1]

    @property
    def diff(self) -> str:
        """The difference's label: option 1 minus option 0."""
        return f"{self.option1} - {self.option0}"

    @property
    def diff_key(self) -> str:
        """The difference as a JSON key or column name."""
        return f"{self.option1}_minus_{self.option0}"

    @property
    def chart_stem(self) -> str:
        """File name (without .png) of the chart of the difference by hand class."""
        return f"{self.option1}-minus-{self.option0}"

    @property
    def chart_file(self) -> str:
        return f"{self.chart_stem}.png"

    def forces(self, flag: int) -> tuple[int, int]:
        """(force_beg, force_give) that make option `flag` the first decision of a line
        (-1 leaves that decision to the policy; the dealer answers only a beg)."""
        return int(FORCE_BEG[self.kernel, flag]), int(FORCE_GIVE[self.kernel, flag])


ELDEST = Role("eldest", "the eldest", ("stand", "beg"), ROLE_ELDEST, T_BEG)
DEALER = Role("dealer", "the dealer", ("run", "give"), ROLE_DEALER, T_GIVE)
ROLES = (ELDEST, DEALER)
ROLE = {role.name: role for role in ROLES}
ROLE_NAMES = tuple(ROLE)
# Every bid as a log event, with the role that makes it; and each role's options in the order a player is asked.
BID_EVENTS = {option: role.name for role in ROLES for option in role.options}
ASKED = {ELDEST.name: ELDEST.options, DEALER.name: (DEALER.option1, DEALER.option0)}
