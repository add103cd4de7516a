#!/usr/bin/env python3
"""Checks WCA-event scrambles independently of cubedb: reads the JSON lines of
`cubedb scramble EVENT --format json` ({"event", "seed", "index", "scramble"} a line) and,
for every scramble, with models of its own (or the repository's definitions in
`puzzles/*.tws`, read with the parser of `bench/apply_tws.py`), checks:

1. the notation: a regular expression per event, written from the WCA regulations
   (article 12) and TNoodle's output (thewca/tnoodle-lib);
2. the state it reaches on a model of the puzzle:
   - the cube events (222 to 777, 333bf 333fm 333oh 333mbf 444bf 555bf): an N×N×N
     sticker model (`CubeModel`), solved when every face is one colour (so a turned
     cube, after `Rw` or `x`, is still solved);
   - pyram, skewb, sq1, fto: `puzzles/pyraminx.tws`, `skewb-fixed.tws`, `square-1.tws`
     (`(x,y) /` is U^x D^y then S; no state a slash leaves or needs may have a corner
     across the slash: the definition's Illegal lines), `fto.tws` (`TwsModel`; its faces
     read from cubing.js's names by `puzzles/fto.picture`'s Name lines); the FTO
     also on a sticker model (`puzzles/geometry.py`), solved up to turning it whole;
   - minx: a sticker model from `puzzles/geometry.py` (`megaminx_model`): R++ turns all
     but the L face two fifths clockwise seen from the right (TNoodle: a "big turn" of
     its DBR face), D++ all but the U face, U the U face a fifth;
   - clock: a model of its 18 dials (`ClockModel`), turned by pin settings as TNoodle's
     ClockPuzzle does;
3. the rules: the state is not solved, and at least the WCA's minimum distance from
   solved in the event's metric where that is cheap to check (222: 4, exact: the 2x2x2's
   states within 3 turns of R U F; pyram: 6 with the tips, exact; skewb: 7, exact;
   sq1: 6 of its 11, the states within 5 twists; the others: 2, no single turn solves
   it); lengths (555 60 turns, 666 80, 777 100, 555bf 60 or 59 and its orientation,
   minx 7 lines of 10 R/D turns and U or U', clock 15 words, the 333 family at most 21
   turns as TNoodle's two-phase search allows); within a run of turns on one axis (which
   commute; on the FTO, turns of opposite faces), no two turns of one layer block (or a
   rotation apart): TNoodle's rule for random turns and what a canonical solution never
   has; the 333fm frame R' U' F ...
   R' U' F with its first inner turn off the F-B axis and its last off R-L; the 333bf
   scramble's last turn off the axis of its first orientation turn; pyram tips last;
4. the scrambles are distinct and their indices 0..N-1 in order; for 222, pyram and
   skewb, whose uniformly random states are few enough that 10,000 of them repeat some
   (the birthday problem: 13.6 expected repeats for the 2x2x2, 16 for the skewb), the
   repeats may not exceed what uniform states give (a Poisson bound, 1e-6 tail).

Prints one line for the event: count, distinct, mean, min and max length (words; for
sq1 twists, `(x,y)` and `/` one each); exits 1 naming the first scramble that fails
(index, text) and the rule it breaks. The first few scrambles are also run with their
inverse after them on the model (solved again: a check of the model itself), and every
model passes its own checks (move orders, known identities) before any scramble.

    cubedb scramble 333 --count 1000 --seed 1 --format json | python3 bench/check_event_scrambles.py 333
"""
import ast
import json
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PUZZLES = os.path.join(ROOT, "puzzles")

EVENTS = ("222 333 444 555 666 777 333bf 333fm 333oh 333mbf 444bf 555bf "
          "clock minx pyram skewb sq1 fto").split()


class Fail(Exception):
    """A scramble broke a rule (the message names it)."""


# --------------------------------------------------------------------------------------
# Permutations of positions: a move is `src`, the position each position's content comes
# from (new[j] = old[src[j]]).

def permute(state, src):
    return tuple([state[k] for k in src])


def compose(a, b):
    """The move `a` then `b`."""
    return tuple([a[k] for k in b])


def power(src, times):
    out = tuple(range(len(src)))
    for _ in range(times):
        out = compose(out, src)
    return out


def order(src):
    """How many times `src` is applied before the identity comes back."""
    ident, here, k = tuple(range(len(src))), src, 1
    while here != ident:
        here, k = compose(here, src), k + 1
    return k


class StickerModel:
    """Stickers, each with its face's colour; moves permute them. Solved when every face
    shows one colour (up to holding the puzzle another way). `singles`: every move of one
    turn in the event's metric, to tell whether a state is one turn from solved."""

    def __init__(self, colours, moves, singles):
        self.solved_state = tuple(colours)
        self.moves = moves
        self.faces = {}
        for i, c in enumerate(colours):
            self.faces.setdefault(c, []).append(i)
        self.faces = list(self.faces.values())
        self.singles = singles
        # A state one turn from solved is a turned copy of a single turn of solved: it
        # shows at least as many one-colour faces as the fewest any single turn leaves.
        self.fewest_plain = min(self.plain_faces(permute(self.solved_state, m)) for m in singles)

    def plain_faces(self, state):
        """How many faces show one colour."""
        n = 0
        for face in self.faces:
            c = state[face[0]]
            if all(state[i] == c for i in face):
                n += 1
        return n

    def solved(self, state):
        return self.plain_faces(state) == len(self.faces)

    def one_from_solved(self, state):
        """Whether the state is solved or one single turn from it."""
        if self.plain_faces(state) < self.fewest_plain:
            return False
        return self.solved(state) or any(self.solved(permute(state, m)) for m in self.singles)


# --------------------------------------------------------------------------------------
# The N×N×N cube.

