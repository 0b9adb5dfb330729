# Sourced by the load scripts: builds the release server and the named
# example, starts the server on a fresh database in a temporary directory on
# $port, waits until it answers, and stops it (and removes the directory)
# on exit. Sets $server to its pid.
#   release_server <example>
release_server() {
  dir="$(mktemp -d)"
  cargo build --release --quiet --bin gobang --example "$1"
  # Load scripts measure the server, not its rate limits.
  RUST_LOG=warn target/release/gobang serve --rate-limits off --port "$port" --database-url "sqlite:$dir/gobang.db" &
  server=$!
  trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$dir"' EXIT
  for _ in $(seq 50); do
    curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && return
    sleep 0.1
  done
  echo "the server did not answer on port $port" >&2
  exit 1
}
