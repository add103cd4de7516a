#!/usr/bin/env python3
"""Writes cubedb's own puzzle definitions (twsearch's .tws format) into this folder.

Cubes come from the cubie-level description of the face turns (which slot each slot's
piece comes from, and the twist it gains); the others from their rules. Every file is
checked by its state count and distance distribution in the tests
(tests/integration/perm_puzzles.rs). Run: python3 puzzles/generate.py
"""
import math
import os

import geometry as g
import pictures

HERE = os.path.dirname(os.path.abspath(__file__))

# Corner slots URF UFL ULB UBR DFR DLF DBL DRB; edge slots UR UF UL UB DR DF DL DB FR FL BL BR.
# For each face turn: the slot each slot's piece comes from, and its twist.
CUBE = {
    "U": ([3, 0, 1, 2, 4, 5, 6, 7], [0] * 8,
          [3, 0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11], [0] * 12),
    "R": ([4, 1, 2, 0, 7, 5, 6, 3], [2, 0, 0, 1, 1, 0, 0, 2],
          [8, 1, 2, 3, 11, 5, 6, 7, 4, 9, 10, 0], [0] * 12),
    "F": ([1, 5, 2, 3, 0, 4, 6, 7], [1, 2, 0, 0, 2, 1, 0, 0],
          [0, 9, 2, 3, 4, 8, 6, 7, 1, 5, 10, 11], [0, 1, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0]),
    "D": ([0, 1, 2, 3, 5, 6, 7, 4], [0] * 8,
          [0, 1, 2, 3, 5, 6, 7, 4, 8, 9, 10, 11], [0] * 12),
    "L": ([0, 2, 6, 3, 4, 1, 5, 7], [0, 1, 2, 0, 0, 2, 1, 0],
          [0, 1, 10, 3, 4, 5, 9, 7, 8, 2, 6, 11], [0] * 12),
    "B": ([0, 1, 3, 7, 4, 5, 2, 6], [0, 0, 1, 2, 0, 0, 2, 1],
          [0, 1, 2, 11, 4, 5, 6, 10, 8, 9, 3, 7], [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 1]),
}


def block(name, perm, ori):
    return f"{name}\n{' '.join(str(p + 1) for p in perm)}\n{' '.join(map(str, ori))}\n"


def move_block(name, perm, ori):
    """A `Move` block: slot i takes the piece of slot perm[i]; `ori` is given per
    destination slot, and KSolve's Move blocks index it by the slot a piece leaves."""
    by_source = [0] * len(perm)
    for i, src in enumerate(perm):
        by_source[src] = ori[i]
    return block(name, perm, by_source)


def write(file, header, sets, moves):
    """sets: [(name, size, omod)]; moves: [(name, {set: (perm, ori)})]."""
    lines = [f"# {line}" for line in header] + [f"Name {file[:-4]}", ""]
    for name, size, omod in sets:
        lines.append(f"Set {name} {size} {omod}")
    lines += ["", "Solved"]
    for name, size, _ in sets:
        lines.append(block(name, list(range(size)), [0] * size).rstrip())
    lines += ["End", ""]
    for move, parts in moves:
        lines.append(f"Move {move}")
        for name, _, _ in sets:
            if name in parts:
                lines.append(move_block(name, *parts[name]).rstrip())
        lines += ["End", ""]
    with open(os.path.join(HERE, file), "w") as out:
        out.write("\n".join(lines))


def main():
    faces = "URFDLB"
    write("3x3x3.tws", ["Rubik's cube, centres fixed: 8 corners, 12 edges, 6 face turns."],
          [("CORNERS", 8, 3), ("EDGES", 12, 2)],
          [(f, {"CORNERS": CUBE[f][:2], "EDGES": CUBE[f][2:]}) for f in faces])
    write("2x2x2.tws", ["2x2x2 with all six faces turning (no fixed piece: 24 orientations)."],
          [("CORNERS", 8, 3)], [(f, {"CORNERS": CUBE[f][:2]}) for f in faces])
    # Fixed DBL corner (slot 6): U, R, F only; the seven other corners renumbered.
    keep = [0, 1, 2, 3, 4, 5, 7]
    new = {old: i for i, old in enumerate(keep)}
    write("2x2x2-fixed.tws", ["2x2x2 with the DBL corner fixed: U, R, F turn the other 7."],
          [("CORNERS", 7, 3)],
          [(f, {"CORNERS": ([new[CUBE[f][0][s]] for s in keep], [CUBE[f][1][s] for s in keep])})
           for f in "URF"])
    # Loopover 3x3: tiles row by row; Rn shifts row n right, Cn shifts column n down.
    moves = []
    for r in range(3):
        perm = list(range(9))
        for c in range(3):
            perm[3 * r + c] = 3 * r + (c - 1) % 3
        moves.append((f"R{r + 1}", {"TILES": (perm, [0] * 9)}))
    for c in range(3):
        perm = list(range(9))
        for r in range(3):
            perm[3 * r + c] = 3 * ((r - 1) % 3) + c
        moves.append((f"C{c + 1}", {"TILES": (perm, [0] * 9)}))
    write("loopover-3x3.tws", ["Loopover 3x3: rows shift right, columns shift down (by one, either way)."],
          [("TILES", 9, 1)], moves)
    # TopSpin 20/4: R turns the track by one, F reverses the four discs in the turntable.
    track = [(i - 1) % 20 for i in range(20)]
    flip = [3, 2, 1, 0] + list(range(4, 20))
    write("topspin.tws", ["TopSpin 20/4: a loop of 20 discs, a turntable reversing 4 of them."],
          [("DISCS", 20, 1)],
          [("R", {"DISCS": (track, [0] * 20)}), ("F", {"DISCS": (flip, [0] * 20)})])
    square_one()
    from_geometry()
    event_pictures()


