#!/usr/bin/env python3
"""Builds the same generated site with tomo and with Hugo, alternating, and prints wall time,
CPU time, peak memory, pages written, pages per second and the tomo/Hugo ratios; then times
tomo rebuilds: nothing changed, one profile's display name edited (every page showing the user
changes), one profile item edited (only the profile page changes), one `tomo follow`. Last, in
watch mode, `hugo server` and `tomo serve` side by side: the time from saving a display-name
edit to the rebuild's line in the server's output, and the rebuild time each server reports.

    scripts/compare_hugo.py [--users 1000 10000] [--runs 3 2] [--edits 5] [--watch-only]

`--runs` gives the number of runs for each size (the last number serves the sizes after it);
the order of Hugo and tomo alternates from run to run. Outputs of earlier builds are moved
aside and deleted only when a size's figures are all taken, followed by a five-minute pause: on
ext4 without a journal, as here, the inodes of files deleted in the last one to five minutes are
skipped when new files are made, which slows whichever build comes next by as much as a factor
of three.

The workloads come from ../shared/bench/gen_site.py (10 posts per user); the social graph is
loaded into tomo's store with `tomo batch`. tomo's site says `disableKinds: [cards]`: Hugo
makes no link-preview images, and a share card costs far more than a page (`tomo-bench cards`
times them on their own). Run from the repository root after
`swift build -c release --product tomo`. Machines here are shared: read the ratios, which are
measured in one run, rather than the absolute seconds.
"""
import argparse
import os
import queue
import re
import socket
import shutil
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GENERATOR = os.path.join(ROOT, "..", "shared", "bench", "gen_site.py")
# The same work as Hugo's: pages and thumbnails, no share cards.
CARDS_OFF = "disableKinds: [cards]"
SAME_PAGES = "disableKinds: [timeline, followers, following, feed, cards]"
TOMO = os.path.join(ROOT, ".build", "release", "tomo")


