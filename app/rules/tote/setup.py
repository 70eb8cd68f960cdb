"""An encounter's TOTE set-up: the starting Distance the GM chooses (TO-R-1)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from app.rules.campaign.state import CampaignState
from app.rules.errors import InputError
from app.rules.system import explain


class Setup(BaseModel):
    model_config = ConfigDict(extra="forbid")

    distance: Literal["far", "close"] = "close"


def parse_setup(state: CampaignState, setup: dict[str, Any]) -> dict[str, Any]:
    try:
        return Setup.model_validate(dict(setup)).model_dump()
    except ValidationError as error:
        raise InputError(explain(error, prefix="Encounter set-up: ")) from None