def square_one():
    """Square-1 in 30-degree slots, as twsearch models it: 12 top slots then 12 bottom
    slots, each layer numbered from one end of the slash line so that the slash swaps
    slots 1-6 of the top with slots 1-6 of the bottom. Edges fill one slot, corners two
    (a first half, then a second half, all second halves alike); a layer turn may not
    leave a corner across the slash line (Illegal: a second half just after the line)."""
    top = ["C", "c", "E"] * 4
    bottom = ["E", "C", "c"] * 4
    labels, edges, corners = [], 0, 0
    for kind in top + bottom:
        if kind == "E":
            edges += 1
            labels.append(edges)
        elif kind == "C":
            corners += 1
            labels.append(8 + corners)
        else:
            labels.append(17)
    def layer_turn(first):
        perm = list(range(24))
        for i in range(12):
            perm[first + i] = first + (i - 1) % 12
        return perm
    slash = list(range(24))
    for i in range(6):
        slash[i], slash[12 + i] = 12 + i, i
    lines = [
        "# Square-1: 24 slots of 30 degrees (top 1-12, bottom 13-24), edges one slot,",
        "# corners two; U and D turn a layer by 30 degrees, S is the slash. A corner may",
        "# never lie across the slash line (the Illegal lines), so layer turns stop where",
        "# a slash is possible, as on the puzzle. MIDDLE is the equator layer's flip.",
        "Name square-1", "", "Set SLICE 24 1", "Set MIDDLE 1 2", "", "Solved",
        "SLICE", " ".join(map(str, labels)), "MIDDLE", "1", "0", "End", "",
    ]
    for name, perm, flip in (("U", layer_turn(0), 0), ("D", layer_turn(12), 0), ("S", slash, 1)):
        lines += [f"Move {name}", "SLICE", " ".join(str(p + 1) for p in perm), "MIDDLE", "1", str(flip), "End", ""]
    for slot in (1, 7, 13, 19):
        lines.append(f"Illegal SLICE {slot} 17")
    with open(os.path.join(HERE, "square-1.tws"), "w") as out:
        out.write("\n".join(lines) + "\n")


def from_geometry():
    """Puzzles cut from their polyhedron (geometry.py)."""
    out = lambda name: os.path.join(HERE, name)
    g.Puzzle("skewb", g.CUBE_V, g.CUBE_N, g.corner_turns(0)).write(
        out("skewb.tws"), ["Skewb: each of the 8 corners turns half the cube (centres move)."])
    g.Puzzle("skewb-fixed", g.CUBE_V, g.CUBE_N, g.skewb_wca_turns()).write(
        out("skewb-fixed.tws"), ["Skewb in the WCA's notation: R U L B turn half the cube about the",
                                 "corners DRB UBL DFL DBL; the UFR corner never moves."])
    g.Puzzle("dino", g.CUBE_V, g.CUBE_N, g.corner_turns(1)).write(
        out("dino.tws"), ["Dino cube: each corner turns the 3 edges around it (6 colours)."])
    tetra_normals = [g.scale(v, -1) for v in g.TETRA_V]
    g.Puzzle("pyraminx", g.TETRA_V, tetra_normals, g.pyraminx_moves()).write(
        out("pyraminx.tws"), ["Pyraminx: U R L B turn a vertex's layer, u r l b its tip."])
    g.Puzzle("pyraminx-no-tips", g.TETRA_V, tetra_normals, g.pyraminx_moves()[:4],
             omit=lambda centre: g.dot(centre, centre) > 1.2).write(
        out("pyraminx-no-tips.tws"), ["Pyraminx without its tips: U R L B turn a vertex's layer."])
    g.Puzzle("fto", g.OCTA_V, g.OCTA_N, g.fto_moves()).write(
        out("fto.tws"), ["Face-turning octahedron: each of the 8 faces turns its outer third."])
    v, n = g.dodecahedron()
    g.Puzzle("megaminx", v, n, g.megaminx_moves(n)).write(
        out("megaminx.tws"), ["Megaminx: each of the 12 faces turns by a fifth."])
    g.Puzzle("4x4x4", g.CUBE_V, g.CUBE_N, g.cube_layers(4)).write(
        out("4x4x4.tws"), ["4x4x4: each face turns its outer layer (R) and its inner slice (2R);",
                           "centres of one colour are identical."])
    # Orbits in order: midges (12) before wings (24); x-centres (on the diagonals of a
    # face) before t-centres (beside its middle), as the pieces are found face by face.
    g.Puzzle("5x5x5", g.CUBE_V, g.CUBE_N, g.cube_layers(5)).write(
        out("5x5x5.tws"), ["5x5x5: each face turns its outer layer (R) and its second layer (2R);",
                           "the face centres stay fixed (a middle slice is a turn of the cube),",
                           "x-centres and t-centres of one colour are identical."],
        rename={"EDGE": "MIDGE", "EDGE2": "WING", "CENTER": "XCENTER", "CENTER2": "TCENTER"})


