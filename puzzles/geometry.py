"""Twisty puzzles from their geometry: a polyhedron, and moves that turn the part of it on
one side of a cutting plane (or between two). Writes twsearch's .tws format.

Stickers are found by sampling each face and grouping the points by face and by the side
of every cutting plane they lie on; a piece is the stickers that share their sides of every
plane. A move turns every sticker in its slab; the sticker it lands on is the nearest one
on the rotated face. A piece's stickers are ordered counterclockwise around the piece's
direction from the centre, so a move shifts that order cyclically: the shift is the twist.
Pieces whose colours (the faces of their stickers, in order) are the same are identical.
"""

import math

PHI = (1 + 5 ** 0.5) / 2


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def sub(a, b):
    return tuple(x - y for x, y in zip(a, b))


def add(a, b):
    return tuple(x + y for x, y in zip(a, b))


def scale(a, k):
    return tuple(x * k for x in a)


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def unit(a):
    return scale(a, 1 / math.sqrt(dot(a, a)))


def rotate(p, axis, angle):
    """Rodrigues: p turned by `angle` about the unit vector `axis`."""
    c, s = math.cos(angle), math.sin(angle)
    return add(add(scale(p, c), scale(cross(axis, p), s)), scale(axis, dot(axis, p) * (1 - c)))


def faces_of(vertices, normals):
    """Each face: its unit normal and its vertices in order around it."""
    faces = []
    for n in normals:
        n = unit(n)
        top = max(dot(v, n) for v in vertices)
        vs = [v for v in vertices if abs(dot(v, n) - top) < 1e-6]
        c = scale(tuple(map(sum, zip(*vs))), 1 / len(vs))
        u = unit(sub(vs[0], c))
        w = cross(n, u)
        vs.sort(key=lambda v: math.atan2(dot(sub(v, c), w), dot(sub(v, c), u)))
        faces.append((n, vs, c))
    return faces


def samples(face, k=24):
    """Points inside a face: a grid in each triangle of the fan from its centre."""
    _, vs, c = face
    points = []
    for i in range(len(vs)):
        a, b = sub(vs[i], c), sub(vs[(i + 1) % len(vs)], c)
        for x in range(k):
            for y in range(k - x):
                s, t = (x + 0.31) / k, (y + 0.29) / k
                if s + t < 1:
                    points.append(add(c, add(scale(a, s), scale(b, t))))
    return points


