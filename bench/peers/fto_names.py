"""Random words of FTO face turns in cubing.js's names, each with the order of the element
it makes on cubedb's FTO (`puzzles/fto.tws`'s geometry from `puzzles/geometry.py`, the
names read back through `puzzles/fto.picture`'s Name lines). Used by fto-names.sh, which
asks cubing.js for the same orders: a naming that is not a turn of the puzzle (a mirror,
two faces swapped) gives other orders on most words.

    python3 bench/peers/fto_names.py COUNT SEED   ->   "WORDS<TAB>ORDER" lines
"""
import math
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PUZZLES = os.path.join(HERE, "..", "..", "puzzles")
sys.path.insert(0, PUZZLES)
import geometry as g  # noqa: E402
import pictures  # noqa: E402


def main():
    count, seed = int(sys.argv[1]), int(sys.argv[2])
    fto = g.Puzzle("fto", g.OCTA_V, g.OCTA_N, g.fto_moves())
    with open(os.path.join(PUZZLES, "fto.picture")) as f:
        named = dict(line.split()[2:0:-1] for line in f if line.startswith("Name "))
    perms = {}
    for move in fto.moves:
        dest = pictures.all_sticker_move(fto, move)
        perms[move[0]] = [dest[i] for i in range(len(fto.stickers))]
    rng = random.Random(seed)
    faces = sorted(named)
    for _ in range(count):
        words = [rng.choice(faces) + rng.choice(["", "'"]) for _ in range(rng.randint(1, 8))]
        where = list(range(len(fto.stickers)))
        for w in words:
            step = perms[named[w.rstrip("'")]]
            for _ in range(2 if w.endswith("'") else 1):
                where = [step[x] for x in where]
        seen, order = set(), 1
        for i in range(len(where)):
            length, j = 0, i
            while j not in seen:
                seen.add(j)
                j = where[j]
                length += 1
            if length:
                order = order * length // math.gcd(order, length)
        print(" ".join(words) + "\t" + str(order))


if __name__ == "__main__":
    main()
