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

use crate::judge::{AnswerWriter, InputError};
use thiserror::Error;

/// Why answering a batch stopped.
#[derive(Debug, Error)]
pub enum WalkError {
    /// The input is malformed; answers before the bad case were written.
    #[error(transparent)]
    Input(#[from] InputError),
    /// Blocked squares wall the end off from the start; answers before it were written.
    #[error("case {case} (line {line}): no route from {start} to {end}: blocked squares wall them apart")]
    Unreachable {
        /// 1-based case number.
        case: usize,
        /// 1-based input line.
        line: usize,
        /// Start square name.
        start: String,
        /// End square name.
        end: String,
    },
    /// Writing the output failed.
    #[error("writing output: {0}")]
    Output(#[from] std::io::Error),
}

/// Answers a whole judge input on `board`, writing each answer line as it is found. On bad
/// input or an unreachable end, the answers before that case are written and the error is
/// returned. Returns the number of cases answered.
pub fn answer_judge_input(
    input: &str,
    board: &Board,
    out: impl std::io::Write,
) -> Result<usize, WalkError> {
    let mut writer = AnswerWriter::new(out);
    let mut walker = Walker::new(board);
    let mut squares = Vec::new();
    let width = board.size().width;
    let mut answered = 0;
    for located in parse_judge_input(input, board) {
        let located = match located {
            Ok(l) => l,
            Err(e) => {
                writer.flush()?;
                return Err(e.into());
            }
        };
        let Some(cost) = walker.solve_into(&located.case, &mut squares) else {
            writer.flush()?;
            let size = board.size();
            return Err(WalkError::Unreachable {
                case: located.number,
                line: located.line,
                start: size.name(located.case.start),
                end: size.name(located.case.end),
            });
        };
        judge::format_answer(writer.buffer(), cost, &squares, width);
        writer.done()?;
        answered += 1;
    }
    writer.flush()?;
    Ok(answered)
}
