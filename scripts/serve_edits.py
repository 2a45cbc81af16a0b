#!/usr/bin/env python3
"""Times `tomo serve`'s display-name reloads on a generated site.

    scripts/serve_edits.py TOMO SITE [--edits N] [--port P] [--settle S] [--perf FILE]

Starts `TOMO serve --site SITE --port P` (P 0: a free port, so the served pages differ from the
last preview's and its kept blobs are swept), waits for `Serving`, then S seconds, and saves N
display-name edits of content/users/user00042.yaml 0.7 s apart, each timed from the save to the
`Rebuilt in … ms` line. Prints each (save → rebuilt, reported) pair in ms and the medians.
With --perf, `perf record -g` runs on the server during the edits. The profile is restored.
"""
import argparse
import os
import statistics
import subprocess
import time

from compare_hugo import ServerLines, free_port


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tomo")
    parser.add_argument("site")
    parser.add_argument("--edits", type=int, default=10)
    parser.add_argument("--port", type=int, default=45809)
    parser.add_argument("--settle", type=float, default=5)
    parser.add_argument("--perf")
    arguments = parser.parse_args()
    port = arguments.port or free_port()
    server = subprocess.Popen([arguments.tomo, "serve", "--site", arguments.site, "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
    lines = ServerLines(server, "tomo serve")
    wait_for = lines.wait_for

    profile = os.path.join(arguments.site, "content", "users", "user00042.yaml")
    original = open(profile).read()
    pairs = []
    try:
        wait_for(r"Serving http", 900)
        time.sleep(arguments.settle)
        perf = None
        if arguments.perf:
            perf = subprocess.Popen(["perf", "record", "-F", "4000", "-g", "-o", arguments.perf, "-p", str(server.pid)],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(1)
        for number in range(arguments.edits):
            lines.drain()
            saved = time.monotonic()
            with open(profile, "w") as file:
                file.write(original.replace('name: "', f'name: "Edit {number} ', 1))
            at, found = wait_for(r"Rebuilt in (\d+) ms", 60)
            pairs.append((round((at - saved) * 1000), int(found.group(1))))
            time.sleep(0.7)
        if perf:
            perf.send_signal(2)
            perf.wait()
    finally:
        with open(profile, "w") as file:
            file.write(original)
        time.sleep(1)
        server.terminate()
        server.wait(60)
    print("save → rebuilt, reported (ms):", pairs)
    print(f"medians: save → rebuilt {statistics.median(p[0] for p in pairs):.0f} ms, reported {statistics.median(p[1] for p in pairs):.0f} ms")


if __name__ == "__main__":
    main()
