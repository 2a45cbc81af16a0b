#!/usr/bin/env python3
"""Checks the link previews of a built Tomo site with a real parser (PyPI extruct).

  check_previews.py OUTPUT_FOLDER     every HTML page of a built site
  check_previews.py --edge-cases TOMO builds a site of edge cases with the TOMO binary
                                      (a profile without icon or header, a 1280x400 header,
                                      hostile names and bios, a Mastodon link, no posts) and
                                      checks it, and what it must say, too

On every page: og:title, og:type, og:locale, og:image with og:image:width/height/alt (the real
pixel size of the file the URL names, read from its header), og:url absolute (none on 404.html)
and a twitter:card that fits the image's shape. Profiles and posts show their share card
(media/<handle>/…card-<hash>.jpg, 1200x630, summary_large_image). On profiles: profile:username, JSON-LD
ProfilePage whose Person's sameAs are the profile's own links, an h-card. On posts:
article:published_time and JSON-LD SocialMediaPosting. A page left at a renamed user's old
address (a meta refresh) has no preview of its own: its canonical URL must be a page of the
site. Exits 1 naming every problem.
"""
import json
import os
import struct
import subprocess
import sys
import tempfile
import zlib

import extruct  # installed by `make test-deps`; a missing parser is a failure, never a skip
import lxml.html

LARGE_CARD_RATIO = 1.91
LARGE_CARD_KEEPS = 0.75
SHARE_CARD_SIZE = (1200, 630)


