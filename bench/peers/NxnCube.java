// Our code (no peer code): an N x N x N cube of stickers for the peer drivers in this folder
// (Tpr444Bench, Cube555Bench). It reads WCA notation, gives the facelet string the peers read,
// and checks that a peer's answer solves the cube.
//
// Notation read: R U F L D B (outer layer), Rw (2 layers), 3Rw (layers 1..3), r (= Rw, SiGN),
// 3r (= 3Rw), 2R (the second layer alone), x y z (whole cube); suffix 2, ', 2' or 3.
// Facelets: URFDLB faces, each row by row, in the order Kociemba, min2phase, TPR and cube555 use
// (U from its back-left corner, R from its top-front corner, F from its top-left corner, D from
// its front-left corner, L from its top-back corner, B from its top-right corner).
import java.util.ArrayList;
import java.util.List;

final class NxnCube {
    static final String FACES = "URFDLB";
    // Outward normal of each face, in (x: L->R, y: D->U, z: B->F).
    private static final int[][] NORMAL = {
        {0, 1, 0}, {1, 0, 0}, {0, 0, 1}, {0, -1, 0}, {-1, 0, 0}, {0, 0, -1}};

    final int n;
    byte[] f;
    // perm[face][layer-1] = sticker permutation of one clockwise quarter turn of that single layer:
    // new[perm[i]] = old[i].
    private final int[][][] perm;

    NxnCube(int n) {
        this.n = n;
        int count = 6 * n * n;
        f = new byte[count];
        int[][] point = new int[count][];
        for (int face = 0; face < 6; face++) {
            for (int r = 0; r < n; r++) {
                for (int c = 0; c < n; c++) {
                    int i = (face * n + r) * n + c;
                    f[i] = (byte) face;
                    point[i] = stickerPoint(face, r, c);
                }
            }
        }
        perm = new int[6][n][count];
        for (int face = 0; face < 6; face++) {
            int[] u = NORMAL[face];
            for (int layer = 1; layer <= n; layer++) {
                int[] p = perm[face][layer - 1];
                for (int i = 0; i < count; i++) {
                    if (depth(point[i], u) != layer) {
                        p[i] = i;
                        continue;
                    }
                    int[] v = point[i];
                    int dot = u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
                    // Clockwise seen from the face: a quarter turn of -90 degrees about u.
                    int[] cross = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
                    int[] w = {u[0] * dot - cross[0], u[1] * dot - cross[1], u[2] * dot - cross[2]};
                    p[i] = find(point, w);
                }
            }
        }
    }

    private static int find(int[][] point, int[] w) {
        for (int j = 0; j < point.length; j++) {
            if (point[j][0] == w[0] && point[j][1] == w[1] && point[j][2] == w[2]) {
                return j;
            }
        }
        throw new IllegalStateException("no sticker at the rotated point");
    }

    // The sticker's centre in doubled coordinates: cubie coordinate c -> 2c - (n-1) on the two
    // axes along the face, +-n on the face's normal.
    private int[] stickerPoint(int face, int r, int c) {
        int m = n - 1;
        int x, y, z;
        switch (face) {
            case 0: x = c; y = m; z = r; break;            // U
            case 1: x = m; y = m - r; z = m - c; break;    // R
            case 2: x = c; y = m - r; z = m; break;        // F
            case 3: x = c; y = 0; z = m - r; break;        // D
            case 4: x = 0; y = m - r; z = c; break;        // L
            default: x = m - c; y = m - r; z = 0; break;   // B
        }
        int[] p = {2 * x - m, 2 * y - m, 2 * z - m};
        int[] u = NORMAL[face];
        for (int a = 0; a < 3; a++) {
            if (u[a] != 0) {
                p[a] = u[a] * n;
            }
        }
        return p;
    }

    // Layer (1 = the face's own layer) of the cubie carrying the sticker at p, counted from the
    // face with normal u.
    private int depth(int[] p, int[] u) {
        int a = u[0] != 0 ? 0 : u[1] != 0 ? 1 : 2;
        int q = Math.max(-(n - 1), Math.min(n - 1, p[a]));
        return u[a] > 0 ? (n - 1 - q) / 2 + 1 : (q + n - 1) / 2 + 1;
    }

    private void turnLayer(int face, int layer, int quarters) {
        int[] p = perm[face][layer - 1];
        for (int t = 0; t < quarters; t++) {
            byte[] g = new byte[f.length];
            for (int i = 0; i < f.length; i++) {
                g[p[i]] = f[i];
            }
            f = g;
        }
    }

    /** One parsed move: face index, layers [lo, hi], clockwise quarter turns, rotation or not. */
    static final class Move {
        final int face, lo, hi, quarters;
        final boolean rotation;
        Move(int face, int lo, int hi, int quarters, boolean rotation) {
            this.face = face; this.lo = lo; this.hi = hi; this.quarters = quarters; this.rotation = rotation;
        }
    }