def event_pictures():
    """The drawings `cubedb scramble EVENT --format svg` makes, in the WCA program's
    colours: pyraminx, skewb and megaminx as it draws them, the FTO as two halves seen
    from above and below."""
    out = lambda name: os.path.join(HERE, name)
    # Pyraminx: F (opposite vertex B) pointing up, L R D laid out about it.
    tetra_normals = [g.scale(v, -1) for v in g.TETRA_V]
    pyra = g.Puzzle("pyraminx", g.TETRA_V, tetra_normals, g.pyraminx_moves())
    face = {name: i for i, name in enumerate(["D", "R", "L", "F"])}  # opposite U L R B
    side = 120
    height = side * math.sqrt(3) / 2
    scale = side / math.dist(g.TETRA_V[0], g.TETRA_V[1])
    maps = pictures.flower(pyra, face["F"], g.TETRA_V[0], (4 + side, 4 + 2 * height / 3), scale)
    colours = {face["F"]: "#00ff00", face["D"]: "#ffff00", face["L"]: "#ff0000", face["R"]: "#0000ff"}
    pictures.write_picture(pyra, out("pyraminx.picture"), ["Pyraminx: F in the middle, L R D about it."],
                           maps, (2 * side + 8, 2 * height + 8), colours)
    # Skewb: the cube net in the WCA's colours (white U, green F, red R; TNoodle's own
    # drawing holds it turned, its F the WCA's R).
    skewb = g.Puzzle("skewb-fixed", g.CUBE_V, g.CUBE_N, g.skewb_wca_turns())
    maps, size = pictures.cube_net(skewb, 60, 4)
    by_normal = {(0, 1, 0): "#ffffff", (0, -1, 0): "#ffff00", (1, 0, 0): "#ff0000",
                 (-1, 0, 0): "#ff8000", (0, 0, 1): "#00d800", (0, 0, -1): "#0000ff"}
    colours = {f: by_normal[tuple(round(x) for x in n)] for f, (n, _, _) in enumerate(skewb.faces)}
    pictures.write_picture(skewb, out("skewb-fixed.picture"), ["Skewb: the cube's net, U above F."],
                           maps, size, colours)
    # FTO: the upper four faces seen from above (front at the bottom), the lower four
    # from below (front at the top).
    fto = g.Puzzle("fto", g.OCTA_V, g.OCTA_N, g.fto_moves())
    half = 100
    maps = {}
    for f, (n, _, _) in enumerate(fto.faces):
        x0 = 4 + half if n[1] > 0 else 12 + 3 * half
        down = 1 if n[1] > 0 else -1
        maps[f] = (lambda x0, down: lambda p: (x0 + half * p[0], 4 + half + down * half * p[2]))(x0, down)
    # cubing.js's names and colours of the faces: with a vertex up, F the upper face in
    # front on the right, then L, U, R clockwise seen from above, and below them B, BR,
    # D, BL, each opposite F, L, U, R (bench/peers/fto-names.sh checks the naming
    # against cubing.js's FTO).
    cubing = {"UFR": "F", "UFL": "L", "UBL": "U", "UBR": "R",
              "DBL": "B", "DBR": "BR", "DFR": "D", "DFL": "BL"}
    palette = {"U": "#ffffff", "F": "#00d800", "R": "#ff0000", "D": "#ffff00",
               "B": "#0000ff", "L": "#8a1aff", "BL": "#ff8000", "BR": "#999999"}
    colours = {f: palette[cubing[g.corner_name(tuple(round(x) for x in n))]]
               for f, (n, _, _) in enumerate(fto.faces)}
    pictures.write_picture(fto, out("fto.picture"),
                           ["FTO: the upper half seen from above, the lower from below.",
                            "Its face turns and colours go by cubing.js's names of the faces (Name",
                            "lines: the definition's move, then the picture's)."],
                           maps, (16 + 4 * half, 8 + 2 * half), colours,
                           move_names={m[0]: cubing[m[0]] for m in fto.moves})
    # Megaminx: TNoodle's two flowers, U with F below it, and D seen from below with B
    # above it; its faces named from U (the definition's U) and F (the definition's F).
    v, n = g.dodecahedron()
    minx_moves = g.megaminx_moves(n)
    minx = g.Puzzle("megaminx", v, n, minx_moves)
    names = minx_faces(minx, [m[0] for m in minx_moves])
    cut = minx_moves[0][3]
    pochmann = [("R++", minx.faces[names["DBR"]][0], -4 * math.pi / 5, -cut, 99),
                ("D++", minx.faces[names["D"]][0], -4 * math.pi / 5, -cut, 99)]
    radius = 40
    scale = radius / math.dist(minx.faces[0][2], minx.faces[0][1][0])
    top = [vx for vx in minx.faces[names["U"]][1] if all(
        any(math.dist(vx, w) < 1e-9 for w in minx.faces[names[f]][1]) for f in ("BL", "BR"))][0]
    left = pictures.flower(minx, names["U"], top, (0, 0), scale)
    right = pictures.flower(minx, names["D"], minx.faces[names["B"]][2], (0, 0), scale)
    maps, width, height = side_by_side(minx, [left, right], 4)
    scheme = {"U": "#ffffff", "BL": "#ffcc00", "BR": "#0000b3", "R": "#dd0000", "F": "#006600",
              "L": "#8a1aff", "D": "#999999", "DR": "#ffffb3", "DBR": "#ff99ff", "B": "#71e600",
              "DBL": "#ff8433", "DL": "#88ddff"}
    colours = {names[f]: c for f, c in scheme.items()}
    definition_names = [m[0] for m in minx_moves]
    pictures.write_picture(minx, out("megaminx.picture"),
                           ["Megaminx: U with F below it; D seen from below, B above it.",
                            "R++ and D++ are Pochmann's turns (all but L, all but U, two fifths).",
                            "Its face turns go by the WCA program's names of the faces (Name lines:",
                            "the definition's move, then the picture's)."],
                           maps, (width, height), colours, extra_moves=pochmann,
                           move_names={definition_names[f]: name for name, f in names.items()})


