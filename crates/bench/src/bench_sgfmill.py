# The sgfmill peer of `ingo-bench judge --peer sgfmill`: reads the file names on standard input,
# loads every file into memory, then times parsing each file's first game, replaying its main
# line on an sgfmill board (captures; sgfmill has no ko rule) and counting the area, over
# argv[1] passes after one untimed pass. Prints key=value words.
import sys
import time

from sgfmill import boards, sgf

repeat = int(sys.argv[1]) if len(sys.argv) > 1 else 1
data = []
for name in sys.stdin.read().splitlines():
    if name:
        with open(name, "rb") as f:
            data.append(f.read())


def judge(raw):
    game = sgf.Sgf_game.from_bytes(raw)
    board = boards.Board(game.get_size())
    black, white, empty = game.get_root().get_setup_stones()
    board.apply_setup(black, white, empty)
    moves = 0
    for node in game.get_main_sequence():
        colour, move = node.get_move()
        if colour is None:
            continue
        moves += 1
        if move is not None:
            board.play(move[0], move[1], colour)
    board.area_score()
    return moves


def one_pass():
    moves = failed = 0
    for raw in data:
        try:
            moves += judge(raw)
        except (ValueError, KeyError, IndexError):
            failed += 1
    return moves, failed


one_pass()
start = time.perf_counter()
for _ in range(repeat):
    moves, failed = one_pass()
seconds = time.perf_counter() - start
print(f"files={len(data) * repeat} failed={failed} moves={moves} seconds={seconds:.6f}")
