//! The board: its size, blocked squares, which rolls each square allows, and square names.
//!
//! Square names: the column in spreadsheet letters (`a`..`z`, then `aa`, `ab`, ..., `az`,
//! `ba`, ...), then the row as a decimal number from 1. On the default 8x8 board these are
//! exactly the chessboard names the judge uses (`a1`..`h8`); on larger boards, e.g. `aa10`
//! is column 27, row 10. Row 1 is the near edge, column `a` the left edge.

use super::cube::{Direction, DIRECTIONS};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// Largest number of squares a board may have (so that `square * 24 + orientation` fits
/// in a `u32`, and memory stays around 5 bytes per state: ~500 MB at this size).
pub const MAX_SQUARES: u64 = 1 << 22;

/// Width and height of a board, as given by `--board WxH` (parsing checks both are at
/// least 1 and the board has at most [`MAX_SQUARES`] squares).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BoardSize {
    /// Number of columns.
    pub width: u32,
    /// Number of rows.
    pub height: u32,
}

impl BoardSize {
    /// The judge's chessboard.
    pub const CHESS: BoardSize = BoardSize {
        width: 8,
        height: 8,
    };

    /// Number of squares.
    pub fn squares(self) -> usize {
        self.width as usize * self.height as usize
    }

    /// The name of square `square` (row-major index from `a1`).
    pub fn name(self, square: u32) -> String {
        let mut s = String::new();
        push_square_name(&mut s, square, self.width);
        s
    }

    /// Parses a square name, checking it is on this board.
    pub fn parse_square(self, text: &str) -> Result<u32, String> {
        let off_board = || {
            format!(
                "{} is not a square of the {self} board (columns a..{}, rows 1..{})",
                crate::text::quote(text),
                column_name(self.width - 1),
                self.height
            )
        };
        let split = text
            .find(|c: char| !c.is_ascii_lowercase())
            .unwrap_or(text.len());
        let (letters, digits) = text.split_at(split);
        // Seven letters already name more columns than any allowed board has.
        if letters.is_empty()
            || letters.len() > 7
            || digits.is_empty()
            || digits.len() > 9
            || !digits.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(off_board());
        }
        let column = letters
            .bytes()
            .fold(0u64, |n, b| n * 26 + (b - b'a' + 1) as u64)
            - 1;
        let row: u64 = digits.parse().map_err(|_| off_board())?;
        if column >= self.width as u64 || row == 0 || row > self.height as u64 {
            return Err(off_board());
        }
        Ok(((row - 1) * self.width as u64 + column) as u32)
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

/// A `--board` value that is not `WxH` with a sensible size.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("board size {}: {problem}", crate::text::quote(text))]
pub struct BoardSizeError {
    /// The value given.
    pub text: String,
    /// What is wrong with it.
    pub problem: String,
}

impl FromStr for BoardSize {
    type Err = BoardSizeError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let error = |problem: &str| BoardSizeError {
            text: text.to_string(),
            problem: problem.to_string(),
        };
        let (w, h) = text
            .split_once(['x', 'X'])
            .ok_or_else(|| error("expected WIDTHxHEIGHT, e.g. 8x8 or 1000x1000"))?;
        let number = |s: &str| {
            s.parse::<u32>()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| error("width and height must be whole numbers from 1"))
        };
        let size = BoardSize {
            width: number(w)?,
            height: number(h)?,
        };
        if size.width as u64 * size.height as u64 > MAX_SQUARES {
            return Err(error(&format!(
                "more than {MAX_SQUARES} squares (2048x2048) is not supported"
            )));
        }
        Ok(size)
    }
}

/// Appends the column letters of `column` (0-based): a..z, aa..az, ba.., ...
pub fn push_column_name(out: &mut String, column: u32) {
    let mut letters = [0u8; 8];
    let mut n = column as u64 + 1;
    let mut len = 0;
    while n > 0 {
        n -= 1;
        letters[len] = b'a' + (n % 26) as u8;
        len += 1;
        n /= 26;
    }
    out.extend(letters[..len].iter().rev().map(|&b| b as char));
}

/// The column letters of `column` (0-based).
pub fn column_name(column: u32) -> String {
    let mut s = String::new();
    push_column_name(&mut s, column);
    s
}

/// Appends the name of `square` on a board `width` columns wide.
#[inline]
pub fn push_square_name(out: &mut String, square: u32, width: u32) {
    let (row, column) = (square / width + 1, square % width);
    if column < 26 && row < 10 {
        // The judge's chessboard, fast.
        out.push((b'a' + column as u8) as char);
        out.push((b'0' + row as u8) as char);
    } else {
        push_column_name(out, column);
        let mut digits = [0u8; 10];
        let mut n = row;
        let mut len = 0;
        while n > 0 {
            digits[len] = b'0' + (n % 10) as u8;
            len += 1;
            n /= 10;
        }
        out.extend(digits[..len].iter().rev().map(|&b| b as char));
    }
}

