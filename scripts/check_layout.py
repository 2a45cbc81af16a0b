#!/usr/bin/env python3
"""The default theme's layout, measured in headless Chromium (the DevTools protocol).

Builds the demo site and a site of long words, both with this checkout's templates/ (a 72-character name, a 30-character handle, a
long URL in a bio, a bio with a list and a quote, users without icons), serves both on loopback
ports and opens every page at 375 and 1400 CSS pixels wide, at device pixel ratios 1 and 2 (a
fresh browser for each, so no image comes from the cache). On every page:

- every image's chosen file (currentSrc) is at least its rendered width x devicePixelRatio wide,
  unless it already is the widest file there is (so each `sizes` matches the rendered width);
- the page is no wider than the screen (document.documentElement.scrollWidth <= innerWidth);
- there is exactly one <h1>;
- placeholder icons and headers are painted (not the colour of the card they sit on) and the
  initials differ from their background;
- a bio's list items start next to their bullets and a quote is set off from the text;
- a handle is on one line unless it is longer than the line (a wrapping name beside it on a
  post page once squeezed it to two);
- in each user list every icon, real or placeholder, and every card's text start at the same
  distance from the card's edge;
- every link has a name (a post card's link to a photo without alt text included), and each
  post card's link is the box of its photo (so its focus ring is not clipped away);
- a text cut with an ellipsis shows its start: the left of a left-to-right text, the right of a
  right-to-left one (an Arabic bio in a user card).

On the home pages, a search shows results built like the server's user cards (icon, name,
handle, summary, each with its `dir`) under a heading that names the query, or says that no
user matches; and the first post card's photo link, reached with the Tab key, shows a focus
ring of at least 2 px that its card does not clip.

Usage: scripts/check_layout.py TOMO_BINARY   (needs `chromium` and PyPI's websocket-client)
"""
import functools
import http.server
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unicodedata
import urllib.request

import websocket

WIDTHS = (375, 1400)
RATIOS = (1, 2)
LONG_NAME = "Maximiliana" * 6 + "Wolfeschlegel"[:6]  # 72 characters, no space
LONG_HANDLE = "a" * 10 + "long_handle_" + "b" * 8  # 30 characters, the longest a handle may be
LONG_URL = "https://example.com/" + "very-long-path-segment-" * 6
WRAPPING_NAME = "Maria Fernanda da Silva Oliveira"  # words that wrap beside the handle on a phone
ARABIC_NAME = "ليلى أحمد"
ARABIC_BIO = "مرحبا بكم في صفحتي الشخصية، أنا مصورة من القاهرة وأحب التصوير في الشوارع القديمة والأسواق"


def run(command, cwd):
    """Runs a tomo command; its output (the build's warnings about missing icons) only on failure."""
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}")


