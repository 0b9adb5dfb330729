# Sourced by the load scripts: builds the release server and the named
# example, starts the server on a fresh database, waits until it answers,
# and stops it (and removes the database) on exit. Sets $server to its pid
# and $urls to its address.
#
# With GOBANG_LOAD_POSTGRES=postgres://USER@HOST/DB (a PostgreSQL server
# where USER may create databases), the database is a fresh PostgreSQL one
# instead of a SQLite file; with GOBANG_LOAD_INSTANCES=N as well, N servers
# share it, on $port, $port+1, …, and $urls lists them all, comma-separated.
#
# With GOBANG_SERVER_BIN=path, that server binary is used as it is and
# nothing is built (CI fuzzes the binary its tests just built, rather than
# spend minutes on a release build); the example is then not built either.
#   release_server [example]
release_server() {
  dir="$(mktemp -d)"
  local bin="${GOBANG_SERVER_BIN:-target/release/gobang}"
  if [ -z "${GOBANG_SERVER_BIN:-}" ]; then
    cargo build --release --quiet --bin gobang ${1:+--example "$1"}
  fi
  [ -x "$bin" ] || { echo "no server binary at $bin" >&2; exit 1; }
  local instances="${GOBANG_LOAD_INSTANCES:-1}" database
  pg_admin="${GOBANG_LOAD_POSTGRES:-}"
  if [ -n "$pg_admin" ]; then
    pg_database="gobang_load_$$"
    psql "$pg_admin" -qc "CREATE DATABASE $pg_database"
    database="${pg_admin%/*}/$pg_database"
  else
    [ "$instances" = 1 ] || { echo "several instances need GOBANG_LOAD_POSTGRES" >&2; exit 1; }
    database="sqlite:$dir/gobang.db"
  fi
  servers=()
  urls=""
  for i in $(seq 0 $((instances - 1))); do
    # Load scripts measure the server, not its rate limits.
    RUST_LOG=warn "$bin" serve --rate-limits off --port $((port + i)) --database-url "$database" &
    servers+=($!)
    urls="${urls:+$urls,}http://127.0.0.1:$((port + i))"
  done
  server="${servers[0]}"
  trap 'kill "${servers[@]}" 2>/dev/null; wait "${servers[@]}" 2>/dev/null; rm -rf "$dir";
        [ -z "$pg_admin" ] || psql "$pg_admin" -qc "DROP DATABASE IF EXISTS $pg_database WITH (FORCE)"' EXIT
  for i in $(seq 0 $((instances - 1))); do
    local up=""
    for _ in $(seq 100); do
      if curl -sf "http://127.0.0.1:$((port + i))/healthz" >/dev/null; then up=1; break; fi
      sleep 0.1
    done
    [ -n "$up" ] || { echo "the server did not answer on port $((port + i))" >&2; exit 1; }
  done
}
