#!/usr/bin/env python3
"""Checks a built site's sitemap against the sitemaps.org protocol (0.9).

    scripts/check_sitemaps.py --base-url URL OUTPUT_DIR
    scripts/check_sitemaps.py --self-test

Starting at OUTPUT_DIR/sitemap.xml:

- each sitemap file is well-formed XML (read with expat), at most 50,000 URLs and 50 MB
  (52,428,800 bytes, uncompressed), with the root `<urlset>` or `<sitemapindex>` in the
  namespace http://www.sitemaps.org/schemas/sitemap/0.9 and only the protocol's elements in it
  (`url`/`sitemap` with one `loc` and at most one `lastmod`, `changefreq`, `priority`);
- every `<loc>` is an absolute URL under the base URL (same scheme, host and port, and the
  base's path as a prefix), in ASCII with `%` escapes, under 2,048 characters, entity-escaped
  in the file (no raw `'`, `"` or `>`; XML itself makes `&` and `<` escaped), and names a file
  of the output (a page's `index.html`, or the file itself); no `<loc>` is listed twice, in
  one file or across the parts of an index;
- every `<lastmod>` is a W3C Datetime (`2026-05-01`, `2026-05-01T18:30:00+09:00`…), a real
  date, not before 1995 and not more than a day after the check runs (as check_feeds.py);
  `changefreq` and `priority` hold the protocol's values;
- an index lists only sitemap files that exist in the output, each a valid `<urlset>` (an index
  may not list an index), and every `sitemap*.xml` at the output's root is either the index or
  listed by it;
- `robots.txt` has a `Sitemap:` line with the sitemap's absolute URL.

`--self-test` breaks a valid sitemap (and an index with its parts) in one way at a time and
requires each break to be reported, so the check is known to fail when it should.
"""
import datetime
import os
import re
import shutil
import sys
import tempfile
import urllib.parse
import xml.parsers.expat

import site_checks

NAMESPACE = "http://www.sitemaps.org/schemas/sitemap/0.9"
MAX_URLS = 50_000
MAX_BYTES = 50 * 1024 * 1024
MAX_LOC = 2048
CHANGEFREQ = {"always", "hourly", "daily", "weekly", "monthly", "yearly", "never"}
W3C_DATETIME = re.compile(r"^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?)?)?$")
URI_CHARACTERS = re.compile(r"^(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$")
# Per entry of each root: its child elements, and how many of each.
ENTRY = {"urlset": ("url", {"loc": (1, 1), "lastmod": (0, 1), "changefreq": (0, 1), "priority": (0, 1)}),
         "sitemapindex": ("sitemap", {"loc": (1, 1), "lastmod": (0, 1)})}


def w3c_datetime_problem(text):
    match = W3C_DATETIME.match(text)
    if not match:
        return f"{text!r} is not a W3C Datetime (2026-05-01 or 2026-05-01T18:30:00+09:00)"
    year, month, day, hour, minute, second, zone = match.groups()
    try:
        value = datetime.datetime(int(year), int(month or 1), int(day or 1), int(hour or 0), int(minute or 0),
                                  int(second or 0), tzinfo=datetime.timezone(site_checks.offset(zone or "Z")))
    except ValueError as error:
        return f"{text!r} is not a real date and time ({error})"
    return site_checks.implausibility(value, text)


