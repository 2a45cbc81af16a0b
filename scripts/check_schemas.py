#!/usr/bin/env python3
"""The schemas `tomo schema` writes against `tomo check`, file by file.

On a corpus of content files, written by hand (one or more for every error kind of the README's
"Errors and warnings" that a schema can express, each with the verdict it must get) and made by
seeded mutation of valid files, check-jsonschema (with the schemas this tomo writes) and
`tomo check --format json` must call the same files valid and invalid. A post's or page's
front matter is checked against its schema on its own. The rules only `tomo check` can check
(files that exist, handles, dates that are no real day, ...) are kept out of the corpus: the
README lists them.

    scripts/check_schemas.py TOMO [--seed N] [--mutants N]

Exit status 0 when they agree on every file, 1 when not (each disagreement is printed) or when
check-jsonschema is missing: this check never skips.
"""
import argparse
import json
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

SITE = """title: Edge
baseURL: https://example.com/blog/
language: ja
description: A site
homeUsers: 10
pageSize: 5
contact: hello@example.com
images:
  widths: [320, 640]
disableKinds: [feed]
qr: true
params: {accent: "#ff0000", menu: [{label: Home, url: /}], count: 3}
theme:
  accent: orange
  background: ["#fce4ec", "#FFF3E0"]
  font: rounded
  buttons: pill
"""

PROFILE = """name: Alice
bio: Hello **there**.
links:
  website: https://example.com
  x: https://x.com/alice
  discord: https://discord.gg/alice
  email: contact@example.com
  misskey: https://misskey.io/@alice
items:
  - text: Shop
    url: https://shop.example.com/
    color: orange
    icon: p.png
  - text: Secret
    hidden: true
  - text: Sale
    from: 2026-05-01
    until: 2026-06-01T00:00:00+09:00
    color: "#A0B0C0"
itemColor: darkgray
email: alice@example.com
showEmail: true
language: ja
theme:
  accent: "#00897b"
  background: lightgray
  font: serif
  buttons: outline
"""

# `links:` as a list: a link of the profile's own with an icon (content/users/p.png, beside the
# corpus's profiles), a service's link placed by the list, and a service's mark under a label.
PROFILE_LIST = """name: Alice
links:
  - label: My shop
    url: https://shop.example.com/
    icon: p.png
  - service: twitch
    url: https://twitch.tv/alice
  - label: Our server
    service: discord
    url: https://discord.gg/team
"""

PROFILE_JSON_FIELDS = {
    "$schema": "../../schemas/profile-json.schema.json",
    "name": "Alice",
    "bio": "Hello",
    "links": [{"label": "Shop", "url": "https://shop.example.com/", "icon": "p.png"}, {"service": "spotify", "url": "https://open.spotify.com/artist/1"}],
    "items": [{"text": "Shop", "url": "https://shop.example.com/", "color": "Orange"}, {"text": "Sale", "from": "2026-05-01"}],
    "itemColor": "#00ff80",
    "email": "alice@example.com",
    "showEmail": True,
    "theme": {"accent": "Orange", "background": ["#000000", "white"], "font": "mono", "buttons": "square"},
}
PROFILE_JSON = json.dumps(PROFILE_JSON_FIELDS, indent=2) + "\n"


def json_theme(**keys):
    """The JSON profile with these theme keys changed."""
    return json.dumps({**PROFILE_JSON_FIELDS, "theme": {**PROFILE_JSON_FIELDS["theme"], **keys}}, indent=2) + "\n"

POST = "---\nphoto: p.png\ndate: 2026-05-01T18:30:00+09:00\nalt: A red square\nvisibility: followers\ndraft: false\n---\nA caption.\n"
PAGE = "---\ntitle: About\ndescription: About us\ndraft: false\n---\nText.\n"

BASES = {"site": SITE, "profile": PROFILE, "profile-list": PROFILE_LIST, "profile-json": PROFILE_JSON, "post": POST, "page": PAGE}
SCHEMAS = {"site": "site.schema.json", "profile": "profile.schema.json", "profile-list": "profile.schema.json",
           "profile-json": "profile-json.schema.json", "post": "post.schema.json", "page": "page.schema.json"}


def replace(base, old, new):
    assert old in base, old
    return base.replace(old, new, 1)


