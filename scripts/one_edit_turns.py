#!/usr/bin/env python3
"""Times one-edit `tomo build`s of two tomo binaries, taking turns, each on its own copy of a
site (so that neither throws away the other's caches).

    scripts/one_edit_turns.py BEFORE_TOMO BEFORE_SITE AFTER_TOMO AFTER_SITE [--rounds N]

Each round, for each binary in turn: a build with nothing changed; a build after a display-name
edit and one after an item added to content/users/user00042.yaml (the edits of
compare_hugo.py, each undone and built again, untimed); a build after
`tomo follow user0010N user00042` (undone the same way). Prints each round's wall times and
the medians. Both sites must have been built once by their binary.
"""
import argparse
import os
import statistics
import subprocess
import time


def timed(command):
    start = time.monotonic()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.monotonic() - start


def round_of(tomo, site, number, figures):
    profile = os.path.join(site, "content", "users", "user00042.yaml")
    with open(profile) as file:
        original = file.read()
    build = [tomo, "build", "--site", site]
    figures.setdefault("nothing changed", []).append(timed(build))
    edits = (("display name", original.replace("name: \"", f"name: \"Edit {number} ", 1)),
             ("one item", original.replace("items:\n", f"items:\n  - text: Edit {number}\n", 1)))
    for name, text in edits:
        with open(profile, "w") as file:
            file.write(text)
        figures.setdefault(name, []).append(timed(build))
        with open(profile, "w") as file:
            file.write(original)
        timed(build)
    follower = f"user{number + 100:05d}"
    timed([tomo, "follow", "--site", site, follower, "user00042"])
    figures.setdefault("one follow", []).append(timed(build))
    timed([tomo, "unfollow", "--site", site, follower, "user00042"])
    timed(build)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before_tomo")
    parser.add_argument("before_site")
    parser.add_argument("after_tomo")
    parser.add_argument("after_site")
    parser.add_argument("--rounds", type=int, default=6)
    arguments = parser.parse_args()
    sides = {"before": (arguments.before_tomo, arguments.before_site), "after": (arguments.after_tomo, arguments.after_site)}
    figures = {name: {} for name in sides}
    for number in range(arguments.rounds):
        for name, (tomo, site) in sides.items():
            round_of(tomo, site, number, figures[name])
        print(f"round {number + 1}: " + "; ".join(
            f"{name} " + ", ".join(f"{kind} {times[-1]:.2f} s" for kind, times in figures[name].items()) for name in sides), flush=True)
    for name in sides:
        print(f"{name}: " + ", ".join(
            f"{kind} median {statistics.median(times):.2f} s ({', '.join(f'{t:.2f}' for t in times)})" for kind, times in figures[name].items()))


if __name__ == "__main__":
    main()
