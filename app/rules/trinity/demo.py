"""The Trinity Code demo table: two investigators with the catalogue's demo gear against a cult."""

from app.rules.system import DemoScript

PISTOL = {"name": "pistol", "harm": 2, "kind": "ranged", "tags": ["close", "medium"], "ammo": 6, "spares": 2}
RIFLE = {"name": "rifle", "harm": 3, "kind": "ranged", "tags": ["medium"], "ammo": 5, "spares": 1}
ARMOUR = {"name": "tactical armour", "armour": 2, "threshold": 6}
POTION = {"name": "healing potion", "heal": 2, "timing": "instant", "consumable": 2}

DEMO = DemoScript(
    name="The Hollow Chapel (The Trinity Code 2.0)",
    players=("Ann", "Ben"),
    commands=(
        {"type": "campaign.add_participant", "name": "Aria", "kind": "pc", "owner": "@Ann"},
        {"type": "campaign.add_participant", "name": "Brick", "kind": "pc", "owner": "@Ben"},
        {"type": "campaign.add_participant", "name": "Cultist", "kind": "npc"},
        {"type": "campaign.add_participant", "name": "Ghoul", "kind": "npc", "notes": "Hates light."},
        {
            "type": "trinity.setup_character",
            "character": "Aria",
            "power": 0,
            "quickness": 2,
            "cool": 1,
            "wits": 1,
            "luck": 8,
            "out_of_luck": "Your contacts stop answering.",
            "armour": ARMOUR,
            "weapons": [PISTOL],
            "items": [POTION],
        },
        {
            "type": "trinity.setup_character",
            "character": "Brick",
            "power": 2,
            "quickness": 1,
            "cool": 0,
            "wits": -1,
            "luck": 8,
            "weapons": [RIFLE, {"name": "crowbar", "harm": 2, "kind": "melee"}],
        },
        {
            "type": "trinity.setup_opponent",
            "opponent": "Cultist",
            "harm": 2,
            "harm_limit": 3,
            "attack": "ranged",
        },
        {
            "type": "trinity.setup_opponent",
            "opponent": "Ghoul",
            "harm": 3,
            "harm_limit": 5,
            "attack": "melee",
            "armour": {"name": "hide", "armour": 1},
        },
        {"type": "trinity.add_karma", "pool": "good", "amount": 1},
        {"type": "trinity.add_karma", "pool": "bad", "amount": 3},
        {
            "type": "campaign.encounter.prepare",
            "name": "The chapel doors",
            "participants": ["Aria", "Brick", "Cultist", "Ghoul"],
            "setup": {
                "advantage": "none",
                "bands": [
                    {"character": "Aria", "opponent": "Cultist", "band": "medium"},
                    {"character": "Aria", "opponent": "Ghoul", "band": "close"},
                    {"character": "Brick", "opponent": "Cultist", "band": "medium"},
                    {"character": "Brick", "opponent": "Ghoul", "band": "medium"},
                ],
            },
        },
        {"type": "campaign.encounter.start", "encounter": "The chapel doors"},
    ),
)
