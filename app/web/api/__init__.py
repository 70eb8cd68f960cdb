"""The JSON API (stable; tests and bots use it): one module and one router per resource.

- `campaigns`: create a campaign, the caller's view of it, its commands
- `seats`: joining and watching, the GM's list of seats, revoking one, rotating the invite links
- `events`: the event log, and replays of past encounters
- `systems`: the game systems, their commands and JSON schemas
- `maps`: the map's images and live signals (pings, rulers, drag ghosts)
- `pictures`: token pictures: uploads, and the framed square each token shows
- `backups`: a campaign as one file, exported and imported

Every route: parse, call an async service entry point, reply with a declared model. A seat here is its
bearer token, handed back in the reply: no route sets a cookie. The pages set theirs on their own routes;
a cookie kept by an API client would ask each of its later posts for an Origin.
"""

from __future__ import annotations

from fastapi import APIRouter

from app.web.api import backups, campaigns, events, maps, pictures, seats, systems

# In this order in /openapi.json (and so in /docs).
ROUTERS: tuple[APIRouter, ...] = (
    campaigns.router,
    seats.router,
    events.router,
    systems.router,
    maps.router,
    pictures.router,
    backups.router,
)
