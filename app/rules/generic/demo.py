"""The generic demo table: two PCs, a hidden goblin boss, pools, tracks, roll buttons, a fight."""

from app.rules.system import DemoScript

DEMO = DemoScript(
    name="Goblin Ambush (generic tabletop)",
    players=("Ann", "Ben"),
    commands=(
        {"type": "campaign.add_participant", "name": "Aria", "kind": "pc", "owner": "@Ann"},
        {"type": "campaign.add_participant", "name": "Brick", "kind": "pc", "owner": "@Ben"},
        {
            "type": "campaign.add_participant",
            "name": "Goblin Boss",
            "kind": "npc",
            "hidden": True,
            "notes": "AC 15, 21 hp. Flees below 5 hp.",
        },
        {"type": "campaign.add_participant", "name": "Goblin", "kind": "npc"},
        {"type": "generic.pool.create", "name": "Good Karma", "value": 0, "min": 0},
        {"type": "generic.pool.create", "name": "Bad Karma", "value": 2, "min": 0, "gm_only": True},
        {"type": "generic.pool.create", "name": "Luck", "value": 8, "min": 0, "owner": "Aria"},
        {"type": "generic.pool.create", "name": "Luck", "value": 8, "min": 0, "owner": "Brick"},
        {"type": "generic.track.create", "name": "Harm", "total": 7, "owner": "Aria"},
        {"type": "generic.track.create", "name": "Harm", "total": 7, "owner": "Brick"},
        {"type": "generic.track.create", "name": "Harm", "total": 3, "owner": "Goblin"},
        {"type": "generic.preset.create", "label": "Attack", "expression": "2d6+1", "target": 10},
        {"type": "generic.preset.create", "label": "Dodge", "expression": "2d6", "target": 7},
        {
            "type": "campaign.encounter.prepare",
            "name": "Ambush at the ford",
            "participants": ["Aria", "Brick", "Goblin", "Goblin Boss"],
        },
        {"type": "campaign.encounter.start", "encounter": "Ambush at the ford"},
        {
            "type": "generic.initiative.set",
            "entries": [
                {"participant": "Aria", "value": 14},
                {"participant": "Goblin", "value": 11},
                {"participant": "Brick", "value": 9},
            ],
        },
    ),
)
