#!/usr/bin/env python3
"""Checks every Atom feed of a built site against RFC 4287 and reads it with feedparser.

    scripts/check_feeds.py --base-url URL OUTPUT_DIR
    scripts/check_feeds.py --self-test

Every file named `feed.xml` under OUTPUT_DIR is checked (none at all is an error). The W3C Feed
Validator is not on PyPI, so this is a check of our own that covers what it reports on feeds
like ours, plus PyPI's `feedparser` (what many readers use):

- the file is UTF-8, well-formed XML (read with xml.dom.minidom), without control characters
  (C0 but tab, line feed and carriage return; DEL; C1) or noncharacters;
- the root is `feed` in the Atom namespace, and no element of that namespace is unknown or
  misplaced;
- the feed has exactly one `id`, `title` and `updated` (at most one `subtitle`, `rights`,
  `generator`, `icon`, `logo`), so does every entry (at most one `published`, `content`,
  `summary`); an author on the feed or on every entry, each with exactly one non-empty `name`;
- `id`s are absolute IRIs: `http(s)://host/...` (scheme and host in lower case) or a `tag:` URI
  by RFC 4151 (`tag:example.com,2026:alice/sunset`, `tag:me@example.com,2026-05-01:x`);
  no two entries share one;
- every date is RFC 3339 with its offset (`2026-05-01T18:30:00+09:00`, `...Z`), a real day and
  time, and plausible: not before 1995-01-01 (the W3C validator calls dates before about 1990
  "implausible"; nothing on the web syndicated Atom or RSS before 1995) and not more than one
  day after the check runs (a build a moment earlier, with room for clocks set a day ahead);
- the feed's `updated` is not earlier than any entry's `updated`;
- a `rel="self"` link that is absolute and is this file's own URL (the base URL and the file's
  path), `rel="alternate"` links absolute and under the base URL, at most one alternate per
  `type` and `hreflang`, and an alternate link on every entry;
- `xml:lang`, where used, is a well-formed language tag (RFC 5646);
- text constructs have `type` text, html or xhtml; `type="html"` holds escaped markup (no child
  elements) whose tags balance, without script, style, iframe, `on…` attributes or
  `javascript:` URLs, and whose `src`/`href` are absolute; `type="text"` holds no elements;
- feedparser reads the file with `bozo` 0 as Atom 1.0, and every entry with its id, title,
  link and updated.

`--self-test` breaks a valid feed in one way at a time and requires each break to be reported
(and the valid feed not to be), so the check is known to fail when it should.
"""
import datetime
import html.parser
import os
import re
import sys
import urllib.parse
import xml.dom.minidom

import site_checks

try:
    import feedparser
except ImportError:
    sys.exit("check_feeds.py: PyPI's feedparser is missing: run `make test-deps` (or `python3 -m pip install feedparser`)")

ATOM = "http://www.w3.org/2005/Atom"
XML_NS = "http://www.w3.org/XML/1998/namespace"

# Atom elements, where each may appear, and how many times (None: any number).
FEED_CHILDREN = {"id": (1, 1), "title": (1, 1), "updated": (1, 1), "subtitle": (0, 1), "rights": (0, 1),
                 "generator": (0, 1), "icon": (0, 1), "logo": (0, 1), "author": (0, None),
                 "contributor": (0, None), "category": (0, None), "link": (0, None), "entry": (0, None)}
ENTRY_CHILDREN = {"id": (1, 1), "title": (1, 1), "updated": (1, 1), "published": (0, 1), "content": (0, 1),
                  "summary": (0, 1), "rights": (0, 1), "source": (0, 1), "author": (0, None),
                  "contributor": (0, None), "category": (0, None), "link": (0, None)}
PERSON_CHILDREN = {"name": (1, 1), "uri": (0, 1), "email": (0, 1)}
TEXT_CONSTRUCTS = {"title", "subtitle", "summary", "rights"}

