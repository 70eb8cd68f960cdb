"""The web layer: HTML pages, the JSON API and the WebSocket. The only layer that knows HTTP."""
