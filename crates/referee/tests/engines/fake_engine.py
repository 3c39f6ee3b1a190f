#!/usr/bin/env python3
"""A fake GTP engine for the referee's tests.

It keeps its own board (captures included) from `play` and its own moves, and then,
depending on --mode:

  random     plays a random empty point that is not suicide, does not capture a single stone
             (so never a ko) and does not fill its own eye; passes when none is left or after
             --max-moves board plays
  list       plays --moves in order (GTP vertices, comma-separated; `pass` allowed), then passes
  pass       always passes
  sleep      after --after good moves, sleeps forever on genmove
  crash      after --after good moves, exits with status 3 on genmove
  garbage    after --after good moves, answers genmove with a line that is not GTP
  badvertex  after --after good moves, answers genmove with `= Z99`
  resign     after --after good moves, resigns

Other options: --delay SECS before every genmove answer; --log FILE appends every command
received; --no-final-status refuses final_status_list; --dead "A1 B2" is its
final_status_list answer (default: none); --cleanup offers kgs-genmove_cleanup; --kgs-time
offers kgs-time_settings; --refuse-int-komi refuses komi values without a .5; --name NAME.

--gate DIR --free N: the engines started with the same DIR number themselves in the order they
start (by creating DIR/engine-K, which only one can create); from the (N+1)-th on, an engine's
genmove waits until the file DIR/open exists, writing DIR/held-K when it starts to wait. A
test can then stop a match at a known point and let it go on later.
"""

import argparse
import os
import random
import sys
import time

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--mode", default="random")
    p.add_argument("--moves", default="")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--max-moves", type=int, default=1000)
    p.add_argument("--after", type=int, default=0)
    p.add_argument("--delay", type=float, default=0.0)
    p.add_argument("--log", default=None)
    p.add_argument("--no-final-status", action="store_true")
    p.add_argument("--dead", default="")
    p.add_argument("--cleanup", action="store_true")
    p.add_argument("--kgs-time", action="store_true")
    p.add_argument("--refuse-int-komi", action="store_true")
    p.add_argument("--name", default="Fake")
    p.add_argument("--gate", default=None)
    p.add_argument("--free", type=int, default=0)
    return p.parse_args()


