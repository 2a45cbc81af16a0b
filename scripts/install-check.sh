#!/usr/bin/env bash
# Checks `make install`: into a temporary DESTDIR and PREFIX, the installed tomo alone, run
# from a folder far from this checkout, makes a site and builds it with the theme it carries;
# and PREFIX is /usr/local unless given. Run from the repository root (make test does).
set -euo pipefail

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

make --no-print-directory install PREFIX=/opt/tomo DESTDIR="$root/stage" >/dev/null
tomo="$root/stage/opt/tomo/bin/tomo"
[ -x "$tomo" ] || { echo "make install: no executable $tomo" >&2; exit 1; }

mkdir "$root/elsewhere"
(
  cd "$root/elsewhere"
  "$tomo" init my-site >/dev/null
  cd my-site
  # The starter site's warnings (no icon yet) are expected: shown only when the build fails.
  "$tomo" build >/dev/null 2>"$root/build.log" || { cat "$root/build.log" >&2; exit 1; }
  grep -q 'static/style.css' public/index.html || { echo "make install: the built home page links no style sheet" >&2; exit 1; }
)
repository=$(pwd)
cmp "$root/elsewhere/my-site/public/static/style.css" "$repository/templates/static/style.css" \
  || { echo "make install: the installed tomo does not carry the theme of templates/" >&2; exit 1; }

make --no-print-directory -n install DESTDIR=/stage | grep -q 'install -m 755 .build/release/tomo "/stage/usr/local/bin/tomo"' \
  || { echo "make install: PREFIX is not /usr/local by default" >&2; exit 1; }

echo "make install: the installed tomo builds a new site outside the checkout with its own theme"
