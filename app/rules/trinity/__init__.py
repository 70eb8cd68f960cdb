"""The Trinity Code 2.0: combat moves, range bands, advantage, karma, Luck, harm, stress and healing.

Its pages are templates/systems/trinity/{gm,player,table}.html; the rules are docs/rules/trinity.md.
"""

from app.rules.campaign.state import CampaignState
from app.rules.contract.deciders import all_but_the_table
from app.rules.contract.part import SystemPart, state_view
from app.rules.trinity.badges import badges
from app.rules.trinity.demo import DEMO
from app.rules.trinity.describe import DESCRIBERS
from app.rules.trinity.options import options
from app.rules.trinity.reducers import REDUCERS
from app.rules.trinity.state import LEGACY_SETTINGS, Settings, TrinityState, initial_ext
from app.rules.trinity.table import COMMANDS, parse_setup
from app.rules.trinity.view import view

# Its part of a view and its buttons: as held through the rolls and pool changes of the generic table.
OWN = all_but_the_table(CampaignState.model_fields)

SYSTEM = SystemPart(
    key="trinity",
    title="The Trinity Code 2.0",
    summary="Investigations and fights by range band: advantage, shared karma pools, Luck, harm and stress.",
    commands=COMMANDS,
    reducers=REDUCERS,
    describers=DESCRIBERS,
    ext_model=TrinityState,
    settings_model=Settings,
    legacy_settings=LEGACY_SETTINGS,
    initial_ext=initial_ext,
    parse_setup=parse_setup,
    options=options,
    view=state_view(view),
    deciders={"system": OWN},
    options_decider=OWN,
    badges=badges,
    docs="rules/trinity.md",
    demo=DEMO,
)

__all__ = ["SYSTEM"]
