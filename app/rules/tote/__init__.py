"""TOTE (Tales from the Torn Earth) combat 1.1: Initiative spent on declared actions, engagement,
to-hit against Block, Effect tests, criticals by weapon type and the injury track that blocks faces.

TOTE keeps its own turn order (`owns_initiative`): Initiative bars, the Declaration and Resolution
phases, engagement lines and the Distance band are drawn by templates/systems/tote/.
"""

from app.rules.campaign.state import CampaignState
from app.rules.contract.deciders import all_but_the_table
from app.rules.contract.part import SystemPart, state_view
from app.rules.tote.badges import badges, turn_of
from app.rules.tote.commands import COMMANDS
from app.rules.tote.demo import DEMO
from app.rules.tote.log import DESCRIBERS
from app.rules.tote.model import Settings, ToteState, initial_ext
from app.rules.tote.options import options
from app.rules.tote.reducers import REDUCERS
from app.rules.tote.setup import parse_setup
from app.rules.tote.view import view

# Its part of a view and its buttons: as held through the rolls and pool changes of the generic table.
OWN = all_but_the_table(CampaignState.model_fields)

SYSTEM = SystemPart(
    key="tote",
    title="TOTE (Tales from the Torn Earth)",
    summary="Initiative as a currency: declare lowest first, resolve highest first; engagement, "
    "Block and Resist, criticals by weapon, injuries that take faces off your dice.",
    commands=COMMANDS,
    reducers=REDUCERS,
    describers=DESCRIBERS,
    ext_model=ToteState,
    settings_model=Settings,
    initial_ext=initial_ext,
    parse_setup=parse_setup,
    options=options,
    view=state_view(view),
    deciders={"system": OWN},
    options_decider=OWN,
    badges=badges,
    turn_of=turn_of,
    docs="rules/tote.md",
    demo=DEMO,
    owns_initiative=True,
)

__all__ = ["SYSTEM"]
