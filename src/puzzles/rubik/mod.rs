//! The Rubik's cube 3x3x3 (ZOJ 2477 "Magic Cube"), optimal in quarter or half turns.
//!
//! - [`cube`]: cubie-level positions, the 18 face turns, validity rules;
//! - [`facelets`]: sticker geometry, facelet strings, the ZOJ net, stickers <-> cubies;
//! - [`notation`]: Singmaster move sequences;
//! - [`goal`]: partial goals (cross, xcross, F2L pair, first block, EO) on any face, by
//!   exact tables;
//! - [`mask`]: sticker masks (`?` for stickers that do not matter) as goals;
//! - [`partial`]: cubes known in part (`?` stickers), solving only the named stickers;
//! - [`group`]: exact membership in the group some moves generate (Schreier-Sims);
//! - [`coord`]: permutation ranks and the 67-bit position key;
//! - [`near`]: the table of all positions within a few quarter turns of solved;
//! - [`pdb`]: pattern databases (corners, edge subsets) for both metrics;
//! - [`symmetry`]: whole-cube rotations and reflections acting on positions;
//! - [`ru`]: the whole `<R,U>` subgroup as a table, for optimal two-generator solutions;
//! - [`phase1`]: the symmetry-reduced table of edge flips, E-slice edges and corner twists;
//! - [`korf`]: optimal solving of any position by IDA* over the pattern databases;
//! - [`every`]: every optimal (or every length-k) solution, and solutions with only some
//!   moves, under the same bounds;
//! - [`twophase`]: near-optimal solving of any position in milliseconds (Kociemba's
//!   two-phase method);
//! - [`solver`]: near-table lookups and plain IDA*;
//! - [`judge`]: the judge's input and output format.

pub mod coord;
pub mod cube;
pub mod every;
pub mod facelets;
pub mod goal;
pub mod group;
pub mod judge;
pub mod korf;
pub mod mask;
pub mod near;
pub mod notation;
pub mod partial;
pub mod pdb;
pub mod phase1;
pub(crate) mod projection;
pub mod ru;
pub mod solver;
pub mod symmetry;
pub mod twophase;

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
