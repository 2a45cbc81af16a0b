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
- a bio's list items start next to their bullets and a quote is set off from the text.

On the home pages, a search shows results built like the server's user cards (icon, name,
handle, summary) under a heading that names the query, or says that no user matches.

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
import urllib.request

import websocket

WIDTHS = (375, 1400)
RATIOS = (1, 2)
LONG_NAME = "Maximiliana" * 6 + "Wolfeschlegel"[:6]  # 72 characters, no space
LONG_HANDLE = "a" * 10 + "long_handle_" + "b" * 8  # 30 characters, the longest a handle may be
LONG_URL = "https://example.com/" + "very-long-path-segment-" * 6


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
    run([tomo, "follow", "plain", LONG_HANDLE], cwd=folder)
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
  const shape = card => card && [...card.querySelectorAll("*")].map(e => e.tagName + "." + e.className).join(" ") + " | " + card.textContent.replace(/\\s+/g, "");
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
    nobody = browser.evaluate(f"{SEARCH}('zzzz-nobody')")
    if nobody["results"] or nobody["heading"] == newest or "zzzz-nobody" not in nobody["heading"]:
        problems.append(f"{base}: a search that matches nobody shows {nobody}")


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
            finally:
                browser.close()
        count = sum(len(paths) for _, paths in sites)
        if problems:
            print("\n".join(problems), file=sys.stderr)
            print(f"check_layout: {len(problems)} problems", file=sys.stderr)
            return 1
        print(f"check_layout: {count} pages at {len(WIDTHS)} widths and {len(RATIOS)} pixel ratios: "
              "images sharp enough, no horizontal scrolling, one h1, placeholders painted, search results like the cards")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
