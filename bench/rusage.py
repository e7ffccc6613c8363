#!/usr/bin/env python3
"""Runs a command and reports what the kernel says it used (bench/README.md).

    python3 bench/rusage.py REPORT_FILE COMMAND [ARG...]

Writes `{"code", "seconds", "user", "system", "max_rss_kb"}` to REPORT_FILE:
wall time from just before the fork to the child's exit, and the child's
rusage from wait4(2): CPU time of the child and of the descendants it waited
for, and ru_maxrss, the high-water mark of the largest single process of
that tree (for Node: the process with all its worker threads). Node cannot
give a child's rusage (child_process has no wait4), and /usr/bin/time is not
on every machine; Python's standard library can. stdio is inherited.
"""
import json
import os
import sys
import time


def main() -> int:
    report, argv = sys.argv[1], sys.argv[2:]
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        try:
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    seconds = time.perf_counter() - t0
    code = os.waitstatus_to_exitcode(status)
    with open(report, "w") as f:
        json.dump({"code": code, "seconds": seconds, "user": usage.ru_utime, "system": usage.ru_stime, "max_rss_kb": usage.ru_maxrss}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
