#!/usr/bin/env python3
"""Writes the brand marks the theme embeds, from PyPI's simple-icons-pack (Simple Icons, CC0).

    python3 -m pip install simple-icons-pack
    scripts/make_brand_icons.py [TEMPLATES_DIR]

Writes two files into TEMPLATES_DIR/icons (default: the repository's templates/icons):

- brands.tsv: one brand a line, `slug<TAB>title<TAB>path`, sorted by slug. Every Simple Icons
  mark is one path in a 24×24 box, so the path's data is all the theme needs to draw it; the
  slug is the key a profile's `links:` takes and the title the label pages show. The brands
  the theme draws itself (LinkService's services and their aliases) are left out: they keep
  their own icons and labels.
- brands-LICENSE.md: the licence (CC0 1.0), Simple Icons' attribution and the version these
  marks come from, and the marks that carry a licence of their own.

Both files are committed: tomo's build reads them, never Python.
"""
import html
import importlib.metadata
import re
import sys
from pathlib import Path

import simple_icons_pack

# LinkService's keys (Sources/TomoContent/LinkService.swift): those of Simple Icons' slugs keep
# the icon and label the theme has for them.
OWN_SERVICES = {"twitter", "x", "instagram", "facebook", "github", "youtube", "tiktok", "linkedin",
                "mastodon", "bluesky", "threads", "note", "website", "email"}

SVG = re.compile(r'<svg role="img" viewBox="0 0 24 24" xmlns="http://www.w3.org/2000/svg">'
                 r'<title>[^<]*</title><path d="([^"<>&\t\n]+)"/></svg>')
SLUG = re.compile(r"[a-z0-9_]+")


def brands():
    icons = [getattr(simple_icons_pack, name) for name in dir(simple_icons_pack) if name.startswith("SI_")]
    for icon in sorted(icons, key=lambda icon: icon.slug):
        match = SVG.fullmatch(icon.svg)
        if not match or not SLUG.fullmatch(icon.slug) or re.search(r"[\x00-\x1f\x7f]", icon.title):
            sys.exit(f"make_brand_icons: {icon.slug}: not a one-path 24×24 mark with a plain slug and title; update this script")
        if icon.slug not in OWN_SERVICES:
            yield icon, match.group(1)


def main():
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "templates") / "icons"
    version = importlib.metadata.version("simple-icons-pack")
    chosen = list(brands())
    lines = [f"{icon.slug}\t{html.unescape(icon.title)}\t{path}" for icon, path in chosen]
    (folder / "brands.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")

    own_licences = [f"- {html.unescape(icon.title)} (`{icon.slug}`): {icon.license}, {icon.source}"
                    for icon, _ in chosen if icon.license and icon.license != "CC0-1.0"]
    licence = f"""# Brand marks (icons/brands.tsv)

The {len(chosen)} brand marks in `brands.tsv` come from [Simple Icons](https://simpleicons.org)
(by the Simple Icons contributors, https://github.com/simple-icons/simple-icons), as PyPI's
`simple-icons-pack` {version} redistributes them; `scripts/make_brand_icons.py` writes both files.

Simple Icons is released under CC0 1.0 Universal (public domain dedication):
https://creativecommons.org/publicdomain/zero/1.0/ . The marks are the trademarks of their
owners; showing one says nothing of an endorsement, and each owner's brand guidelines apply.

These marks carry a licence of their own, named by Simple Icons with their source:

""" + "\n".join(own_licences) + "\n"
    (folder / "brands-LICENSE.md").write_text(licence, encoding="utf-8")
    print(f"wrote {len(chosen)} brands from simple-icons-pack {version} to {folder}")


if __name__ == "__main__":
    main()
