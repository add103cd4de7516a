#!/usr/bin/env python3
"""Checks solutions against a .tws definition, independently of cubedb: each input line is
`SCRAMBLE<TAB>SOLUTION` (move names of the definition, a power and `'` allowed: `U2'`);
the scramble then the solution, applied from the definition's solved state, must give the
solved state back (identical pieces compared by label), and no move may leave a state an
`Illegal SET SLOT LABEL` line forbids (Square-1: a corner across the slash). Prints the count checked and the
mean and largest solution length (every move counts one); exits 1 naming the first line
that fails.

    python3 bench/apply_tws.py puzzles/megaminx.tws < pairs.tsv
    python3 bench/apply_tws.py puzzles/4x4x4.tws puzzles/4x4x4.plan < pairs.tsv

With a plan file, its compound moves (`Move Rw R 2R`) are understood, and with its
`Rotations` line the solution may leave the whole puzzle turned by any product of them.
"""
import re
import sys


def parse(path):
    sets, order, solved, moves, illegal = {}, [], None, {}, []
    lines = [l.split("#")[0].split() for l in open(path)]
    i = 0

    def block(i):
        state = {}
        while lines[i][:1] != ["End"]:
            if not lines[i]:
                i += 1
                continue
            name = lines[i][0]
            n = sets[name][0]
            perm = [int(x) - 1 for x in lines[i + 1]]
            ori = [0] * n
            i += 2
            if i < len(lines) and lines[i] and lines[i][0].isdigit():
                ori = [int(x) for x in lines[i]]
                i += 1
            state[name] = (perm, ori)
        return state, i + 1

    while i < len(lines):
        t = lines[i]
        if t and t[0] == "Set":
            sets[t[1]] = (int(t[2]), int(t[3]))
            order.append(t[1])
        if t and t[0] == "Illegal":
            illegal.append((t[1], int(t[2]) - 1, int(t[3]) - 1))
        if t and t[0] == "Solved":
            solved, i = block(i + 1)
            continue
        if t and t[0] == "Move":
            # A move's orientation line is indexed by the slot a piece leaves (KSolve):
            # kept here by the slot it arrives in.
            move, i = block(i + 1)
            moves[t[1]] = {
                name: (perm, [ori[perm[j]] for j in range(len(perm))])
                for name, (perm, ori) in move.items()
            }
            continue
        i += 1
    for name in order:  # sets a block leaves out stay put
        n = sets[name][0]
        for m in moves.values():
            m.setdefault(name, (list(range(n)), [0] * n))
    return sets, solved, moves, illegal


def apply(sets, state, move):
    out = {}
    for name, (perm, ori) in state.items():
        mperm, mori = move[name]
        omod = sets[name][1]
        out[name] = (
            [perm[mperm[j]] for j in range(len(perm))],
            [(ori[mperm[j]] + mori[j]) % omod for j in range(len(perm))],
        )
    return out


def key(state):
    return tuple((name, tuple(p), tuple(o)) for name, (p, o) in sorted(state.items()))


def read_plan(path, sets, solved, moves, token, times):
    """Adds the plan's compound moves to `moves`; returns the turned solved states."""
    identity = {name: (list(range(n)), [0] * n) for name, (n, _) in sets.items()}
    rotations = []
    for words in (l.split("#")[0].split() for l in open(path)):
        if words[:1] == ["Move"]:
            element = identity
            for word in words[2:]:
                name, power, prime = token.match(word).groups()
                for _ in range(times(name, power, prime)):
                    element = apply(sets, element, moves[name])
            moves[words[1]] = element
        elif words[:1] == ["Rotations"]:
            rotations = [moves[w] for w in words[1:]]
    turned, todo = {key(solved): solved}, [solved]
    while todo:
        here = todo.pop()
        for r in rotations:
            there = apply(sets, here, r)
            if key(there) not in turned:
                turned[key(there)] = there
                todo.append(there)
    return set(turned)


def mover(sets, moves):
    """How many times to apply a move for a power and a prime, modulo its order (each
    move's order found once: applied until back to the identity)."""
    identity = {name: (list(range(n)), [0] * n) for name, (n, _) in sets.items()}
    orders = {}

    def times(name, power, prime):
        if name not in orders:
            k, here = 1, apply(sets, identity, moves[name])
            while here != identity and k < 1000:
                here, k = apply(sets, here, moves[name]), k + 1
            orders[name] = k
        count = int(power or 1)
        return (-count if prime else count) % orders[name]

    return times


def main():
    sets, solved, moves, illegal = parse(sys.argv[1])
    token = re.compile(r"^(.*?)(\d*)('?)$")
    times = mover(sets, moves)
    ends = {key(solved)}
    if len(sys.argv) > 2:
        ends = read_plan(sys.argv[2], sets, solved, moves, token, times)
    count, total, longest = 0, 0, 0
    for number, line in enumerate(sys.stdin, 1):
        scramble, _, solution = line.rstrip("\n").partition("\t")
        state = solved
        for word in scramble.split() + solution.split():
            name, power, prime = token.match(word).groups()
            if name not in moves:
                sys.exit(f"line {number}: unknown move {word}")
            for _ in range(times(name, power, prime)):
                state = apply(sets, state, moves[name])
            for name, slot, label in illegal:
                if state[name][0][slot] == label:
                    sys.exit(f"line {number}: {word} leaves a state an Illegal rule forbids")
        if key(state) not in ends:
            sys.exit(f"line {number}: the solution does not solve its scramble")
        count += 1
        length = len(solution.split())
        total += length
        longest = max(longest, length)
    print(f"checked {count} mean_len {total / max(count, 1):.2f} max_len {longest}")


main()