RFC3339 = re.compile(r"^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
# RFC 4151: tag:<authorityName>,<date>:<specific>[#fragment]
DNS_NAME = r"[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*"
EMAIL = r"[A-Za-z0-9\-._]+@" + DNS_NAME
TAG_DATE = r"\d{4}(?:-(?:0[1-9]|1[0-2])(?:-(?:0[1-9]|[12]\d|3[01]))?)?"
PCHAR = r"(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})"
TAG_URI = re.compile(rf"^tag:(?:{DNS_NAME}|{EMAIL}),({TAG_DATE}):(?:{PCHAR}|[/?])*(?:#(?:{PCHAR}|[/?])*)?$")
# Characters an IRI may not hold raw (RFC 3987): spaces, controls, and these delimiters.
IRI_FORBIDDEN = re.compile(r"[\x00-\x20\x7f-\x9f<>\"{}|\\^`]")
# RFC 5646, in its general shape: a primary subtag, then subtags of 1 to 8 letters or digits.
LANGUAGE_TAG = re.compile(r"^(?:[A-Za-z]{2,3}(?:-[A-Za-z]{3}){0,3}|[A-Za-z]{4,8}|[xX]|[iI])(?:-[A-Za-z0-9]{1,8})*$")
VOID_ELEMENTS = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
DANGEROUS_ELEMENTS = {"script", "style", "iframe", "object", "embed", "form", "frame", "frameset", "meta", "link", "base"}


def forbidden_character(text):
    """The first control character or noncharacter in `text`, with its offset, or None."""
    for offset, character in enumerate(text):
        value = ord(character)
        if (value < 0x20 and character not in "\t\n\r") or 0x7F <= value <= 0x9F \
                or 0xFDD0 <= value <= 0xFDEF or value & 0xFFFE == 0xFFFE:
            return offset, value
    return None


def rfc3339(text):
    """`text` as an aware datetime, or an error message."""
    match = RFC3339.match(text)
    if not match:
        return None, f"{text!r} is not an RFC 3339 date-time with its offset (2026-05-01T18:30:00+09:00 or ...Z)"
    year, month, day, hour, minute, second = (int(group) for group in match.groups()[:6])
    try:
        value = datetime.datetime(year, month, day, hour, minute, min(second, 59),
                                  tzinfo=datetime.timezone(site_checks.offset(match.group(8))))
    except ValueError as error:
        return None, f"{text!r} is not a real date and time ({error})"
    if second > 60:
        return None, f"{text!r} has {second} seconds"
    problem = site_checks.implausibility(value, text)
    return (None, problem) if problem else (value, None)


def iri_problem(text, base_url=None):
    """Why `text` is not an absolute IRI (under `base_url` for http(s), when given), or None."""
    if not text:
        return "is empty"
    if IRI_FORBIDDEN.search(text):
        return f"{text!r} holds a character an IRI may not (a space, a control, or one of <>\"{{}}|\\^`)"
    if not SCHEME.match(text):
        return f"{text!r} is not absolute (no scheme)"
    scheme = text.split(":", 1)[0]
    if scheme == "tag":
        return None if TAG_URI.match(text) else f"{text!r} is not a tag: URI by RFC 4151 (tag:example.com,2026:specific)"
    if scheme in ("http", "https"):
        parts = urllib.parse.urlsplit(text)
        if not parts.netloc:
            return f"{text!r} has no host"
        if parts.hostname is None or parts.hostname != parts.hostname.lower() or "@" in parts.netloc:
            return f"{text!r} is not in normal form (host in lower case, no user name)"
        if base_url and not text.startswith(base_url):
            return f"{text!r} is not under the base URL {base_url}"
        return None
    if scheme != scheme.lower():
        return f"{text!r}: the scheme should be in lower case"
    return None


class MarkupCheck(html.parser.HTMLParser):
    """The problems of an HTML fragment a feed carries as `type="html"` text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.open = []
        self.problems = []

    def handle_starttag(self, tag, attributes):
        if tag in DANGEROUS_ELEMENTS:
            self.problems.append(f"holds a <{tag}> element")
        for name, value in attributes:
            if name.startswith("on"):
                self.problems.append(f"<{tag}> has an event handler attribute {name}")
            if name in ("src", "href") and value is not None:
                if value.strip().lower().startswith("javascript:"):
                    self.problems.append(f"<{tag} {name}> is a javascript: URL")
                elif not SCHEME.match(value):
                    self.problems.append(f"<{tag} {name}={value!r}> is relative: readers resolve it against the feed, not the page")
        if tag not in VOID_ELEMENTS:
            self.open.append(tag)

    def handle_startendtag(self, tag, attributes):
        self.handle_starttag(tag, attributes)
        if tag not in VOID_ELEMENTS:
            self.open.pop()

    def handle_endtag(self, tag):
        if tag in VOID_ELEMENTS:
            return
        if not self.open or self.open[-1] != tag:
            self.problems.append(f"</{tag}> does not close the open element ({self.open[-1] if self.open else 'none'})")
            if tag in self.open:
                del self.open[self.open.index(tag):]
        else:
            self.open.pop()

    @classmethod
    def problems_of(cls, fragment):
        check = cls()
        check.feed(fragment)
        check.close()
        if check.open:
            check.problems.append(f"leaves <{'>, <'.join(check.open)}> open")
        return check.problems


def text_of(element):
    return "".join(node.data for node in element.childNodes if node.nodeType in (node.TEXT_NODE, node.CDATA_SECTION_NODE))


def atom_children(element):
    return [node for node in element.childNodes if node.nodeType == node.ELEMENT_NODE and node.namespaceURI == ATOM]


class FeedCheck:
    def __init__(self, path, url, base_url):
        self.path = path
        self.url = url
        self.base_url = base_url
        self.problems = []

    def report(self, where, message):
        self.problems.append(f"{self.path}: {where}: {message}")

    def run(self, data):
        """Every problem of the feed `data`: RFC 4287's, then feedparser's, each on its own."""
        self.rfc4287(data)
        self.feedparser(data)
        return self.problems

    def rfc4287(self, data):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            self.report("bytes", f"not UTF-8 ({error})")
            return
        found = forbidden_character(text)
        if found:
            line = text.count("\n", 0, found[0]) + 1
            self.report(f"line {line}", f"the control character or noncharacter U+{found[1]:04X}")
        try:
            document = xml.dom.minidom.parseString(data)
        except Exception as error:  # expat's errors and minidom's own
            self.report("XML", f"not well-formed: {error}")
            return
        root = document.documentElement
        if root.namespaceURI != ATOM or root.localName != "feed":
            self.report("root", f"<{root.tagName}> in namespace {root.namespaceURI!r}, not <feed> in {ATOM}")
            return
        self.languages(root)
        self.container(root, "feed", FEED_CHILDREN)
        feed_updated = self.date(root, "feed")
        self.links(root, "feed", needs_self=True)
        feed_has_author = bool([child for child in atom_children(root) if child.localName == "author"])
        ids = {}
        for number, entry in enumerate((child for child in atom_children(root) if child.localName == "entry"), 1):
            where = f"entry {number}"
            self.container(entry, where, ENTRY_CHILDREN)
            entry_updated = self.date(entry, where)
            self.links(entry, where, needs_self=False)
            entry_id = self.single_text(entry, "id")
            if entry_id is not None:
                if entry_id in ids:
                    self.report(where, f"the id {entry_id} is entry {ids[entry_id]}'s too")
                ids.setdefault(entry_id, number)
            if not feed_has_author and not [child for child in atom_children(entry) if child.localName == "author"]:
                self.report(where, "no author, and the feed has none either")
            if feed_updated and entry_updated and entry_updated > feed_updated:
                self.report(where, "updated after the feed's own <updated>")

    def single_text(self, element, name):
        found = [child for child in atom_children(element) if child.localName == name]
        return text_of(found[0]).strip() if len(found) == 1 else None

    def languages(self, root):
        for element in [root] + root.getElementsByTagName("*"):
            for attribute in (element.attributes.item(i) for i in range(element.attributes.length)):
                # xml:lang="" is allowed: it says the language is unknown.
                if attribute.namespaceURI == XML_NS and attribute.localName == "lang" and attribute.value \
                        and not LANGUAGE_TAG.match(attribute.value):
                    self.report(f"<{element.tagName}>", f"xml:lang {attribute.value!r} is not a language tag")

    def container(self, element, where, allowed):
        counts = {}
        for child in atom_children(element):
            name = child.localName
            counts[name] = counts.get(name, 0) + 1
            if name not in allowed:
                self.report(where, f"<{name}> is not an element of an Atom <{element.localName}>")
                continue
            if name in ("author", "contributor"):
                self.person(child, f"{where} <{name}>")
            elif name in TEXT_CONSTRUCTS:
                self.text_construct(child, f"{where} <{name}>")
            elif name == "content":
                self.content(child, where)
            elif name in ("id", "icon", "logo"):
                problem = iri_problem(text_of(child).strip())
                if problem:
                    self.report(f"{where} <{name}>", problem)
            elif name == "generator" and child.getAttribute("uri"):
                problem = iri_problem(child.getAttribute("uri"))
                if problem:
                    self.report(f"{where} <generator uri>", problem)
        for name, (least, most) in allowed.items():
            count = counts.get(name, 0)
            if count < least:
                self.report(where, f"no <{name}> (an Atom <{element.localName}> needs one)")
            elif most is not None and count > most:
                self.report(where, f"{count} <{name}> elements (at most {most})")

    def person(self, element, where):
        counts = {}
        for child in atom_children(element):
            counts[child.localName] = counts.get(child.localName, 0) + 1
            if child.localName not in PERSON_CHILDREN:
                self.report(where, f"<{child.localName}> is not part of a person")
            elif child.localName == "name" and not text_of(child).strip():
                self.report(where, "an empty <name>")
            elif child.localName == "uri":
                problem = iri_problem(text_of(child).strip())
                if problem:
                    self.report(f"{where} <uri>", problem)
        for name, (least, most) in PERSON_CHILDREN.items():
            if not least <= counts.get(name, 0) <= most:
                self.report(where, f"{counts.get(name, 0)} <{name}> elements (from {least} to {most})")

    def text_construct(self, element, where):
        kind = element.getAttribute("type") or "text"
        children = [node for node in element.childNodes if node.nodeType == node.ELEMENT_NODE]
        if kind == "xhtml":
            if len(children) != 1 or children[0].namespaceURI != "http://www.w3.org/1999/xhtml" or children[0].localName != "div":
                self.report(where, 'type="xhtml" needs exactly one XHTML <div>')
        elif kind in ("text", "html"):
            if children:
                self.report(where, f'type="{kind}" holds the element <{children[0].tagName}>: markup must be escaped')
            elif kind == "html":
                for problem in MarkupCheck.problems_of(text_of(element)):
                    self.report(where, f"the escaped HTML {problem}")
        else:
            self.report(where, f'type="{kind}" (text, html or xhtml)')

    def content(self, element, where):
        kind = element.getAttribute("type") or "text"
        if element.getAttribute("src"):
            problem = iri_problem(element.getAttribute("src"))
            if problem:
                self.report(f"{where} <content src>", problem)
        elif kind in ("text", "html", "xhtml"):
            self.text_construct(element, f"{where} <content>")
        elif "/" not in kind:
            self.report(f"{where} <content>", f'type="{kind}" is neither text, html, xhtml nor a media type')

    def date(self, element, where):
        """Checks the dates of `element`; returns its `updated` as a datetime (or None)."""
        updated = None
        for child in atom_children(element):
            if child.localName in ("updated", "published"):
                value, problem = rfc3339(text_of(child).strip())
                if problem:
                    self.report(f"{where} <{child.localName}>", problem)
                elif child.localName == "updated":
                    updated = value
        return updated

    def links(self, element, where, needs_self):
        alternates = set()
        selves = []
        for link in (child for child in atom_children(element) if child.localName == "link"):
            href = link.getAttribute("href")
            rel = link.getAttribute("rel") or "alternate"
            if not link.hasAttribute("href"):
                self.report(f"{where} <link>", "no href")
                continue
            if rel in ("self", "alternate"):
                problem = iri_problem(href, self.base_url if rel == "alternate" else None)
                if problem:
                    self.report(f'{where} <link rel="{rel}">', problem)
            if rel == "self":
                selves.append(href)
            if rel == "alternate":
                key = (link.getAttribute("type"), link.getAttribute("hreflang"))
                if key in alternates:
                    self.report(where, f'two rel="alternate" links of type {key[0]!r} and hreflang {key[1]!r}')
                alternates.add(key)
        if needs_self:
            if not selves:
                self.report(where, 'no <link rel="self">')
            elif self.url and self.url not in selves:
                self.report(where, f'<link rel="self"> is {selves[0]}, not this file\'s URL {self.url}')
        elif not alternates:
            self.report(where, 'no <link rel="alternate"> (a reader has nothing to open)')

    def feedparser(self, data):
        parsed = feedparser.parse(data)
        if parsed.bozo:
            self.report("feedparser", f"bozo: {parsed.get('bozo_exception')}")
        if parsed.get("version") != "atom10":
            self.report("feedparser", f"read as {parsed.get('version')!r}, not Atom 1.0")
        for key in ("id", "title", "updated"):
            if not parsed.feed.get(key):
                self.report("feedparser", f"the feed has no {key}")
        for number, entry in enumerate(parsed.entries, 1):
            for key in ("id", "title", "link", "updated"):
                if not entry.get(key):
                    self.report(f"feedparser entry {number}", f"no {key}")
            # Without a link element feedparser takes the id as the link, which a tag: id is not.
            hrefs = [link.get("href") for link in entry.get("links", []) if link.get("rel") == "alternate"]
            if entry.get("link") not in hrefs or not str(entry.get("link")).startswith(("http://", "https://")):
                self.report(f"feedparser entry {number}", f"the link is {entry.get('link')!r}, not a web page from a <link>")


def redirect_rules(output):
    """The (from, to) path pairs of the output's `_redirects` (Netlify's format), in order."""
    try:
        with open(os.path.join(output, "_redirects"), encoding="utf-8") as file:
            lines = file.read().splitlines()
    except FileNotFoundError:
        return []
    rules = []
    for line in lines:
        fields = line.split()
        if len(fields) >= 2 and not fields[0].startswith("#"):
            rules.append((fields[0], fields[1]))
    return rules


def redirected(url, rules):
    """Where the first matching rule sends `url` (same scheme and host), or None."""
    parts = urllib.parse.urlsplit(url)
    for source, target in rules:
        if source.endswith("/*") and parts.path.startswith(source[:-1]):
            path = target.replace(":splat", parts.path[len(source) - 1:])
        elif parts.path == source:
            path = target
        else:
            continue
        return urllib.parse.urlunsplit((parts.scheme, parts.netloc, path, "", ""))
    return None


def check_site(output, base_url):
    paths = sorted(os.path.relpath(os.path.join(folder, name), output)
                   for folder, _, names in os.walk(output) for name in names if name == "feed.xml")
    if not paths:
        return [f"{output}: no feed.xml at all"], None
    problems = []
    moved = redirect_rules(output)
    for path in paths:
        with open(os.path.join(output, path), "rb") as file:
            data = file.read()
        url = base_url + path.replace(os.sep, "/")
        # A feed left at a renamed user's old address names the new one as itself, where the
        # site's _redirects sends readers: that is the URL its self link must have.
        url = redirected(url, moved) or url
        problems += FeedCheck(path, url, base_url).run(data)
    return problems, f"{len(paths)} feeds of {output} pass RFC 4287 and feedparser"


VALID = """<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">
  <id>https://example.com/sub/alice/feed.xml</id>
  <title>Alice &amp; Bob · &lt;Site&gt;</title>
  <updated>2026-05-02T10:00:00+09:00</updated>
  <link rel="self" type="application/atom+xml" href="https://example.com/sub/alice/feed.xml"/>
  <link rel="alternate" type="text/html" href="https://example.com/sub/alice/"/>
  <author><name>Alice</name></author>
  <generator>Tomo</generator>
  <entry>
    <id>tag:example.com,2026:alice/two</id>
    <title>Two</title>
    <link rel="alternate" type="text/html" href="https://example.com/sub/alice/posts/two/"/>
    <published>2026-05-02T10:00:00+09:00</published>
    <updated>2026-05-02T10:00:00+09:00</updated>
    <content type="html">&lt;p&gt;&lt;img src="https://example.com/sub/media/a.jpg" alt="&amp;quot;"&gt;&lt;/p&gt;
