"""Xceptional "5x5" combat (by Jeff Moore) on a tabletop measured in inches.

The system keeps its own turn order (Initiative each round, PCs first on a tie) and, with fog of war,
conceals from players the NPCs no conscious PC has in sight. Its pages live in templates/systems/fivebyfive/.
"""

from app.rules.campaign.state import CampaignState
from app.rules.contract.deciders import all_but_the_table
from app.rules.contract.part import SystemPart, state_view
from app.rules.fivebyfive.badges import badges, turn_of
from app.rules.fivebyfive.commands import COMMANDS
from app.rules.fivebyfive.demo import DEMO
from app.rules.fivebyfive.log import DESCRIBERS
from app.rules.fivebyfive.reducers import REDUCERS
from app.rules.fivebyfive.sheets import parse_setup
from app.rules.fivebyfive.state import LEGACY_SETTINGS, FiveState, Settings
from app.rules.fivebyfive.view import conceals, options, view

# Its part of a view and its buttons: as held through the rolls and pool changes of the generic table.
OWN = all_but_the_table(CampaignState.model_fields)

SYSTEM = SystemPart(
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
    legacy_settings=LEGACY_SETTINGS,
    initial_ext=lambda settings: FiveState(),
    parse_setup=parse_setup,
    options=options,
    view=state_view(view),
    deciders={"system": OWN},
    options_decider=OWN,
    owns_initiative=True,
    conceals=conceals,
    conceals_by=lambda viewer: viewer.is_gm,  # the party's fog of war: the same for every player
    board_spot=lambda state, viewer, x, y: True,  # the tabletop hides no place, only NPCs
    badges=badges,
    turn_of=turn_of,
    docs="rules/fivebyfive.md",
    demo=DEMO,
)

__all__ = ["SYSTEM"]