def image_size(data):
    """(width, height) from a PNG, JPEG or WebP header, None for anything else."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        return struct.unpack(">II", data[16:24])
    if data[:2] == b"\xff\xd8":
        index = 2
        while index + 9 < len(data):
            if data[index] != 0xFF:
                return None
            marker = data[index + 1]
            length = struct.unpack(">H", data[index + 2:index + 4])[0]
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
                height, width = struct.unpack(">HH", data[index + 5:index + 9])
                return width, height
            index += 2 + length
        return None
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        kind = data[12:16]
        if kind == b"VP8 ":
            width, height = struct.unpack("<HH", data[26:30])
            return width & 0x3FFF, height & 0x3FFF
        if kind == b"VP8L":
            bits = struct.unpack("<I", data[21:25])[0]
            return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
        if kind == b"VP8X":
            return int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1
    return None


def expected_card(width, height):
    """summary_large_image for images of at least 300x157 that keep three quarters of
    themselves when cropped to 1.91:1; summary otherwise."""
    ratio = width / height
    kept = min(ratio / LARGE_CARD_RATIO, LARGE_CARD_RATIO / ratio)
    return "summary_large_image" if width >= 300 and height >= 157 and kept >= LARGE_CARD_KEEPS else "summary"


def html_pages(folder):
    for root, _, files in os.walk(folder):
        for name in files:
            if name.endswith(".html"):
                path = os.path.join(root, name)
                yield os.path.relpath(path, folder)


def base_url(folder):
    data = extruct.extract(open(os.path.join(folder, "index.html"), encoding="utf-8").read(), syntaxes=["opengraph"], uniform=True)
    url = (data["opengraph"] or [{}])[0].get("og:url")
    if not url:
        sys.exit(f"check_previews: {folder}/index.html has no og:url to take the base URL from")
    return url


def check_page(folder, path, base, problems):
    """Checks one page; returns what was read from it, for the edge-case checks."""
    text = open(os.path.join(folder, path), encoding="utf-8").read()
    url = base + (path[: -len("index.html")] if path.endswith("index.html") else path)
    data = extruct.extract(text, base_url=url, syntaxes=["opengraph", "json-ld", "microformat"], uniform=False)
    tree = lxml.html.fromstring(text)

    def fail(message):
        problems.append(f"{path}: {message}")

    properties = {}
    for block in data["opengraph"]:
        for key, value in block["properties"]:
            properties.setdefault(key, []).append(value)

    def one(key):
        values = properties.get(key, [])
        if len(values) != 1:
            fail(f"{key} appears {len(values)} times, not once")
            return None
        return values[0]

    for key in ["og:title", "og:type", "og:locale", "og:image:alt"]:
        if one(key) == "":
            fail(f"{key} is empty")
    og_type = one("og:type")
    page_url = properties.get("og:url", [])
    if path == "404.html":
        if page_url:
            fail("the not-found page, served at any address, names a URL of its own")
    elif page_url != [url]:
        fail(f"og:url is {page_url}, not [{url!r}]")

    image, width, height = one("og:image"), one("og:image:width"), one("og:image:height")
    size = None
    if image is not None:
        if not image.startswith(base):
            fail(f"og:image {image} is not an absolute URL under {base}")
        else:
            file = os.path.join(folder, image[len(base):])
            if not os.path.isfile(file):
                fail(f"og:image {image} is not a file of the output")
            else:
                size = image_size(open(file, "rb").read())
                if size is None:
                    fail(f"cannot read the pixel size of {image}")
                elif (width, height) != (str(size[0]), str(size[1])):
                    fail(f"og:image:width/height say {width}x{height}, but {image} is {size[0]}x{size[1]}")
    cards = tree.xpath('//head/meta[@name="twitter:card"]/@content')
    if size and cards != [expected_card(*size)]:
        fail(f"twitter:card {cards} for a {size[0]}x{size[1]} image, not {expected_card(*size)}")

    scripts = tree.xpath('//script[@type="application/ld+json"]/text()')
    ld = []
    for script in scripts:
        for raw in "<>&\u2028\u2029":
            if raw in script:
                fail(f"the JSON-LD holds a raw {raw!r}")
        try:
            ld.append(json.loads(script))
        except ValueError as error:
            fail(f"the JSON-LD does not parse: {error}")
    if [item.get("@type") for item in data["json-ld"]] != [item.get("@type") for item in ld]:
        fail("extruct reads other JSON-LD than the script elements hold")

    read = {"properties": properties, "ld": ld, "tree": tree, "microformats": data["microformat"], "card": cards}
    is_post = og_type == "article" and properties.get("article:published_time")
    if og_type == "profile" or is_post:
        name = (image or "").rsplit("/", 1)[-1]
        if not ("/media/" in (image or "") and (name.startswith("card-") or "-card-" in name) and name.endswith(".jpg")):
            fail(f"og:image {image} is not the page's share card")
        elif size != SHARE_CARD_SIZE:
            fail(f"the share card {image} is {size}, not {SHARE_CARD_SIZE[0]}x{SHARE_CARD_SIZE[1]}")
    if og_type == "profile":
        if not properties.get("profile:username"):
            fail("a profile without profile:username")
        if [item.get("@type") for item in ld] != ["ProfilePage"]:
            fail(f"JSON-LD types {[item.get('@type') for item in ld]}, not ['ProfilePage']")
        else:
            person = ld[0].get("mainEntity", {})
            own_links = [href for href in tree.xpath('//ul[@class="links"]//a/@href') if href.startswith(("http://", "https://"))]
            if person.get("@type") != "Person":
                fail("the ProfilePage's mainEntity is not a Person")
            if person.get("sameAs", []) != own_links:
                fail(f"sameAs {person.get('sameAs')} is not the profile's links {own_links}")
            if person.get("url") != url:
                fail(f"the Person's url {person.get('url')} is not the page's {url}")
        relme = tree.xpath('//ul[@class="links"]//a[not(contains(concat(" ", @rel, " "), " me "))]/@href')
        if relme:
            fail(f"own links without rel=\"me\": {relme}")
        cards_mf = [item for item in data["microformat"] if "h-card" in item.get("type", [])]
        if len(cards_mf) != 1:
            fail(f"{len(cards_mf)} h-cards, not one")
        else:
            card = cards_mf[0]["properties"]
            for key in ["name", "url", "nickname", "note"]:
                if not card.get(key):
                    fail(f"the h-card has no {key}")
            if card.get("url") != [url]:
                fail(f"the h-card's url {card.get('url')} is not {url}")
            read["hcard"] = card
    elif is_post:
        if [item.get("@type") for item in ld] != ["SocialMediaPosting"]:
            fail(f"JSON-LD types {[item.get('@type') for item in ld]}, not ['SocialMediaPosting']")
        elif not os.path.isfile(os.path.join(folder, ld[0].get("image", {}).get("contentUrl", "")[len(base):])):
            fail("the posting's image is not a file of the output")
        elif ld[0].get("datePublished") != properties["article:published_time"][0]:
            fail("datePublished is not article:published_time")
    return read


def redirect_target(folder, path):
    """Where a page left at a renamed user's old address sends readers (its canonical URL), or
    None for a page of its own (no meta refresh)."""
    tree = lxml.html.fromstring(open(os.path.join(folder, path), encoding="utf-8").read())
    if not any((meta.get("http-equiv") or "").lower() == "refresh" for meta in tree.iter("meta")):
        return None
    return next((link.get("href") or "" for link in tree.iter("link") if link.get("rel") == "canonical"), "")


def check_site(folder):
    base = base_url(folder)
    problems, pages = [], {}
    for path in sorted(html_pages(folder)):
        # A redirect has no preview of its own: a previewer follows it to the page it names,
        # which must be one of the site's, and is checked as such.
        target = redirect_target(folder, path)
        if target is not None:
            if not target.startswith(base) or not os.path.isfile(os.path.join(folder, target[len(base):], "index.html")):
                problems.append(f"{path}: redirects to {target!r}, which is no page of the site")
            continue
        pages[path] = check_page(folder, path, base, problems)
    if not pages:
        problems.append(f"{folder}: no HTML page")
    return problems, pages


def png(width, height):
    rows = b"".join(b"\x00" + bytes((x // 8 * 16) & 0xFF for x in range(width)) for _ in range(height))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


HOSTILE = '</script><!-- "&<> \u2028 \u2029 <!--<script>'


def edge_cases(tomo):
    """Builds the edge-case site with `tomo` in a temporary folder and checks it; returns the problems."""
    with tempfile.TemporaryDirectory(prefix="tomo-previews-") as site:
        return check_edge_site(tomo, site)


def check_edge_site(tomo, site):
    links = {"github": "https://github.com/edge", "mastodon": "https://social.example/@edge", "website": "https://edge.example/?a=1&b=%3C"}
    files = {
        "content/site.yaml": "title: " + json.dumps("Edges " + HOSTILE) + "\nbaseURL: https://edges.example/sub/\nlanguage: ja\n",
        "content/users/hostile.json": json.dumps({"name": "N " + HOSTILE, "bio": "B " + HOSTILE + "\n\n**bold** " + HOSTILE, "links": links}),
        "content/users/wide.yaml": "name: Wide\nicon: wide/icon.png\nheader: wide/header.png\nlinks:\n  mastodon: https://social.example/users/wide\n",
        "content/pages/about.md": "---\ntitle: " + json.dumps("About " + HOSTILE) + "\n---\nAbout.\n",
    }
    for path, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(site, path)), exist_ok=True)
        open(os.path.join(site, path), "w", encoding="utf-8").write(text)
    os.makedirs(os.path.join(site, "content/users/wide"))
    open(os.path.join(site, "content/users/wide/icon.png"), "wb").write(png(400, 400))
    open(os.path.join(site, "content/users/wide/header.png"), "wb").write(png(1280, 400))
    build = subprocess.run([os.path.abspath(tomo), "build"], cwd=site, capture_output=True, text=True)
    if build.returncode != 0:
        return [f"tomo build of the edge-case site failed:\n{build.stdout}{build.stderr}"]
    output = os.path.join(site, "public")
    problems, pages = check_site(output)

    def expect(condition, message):
        if not condition:
            problems.append("edge cases: " + message)

    def tag(page, key):
        return page["properties"].get(key, []) if page else []

    hostile = pages.get("hostile/index.html")
    wide = pages.get("wide/index.html")
    expect(hostile and wide, "the profiles were not built")
    if hostile and wide:
        person = (hostile["ld"] or [{}])[0].get("mainEntity", {})
        expect(person.get("name") == "N " + HOSTILE, f"the Person's name reads back as {person.get('name')!r}")
        expect(person.get("alternateName") == "@hostile", "alternateName is not @hostile")
        description = person.get("description", "")
        expect(description.startswith("B ") and "\nbold " in description, f"the description from the bio reads {description!r}")
        expect(person.get("sameAs") == list(links.values()), f"sameAs {person.get('sameAs')} is not {list(links.values())}")
        expect((tag(hostile, "og:title") or [""])[0].startswith("N " + HOSTILE), "og:title does not read back")
        name = hostile.get("hcard", {}).get("name")
        expect(name == ["N " + HOSTILE], f"the h-card's name reads back as {name}")
        creators = hostile["tree"].xpath('//meta[@name="fediverse:creator"]/@content')
        expect(creators == ["@edge@social.example"], f"fediverse:creator is {creators}")
        expect("/media/hostile/card-" in "".join(tag(hostile, "og:image")), f"a profile without icon or header does not show its share card: og:image {tag(hostile, 'og:image')}")
        expect(wide["tree"].xpath('//meta[@name="fediverse:creator"]') == [], "a Mastodon link of another form names an account")
        expect("/media/wide/card-" in "".join(tag(wide, "og:image")), f"a profile with a 1280x400 header does not show its share card: og:image {tag(wide, 'og:image')}")
        expect(wide["card"] == ["summary_large_image"], f"the profile with a 1280x400 header has card {wide['card']}")
        expect(tag(wide, "og:locale") == ["ja_JP"], "og:locale is not ja_JP")
        expect(bool(wide.get("hcard", {}).get("photo")), "the h-card has no photo")
    home = pages.get("index.html")
    expect(tag(home, "og:image") == ["https://edges.example/sub/static/preview.png"], "the home page of a site without posts has no image")
    return problems


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--edge-cases":
        problems = edge_cases(sys.argv[2])
        what = "the edge-case site"
    elif len(sys.argv) == 2:
        problems, pages = check_site(sys.argv[1])
        what = f"{len(pages)} pages of {sys.argv[1]}"
    else:
        sys.exit(__doc__)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        sys.exit(f"check_previews: {len(problems)} problems in {what}")
    print(f"Link previews (extruct): {what}: every page is complete")


if __name__ == "__main__":
    main()
