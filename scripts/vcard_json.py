#!/usr/bin/env python3
"""A contact card as PyPI's vobject reads it, as JSON: the tests' independent vCard parser.

    scripts/vcard_json.py FILE

Prints {"version": ..., "properties": [[NAME, VALUE], ...]} in the card's order (names
upper-cased, values unescaped and unfolded by vobject). Exit status 1, with the reason, when
vobject cannot read the file as exactly one vCard, or when it is not UTF-8 with CRLF line ends.
"""
import json
import sys

import vobject


def main():
    data = open(sys.argv[1], "rb").read()
    text = data.decode("utf-8")
    if "\n" in text.replace("\r\n", "") or "\r" in text.replace("\r\n", ""):
        sys.exit("a line ends without CRLF")
    cards = list(vobject.readComponents(text, validate=True))
    if len(cards) != 1:
        sys.exit(f"{len(cards)} cards, expected one")
    card = cards[0]
    properties = [[child.name.upper(), child.value] for child in card.getChildren()]
    json.dump({"version": card.version.value, "properties": properties}, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
