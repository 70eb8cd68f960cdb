#!/usr/bin/env bash
# PostgreSQL and Redis on loopback for the tests, in a temporary directory, stopped afterwards.
#
#   scripts/services.sh install        install Debian's postgresql, redis-server, nginx and docker-compose
#                                      when missing (tests/scale/test_compose.py runs `docker-compose config`)
#   scripts/services.sh run CMD...     start both, run CMD with FRAY_TEST_POSTGRES_URL, FRAY_TEST_REDIS_URL,
#                                      FRAY_TEST_REDIS_SERVER and FRAY_TEST_NGINX set, stop both (whatever
#                                      CMD did), exit with CMD's status
#   scripts/services.sh start DIR      start both with their data in DIR (empty or missing); DIR/env
#                                      then holds the export lines
#   scripts/services.sh stop DIR       stop what `start DIR` started and remove DIR
#
# nginx is not started here: tests/scale/test_nginx.py runs its own with deploy/nginx.conf.
# PostgreSQL refuses to run as root: as root, the cluster belongs to the `postgres` user (made by the
# Debian package) and initdb/pg_ctl run through runuser. Both servers listen on 127.0.0.1 only, on free
# ports, with no Unix sockets, no persistence for Redis (--save '') and fsync off for PostgreSQL: test
# data is thrown away.
set -euo pipefail

log() { echo "services: $*" >&2; }

sudo_cmd() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# The newest installed server's programs (Debian keeps them out of PATH; the client alone has no initdb).
pg_bindir() {
  local dir
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -rV); do
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then echo "$dir"; return; fi
  done
  if command -v initdb >/dev/null 2>&1; then dirname "$(command -v initdb)"; return; fi
  return 1
}

install() {
  local need=()
  pg_bindir >/dev/null || need+=(postgresql)
  command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
  nginx_bin >/dev/null || need+=(nginx)
  has_compose || need+=(docker-compose)
  if [ ${#need[@]} -eq 0 ]; then return; fi
  log "installing Debian's ${need[*]} for the PostgreSQL, Redis and Compose tests..."
  sudo_cmd apt-get update -qq
  sudo_cmd env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" \
    >/dev/null
}

# Compose v2 (a plugin of the Docker CLI) or the standalone docker-compose; `config` needs no engine.
has_compose() {
  command -v docker-compose >/dev/null 2>&1 || docker compose version >/dev/null 2>&1
}

nginx_bin() {
  command -v nginx 2>/dev/null || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; }
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Run a PostgreSQL tool as the cluster's owner.
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u "$PG_USER" -- "$@"; else "$@"; fi
}

start() {
  local dir=$1 bin pg_port redis_port
  install
  bin=$(pg_bindir) || { log "no initdb found after installing postgresql"; return 1; }
  mkdir -p "$dir"
  chmod 755 "$dir"
  PG_USER=$(id -un)
  if [ "$(id -u)" = 0 ]; then
    PG_USER=postgres
    id -u postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres
  fi
  mkdir -p "$dir/pg"
  touch "$dir/pg.log"
  if [ "$(id -u)" = 0 ]; then chown "$PG_USER" "$dir/pg" "$dir/pg.log"; fi

  as_owner "$bin/initdb" -D "$dir/pg" -U fray --auth=trust --encoding=UTF8 --no-locale --no-sync >/dev/null
  for attempt in 1 2 3; do
    pg_port=$(free_port)
    if as_owner "$bin/pg_ctl" -D "$dir/pg" -l "$dir/pg.log" -w -t 60 -o \
      "-c listen_addresses=127.0.0.1 -p $pg_port -k '' -c fsync=off -c synchronous_commit=off \
       -c full_page_writes=off -c max_connections=300" start >/dev/null; then
      break
    fi
    [ "$attempt" = 3 ] && { log "PostgreSQL did not start:"; tail -n 20 "$dir/pg.log" >&2; return 1; }
  done
  echo "$bin" >"$dir/pg_bindir"
  echo "$PG_USER" >"$dir/pg_user"

  for attempt in 1 2 3; do
    redis_port=$(free_port)
    redis-server --bind 127.0.0.1 --port "$redis_port" --save '' --appendonly no --daemonize yes \
      --dir "$dir" --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" >/dev/null
    for _ in $(seq 50); do
      redis-cli -h 127.0.0.1 -p "$redis_port" ping >/dev/null 2>&1 && break 2
      sleep 0.1
    done
    [ "$attempt" = 3 ] && { log "Redis did not start:"; tail -n 20 "$dir/redis.log" >&2; return 1; }
  done

  cat >"$dir/env" <<EOF
export FRAY_TEST_POSTGRES_URL=postgresql+psycopg://fray@127.0.0.1:$pg_port/postgres
export FRAY_TEST_REDIS_URL=redis://127.0.0.1:$redis_port/0
export FRAY_TEST_REDIS_SERVER=$(command -v redis-server)
export FRAY_TEST_NGINX=$(nginx_bin)
EOF
  log "PostgreSQL on 127.0.0.1:$pg_port, Redis on 127.0.0.1:$redis_port (data in $dir)"
}

stop() {
  local dir=$1
  [ -d "$dir" ] || return 0
  if [ -f "$dir/pg_bindir" ] && [ -f "$dir/pg/postmaster.pid" ]; then
    PG_USER=$(cat "$dir/pg_user")
    as_owner "$(cat "$dir/pg_bindir")/pg_ctl" -D "$dir/pg" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  if [ -f "$dir/redis.pid" ]; then
    local pid
    pid=$(cat "$dir/redis.pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  rm -rf "$dir"
}

run() {
  local status
  SERVICES_DIR=$(mktemp -d "${TMPDIR:-/tmp}/fray-services.XXXXXX")
  trap 'stop "$SERVICES_DIR"' EXIT
  trap 'exit 130' INT TERM
  start "$SERVICES_DIR"
  # shellcheck disable=SC1091
  source "$SERVICES_DIR/env"
  set +e
  "$@"
  status=$?
  set -e
  return "$status"
}

case "${1:-}" in
  install) install ;;
  start) start "${2:?usage: services.sh start DIR}" ;;
  stop) stop "${2:?usage: services.sh stop DIR}" ;;
  run) shift; run "$@" ;;
  *) echo "usage: scripts/services.sh install | run CMD... | start DIR | stop DIR" >&2; exit 2 ;;
esac