CUBE_FACES = {"U": (0, 1, 0), "D": (0, -1, 0), "R": (1, 0, 0), "L": (-1, 0, 0),
              "F": (0, 0, 1), "B": (0, 0, -1)}
OPPOSITE = {"U": "D", "D": "U", "R": "L", "L": "R", "F": "B", "B": "F"}
AXIS = {"U": "y", "D": "y", "R": "x", "L": "x", "F": "z", "B": "z"}
ROTATION_FACE = {"x": "R", "y": "U", "z": "F"}
CUBE_WORD = re.compile(r"^(?:(\d*)([URFDLB])(w?)|([xyz]))(2|')?$")


def quarter(v, axis):
    """v turned a quarter clockwise seen from the end of `axis` (a unit axis vector):
    Rodrigues' formula at -90 degrees, v' = a(a.v) - a x v, in integers."""
    a = axis
    cross = (a[1] * v[2] - a[2] * v[1], a[2] * v[0] - a[0] * v[2], a[0] * v[1] - a[1] * v[0])
    dot = a[0] * v[0] + a[1] * v[1] + a[2] * v[2]
    return tuple(a[i] * dot - cross[i] for i in range(3))


def cube_turn(word, n):
    """(face, depth, quarter turns) of an outer-block turn (`R`, `Rw`, `3Rw`, with `2` or
    `'`) or a rotation (`x y z`: the whole cube, depth n)."""
    m = CUBE_WORD.match(word)
    if not m:
        raise Fail(f"not a cube turn: {word}")
    width, face, wide, rotation, suffix = m.groups()
    if rotation:
        face, depth = ROTATION_FACE[rotation], n
    else:
        depth = int(width) if width else (2 if wide else 1)
        if width and not wide:
            raise Fail(f"not an outer-block turn: {word}")
    if not 1 <= depth <= n:
        raise Fail(f"{word} is deeper than the cube")
    return face, depth, {None: 1, "2": 2, "'": 3}[suffix]


class CubeModel(StickerModel):
    """The N×N×N cube's 6n² stickers: a sticker is its cubie's position (coordinates in
    -(n-1)..n-1, step 2) and its face's outward normal. The turn of face f to depth d
    turns a quarter clockwise (seen from f) every sticker whose cubie lies in the d layers
    nearest f. Colours: the face each sticker shows when solved."""

    def __init__(self, n):
        self.n = n
        coords = range(-(n - 1), n, 2)
        stickers = []
        for name, f in CUBE_FACES.items():
            k = [i for i in range(3) if f[i]][0]
            for a in coords:
                for b in coords:
                    pos = [a, b]
                    pos.insert(k, f[k] * (n - 1))
                    stickers.append((tuple(pos), f))
        self.stickers = stickers
        self.index = {s: i for i, s in enumerate(stickers)}
        self.cache = {}
        colours = [list(CUBE_FACES.values()).index(f) for _, f in stickers]
        singles = [self.turn(face, depth, q) for face in CUBE_FACES
                   for depth in range(1, n // 2 + 1) for q in (1, 2, 3)]
        super().__init__(colours, {}, singles)

    def turn(self, face, depth, quarters):
        key = (face, depth, quarters)
        if key not in self.cache:
            f = CUBE_FACES[face]
            src = list(range(len(self.stickers)))
            for i, (pos, normal) in enumerate(self.stickers):
                if sum(p * a for p, a in zip(pos, f)) >= (self.n - 1) - 2 * (depth - 1):
                    j = self.index[(quarter(pos, f), quarter(normal, f))]
                    src[j] = i
            self.cache[key] = power(tuple(src), quarters)
        return self.cache[key]

    def apply(self, state, words):
        for w in words:
            state = permute(state, self.turn(*cube_turn(w, self.n)))
        return state

    def self_check(self):
        """Every turn four times is nothing, and no turn short of the whole cube leaves
        it solved; the sexy move six times is nothing; a turn of every layer on one axis
        is a rotation (still solved); R U has order 15 on the 2x2x2, 105 on the 3x3x3
        (a multiple of the corners' 15 on bigger cubes)."""
        s = self.solved_state
        for face in CUBE_FACES:
            for depth in range(1, self.n + 1):
                assert power(self.turn(face, depth, 1), 4) == tuple(range(len(s))), (face, depth)
                if depth < self.n:
                    assert not self.solved(permute(s, self.turn(face, depth, 1))), (face, depth)
        assert self.apply(s, "R U R' U'".split() * 6) == s
        assert self.solved(self.apply(s, ["Rw", "L'"] if self.n == 3 else ["x"]))
        ru = order(compose(self.turn("R", 1, 1), self.turn("U", 1, 1)))
        assert ru == {2: 15, 3: 105}.get(self.n, ru) and ru % 15 == 0, ru


def invert_turns(words):
    """The inverse of a sequence of face turns written with `2` and `'` (and `++`/`--`)."""
    out = []
    for w in reversed(words):
        if w.endswith("++"):
            out.append(w[:-2] + "--")
        elif w.endswith("--"):
            out.append(w[:-2] + "++")
        elif w.endswith("2"):
            out.append(w)
        elif w.endswith("'"):
            out.append(w[:-1])
        else:
            out.append(w + "'")
    return out


def check_axis_runs(words, n):
    """Within a run of consecutive turns on one axis (they commute), no two turns merge
    into one turn or nothing: the same face and depth, or opposite faces whose depths add
    up to n (a rotation apart: `L` and `Rw` on the 3x3x3)."""
    run_axis, run = None, []
    for i, w in enumerate(words):
        face, depth, _ = cube_turn(w, n)
        if AXIS[face] != run_axis:
            run_axis, run = AXIS[face], []
        for (f2, d2, w2) in run:
            if (f2, d2) == (face, depth) or (f2 == OPPOSITE[face] and d2 + depth == n):
                raise Fail(f"turn {i + 1} ({w}) merges with the earlier {w2} "
                           f"through turns of its axis")
        run.append((face, depth, w))


# --------------------------------------------------------------------------------------
# Definitions (.tws) through bench/apply_tws.py's parser.

def apply_tws_module():
    """bench/apply_tws.py's functions, its parser among them, without running its
    main(): the file is read and its top-level calls left out."""
    path = os.path.join(HERE, "apply_tws.py")
    tree = ast.parse(open(path).read(), path)
    tree.body = [node for node in tree.body
                 if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call))]
    namespace = {"__name__": "apply_tws"}
    exec(compile(tree, path, "exec"), namespace)
    return namespace


