#!/usr/bin/env bash
# Makes a small site with the cases every check of `make test` (HTML, links, link previews,
# feeds, sitemaps) must get right, with tomo's own commands where there is one, and builds it:
# a registered user without posts (an empty feed), a profile nobody registered, followers-only,
# private, draft and future posts, a profile with items shown, ended and not yet begun, posts
# at the same second (one in another zone), non-ASCII and & < > " ' in the site's title, names,
# captions and alt texts, a name and bio that try to leave a script element, a Mastodon link,
# a 1280x400 header, two posts a page (timelines with newer/older links), a renamed user (redirect
# pages, _redirects), a site icon and a root static folder, under a sub-path base URL, and a
# profile in Arabic (right-to-left pages) with a post without alt text.
# Usage: scripts/edge-site.sh TOMO_BINARY SITE_DIR BASE_URL   (SITE_DIR is made afresh;
# the site is built into SITE_DIR/public)
set -euo pipefail
tomo=$(realpath "$1")
site=$2
base_url=$3
photos=$(realpath "$(dirname "$0")/../content/posts/alice")
rm -rf "$site"
"$tomo" init "$site" >/dev/null
cd "$site"
cat >content/site.yaml <<YAML
title: "Tomo & <Friends> \"quoted\" 'single' — 写真"
baseURL: $base_url
description: "Edge cases: & < > \" ' é 日本"
pageSize: 2
icon: site-icon.png
qr: true
YAML
# PNG files of a given size, made without any image tool.
png() {
    python3 - "$1" "$2" "$3" <<'PY'
import struct, sys, zlib
width, height, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rows = b"".join(b"\x00" + bytes((x // 8 * 16) & 0xFF for x in range(width)) for _ in range(height))
def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
                       + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
PY
}
png 600 600 content/site-icon.png
mkdir -p static/.well-known
printf 'profiles.example.com\n' >static/CNAME
: >static/.nojekyll
printf 'did:plc:edge\n' >static/.well-known/atproto-did
printf '/blog/* https://blog.example.com/:splat 301\n' >static/_redirects
"$tomo" user add ann --name "Ann & <Bob> \"A\" O'Neil — 日本語" >/dev/null
"$tomo" user add quiet --name "Quiet 静か" >/dev/null
"$tomo" user add zoe --name "Zoë" >/dev/null
# A profile written by hand and never registered (a store-less way to make a user).
cat >content/users/handmade.yaml <<'YAML'
name: "Hand & <made> \"profile\""
bio: "Never registered: 'no store entry'"
items:
  - text: "Shown & <now>"
    from: 2020-01-01
    until: 2999-12-31
  - text: Ended
    until: 2021-01-01
  - text: Not yet
    from: 2999-01-01
YAML
cat >>content/users/zoe.yaml <<'YAML'
items:
  - text: "Exhibition & <more>"
    url: https://example.com/?a=1&b=2
    from: 2026-01-01
    until: 2999-01-01
  - text: Over
    from: 2020-01-01
    until: 2020-12-31
YAML
# Themes at the edges: only a font (no colour at all), and a gradient no text reads on everywhere.
printf 'theme:\n  font: mono\n' >>content/users/quiet.yaml
printf 'theme:\n  accent: white\n  background: ["#000000", "#ffffff"]\n  buttons: outline\n' >>content/users/handmade.yaml
# Text that tries to end a script element or a comment, with the line ends old JavaScript reads.
hostile=$'</script><!-- "&<> \u2028 \u2029 <!--<script>'
"$tomo" user add hostile >/dev/null
rm content/users/hostile.yaml  # a JSON profile instead
python3 - "$hostile" <<'PY'
import json, sys
hostile = sys.argv[1]
links = {"github": "https://github.com/edge", "mastodon": "https://social.example/@edge", "website": "https://edge.example/?a=1&b=%3C"}
open("content/users/hostile.json", "w", encoding="utf-8").write(json.dumps({"name": "N " + hostile, "bio": "B " + hostile + "\n\n**bold** " + hostile, "links": links}))
PY
"$tomo" user add wide --name Wide >/dev/null
mkdir -p content/users/wide
png 400 400 content/users/wide/icon.png
png 1280 400 content/users/wide/header.png
printf 'icon: wide/icon.png\nheader: wide/header.png\nlinks:\n  mastodon: https://social.example/users/wide\n' >>content/users/wide.yaml
post() { "$tomo" post add "$@" >/dev/null 2>&1; }
post ann "$photos/tokyo-bay-sunset.jpg" --slug amp --caption "Fish & chips <b>not bold</b> \"quoted\" 'single' — 日本" --alt "A & B <c> \"d\" 'e'" --date 2026-05-01T18:30:00+09:00
post ann "$photos/shibuya-rain.jpg" --slug same-1 --caption "Same second, first" --alt "Rain" --date 2026-05-02T00:00:00Z
post ann "$photos/shibuya-rain.jpg" --slug same-2 --caption "Same second, second" --alt "Rain" --date 2026-05-02T00:00:00Z
post zoe "$photos/film-morning.jpg" --slug same-tokyo --caption "The same instant, written in Tokyo" --alt "Film" --date 2026-05-02T09:00:00+09:00
post zoe "$photos/film-morning.jpg" --slug no-caption --alt "Film" --date 2026-04-30T12:00:00-05:00
post zoe "$photos/film-morning.jpg" --slug friends --caption "Followers only" --alt "Film" --visibility followers --date 2026-05-03T00:00:00Z
post zoe "$photos/film-morning.jpg" --slug secret --caption "Private" --alt "Film" --visibility private --date 2026-05-03T00:00:00Z
post zoe "$photos/film-morning.jpg" --slug later --caption "Posted in the future" --alt "Film" --date 2999-01-01T00:00:00Z
post zoe "$photos/film-morning.jpg" --slug unfinished --caption "A draft" --alt "Film" --date 2026-05-03T00:00:00Z
sed -i "s/^visibility: public$/visibility: public\ndraft: true/" content/posts/zoe/unfinished.md
"$tomo" follow ann zoe >/dev/null
"$tomo" user add layla --name "ليلى أحمد" >/dev/null
printf 'language: ar\nbio: "مرحبا بكم في **صفحتي**"\nitems:\n  - text: "تعليق"\n' >>content/users/layla.yaml
post layla "$photos/tokyo-bay-sunset.jpg" --slug no-alt --caption "غروب" --date 2026-05-01T18:30:00+03:00
"$tomo" follow layla ann >/dev/null
# A user who left a handle behind: redirect pages at every old address, _redirects after the site's own.
"$tomo" user add mover --name Mover >/dev/null
post mover "$photos/shibuya-rain.jpg" --slug moving --caption "Before the move" --alt "Rain" --date 2026-05-04T00:00:00Z
"$tomo" follow zoe mover >/dev/null
"$tomo" user rename mover moved >/dev/null
# The build warns about the missing icons and the unregistered profile: show it only on failure.
"$tomo" build >build.log 2>&1 || { cat build.log >&2; exit 1; }
