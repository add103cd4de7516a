"""Pictures of puzzles cut from their geometry (geometry.py), as cubedb draws scrambles:
each sticker a polygon in a flat drawing of the puzzle, the piece slot and position it
shows, and every move as a permutation of the stickers. Writes `NAME.picture`:

    Picture NAME
    Size WIDTH HEIGHT
    Sticker COLOUR SET SLOT POSITION X,Y X,Y ...   (SET - : a piece that never moves)
    Twist SET HOME T1 T2 ...    (a set without orientations: the twist the piece whose
                                 home is slot HOME shows in each slot)
    Move NAME S1 S2 ...         (sticker i shows, after the move, what sticker S(i) showed)

Slots and labels count from 1 as in the .tws file; a piece's positions (from 0) run
counterclockwise around it from the one its orientation 0 puts first, so a slot holding
a piece of orientation o shows at position j the piece's own position (j - o) mod k.
Stickers are found exactly: the face's polygon clipped by the side of every cutting
plane the sticker lies on.
"""
import math

import geometry as g


def clip(polygon, axis, cut, above):
    """The part of a convex polygon (3-D points) with dot(p, axis) > cut (or < cut)."""
    sign = 1 if above else -1
    out = []
    for i, p in enumerate(polygon):
        q = polygon[(i + 1) % len(polygon)]
        dp, dq = sign * (g.dot(p, axis) - cut), sign * (g.dot(q, axis) - cut)
        if dp >= 0:
            out.append(p)
        if (dp >= 0) != (dq >= 0):
            t = dp / (dp - dq)
            out.append(g.add(p, g.scale(g.sub(q, p), t)))
    return out


def sticker_polygon(puzzle, sticker):
    f, _, sides = puzzle.stickers[sticker]
    polygon = list(puzzle.faces[f][1])
    for (axis, cut), above in zip(puzzle.planes, sides):
        polygon = clip(polygon, axis, cut, above)
    return polygon


def plane_view(centre, normal, up, origin, scale):
    """Maps points of a face seen from outside: `up` (a direction in its plane) points up
    the page, the face's `centre` lands on `origin`."""
    up = g.unit(g.sub(up, g.scale(normal, g.dot(up, normal))))
    right = g.cross(up, normal)

    def view(p):
        d = g.sub(p, centre)
        return (origin[0] + scale * g.dot(d, right), origin[1] - scale * g.dot(d, up))
    return view


def unfolded(puzzle, centre_face, neighbour):
    """A map taking points of `neighbour` into the plane of `centre_face`, turned about
    their shared edge (the flat net of the two faces)."""
    n_c, vs_c, _ = puzzle.faces[centre_face]
    n_f, vs_f, _ = puzzle.faces[neighbour]
    shared = [v for v in vs_f if any(g.dot(g.sub(v, w), g.sub(v, w)) < 1e-9 for w in vs_c)]
    assert len(shared) == 2, "faces that share no edge"
    a, b = shared
    e = g.unit(g.sub(b, a))
    angle = math.acos(max(-1.0, min(1.0, g.dot(n_f, n_c))))
    for turn in (angle, -angle):
        if g.dot(g.rotate(n_f, e, turn), n_c) > 1 - 1e-9:
            return lambda p: g.add(a, g.rotate(g.sub(p, a), e, turn))
    raise AssertionError("no turn lays the faces flat")


def flower(puzzle, centre_face, up, origin, scale):
    """A face and the faces around it laid flat about it: face -> map to the page."""
    n, _, c = puzzle.faces[centre_face]
    view = plane_view(c, n, up, origin, scale)
    maps = {centre_face: view}
    for f in range(len(puzzle.faces)):
        if f != centre_face:
            try:
                lay = unfolded(puzzle, centre_face, f)
            except AssertionError:
                continue
            maps[f] = (lambda lay: lambda p: view(lay(p)))(lay)
    return maps