class SitemapFile:
    """One sitemap file read with expat: its root, its entries (each a dict of child texts,
    with the raw bytes of its `loc`), and what is wrong with its form."""

    def __init__(self, data):
        self.data = data
        self.root = None
        self.entries = []
        self.problems = []
        self.path = []
        self.text = ""
        self.loc_start = None
        parser = xml.parsers.expat.ParserCreate(namespace_separator=" ")
        parser.StartElementHandler = self.start
        parser.EndElementHandler = self.end
        parser.CharacterDataHandler = self.characters
        self.parser = parser
        try:
            parser.Parse(data, True)
        except xml.parsers.expat.ExpatError as error:
            self.problems.append(f"not well-formed XML: {error}")

    def start(self, name, attributes):
        namespace, _, local = name.rpartition(" ")
        depth = len(self.path)
        self.path.append((namespace, local))
        self.text = ""
        if depth == 0:
            self.root = local
            if namespace != NAMESPACE or local not in ENTRY:
                self.problems.append(f"the root is <{local}> in namespace {namespace!r}, not <urlset> or <sitemapindex> in {NAMESPACE}")
                self.root = None
        elif self.root and namespace == NAMESPACE:
            entry, children = ENTRY[self.root]
            if depth == 1:
                if local != entry:
                    self.problems.append(f"<{local}> in <{self.root}> (only <{entry}>)")
                self.entries.append({"counts": {}})
            elif depth == 2 and self.path[1] == (NAMESPACE, entry):
                if local not in children:
                    self.problems.append(f"<{local}> in <{entry}> (only {', '.join(children)})")
                counts = self.entries[-1]["counts"]
                counts[local] = counts.get(local, 0) + 1
                if local == "loc":
                    start = self.parser.CurrentByteIndex
                    self.loc_start = self.data.index(b">", start) + 1

    def characters(self, text):
        if len(self.path) == 3:  # only the texts of loc, lastmod… are read
            self.text += text

    def end(self, name):
        namespace, _, local = name.rpartition(" ")
        if len(self.path) == 3 and self.root and namespace == NAMESPACE and self.entries:
            self.entries[-1][local] = self.text.strip()
            if local == "loc" and self.loc_start is not None:
                self.entries[-1]["raw loc"] = self.data[self.loc_start:self.parser.CurrentByteIndex]
        if len(self.path) == 2 and self.root and self.entries:
            entry, children = ENTRY[self.root]
            for child, (least, most) in children.items():
                count = self.entries[-1]["counts"].get(child, 0)
                if not least <= count <= most:
                    self.problems.append(f"<{entry}> {len(self.entries)} has {count} <{child}> (from {least} to {most})")
        self.path.pop()
        self.text = ""


