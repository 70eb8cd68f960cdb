"""Triptycho, Chapter 4: Combat — battle maps of sections, sight, movement, cards and dice levels.

The system keeps its own turn order (`triptycho.initiative`, `triptycho.order`, `triptycho.next_turn`) so
that an adversary no player's character can see is never named in the order or the log (TP-I-6).
"""

from app.rules.campaign.state import CampaignState
from app.rules.contract.deciders import all_but_the_table
from app.rules.contract.part import SystemPart, state_view
from app.rules.triptycho.badges import badges, turn_of
from app.rules.triptycho.commands import COMMANDS
from app.rules.triptycho.demo import DEMO
from app.rules.triptycho.options import options
from app.rules.triptycho.reducers import REDUCERS
from app.rules.triptycho.setup import parse_setup
from app.rules.triptycho.state import Settings, TriptychoState, initial_ext
from app.rules.triptycho.view import DESCRIBERS, spot_seen, view
from app.rules.triptycho.world import concealed

# Its part of a view and its buttons: as held through the rolls and pool changes of the generic table.
OWN = all_but_the_table(CampaignState.model_fields)

SYSTEM = SystemPart(
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
    view=state_view(view),
    deciders={"system": OWN},
    options_decider=OWN,
    owns_initiative=True,
    conceals=concealed,
    board_spot=spot_seen,
    badges=badges,
    turn_of=turn_of,
    docs="rules/triptycho.md",
    demo=DEMO,
)

__all__ = ["SYSTEM"]
