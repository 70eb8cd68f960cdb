"""The Triptycho demo table: two PCs and two adversaries in the dark cave below a cliff.

The three sample maps (the seed's hallway, the chasm, the cliff in a dark cave) are saved in every new
Triptycho campaign; this fight is on the cliff.
"""

from __future__ import annotations

from app.rules.system import DemoScript

SWORD = {"id": "slash", "name": "Slash", "hit": "1d8", "damage": "1d8", "hostile": True, "gear": "weapon"}
SPEAR = {
    "id": "thrust",
    "name": "Spear Thrust",
    "reach": 1,
    "hit": "1d6",
    "damage": "1d8",
    "hostile": True,
    "gear": "weapon",
    "weapon_type": "spear",
}
BOW = {
    "id": "shot",
    "name": "Longbow Shot",
    "range": 3,
    "hit": "1d8",
    "damage": "1d6",
    "hostile": True,
    "gear": "weapon",
}
PARRY = {
    "id": "parry",
    "name": "Parry",
    "kind": "reaction",
    "miss": "1d6",
    "defense": "1d4",
    "gear": "shield",
}
DODGE = {"id": "dodge", "name": "Dodge", "kind": "reaction", "miss": "1d8"}
DASH = {"id": "dash", "name": "Dash", "move": 2, "text": "Move 2."}
LEAP = {"id": "leap", "name": "Leap", "move": 1, "height": 2, "text": "Move 1 with Height 2."}
RALLY = {"id": "rally", "name": "Rally", "kind": "strategy", "text": "An ally may Move 1."}
FIREBOLT = {
    "id": "firebolt",
    "name": "Firebolt",
    "range": 3,
    "incantation": 1,
    "hit": "2d6",
    "damage": "2d6",
    "hostile": True,
}
FLAMES = {
    "id": "flames",
    "name": "Ring of Flames",
    "area": "enemies",
    "range": 2,
    "incantation": 2,
    "hit": "1d8",
    "damage": "1d6",
    "hostile": True,
}
CLAWS = {"id": "claws", "name": "Claws", "hit": "1d6", "damage": "1d6", "hostile": True}
SPIT = {"id": "spit", "name": "Spit", "thrown": 2, "hit": "1d6", "damage": "1d4", "hostile": True}
HIDE = {"id": "hide", "name": "Scuttle", "kind": "reaction", "miss": "1d6"}

DEMO = DemoScript(
    name="Beneath the Cliff (Triptycho)",
    players=("Ann", "Ben"),
    commands=(
        {"type": "campaign.add_participant", "name": "Aria", "kind": "pc", "owner": "@Ann"},
        {"type": "campaign.add_participant", "name": "Brick", "kind": "pc", "owner": "@Ben"},
        {
            "type": "triptycho.setup",
            "participant": "Aria",
            "low_light": True,
            "acrobatics": "1d8",
            "initiative": "1d8",
            "health": 12,
            "cards": [BOW, DODGE, DASH, LEAP, FIREBOLT, RALLY],
            "deck": ["shot", "shot", "dodge", "dodge", "dash", "leap", "firebolt", "rally"],
        },
        {
            "type": "triptycho.setup",
            "participant": "Brick",
            "acrobatics": "1d6",
            "initiative": "1d6",
            "health": 16,
            "cards": [SWORD, SPEAR, PARRY, DASH, FLAMES],
            "deck": ["slash", "slash", "thrust", "parry", "parry", "dash", "flames"],
        },
        # Adversaries are added quietly: the players learn of them when their characters see them.
        {
            "type": "triptycho.add",
            "name": "Cave Crawler",
            "side": "foes",
            "size": "large",
            "darkvision": True,
            "light_sensitive": True,
            "health": 10,
            "cards": [CLAWS, HIDE],
        },
        {
            "type": "triptycho.add",
            "name": "Spitter",
            "side": "foes",
            "darkvision": True,
            "aquatic": True,
            "health": 6,
            "cards": [SPIT, HIDE],
        },
        {
            "type": "campaign.encounter.prepare",
            "name": "Beneath the cliff",
            "participants": ["Aria", "Brick", "Cave Crawler", "Spitter"],
            "setup": {
                "map": "cliff",
                "placements": {
                    "Aria": ["mouth"],
                    "Brick": ["mouth"],
                    "Cave Crawler": ["floor"],
                    "Spitter": ["pool"],
                },
            },
        },
        {"type": "campaign.encounter.start", "encounter": "Beneath the cliff"},
        {"type": "triptycho.deal"},
        {"type": "triptycho.initiative"},
    ),
)