class Puzzle:
    """moves: (name, axis, angle, lo, hi): turn by `angle` about the unit `axis` every
    sticker whose centre c has lo < c.axis < hi."""

    def __init__(self, name, vertices, normals, moves, omit=lambda centre: False):
        self.name = name
        self.faces = faces_of(vertices, normals)
        self.moves = [(m, unit(a), ang, lo, hi) for m, a, ang, lo, hi in moves]
        planes = sorted({(a, cut) for _, a, _, lo, hi in self.moves for cut in (lo, hi) if abs(cut) < 50})
        self.planes = planes
        # Stickers: (face, sides of every plane) -> sample points.
        groups = {}
        for f, face in enumerate(self.faces):
            for p in samples(face):
                key = (f, tuple(dot(p, a) > cut for a, cut in planes))
                groups.setdefault(key, []).append(p)
        self.stickers = []  # (face, centre, piece key)
        for (f, sides), pts in groups.items():
            centre = scale(tuple(map(sum, zip(*pts))), 1 / len(pts))
            self.stickers.append((f, centre, sides))
        pieces = {}
        for i, (_, _, sides) in enumerate(self.stickers):
            pieces.setdefault(sides, []).append(i)
        self.pieces = []
        for members in pieces.values():
            mean = scale(tuple(map(sum, zip(*[self.stickers[i][1] for i in members]))), 1 / len(members))
            if omit(mean):
                continue
            centre = unit(mean)
            if len(members) >= 3:
                u = unit(sub(self.stickers[members[0]][1], scale(centre, dot(self.stickers[members[0]][1], centre))))
                w = cross(centre, u)

                def angle(i):
                    p = self.stickers[i][1]
                    return math.atan2(dot(p, w), dot(p, u)) % (2 * math.pi)

                members.sort(key=angle)
            else:
                members.sort(key=lambda i: self.stickers[i][0])
            self.pieces.append(members)
        self.piece_of = {}
        for p, members in enumerate(self.pieces):
            for pos, s in enumerate(members):
                self.piece_of[s] = (p, pos)

    def sticker_move(self, move):
        _, axis, angle, lo, hi = move
        dest = {}
        for i, (f, c, _) in enumerate(self.stickers):
            if i not in self.piece_of:
                continue
            if lo < dot(c, axis) < hi:
                n = rotate(self.faces[f][0], axis, angle)
                p = rotate(c, axis, angle)
                g = max(range(len(self.faces)), key=lambda k: dot(self.faces[k][0], n))
                j = min((k for k, s in enumerate(self.stickers) if s[0] == g and k in self.piece_of),
                        key=lambda k: dot(sub(self.stickers[k][1], p), sub(self.stickers[k][1], p)))
                dest[i] = j
            else:
                dest[i] = i
        return dest

    def piece_moves(self, moves=None):
        """Each move as pieces: (name, slot each piece goes to, twist it gains there)."""
        out = []
        for move in moves or self.moves:
            name, dest = move[0], self.sticker_move(move)
            to, twist = {}, {}
            for p, members in enumerate(self.pieces):
                q, pos = self.piece_of[dest[members[0]]]
                k = len(members)
                for i, s in enumerate(members):
                    q2, pos2 = self.piece_of[dest[s]]
                    assert q2 == q and pos2 == (pos + i) % k, f"{name}: piece {p} does not move rigidly"
                to[p], twist[q] = q, pos
            out.append((name, to, twist))
        return out

    def orbits(self, rename=None):
        """The sets of the definition, in its order: (name, pieces, orientations, labels,
        reach), where reach[p] is every (slot, twist) piece p can take.
        rename: set names to replace (the names are given by sticker count, in the
        order orbits are sorted: bigger pieces first, then smaller orbits)."""
        rename = rename or {}
        piece_moves = self.piece_moves()
        # Orbits: pieces joined by moves.
        parent = list(range(len(self.pieces)))

        def find(x):
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for _, to, _ in piece_moves:
            for p, q in to.items():
                parent[find(p)] = find(q)
        orbits = {}
        for p in range(len(self.pieces)):
            orbits.setdefault(find(p), []).append(p)
        orbits = [o for o in orbits.values() if any(to[p] != p or twist.get(p, 0) for _, to, twist in piece_moves for p in o)]
        orbits.sort(key=lambda o: (-len(self.pieces[o[0]]), len(o), o[0]))
        names = {}
        kinds = {1: "CENTER", 2: "EDGE", 3: "CORNER", 4: "CORNER", 5: "CORNER"}
        sets = []
        for o in orbits:
            k = len(self.pieces[o[0]])
            # Where each piece can be, and how twisted: a set whose twist is fixed by the
            # slot (the dino's edges, the 4x4x4's wings) gets no orientation at all.
            reach = {}
            for p in o:
                seen, todo = {(p, 0)}, [(p, 0)]
                while todo:
                    slot, ori = todo.pop()
                    for _, to, twist in piece_moves:
                        nxt = (to[slot], (ori + twist.get(to[slot], 0)) % k)
                        if nxt not in seen:
                            seen.add(nxt)
                            todo.append(nxt)
                reach[p] = frozenset(seen)
            fixed = all(len({t for (slot, t) in reach[p] if slot == q}) <= 1 for p in o for q in o)
            omod = 1 if fixed or k == 1 else k
            base = kinds.get(k, f"PIECE{k}")
            name = base if base not in names else f"{base}{names[base] + 1}"
            names[base] = names.get(base, 0) + 1
            name = rename.get(name, name)
            # Identical: the same colours, and able to stand in each other's places and
            # twists (two wings of one edge are not: each shows the colours its own way).
            colours, labels = {}, []
            for p in o:
                key = (tuple(self.stickers[s][0] for s in self.pieces[p]), reach[p])
                colours.setdefault(key, len(colours) + 1)
                labels.append(colours[key])
            sets.append((name, o, omod, labels, reach))
        return sets, piece_moves

    def write(self, path, header, rename=None):
        """The definition as a .tws file (see orbits for rename)."""
        sets, piece_moves = self.orbits(rename)
        lines = [f"# {h}" for h in header] + [f"Name {self.name}", ""]
        for name, o, omod, _, _ in sets:
            lines.append(f"Set {name} {len(o)} {omod}")
        lines += ["", "Solved"]
        for name, o, _, labels, _ in sets:
            lines += [name, " ".join(map(str, labels)), " ".join("0" for _ in o)]
        lines += ["End", ""]
        for mname, to, twist in piece_moves:
            lines.append(f"Move {mname}")
            for name, o, k, _, _ in sets:
                index = {p: i for i, p in enumerate(o)}
                src = [0] * len(o)
                ori = [0] * len(o)
                for p in o:
                    q = to[p]
                    src[index[q]] = index[p] + 1
                    # KSolve's Move blocks index the twist by the slot a piece leaves.
                    ori[index[p]] = twist[q] % k if k > 1 else 0
                if any(src[i] != i + 1 or ori[i] for i in range(len(o))):
                    lines += [name, " ".join(map(str, src)), " ".join(map(str, ori))]
            lines += ["End", ""]
        with open(path, "w") as out:
            out.write("\n".join(lines))


