//! The numbered cube: its faces, the four rolls, and its 24 orientations, found by rolling
//! from the start orientation (nothing is typed in but the two rolling rules).

use std::sync::LazyLock;

/// Number of faces of the cube.
pub const FACES: usize = 6;
/// Number of orientations of the cube (proper rotations); found by rolling, checked in tests.
pub const ORIENTATIONS: usize = 24;
/// Number of roll directions.
pub const DIRECTIONS: usize = 4;

/// Face position facing row 1 (first number of the judge input).
pub const NEAR: usize = 0;
/// Face position facing the last row.
pub const FAR: usize = 1;
/// Face position on top.
pub const TOP: usize = 2;
/// Face position facing the last column.
pub const RIGHT: usize = 3;
/// Face position touching the board: its number is paid.
pub const BOTTOM: usize = 4;
/// Face position facing column `a`.
pub const LEFT: usize = 5;

/// A direction the cube rolls in. `index ^ 1` is the opposite direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Toward the last column (`h` on a chessboard).
    East = 0,
    /// Toward column `a`.
    West = 1,
    /// Toward the last row (`8` on a chessboard).
    North = 2,
    /// Toward row 1.
    South = 3,
}

impl Direction {
    /// All directions, by index.
    pub const ALL: [Direction; DIRECTIONS] = [
        Direction::East,
        Direction::West,
        Direction::North,
        Direction::South,
    ];

    /// The direction that undoes this one.
    pub fn opposite(self) -> Direction {
        Direction::ALL[self as usize ^ 1]
    }

    /// The four face positions a roll in this direction cycles: the face at `cycle[i]`
    /// moves to `cycle[i + 1]` (and the last to the first).
    ///
    /// The rules: rolling toward the last column, top -> right -> bottom -> left -> top;
    /// rolling toward the last row, top -> far -> bottom -> near -> top. The other two
    /// directions are these cycles run backwards.
    pub fn cycle(self) -> [usize; 4] {
        match self {
            Direction::East => [TOP, RIGHT, BOTTOM, LEFT],
            Direction::West => [TOP, LEFT, BOTTOM, RIGHT],
            Direction::North => [TOP, FAR, BOTTOM, NEAR],
            Direction::South => [TOP, NEAR, BOTTOM, FAR],
        }
    }
}

/// Which input face (index into the six judge numbers) is at each face position
/// (`NEAR`..`LEFT`): a cube orientation spelled out.
pub type Faces = [u8; FACES];

/// The start orientation: each number where the input puts it.
pub const START_FACES: Faces = [0, 1, 2, 3, 4, 5];

/// `faces` after one roll in `direction`.
pub fn roll_faces(faces: &Faces, direction: Direction) -> Faces {
    let cycle = direction.cycle();
    let mut next = *faces;
    for i in 0..4 {
        next[cycle[(i + 1) % 4]] = faces[cycle[i]];
    }
    next
}

/// The orientation table: every orientation reachable by rolling, numbered in breadth-first
/// order from the start orientation (index 0), with the roll transitions between them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrientationTable {
    /// `faces[o]`: the face layout of orientation `o`.
    pub faces: [Faces; ORIENTATIONS],
    /// `next[o][d]`: the orientation after rolling orientation `o` in direction `d`.
    pub next: [[u8; DIRECTIONS]; ORIENTATIONS],
    /// `bottom[o]`: which input face touches the board in orientation `o`.
    pub bottom: [u8; ORIENTATIONS],
}

