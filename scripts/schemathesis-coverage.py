#!/usr/bin/env python3
"""How far Schemathesis's calls got, per operation: cases sent, and how many reached a 2xx.

Usage: schemathesis-coverage.py OPENAPI_JSON STATUS_LOG

STATUS_LOG has one "METHOD /path<TAB>status<TAB>seconds" line per call (scripts/schemathesis.sh
writes it when STATUS_LOG is set; the seconds may be missing). Prints a table of every operation
of the document and the operations that took the most time, then exits non-zero
when an operation on a request (/v1/request/{id}...), of the provider API (/v1/provider/...) or
of staff (/v1/staff/...) never reached a 2xx: such an operation was fuzzed only as far as its
door (401, 403, 404), never the code behind it.
"""

import json
import sys
from collections import Counter

MUST_REACH = ("/v1/request/{id}", "/v1/provider/", "/v1/staff/")
METHODS = ("get", "post", "put", "patch", "delete")


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as file:
        document = json.load(file)
    operations = [
        f"{method.upper()} {path}"
        for path, item in document["paths"].items()
        for method in METHODS
        if method in item
    ]
    calls: Counter[str] = Counter()
    reached: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    seconds: Counter[str] = Counter()
    with open(sys.argv[2], encoding="utf-8") as file:
        for line in file:
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 2 or not fields[1].isdigit():
                continue
            label, status = fields[0], fields[1]
            calls[label] += 1
            if len(fields) > 2:
                try:
                    seconds[label] += float(fields[2])
                except ValueError:
                    pass
            code = int(status)
            if 200 <= code < 300:
                reached[label] += 1
            elif code >= 500:
                errors[label] += 1

    width = max(len(operation) for operation in operations)
    print(f"\n{'operation'.ljust(width)}  {'cases':>6}  {'2xx':>6}  {'5xx':>4}")
    missing = []
    for operation in sorted(operations, key=lambda o: (o.split(" ", 1)[1], o)):
        required = operation.split(" ", 1)[1].startswith(MUST_REACH)
        mark = ""
        if required and reached[operation] == 0:
            missing.append(operation)
            mark = "  <- never reached a 2xx"
        print(
            f"{operation.ljust(width)}  {calls[operation]:>6}  {reached[operation]:>6}"
            f"  {errors[operation]:>4}{mark}"
        )
    required_count = sum(1 for o in operations if o.split(" ", 1)[1].startswith(MUST_REACH))
    print(
        f"\n{sum(calls.values())} calls, {sum(reached.values())} reached a 2xx; "
        f"{required_count - len(missing)} of {required_count} operations on requests, "
        "of providers and of staff reached a 2xx"
    )
    if seconds:
        # Where the time went: a slow operation here is what to look at when the check slows.
        slowest = ", ".join(
            f"{operation} {total:.0f} s" for operation, total in seconds.most_common(5)
        )
        print(f"answers took {sum(seconds.values()):.0f} s in all; the most: {slowest}")
    if missing:
        print(f"never reached a 2xx: {', '.join(missing)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