# (kind, what it shows, text, valid): every kind of error a schema can say, and the valid
# forms next to it that a too strict schema would refuse.
CASES = [
    ("site", "valid", SITE, True),
    ("site", "only a title", "title: T\n", True),
    ("site", "unknown key", replace(SITE, "pageSize:", "pagesize:"), False),
    ("site", "missing title", replace(SITE, "title: Edge\n", ""), False),
    ("site", "title with no value", replace(SITE, "title: Edge", "title:"), False),
    ("site", "title as a list", replace(SITE, "title: Edge", "title: [a, b]"), False),
    ("site", "title of spaces only", replace(SITE, "title: Edge", "title: \"   \""), False),
    ("site", "title of an empty string", replace(SITE, "title: Edge", "title: \"\""), False),
    ("site", "number as text", replace(SITE, "title: Edge", "title: 1984"), True),
    # Any well-formed BCP 47 tag (RFC 5646), in any letter case; a malformed one is an error.
    *[("site", f"language {tag}", replace(SITE, "language: ja", f"language: {tag}"), True) for tag in [
        "fr", "zh-Hans-TW", "ZH-hant", "es-419", "sr-Latn-RS", "de-CH-1996", "en-US-u-ca-gregory", "en-US-x-twain",
        "x-private", "i-klingon", "zh-min-nan", "qaa", "english", "en-x-a-a", "en-u-abcde-abcde", "en-1996-u-1996",
        "en-x-" + "-".join(["ab"] * 20)]],
    *[("site", f"language {tag!r}", replace(SITE, "language: ja", f"language: {json.dumps(tag)}"), False) for tag in [
        "en_US", "e", "en-", "en--US", "de-DE-a", "fr-FR-FR", "x", "en-x", "toolonglanguage", "日本語", "en US", "123",
        # A variant or an extension twice (RFC 5646), and a tag longer than tomo takes (64).
        "de-CH-1996-1996", "en-abcdefgh-abcdefgh", "en-a-bb-a-cc", "en-" + "-".join(["abcdefgh"] * 8)]],
    ("site", "pageSize 0", replace(SITE, "pageSize: 5", "pageSize: 0"), False),
    ("site", "pageSize not a number", replace(SITE, "pageSize: 5", "pageSize: five"), False),
    ("site", "pageSize a whole number written as a float", replace(SITE, "pageSize: 5", "pageSize: 5.0"), True),
    ("site", "pageSize in exponent form", replace(SITE, "pageSize: 5", "pageSize: 5e1"), True),
    ("site", "pageSize with a fraction", replace(SITE, "pageSize: 5", "pageSize: 5.5"), False),
    ("site", "image width written as a float", replace(SITE, "widths: [320, 640]", "widths: [320.0, 640]"), True),
    ("site", "homeUsers too many", replace(SITE, "homeUsers: 10", "homeUsers: 100001"), False),
    ("site", "image width too small", replace(SITE, "[320, 640]", "[8, 640]"), False),
    ("site", "no image widths", replace(SITE, "[320, 640]", "[]"), False),
    ("site", "unknown page kind", replace(SITE, "[feed]", "[feeds]"), False),
    ("site", "baseURL ftp", replace(SITE, "https://example.com/blog/", "ftp://example.com/"), False),
    ("site", "baseURL relative", replace(SITE, "https://example.com/blog/", "/blog/"), False),
    ("site", "baseURL with a query", replace(SITE, "https://example.com/blog/", "https://example.com/?a=1"), False),
    ("site", "baseURL with a user", replace(SITE, "https://example.com/blog/", "https://me@example.com/"), False),
    ("site", "baseURL in capitals", replace(SITE, "https://example.com/blog/", "HTTPS://example.com"), True),
    # Written in ASCII by the build (the host's IDNA form, the path percent-encoded).
    ("site", "baseURL with a host that is not ASCII", replace(SITE, "https://example.com/blog/", "https://exämple.com/"), True),
    ("site", "baseURL with a path that is not ASCII", replace(SITE, "https://example.com/blog/", "https://example.com/café/"), True),
    ("site", "baseURL with an emoji in its path", replace(SITE, "https://example.com/blog/", "https://example.com/\U0001F600/"), True),
    ("site", "baseURL percent-encoded", replace(SITE, "https://example.com/blog/", "https://example.com/caf%C3%A9/"), True),
    ("site", "baseURL in punycode", replace(SITE, "https://example.com/blog/", "https://xn--exmple-cua.com/"), True),
    ("site", "contact not an address", replace(SITE, "hello@example.com", "hello"), False),
    ("site", "contact as mailto", replace(SITE, "hello@example.com", "mailto:hello@example.com"), True),
    ("site", "params of any shape", replace(SITE, "count: 3}", "count: 3, deep: {er: {still: [1, true, ~]}}}"), True),
    ("site", "params not a mapping", replace(SITE, 'params: {accent: "#ff0000", menu: [{label: Home, url: /}], count: 3}', "params: [a]"), False),
    ("site", "theme font unknown", replace(SITE, "font: rounded", "font: comic"), False),
    ("site", "theme font in capitals", replace(SITE, "font: rounded", "font: Rounded"), False),
    ("site", "theme buttons unknown", replace(SITE, "buttons: pill", "buttons: round"), False),
    ("site", "theme unknown key", replace(SITE, "  font: rounded", "  fonts: rounded"), False),
    ("site", "theme not a mapping", replace(SITE, "theme:\n  accent: orange\n  background: [\"#fce4ec\", \"#FFF3E0\"]\n  font: rounded\n  buttons: pill\n", "theme: dark\n"), False),
    ("site", "duplicate key", SITE + "title: Again\n", False),
    ("site", "tab indentation", replace(SITE, "  widths", "\twidths"), False),
    ("site", "YAML syntax error", SITE + "oops: [\n", False),
    ("site", "empty file", "", False),
    ("profile", "valid", PROFILE, True),
    ("profile", "only a name", "name: Bob\n", True),
    ("profile", "own language with region and script", replace(PROFILE, "language: ja", "language: zh-Hant-HK"), True),
    ("profile", "malformed language", replace(PROFILE, "language: ja", "language: ja_JP"), False),
    ("profile", "language as a list", replace(PROFILE, "language: ja", "language: [ja]"), False),
    ("profile", "unknown key", replace(PROFILE, "itemColor:", "itemColour:"), False),
    ("profile", "unknown item key", replace(PROFILE, "    hidden: true", "    hide: true"), False),
    ("profile", "unknown service", replace(PROFILE, "  website:", "  homepag:"), False),
    ("profile", "a link holding U+FEFF", replace(PROFILE, "website: https://example.com", "website: \"https://example.com/a\\ufeffb\""), False),
    ("profile", "a mailto query holding <", replace(PROFILE, "website: https://example.com", "website: \"mailto:a@example.com?subject=<hi>\""), False),
    ("profile", "a mailto query holding |", replace(PROFILE, "website: https://example.com", "website: \"mailto:a@example.com?subject=a|b\""), False),
    ("profile", "a mailto query", replace(PROFILE, "website: https://example.com", "website: \"mailto:a@example.com?subject=Hi%20there&body=x\""), True),
    ("profile", "missing name", replace(PROFILE, "name: Alice\n", ""), False),
    ("profile", "name as a mapping", replace(PROFILE, "name: Alice", "name: {first: A}"), False),
    ("profile", "name of white space only", replace(PROFILE, "name: Alice", "name: \"\\t\\u3000\\u00a0 \""), False),
    ("profile", "name with a no-break space in it", replace(PROFILE, "name: Alice", "name: \"\\u00a0A\\u3000\""), True),
    ("profile", "name as a number", replace(PROFILE, "name: Alice", "name: 0"), True),
    ("profile", "showEmail yes", replace(PROFILE, "showEmail: true", "showEmail: yes"), False),
    ("profile", "item without text", replace(PROFILE, "  - text: Secret\n", "  - hidden: true\n").replace("    hidden: true\n", "", 1), False),
    ("profile", "item as a string", replace(PROFILE, "  - text: Secret\n    hidden: true\n", "  - Secret\n"), False),
    ("profile", "items not a list", replace(PROFILE, "items:\n", "items: many\nx_items:\n"), False),
    ("profile", "unknown colour", replace(PROFILE, "color: orange", "color: pruple"), False),
    ("profile", "colour in any case", replace(PROFILE, "color: orange", "color: ORANGE"), True),
    ("profile", "colour not #rrggbb", replace(PROFILE, '"#A0B0C0"', '"#A0B0C"'), False),
    ("profile", "colour not hex", replace(PROFILE, '"#A0B0C0"', '"#A0B0CG"'), False),
    ("profile", "javascript URL", replace(PROFILE, "https://shop.example.com/", "javascript:alert(1)"), False),
    ("profile", "URL without scheme", replace(PROFILE, "https://shop.example.com/", "shop.example.com"), False),
    ("profile", "relative URL", replace(PROFILE, "https://shop.example.com/", "/shop"), False),
    ("profile", "URL without host", replace(PROFILE, "https://shop.example.com/", "https:///shop"), False),
    ("profile", "URL with a space", replace(PROFILE, "https://shop.example.com/", "https://shop.example.com/a b"), False),
    ("profile", "mailto URL", replace(PROFILE, "https://shop.example.com/", "mailto:shop@example.com?subject=Hi"), True),
    ("profile", "mailto without address", replace(PROFILE, "https://shop.example.com/", "mailto:shop"), False),
    ("profile", "link email not an address", replace(PROFILE, "email: contact@example.com", "email: contact"), False),
    ("profile", "date not a date", replace(PROFILE, "from: 2026-05-01", "from: yesterday"), False),
    ("profile", "month 13", replace(PROFILE, "from: 2026-05-01", "from: 2026-13-01"), False),
    ("profile", "hour 25", replace(PROFILE, "from: 2026-05-01", "from: 2026-05-01T25:00"), False),
    # RFC 3339 takes any offset up to 23:59 either side of UTC.
    ("profile", "offset 19 hours", replace(PROFILE, "from: 2026-05-01", "from: 2026-05-01T18:30+19:00"), True),
    ("profile", "offset 23:59 west", replace(PROFILE, "from: 2026-05-01", "from: 2026-05-01T18:30-23:59"), True),
    ("profile", "offset 24 hours", replace(PROFILE, "from: 2026-05-01", "from: 2026-05-01T18:30+24:00"), False),
    ("profile", "offset minute 60", replace(PROFILE, "from: 2026-05-01", "from: 2026-05-01T18:30+05:60"), False),
    ("profile", "date with a space and fraction", replace(PROFILE, "from: 2026-05-01", "from: 2026-05-01 18:30:00.25Z"), True),
    ("profile", "theme accent an unknown name", replace(PROFILE, 'accent: "#00897b"', "accent: teal"), False),
    ("profile", "theme accent a name in any case", replace(PROFILE, 'accent: "#00897b"', "accent: DarkGray"), True),
    ("profile", "theme accent not #rrggbb", replace(PROFILE, 'accent: "#00897b"', 'accent: "#00897"'), False),
    ("profile", "theme background a gradient", replace(PROFILE, "background: lightgray", 'background: ["#000000", "#FFFFFF"]'), True),
    ("profile", "theme background of three colours", replace(PROFILE, "background: lightgray", "background: [red, green, blue]"), False),
    ("profile", "theme background of one colour in a list", replace(PROFILE, "background: lightgray", "background: [red]"), False),
    ("profile", "theme background with a bad colour", replace(PROFILE, "background: lightgray", 'background: [red, "#12345g"]'), False),
    ("profile", "theme background a mapping", replace(PROFILE, "background: lightgray", "background: {from: red}"), False),
    ("profile", "theme background a number", replace(PROFILE, "background: lightgray", "background: 12"), False),
    ("profile", "theme buttons outline", replace(PROFILE, "buttons: outline", "buttons: square"), True),
    ("profile", "theme buttons unknown", replace(PROFILE, "buttons: outline", "buttons: ghost"), False),
    ("profile", "theme font unknown", replace(PROFILE, "font: serif", "font: cursive"), False),
    ("profile", "theme empty", replace(PROFILE, "theme:\n  accent: \"#00897b\"\n  background: lightgray\n  font: serif\n  buttons: outline\n", "theme: {}\n"), True),
    ("profile", "duplicate key", PROFILE + "name: Again\n", False),
    ("profile", "brand keys", replace(PROFILE, "  website:", "  pixiv: https://www.pixiv.net/users/1\n  line: https://line.me/ti/p/a\n  spotify: https://open.spotify.com/a\n  website:"), True),
    ("profile", "brand key misspelt", replace(PROFILE, "  discord:", "  discrod:"), False),
    ("profile", "brand key in capitals", replace(PROFILE, "  discord:", "  Discord:"), False),
    ("profile", "brand link not a URL", replace(PROFILE, "https://discord.gg/alice", "discord.gg/alice"), False),
    ("profile", "brand link javascript", replace(PROFILE, "https://discord.gg/alice", "javascript:alert(1)"), False),
    ("profile", "links not a mapping or list", replace(PROFILE, "links:\n  website: https://example.com\n", "links: https://example.com\nx_links:\n  website: https://example.com\n"), False),
    ("profile", "item icon not a photo", replace(PROFILE, "icon: p.png", "icon: p.txt"), False),
    ("profile-list", "valid", PROFILE_LIST, True),
    ("profile-list", "empty list", "name: Alice\nlinks: []\n", True),
    ("profile-list", "service only", "name: Alice\nlinks:\n  - service: x\n    url: https://x.com/a\n", True),
    ("profile-list", "neither label nor service", replace(PROFILE_LIST, "  - service: twitch\n", "  - url: https://a.example/\n  - service: twitch\n"), False),
    ("profile-list", "missing url", replace(PROFILE_LIST, "    url: https://twitch.tv/alice\n", ""), False),
    ("profile-list", "unknown service", replace(PROFILE_LIST, "service: twitch", "service: twich"), False),
    ("profile-list", "unknown entry key", replace(PROFILE_LIST, "    icon: p.png", "    image: p.png"), False),
    ("profile-list", "icon not a photo", replace(PROFILE_LIST, "icon: p.png", "icon: p.svg"), False),
    ("profile-list", "label as a list", replace(PROFILE_LIST, "label: My shop", "label: [My, shop]"), False),
    ("profile-list", "label as a number", replace(PROFILE_LIST, "label: My shop", "label: 1984"), True),
    ("profile-list", "label of spaces only", replace(PROFILE_LIST, "label: My shop", "label: \"\\u2003 \""), False),
    ("profile-list", "entry as a string", replace(PROFILE_LIST, "  - service: twitch\n    url: https://twitch.tv/alice\n", "  - twitch\n"), False),
    ("profile-list", "ftp URL", replace(PROFILE_LIST, "https://shop.example.com/", "ftp://shop.example.com/"), False),
    ("profile-list", "mailto URL", replace(PROFILE_LIST, "https://shop.example.com/", "mailto:shop@example.com"), True),
    ("profile-json", "valid", PROFILE_JSON, True),
    ("profile-json", "unknown key", replace(PROFILE_JSON, '"bio"', '"bioo"'), False),
    ("profile-json", "own language", replace(PROFILE_JSON, '"bio": "Hello"', '"bio": "Hello", "language": "pt-BR"'), True),
    ("profile-json", "malformed language", replace(PROFILE_JSON, '"bio": "Hello"', '"bio": "Hello", "language": "pt_BR"'), False),
    ("profile-json", "null name", replace(PROFILE_JSON, '"name": "Alice"', '"name": null'), False),
    ("profile-json", "showEmail as a string", replace(PROFILE_JSON, '"showEmail": true', '"showEmail": "true"'), False),
    ("profile-json", "bad colour", replace(PROFILE_JSON, '"#00ff80"', '"#00ff8"'), False),
    ("profile-json", "links as a mapping", json.dumps({**PROFILE_JSON_FIELDS, "links": {"twitch": "https://twitch.tv/a", "email": "a@example.com"}}), True),
    ("profile-json", "link without url", json.dumps({**PROFILE_JSON_FIELDS, "links": [{"service": "spotify"}]}), False),
    ("profile-json", "link label as null", json.dumps({**PROFILE_JSON_FIELDS, "links": [{"label": None, "url": "https://a.example/"}]}), False),
    ("profile-json", "$schema as a number", replace(PROFILE_JSON, '"../../schemas/profile-json.schema.json"', '[1]'), False),
    ("profile-json", "theme background of three", json_theme(background=["#000000", "white", "red"]), False),
    ("profile-json", "theme background a number", json_theme(background=7), False),
    ("profile-json", "theme background one colour", json_theme(background="#ABCDEF"), True),
    ("profile-json", "theme font null", json_theme(font=None), False),
    ("profile-json", "JSON syntax error", PROFILE_JSON.replace("}", "", 1), False),
    ("post", "valid", POST, True),
    ("post", "unknown key", replace(POST, "alt:", "alt_text:"), False),
    ("post", "missing date", replace(POST, "date: 2026-05-01T18:30:00+09:00\n", ""), False),
    ("post", "missing photo", replace(POST, "photo: p.png\n", ""), False),
    ("post", "photo not a photo file", replace(POST, "photo: p.png", "photo: p.txt"), False),
    ("post", "bad date", replace(POST, "2026-05-01T18:30:00+09:00", "2026/05/01"), False),
    ("post", "date without offset", replace(POST, "2026-05-01T18:30:00+09:00", "2026-05-01 18:30"), True),
    ("post", "unknown visibility", replace(POST, "visibility: followers", "visibility: friends"), False),
    ("post", "visibility in capitals", replace(POST, "visibility: followers", "visibility: Public"), False),
    ("post", "visibility with no value", replace(POST, "visibility: followers", "visibility: #private"), False),
    ("post", "draft on", replace(POST, "draft: false", "draft: on"), False),
    ("page", "valid", PAGE, True),
    ("page", "unknown key", replace(PAGE, "title:", "titel:"), False),
    ("page", "missing title", replace(PAGE, "title: About\n", ""), False),
    ("page", "title of spaces only", replace(PAGE, "title: About", "title: \"   \""), False),
    ("page", "title with a space around a word", replace(PAGE, "title: About", "title: \" About \""), True),
    ("page", "draft as a number", replace(PAGE, "draft: false", "draft: 0"), False),
    ("page", "description as a list", replace(PAGE, "description: About us", "description:\n  - About"), False),
]

