"""Triptycho, Chapter 4: Combat — battle maps of sections, sight, movement, cards and dice levels.

Exported as DRAFT_SYSTEM until its pages exist (the registry lists packages exporting SYSTEM).
"""

from app.rules.system import SystemPart
from app.rules.triptycho.commands import COMMANDS
from app.rules.triptycho.demo import DEMO
from app.rules.triptycho.options import options
from app.rules.triptycho.reducers import REDUCERS
from app.rules.triptycho.setup import parse_setup
from app.rules.triptycho.state import Settings, TriptychoState, initial_ext
from app.rules.triptycho.view import DESCRIBERS, view

DRAFT_SYSTEM = SystemPart(
    key="triptycho",
    title="Triptycho (Chapter 4: Combat)",
    summary="Battle maps of sections with light, height and water; cards, dice levels, reactions.",
    commands=COMMANDS,
    reducers=REDUCERS,
    describers=DESCRIBERS,
    ext_model=TriptychoState,
    settings_model=Settings,
    initial_ext=initial_ext,
    parse_setup=parse_setup,
    options=options,
    view=view,
    docs="rules/triptycho.md",
    demo=DEMO,
)

__all__ = ["DRAFT_SYSTEM"]
