//! The 48 symmetries of a cube about its centre, as signed permutation matrices (one +1 or
//! -1 in each row and column): shared by the Rubik's cube (whole-cube rotations and
//! reflections) and the Soma cube (orientations of pieces).

use std::ops::{Add, Mul};

/// A signed permutation matrix acting on column vectors `(x, y, z)`.
pub type Matrix = [[i8; 3]; 3];

/// The identity matrix.
pub const IDENTITY: Matrix = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];

/// All 48 signed permutation matrices: by the column of each row's non-zero entry (the
/// six permutations in lexicographic order), then by signs (bit `r` of a 3-bit counter
/// negates row `r`); the identity comes first.
pub fn signed_permutations() -> impl Iterator<Item = Matrix> {
    const PERMUTATIONS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    PERMUTATIONS.into_iter().flat_map(|perm| {
        (0..8u8).map(move |signs| {
            let mut m = [[0; 3]; 3];
            for (row, &col) in perm.iter().enumerate() {
                m[row][col] = if signs >> row & 1 == 1 { -1 } else { 1 };
            }
            m
        })
    })
}

/// The determinant: +1 for rotations, -1 for reflections.
pub fn determinant(m: &Matrix) -> i8 {
    m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
}

/// The product `a * b` (apply `b`, then `a`).
pub fn multiply(a: &Matrix, b: &Matrix) -> Matrix {
    std::array::from_fn(|r| std::array::from_fn(|c| (0..3).map(|k| a[r][k] * b[k][c]).sum()))
}

/// The image `m * v` of a vector with coordinates of any signed type.
pub fn apply<T>(m: &Matrix, v: [T; 3]) -> [T; 3]
where
    T: Copy + From<i8> + Add<Output = T> + Mul<Output = T>,
{
    std::array::from_fn(|r| (0..3).fold(T::from(0), |sum, c| sum + T::from(m[r][c]) * v[c]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forty_eight_distinct_matrices_half_of_them_rotations_forming_a_group() {
        let all: Vec<Matrix> = signed_permutations().collect();
        assert_eq!(all.len(), 48);
        assert_eq!(all[0], IDENTITY);
        let mut distinct = all.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), 48);
        assert_eq!(all.iter().filter(|m| determinant(m) == 1).count(), 24);
        for a in &all {
            for b in &all {
                assert!(all.contains(&multiply(a, b)));
            }
        }
        let m = all[13];
        assert_eq!(
            apply(&m, apply(&multiply(&m, &m), [1i32, 2, 3])),
            apply(&multiply(&m, &multiply(&m, &m)), [1, 2, 3])
        );
    }
}
