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

# The dependencies first, from requirements.lock (exact versions, hashes checked), in a layer of their
# own: editing the source does not reinstall them, only changing the lock file does.
COPY requirements.lock /tmp/requirements.lock
RUN --mount=type=cache,target=/root/.cache/pip \
    pip install --require-hashes -r /tmp/requirements.lock

# Then Fray itself, as a wheel: setup.py puts templates/, static/ (with the front-end files from the
# first stage), migrations/ and alembic.ini inside the package, so nothing is read from /build at run time.
WORKDIR /build
COPY . .
COPY --from=assets /build/vendor/ static/vendor/
RUN --mount=type=cache,target=/root/.cache/pip \
    pip install --no-deps . \
 && cd / && rm -rf /build \
 && python -m compileall -q "$(python -c 'import app, os; print(os.path.dirname(app.__file__))')"

# Run as an unprivileged user; only /data (the database) is writable.
RUN groupadd --system fray \
 && useradd --system --gid fray --home-dir /data --no-create-home --shell /usr/sbin/nologin fray \
 && mkdir -p /data \
 && chown fray:fray /data
USER fray
WORKDIR /data
VOLUME ["/data"]

EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4)"]

# `fray serve` applies migrations first, then serves; it stops cleanly on SIGTERM.
CMD ["fray", "serve", "--host", "0.0.0.0", "--port", "8000"]
