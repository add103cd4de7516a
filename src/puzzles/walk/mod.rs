//! Cube on the walk (Timus 1016): a cube with a number on each face rolls over a board;
//! find a route between two squares with the least sum of the numbers that touch the board.
//!
//! - [`cube`]: faces, rolls, and the 24 orientations derived from rolling;
//! - [`board`]: board sizes, blocked squares, square names beyond `h8`;
//! - [`solver`]: Dijkstra's algorithm (with an A* potential) over (square, orientation),
//!   with twelve FIFO queues instead of a heap;
//! - [`judge`]: the judge's input and output format.
//!
//! No tables: each case is a search over `squares * 24` states (1,536 on the chessboard).

pub mod board;
pub mod cube;
pub mod judge;
pub mod solver;

pub use board::{Board, BoardSize};
pub use judge::{parse_judge_input, Located};
pub use solver::{Case, Route, Walker};

use crate::judge::{InputError, JudgeError, JudgeInput};

/// Answers a whole judge input on `board` as it arrives, writing each answer line as it is
/// found. On bad input, or an end square walled off from the start
/// ([`JudgeError::Unanswerable`]), the answers before that case are written and the error
/// is returned. Returns the number of cases answered.
pub fn answer_judge_input(
    input: impl std::io::BufRead,
    board: &Board,
    out: impl std::io::Write,
) -> Result<usize, JudgeError> {
    let mut walker = Walker::new(board);
    let mut squares = Vec::new();
    let size = board.size();
    crate::judge::answer_each(
        input,
        out,
        |input: &mut JudgeInput<_>, number| judge::parse_next(input, number, board),
        |located, buffer| {
            let Some(cost) = walker.solve_into(&located.case, &mut squares) else {
                return Err(JudgeError::Unanswerable(InputError {
                    what: judge::WHAT,
                    case: located.number,
                    line: located.line,
                    problem: format!(
                        "no route from {} to {}: blocked squares wall them apart",
                        size.name(located.case.start),
                        size.name(located.case.end)
                    ),
                }));
            };
            judge::format_answer(buffer, cost, &squares, size.width);
            Ok(())
        },
    )
}
