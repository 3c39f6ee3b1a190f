#!/usr/bin/env python3
"""Draws counted 19x19 records from outside the shared corpus, for a measurement tried once.

The shared corpus's `aeb-pro/` folder is 2,852 of the 71,935 records the Gosei-Kifu
repository shipped at commit 926c6cc (Andries Brouwer's collection). The other ~69,000 are
records the end-of-game judgement was never built, tuned or tested on. This script draws N of
them, the same way every time, and writes them with an `INDEX.tsv` in the corpus's columns, so
that `ingo-bench endgame --corpus OUT --set chosen --prefix '' --komi ''` judges them beside
GNU Go. Nothing is copied into this repository: the records stay in OUT.

A record is drawn when it is (in the order of the SHA-256 of its path, a fixed shuffle):
  * not a path of the shared corpus, and not the same game (the same moves) as any record of it
    or as one drawn before (the collection files some games twice);
  * free of the marks the corpus left out (GoGoD, a CP property, the word "copyright");
  * parsed by sgfmill, 19x19, with a result that is a count (B+n or W+n, n a multiple of 0.5)
    and at least 50 moves.

Usage:
  python3 scripts/outside-records.py --mirror GIT_DIR --out DIR [--count 300]
GIT_DIR is a clone of github.com/shiofreecss/Gosei-Kifu (the tool library's `fetch` gives one).
Needs sgfmill (pip install sgfmill).
"""
import argparse
import hashlib
import os
import re
import subprocess
import sys

from sgfmill import sgf

COMMIT = "926c6cc389c7871172c9bdbcb8afbd8268bbc9e9"
ROOT = "public/games/"
COUNTED = re.compile(r"^\s*[BWbw]\s*\+\s*(\d+(\.\d+)?)\s*$")
MARKS = re.compile(rb"gogod|copyright|(^|[^A-Za-z])CP\[", re.IGNORECASE)


def moves_key(game):
    """The main line's moves as text: the same game filed twice has the same key."""
    out = []
    for node in game.get_main_sequence():
        colour, move = node.get_move()
        if colour is not None:
            out.append(f"{colour}{move}")
    return "".join(out), len(out)


def parse(data):
    try:
        return sgf.Sgf_game.from_bytes(data)
    except Exception:  # sgfmill raises ValueError and others on malformed text
        return None


def counted(game):
    root = game.get_root()
    if not root.has_property("RE"):
        return False
    m = COUNTED.match(root.get("RE"))
    return bool(m) and (float(m.group(1)) * 2).is_integer()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mirror", required=True, help="git directory of Gosei-Kifu")
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--commit", default=COMMIT, help="the commit to draw from (default: the one "
                    "the shared corpus was copied from)")
    ap.add_argument("--corpus", default=os.path.join(os.path.dirname(__file__), "../../shared/sgf-corpus"))
    a = ap.parse_args()

    # The shared corpus: its paths below aeb-pro/ and the moves of every record in it.
    corpus_paths = set()
    corpus_games = set()
    for dirpath, _, files in os.walk(a.corpus):
        for f in files:
            if not f.endswith(".sgf"):
                continue
            full = os.path.join(dirpath, f)
            rel = os.path.relpath(full, a.corpus)
            if rel.startswith("aeb-pro/"):
                corpus_paths.add(rel[len("aeb-pro/"):])
            with open(full, "rb") as fh:
                g = parse(fh.read())
            if g is not None:
                key, n = moves_key(g)
                if n > 0:
                    corpus_games.add(key)
    if not corpus_paths:
        sys.exit(f"{a.corpus}: no aeb-pro/ records (give --corpus)")

    listed = subprocess.run(
        ["git", "--git-dir", a.mirror, "ls-tree", "-r", a.commit, ROOT],
        capture_output=True, text=True,
    )
    if listed.returncode != 0:
        sys.exit(f"{a.mirror}: cannot list {ROOT} at commit {a.commit} (give --mirror the git "
                 f"directory of a clone of github.com/shiofreecss/Gosei-Kifu that has it): "
                 f"{listed.stderr.strip()}")
    listing = listed.stdout
    blobs = []
    for line in listing.splitlines():
        meta, path = line.split("\t", 1)
        rel = path[len(ROOT):]
        if rel.endswith(".sgf") and rel not in corpus_paths:
            blobs.append((hashlib.sha256(rel.encode()).hexdigest(), rel, meta.split()[2]))
    blobs.sort()

    cat = subprocess.Popen(["git", "--git-dir", a.mirror, "cat-file", "--batch"],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    drawn = []
    seen = set(corpus_games)
    looked = 0
    for _, rel, sha in blobs:
        if len(drawn) == a.count:
            break
        looked += 1
        cat.stdin.write(sha.encode() + b"\n")
        cat.stdin.flush()
        header = cat.stdout.readline().split()
        data = cat.stdout.read(int(header[2]))
        cat.stdout.read(1)
        if MARKS.search(data):
            continue
        g = parse(data)
        if g is None or g.get_size() != 19 or not counted(g):
            continue
        key, n = moves_key(g)
        if n < 50 or key in seen:
            continue
        seen.add(key)
        root = g.get_root()
        km = root.get("KM") if root.has_property("KM") else ""
        drawn.append((rel, str(km), root.get("RE"), n))
        dest = os.path.join(a.out, rel)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, "wb") as fh:
            fh.write(data)
    cat.stdin.close()
    cat.wait()

    with open(os.path.join(a.out, "SOURCE.txt"), "w") as fh:
        fh.write(f"# Source: github.com/shiofreecss/Gosei-Kifu at {a.commit}, public/games/, "
                 f"{len(drawn)} records drawn by scripts/outside-records.py\n")
    with open(os.path.join(a.out, "INDEX.tsv"), "w") as fh:
        fh.write("path\tSZ\tmoves\tKM\tRE\n")
        for rel, km, res, n in drawn:
            fh.write(f"{rel}\t19\t{n}\t{km}\t{res}\n")
    print(f"{len(drawn)} records drawn from {looked} looked at ({len(blobs)} outside the corpus) "
          f"into {a.out}")


if __name__ == "__main__":
    main()