class SiteCheck:
    def __init__(self, output, base_url):
        self.output = output
        self.base_url = base_url
        self.base = urllib.parse.urlsplit(base_url)
        self.problems = []
        self.urls = 0
        # Every page URL listed so far, in any file, and where.
        self.seen = {}

    def report(self, where, message):
        self.problems.append(f"{where}: {message}")

    def run(self):
        index_path = "sitemap.xml"
        root, entries = self.sitemap(index_path)
        if root == "sitemapindex":
            listed = set()
            if len(entries) > MAX_URLS:
                self.report(index_path, f"lists {len(entries)} sitemaps (at most {MAX_URLS})")
            for number, entry in enumerate(entries, 1):
                path = self.local_path(entry.get("loc", ""))
                if path is None or not os.path.isfile(os.path.join(self.output, path)):
                    self.report(f"{index_path} <sitemap> {number}", f"{entry.get('loc')} is not a sitemap file of the output")
                    continue
                listed.add(path)
                part_root, _ = self.sitemap(path)
                if part_root == "sitemapindex":
                    self.report(path, "an index listed by an index (the parts must be <urlset> files)")
            for name in sorted(os.listdir(self.output)):
                if name.startswith("sitemap") and name.endswith(".xml") and name != index_path and name not in listed:
                    self.report(name, f"a sitemap file {index_path} does not list")
        self.robots()
        return self.problems

    def sitemap(self, path):
        """Checks one sitemap file; returns its root name and entries."""
        full = os.path.join(self.output, path)
        if not os.path.isfile(full):
            self.report(path, "missing")
            return None, []
        with open(full, "rb") as file:
            data = file.read()
        if len(data) > MAX_BYTES:
            self.report(path, f"{len(data)} bytes (at most {MAX_BYTES} uncompressed)")
        parsed = SitemapFile(data)
        for problem in parsed.problems:
            self.report(path, problem)
        if parsed.root == "urlset" and len(parsed.entries) > MAX_URLS:
            self.report(path, f"{len(parsed.entries)} URLs (at most {MAX_URLS})")
        for number, entry in enumerate(parsed.entries, 1):
            self.entry(f"{path} <{ENTRY[parsed.root][0]}> {number}", entry, is_page=parsed.root == "urlset")
        return parsed.root, parsed.entries

    def entry(self, where, entry, is_page):
        loc = entry.get("loc")
        if loc is None:
            return
        raw = entry.get("raw loc", b"")
        for character in "'\">":
            if character.encode() in raw:
                self.report(where, f"<loc> holds a raw {character} (entity-escape it)")
        problem = self.loc_problem(loc)
        if problem:
            self.report(where, problem)
        elif is_page:
            self.urls += 1
            if loc in self.seen:
                self.report(where, f"{loc} is listed twice (first at {self.seen[loc]})")
            self.seen.setdefault(loc, where)
            path = self.local_path(loc)
            target = os.path.join(self.output, path)
            if not (os.path.isfile(os.path.join(target, "index.html")) or (os.path.isfile(target) and not loc.endswith("/"))):
                self.report(where, f"{loc} names no page of the output")
        if "lastmod" in entry:
            problem = w3c_datetime_problem(entry["lastmod"])
            if problem:
                self.report(f"{where} <lastmod>", problem)
        if "changefreq" in entry and entry["changefreq"] not in CHANGEFREQ:
            self.report(f"{where} <changefreq>", f"{entry['changefreq']!r} (one of {', '.join(sorted(CHANGEFREQ))})")
        if "priority" in entry:
            try:
                if not 0 <= float(entry["priority"]) <= 1:
                    raise ValueError
            except ValueError:
                self.report(f"{where} <priority>", f"{entry['priority']!r} is not a number from 0.0 to 1.0")

    def loc_problem(self, loc):
        if len(loc) >= MAX_LOC:
            return f"a <loc> of {len(loc)} characters (under {MAX_LOC})"
        if not URI_CHARACTERS.match(loc):
            return f"{loc!r} is not an escaped URL (ASCII, with %XX for anything else)"
        parts = urllib.parse.urlsplit(loc)
        if not parts.scheme or not parts.netloc:
            return f"{loc!r} is not absolute"
        if (parts.scheme, parts.netloc.lower()) != (self.base.scheme, self.base.netloc.lower()) or not parts.path.startswith(self.base.path):
            return f"{loc} is not under the base URL {self.base_url}"
        return None

    def local_path(self, loc):
        """The output path a URL under the base names, or None."""
        parts = urllib.parse.urlsplit(loc)
        if self.loc_problem(loc) or parts.query or parts.fragment:
            return None
        relative = urllib.parse.unquote(parts.path[len(self.base.path):])
        if relative.startswith("/") or ".." in relative.split("/"):
            return None
        return relative

    def robots(self):
        path = os.path.join(self.output, "robots.txt")
        if not os.path.isfile(path):
            self.report("robots.txt", "missing")
            return
        expected = self.base_url + "sitemap.xml"
        with open(path, encoding="utf-8", errors="replace") as file:
            values = [line.split(":", 1)[1].strip() for line in file if line.lower().startswith("sitemap:")]
        if expected not in values:
            self.report("robots.txt", f"no `Sitemap: {expected}` line (found {values or 'none'})")


def check(output, base_url):
    site = SiteCheck(output, base_url)
    return site.run(), f"the sitemap of {output} ({site.urls} URLs) follows the sitemaps.org protocol"


URLSET = """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url><loc>https://example.com/sub/</loc></url>
  <url><loc>https://example.com/sub/a&amp;b/</loc><changefreq>weekly</changefreq><priority>0.5</priority></url>
  <url><loc>https://example.com/sub/alice/posts/one/</loc><lastmod>2026-05-01T18:30:00+09:00</lastmod><image:image/></url>
  <url><loc>https://example.com/sub/alice/posts/two/</loc><lastmod>2026-05-02</lastmod></url>
</urlset>
"""
PAGES = ["index.html", "a&b/index.html", "alice/posts/one/index.html", "alice/posts/two/index.html"]
ROBOTS = "User-agent: *\nAllow: /\nSitemap: https://example.com/sub/sitemap.xml\n"
INDEX = """<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>https://example.com/sub/sitemap-1.xml</loc></sitemap>
  <sitemap><loc>https://example.com/sub/sitemap-2.xml</loc><lastmod>2026-05-02</lastmod></sitemap>
</sitemapindex>
"""
PART_1 = URLSET.replace("\n  <url><loc>https://example.com/sub/alice/posts/two/</loc><lastmod>2026-05-02</lastmod></url>", "")
PART_2 = URLSET.replace("\n  <url><loc>https://example.com/sub/</loc></url>", "").replace(
    "\n  <url><loc>https://example.com/sub/a&amp;b/</loc><changefreq>weekly</changefreq><priority>0.5</priority></url>", "").replace(
    "\n  <url><loc>https://example.com/sub/alice/posts/one/</loc><lastmod>2026-05-01T18:30:00+09:00</lastmod><image:image/></url>", "")
