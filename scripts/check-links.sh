#!/usr/bin/env bash
# Builds the demo site (content/ and templates/ of this repository) for a base URL under a
# path, serves it from the parent folder, and checks every link with LinkChecker: a link that
# leaves the base path (a root-relative `/static/style.css`) is a 404 and fails the check.
# Then the same on the edge-case site (scripts/edge-site.sh) under a two-level base path with
# an escaped space.
# Usage: scripts/check-links.sh TOMO_BINARY
set -euo pipefail
tomo=$(realpath "$1")
repository=$(cd "$(dirname "$0")/.." && pwd)
command -v linkchecker >/dev/null || { echo "check-links: linkchecker is missing (make test-deps installs it)" >&2; exit 1; }
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
work=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
chmod 755 "$work"  # LinkChecker runs as nobody when started as root

# The served folder holds each site at its base path, and nothing else.
served="$work/served"
mkdir -p "$served/deep"
"$tomo" build --site "$repository" --out "$served/sub" --base-url "http://127.0.0.1:$port/sub/" >/dev/null

# The edge-case site of scripts/edge-site.sh (two posts a page, a renamed user, hostile names,
# a site icon, root static files), under a two-level base path with an escaped space.
"$repository/scripts/edge-site.sh" "$tomo" "$work/edge" "http://127.0.0.1:$port/deep/a%20b/"
mv "$work/edge/public" "$served/deep/a b"

# Python's http.server, without its folder listings: a link to / or /deep/ must be a 404 too,
# not a listing that happens to answer 200. Its `LinkChecker` header tells LinkChecker that
# this server may be checked at full speed (the rate in linkcheckerrc, not 2 to 10 a second).
python3 - "$port" "$served" <<'PY' >"$work/server.log" 2>&1 &
import functools, http.server, sys
class Handler(http.server.SimpleHTTPRequestHandler):
    def list_directory(self, path):
        self.send_error(404, "No listing")
    def end_headers(self):
        self.send_header("LinkChecker", "local test server")
        super().end_headers()
handler = functools.partial(Handler, directory=sys.argv[2])
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), handler).serve_forever()
PY
server=$!
python3 - "$port" <<'PY'
import sys, time, urllib.request, urllib.error
for _ in range(100):
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/sub/", timeout=2)
        break
    except (OSError, urllib.error.URLError):
        time.sleep(0.1)
else:
    sys.exit("the file server did not answer")
PY

# No pause between requests to this server (LinkChecker's default is for other people's).
printf '[checking]\nmaxrequestspersecond=1000\n' >"$work/linkcheckerrc"
chmod 644 "$work/linkcheckerrc"

status=0
for start in "http://127.0.0.1:$port/sub/" "http://127.0.0.1:$port/deep/a%20b/"; do
    # Every URL not on this server (other hosts, mailto:) is only syntax-checked; every link
    # on it is fetched, the ones outside the base path too (--check-extern).
    if linkchecker --config "$work/linkcheckerrc" --no-status --check-extern --ignore-url "^(?!http://127\.0\.0\.1:$port/)" "$start" >"$work/report.txt" 2>&1; then
        grep -E "links? in .* URLs? checked" "$work/report.txt" || true
    else
        cat "$work/report.txt"
        echo "check-links: broken links on the site built for $start" >&2
        status=1
    fi
done
[ "$status" = 0 ] && echo "LinkChecker: no broken link on the demo site under /sub/ and the edge-case site under /deep/a%20b/"
exit "$status"