# Values a mutation puts in place of one, by what the schema says the key takes. Each pool has
# valid and invalid values; none of them breaks a rule only tomo check checks.
ANY_BAD = ["[1, 2]", '{"a": 1}', "", "~"]
POOLS = {
    "text": ["Hello", "1984", "true", '"quoted: text"', "'single'"],
    "integer": ["0", "1", "7", "1000", "1001", "100000", "100001", "-3", "1.5", "twenty"],
    "boolean": ["true", "false", "yes", "on", "True", "FALSE", '"true"', "1"],
    "colour": ["purple", "Purple", "darkgray", "pruple", '"#ff8000"', '"#FF800"', '"#ff800g"', "rgb(1,2,3)", '"#+f0000"'],
    "date": ["2026-05-01", "2026-05-01 18:30", "2026-05-01T18:30:00.5Z", "2026-05-01T18:30+0900", "2026-05-01T18:30:00-05:00",
             "2026-13-01", "2026-05-32", "2026-05-01T24:00", "2026/05/01", "yesterday", "2026-05-01T18:30+19:00", "2026-5-1"],
    "link": ["https://example.org/a", "HTTP://EXAMPLE.ORG", "mailto:x@example.org", "javascript:alert(1)", "ftp://example.org/",
             "example.org", "/relative", "https://", "https://exa mple.org", "mailto:nobody", "data:text/html,hi"],
    "site": ["https://example.org/", "http://example.org:8080/sub/", "ftp://example.org/", "/sub/", "https://example.org/?q=1",
             "https://example.org/#top", "https://u@example.org/", "example.org"],
    "email": ["bob@example.org", "mailto:bob@example.org", "bob", "bob@localhost", "bob@@example.org", "bob@example.org?x", "a b@example.org"],
    "photo": ["p.png", "p.txt", "notes", "p"],
    "language": ["fr", "zh-Hans-TW", "EN-gb", "es-419", "x-mine", "i-klingon", "en_US", "e", "en--US", "de-DE-a", "fr-FR-FR", "日本語", "de-1996-1996", "en-a-bb-a-cc"],
}