def take_ticket(gate):
    """This engine's number among those started with `gate`, from 1."""
    k = 1
    while True:
        try:
            os.close(os.open(os.path.join(gate, f"engine-{k}"), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            return k
        except FileExistsError:
            k += 1


def wait_at_gate(gate, ticket):
    """Waits until the test opens the gate, after saying that this engine waits."""
    opened = os.path.join(gate, "open")
    if os.path.exists(opened):
        return
    open(os.path.join(gate, f"held-{ticket}"), "w").close()
    while not os.path.exists(opened):
        time.sleep(0.01)


class Board:
    def __init__(self, size):
        self.size = size
        self.cells = {}

    def neighbors(self, p):
        c, r = p
        for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            q = (c + dc, r + dr)
            if 0 <= q[0] < self.size and 0 <= q[1] < self.size:
                yield q

    def group(self, p):
        color = self.cells.get(p)
        seen, stack, libs = {p}, [p], set()
        while stack:
            x = stack.pop()
            for q in self.neighbors(x):
                v = self.cells.get(q)
                if v is None:
                    libs.add(q)
                elif v == color and q not in seen:
                    seen.add(q)
                    stack.append(q)
        return seen, libs

    def play(self, p, color):
        """Plays and returns (captured, suicide)."""
        self.cells[p] = color
        other = "w" if color == "b" else "b"
        captured = []
        for q in self.neighbors(p):
            if self.cells.get(q) == other:
                stones, libs = self.group(q)
                if not libs:
                    for s in stones:
                        self.cells.pop(s, None)
                    captured.extend(stones)
        stones, libs = self.group(p)
        suicide = False
        if not libs:
            for s in stones:
                self.cells.pop(s, None)
            suicide = True
        return captured, suicide

    def try_play(self, p, color):
        saved = dict(self.cells)
        captured, suicide = self.play(p, color)
        self.cells = saved
        return captured, suicide

    def is_own_eye(self, p, color):
        return all(self.cells.get(q) == color for q in self.neighbors(p))


def vertex(p, size):
    return f"{COLUMNS[p[0]]}{size - p[1]}"


def parse_vertex(s, size):
    s = s.strip().upper()
    if s == "PASS":
        return None
    col = COLUMNS.index(s[0])
    row = size - int(s[1:])
    return (col, row)


def main():
    args = parse_args()
    rng = random.Random(args.seed)
    board = Board(19)
    script = [m for m in args.moves.split(",") if m]
    good_moves = 0
    own_plays = 0
    ticket = take_ticket(args.gate) if args.gate else 0
    held = args.gate is not None and ticket > args.free
    log = open(args.log, "a", buffering=1) if args.log else None
    known = {
        "protocol_version", "name", "version", "known_command", "list_commands", "quit",
        "boardsize", "clear_board", "komi", "play", "genmove", "time_settings", "time_left",
        "final_status_list",
    }
    if args.cleanup:
        known.add("kgs-genmove_cleanup")
    if args.kgs_time:
        known.add("kgs-time_settings")
    if args.no_final_status:
        known.discard("final_status_list")

    def reply(cid, text, ok=True):
        sys.stdout.write(("=" if ok else "?") + cid + " " + text + "\n\n")
        sys.stdout.flush()

    for line in sys.stdin:
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if log:
            log.write(line + "\n")
        words = line.split()
        cid = ""
        if words[0].isdigit():
            cid = words[0]
            words = words[1:]
        if not words:
            continue
        cmd, rest = words[0], words[1:]
        if cmd not in known:
            reply(cid, "unknown command", ok=False)
            continue
        if cmd == "quit":
            reply(cid, "")
            return
        if cmd == "name":
            reply(cid, args.name)
        elif cmd == "version":
            reply(cid, "1.0")
        elif cmd == "protocol_version":
            reply(cid, "2")
        elif cmd == "known_command":
            reply(cid, "true" if rest and rest[0] in known else "false")
        elif cmd == "list_commands":
            reply(cid, "\n".join(sorted(known)))
        elif cmd == "boardsize":
            board = Board(int(rest[0]))
            reply(cid, "")
        elif cmd == "clear_board":
            board = Board(board.size)
            reply(cid, "")
        elif cmd == "komi":
            if args.refuse_int_komi and "." not in rest[0]:
                reply(cid, "komi must be a half-integer", ok=False)
            else:
                reply(cid, "")
        elif cmd in ("time_settings", "time_left", "kgs-time_settings"):
            reply(cid, "")
        elif cmd == "play":
            color = rest[0][0].lower()
            p = parse_vertex(rest[1], board.size)
            if p is not None:
                if p in board.cells:
                    reply(cid, "illegal move", ok=False)
                    continue
                board.play(p, color)
            reply(cid, "")
        elif cmd == "final_status_list":
            reply(cid, args.dead)
        elif cmd in ("genmove", "kgs-genmove_cleanup"):
            color = rest[0][0].lower()
            if held:
                wait_at_gate(args.gate, ticket)
            if args.delay:
                time.sleep(args.delay)
            misbehave = args.mode in ("sleep", "crash", "garbage", "badvertex", "resign") and good_moves >= args.after
            if misbehave:
                if args.mode == "sleep":
                    time.sleep(1_000_000)
                if args.mode == "crash":
                    sys.stderr.write("fake engine: crashing on purpose\n")
                    sys.stderr.flush()
                    sys.exit(3)
                if args.mode == "garbage":
                    sys.stdout.write("this is not GTP\n\n")
                    sys.stdout.flush()
                    continue
                if args.mode == "badvertex":
                    reply(cid, "Z99")
                    continue
                if args.mode == "resign":
                    reply(cid, "resign")
                    continue
            good_moves += 1
            move = None
            if args.mode == "list":
                if script:
                    move = parse_vertex(script.pop(0), board.size)
            elif args.mode in ("random", "sleep", "crash", "garbage", "badvertex", "resign"):
                if own_plays < args.max_moves:
                    empties = [(c, r) for c in range(board.size) for r in range(board.size)
                               if (c, r) not in board.cells]
                    rng.shuffle(empties)
                    for p in empties:
                        if board.is_own_eye(p, color):
                            continue
                        captured, suicide = board.try_play(p, color)
                        if suicide or len(captured) == 1:
                            continue
                        move = p
                        break
            if move is None:
                reply(cid, "pass")
            else:
                if move not in board.cells:
                    board.play(move, color)
                own_plays += 1
                reply(cid, vertex(move, board.size))
        else:
            reply(cid, "")


if __name__ == "__main__":
    try:
        main()
    except (BrokenPipeError, KeyboardInterrupt):
        pass
