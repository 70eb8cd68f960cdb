"""The 5x5 demo table: two PCs (with the seed's own numbers) against two NPCs across a wall."""

from app.rules.system import DemoScript

DEMO = DemoScript(
    name="Rooftop Rumble (Xceptional 5x5)",
    players=("Ann", "Ben"),
    commands=(
        {"type": "campaign.add_participant", "name": "Aria", "kind": "pc", "owner": "@Ann"},
        {"type": "campaign.add_participant", "name": "Brick", "kind": "pc", "owner": "@Ben"},
        {"type": "campaign.add_participant", "name": "Thug", "kind": "npc"},
        {"type": "campaign.add_participant", "name": "Mindbender", "kind": "npc"},
        # The seed's examples: Strike 2 x Rage 3 needs 6 or less; Resist 1 x Precognition 2 needs 2 or less.
        {
            "type": "fivebyfive.setup",
            "participant": "Aria",
            "rage": 3,
            "grace": 2,
            "precognition": 2,
            "strike": 2,
            "aim": 1,
            "focus": 0,
            "parry": 2,
            "dodge": 1,
            "resist": 1,
        },
        {
            "type": "fivebyfive.setup",
            "participant": "Brick",
            "rage": 2,
            "grace": 3,
            "precognition": 3,
            "strike": 1,
            "aim": 2,
            "focus": 2,
            "parry": 1,
            "dodge": 2,
            "resist": 2,
        },
        {
            "type": "fivebyfive.setup",
            "participant": "Thug",
            "rage": 3,
            "grace": 2,
            "precognition": 1,
            "strike": 2,
            "aim": 1,
            "parry": 2,
            "dodge": 1,
        },
        {
            "type": "fivebyfive.setup",
            "participant": "Mindbender",
            "rage": 1,
            "grace": 2,
            "precognition": 4,
            "focus": 2,
            "dodge": 1,
            "resist": 3,
        },
        {
            "type": "campaign.encounter.prepare",
            "name": "Rooftop",
            "participants": ["Aria", "Brick", "Thug", "Mindbender"],
            "setup": {
                "board": {"width": 36, "height": 24},
                "terrain": [
                    {"name": "Water tower", "rect": {"x": 16, "y": 8, "width": 4, "height": 8}},
                    {"name": "Skylight", "points": [[6, 18], [10, 18], [8, 22]], "solid": False},
                ],
                "tokens": {"Aria": [4, 12], "Brick": [5, 4], "Thug": [24, 12], "Mindbender": [30, 20]},
            },
        },
        {"type": "campaign.encounter.start", "encounter": "Rooftop"},
    ),
)