CUBE_V = [(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
CUBE_N = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]
CUBE_FACES = {(0, 1, 0): "U", (0, -1, 0): "D", (1, 0, 0): "R", (-1, 0, 0): "L", (0, 0, 1): "F", (0, 0, -1): "B"}


def corner_name(d):
    return ("U" if d[1] > 0 else "D") + ("F" if d[2] > 0 else "B") + ("R" if d[0] > 0 else "L")


def cube_layers(n):
    """NxN for n = 4 or 5: each face turns its outer layer (R) and its second layer (2R).
    The 5x5x5's middle slices are left out: each is a turn of the cube with outer
    layers, so its face centres stay fixed and the state space is the usual one."""
    moves = []
    width = 2 / n
    for normal, face in CUBE_FACES.items():
        moves.append((face, normal, -math.pi / 2, 1 - width, 9))
        moves.append((f"2{face}", normal, -math.pi / 2, 1 - 2 * width, 1 - width))
    return moves


# The WCA's skewb corners (regulation 12h: white on top, green front-left): R the
# bottom-right-back corner, U the top-back-left, L the bottom-front-left, B the
# bottom-back-left; the up-front-right corner never moves.
SKEWB_WCA = {"R": (1, -1, -1), "U": (-1, 1, -1), "L": (-1, -1, 1), "B": (-1, -1, -1)}


def skewb_wca_turns():
    """The skewb's four WCA turns, each clockwise seen from its corner."""
    return [(name, d, -2 * math.pi / 3, 0, 9) for name, d in SKEWB_WCA.items()]


def corner_turns(cut):
    """Skewb (cut 0) and dino (cut 1): each corner turns what lies beyond its plane."""
    return [(corner_name(d), d, -2 * math.pi / 3, cut / math.sqrt(3), 9) for d in CUBE_V]


TETRA_V = [(1, 1, 1), (1, -1, -1), (-1, 1, -1), (-1, -1, 1)]
# The WCA's names (regulation 12e: yellow face down, green in front): U the top vertex,
# L and R the front face's lower left and right, B the back; seen from U, L R B run
# counter-clockwise.
TETRA_NAMES = ["U", "L", "R", "B"]


def pyraminx_moves():
    """Each vertex turns its layer: the tip, the axial centre and three edges."""
    r = math.sqrt(3)
    span = 4 * r / 3
    return [(name, v, -2 * math.pi / 3, r - 2 * span / 3, 9) for name, v in zip(TETRA_NAMES, TETRA_V)] + \
           [(name.lower(), v, -2 * math.pi / 3, r - span / 3, 9) for name, v in zip(TETRA_NAMES, TETRA_V)]


OCTA_V = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]
OCTA_N = CUBE_V


def fto_moves():
    """Face-turning octahedron: each face turns its layer (a third of the way in)."""
    return [(corner_name(n), n, -2 * math.pi / 3, 1 / (3 * math.sqrt(3)), 9) for n in OCTA_N]


def dodecahedron():
    v = [(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    for a in (-1, 1):
        for b in (-1, 1):
            v += [(0, a / PHI, b * PHI), (a / PHI, b * PHI, 0), (a * PHI, 0, b / PHI)]
    n = []
    for a in (-1, 1):
        for b in (-1, 1):
            n += [(0, a * PHI, b), (a * PHI, b, 0), (a, 0, b * PHI)]
    return v, n


def megaminx_moves(normals):
    """Each face turns its outer layer by a fifth (cut at 0.8 of the face's distance:
    anywhere from 0.7 to 0.95 gives the megaminx's pieces)."""
    names = ["U", "D", "F", "BF", "L", "E", "BL", "C", "BR", "A", "R", "I"]
    v, _ = dodecahedron()
    top = max(dot(x, unit(normals[0])) for x in v)
    cut = top * 0.8
    return [(names[i], n, -2 * math.pi / 5, cut, 99) for i, n in enumerate(normals)]
