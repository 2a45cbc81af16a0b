#!/usr/bin/env bash
# Screenshots of a demo profile page for the README: mobile and desktop width, light and dark,
# a profile with a theme (sakura's),
# taken with headless Chromium from the demo site served on a free loopback port; and a profile
# the demo lacks: no icon, no header, a 72-character name and a bio with a list and a quote.
# Usage: scripts/screenshots.sh TOMO_BINARY OUTPUT_FOLDER
set -euo pipefail
tomo=$(realpath "$1")
out=$2
site_out=$(mktemp -d)
# No server yet is no process to stop (`kill 0` would stop every process of the group).
trap 'if [ -n "${server:-}" ]; then kill "$server" 2>/dev/null || true; fi; rm -rf "$site_out"' EXIT

"$tomo" build --out "$site_out/public" >/dev/null
# The bare profile, built with this checkout's theme into public/bare/ (served with the demo).
templates=$(realpath templates)
(
  cd "$site_out"
  "$tomo" init bare >/dev/null
  cd bare
  cp -r "$templates" templates
  printf 'title: Tomo Demo\nbaseURL: https://demo.tomo.example/bare/\n' >content/site.yaml
  "$tomo" user add maximiliana --name "$(printf 'Maximiliana%.0s' 1 2 3 4 5 6)Wolfes" >/dev/null
  printf 'bio: |\n  Photographs at https://example.com/a-very-long-address-that-does-not-fit-on-a-phone\n\n  - film\n  - walks at dawn\n\n  > Light is everything.\n' \
    >>content/users/maximiliana.yaml
  "$tomo" build --out "$site_out/public/bare" >/dev/null 2>&1
)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$site_out/public" >/dev/null 2>&1 &
server=$!
for _ in $(seq 50); do
  curl -fs "http://127.0.0.1:$port/" >/dev/null 2>&1 && break
  sleep 0.1
done

mkdir -p "$out"
shoot() { # name width height scheme path
  local flags=()
  [ "$4" = dark ] && flags+=(--force-dark-mode --blink-settings=preferredColorScheme=0)
  chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
    "${flags[@]}" --window-size="$2,$3" --screenshot="$out/$1.png" "http://127.0.0.1:$port$5" >/dev/null 2>&1
  # A 256-colour palette keeps the committed PNGs small.
  if command -v convert >/dev/null; then convert "$out/$1.png" -colors 256 "PNG8:$out/$1.png"; fi
  echo "$out/$1.png"
}
shoot profile-mobile-light 390 900 light /alice/
shoot profile-mobile-dark 390 900 dark /hana/
shoot profile-desktop-light 1280 900 light /alice/
shoot profile-desktop-dark 1280 900 dark /yuki/
shoot home-desktop-light 1280 900 light /
shoot post-mobile-light 390 900 light "/$(ls content/posts/alice | grep '\.md$' | head -1 | sed 's/\.md$//; s|^|alice/posts/|')/"
shoot timeline-desktop-dark 1280 900 dark /hana/timeline/
shoot themed-mobile-light 390 900 light /sakura/
shoot themed-mobile-dark 390 900 dark /sakura/
shoot placeholder-mobile-light 375 900 light /bare/maximiliana/
shoot placeholder-mobile-dark 375 900 dark /bare/maximiliana/
shoot placeholder-desktop-dark 1280 900 dark /bare/maximiliana/