def long_words_site(tomo, folder, photos):
    """A site whose text has one very long word wherever users write."""
    run([tomo, "init", folder], cwd=".")
    shutil.copytree("templates", os.path.join(folder, "templates"))  # this checkout's theme, as the demo has
    run([tomo, "user", "add", LONG_HANDLE, "--name", LONG_NAME], cwd=folder)
    run([tomo, "user", "add", "plain", "--name", "Plain Person"], cwd=folder)
    run([tomo, "user", "add", "pictured", "--name", "Pictured"], cwd=folder)
    run([tomo, "user", "add", "mariafernanda", "--name", WRAPPING_NAME], cwd=folder)
    run([tomo, "user", "add", "layla", "--name", ARABIC_NAME], cwd=folder)
    with open(os.path.join(folder, "content/users/layla.yaml"), "a", encoding="utf-8") as profile:
        profile.write(f"language: ar\nbio: {ARABIC_BIO}\n")
    with open(os.path.join(folder, "content/users", LONG_HANDLE + ".yaml"), "a", encoding="utf-8") as profile:
        profile.write(
            "bio: |\n"
            f"  Links to {LONG_URL} and more.\n\n"
            "  - film\n  - a much longer second item of the list\n\n"
            "  > A quote I like.\n"
        )
    os.makedirs(os.path.join(folder, "content/users/pictured"), exist_ok=True)
    shutil.copy("content/users/alice/icon.jpg", os.path.join(folder, "content/users/pictured/icon.jpg"))
    with open(os.path.join(folder, "content/users/pictured.yaml"), "a", encoding="utf-8") as profile:
        profile.write("icon: pictured/icon.jpg\nbio: Shows an icon in search results.\n")
    for handle in (LONG_HANDLE, "plain"):
        run([tomo, "post", "add", handle, os.path.join(photos, "tokyo-bay-sunset.jpg"), "--slug", "long",
             "--caption", "Caption " + LONG_URL, "--alt", "Sunset", "--date", "2026-05-01T18:30:00+09:00"], cwd=folder)
    # A post without alt text: its cards' links are named by the caption.
    run([tomo, "post", "add", "mariafernanda", os.path.join(photos, "tokyo-bay-sunset.jpg"), "--slug", "noalt",
         "--caption", "No alt", "--date", "2026-05-02T18:30:00+09:00"], cwd=folder)
    run([tomo, "post", "add", "layla", os.path.join(photos, "tokyo-bay-sunset.jpg"), "--slug", "first",
         "--caption", "غروب", "--alt", "غروب الشمس", "--date", "2026-05-03T18:30:00+03:00"], cwd=folder)
    run([tomo, "follow", "plain", LONG_HANDLE], cwd=folder)
    # A follower list with a real icon and placeholders in it.
    for follower in ("pictured", "layla", "mariafernanda"):
        run([tomo, "follow", follower, "plain"], cwd=folder)
    run([tomo, "build"], cwd=folder)
    return os.path.join(folder, "public")


def serve(folder):
    handler = functools.partial(Quiet, directory=folder)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def pages(folder):
    """Every HTML page's path, redirect pages (a meta refresh to the new address) left out."""
    found = []
    for root, _, files in os.walk(folder):
        for name in files:
            if name.endswith(".html"):
                path = os.path.join(root, name)
                with open(path, encoding="utf-8") as page:
                    if 'http-equiv="refresh"' in page.read():
                        continue
                relative = os.path.relpath(path, folder).replace(os.sep, "/")
                found.append("/" + (relative[: -len("index.html")] if relative.endswith("index.html") else relative))
    return sorted(found)


