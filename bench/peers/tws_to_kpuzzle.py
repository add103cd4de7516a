#!/usr/bin/env python3
"""Converts a twsearch .tws definition (Name, Set, Solved, Move blocks) to the KPuzzle JSON
that twips reads: permutations 0-based; a Move block's twists (indexed by the slot a piece
leaves) become orientationDelta indexed by destination. Usage: tws_to_kpuzzle.py IN OUT"""
import json
import sys


def main(src, dst):
    lines = [l.split() for l in open(src) if l.strip() and not l.startswith("#")]
    name, orbits, solved, moves = "puzzle", [], {}, {}
    i = 0
    while i < len(lines):
        t = lines[i]
        if t[0] == "Name":
            name = t[1]
        elif t[0] == "Set":
            orbits.append({"orbitName": t[1], "numPieces": int(t[2]), "numOrientations": int(t[3])})
        elif t[0] in ("Solved", "Move"):
            block = {}
            i += 1
            while lines[i][0] != "End":
                orbit = lines[i][0]
                perm = [int(x) - 1 for x in lines[i + 1]]
                ori = [int(x) for x in lines[i + 2]] if i + 2 < len(lines) and lines[i + 2][0].isdigit() and len(lines[i + 2]) == len(perm) else [0] * len(perm)
                i += 3 if ori != [0] * len(perm) or (i + 2 < len(lines) and lines[i + 2][0].isdigit()) else 2
                block[orbit] = (perm, ori)
            if t[0] == "Solved":
                solved = {o: {"pieces": p, "orientation": r} for o, (p, r) in block.items()}
            else:
                moves[t[1]] = {o: {"permutation": p, "orientationDelta": [r[p[k]] for k in range(len(p))]}
                               for o, (p, r) in block.items()}
        i += 1
    for o in orbits:
        n = o["numPieces"]
        solved.setdefault(o["orbitName"], {"pieces": list(range(n)), "orientation": [0] * n})
        for m in moves.values():
            m.setdefault(o["orbitName"], {"permutation": list(range(n)), "orientationDelta": [0] * n})
    json.dump({"name": name, "orbits": orbits, "defaultPattern": solved, "moves": moves}, open(dst, "w"))


if __name__ == "__main__":
    main(*sys.argv[1:3])