def cube_net(puzzle, size, gap):
    """A cube's faces as the net cubedb draws cubes: U above F; L F R B in a row; D below."""
    # Per face normal: page column and row, and the page axes as 3-D directions.
    layout = {
        (0, 1, 0): ((1, 0), (1, 0, 0), (0, 0, 1)),
        (-1, 0, 0): ((0, 1), (0, 0, 1), (0, -1, 0)),
        (0, 0, 1): ((1, 1), (1, 0, 0), (0, -1, 0)),
        (1, 0, 0): ((2, 1), (0, 0, -1), (0, -1, 0)),
        (0, 0, -1): ((3, 1), (-1, 0, 0), (0, -1, 0)),
        (0, -1, 0): ((1, 2), (1, 0, 0), (0, 0, -1)),
    }
    maps = {}
    for f, (n, _, _) in enumerate(puzzle.faces):
        (col, row), right, down = layout[tuple(round(x) for x in n)]
        x0, y0 = gap + col * (size + gap), gap + row * (size + gap)
        maps[f] = (lambda x0, y0, right, down: lambda p: (
            x0 + size * (g.dot(p, right) + 1) / 2, y0 + size * (g.dot(p, down) + 1) / 2))(x0, y0, right, down)
    return maps, (4 * size + 5 * gap, 3 * size + 4 * gap)


def write_picture(puzzle, path, header, maps, size, colours, rename=None, extra_moves=(),
                  move_names=None):
    """Writes the picture: `maps` face -> page map (faces not in it are not drawn),
    `colours` face -> colour; `extra_moves` are drawn moves beyond the definition's
    (the megaminx's Pochmann turns); `move_names` the picture's name of each of the
    definition's moves where they differ (written as `Name` lines)."""
    sets, _ = puzzle.orbits(rename)
    where = {}  # sticker -> (set name, slot, position)
    twists = []
    for name, o, omod, _, reach in sets:
        k = len(puzzle.pieces[o[0]])
        for slot, p in enumerate(o):
            for pos, s in enumerate(puzzle.pieces[p]):
                where[s] = (name, slot + 1, pos)
        if omod == 1 and k > 1:
            for home, p in enumerate(o):
                by_slot = {slot: t for slot, t in reach[p]}
                twists.append(f"Twist {name} {home + 1} " + " ".join(str(by_slot.get(q, 0)) for q in o))
    drawn = [s for s in range(len(puzzle.stickers)) if puzzle.stickers[s][0] in maps]
    assert all(s in drawn for s in where), "a moving sticker is not drawn"
    index = {s: i for i, s in enumerate(drawn)}
    lines = [f"# {h}" for h in header] + [f"Picture {puzzle.name}", f"Size {size[0]:.0f} {size[1]:.0f}"]
    for s in drawn:
        f = puzzle.stickers[s][0]
        points = []
        for p in sticker_polygon(puzzle, s):
            x, y = maps[f](p)
            if not points or math.dist(points[-1], (x, y)) > 0.05:
                points.append((x, y))
        if len(points) > 1 and math.dist(points[0], points[-1]) <= 0.05:
            points.pop()
        name, slot, pos = where.get(s, ("-", "", ""))
        place = f"{name} {slot} {pos}" if name != "-" else "-"
        lines.append(f"Sticker {colours[f]} {place} " + " ".join(f"{x:.1f},{y:.1f}" for x, y in points))
    lines += twists
    move_names = move_names or {}
    lines += [f"Name {m[0]} {move_names[m[0]]}" for m in puzzle.moves if m[0] in move_names]
    for move in list(puzzle.moves) + list(extra_moves):
        dest = all_sticker_move(puzzle, move)
        source = [0] * len(drawn)
        for s in drawn:
            source[index[dest[s]]] = index[s]
        lines.append(f"Move {move_names.get(move[0], move[0])} " + " ".join(map(str, source)))
    with open(path, "w") as out:
        out.write("\n".join(lines) + "\n")


def all_sticker_move(puzzle, move):
    """Where a move sends every sticker, those of pieces that never move included (a
    turn of the whole puzzle but one face moves centres)."""
    _, axis, angle, lo, hi = move
    axis = g.unit(axis)
    dest = {}
    for i, (f, c, _) in enumerate(puzzle.stickers):
        if lo < g.dot(c, axis) < hi:
            n = g.rotate(puzzle.faces[f][0], axis, angle)
            p = g.rotate(c, axis, angle)
            face = max(range(len(puzzle.faces)), key=lambda k: g.dot(puzzle.faces[k][0], n))
            dest[i] = min((k for k, s in enumerate(puzzle.stickers) if s[0] == face),
                          key=lambda k: g.dot(g.sub(puzzle.stickers[k][1], p), g.sub(puzzle.stickers[k][1], p)))
        else:
            dest[i] = i
    assert sorted(dest.values()) == list(range(len(puzzle.stickers))), f"{move[0]} is not a permutation"
    return dest
