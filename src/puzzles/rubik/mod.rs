//! The Rubik's cube 3x3x3 (ZOJ 2477 "Magic Cube"), optimal in quarter or half turns.
//!
//! Three parts, each a folder, re-exported here under their old paths:
//! - [`model`]: the cube model and notations: [`cube`] (cubie-level positions, the 18
//!   face turns, validity rules), [`facelets`] (sticker geometry, facelet strings, the ZOJ
//!   net), [`notation`] (Singmaster sequences), [`symmetry`] (whole-cube rotations and
//!   reflections), [`group`] (exact membership in the group some moves generate);
//! - [`tables`]: coordinates and tables: [`coord`] (permutation ranks, the position key),
//!   [`phase1`] (the symmetry-reduced flip-slice-twist coset coordinates), [`pdb`]
//!   (pattern databases), [`near`] (every position within a few quarter turns), [`ru`]
//!   (the `<R,U>` subgroup), [`goal`] (partial goals: cross, xcross, F2L pair, first
//!   block, EO);
//! - [`solvers`]: [`solver`] (metrics, the judge-format solver), [`korf`] (optimal IDA*
//!   over pattern databases, `docs/rubik-optimal.md`), [`every`] (every optimal solution,
//!   restricted move sets), [`mask`] and [`partial`] (sticker masks, cubes known in part),
//!   [`twophase`] (near-optimal solving in milliseconds, `docs/rubik-twophase.md`);
//!
//! and the judge format of ZOJ 2477 in [`judge`] and below.

pub mod judge;
pub mod model;
pub mod solvers;
pub mod tables;

pub use model::{cube, facelets, group, notation, symmetry};
pub use solvers::{every, korf, mask, partial, solver, twophase};
pub(crate) use tables::projection;
pub use tables::{coord, goal, near, pdb, phase1, ru};

pub use cube::{Cube, CubeError, Face, Move};
pub use facelets::{facelet_string, parse_facelets, StickerError, Unsolvable};
pub use judge::{parse_judge_input, Query};
pub use korf::{IterationStart, KorfSolver, Pdbs, Preset};
pub use near::NearTable;
pub use notation::{format_moves, merge_quarter_pairs, parse_move_set, parse_moves, NotationError};
pub use solver::{Metric, SearchSolver, Solved, Solver, TableSolver};

use crate::judge::{tied_input, AnswerWriter, JudgeError};
use std::cell::RefCell;
use std::rc::Rc;

/// The judge's limit: positions needing more quarter turns are answered `-1`.
pub const JUDGE_LIMIT: u32 = 5;

/// Cases solved together (in parallel) before their answers are written.
const BATCH: usize = 2048;

/// Answers a whole judge input as it arrives, with answers of at most `max_depth`
/// quarter turns. Cases are parsed in order and solved in parallel batches (a batch ends
/// early unless the next case has wholly arrived, so interactive use is answered at
/// once); answers are written in order. A net that is no solvable cube is answered `-1`
/// with a warning naming the case and the rule written to `warnings`. On malformed input
/// the answers before the bad case are written and the error is returned.
pub fn answer_judge_input(
    input: impl std::io::Read,
    solver: &Solver<'_>,
    max_depth: u32,
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
            && (batch.is_empty() || input.has_buffered_tokens(facelets::STICKERS))
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
        if let Err(e) = answer_batch(&batch, solver, max_depth, &writer, &mut warnings) {
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
    solver: &Solver<'_>,
    max_depth: u32,
    writer: &RefCell<AnswerWriter<W>>,
    warnings: &mut impl std::io::Write,
) -> Result<(), JudgeError> {
    use rayon::prelude::*;
    let answers: Vec<String> = batch
        .par_iter()
        .map(|query| {
            let mut text = String::new();
            let moves = match &query.cube {
                Ok(cube) => solver.solve(cube, Metric::Qtm, max_depth).moves,
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