/// A board: its size, its blocked squares, and for each square which rolls stay on the
/// board and off blocked squares.
#[derive(Debug, Clone)]
pub struct Board {
    size: BoardSize,
    blocked: Vec<bool>,
    /// `moves[square]`: bit `d` set if rolling in direction `d` is allowed.
    moves: Vec<u8>,
}

impl Board {
    /// An open board of `size` (no blocked squares).
    pub fn open(size: BoardSize) -> Board {
        Board::with_blocked(size, &[])
    }

    /// A board of `size` where the cube may not enter the `blocked` squares.
    ///
    /// Panics if `size` is empty or larger than [`MAX_SQUARES`] (sizes parsed from text
    /// are checked), or if a blocked square is off the board (parsed names are checked).
    pub fn with_blocked(size: BoardSize, blocked: &[u32]) -> Board {
        assert!(
            size.width >= 1 && size.height >= 1 && size.squares() as u64 <= MAX_SQUARES,
            "unsupported board size {size}"
        );
        let squares = size.squares();
        let mut is_blocked = vec![false; squares];
        for &square in blocked {
            is_blocked[square as usize] = true;
        }
        let (w, h) = (size.width as usize, size.height as usize);
        let moves = (0..squares)
            .map(|square| {
                let (row, column) = (square / w, square % w);
                let mut mask = 0u8;
                for direction in Direction::ALL {
                    let target = match direction {
                        Direction::East => (column + 1 < w).then(|| square + 1),
                        Direction::West => (column > 0).then(|| square - 1),
                        Direction::North => (row + 1 < h).then(|| square + w),
                        Direction::South => (row > 0).then(|| square - w),
                    };
                    if target.is_some_and(|t| !is_blocked[t]) {
                        mask |= 1 << direction as u8;
                    }
                }
                mask
            })
            .collect();
        Board {
            size,
            blocked: is_blocked,
            moves,
        }
    }

    /// The board's size.
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// Whether the cube may not enter `square`.
    pub fn is_blocked(&self, square: u32) -> bool {
        self.blocked[square as usize]
    }

    /// Bit mask of the directions a cube on `square` may roll in.
    #[inline]
    pub fn moves(&self, square: u32) -> u8 {
        self.moves[square as usize]
    }

    /// How a square index changes when rolling in each direction (wrapping arithmetic).
    pub fn steps(&self) -> [u32; DIRECTIONS] {
        let w = self.size.width;
        [1, 1u32.wrapping_neg(), w, w.wrapping_neg()]
    }

    /// The square reached from `square` by rolling in `direction`, if allowed.
    pub fn neighbour(&self, square: u32, direction: Direction) -> Option<u32> {
        (self.moves(square) & (1 << direction as u8) != 0)
            .then(|| square.wrapping_add(self.steps()[direction as usize]))
    }
}

/// A problem in a blocked-squares file, with its line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}: {problem}")]
pub struct BlockedFileError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub problem: String,
}

/// The text of a blocked-squares file, or the line where it stops being UTF-8.
pub fn blocked_file_text(bytes: &[u8]) -> Result<&str, BlockedFileError> {
    crate::text::utf8_or_bad_line(bytes).map_err(|line| BlockedFileError {
        line,
        problem: "not valid UTF-8 text".into(),
    })
}

/// Parses a blocked-squares file: square names separated by whitespace, `#` starts a
/// comment that runs to the end of the line. Repeated squares are fine.
pub fn parse_blocked(text: &str, size: BoardSize) -> Result<Vec<u32>, BlockedFileError> {
    let mut squares = Vec::new();
    for (index, line) in text.lines().enumerate() {
        parse_blocked_line(line, index + 1, size, &mut squares)?;
    }
    Ok(squares)
}

