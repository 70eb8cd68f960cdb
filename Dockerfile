# syntax=docker/dockerfile:1
# Fray in one container. `docker compose up -d --build`; see docs/deploy.md.

# --- 1. Front-end files: htmx and its WebSocket extension, at the versions in package-lock.json ---
FROM node:22-slim AS assets
WORKDIR /build
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --loglevel=error \
 && mkdir -p vendor \
 && cp node_modules/htmx.org/dist/htmx.min.js vendor/htmx.min.js \
 && cp node_modules/htmx-ext-ws/dist/ws.min.js vendor/ws.js

# --- 2. The app ---
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    FRAY_DATABASE_URL=sqlite:////data/fray.db

# The source tree stays whole at /app. app/realtime/render.py and app/store/migrate.py look for
# templates/, static/, migrations/ and alembic.ini two directories above their own files, so the
# package is installed in editable mode (pointing back at /app) instead of being copied into
# site-packages, where those folders would be missing.
WORKDIR /app
COPY . .
COPY --from=assets /build/vendor/ static/vendor/
RUN --mount=type=cache,target=/root/.cache/pip \
    pip install -e . \
 && python -m compileall -q app migrations

# Run as an unprivileged user; only /data (the database) is writable.
RUN groupadd --system fray \
 && useradd --system --gid fray --home-dir /app --no-create-home --shell /usr/sbin/nologin fray \
 && mkdir -p /data \
 && chown fray:fray /data
USER fray
VOLUME ["/data"]

EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4)"]

# `fray serve` applies migrations first, then serves; it stops cleanly on SIGTERM.
CMD ["fray", "serve", "--host", "0.0.0.0", "--port", "8000"]