impl OrientationTable {
    /// Derives the table by breadth-first search over rolls from [`START_FACES`].
    ///
    /// Panics if rolling reaches other than [`ORIENTATIONS`] layouts, which would mean the
    /// rolling rules are wrong (a test runs this).
    pub fn derive() -> OrientationTable {
        let mut found: Vec<Faces> = vec![START_FACES];
        let mut next = [[0u8; DIRECTIONS]; ORIENTATIONS];
        let mut done = 0;
        while done < found.len() {
            let faces = found[done];
            for direction in Direction::ALL {
                let rolled = roll_faces(&faces, direction);
                let index = match found.iter().position(|f| *f == rolled) {
                    Some(i) => i,
                    None => {
                        found.push(rolled);
                        found.len() - 1
                    }
                };
                assert!(
                    index < ORIENTATIONS,
                    "rolling reaches more than {ORIENTATIONS} orientations"
                );
                next[done][direction as usize] = index as u8;
            }
            done += 1;
        }
        assert_eq!(
            found.len(),
            ORIENTATIONS,
            "rolling reaches too few orientations"
        );
        let mut faces = [START_FACES; ORIENTATIONS];
        faces.copy_from_slice(&found);
        let bottom = std::array::from_fn(|o| faces[o][BOTTOM]);
        OrientationTable {
            faces,
            next,
            bottom,
        }
    }

    /// The orientation whose layout is `faces`, if rolling reaches it.
    pub fn index_of(&self, faces: &Faces) -> Option<u8> {
        self.faces.iter().position(|f| f == faces).map(|i| i as u8)
    }
}

/// The table, derived once per process.
pub static TABLE: LazyLock<OrientationTable> = LazyLock::new(OrientationTable::derive);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rolling_reaches_exactly_24_distinct_rotations() {
        let table = OrientationTable::derive();
        let mut seen = std::collections::HashSet::new();
        for faces in &table.faces {
            assert!(seen.insert(*faces), "duplicate orientation {faces:?}");
            // A permutation of the six faces...
            let mut sorted = *faces;
            sorted.sort_unstable();
            assert_eq!(sorted, START_FACES);
            // ...that keeps opposite faces opposite (a rotation, not a reflection alone).
            for (a, b) in [(NEAR, FAR), (TOP, BOTTOM), (RIGHT, LEFT)] {
                let (x, y) = (faces[a] as usize, faces[b] as usize);
                let opposite = |p: usize| [FAR, NEAR, BOTTOM, LEFT, TOP, RIGHT][p];
                assert_eq!(opposite(x), y, "{faces:?}");
            }
        }
        assert_eq!(seen.len(), ORIENTATIONS);
        assert_eq!(table.faces[0], START_FACES);
    }

    #[test]
    fn rolls_are_permutations_undone_by_their_opposite() {
        let table = OrientationTable::derive();
        for direction in Direction::ALL {
            let mut image: Vec<u8> = (0..ORIENTATIONS)
                .map(|o| table.next[o][direction as usize])
                .collect();
            image.sort_unstable();
            assert_eq!(image, (0..ORIENTATIONS as u8).collect::<Vec<_>>());
            for o in 0..ORIENTATIONS {
                let there = table.next[o][direction as usize] as usize;
                assert_eq!(table.next[there][direction.opposite() as usize] as usize, o);
                // Four rolls the same way bring the cube back.
                let mut p = o;
                for _ in 0..4 {
                    p = table.next[p][direction as usize] as usize;
                }
                assert_eq!(p, o);
                assert_eq!(
                    table.faces[there],
                    roll_faces(&table.faces[o], direction),
                    "table agrees with the rule"
                );
            }
        }
    }

    #[test]
    fn the_rules_as_stated() {
        // Toward column h: the old top becomes the right face, left comes on top.
        let east = roll_faces(&START_FACES, Direction::East);
        assert_eq!(east[RIGHT], START_FACES[TOP]);
        assert_eq!(east[BOTTOM], START_FACES[RIGHT]);
        assert_eq!(east[TOP], START_FACES[LEFT]);
        assert_eq!((east[NEAR], east[FAR]), (0, 1));
        // Toward row 8: the old top becomes the far face, near comes on top.
        let north = roll_faces(&START_FACES, Direction::North);
        assert_eq!(north[FAR], START_FACES[TOP]);
        assert_eq!(north[BOTTOM], START_FACES[FAR]);
        assert_eq!(north[TOP], START_FACES[NEAR]);
        assert_eq!((north[RIGHT], north[LEFT]), (3, 5));
        assert_eq!(*TABLE, OrientationTable::derive());
        for o in 0..ORIENTATIONS as u8 {
            assert_eq!(TABLE.index_of(&TABLE.faces[o as usize]), Some(o));
        }
    }
}
