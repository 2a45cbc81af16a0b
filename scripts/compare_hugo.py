#!/usr/bin/env python3
"""Builds the same generated site with tomo and with Hugo, alternating, and prints wall time,
CPU time, peak memory, pages written, pages per second and the tomo/Hugo ratio; then times a
tomo rebuild with nothing changed and one after a single profile edit.

    scripts/compare_hugo.py [--users 1000 10000] [--runs 3]

The workloads come from ../shared/bench/gen_site.py (10 posts per user); the social graph is
loaded into tomo's store with `tomo batch`. Run from the repository root after
`swift build -c release --product tomo`. Machines here are shared: read the ratios, which are
measured in one run, rather than the absolute seconds.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
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
    print(f"  {label:<34} {wall:7.2f} s wall {cpu:7.2f} s CPU {memory:7.0f} MiB {pages:8d} pages {pages / wall:8.0f} pages/s")
    return wall


def compare(users, runs):
    tomo_site, hugo_site = workload(users)
    tomo_out = os.path.join(tomo_site, "public")
    hugo_out = os.path.join(hugo_site, "public")
    tomo_cold, tomo_warm, hugo = [], [], []
    for _ in range(runs):
        shutil.rmtree(hugo_out, ignore_errors=True)
        hugo.append(run(["hugo", "--quiet", "-s", hugo_site, "-d", hugo_out]))
        # Cold: no thumbnail cache and no output, as on a fresh checkout.
        shutil.rmtree(tomo_out, ignore_errors=True)
        shutil.rmtree(os.path.join(tomo_site, ".tomo-cache"), ignore_errors=True)
        tomo_cold.append(run([TOMO, "build", "--site", tomo_site]))
        # Warm: thumbnails cached, output folder new (what Hugo does every time).
        shutil.rmtree(tomo_out, ignore_errors=True)
        tomo_warm.append(run([TOMO, "build", "--site", tomo_site]))
    print(f"{users} users x 10 posts, median of {runs}:")
    hugo_wall = row("hugo", hugo, count_pages(hugo_out))
    cold_wall = row("tomo, no thumbnail cache", tomo_cold, count_pages(tomo_out))
    warm_wall = row("tomo, thumbnails cached", tomo_warm, count_pages(tomo_out))
    print(f"  ratio tomo/hugo (wall): {cold_wall / hugo_wall:.2f} without cache, {warm_wall / hugo_wall:.2f} with cache")
    unchanged = [run([TOMO, "build", "--site", tomo_site]) for _ in range(runs)]
    row("tomo rebuild, nothing changed", unchanged, count_pages(tomo_out))
    profile = os.path.join(tomo_site, "content", "users", "user00042.yaml")
    original = open(profile).read()
    edits = []
    try:
        for edit in range(runs):
            with open(profile, "w") as file:
                file.write(original.replace("name: \"", f"name: \"Edit {edit} ", 1))
            edits.append(run([TOMO, "build", "--site", tomo_site]))
    finally:
        with open(profile, "w") as file:
            file.write(original)
    row("tomo rebuild after one profile edit", edits, count_pages(tomo_out))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--users", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--runs", type=int, default=3)
    arguments = parser.parse_args()
    if not os.path.exists(GENERATOR):
        sys.exit(f"needs {GENERATOR} (the shared benchmark generator beside this repository)")
    if shutil.which("hugo") is None:
        sys.exit("needs hugo (apt-get install hugo)")
    for users in arguments.users:
        compare(users, arguments.runs)


if __name__ == "__main__":
    main()