    Move parse(String tok) {
        int i = 0;
        int prefix = 0;
        while (i < tok.length() && Character.isDigit(tok.charAt(i))) {
            prefix = prefix * 10 + (tok.charAt(i) - '0');
            i++;
        }
        if (i >= tok.length()) {
            throw new IllegalArgumentException("bad move: " + tok);
        }
        char c = tok.charAt(i++);
        boolean wide = false;
        if (i < tok.length() && tok.charAt(i) == 'w') {
            wide = true;
            i++;
        }
        int amount = 1;
        if (i < tok.length() && Character.isDigit(tok.charAt(i))) {
            amount = tok.charAt(i) - '0';
            i++;
        }
        boolean prime = false;
        if (i < tok.length() && tok.charAt(i) == '\'') {
            prime = true;
            i++;
        }
        if (i != tok.length()) {
            throw new IllegalArgumentException("bad move: " + tok);
        }
        int quarters = ((prime ? -amount : amount) % 4 + 4) % 4;
        int face, lo, hi;
        boolean rotation = false;
        if ("xyz".indexOf(c) >= 0) {
            if (prefix != 0 || wide) {
                throw new IllegalArgumentException("bad move: " + tok);
            }
            face = "xyz".indexOf(c) == 0 ? 1 : "xyz".indexOf(c) == 1 ? 0 : 2;
            lo = 1;
            hi = n;
            rotation = true;
        } else if (FACES.indexOf(c) >= 0) {
            face = FACES.indexOf(c);
            if (wide) {
                lo = 1;
                hi = prefix == 0 ? 2 : prefix;
            } else if (prefix != 0) {
                lo = hi = prefix;
            } else {
                lo = hi = 1;
            }
        } else if ("urfdlb".indexOf(c) >= 0 && !wide) {
            face = "urfdlb".indexOf(c);
            lo = 1;
            hi = prefix == 0 ? 2 : prefix;
        } else {
            throw new IllegalArgumentException("bad move: " + tok);
        }
        if (hi > n || lo < 1) {
            throw new IllegalArgumentException("move deeper than the cube: " + tok);
        }
        return new Move(face, lo, hi, quarters, rotation);
    }

    static List<String> tokens(String alg) {
        List<String> out = new ArrayList<>();
        for (String t : alg.trim().split("\\s+")) {
            if (!t.isEmpty()) {
                out.add(t);
            }
        }
        return out;
    }

    void apply(Move m) {
        for (int layer = m.lo; layer <= m.hi; layer++) {
            turnLayer(m.face, layer, m.quarters);
        }
    }

    void apply(String alg) {
        for (String t : tokens(alg)) {
            apply(parse(t));
        }
    }

    /** Moves that are not whole-cube rotations (the outer-block turn metric). */
    int countTurns(String alg) {
        int k = 0;
        for (String t : tokens(alg)) {
            if (!parse(t).rotation) {
                k++;
            }
        }
        return k;
    }

    String facelets() {
        StringBuilder sb = new StringBuilder(f.length);
        for (byte b : f) {
            sb.append(FACES.charAt(b));
        }
        return sb.toString();
    }

    void setFacelets(String s) {
        if (s.length() != f.length) {
            throw new IllegalArgumentException("facelet string of length " + s.length());
        }
        for (int i = 0; i < f.length; i++) {
            f[i] = (byte) FACES.indexOf(s.charAt(i));
        }
    }

    /** Every face of one colour (in whatever orientation). */
    boolean isSolved() {
        int per = n * n;
        for (int face = 0; face < 6; face++) {
            for (int i = 1; i < per; i++) {
                if (f[face * per + i] != f[face * per]) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * On odd cubes, turns the whole cube so that the U centre is on U and the F centre on F (the
     * same puzzle state, as cube555 reads it). Returns the rotation applied.
     */
    String orientCentres() {
        if (n % 2 == 0) {
            return "";
        }
        int per = n * n;
        int mid = per / 2;
        String[] first = {"", "x", "x2", "x'", "z", "z'"};
        String[] second = {"", "y", "y2", "y'"};
        byte[] saved = f.clone();
        for (String a : first) {
            for (String b : second) {
                f = saved.clone();
                String rot = (a + " " + b).trim();
                apply(rot);
                if (f[mid] == 0 && f[2 * per + mid] == 2) {
                    return rot;
                }
            }
        }
        f = saved;
        throw new IllegalStateException("centres do not form a cube");
    }

    /** The inverse of an alg (moves reversed, each inverted). */
    static String invert(String alg) {
        List<String> t = tokens(alg);
        StringBuilder sb = new StringBuilder();
        for (int i = t.size() - 1; i >= 0; i--) {
            String m = t.get(i);
            String inv;
            if (m.endsWith("2'")) {
                inv = m.substring(0, m.length() - 1);
            } else if (m.endsWith("2")) {
                inv = m;
            } else if (m.endsWith("'")) {
                inv = m.substring(0, m.length() - 1);
            } else if (m.endsWith("3")) {
                inv = m.substring(0, m.length() - 1);
            } else {
                inv = m + "'";
            }
            if (sb.length() > 0) {
                sb.append(' ');
            }
            sb.append(inv);
        }
        return sb.toString();
    }
}
