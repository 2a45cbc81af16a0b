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
aside and deleted only when everything is measured: on ext4 without a journal, as here, the
inodes of files deleted in the last one to five minutes are skipped when new files are made,
which slows whichever build comes next by as much as a factor of three.

The workloads come from ../shared/bench/gen_site.py (10 posts per user); the social graph is
loaded into tomo's store with `tomo batch`. Run from the repository root after
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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GENERATOR = os.path.join(ROOT, "..", "shared", "bench", "gen_site.py")
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
    """Moves `folder` out of the way, to be deleted when the benchmark ends."""
    if os.path.exists(folder):
        os.makedirs(TRASH, exist_ok=True)
        os.rename(folder, os.path.join(TRASH, f"{len(os.listdir(TRASH))}"))


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
    return tomo_site, hugo_site


def row(label, results, pages):
    wall = statistics.median(r[0] for r in results)
    cpu = statistics.median(r[1] for r in results)
    memory = max(r[2] for r in results)
    print(f"  {label:<48} {wall:8.2f} s wall {cpu:7.2f} s CPU {memory:6.0f} MiB {pages:7d} pages {pages / wall:7.0f} pages/s", flush=True)
    return wall


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
                file.write(original.rstrip("\n") + "\ndisableKinds: [timeline, followers, following, feed]\n")
            tomo_same.append(run([TOMO, "build", "--site", tomo_site, "--out", same_out]))
        finally:
            with open(site_yaml, "w") as file:
                file.write(original)

    for number in range(runs):
        for build in ((build_hugo, build_tomo) if number % 2 == 0 else (build_tomo, build_hugo)):
            build()
    hugo_pages, tomo_pages, same_pages = count_pages(hugo_out), count_pages(tomo_out), count_pages(same_out)
    print(f"{users} users x 10 posts, median of {runs}:")
    hugo_wall = row("hugo", hugo, hugo_pages)
    cold_wall = row("tomo, no thumbnail cache", tomo_cold, tomo_pages)
    warm_wall = row("tomo, thumbnails cached", tomo_warm, tomo_pages)
    same_wall = row("tomo, the same pages as Hugo", tomo_same, same_pages)
    print(f"  ratio tomo/hugo, wall time: {cold_wall / hugo_wall:.2f} without cache, {warm_wall / hugo_wall:.2f} with cache")
    # tomo writes more pages for the same site (followers, following, timelines, feeds): the
    # time per page, and the build with those kinds disabled, compare the same work.
    per_page = (warm_wall / tomo_pages) / (hugo_wall / hugo_pages)
    print(f"  ratio tomo/hugo, time per page: {per_page:.2f} (tomo {tomo_pages} pages, hugo {hugo_pages})")
    print(f"  ratio tomo/hugo on the same pages (disableKinds: timeline, followers, following, feed): {same_wall / hugo_wall:.2f}", flush=True)
    # site.yaml was rewritten for the same-pages build (same text, new stamps): settle first.
    run([TOMO, "build", "--site", tomo_site])
    unchanged = [run([TOMO, "build", "--site", tomo_site]) for _ in range(runs)]
    row("tomo rebuild, nothing changed", unchanged, tomo_pages)
    profile = os.path.join(tomo_site, "content", "users", "user00042.yaml")
    original = open(profile).read()
    for label, edit in (("display name", lambda n: original.replace("name: \"", f"name: \"Edit {n} ", 1)),
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
        row(f"tomo rebuild after a profile edit ({label})", edits, tomo_pages)
    # One follow through the CLI (not timed), then the rebuild; undone afterwards.
    follows = []
    for number in range(runs):
        follower = f"user{number + 100:05d}"
        run([TOMO, "follow", "--site", tomo_site, follower, "user00042"])
        follows.append(run([TOMO, "build", "--site", tomo_site]))
        run([TOMO, "unfollow", "--site", tomo_site, follower, "user00042"])
        run([TOMO, "build", "--site", tomo_site])
    row("tomo rebuild after one `tomo follow`", follows, tomo_pages)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def watch_rebuilds(label, command, ready, rebuilt, profile, edits):
    """Starts a preview server, saves `edits` display-name edits of `profile` and times each
    from the save to the server's line matching `rebuilt` (whose first group is the rebuild time
    the server reports, in ms). Prints the medians and the server's peak memory."""
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put((time.monotonic(), line)) for line in server.stdout], daemon=True).start()

    def wait_for(pattern, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                at, line = lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            found = re.search(pattern, line)
            if found:
                return at, found
        sys.exit(f"{label}: no line matching {pattern!r} within {timeout} s")

    original = open(profile).read()
    saves, reported = [], []
    try:
        started = time.monotonic()
        wait_for(ready, 900)
        first_build = time.monotonic() - started
        for number in range(edits):
            time.sleep(1)
            while not lines.empty():
                lines.get()
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
    print(f"  {label:<16} first build {first_build:6.1f} s, peak {peak:6d} MiB; display-name edit, median of {edits}:"
          f" save → rebuilt {statistics.median(saves):7.0f} ms, rebuild as reported {statistics.median(reported):7.0f} ms", flush=True)


def compare_watch_mode(users, edits):
    tomo_site, hugo_site = workload(users)
    print(f"{users} users, watch mode (hugo server --disableFastRender, tomo serve; both serve from memory):")
    watch_rebuilds("hugo server", ["hugo", "server", "-s", hugo_site, "--port", str(free_port()), "--bind", "127.0.0.1",
                                   "--disableFastRender"],
                   r"Web Server is available", r"Total in (\d+) ms", os.path.join(hugo_site, "content", "users", "user00042.md"), edits)
    watch_rebuilds("tomo serve", [TOMO, "serve", "--site", tomo_site, "--port", str(free_port())],
                   r"Serving http", r"Rebuilt in (\d+) ms", os.path.join(tomo_site, "content", "users", "user00042.yaml"), edits)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--users", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--runs", type=int, nargs="+", default=[3, 2])
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
        for users in arguments.users:
            compare_watch_mode(users, arguments.edits)
    finally:
        shutil.rmtree(TRASH, ignore_errors=True)


if __name__ == "__main__":
    main()
