#!/usr/bin/env bash
# Quick pairing under load, against the release build: a pool of waiting
# seekers (1,000 by default), then as many arrivals, each paired with one;
# pairings per second and the delay until both players know.
#   scripts/seekbench.sh [waiting] [connections]
# On PostgreSQL (GOBANG_LOAD_POSTGRES=postgres://…) as for scripts/loadtest.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
waiting="${1:-1000}"
connections="${2:-16}"
port="${GOBANG_LOAD_PORT:-18183}"
source scripts/release-server.sh
release_server seekbench
target/release/examples/seekbench --url "${urls%%,*}" --waiting "$waiting" --connections "$connections"
