"""Settings from the environment (FRAY_*), with defaults that work on a fresh machine."""

from __future__ import annotations

from functools import cache

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="FRAY_", extra="ignore")

    database_url: str = "sqlite:///./fray.db"
    broker_url: str = "memory://"
    # When set, creating a campaign asks for it (for a server on the open internet).
    admin_password: str | None = None
    # The address players reach this server at, for invite links and QR codes (behind a proxy, say).
    public_url: str | None = None
    # Cookies only over HTTPS; turn on behind a TLS proxy.
    secure_cookies: bool = False
    snapshot_every: int = Field(default=100, ge=1)
    max_body_bytes: int = Field(default=64 * 1024, ge=1024)
    max_ws_message_bytes: int = Field(default=16 * 1024, ge=256)
    log_page: int = Field(default=40, ge=5, le=500)  # log entries a page shows
    # Map images: an upload's bytes, and its pixels a side (a GM's dungeon map is far smaller).
    max_upload_bytes: int = Field(default=20 * 1024 * 1024, ge=64 * 1024)
    max_image_side: int = Field(default=8192, ge=256, le=30000)
    # Pixels in all, checked from the header before decoding: memory goes with pixels, not sides or bytes.
    max_image_pixels: int = Field(default=40_000_000, ge=65_536, le=200_000_000)
    # What one campaign's images may take in the database, in bytes (an image shared by two counts twice).
    campaign_storage_bytes: int = Field(default=200 * 1024 * 1024, ge=1024 * 1024)
    # What the players' vision tiles may take in the database, all campaigns together: a cache of pixels
    # any tile can be made again from, the oldest made dropped past it (app/services/tile_budget.py).
    vision_tile_bytes: int = Field(default=512 * 1024 * 1024, ge=64 * 1024)
    # Rate limits (app/services/rate_limits.py) times this: more for a convention hall behind one address,
    # or for a load test that plays hundreds of tables from one machine.
    rate_limit_scale: float = Field(default=1.0, ge=0.1, le=100_000)
    # FastAPI's OpenTelemetry spans, metrics and logs, for a deployment that configures an exporter. Off,
    # no request asks whether any is configured (40 µs of each command on an idle server).
    telemetry: bool = False


@cache
def get_settings() -> Settings:
    return Settings()
