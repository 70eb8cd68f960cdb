"""Storage: SQLModel tables, the engine, the event log and snapshots. The only layer that knows SQL."""
