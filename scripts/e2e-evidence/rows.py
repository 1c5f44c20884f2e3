#!/usr/bin/env python3
"""Prints the evidence store's read observations of one skill by one host, read-only.

Usage: rows.py DB HOST SKILL
The store's schema belongs to cli/internal/evidence (docs/evidence.md): the reads are
the rows of read_observation; the daily rollups (read_day, session_day) derived from them
are printed too, for the record, but not counted. It opens the file with mode=ro, prints
each matching row as JSON and exits 0 only when read_observation holds exactly one.
"""
import json
import sqlite3
import sys

db, host, skill = sys.argv[1:4]
con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
hits = []
for t in tables:
    cols = [r[1] for r in con.execute('PRAGMA table_info("%s")' % t.replace('"', '""'))]
    if "host" in cols and "skill" in cols:
        cur = con.execute('SELECT * FROM "%s" WHERE host = ? AND skill = ?' % t.replace('"', '""'), (host, skill))
        names = [d[0] for d in cur.description]
        hits += [(t, dict(zip(names, row))) for row in cur]
if not any(True for _ in tables):
    sys.exit("rows: %s has no tables" % db)
if "read_observation" not in tables:
    sys.exit("rows: %s has no read_observation table" % db)
for t, row in hits:
    print("%s: %s" % (t, json.dumps(row, default=str, sort_keys=True)))
reads = sum(1 for t, _ in hits if t == "read_observation")
print("rows: %d read observation(s) of %s by %s" % (reads, skill, host))
sys.exit(0 if reads == 1 else 1)