# With the valid sitemap's 4, one URL more than a file may hold.
MANY = "".join(f"  <url><loc>https://example.com/sub/{number}/</loc></url>\n" for number in range(MAX_URLS + 1 - 4))

# (what is broken, {file: (old, new)} edits of the valid single-file site, what the report says)
BREAKS = [
    ("not well-formed", {"sitemap.xml": ("</urlset>", "</urlsett>")}, "not well-formed"),
    ("the old namespace", {"sitemap.xml": ("http://www.sitemaps.org/schemas/sitemap/0.9", "http://www.google.com/schemas/sitemap/0.84")}, "the root is"),
    ("another root", {"sitemap.xml": ("urlset", "urls")}, "the root is"),
    ("a url without loc", {"sitemap.xml": ("<url><loc>https://example.com/sub/</loc></url>", "<url></url>")}, "0 <loc>"),
    ("two locs", {"sitemap.xml": ("<loc>https://example.com/sub/</loc>", "<loc>https://example.com/sub/</loc><loc>https://example.com/sub/</loc>")}, "2 <loc>"),
    ("an unknown element", {"sitemap.xml": ("<priority>0.5</priority>", "<rank>0.5</rank>")}, "<rank> in <url>"),
    ("a relative loc", {"sitemap.xml": ("<loc>https://example.com/sub/</loc>", "<loc>/sub/</loc>")}, "not absolute"),
    ("another host", {"sitemap.xml": ("<loc>https://example.com/sub/</loc>", "<loc>https://example.org/sub/</loc>")}, "not under the base URL"),
    ("another scheme", {"sitemap.xml": ("<loc>https://example.com/sub/</loc>", "<loc>http://example.com/sub/</loc>")}, "not under the base URL"),
    ("outside the base path", {"sitemap.xml": ("<loc>https://example.com/sub/</loc>", "<loc>https://example.com/</loc>")}, "not under the base URL"),
    ("a raw apostrophe", {"sitemap.xml": ("sub/a&amp;b/", "sub/a'b/")}, "raw '"),
    ("a raw >", {"sitemap.xml": ("sub/a&amp;b/", "sub/a>b/")}, "raw >"),
    ("a space in a loc", {"sitemap.xml": ("sub/a&amp;b/", "sub/a b/")}, "not an escaped URL"),
    ("a loc of no page", {"sitemap.xml": ("sub/a&amp;b/", "sub/nothing/")}, "names no page"),
    ("a loc listed twice", {"sitemap.xml": ("sub/a&amp;b/", "sub/alice/posts/one/")}, "listed twice"),
    ("a long loc", {"sitemap.xml": ("sub/a&amp;b/", "sub/" + "a" * MAX_LOC + "/")}, "characters"),
    ("a lastmod that is no date", {"sitemap.xml": ("<lastmod>2026-05-02</lastmod>", "<lastmod>May 2, 2026</lastmod>")}, "not a W3C Datetime"),
    ("a lastmod without zone", {"sitemap.xml": ("2026-05-01T18:30:00+09:00", "2026-05-01T18:30:00")}, "not a W3C Datetime"),
    ("a day that does not exist", {"sitemap.xml": ("<lastmod>2026-05-02</lastmod>", "<lastmod>2026-02-30</lastmod>")}, "not a real date"),
    ("the 1970 date", {"sitemap.xml": ("<lastmod>2026-05-02</lastmod>", "<lastmod>1970-01-01</lastmod>")}, "implausible"),
    ("a far future date", {"sitemap.xml": ("<lastmod>2026-05-02</lastmod>", "<lastmod>2999-01-01</lastmod>")}, "implausible"),
    ("a bad changefreq", {"sitemap.xml": ("weekly", "fortnightly")}, "<changefreq>"),
    ("a bad priority", {"sitemap.xml": ("0.5", "5")}, "<priority>"),
    ("too many URLs", {"sitemap.xml": ("</urlset>", MANY + "</urlset>")}, f"{MAX_URLS + 1} URLs"),
    ("too many bytes", {"sitemap.xml": ("</urlset>", " " * MAX_BYTES + "</urlset>")}, "bytes (at most"),
    ("no Sitemap line", {"robots.txt": ("Sitemap: https://example.com/sub/sitemap.xml\n", "")}, "no `Sitemap:"),
    ("a relative Sitemap line", {"robots.txt": ("Sitemap: https://example.com/sub/sitemap.xml", "Sitemap: /sub/sitemap.xml")}, "no `Sitemap:"),
    ("an index listing a missing part", {"sitemap.xml": (None, INDEX), "sitemap-1.xml": (None, PART_1), "sitemap-3.xml": (None, PART_2)}, "sitemap-2.xml is not a sitemap file"),
    ("a part the index does not list", {"sitemap.xml": (None, INDEX), "sitemap-1.xml": (None, PART_1), "sitemap-2.xml": (None, PART_2), "sitemap-3.xml": (None, PART_2)}, "does not list"),
    ("an index listing an index", {"sitemap.xml": (None, INDEX), "sitemap-1.xml": (None, PART_1), "sitemap-2.xml": (None, INDEX)}, "an index listed by an index"),
    ("a loc in two parts", {"sitemap.xml": (None, INDEX), "sitemap-1.xml": (None, PART_1), "sitemap-2.xml": (None, PART_1)}, "listed twice"),
    ("a broken part", {"sitemap.xml": (None, INDEX), "sitemap-1.xml": (None, PART_1), "sitemap-2.xml": (None, PART_2.replace("2026-05-02", "2026-13-02"))}, "sitemap-2.xml <url> 1 <lastmod>"),
    ("an index entry that is not <sitemap>", {"sitemap.xml": (None, INDEX.replace("<sitemap><loc>https://example.com/sub/sitemap-1.xml</loc></sitemap>", "<url><loc>https://example.com/sub/sitemap-1.xml</loc></url>")), "sitemap-1.xml": (None, PART_1), "sitemap-2.xml": (None, PART_2)}, "<url> in <sitemapindex>"),
]