class Browser:
    """One headless Chromium with its own empty profile, driven over the DevTools protocol."""

    def __init__(self, width, ratio):
        self.profile = tempfile.mkdtemp()
        self.process = subprocess.Popen(
            ["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--remote-debugging-port=0", f"--user-data-dir={self.profile}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        for _ in range(200):
            if os.path.exists(port_file) and open(port_file).read().count("\n") >= 1:
                break
            time.sleep(0.05)
        port = open(port_file).read().split("\n")[0]
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
        page = next(target for target in targets if target["type"] == "page")
        self.socket = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=30)
        self.ids = itertools.count(1)
        self.call("Emulation.setDeviceMetricsOverride",
                  width=width, height=900, deviceScaleFactor=ratio, mobile=False)

    def call(self, method, **params):
        message_id = next(self.ids)
        self.socket.send(json.dumps({"id": message_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == message_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]

    def evaluate(self, script):
        result = self.call("Runtime.evaluate", expression=script, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(json.dumps(result["exceptionDetails"])[:500])
        return result["result"].get("value")

    def open(self, url):
        self.call("Page.navigate", url=url)
        self.evaluate(WAIT_FOR_IMAGES)

    def close(self):
        self.socket.close()
        self.process.terminate()
        self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


# Waits for the page, makes lazy images load now, and waits until each has chosen a file.
WAIT_FOR_IMAGES = """
(async () => {
  for (let i = 0; i < 100 && (document.readyState !== "complete" || location.href === "about:blank"); i++)
    await new Promise(r => setTimeout(r, 50));
  for (const image of document.images) image.loading = "eager";
  for (let i = 0; i < 100; i++) {
    if ([...document.images].every(image => image.complete && image.currentSrc)) return true;
    await new Promise(r => setTimeout(r, 50));
  }
  return false;
})()
"""

MEASURE = """
(() => {
  const ratio = devicePixelRatio;
  const problems = [];
  for (const image of document.images) {
    const holders = [image, ...(image.parentElement.tagName === "PICTURE" ? image.parentElement.querySelectorAll("source") : [])];
    const widths = new Map();
    for (const holder of holders)
      for (const candidate of (holder.getAttribute("srcset") || "").split(","))
        if (candidate.trim()) {
          const [url, width] = candidate.trim().split(/\\s+/);
          widths.set(new URL(url, location.href).href, parseInt(width));
        }
    if (!widths.size) continue;  // one file, no choice: a QR code (an SVG) or an image of the site's own
    const chosen = widths.get(image.currentSrc);
    const widest = Math.max(0, ...widths.values());
    const needed = image.getBoundingClientRect().width * ratio;
    if (chosen === undefined) problems.push(`img.${image.className}: chose no file of its srcset (${image.currentSrc})`);
    else if (chosen + 0.5 < needed && chosen < widest)
      problems.push(`img.${image.className}: loads the ${chosen}w file for ${needed.toFixed(0)} device pixels (sizes="${image.sizes}")`);
  }
  if (document.documentElement.scrollWidth > innerWidth)
    problems.push(`the page is ${document.documentElement.scrollWidth} px wide on a ${innerWidth} px screen`);
  const headings = document.querySelectorAll("h1").length;
  if (headings !== 1) problems.push(`${headings} h1 elements (one wanted)`);
  for (const placeholder of document.querySelectorAll(".icon-placeholder, .header-placeholder")) {
    const own = getComputedStyle(placeholder);
    const card = getComputedStyle(placeholder.closest(".profile-card, .user-card a, .post, .profile-header") || document.body);
    const painted = own.backgroundImage !== "none" || own.backgroundColor !== card.backgroundColor;
    if (!painted) problems.push(`.${placeholder.className.replace(/ /g, ".")} has the background of the card around it`);
    if (placeholder.textContent.trim() && own.backgroundImage === "none" && own.color === own.backgroundColor)
      problems.push(`.${placeholder.className.replace(/ /g, ".")}: its initial is the colour of its background`);
    if (placeholder.getBoundingClientRect().width < 1) problems.push(`.${placeholder.className} is not shown`);
  }
  for (const item of document.querySelectorAll(".bio li")) {
    const range = document.createRange();
    range.selectNodeContents(item);
    const gap = range.getBoundingClientRect().left - item.getBoundingClientRect().left;
    if (gap > 8) problems.push(`a bio list item's text starts ${gap.toFixed(0)} px after its bullet`);
  }
  const lines = element => {
    const range = document.createRange();
    range.selectNodeContents(element);
    return new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top))).size;
  };
  for (const handle of document.querySelectorAll(".handle")) {
    if (lines(handle) < 2) continue;
    const range = document.createRange();
    range.selectNodeContents(handle);
    const saved = handle.style.whiteSpace;
    handle.style.whiteSpace = "nowrap";
    const whole = range.getBoundingClientRect().width;
    handle.style.whiteSpace = saved;
    const holder = handle.parentElement, style = getComputedStyle(holder);
    const line = holder.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    if (whole <= line) problems.push(`the handle ${handle.textContent.trim()} is broken over ${lines(handle)} lines, ${handle.getBoundingClientRect().width.toFixed(0)} px wide, though it fits on a line of ${line.toFixed(0)} px`);
  }
  for (const list of document.querySelectorAll(".user-list")) {
    const offsets = new Set();
    for (const card of list.querySelectorAll(".user-card > a")) {
      const icon = card.querySelector("img.icon, .icon-placeholder"), text = card.querySelector(".card-text");
      if (!icon || !text) continue;
      const edge = card.getBoundingClientRect()[getComputedStyle(card).direction === "rtl" ? "right" : "left"];
      const from = element => Math.round(Math.abs(element.getBoundingClientRect()[getComputedStyle(card).direction === "rtl" ? "right" : "left"] - edge));
      offsets.add(`icon at ${from(icon)} px, text at ${from(text)} px`);
    }
    if (offsets.size > 1) problems.push(`the user cards of a list are not aligned: ${[...offsets].join("; ")}`);
  }
  for (const link of document.querySelectorAll("a[href]")) {
    const images = [...link.querySelectorAll("img")].map(image => (image.alt || "").trim()).join("");
    if (!(link.getAttribute("aria-label") || "").trim() && !link.textContent.trim() && !images)
      problems.push(`a link to ${link.getAttribute("href")} has no name (no text, no alt text)`);
  }
  for (const link of document.querySelectorAll(".post-link")) {
    const photo = link.querySelector("img");
    if (!photo) continue;
    const own = link.getBoundingClientRect(), drawn = photo.getBoundingClientRect();
    if (own.height + 1 < drawn.height || own.width + 1 < drawn.width)
      problems.push(`a post card's link is ${own.width.toFixed(0)}x${own.height.toFixed(0)} px around a ${drawn.width.toFixed(0)}x${drawn.height.toFixed(0)} photo: its focus ring is clipped`);
  }
  for (const cut of document.querySelectorAll(".summary")) {
    const text = cut.firstChild;
    if (cut.scrollWidth <= cut.clientWidth || !text || text.nodeType !== Node.TEXT_NODE) continue;
    // Its first letter, wherever its direction puts it, is inside the box.
    const first = document.createRange();
    first.setStart(text, 0);
    first.setEnd(text, Array.from(text.data)[0].length);
    const box = cut.getBoundingClientRect(), letter = first.getBoundingClientRect();
    if (letter.left < box.left - 1 || letter.right > box.right + 1)
      problems.push(`the cut summary "${text.data.slice(0, 20)}…" shows its end: its first letter is drawn outside its box`);
  }
  for (const quote of document.querySelectorAll("blockquote")) {
    const style = getComputedStyle(quote);
    if (parseFloat(style.borderInlineStartWidth) === 0 && style.backgroundColor === "rgba(0, 0, 0, 0)")
      problems.push("a blockquote has no style of its own");
  }
  return problems;
})()
"""

LIST_HEADING = 'document.getElementById("user-list").closest("section").querySelector("h2")'

# Types `query` into the search box and reports what the list and its heading show, with the
# server's own card of each listed user (from before the search) to compare with.
SEARCH = """
(async (query) => {
  const shape = card => card && [...card.querySelectorAll("*")].map(e => e.tagName + "." + e.className + (e.dir ? "[dir=" + e.dir + "]" : "")).join(" ") + " | " + card.textContent.replace(/\\s+/g, "");
  const server = new Map([...document.querySelectorAll("#user-list .user-card")].map(card => [card.dataset.handle, shape(card)]));
  const heading = document.getElementById("user-list").closest("section").querySelector("h2");
  const input = document.getElementById("search-input");
  input.value = query;
  input.dispatchEvent(new Event("input"));
  for (let i = 0; i < 100 && !heading.textContent.includes(query); i++) await new Promise(r => setTimeout(r, 50));
  const shown = {heading: heading.textContent, results: [...document.querySelectorAll("#user-list .user-card")].map(card => ({handle: card.dataset.handle, shape: shape(card), server: server.get(card.dataset.handle) || null}))};
  input.value = "";
  input.dispatchEvent(new Event("input"));
  return shown;
})
"""


def check_search(browser, base, problems):
    browser.open(base)
    newest = browser.evaluate(f"{LIST_HEADING}.textContent")
    index = json.load(urllib.request.urlopen(base + "search.json"))["users"]
    query = index[0]["handle"][:3]
    found = browser.evaluate(f"{SEARCH}({json.dumps(query)})")
    if found["heading"] == newest or query not in found["heading"]:
        problems.append(f"{base}: searching {query!r} leaves the heading {found['heading']!r}")
    if not found["results"]:
        problems.append(f"{base}: searching {query!r} shows no result")
    for result in found["results"]:
        if result["server"] is not None and result["shape"] != result["server"]:
            problems.append(f"{base}: the result for {result['handle']} differs from its card:\n  {result['shape']}\n  {result['server']}")
    # The same user however the query is typed: with the "@" pages write before a handle, in
    # full-width letters (a Japanese input method), or decomposed where the name is composed.
    handle = index[0]["handle"]
    fullwidth = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in handle[:3])
    name = unicodedata.normalize("NFD", index[0]["name"].upper())
    for typed in ["@" + handle[:3], fullwidth, name]:
        shown = browser.evaluate(f"{SEARCH}({json.dumps(typed)})")
        if handle not in [result["handle"] for result in shown["results"]]:
            problems.append(f"{base}: searching {typed!r} does not find {handle}")
    nobody = browser.evaluate(f"{SEARCH}('zzzz-nobody')")
    if nobody["results"] or nobody["heading"] == newest or "zzzz-nobody" not in nobody["heading"]:
        problems.append(f"{base}: a search that matches nobody shows {nobody}")


# Presses Tab until the first post card's photo link has the focus, and reports how its focus
# ring is drawn: its outline and how far that reaches past the card that clips it.
FOCUS = """
(() => {
  const link = document.activeElement;
  if (!link || !link.matches(".post-link")) return null;
  const style = getComputedStyle(link);
  const width = parseFloat(style.outlineWidth), offset = parseFloat(style.outlineOffset);
  const box = link.getBoundingClientRect(), card = link.closest("article").getBoundingClientRect();
  const reach = width + offset;
  const outside = Math.max(card.left - (box.left - reach), (box.right + reach) - card.right, card.top - (box.top - reach), 0);
  return {visible: link.matches(":focus-visible"), style: style.outlineStyle, width, outside};
})()
"""


def check_focus(browser, base, problems):
    browser.open(base)
    if not browser.evaluate('document.querySelector(".post-link") !== null'):
        return
    for _ in range(200):
        browser.call("Input.dispatchKeyEvent", type="keyDown", key="Tab", code="Tab", windowsVirtualKeyCode=9)
        browser.call("Input.dispatchKeyEvent", type="keyUp", key="Tab", code="Tab", windowsVirtualKeyCode=9)
        if browser.evaluate('document.activeElement.matches(".post-link")'):
            break
    ring = browser.evaluate(FOCUS)
    if ring is None:
        problems.append(f"{base}: the Tab key never reaches a post card's photo link")
    elif not ring["visible"] or ring["style"] == "none" or ring["width"] < 2 or ring["outside"] > 0.5:
        problems.append(f"{base}: a post card's photo link shows no clear focus ring: {ring}")


def main():
    tomo = os.path.realpath(sys.argv[1])
    work = tempfile.mkdtemp()
    try:
        demo = os.path.join(work, "demo")
        run([tomo, "build", "--out", demo], cwd=".")
        long_words = long_words_site(tomo, os.path.join(work, "long"), os.path.realpath("content/posts/alice"))
        sites = [(serve(folder), pages(folder)) for folder in (demo, long_words)]
        problems = []
        for width, ratio in itertools.product(WIDTHS, RATIOS):
            browser = Browser(width, ratio)
            try:
                for server, paths in sites:
                    base = f"http://127.0.0.1:{server.server_address[1]}"
                    for path in paths:
                        browser.open(base + path)
                        problems += [f"{path} at {width} px, ratio {ratio}: {problem}" for problem in browser.evaluate(MEASURE)]
                    if (width, ratio) == (375, 1):
                        check_search(browser, base + "/", problems)
                        check_focus(browser, base + "/", problems)
            finally:
                browser.close()
        count = sum(len(paths) for _, paths in sites)
        if problems:
            print("\n".join(problems), file=sys.stderr)
            print(f"check_layout: {len(problems)} problems", file=sys.stderr)
            return 1
        print(f"check_layout: {count} pages at {len(WIDTHS)} widths and {len(RATIOS)} pixel ratios: "
              "images sharp enough, no horizontal scrolling, one h1, placeholders painted and aligned, handles whole, "
              "links named, cut texts from their start, search results like the cards, a post link's focus ring")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
