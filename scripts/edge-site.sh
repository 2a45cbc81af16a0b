#!/usr/bin/env bash
# Makes a small site with the cases feeds and sitemaps must get right, with tomo's own commands
# where there is one, and builds it: a registered user without posts (an empty feed), a profile
# nobody registered, followers-only, private, draft and future posts, a profile with items
# shown, ended and not yet begun, posts at the same second (one in another zone), non-ASCII and
# & < > " ' in the site's title, names, captions and alt texts, under a sub-path base URL.
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
YAML
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
# The build warns about the missing icons and the unregistered profile: show it only on failure.
"$tomo" build >build.log 2>&1 || { cat build.log >&2; exit 1; }
