"""What scripts/check_feeds.py and scripts/check_sitemaps.py share: when a date is plausible,
and the command line (`--base-url URL OUTPUT_DIR` or `--self-test`) with its report."""
import argparse
import datetime
import sys

# The W3C Feed Validator calls dates before about 1990 "implausible"; nothing on the web
# syndicated Atom or RSS, or had a sitemap, before 1995. A build a moment before the check may
# date things up to now; a day more leaves room for clocks set a day ahead.
EARLIEST = datetime.datetime(1995, 1, 1, tzinfo=datetime.timezone.utc)
FUTURE_SLACK = datetime.timedelta(days=1)


def implausibility(value, text):
    """Why the aware datetime `value` (written `text`) is implausible, or None."""
    if value < EARLIEST:
        return f"{text!r} is implausible: before {EARLIEST.date()}"
    if value > datetime.datetime.now(datetime.timezone.utc) + FUTURE_SLACK:
        return f"{text!r} is implausible: more than a day in the future"
    return None


def offset(zone):
    """The offset of `Z`, `+09:00` or `-05:30` as a timedelta."""
    if zone == "Z":
        return datetime.timedelta(0)
    return (1 if zone[0] == "+" else -1) * datetime.timedelta(hours=int(zone[1:3]), minutes=int(zone[4:6]))


def main(name, description, check, self_test):
    """Runs `check(output, base_url)` -> (problems, summary) or `self_test()` -> (failures,
    summary), prints the problems (the first 100) or the summary, and returns the exit status."""
    parser = argparse.ArgumentParser(prog=name, description=description)
    parser.add_argument("output", nargs="?", help="the built site's folder")
    parser.add_argument("--base-url", help="the URL the site was built for (its baseURL)")
    parser.add_argument("--self-test", action="store_true", help="check that broken files are reported")
    arguments = parser.parse_args()
    if arguments.self_test:
        problems, summary = self_test()
        prefix = f"{name} self-test"
    else:
        if not arguments.output or not arguments.base_url:
            parser.error("OUTPUT_DIR and --base-url are needed (or --self-test)")
        base_url = arguments.base_url if arguments.base_url.endswith("/") else arguments.base_url + "/"
        problems, summary = check(arguments.output, base_url)
        prefix = name
    for problem in problems[:100]:
        print(f"{prefix}: {problem}", file=sys.stderr)
    if problems:
        print(f"{prefix}: {len(problems)} problems", file=sys.stderr)
        return 1
    print(f"{prefix}: {summary}")
    return 0
