"""The generic tabletop every campaign has: free rolls, roll buttons, pools, tracks, initiative.

A campaign created with `"system": "generic"` has only these (and the campaign core).
"""

from app.rules.contract.part import SystemPart, state_view
from app.rules.generic.badges import badges, turn_of
from app.rules.generic.demo import DEMO
from app.rules.generic.reducers import REDUCERS
from app.rules.generic.table import COMMANDS
from app.rules.generic.view import DECIDERS, DESCRIBERS, OPTIONS_DECIDER, options, view

SYSTEM = SystemPart(
    key="generic",
    title="Generic tabletop",
    summary="Free dice rolls, custom pools and tracks, an initiative order: any game, no rules enforced.",
    commands=COMMANDS,
    reducers=REDUCERS,
    describers=DESCRIBERS,
    options=options,
    view=state_view(view),
    view_key=None,  # the tabletop every campaign has: its keys at the top of the view
    deciders=DECIDERS,
    options_decider=OPTIONS_DECIDER,
    badges=badges,
    turn_of=turn_of,
    docs="rules/generic.md",
    demo=DEMO,
)
