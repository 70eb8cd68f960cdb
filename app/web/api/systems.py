"""`/api/systems`: every game system this server has, its commands and their JSON schemas."""

from __future__ import annotations

from typing import Any

from app.rules import registry
from app.web.api.common import api_router
from app.web.schemas import SystemInfo

router = api_router("api")


@router.get("/systems", response_model=list[SystemInfo])
async def systems() -> Any:
    """Every game system, its commands and their JSON schemas."""
    out = []
    for key, system in registry.systems().items():
        game = registry.game(key)
        settings = system.settings_model.model_json_schema() if system.settings_model else None
        out.append(
            {
                "key": key,
                "title": system.title,
                "summary": system.summary,
                "docs": system.docs,
                "settings": settings,
                "commands": [
                    {
                        "type": spec.type,
                        "summary": spec.summary,
                        "gm_only": spec.gm_only,
                        "rolls": spec.rolls,
                        "schema": spec.model.model_json_schema(),
                    }
                    for spec in game.commands.values()
                ],
            }
        )
    return out
