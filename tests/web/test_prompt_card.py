"""The page's prompt card: one form per choice, with the choice's own fields and dice."""

from __future__ import annotations

from app.realtime.render import ENV
from app.rules.system import Prompt, PromptChoice


def _card(prompt: Prompt, manual: bool) -> str:
    return str(ENV.globals["ui"].prompt_card(prompt.model_dump(), manual))


def test_a_choice_sends_its_fields_and_asks_for_dice_when_it_rolls_on_a_manual_table():
    prompt = Prompt(
        id="luck",
        to="p1",
        kind="luck",
        text="Spend Luck?",
        answer="x.luck",
        choices=(
            PromptChoice(key="reroll", label="Reroll", rolls=True, fields={"keep": [1, 2]}),
            PromptChoice(key="no", label="No"),
        ),
    )
    manual = _card(prompt, manual=True)
    assert manual.count("<form") == 2
    assert 'name="keep:json"' in manual and 'value="reroll"' in manual
    assert manual.count('name="dice"') == 1
    assert 'name="dice"' not in _card(prompt, manual=False)


def test_a_prompt_the_system_draws_itself_is_left_out_of_the_page_list():
    prompt = Prompt(id="aim", to="p1", kind="aim", text="Pick a target", answer="x.aim", drawn_by_system=True)
    assert "<article" not in _card(prompt, manual=False)