&lt;p&gt;Caf&#233; &amp;amp; &lt;em&gt;bar&lt;/em&gt;&lt;/p&gt;</content>
  </entry>
  <entry>
    <id>https://example.com/sub/alice/posts/one/</id>
    <title>One</title>
    <link rel="alternate" type="text/html" href="https://example.com/sub/alice/posts/one/"/>
    <updated>2026-05-01T00:00:00Z</updated>
    <content type="html">&lt;p&gt;One&lt;/p&gt;</content>
  </entry>
</feed>
"""

# (what is broken, the valid feed's text to replace, its replacement, what the report says)
BREAKS = [
    ("not well-formed", "</feed>", "</fed>", "not well-formed"),
    ("a control character", "<title>Two</title>", "<title>Two\u0085</title>", "U+0085"),
    ("another namespace", 'xmlns="http://www.w3.org/2005/Atom"', 'xmlns="http://purl.org/atom/ns#"', "not <feed>"),
    ("no feed id", "<id>https://example.com/sub/alice/feed.xml</id>", "", "no <id>"),
    ("two feed titles", "<title>Alice", "<title>Again</title><title>Alice", "2 <title>"),
    ("no feed updated", "<updated>2026-05-02T10:00:00+09:00</updated>\n  <link", "<link", "no <updated>"),
    ("no author anywhere", "<author><name>Alice</name></author>", "", "no author"),
    ("an empty author name", "<name>Alice</name>", "<name> </name>", "empty <name>"),
    ("a relative entry id", "<id>https://example.com/sub/alice/posts/one/</id>", "<id>/alice/posts/one/</id>", "not absolute"),
    ("a tag: id without a date", "tag:example.com,2026:alice/two", "tag:example.com:alice/two", "RFC 4151"),
    ("an id with a space", "tag:example.com,2026:alice/two", "tag:example.com,2026:alice two", "IRI may not"),
    ("the 1970 date", "<updated>2026-05-01T00:00:00Z</updated>", "<updated>1970-01-01T00:00:00Z</updated>", "implausible"),
    ("a far future date", "<updated>2026-05-01T00:00:00Z</updated>", "<updated>2999-01-01T00:00:00Z</updated>", "implausible"),
    ("a date without offset", "<published>2026-05-02T10:00:00+09:00</published>", "<published>2026-05-02T10:00:00</published>", "RFC 3339"),
    ("a day that does not exist", "<updated>2026-05-01T00:00:00Z</updated>", "<updated>2026-02-30T00:00:00Z</updated>", "not a real date"),
    ("an entry newer than the feed", "<updated>2026-05-01T00:00:00Z</updated>", "<updated>2026-05-03T00:00:00Z</updated>", "after the feed"),
    ("no self link", '<link rel="self" type="application/atom+xml" href="https://example.com/sub/alice/feed.xml"/>', "", 'no <link rel="self">'),
    ("a relative self link", 'href="https://example.com/sub/alice/feed.xml"', 'href="/sub/alice/feed.xml"', "not absolute"),
    ("a self link to another file", 'href="https://example.com/sub/alice/feed.xml"', 'href="https://example.com/sub/feed.xml"', "not this file's URL"),
    ("a relative alternate link", 'href="https://example.com/sub/alice/posts/one/"', 'href="alice/posts/one/"', "not absolute"),
    ("an alternate link outside the base", 'href="https://example.com/sub/alice/posts/one/"', 'href="https://example.com/alice/posts/one/"', "not under the base URL"),
    ("an entry without a link", '<link rel="alternate" type="text/html" href="https://example.com/sub/alice/posts/one/"/>', "", "no <link rel=\"alternate\">"),
    ("a duplicate entry id", "<id>https://example.com/sub/alice/posts/one/</id>", "<id>tag:example.com,2026:alice/two</id>", "entry 1's too"),
    ("a bad xml:lang", 'xml:lang="en"', 'xml:lang="en_US"', "not a language tag"),
    ("raw markup in html content", '<content type="html">&lt;p&gt;One&lt;/p&gt;</content>', '<content type="html"><p>One</p></content>', "must be escaped"),
    ("unbalanced escaped html", '&lt;p&gt;One&lt;/p&gt;', '&lt;p&gt;One&lt;/em&gt;', "does not close"),
    ("a script in escaped html", '&lt;p&gt;One&lt;/p&gt;', '&lt;script&gt;x()&lt;/script&gt;', "<script>"),
    ("a relative image in escaped html", 'src="https://example.com/sub/media/a.jpg"', 'src="/sub/media/a.jpg"', "is relative"),
    ("an unknown Atom element", "<generator>Tomo</generator>", "<generater>Tomo</generater>", "not an element of an Atom <feed>"),
    ("a misplaced Atom element", "<title>One</title>", "<title>One</title><subtitle>x</subtitle>", "not an element of an Atom <entry>"),
]


def self_test():
    url = "https://example.com/sub/alice/feed.xml"
    base = "https://example.com/sub/"
    problems = FeedCheck("valid.xml", url, base).run(VALID.encode())
    failures = [f"the valid feed is reported: {problem}" for problem in problems]
    for what, old, new, expected in BREAKS:
        if old not in VALID:
            failures.append(f"{what}: the self-test's feed has no {old!r}")
            continue
        broken = VALID.replace(old, new, 1).encode()
        reported = FeedCheck("broken.xml", url, base).run(broken)
        if not any(expected in problem for problem in reported):
            failures.append(f"{what}: not reported (expected {expected!r}; got {reported})")
    # feedparser on its own: a feed it reads with bozo set, and one without an entry's link.
    for what, old, new in [("an unescaped &", "&amp; Bob", "& Bob"), ("an entry without a link", '<link rel="alternate" type="text/html" href="https://example.com/sub/alice/posts/two/"/>', "")]:
        check = FeedCheck("broken.xml", url, base)
        check.feedparser(VALID.replace(old, new, 1).encode())
        if not check.problems:
            failures.append(f"feedparser does not report {what}")
    return failures, f"the valid feed passes and each of {len(BREAKS) + 2} broken ones fails"


if __name__ == "__main__":
    sys.exit(site_checks.main("check_feeds.py", "Check every feed.xml of a built site (RFC 4287 and feedparser).", check_site, self_test))
