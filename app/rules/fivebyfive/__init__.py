"""Xceptional "5x5" combat (by Jeff Moore) on a tabletop measured in inches.

Exported as DRAFT_SYSTEM until its pages exist: the registry only lists packages exporting SYSTEM.
"""

from app.rules.fivebyfive.commands import COMMANDS
from app.rules.fivebyfive.demo import DEMO
from app.rules.fivebyfive.log import DESCRIBERS
from app.rules.fivebyfive.reducers import REDUCERS
from app.rules.fivebyfive.sheets import parse_setup
from app.rules.fivebyfive.state import FiveState, Settings
from app.rules.fivebyfive.view import options, view
from app.rules.system import SystemPart

DRAFT_SYSTEM = SystemPart(
    key="fivebyfive",
    title='Xceptional "5x5"',
    summary=(
        "Rage, Grace and Precognition times Combat Rank on two d5 multiplied; Control the Hit, "
        "choose the damage, Double Hits and Instant KOs, on a tabletop measured in inches."
    ),
    commands=COMMANDS,
    reducers=REDUCERS,
    describers=DESCRIBERS,
    ext_model=FiveState,
    settings_model=Settings,
    initial_ext=lambda settings: FiveState(),
    parse_setup=parse_setup,
    options=options,
    view=view,
    docs="rules/fivebyfive.md",
    demo=DEMO,
)

__all__ = ["DRAFT_SYSTEM"]