class TwsModel:
    """A .tws definition, flattened: a state is a tuple, one value a slot, label·omod +
    twist; a move is ((source slot, twist table) for every slot). Solved: the
    definition's Solved state exactly (identical pieces by label)."""

    def __init__(self, path):
        sets, solved, moves, illegal = apply_tws_module()["parse"](path)
        self.offset, at = {}, 0
        for name, (n, _) in sets.items():
            self.offset[name] = at
            at += n
        top_label = max(max(perm) for perm, _ in solved.values())
        top_omod = max(omod for _, omod in sets.values())
        self.width = (top_label + 1) * top_omod
        tables = {}

        def table(omod, add):
            if (omod, add) not in tables:
                tables[(omod, add)] = tuple((v // omod) * omod + (v % omod + add) % omod
                                            for v in range(self.width))
            return tables[(omod, add)]

        self.solved_state = tuple(label * sets[name][1] + o for name in sets
                                  for label, o in zip(*solved[name]))
        self.base = {}
        for m, parts in moves.items():
            spec = []
            for name, (n, omod) in sets.items():
                perm, ori = parts[name]
                spec += [(self.offset[name] + perm[j], table(omod, ori[j] % omod)) for j in range(n)]
            self.base[m] = tuple(spec)
        self.identity = tuple((j, table(1, 0)) for j in range(at))
        self.illegal = [(self.offset[name] + slot, label, sets[name][1]) for name, slot, label in illegal]
        self.sets = sets
        self.cache, self.orders = {}, {}

    @staticmethod
    def apply(state, move):
        return tuple([t[state[k]] for k, t in move])

    @staticmethod
    def then(a, b):
        """The compiled move `a` then `b`."""
        return tuple((a[k][0], tuple(tb[v] for v in a[k][1])) for k, tb in b)

    def is_identity(self, move):
        return all(k == j and tab == self.identity[0][1] for j, (k, tab) in enumerate(move))

    def changes(self, move):
        """The slots a compiled move changes (moves a piece into, or twists)."""
        return {j for j, (k, tab) in enumerate(move) if k != j or tab != self.identity[0][1]}

    def move(self, name, times):
        """`name` applied `times` times (modulo its order; negative: backwards)."""
        if name not in self.base:
            raise Fail(f"the definition has no move {name}")
        key = (name, times)
        if key not in self.cache:
            if name not in self.orders:
                here, k = self.base[name], 1
                while not self.is_identity(here):
                    here, k = self.then(here, self.base[name]), k + 1
                self.orders[name] = k
            out = self.identity
            for _ in range(times % self.orders[name]):
                out = self.then(out, self.base[name])
            self.cache[key] = out
        return self.cache[key]

    def legal(self, state):
        """No slot holds a label an Illegal line forbids there."""
        return all(state[slot] // omod != label for slot, label, omod in self.illegal)

    def solved(self, state):
        return state == self.solved_state


def ball(start, successors, radius, key=lambda s: s):
    """Every state within `radius` moves of `start`, by key, with its distance.
    successors(state, last): (next state, its kind) pairs; `last` the kind of the move
    that reached the state (None at the start). A state is expanded once per kind of
    move reaching it (what may follow can depend on it: Square-1's twists)."""
    distance = {key(start): 0}
    expanded = {(key(start), None)}
    frontier = [(start, None)]
    for d in range(1, radius + 1):
        nxt = []
        for state, last in frontier:
            for s, kind in successors(state, last):
                k = key(s)
                if (k, kind) not in expanded:
                    expanded.add((k, kind))
                    distance.setdefault(k, d)
                    nxt.append((s, kind))
        frontier = nxt
    return distance


# --------------------------------------------------------------------------------------
# Megaminx and FTO sticker models from puzzles/geometry.py.

def geometry_module():
    """puzzles/geometry.py (its Puzzle class: stickers and slab turns), imported without
    leaving a __pycache__ in puzzles/."""
    sys.dont_write_bytecode = True
    if PUZZLES not in sys.path:
        sys.path.insert(0, PUZZLES)
    import geometry
    return geometry


def sticker_moves(puzzle, slabs):
    """The position permutation of each slab turn (name, axis, angle, lo, hi) on a
    geometry.Puzzle: the sticker at position i lands on position dest[i]."""
    out = {}
    for name, axis, angle, lo, hi in slabs:
        dest = puzzle.sticker_move((name, geometry_module().unit(axis), angle, lo, hi))
        src = [None] * len(puzzle.stickers)
        for i, j in dest.items():
            assert src[j] is None, f"{name}: two stickers land on one place"
            src[j] = i
        out[name] = tuple(src)
    return out


def megaminx_model():
    """The megaminx's 132 stickers (geometry.py's dodecahedron, cut at 0.8 of each face's
    distance), with TNoodle's Pochmann turns: R++ turns everything but the L face two
    fifths clockwise seen from the right (the DBR face, opposite L), D++ everything but
    the U face two fifths clockwise seen from below, U the U face a fifth clockwise seen
    from above; -- the other way. Faces: U; F one of its neighbours; R the neighbour of
    both on U x F's side (as on a cube, R = U x F), L the other."""
    g = geometry_module()
    vertices, normals = g.dodecahedron()
    units = [g.unit(n) for n in normals]
    u = g.unit((0, g.PHI, 1))
    near = [n for n in units if abs(g.dot(n, u) - 1 / math.sqrt(5)) < 1e-9]
    f = max(near, key=lambda n: n[2] - n[1])
    both = [n for n in near if abs(g.dot(n, f) - 1 / math.sqrt(5)) < 1e-9]
    left = min(both, key=lambda n: g.dot(n, g.cross(u, f)))
    top = max(g.dot(v, u) for v in vertices)
    cut = 0.8 * top
    fifth = 2 * math.pi / 5
    dbr, d = g.scale(left, -1), g.scale(u, -1)
    faces = [(f"face{i}{q}", n, -fifth * q, cut, 99) for i, n in enumerate(units) for q in (1, 2, 3, 4)]
    slabs = faces + [
        ("R++", dbr, -2 * fifth, -cut, 99), ("R--", dbr, 2 * fifth, -cut, 99),
        ("D++", d, -2 * fifth, -cut, 99), ("D--", d, 2 * fifth, -cut, 99),
        ("U", u, -fifth, cut, 99), ("U'", u, fifth, cut, 99)]
    puzzle = g.Puzzle("megaminx", vertices, normals, [(s[0], s[1], s[2], s[3], s[4]) for s in slabs[:48]])
    moves = sticker_moves(puzzle, slabs)
    return StickerModel([s[0] for s in puzzle.stickers], moves, [moves[s[0]] for s in faces])


def megaminx_self_check(model):
    """R++, D++ and U five times are nothing, R++ R-- and U U' too; each of R++, D++, U
    unsolves the solved puzzle, and is one face turn from solved (R++ is the L face
    turned back two fifths, then the whole puzzle turned); R++ U is not; a face turn
    five times is nothing."""
    s = model.solved_state
    ident = tuple(range(len(s)))
    for m in ("R++", "D++", "U"):
        assert power(model.moves[m], 5) == ident, m
        assert not model.solved(permute(s, model.moves[m])), m
        assert model.one_from_solved(permute(s, model.moves[m])), m
    assert compose(model.moves["R++"], model.moves["R--"]) == ident
    assert compose(model.moves["U"], model.moves["U'"]) == ident
    assert not model.one_from_solved(permute(s, compose(model.moves["R++"], model.moves["U"])))
    assert all(power(m, 5) == ident for m in model.singles)


def fto_sticker_model():
    """The FTO's 72 stickers (geometry.py's octahedron, each face turning its outer
    third): solved when every face is one colour, whichever way it is held."""
    g = geometry_module()
    slabs = g.fto_moves()
    puzzle = g.Puzzle("fto", g.OCTA_V, g.OCTA_N, slabs)
    moves = sticker_moves(puzzle, slabs)
    for name in list(moves):
        moves[name + "'"] = power(moves[name], 2)
    return StickerModel([s[0] for s in puzzle.stickers], moves, list(moves.values()))


# --------------------------------------------------------------------------------------
# Clock.

CLOCK_PINS = {"UR": "UR", "DR": "DR", "DL": "DL", "UL": "UL", "U": "UL UR", "R": "UR DR",
              "D": "DL DR", "L": "UL DL", "ALL": "UL UR DL DR"}
PIN_BLOCK = {"UL": (0, 0), "UR": (0, 1), "DL": (1, 0), "DR": (1, 1)}


class ClockModel:
    """The clock's 18 dials, 0 to 11: the front's 9 (row by row, seen from the front),
    then the back's 9 (row by row, seen from the back). A pin setting (the pins up, seen
    from the front) with a turn of k hours turns the front dials of each up pin's 2x2
    block by k, and the back corner dials behind the front corners so turned by -k (a
    corner's front and back dials share an axle: clockwise in front is anticlockwise
    behind). `y2` turns the clock over: front and back change places."""

    def __init__(self):
        self.effect = {}
        for name, pins in CLOCK_PINS.items():
            e = [0] * 18
            for pin in pins.split():
                r0, c0 = PIN_BLOCK[pin]
                for r in (r0, r0 + 1):
                    for c in (c0, c0 + 1):
                        e[3 * r + c] = 1
            for r, c in ((0, 0), (0, 2), (2, 0), (2, 2)):
                if e[3 * r + c]:
                    e[9 + 3 * r + (2 - c)] = -1
            self.effect[name] = e
        self.solved_state = (0,) * 18

    def apply(self, state, words):
        for w in words:
            if w == "y2":
                state = state[9:] + state[:9]
                continue
            m = re.match(r"^(UR|DR|DL|UL|U|R|D|L|ALL)(\d+)([+-])$", w)
            if not m:
                raise Fail(f"not a clock turn: {w}")
            hours = int(m.group(2)) * (1 if m.group(3) == "+" else -1)
            state = tuple((v + hours * e) % 12 for v, e in zip(state, self.effect[m.group(1)]))
        return state

    def solved(self, state):
        return not any(state)

    def one_from_solved(self, state):
        """Solved, or one pin setting's turn from it (TNoodle's moves, from the side
        now in front)."""
        if self.solved(state):
            return True
        for e in self.effect.values():
            i = next(i for i, x in enumerate(e) if x)
            k = (state[i] * e[i]) % 12
            if all((k * x) % 12 == v for x, v in zip(e, state)):
                return True
        return False

    def self_check(self):
        s = self.solved_state
        for name in CLOCK_PINS:
            assert self.apply(s, [f"{name}6+", f"{name}6+"]) == s
            assert self.apply(s, [f"{name}5+", f"{name}5-"]) == s
            assert self.one_from_solved(self.apply(s, [f"{name}3-"]))
        assert self.apply(s, ["y2", "y2"]) == s
        # UR's front 2x2 block and the back's upper-left corner (behind the front's UR).
        assert self.apply(s, ["UR1+"]) == (0, 1, 1, 0, 1, 1, 0, 0, 0, 11, 0, 0, 0, 0, 0, 0, 0, 0)
        assert not self.one_from_solved(self.apply(s, ["UR1+", "DL1+"]))


def invert_clock(words):
    out = []
    for w in reversed(words):
        out.append(w if w == "y2" else w[:-1] + ("-" if w[-1] == "+" else "+"))
    return out


# --------------------------------------------------------------------------------------
# The events: notation, then the state and the rules.

CUBE_SUFFIX = r"(?:2|')?"
FACE = r"[URFDLB]" + CUBE_SUFFIX
HOURS = r"(?:0\+|[1-5][+-]|6\+)"  # TNoodle: -5..6 hours, 0 and 6 written with +


def words_re(word, tail=""):
    return re.compile(rf"^{word}(?: {word})*{tail}$")


# The whole scramble, as the event writes it (the words, their order and counts).
NOTATION = {
    "222": words_re(r"[RUF]" + CUBE_SUFFIX),  # TNoodle's 2x2x2: R U F (the DBL corner fixed)
    "333": words_re(FACE),
    "333oh": words_re(FACE),
    # a random orientation: Rw, Rw2, Rw', Fw or Fw', then Uw, Uw2 or Uw' (either may be absent)
    "333bf": words_re(FACE, r"(?: Rw(?:2|')?| Fw'?)?(?: Uw(?:2|')?)?"),
    "333mbf": words_re(FACE, r"(?: Rw(?:2|')?| Fw'?)?(?: Uw(?:2|')?)?"),
    "333fm": re.compile(rf"^R' U' F(?: {FACE})+ R' U' F$"),
    "444": words_re(r"(?:[URFDLB]|[URF]w)" + CUBE_SUFFIX),  # wide: Uw Rw Fw only
    "444bf": words_re(r"(?:[URFDLB]|[URF]w)" + CUBE_SUFFIX, r"(?: x(?:2|')?| z'?)?(?: y(?:2|')?)?"),
    "555": words_re(r"[URFDLB]w?" + CUBE_SUFFIX),
    "555bf": words_re(r"[URFDLB]w?" + CUBE_SUFFIX, r"(?: 3Rw(?:2|')?| 3Fw'?)?(?: 3Uw(?:2|')?)?"),
    "666": words_re(r"(?:[URFDLB]w?|3[URF]w)" + CUBE_SUFFIX),  # three layers: 3Uw 3Rw 3Fw only
    "777": words_re(r"(?:[URFDLB]w?|3[URFDLB]w)" + CUBE_SUFFIX),
    "pyram": re.compile(r"^[ULRB]'?(?: [ULRB]'?)*(?: u'?)?(?: l'?)?(?: r'?)?(?: b'?)?$"),  # tips last, in order
    "skewb": words_re(r"[RULB]'?"),
    "sq1": words_re(r"(?:/|\((?:-[1-5]|[0-6]),(?:-[1-5]|[0-6])\))"),
    "fto": words_re(r"(?:BL|BR|[UFLRBD])'?"),  # cubing.js's names (puzzles/fto.picture's Name lines)
    "clock": re.compile(r"^UR{0} DR{0} DL{0} UL{0} U{0} R{0} D{0} L{0} ALL{0} y2 U{0} R{0} D{0} L{0} ALL{0}$"
                        .format(HOURS)),
    "minx": re.compile(r"^(?:R(?:\+\+|--) D(?:\+\+|--) ){5}U'?$"),  # one of its 7 lines
}
# Any one word the event writes somewhere (to name the first wrong word of a scramble).
WORD = {
    "222": r"[RUF]" + CUBE_SUFFIX, "333": FACE, "333oh": FACE, "333fm": FACE,
    "333bf": rf"{FACE}|Rw{CUBE_SUFFIX}|Fw'?|Uw{CUBE_SUFFIX}",
    "444": r"(?:[URFDLB]|[URF]w)" + CUBE_SUFFIX, "555": r"[URFDLB]w?" + CUBE_SUFFIX,
    "444bf": rf"(?:[URFDLB]|[URF]w|[xy]){CUBE_SUFFIX}|z'?",
    "555bf": rf"[URFDLB]w?{CUBE_SUFFIX}|3[RU]w{CUBE_SUFFIX}|3Fw'?",
    "666": r"(?:[URFDLB]w?|3[URF]w)" + CUBE_SUFFIX, "777": r"(?:[URFDLB]w?|3[URFDLB]w)" + CUBE_SUFFIX,
    "pyram": r"[ULRBulrb]'?", "skewb": r"[RULB]'?",
    "sq1": r"/|\((?:-[1-5]|[0-6]),(?:-[1-5]|[0-6])\)", "fto": r"(?:BL|BR|[UFLRBD])'?",
    "clock": rf"(?:UR|DR|DL|UL|U|R|D|L|ALL){HOURS}|y2",
}
WORD["333mbf"] = WORD["333bf"]
# What the order of the words must be, for the message when only the order is wrong.
ORDER = {
    "333bf": "the orientation turns last: Rw or Fw, then Uw", "333mbf": "the orientation turns last: Rw or Fw, then Uw",
    "444bf": "the rotations last: x or z, then y", "555bf": "the orientation turns last: 3Rw or 3Fw, then 3Uw",
    "333fm": "R' U' F first and last", "pyram": "the tips last, each once, in the order u l r b",
    "clock": "UR DR DL UL U R D L ALL y2 U R D L ALL, each turned -5..6 hours",
}
CUBE_SIZE = {"222": 2, "333": 3, "333oh": 3, "333bf": 3, "333mbf": 3, "333fm": 3, "444": 4,
             "444bf": 4, "555": 5, "555bf": 5, "666": 6, "777": 7}
RANDOM_TURNS = {"555": 60, "666": 80, "777": 100}
TWO_PHASE_MAX = 21  # TNoodle's 3x3x3 scrambles (and cubedb's): at most 21 turns


class Checker:
    """The checks of one event: `check(text)` raises Fail or returns the length;
    `model_check(text)` runs the scramble and its inverse on the model (solved again)."""

    def __init__(self, event):
        self.event = event
        # Events whose random states are few enough that 10,000 scrambles repeat some
        # (the birthday problem): how many states they are drawn from.
        self.states = None
        n = CUBE_SIZE.get(event)
        if n:
            self.cube = CubeModel(n)
            self.cube.self_check()
            if event == "222":
                # The 2x2x2 in R U F keeps its DBL corner: a state is within 3 turns of
                # solved exactly when it is one of these (no turning the cube needed).
                moves = [self.cube.turn(f, 1, q) for f in "RUF" for q in (1, 2, 3)]
                self.near = ball(self.cube.solved_state,
                                 lambda s, last: [(permute(s, m), None) for m in moves], 3)
                self.states = 3674160 - len(self.near)
        elif event in ("pyram", "skewb", "sq1", "fto"):
            file = {"pyram": "pyraminx.tws", "skewb": "skewb-fixed.tws",
                    "sq1": "square-1.tws", "fto": "fto.tws"}[event]
            self.tws = TwsModel(os.path.join(PUZZLES, file))
            getattr(self, f"setup_{event}")()
        elif event == "minx":
            self.minx = megaminx_model()
            megaminx_self_check(self.minx)
        elif event == "clock":
            self.clock = ClockModel()
            self.clock.self_check()
        else:
            raise SystemExit(f"unknown event {event}; events: {' '.join(EVENTS)}")

    # -- notation -------------------------------------------------------------------
    def notation(self, text):
        if self.event == "minx":
            lines = text.split("\n")
            if len(lines) != 7:
                raise Fail(f"{len(lines)} lines, not 7")
            for i, line in enumerate(lines, 1):
                if not NOTATION["minx"].match(line):
                    raise Fail(f"line {i} is not 10 alternating R/D turns (++ or --) then U or U': {line}")
                if line.endswith("U'") != line.split()[-2].endswith("--"):
                    raise Fail(f"line {i}: U' goes with a last D--, U with D++ (TNoodle)")
            return
        if not NOTATION[self.event].match(text):
            word = re.compile(rf"^(?:{WORD[self.event]})$")
            for i, w in enumerate(text.split(" "), 1):
                if not word.match(w):
                    raise Fail(f"notation: word {i} ({w!r}) is not a {self.event} word")
            raise Fail(f"notation: words out of order or missing ({ORDER.get(self.event, 'a turn between the words')})")

    # -- cubes ------------------------------------------------------------------------
    def check_cube(self, words):
        n, event, cube = self.cube.n, self.event, self.cube
        # The orientation words blindfolded scrambles end with (the notation check has
        # placed them last): 333bf Rw Fw Uw, 444bf x y z, 555bf 3Rw 3Fw 3Uw.
        orienting = {"333bf": "w", "333mbf": "w", "444bf": "xyz", "555bf": "3"}.get(event)
        tail = 0
        while orienting and tail < len(words) and any(c in words[-1 - tail] for c in orienting):
            tail += 1
        body, orient = words[:len(words) - tail], words[len(words) - tail:]
        if event == "333fm":
            inner = words[3:-3]
            if len(inner) > TWO_PHASE_MAX:
                raise Fail(f"{len(inner)} turns inside R' U' F ... R' U' F: more than {TWO_PHASE_MAX}")
            if AXIS[inner[0][0]] == "z":
                raise Fail("the first turn after R' U' F is on the F-B axis (TNoodle keeps it off F's axis)")
            if AXIS[inner[-1][0]] == "x":
                raise Fail("the last turn before R' U' F is on the R-L axis (TNoodle keeps it off R's axis)")
            check_axis_runs(words, n)
        else:
            check_axis_runs(body, n)
        if event in ("333", "333oh", "333bf", "333mbf") and len(body) > TWO_PHASE_MAX:
            raise Fail(f"{len(body)} turns: more than {TWO_PHASE_MAX}")
        if event in ("333bf", "333mbf") and orient and AXIS[body[-1][0]] == AXIS[orient[0][0]]:
            raise Fail("the last turn is on the axis of the first orientation turn (TNoodle never)")
        if event in RANDOM_TURNS and len(words) != RANDOM_TURNS[event]:
            raise Fail(f"{len(words)} turns, not {RANDOM_TURNS[event]}")
        if event == "555bf":
            if not (len(body) == 60 or (len(body) == 59 and orient)):
                raise Fail(f"{len(body)} turns before the orientation: 60, or 59 when the "
                           f"orientation's first turn merged with a dropped one")
            if orient:
                check_axis_runs(body + orient[:1], n)
        state = cube.apply(cube.solved_state, words)
        if event == "222":
            if state in self.near:
                raise Fail(f"{self.near[state]} turns from solved (the WCA's minimum: 4)")
        elif cube.one_from_solved(state):
            raise Fail("solved or one turn from solved (the minimum: 2)")

    # -- pyraminx ---------------------------------------------------------------------
    def setup_pyram(self):
        """Tips: the sets the lowercase moves turn; each one's axial centre: the other
        set its vertex's turn moves. The main puzzle's states within 5 turns of solved
        (the tips left out of the key)."""
        t = self.tws
        self.tips = []
        for v in "ulrb":
            tip, turned = t.changes(t.base[v]), t.changes(t.base[v.upper()])
            assert len(tip) == 1 and tip <= turned
            singles = {t.offset[name] for name, (n, _) in t.sets.items() if n == 1}
            axial = (turned & singles) - tip
            assert len(axial) == 1
            self.tips.append((tip.pop(), axial.pop()))
        tip_slots = {tip for tip, _ in self.tips}
        self.main_key = lambda s: tuple(v for i, v in enumerate(s) if i not in tip_slots)
        turns = [t.move(m, k) for m in "ULRB" for k in (1, 2)]
        self.near = ball(t.solved_state, lambda s, last: [(t.apply(s, m), None) for m in turns],
                         5, self.main_key)
        # 933,120 states of the rest, 81 of the tips; less those closer than 6, tips counted
        # (t of the 4 tips turned: C(4,t) 2^t ways).
        self.states = 933120 * 81 - sum(math.comb(4, t) * 2 ** t for d in self.near.values()
                                        for t in range(0, 6 - d) if t <= 4)

    def check_pyram(self, words):
        main = [w for w in words if w[0].isupper()]
        for i in range(1, len(main)):
            if main[i][0] == main[i - 1][0]:
                raise Fail(f"turns {i} and {i + 1} ({main[i - 1]} {main[i]}) turn the same vertex")
        t = self.tws
        state = t.solved_state
        for w in words:
            state = t.apply(state, t.move(w[0], -1 if w.endswith("'") else 1))
        omod = 3
        tips = sum(1 for tip, axial in self.tips if (state[tip] - state[axial]) % omod)
        main_distance = self.near.get(self.main_key(state), 6)
        if main_distance + tips < 6:
            raise Fail(f"{main_distance} turns and {tips} tips from solved (the WCA's minimum: 6, tips counted)")

    # -- skewb ------------------------------------------------------------------------
    def setup_skewb(self):
        t = self.tws
        turns = [t.move(m, k) for m in "RULB" for k in (1, 2)]
        self.near = ball(t.solved_state, lambda s, last: [(t.apply(s, m), None) for m in turns], 6)
        self.states = 3149280 - len(self.near)

    def check_skewb(self, words):
        for i in range(1, len(words)):
            if words[i][0] == words[i - 1][0]:
                raise Fail(f"turns {i} and {i + 1} ({words[i - 1]} {words[i]}) turn the same corner")
        t = self.tws
        state = t.solved_state
        for w in words:
            state = t.apply(state, t.move(w[0], -1 if w.endswith("'") else 1))
        if state in self.near:
            raise Fail(f"{self.near[state]} turns from solved (the WCA's minimum: 7)")

    # -- square-1 ---------------------------------------------------------------------
    def setup_sq1(self):
        """(x,y) as U^x D^y, each composed once; the states within 5 twists of solved
        ((x,y) and / one each), a slash only where it is legal."""
        t = self.tws
        self.twist = {}
        for x in range(-5, 7):
            for y in range(-5, 7):
                if (x, y) != (0, 0):
                    self.twist[(x, y)] = t.then(t.move("U", x), t.move("D", y))
        self.slash = t.move("S", 1)
        turns = list(self.twist.values())

        def successors(s, last):
            out = []
            if last != "turn":
                out += [(t.apply(s, m), "turn") for m in turns]
            if last != "slash" and t.legal(s):
                out.append((t.apply(s, self.slash), "slash"))
            return out

        self.near = ball(t.solved_state, successors, 5)

    def check_sq1(self, words):
        t = self.tws
        state = t.solved_state
        for i, w in enumerate(words):
            if i and (w == "/") == (words[i - 1] == "/"):
                raise Fail(f"words {i} and {i + 1} are two {'slashes' if w == '/' else 'layer turns'} in a row")
            if w == "/":
                if not t.legal(state):
                    raise Fail(f"slash {i + 1}: a corner lies across the slash (Illegal state)")
                state = t.apply(state, self.slash)
            else:
                x, y = map(int, w[1:-1].split(","))
                if (x, y) == (0, 0):
                    raise Fail(f"word {i + 1} is (0,0)")
                state = t.apply(state, self.twist[(x, y)])
        if not t.legal(state):
            raise Fail("the scrambled state has a corner across the slash (Illegal state)")
        if state in self.near:
            raise Fail(f"{self.near[state]} twists from solved (the WCA's minimum: 11)")

    # -- FTO --------------------------------------------------------------------------
    def setup_fto(self):
        self.fto = fto_sticker_model()
        # The scrambles name the faces as cubing.js does; the definition by the octant its
        # normal points to (the sticker map's `Name DEFINITION PICTURE` lines).
        with open(os.path.join(PUZZLES, "fto.picture")) as f:
            named = [line.split()[1:] for line in f if line.startswith("Name ")]
        self.fto_definition_name = {picture: definition for definition, picture in named}
        assert len(self.fto_definition_name) == 8
        for name in ("UFL", "DBR", "UBR"):
            assert power(self.fto.moves[name], 3) == tuple(range(len(self.fto.solved_state)))
            state = self.tws.apply(self.tws.solved_state, self.tws.move(name, 3))
            assert state == self.tws.solved_state

    def check_fto(self, words):
        words = [self.fto_definition_name[w.rstrip("'")] + w[len(w.rstrip("'")):] for w in words]
        opposite = lambda m: "".join({"U": "D", "D": "U", "F": "B", "B": "F", "L": "R", "R": "L"}[c] for c in m)
        run = []
        for i, w in enumerate(words):
            face = w.rstrip("'")
            if run and face not in (run[-1], opposite(run[-1])):
                run = []
            if face in run:
                raise Fail(f"turn {i + 1} ({w}) merges with an earlier turn of its face "
                           f"(opposite faces commute)")
            run.append(face)
        t, m = self.tws, self.fto
        state, stickers = t.solved_state, m.solved_state
        for w in words:
            state = t.apply(state, t.move(w.rstrip("'"), -1 if w.endswith("'") else 1))
            stickers = permute(stickers, m.moves[w])
        if t.solved(state):
            raise Fail("solved (fto.tws)")
        if m.one_from_solved(stickers):
            raise Fail("solved or one turn from solved, up to turning the FTO whole (the minimum: 2)")

    # -- megaminx and clock -----------------------------------------------------------
    def check_minx(self, words):
        m = self.minx
        state = m.solved_state
        for w in words:
            state = permute(state, m.moves[w])
        if m.one_from_solved(state):
            raise Fail("solved or one face turn from solved (the minimum: 2)")

    def check_clock(self, words):
        if self.clock.one_from_solved(self.clock.apply(self.clock.solved_state, words)):
            raise Fail("solved or one pin setting's turn from solved (the minimum: 2)")

    # -- all ----------------------------------------------------------------------------
    def check(self, text):
        """Raises Fail naming the rule a scramble breaks; returns its length."""
        self.notation(text)
        words = text.split()
        if hasattr(self, "cube"):
            self.check_cube(words)
        else:
            getattr(self, "check_" + self.event)(words)
        return len(words)

    def model_check(self, text):
        """The scramble then its inverse, on the model: solved again (checks the model's
        inverses and the words' reading, not cubedb)."""
        words = text.split()
        if hasattr(self, "cube"):
            c = self.cube
            assert c.apply(c.apply(c.solved_state, words), invert_turns(words)) == c.solved_state
        elif self.event == "clock":
            c = self.clock
            assert c.apply(c.apply(c.solved_state, words), invert_clock(words)) == c.solved_state
        elif self.event == "minx":
            s = self.minx.solved_state
            for w in words + invert_turns(words):
                s = permute(s, self.minx.moves[w])
            assert s == self.minx.solved_state
        elif self.event == "sq1":
            t = self.tws
            s = t.solved_state
            inverse = ["/" if w == "/" else "(%d,%d)" % tuple(-int(v) for v in w[1:-1].split(","))
                       for w in reversed(words)]
            for w in words + inverse:
                if w == "/":
                    s = t.apply(s, self.slash)
                else:
                    x, y = map(int, w[1:-1].split(","))
                    s = t.apply(s, t.then(t.move("U", x), t.move("D", y)))
            assert s == t.solved_state
        else:  # pyram, skewb, fto: the definition's moves, ' backwards
            t = self.tws
            s = t.solved_state
            if self.event == "fto":
                words = [self.fto_definition_name[w.rstrip("'")] + w[len(w.rstrip("'")):]
                         for w in words]
            for w in words + invert_turns(words):
                s = t.apply(s, t.move(w.rstrip("'"), -1 if w.endswith("'") else 1))
            assert s == t.solved_state


def poisson_bound(mean, tail=1e-6):
    """The smallest q with P(X > q) < tail for X ~ Poisson(mean)."""
    q, pmf = 0, math.exp(-mean)
    cdf = pmf
    while 1 - cdf >= tail:
        q += 1
        pmf *= mean / q
        cdf += pmf
    return q


def main():
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        sys.exit(2)
    event = sys.argv[1]
    checker = Checker(event)
    count, total, shortest, longest, seen, seed, repeats = 0, 0, None, 0, set(), None, 0
    for number, line in enumerate(sys.stdin, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:
            sys.exit(f"FAIL {event}: line {number} is not JSON: {line.strip()[:80]}")
        text = record.get("scramble", "")
        index = record.get("index")

        def fail(rule):
            shown = text.replace("\n", " / ")
            print(f"FAIL {event} index {index}: {rule}\n  scramble: {shown}")
            sys.exit(1)

        if record.get("event") != event:
            fail(f"event {record.get('event')!r}, not {event}")
        if index != count:
            fail(f"index {index} where {count} comes next (indices 0..N-1 in order)")
        if seed is None:
            seed = record.get("seed")
        elif record.get("seed") != seed:
            fail(f"seed {record.get('seed')} after seed {seed}")
        if text in seen:
            if not checker.states:
                fail("the same scramble as an earlier one")
            repeats += 1  # counted against the birthday expectation below
        seen.add(text)
        try:
            length = checker.check(text)
            if count < 10:
                checker.model_check(text)
        except Fail as e:
            fail(str(e))
        count += 1
        total += length
        longest = max(longest, length)
        shortest = length if shortest is None else min(shortest, length)
    if count == 0:
        print(f"FAIL {event}: no scrambles read")
        sys.exit(1)
    repeated = ""
    if checker.states:
        # Uniform states: the number of repeated pairs is about Poisson(n(n-1)/2 / states).
        expected = count * (count - 1) / 2 / checker.states
        if repeats > poisson_bound(expected):
            print(f"FAIL {event}: {repeats} repeated scrambles, where {count} uniformly random "
                  f"states of {checker.states:,} repeat {expected:.1f} on average")
            sys.exit(1)
        repeated = f" (repeats {repeats}, {expected:.1f} expected of uniform states)"
    print(f"{event} ok: count {count} distinct {len(seen)}{repeated} mean_len {total / count:.2f} "
          f"min_len {shortest} max_len {longest}")


if __name__ == "__main__":
    main()
