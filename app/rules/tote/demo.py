"""The TOTE demo table: two heroes in armour from the game's table, a wolf pack and its leader."""

from app.rules.system import DemoScript

SPEAR = {"name": "Spear", "base": 2, "effect": 3, "critical": "pierce"}
AXE = {"name": "Axe", "base": 3, "effect": 2, "critical": "slash"}
BOW = {"name": "Bow", "base": 2, "effect": 2, "critical": "pierce", "ranged": True}
CLUB = {"name": "Club", "base": 2, "effect": 3, "critical": "bash"}
FANGS = {"name": "Fangs", "base": 2, "effect": 2, "critical": "slash"}

DEMO = DemoScript(
    name="Wolves at the Ford (TOTE)",
    players=("Ann", "Ben"),
    commands=(
        {"type": "campaign.add_participant", "name": "Aiyana", "kind": "pc", "owner": "@Ann"},
        {"type": "campaign.add_participant", "name": "Tahoma", "kind": "pc", "owner": "@Ben"},
        {"type": "campaign.add_participant", "name": "Grey Wolf", "kind": "npc"},
        {"type": "campaign.add_participant", "name": "Black Wolf", "kind": "npc"},
        {"type": "campaign.add_participant", "name": "Pack Leader", "kind": "npc"},
        {
            "type": "tote.hero",
            "participant": "Aiyana",
            "skills": {"plan": 2, "strike": 2, "shoot": 2, "brawl": 1, "impress": 1},
            "specialisations": {"shoot": 1},
            "totems": {"hawk": 3, "stag": 2, "bear": 1, "coyote": 1, "turtle": 1},
            "resolve": 8,
            "block": 8,
            "resist": 6,
            "armour": ["Hide Cuirass"],
            "weapons": [SPEAR, BOW],
        },
        {
            "type": "tote.hero",
            "participant": "Tahoma",
            "skills": {"plan": 1, "strike": 2, "shoot": 0, "brawl": 2, "impress": 2},
            "specialisations": {"strike": 1},
            "totems": {"hawk": 1, "stag": 3, "bear": 3, "coyote": 1, "turtle": 2},
            "resolve": 10,
            "block": 8,
            "resist": 5,
            "armour": ["Wooden Scale"],
            "weapons": [AXE, CLUB],
        },
        {
            "type": "tote.enemy",
            "participant": "Grey Wolf",
            "rating": 2,
            "block": 7,
            "resist": 6,
            "resolve": 4,
            "track": ["N", "3", "U"],
            "weapons": [FANGS],
            "group": "Wolves",
        },
        {
            "type": "tote.enemy",
            "participant": "Black Wolf",
            "rating": 2,
            "block": 7,
            "resist": 6,
            "resolve": 4,
            "track": ["N", "3", "U"],
            "weapons": [FANGS],
            "group": "Wolves",
        },
        {
            "type": "tote.enemy",
            "participant": "Pack Leader",
            "rating": 3,
            "block": 8,
            "resist": 7,
            "resolve": 6,
            "encumbrance": 2,
            "track": ["N", "5", "4", "U"],
            "weapons": [FANGS],
        },
        {
            "type": "campaign.encounter.prepare",
            "name": "Wolves at the ford",
            "participants": ["Aiyana", "Tahoma", "Grey Wolf", "Black Wolf", "Pack Leader"],
            "setup": {"distance": "close"},
        },
        {"type": "campaign.encounter.start", "encounter": "Wolves at the ford"},
    ),
)
