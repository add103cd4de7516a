//! The Rubik's cube 3x3x3: optimal solving in quarter or half turns, near-optimal solving,
//! partial goals, subgroups, and the ZOJ 2477 "Magic Cube" judge format.
//!
//! Folders by solver family, each importing only those above it in this list:
//! - [`model`]: the cube, moves, metrics, facelets, notation, symmetries, group membership;
//! - [`coord`]: coordinates shared by the table families (permutation ranks, the
//!   symmetry-reduced flip-slice-twist coordinates, projections numbered by BFS);
//! - [`near`]: every position within 7 quarter turns, and IDA* on whole cubes;
//! - [`optimal`]: pattern databases and the optimal IDA* over them (`docs/rubik-optimal.md`);
//! - [`twophase`]: near-optimal solving in microseconds (`docs/rubik-twophase.md`);
//! - [`goals`]: cross, xcross, F2L pair, first block, EO, sticker masks, partial cubes;
//! - [`subgroup`]: the `<R,U>` table;
//! - [`api`]: the faces every front end calls (one per capability);
//!
//! and the judge format of ZOJ 2477 in [`judge`] and below.

pub mod api;
pub mod coord;
pub mod goals;
pub mod judge;
pub mod model;
pub mod near;
pub mod optimal;
pub mod subgroup;
pub mod twophase;

pub use judge::{parse_judge_input, Query};
pub use model::cube::{Cube, CubeError, Face, Move};
pub use model::facelets::{facelet_string, parse_facelets, StickerError, Unsolvable};
pub use model::metric::{Metric, MAX_SOLUTION};
pub use model::notation::{
    format_moves, merge_quarter_pairs, parse_move_set, parse_moves, NotationError,
};
pub use model::solution::Solved;
pub use near::solver::{Options, SearchSolver, TableSolver};
pub use near::table::NearTable;
pub use optimal::preset::{Pdbs, Preset};
pub use optimal::search::{IterationStart, KorfSolver};

use crate::engine::Solve;
use crate::judge::{tied_input, AnswerWriter, JudgeError};
use std::cell::RefCell;
use std::rc::Rc;

/// The judge's limit: positions needing more quarter turns are answered `-1`.
pub const JUDGE_LIMIT: u32 = 5;

/// Cases solved together (in parallel) before their answers are written.
const BATCH: usize = 2048;

/// Answers a whole judge input as it arrives, by `solver` (made for quarter turns and the
/// judge's depth limit). Cases are parsed in order and solved in parallel batches (a batch ends
/// early unless the next case has wholly arrived, so interactive use is answered at
/// once); answers are written in order. A net that is no solvable cube is answered `-1`
/// with a warning naming the case and the rule written to `warnings`. On malformed input
/// the answers before the bad case are written and the error is returned.
pub fn answer_judge_input(
    input: impl std::io::Read,
    solver: &(impl Solve<Query = Cube, Answer = Solved> + Sync),
    out: impl std::io::Write,
    mut warnings: impl std::io::Write,
) -> Result<usize, JudgeError> {
    let writer = Rc::new(RefCell::new(AnswerWriter::new(out)));
    let mut input = tied_input(input, &writer);
    let mut parser = judge::JudgeParser::default();
    let mut answered = 0;
    let result = loop {
        let mut batch = Vec::with_capacity(BATCH);
        let mut stop = None;
        while batch.len() < BATCH
            && (batch.is_empty() || input.has_buffered_tokens(model::facelets::STICKERS))
        {
            match parser.next(&mut input) {
                Ok(Some(q)) => batch.push(q),
                Ok(None) => {
                    stop = Some(Ok(()));
                    break;
                }
                Err(e) => {
                    stop = Some(Err(e));
                    break;
                }
            }
        }
        if let Err(e) = answer_batch(&batch, solver, &writer, &mut warnings) {
            break Err(e);
        }
        answered += batch.len();
        match stop {
            Some(Ok(())) => break Ok(answered),
            Some(Err(e)) => break Err(e),
            None => {}
        }
    };
    crate::judge::finish_batch(&writer, result)
}

/// Solves one batch in parallel and appends its answers in order; a net that is no cube
/// gets its warning, written after the answers before it. A warning that cannot be
/// written is dropped: warnings never cost answers.
fn answer_batch<W: std::io::Write>(
    batch: &[Query],
    solver: &(impl Solve<Query = Cube, Answer = Solved> + Sync),
    writer: &RefCell<AnswerWriter<W>>,
    warnings: &mut impl std::io::Write,
) -> Result<(), JudgeError> {
    use rayon::prelude::*;
    let answers: Vec<String> = batch
        .par_iter()
        .map(|query| {
            let mut text = String::new();
            let moves = match &query.cube {
                Ok(cube) => solver.solve(cube).moves,
                Err(_) => None,
            };
            judge::format_answer(&mut text, moves.as_deref());
            text
        })
        .collect();
    let mut writer = writer.borrow_mut();
    for (query, answer) in batch.iter().zip(answers) {
        if let Err(rule) = &query.cube {
            writer.flush().map_err(JudgeError::Output)?;
            let _ = writeln!(
                warnings,
                "cubedb: warning: case {} (line {}): not a solvable cube: {rule}; answered -1",
                query.case, query.line
            )
            .and_then(|()| warnings.flush());
        }
        writer.buffer().push_str(&answer);
        writer.done().map_err(JudgeError::Output)?;
    }
    Ok(())
}