def write_site(folder, edits):
    files = {"sitemap.xml": URLSET, "robots.txt": ROBOTS}
    for name, (old, new) in edits.items():
        files[name] = new if old is None else files[name].replace(old, new, 1)
    for page in PAGES:
        os.makedirs(os.path.dirname(os.path.join(folder, page)), exist_ok=True)
        open(os.path.join(folder, page), "w").close()
    for name, text in files.items():
        with open(os.path.join(folder, name), "w", encoding="utf-8") as file:
            file.write(text)


def self_test():
    base = "https://example.com/sub/"
    failures = []
    valid_sites = [("the valid sitemap", {}, None), ("the valid index", {"sitemap.xml": (None, INDEX), "sitemap-1.xml": (None, PART_1), "sitemap-2.xml": (None, PART_2)}, None)]
    for what, edits, expected in valid_sites + BREAKS:
        folder = tempfile.mkdtemp(prefix="check-sitemaps-")
        try:
            for name, (old, _) in edits.items():
                if old is not None and old not in {"sitemap.xml": URLSET, "robots.txt": ROBOTS}[name]:
                    failures.append(f"{what}: the self-test's {name} has no {old[:40]!r}")
            write_site(folder, edits)
            problems, _ = check(folder, base)
        finally:
            shutil.rmtree(folder)
        if expected is None:
            failures += [f"{what} is reported: {problem}" for problem in problems]
        elif not any(expected in problem for problem in problems):
            failures.append(f"{what}: not reported (expected {expected!r}; got {problems[:3]}{' …' if len(problems) > 3 else ''})")
    return failures, f"the valid sitemap and index pass and each of {len(BREAKS)} broken ones fails"


if __name__ == "__main__":
    sys.exit(site_checks.main("check_sitemaps.py", "Check a built site's sitemap by the sitemaps.org protocol.", check, self_test))