def run(command, cwd=None):
    """Runs `command`; returns (wall seconds, CPU seconds, peak memory in MiB)."""
    start = time.monotonic()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.monotonic() - start
    errors = process.stderr.read().decode(errors="replace")
    process.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(command)} failed:\n{errors[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


TRASH = os.path.join(ROOT, "bench-out", "trash")


def set_aside(folder):
    """Moves `folder` out of the way, to be deleted when this size's figures are taken."""
    if os.path.exists(folder):
        os.makedirs(TRASH, exist_ok=True)
        # A name no folder there has, even one another run is still deleting.
        number = len(os.listdir(TRASH))
        while os.path.exists(os.path.join(TRASH, str(number))):
            number += 1
        os.rename(folder, os.path.join(TRASH, str(number)))


# How long the inodes of deleted files are skipped when new ones are made (see the docstring).
INODE_SETTLE_SECONDS = 300


def empty_trash(settle):
    """Deletes the outputs set aside. Kept until the whole run ended, the outputs of the
    1,000-, 10,000- and 20,000-user sites filled a disk with 65 GB free; deleted after each
    size instead, and followed (`settle`) by a pause, so that the builds that come next do not
    meet the freed inodes."""
    if not os.path.exists(TRASH):
        return
    shutil.rmtree(TRASH, ignore_errors=True)
    if settle:
        print(f"(outputs set aside deleted; waiting {INODE_SETTLE_SECONDS} s before the next builds)", flush=True)
        time.sleep(INODE_SETTLE_SECONDS)


def count_pages(folder):
    return sum(1 for _, _, files in os.walk(folder) for name in files if name.endswith(".html"))


def workload(users):
    """The tomo and Hugo flavours of the generated site, made once, with tomo's graph imported."""
    tomo_site = os.path.join(ROOT, "bench-out", f"tomo-{users}")
    hugo_site = os.path.join(ROOT, "bench-out", f"hugo-{users}")
    for flavor, folder in (("tomo", tomo_site), ("hugo", hugo_site)):
        if not os.path.exists(os.path.join(folder, ".complete")):
            shutil.rmtree(folder, ignore_errors=True)
            subprocess.run([sys.executable, GENERATOR, "--users", str(users), "--posts-per-user", "10",
                            "--out", folder, "--flavor", flavor], check=True, stdout=subprocess.DEVNULL)
            if flavor == "tomo":
                commands = os.path.join(folder, "batch.txt")
                with open(os.path.join(folder, "store-commands.txt")) as source, open(commands, "w") as target:
                    for line in source:
                        target.write(line[5:] if line.startswith("tomo ") else line)
                wall, _, _ = run([TOMO, "batch", "--site", folder, commands])
                print(f"{users} users: graph imported with tomo batch in {wall:.1f} s")
            open(os.path.join(folder, ".complete"), "w").close()
    site_yaml = os.path.join(tomo_site, "content", "site.yaml")
    text = open(site_yaml).read()
    if CARDS_OFF not in text:
        with open(site_yaml, "w") as file:
            file.write(text.rstrip("\n") + "\n" + CARDS_OFF + "\n")
    return tomo_site, hugo_site


class Figures:
    """Every figure of the run, kept for the summary at the end: by site size, a name and the
    median of its runs (wall seconds, CPU seconds, peak MiB, pages)."""

    def __init__(self):
        self.by_size = {}

    def add(self, users, name, results, pages=None):
        figure = {
            "wall": statistics.median(r[0] for r in results),
            "cpu": statistics.median(r[1] for r in results),
            "memory": max(r[2] for r in results),
            "pages": pages,
            "runs": len(results),
        }
        self.by_size.setdefault(users, {})[name] = figure
        return figure

    def get(self, users, name):
        return self.by_size.get(users, {}).get(name)


FIGURES = Figures()


def row(users, name, label, results, pages=None):
    figure = FIGURES.add(users, name, results, pages)
    pages_text = f" {pages:7d} pages {pages / figure['wall']:7.0f} pages/s" if pages else ""
    print(f"  {label:<48} {figure['wall']:8.2f} s wall {figure['cpu']:7.2f} s CPU {figure['memory']:6.0f} MiB{pages_text}", flush=True)
    return figure["wall"]


def compare(users, runs):
    tomo_site, hugo_site = workload(users)
    tomo_out = os.path.join(tomo_site, "public")
    hugo_out = os.path.join(hugo_site, "public")
    same_out = os.path.join(tomo_site, "public-same-pages")
    tomo_cold, tomo_warm, tomo_same, hugo = [], [], [], []

    def build_hugo():
        set_aside(hugo_out)
        hugo.append(run(["hugo", "--quiet", "-s", hugo_site, "-d", hugo_out]))

    def build_tomo():
        # Cold: no thumbnail cache, no build state and no output, as on a fresh checkout.
        set_aside(tomo_out)
        shutil.rmtree(os.path.join(tomo_site, ".tomo-cache"), ignore_errors=True)
        tomo_cold.append(run([TOMO, "build", "--site", tomo_site]))
        # Warm: thumbnails cached, output folder new (what Hugo does every time).
        set_aside(tomo_out)
        tomo_warm.append(run([TOMO, "build", "--site", tomo_site]))
        # The pages Hugo makes (home, profiles, posts): the other kinds disabled in site.yaml.
        set_aside(same_out)
        site_yaml = os.path.join(tomo_site, "content", "site.yaml")
        original = open(site_yaml).read()
        try:
            with open(site_yaml, "w") as file:
                file.write(original.replace(CARDS_OFF, SAME_PAGES))
            tomo_same.append(run([TOMO, "build", "--site", tomo_site, "--out", same_out]))
        finally:
            with open(site_yaml, "w") as file:
                file.write(original)

    for number in range(runs):
        for build in ((build_hugo, build_tomo) if number % 2 == 0 else (build_tomo, build_hugo)):
            build()
    hugo_pages, tomo_pages, same_pages = count_pages(hugo_out), count_pages(tomo_out), count_pages(same_out)
    print(f"{users} users x 10 posts, median of {runs}:")
    hugo_wall = row(users, "hugo", "hugo", hugo, hugo_pages)
    cold_wall = row(users, "tomo cold", "tomo, no thumbnail cache", tomo_cold, tomo_pages)
    warm_wall = row(users, "tomo", "tomo, thumbnails cached", tomo_warm, tomo_pages)
    same_wall = row(users, "tomo same pages", "tomo, the same pages as Hugo", tomo_same, same_pages)
    print(f"  ratio tomo/hugo, wall time: {cold_wall / hugo_wall:.2f} without cache, {warm_wall / hugo_wall:.2f} with cache")
    # tomo writes more pages for the same site (followers, following, timelines, feeds): the
    # time per page, and the build with those kinds disabled, compare the same work.
    per_page = (warm_wall / tomo_pages) / (hugo_wall / hugo_pages)
    print(f"  ratio tomo/hugo, time per page: {per_page:.2f} (tomo {tomo_pages} pages, hugo {hugo_pages})")
    print(f"  ratio tomo/hugo on the same pages (disableKinds: timeline, followers, following, feed, cards): {same_wall / hugo_wall:.2f}", flush=True)
    disk = subprocess.run(["du", "-sm", tomo_out], capture_output=True, text=True).stdout.split()
    FIGURES.by_size[users]["output MiB"] = {"wall": float(disk[0]) if disk else 0.0}
    # site.yaml was rewritten for the same-pages build (same text, new stamps): settle first.
    run([TOMO, "build", "--site", tomo_site])
    unchanged = [run([TOMO, "build", "--site", tomo_site]) for _ in range(runs)]
    row(users, "nothing changed", "tomo rebuild, nothing changed", unchanged)
    profile = os.path.join(tomo_site, "content", "users", "user00042.yaml")
    original = open(profile).read()
    for name, edit in (("display name", lambda n: original.replace("name: \"", f"name: \"Edit {n} ", 1)),
                       ("one item", lambda n: original.replace("items:\n", f"items:\n  - text: Edit {n}\n", 1))):
        edits = []
        try:
            for number in range(runs):
                with open(profile, "w") as file:
                    file.write(edit(number))
                edits.append(run([TOMO, "build", "--site", tomo_site]))
        finally:
            with open(profile, "w") as file:
                file.write(original)
            run([TOMO, "build", "--site", tomo_site])
        row(users, name, f"tomo rebuild after a profile edit ({name})", edits)
    # One follow through the CLI (not timed), then the rebuild; undone afterwards.
    follows = []
    for number in range(runs):
        # user00100 and on (user00042 does not follow them in the generated graph); wraps on a
        # small site.
        follower = f"user{(number + 100) % users if (number + 100) % users != 42 else 43:05d}"
        run([TOMO, "follow", "--site", tomo_site, follower, "user00042"])
        follows.append(run([TOMO, "build", "--site", tomo_site]))
        run([TOMO, "unfollow", "--site", tomo_site, follower, "user00042"])
        run([TOMO, "build", "--site", tomo_site])
    row(users, "one follow", "tomo rebuild after one `tomo follow`", follows)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def first_page_seconds(url, started, server, timeout=900):
    """Seconds from `started` to the first full answer (200 with an HTML body) at `url`."""
    deadline = started + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit(f"the server at {url} stopped before it served a page")
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:
                if answer.status == 200 and b"<html" in answer.read(4096).lower():
                    return time.monotonic() - started
        except (urllib.error.URLError, ConnectionError, OSError):
            pass
        time.sleep(0.02)
    sys.exit(f"no page at {url} within {timeout} s")


class ServerLines:
    """What a server started with stdout piped prints, line by line, with when each came."""

    def __init__(self, server, name):
        self.name = name
        self.lines = queue.Queue()
        threading.Thread(target=lambda: [self.lines.put((time.monotonic(), line)) for line in server.stdout], daemon=True).start()

    def drain(self):
        """Forgets the lines printed so far."""
        while not self.lines.empty():
            self.lines.get()

    def wait_for(self, pattern, timeout):
        """When the next line matching `pattern` came, and its match; exits after `timeout` s."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                at, line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            found = re.search(pattern, line)
            if found:
                return at, found
        sys.exit(f"{self.name}: no line matching {pattern!r} within {timeout} s")


def watch_rebuilds(users, name, command, url, ready, rebuilt, profile, edits):
    """Starts a preview server, times its first page (from the start to the first page served
    at `url`) and its first build (to the line matching `ready`), saves `edits` display-name
    edits of `profile` and times each from the save to the server's line matching `rebuilt`
    (whose first group is the rebuild time the server reports, in ms). Prints the medians and
    the server's peak memory, and keeps them for the summary."""
    started = time.monotonic()
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
    lines = ServerLines(server, name)
    wait_for = lines.wait_for

    original = open(profile).read()
    saves, reported = [], []
    try:
        first_page = first_page_seconds(url, started, server)
        ready_at, _ = wait_for(ready, 900)
        first_build = ready_at - started
        for number in range(edits):
            time.sleep(1)
            lines.drain()
            saved = time.monotonic()
            with open(profile, "w") as file:
                file.write(original.replace("name: \"", f"name: \"Watch {number} ", 1))
            at, found = wait_for(rebuilt, 300)
            saves.append((at - saved) * 1000)
            reported.append(float(found.group(1)))
    finally:
        with open(profile, "w") as file:
            file.write(original)
        time.sleep(1)
        with open(f"/proc/{server.pid}/status") as status:
            peak = next((int(line.split()[1]) // 1024 for line in status if line.startswith("VmHWM")), 0)
        server.terminate()
        server.wait(timeout=60)
    figures = FIGURES.by_size.setdefault(users, {})
    figures[name] = {"first page": first_page, "first build": first_build, "memory": peak,
                     "save to rebuilt": statistics.median(saves), "rebuild": statistics.median(reported)}
    print(f"  {name:<22} first page {first_page:6.1f} s, ready {first_build:6.1f} s, peak {peak:6d} MiB; display-name edit, median of {edits}:"
          f" save → rebuilt {statistics.median(saves):7.0f} ms, rebuild as reported {statistics.median(reported):7.0f} ms", flush=True)


def compare_watch_mode(users, edits):
    tomo_site, hugo_site = workload(users)
    print(f"{users} users, watch mode (hugo server --disableFastRender, tomo serve):")
    port = free_port()
    watch_rebuilds(users, "hugo server", ["hugo", "server", "-s", hugo_site, "--port", str(port), "--bind", "127.0.0.1",
                                          "--disableFastRender"], f"http://127.0.0.1:{port}/",
                   r"Web Server is available", r"Total in (\d+) ms", os.path.join(hugo_site, "content", "users", "user00042.md"), edits)
    # The first start finds nothing kept from an earlier preview; the second (a restart) does.
    for name in ("tomo serve", "tomo serve, restarted"):
        port = free_port()
        watch_rebuilds(users, name, [TOMO, "serve", "--site", tomo_site, "--port", str(port)], f"http://127.0.0.1:{port}/",
                       r"Serving http", r"Rebuilt in (\d+) ms", os.path.join(tomo_site, "content", "users", "user00042.yaml"), edits)


def summary():
    """Every figure against the targets of the performance work, with the tomo/Hugo ratios;
    then how time and memory grow with the site, and what a 100,000-user site would need,
    extrapolated from the two largest sites measured."""
    print("\nSummary (medians; ratios are tomo/Hugo of this run):")
    checks = []

    def line(label, value, target=None, meets=None):
        verdict = "" if target is None else f"   target {target}: {'met' if meets else 'NOT met'}"
        print(f"  {label:<62} {value}{verdict}")
        if target is not None:
            checks.append(meets)

    for users, figures in sorted(FIGURES.by_size.items()):
        print(f" {users} users:")
        hugo, tomo, same = figures.get("hugo"), figures.get("tomo"), figures.get("tomo same pages")
        if hugo and tomo and same:
            line("first build, same pages as Hugo", f"tomo {same['wall']:.2f} s, Hugo {hugo['wall']:.2f} s, ratio {same['wall'] / hugo['wall']:.2f}",
                 "≤ 0.50", same["wall"] / hugo["wall"] <= 0.5)
            per_page = (tomo["wall"] / tomo["pages"]) / (hugo["wall"] / hugo["pages"])
            line("first build, whole site", f"tomo {tomo['wall']:.2f} s ({tomo['pages']} pages), ratio {tomo['wall'] / hugo['wall']:.2f}, per page {per_page:.2f}",
                 "≤ 1.00 and ≤ 0.45 per page", tomo["wall"] <= hugo["wall"] and per_page <= 0.45)
            line("first build, no thumbnail cache", f"tomo {figures['tomo cold']['wall']:.2f} s, ratio {figures['tomo cold']['wall'] / hugo['wall']:.2f}")
            line("peak memory of a build", f"tomo {tomo['memory']:.0f} MiB ({tomo['memory'] / users * 1000:.0f} MiB per 1,000 users), "
                 f"Hugo {hugo['memory']:.0f} MiB ({hugo['memory'] / users * 1000:.0f} per 1,000)")
            line("output size", f"{figures['output MiB']['wall']:.0f} MiB")
        for name, target in (("nothing changed", 0.5), ("display name", 1.5), ("one item", 1.5), ("one follow", 1.5)):
            figure = figures.get(name)
            if figure:
                line(f"tomo build after: {name}", f"{figure['wall']:.2f} s, {figure['memory']:.0f} MiB", f"≤ {target} s" if users >= 10000 else None,
                     figure["wall"] <= target)
        hugo_server, serve, restarted = figures.get("hugo server"), figures.get("tomo serve"), figures.get("tomo serve, restarted")
        if serve:
            ratio = f", Hugo {hugo_server['memory']} MiB, ratio {serve['memory'] / hugo_server['memory']:.2f}" if hugo_server else ""
            line("serve: peak memory", f"tomo {serve['memory']} MiB ({serve['memory'] / users * 1000:.0f} MiB per 1,000 users){ratio}",
                 "≤ 1024 MiB" if users >= 10000 else None, serve["memory"] <= 1024)
            line("serve: save → rebuilt (display name)", f"tomo {serve['save to rebuilt']:.0f} ms" + (f", Hugo {hugo_server['save to rebuilt']:.0f} ms" if hugo_server else ""),
                 "< 100 ms", serve["save to rebuilt"] < 100)
            line("serve: first page", f"tomo {serve['first page']:.1f} s" + (f", Hugo {hugo_server['first page']:.1f} s" if hugo_server else ""))
        if restarted:
            line("serve, restarted: first page", f"tomo {restarted['first page']:.1f} s, peak {restarted['memory']} MiB", "≤ 2 s", restarted["first page"] <= 2)
    sizes = [users for users, figures in sorted(FIGURES.by_size.items()) if "tomo" in figures]
    if len(sizes) >= 2:
        small, large = sizes[0], sizes[-1]
        print(f" growth from {small} to {large} users (1.00 = linear):")
        for name in ("tomo", "tomo same pages", "hugo"):
            a, b = FIGURES.get(small, name), FIGURES.get(large, name)
            scale = large / small
            print(f"  {name:<22} time {b['wall'] / a['wall'] / scale:.2f}, peak memory {b['memory'] / a['memory'] / scale:.2f}")
        second = sizes[-2]
        a, b = FIGURES.get(second, "tomo"), FIGURES.get(large, "tomo")
        def at(users, key):
            if key == "output MiB":
                x, y = FIGURES.by_size[second]["output MiB"]["wall"], FIGURES.by_size[large]["output MiB"]["wall"]
            else:
                x, y = a[key], b[key]
            return y + (y - x) / (large - second) * (users - large)
        print(f" a 100,000-user site, by a straight line through the {second}- and {large}-user builds: "
              f"a first build of about {at(100000, 'wall'):.0f} s with {at(100000, 'memory') / 1024:.1f} GiB peak memory, "
              f"{at(100000, 'pages'):.0f} pages and {at(100000, 'output MiB') / 1024:.1f} GiB of output")
    if checks:
        print(f" targets met: {sum(1 for c in checks if c)} of {len(checks)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--users", type=int, nargs="+", default=[1000, 10000, 20000])
    parser.add_argument("--runs", type=int, nargs="+", default=[3, 2, 1])
    parser.add_argument("--watch-users", type=int, nargs="+", default=[1000, 10000],
                        help="the sizes measured in watch mode too")
    parser.add_argument("--edits", type=int, default=5, help="display-name edits timed in watch mode")
    parser.add_argument("--watch-only", action="store_true", help="only the watch-mode comparison")
    arguments = parser.parse_args()
    if not os.path.exists(GENERATOR):
        sys.exit(f"needs {GENERATOR} (the shared benchmark generator beside this repository)")
    if shutil.which("hugo") is None:
        sys.exit("needs hugo (apt-get install hugo)")
    try:
        for index, users in enumerate([] if arguments.watch_only else arguments.users):
            compare(users, arguments.runs[min(index, len(arguments.runs) - 1)])
            # The next size's builds, or the previews (which store their files), come next.
            empty_trash(settle=True)
        for users in arguments.watch_users:
            compare_watch_mode(users, arguments.edits)
        summary()
    finally:
        empty_trash(settle=False)


if __name__ == "__main__":
    main()
