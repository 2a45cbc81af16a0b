#!/usr/bin/env bash
# Starts the release `tomo serve` on the demo site on a free loopback port, fetches a page and
# the live-reload script, and stops it with Ctrl-C (SIGINT): the optimised binary, as
# `make serve` runs it, not only the debug build the unit tests use.
# Usage: scripts/serve-smoke.sh TOMO_BINARY
set -euo pipefail
tomo=$1
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
log=$(mktemp)
"$tomo" serve --port "$port" >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -f "$log"' EXIT
python3 - "$port" <<'PY'
import sys, time, urllib.request
port = sys.argv[1]
for _ in range(100):
    try:
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/alice/", timeout=2).read().decode()
        break
    except OSError:
        time.sleep(0.1)
else:
    sys.exit("tomo serve did not answer")
assert 'data-handle="alice"' in page and "/_tomo/reload.js" in page, "unexpected page"
script = urllib.request.urlopen(f"http://127.0.0.1:{port}/_tomo/reload.js", timeout=2).read()
assert b"EventSource" in script, "no live-reload script"
PY
kill -INT "$server"
wait "$server"
grep -q "Stopped." "$log"
echo "tomo serve (release): served the demo site and stopped cleanly"
