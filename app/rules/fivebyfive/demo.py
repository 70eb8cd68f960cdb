"""The 5x5 demo table: two PCs (with the seed's own numbers) against two NPCs across a water tower.

The characters come in through the GM's JSON import, so the Mindbender, out of the PCs' sight behind
the tower, stays unknown to the players until someone sees it (fog of war).
"""

from app.rules.system import DemoScript

ARIA = {"rage": 3, "grace": 2, "precognition": 2, "strike": 2, "aim": 1, "focus": 0}
ARIA |= {"parry": 2, "dodge": 1, "resist": 1}
BRICK = {"rage": 2, "grace": 3, "precognition": 3, "strike": 1, "aim": 2, "focus": 2}
BRICK |= {"parry": 1, "dodge": 2, "resist": 2}
THUG = {"rage": 3, "grace": 2, "precognition": 1, "strike": 2, "aim": 1, "parry": 2, "dodge": 1}
MINDBENDER = {"rage": 1, "grace": 2, "precognition": 4, "focus": 2, "dodge": 1, "resist": 3}

DEMO = DemoScript(
    name="Rooftop Rumble (Xceptional 5x5)",
    players=("Ann", "Ben"),
    commands=(
        # The seed's examples: Strike 2 x Rage 3 needs 6 or less; Resist 1 x Precognition 2 needs 2 or less.
        {
            "type": "fivebyfive.import",
            "characters": [
                {"name": "Aria", "kind": "pc", "player": "Ann", **ARIA},
                {"name": "Brick", "kind": "pc", "player": "Ben", **BRICK},
                {"name": "Thug", "kind": "npc", **THUG},
                {"name": "Mindbender", "kind": "npc", **MINDBENDER},
            ],
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
                "tokens": {"Aria": [4, 12], "Brick": [5, 4], "Thug": [14, 12], "Mindbender": [30, 20]},
            },
        },
        {"type": "campaign.encounter.start", "encounter": "Rooftop"},
    ),
)