/// [`parse_blocked`] reading from `reader` line by line, with the line cap and UTF-8
/// check every input has ([`crate::judge::MAX_LINE`]): a file with no line end (a
/// device, `/dev/zero`) stops at the cap instead of being read whole.
pub fn read_blocked(
    reader: impl std::io::BufRead,
    size: BoardSize,
) -> Result<Vec<u32>, BlockedFileError> {
    let mut input = crate::judge::JudgeInput::new(reader);
    let mut squares = Vec::new();
    let mut last = 0;
    loop {
        match input.next_line() {
            Ok(Some((line, text))) => {
                last = line;
                parse_blocked_line(text, line, size, &mut squares)?
            }
            Ok(None) => return Ok(squares),
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                // Too long, or not UTF-8: the message says which (the reader names
                // lines itself; here the line is the one after the last read).
                let problem = e.to_string();
                let problem = problem
                    .split_once(" is ")
                    .map_or(problem.clone(), |(_, rest)| format!("it is {rest}"));
                return Err(BlockedFileError {
                    line: last + 1,
                    problem,
                });
            }
            Err(e) => {
                return Err(BlockedFileError {
                    line: last + 1,
                    problem: format!("cannot read it: {e}"),
                })
            }
        }
    }
}

/// The squares named on one line (before any `#`), appended to `squares`.
fn parse_blocked_line(
    line: &str,
    number: usize,
    size: BoardSize,
    squares: &mut Vec<u32>,
) -> Result<(), BlockedFileError> {
    let content = line.split('#').next().unwrap_or("");
    for word in content.split_whitespace() {
        let square = size
            .parse_square(word)
            .map_err(|problem| BlockedFileError {
                line: number,
                problem,
            })?;
        squares.push(square);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chessboard_names_are_the_judges() {
        let size = BoardSize::CHESS;
        assert_eq!(size.name(0), "a1");
        assert_eq!(size.name(7), "h1");
        assert_eq!(size.name(12), "e2");
        assert_eq!(size.name(63), "h8");
        for square in 0..64 {
            assert_eq!(size.parse_square(&size.name(square)), Ok(square));
        }
        for bad in [
            "i1", "a0", "a9", "A1", "e", "2", "", "e2x", "-e2", "e-2", "ee2",
        ] {
            assert!(size.parse_square(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn big_board_names_round_trip() {
        assert_eq!(column_name(0), "a");
        assert_eq!(column_name(25), "z");
        assert_eq!(column_name(26), "aa");
        assert_eq!(column_name(51), "az");
        assert_eq!(column_name(52), "ba");
        assert_eq!(column_name(701), "zz");
        assert_eq!(column_name(702), "aaa");
        let size: BoardSize = "1000x1000".parse().expect("valid size");
        assert_eq!(size.name(26 + 9 * 1000), "aa10");
        for square in (0..1_000_000).step_by(997).chain([999_999]) {
            assert_eq!(size.parse_square(&size.name(square)), Ok(square));
        }
        assert_eq!(size.name(999_999), "all1000");
        assert!(size.parse_square("alm1").is_err(), "column 1001 is off");
        assert!(size.parse_square("a1001").is_err());
        let tall = BoardSize {
            width: 1,
            height: 4_000_000,
        };
        assert_eq!(tall.name(3_999_999), "a4000000");
    }

    #[test]
    fn board_sizes_parse_with_limits() {
        assert_eq!("8x8".parse(), Ok(BoardSize::CHESS));
        assert_eq!(
            "3X5".parse(),
            Ok(BoardSize {
                width: 3,
                height: 5
            })
        );
        for bad in ["8", "0x8", "8x0", "x8", "-1x3", "8x8x8", "2049x2048", "axb"] {
            assert!(bad.parse::<BoardSize>().is_err(), "{bad}");
        }
        assert!("2048x2048".parse::<BoardSize>().is_ok());
    }

    #[test]
    fn moves_respect_edges_and_blocks() {
        let size: BoardSize = "3x2".parse().expect("valid size");
        let board = Board::with_blocked(size, &[4]);
        // a1: east to b1, north to a2.
        assert_eq!(board.neighbour(0, Direction::East), Some(1));
        assert_eq!(board.neighbour(0, Direction::North), Some(3));
        assert_eq!(board.neighbour(0, Direction::West), None);
        assert_eq!(board.neighbour(0, Direction::South), None);
        // b1 may not go north into the blocked b2.
        assert_eq!(board.neighbour(1, Direction::North), None);
        assert_eq!(board.neighbour(5, Direction::West), None);
        assert_eq!(board.neighbour(5, Direction::South), Some(2));
        assert!(board.is_blocked(4));
    }

    #[test]
    fn blocked_files_allow_comments_and_name_bad_lines() {
        let size = BoardSize::CHESS;
        let text = "# walls\nd4 d5  # centre\n\n e4\te5\n";
        let mut squares = parse_blocked(text, size).expect("valid file");
        squares.sort_unstable();
        assert_eq!(squares, [27, 28, 35, 36]);
        let err = parse_blocked("a1\n# x\nb2 z9\n", size).expect_err("z9 is off the board");
        assert_eq!(err.line, 3);
        assert!(err.to_string().contains("`z9`"), "{err}");
    }
}