def resolve(prop, root):
    """`prop` with the definition its `$ref` (`#/$defs/<name>`) names merged in."""
    ref = prop.get("$ref", "")
    if not ref.startswith("#/$defs/"):
        return prop
    merged = dict(root["$defs"][ref[len("#/$defs/"):]])
    merged.update({key: value for key, value in prop.items() if key != "$ref"})
    return merged


def flatten(schema, into=None, root=None):
    """Every property of `schema` (nested ones too) by its key, references resolved."""
    into = {} if into is None else into
    root = schema if root is None else root
    for key, prop in schema.get("properties", {}).items():
        prop = resolve(prop, root)
        into.setdefault(key, prop)
        flatten(prop, into, root)
        if isinstance(prop.get("items"), dict):
            flatten(resolve(prop["items"], root), into, root)
    return into


def pool(prop):
    """The values to try for a property, from what its schema says."""
    pattern = prop.get("pattern", "")
    if "anyOf" in prop:
        return POOLS["colour"]
    if "enum" in prop:
        return prop["enum"] + [w.upper() for w in prop["enum"]] + ["other"]
    if prop.get("type") == "integer":
        return POOLS["integer"]
    if prop.get("type") == "boolean":
        return POOLS["boolean"]
    if pattern.startswith("^[0-9]{4}"):
        return POOLS["date"]
    if "[Ii]-[Kk][Ll][Ii][Nn][Gg][Oo][Nn]" in pattern:
        return POOLS["language"]
    if pattern.startswith("\\."):
        return POOLS["photo"]
    if prop.get("format") == "uri" and "mailto" not in pattern.lower():
        return POOLS["site"]
    if prop.get("format") == "uri":
        return POOLS["link"]
    if "@" in pattern:
        return POOLS["email"]
    if prop.get("type") == "string":
        return []  # a path: only whether it exists matters, and that is tomo check's alone
    return POOLS["text"]