def minx_faces(minx, definition_names):
    """The WCA program's names of the megaminx's faces (face index by name): U and F are
    the definition's; seen from above U, F L BL BR R run clockwise; the rest are their
    opposites."""
    names = {"U": definition_names.index("U"), "F": definition_names.index("F")}
    normal = lambda f: minx.faces[f][0]
    around = [f for f in range(12) if abs(g.dot(normal(f), normal(names["U"])) - 1 / math.sqrt(5)) < 1e-6]
    u = g.unit(g.sub(normal(names["F"]), g.scale(normal(names["U"]), g.dot(normal(names["F"]), normal(names["U"])))))
    w = g.cross(normal(names["U"]), u)
    # Clockwise seen from outside: decreasing angle about U's normal, from F.
    angle = lambda f: -math.atan2(g.dot(normal(f), w), g.dot(normal(f), u)) % (2 * math.pi)
    for name, f in zip(["F", "L", "BL", "BR", "R"], sorted(around, key=angle)):
        names[name] = f
    opposite = lambda f: max(range(12), key=lambda k: -g.dot(normal(k), normal(f)))
    for name, of in [("D", "U"), ("B", "F"), ("DBR", "L"), ("DBL", "R"), ("DR", "BL"), ("DL", "BR")]:
        names[name] = opposite(names[of])
    return names


def side_by_side(puzzle, flowers, gap):
    """Page maps of several flowers set in a row, each moved to start where the last
    ends: (face -> map, width, height)."""
    maps, x = {}, gap
    boxes = []
    for fl in flowers:
        points = [fl[f](p) for f in fl for p in puzzle.faces[f][1]]
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        boxes.append((min(xs), max(xs), min(ys), max(ys)))
    height = max(b[3] - b[2] for b in boxes)
    for fl, (x0, x1, y0, y1) in zip(flowers, boxes):
        dx, dy = x - x0, gap + (height - (y1 - y0)) / 2 - y0
        for f, m in fl.items():
            if f not in maps:
                maps[f] = (lambda m, dx, dy: lambda p: (m(p)[0] + dx, m(p)[1] + dy))(m, dx, dy)
        x += (x1 - x0) + gap
    return maps, x, height + 2 * gap


if __name__ == "__main__":
    main()