LINE = re.compile(r'^(\s*(?:- )?)("?)([A-Za-z$][A-Za-z$]*)("?):(\s*)(.*?)(,?)$')


def as_json(value):
    """A pool value (YAML text) as a JSON value's text."""
    if value in ("", "~"):
        return "null"
    try:
        json.loads(value)
        return value
    except ValueError:
        return json.dumps(value.strip("'"))


def mutate(text, kind, properties, rng):
    """`text` with one seeded change: a key renamed, a line removed or repeated, or a value
    replaced by one of its pool; and what was done."""
    lines = text.split("\n")
    candidates = [i for i, line in enumerate(lines) if LINE.match(line) and line.strip() != "---"]
    index = rng.choice(candidates)
    indent, quote, key, _, space, value, comma = LINE.match(lines[index]).groups()
    # A repeated key is an error in YAML for both, but a JSON parser keeps the last: only
    # tomo check sees it in a JSON profile.
    actions = ["rename", "remove", "value", "value", "value", "bad type"] + ([] if kind == "profile-json" else ["repeat"])
    action = rng.choice(actions)
    if action == "value" and (not value or value == "|" or not pool(properties.get(key, {}))):
        action = "bad type"
    if action == "rename":
        new_key = rng.choice([key + "s", key[:-1] or key + "x", key.upper(), key.capitalize(), key + "_"])
        lines[index] = f"{indent}{quote}{new_key}{quote}:{space}{value}{comma}"
        what = f"rename {key} to {new_key}"
    elif action == "remove":
        del lines[index]
        what = f"remove the {key} line"
    elif action == "repeat":
        lines.insert(index + 1, lines[index])
        what = f"repeat the {key} line"
    else:
        choices = pool(properties.get(key, {})) if action == "value" else ANY_BAD
        new = rng.choice(choices)
        if kind == "profile-json":
            new = as_json(new)
        lines[index] = f"{indent}{quote}{key}{quote}:{' ' if new else ''}{new}{comma}"
        what = f"{key}: {new}"
    return "\n".join(lines), what


def png():
    """An 8x8 red PNG, for the posts' photo."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + b"\xff\x00\x00" * 8 for _ in range(8))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 8, 8, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def front_matter(text):
    """The YAML between a Markdown file's first two `---` lines."""
    lines = text.split("\n")
    if not lines or lines[0] != "---" or "---" not in lines[1:]:
        return text
    return "\n".join(lines[1:lines.index("---", 1)]) + "\n"


def tomo_errors(tomo, site):
    """The files `tomo check` reports an error in, relative to the site."""
    result = subprocess.run([tomo, "check", "--format", "json"], cwd=site, capture_output=True, text=True)
    if result.returncode not in (0, 1):
        sys.exit(f"tomo check failed in {site} (status {result.returncode}): {result.stderr}")
    return {problem["file"] for problem in json.loads(result.stdout) if problem["severity"] == "error"}


def schema_errors(schemas, kind, files):
    """The files check-jsonschema refuses (by the schema or because they do not parse)."""
    if not files:
        return set()
    result = subprocess.run(["check-jsonschema", "--output-format", "json", "--schemafile", str(schemas / SCHEMAS[kind])] + [str(f) for f in files],
                            capture_output=True, text=True)
    if result.returncode not in (0, 1):
        sys.exit(f"check-jsonschema failed (status {result.returncode}): {result.stderr}{result.stdout}")
    report = json.loads(result.stdout)
    return {Path(e["filename"]).resolve() for e in report["errors"] + report["parse_errors"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tomo")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--mutants", type=int, default=300)
    args = parser.parse_args()
    if shutil.which("check-jsonschema") is None:
        sys.exit("check-jsonschema is not installed: run `make test-deps` (PyPI's check-jsonschema); this check never skips")
    tomo = str(Path(args.tomo).resolve())
    work = Path(tempfile.mkdtemp(prefix="tomo-schemas-"))
    try:
        return run(tomo, work, args.seed, args.mutants)
    finally:
        shutil.rmtree(work)


def run(tomo, work, seed, mutant_count):
    schemas = work / "schemas"
    subprocess.run([tomo, "schema", "--out", str(schemas)], check=True, capture_output=True)
    properties = {kind: flatten(json.loads((schemas / name).read_text())) for kind, name in SCHEMAS.items()}
    corpus = [(kind, what, text, valid) for kind, what, text, valid in CASES]
    rng = random.Random(seed)
    kinds = list(BASES)
    for number in range(mutant_count):
        kind = kinds[number % len(kinds)]
        text, what = mutate(BASES[kind], kind, properties[kind], rng)
        corpus.append((kind, f"mutant {number}: {what}", text, None))

    # Every file but site.yaml goes into one site, beside a valid host user; each site.yaml
    # gets a site of its own.
    host = work / "host"
    (host / "content/posts/host").mkdir(parents=True)
    (host / "content/pages").mkdir(parents=True)
    (host / "content/site.yaml").write_text(SITE)
    (host / "content/users").mkdir(parents=True)
    (host / "content/users/host.yaml").write_text("name: Host\n")
    (host / "content/posts/host/p.png").write_bytes(png())
    # The icon the profiles' links and items name.
    (host / "content/users/p.png").write_bytes(png())
    instances = work / "instances"
    entries = []  # (kind, what, valid, site, file relative to it, schema instance)
    for number, (kind, what, text, valid) in enumerate(corpus):
        if kind == "site":
            site, relative = work / f"site{number}", "content/site.yaml"
            (site / "content").mkdir(parents=True)
        else:
            site = host
            relative = {"profile": f"content/users/u{number}.yaml", "profile-list": f"content/users/u{number}.yaml", "profile-json": f"content/users/u{number}.json",
                        "post": f"content/posts/host/p{number}.md", "page": f"content/pages/page{number}.md"}[kind]
        (site / relative).write_text(text)
        instance = instances / kind / (f"{number}.json" if kind == "profile-json" else f"{number}.yaml")
        instance.parent.mkdir(parents=True, exist_ok=True)
        instance.write_text(front_matter(text) if kind in ("post", "page") else text)
        entries.append((kind, what, valid, site, relative, instance.resolve()))

    refused_by_tomo = {}
    for site in {entry[3] for entry in entries}:
        refused_by_tomo[site] = tomo_errors(tomo, site)
    known = {(entry[3], entry[4]) for entry in entries}
    strays = sorted(f"{site}/{file}" for site, files in refused_by_tomo.items() for file in files if (site, file) not in known)
    refused_by_schema = set()
    for kind in SCHEMAS:
        refused_by_schema |= schema_errors(schemas, kind, [e[5] for e in entries if e[0] == kind])

    problems = [f"tomo check reports an error in {path}, which is no file of the corpus" for path in strays]
    counts = {"valid": 0, "invalid": 0}
    for kind, what, valid, site, relative, instance in entries:
        by_tomo = relative not in refused_by_tomo[site]
        by_schema = instance not in refused_by_schema
        counts["valid" if by_tomo else "invalid"] += 1
        verdict = lambda ok: "valid" if ok else "invalid"
        if by_tomo != by_schema:
            problems.append(f"{kind} ({what}): tomo check says {verdict(by_tomo)}, the schema {verdict(by_schema)}:\n{(site / relative).read_text()}")
        elif valid is not None and valid != by_tomo:
            problems.append(f"{kind} ({what}): both say {verdict(by_tomo)}, the case expects {verdict(valid)}")
    mutants = [e for e in entries if e[2] is None]
    invalid_mutants = sum(1 for e in mutants if e[4] in refused_by_tomo[e[3]])
    # A corpus that is all valid or all invalid would agree by accident.
    if mutants and not (0.2 * len(mutants) <= invalid_mutants <= 0.8 * len(mutants)):
        problems.append(f"only {invalid_mutants} of {len(mutants)} mutants are invalid: the mutations no longer test both sides")
    for problem in problems:
        print("DISAGREE: " + problem, file=sys.stderr)
    print(f"check-jsonschema and tomo check on {len(entries)} files ({len(CASES)} written by hand, {len(mutants)} mutants of seed {seed}, "
          f"{invalid_mutants} of them invalid): {counts['valid']} valid, {counts['invalid']} invalid, {len(problems)} disagreements")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
