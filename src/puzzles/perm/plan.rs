//! Phase plans: how a puzzle too big for one table is solved as a chain of phases, read
//! from a small text file beside its definition (`puzzles/4x4x4.plan` beside
//! `puzzles/4x4x4.tws`).
//!
//! ```text
//! # Kociemba's two phases on the 3x3x3.
//! Plan kociemba
//! Phase orient
//! Moves U D F B L R            # base moves: every power counts one move
//! Target Subgroup U D F2 B2 L2 R2
//! Keep 200
//! End
//! Phase finish
//! Moves U D F2 B2 L2 R2         # `F2` alone: only that power
//! Target Solved
//! End
//! ```
//!
//! Top-level lines: `Plan NAME`; `Move NAME STEP...` (a compound move the phases may
//! use, also accepted in input: `Move Uw U 2U`); `View FROM>TO...` (the search also
//! starts from the state turned by the symmetry that makes each base move FROM a TO:
//! `View R>U L>D U>L D>R F>F B>B` searches the 3x3x3 along its R-L axis; see
//! `phased/starts.rs`); `Phase NAME` blocks up to `End`. In a
//! phase: `Moves NAME...` (required), `Target ...` (required), `Upto NAME...` (states
//! those moves reach from the target count as reaching it: the next phase's moves finish
//! the job), `Keep N` (how many of the phase's best solutions the next phase tries;
//! `Keep N of M`: the phase looks at its first M solutions and hands on the N best by
//! their total plus the next phase's bound),
//! `Cost NAME VALUE...` (a move's cost in the count: Square-1 counts only its twists),
//! `Through NAME` (the target must be kept only up to the end of the phase NAME, a
//! later one or this one: the phases after it may undo it, as a 3x3x3 phase undoes the
//! 4x4x4's wing split),
//! `Stream` (the first phase only: with a deadline or a length to reach, its solutions
//! go on in batches of its `Keep` as they are found, as two-phase's do, rather than in
//! wider passes that start again), `Inverse` (the first phase only: the search also
//! starts from the inverse of the state, whose solution, reversed and inverted, solves
//! the state; for definitions whose pieces are all told apart). `Finish 3x3x3 U R F D L
//! B` (after the phases): the last phase's target is the group of those six base moves,
//! whose states are a 3x3x3 with those moves turning its faces U R F D L B; each of the
//! last phase's kept solutions is finished by the two-phase solver
//! (`phased/cube3.rs`).
//! Targets:
//!
//! - `Target Solved`: the solved state;
//! - `Target Subgroup NAME...`: any state those moves reach from solved (the next
//!   phase's moves, as in Kociemba's method): pieces become identical within the orbits
//!   the moves keep, orientations are dropped where the moves change them;
//! - `Target` alone, followed by set blocks up to `End`: a pattern. Each block is a set's
//!   name, then the class of the piece solved in each slot (pieces of one class become
//!   identical; `0` or `?`: not followed), then optionally an orientation line (`?`:
//!   not followed, `0`: followed). Sets not named are not followed. A line
//!   `Parity SET...` adds that the permutation of those sets' pieces must be even. A
//!   line `Whole SET SLOT...` adds that those slots hold some pieces of the set, each
//!   with the pieces a later phase pairs beside it (see `phased::whole`).
//!
//! Errors name the file, the line and the rule.

use std::collections::HashMap;

/// A plan file that breaks a rule: the line (1-based; 0 for the file as a whole) and what
/// is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct PlanError {
    /// 1-based line, 0 when no single line is to blame.
    pub line: usize,
    /// What is wrong.
    pub problem: String,
}

/// The one number after a line's word (`Keep 300`), from 1 to `most`.
fn whole_number(tokens: &[&str], line: usize, most: usize) -> Result<usize, PlanError> {
    tokens
        .get(1)
        .filter(|_| tokens.len() == 2)
        .and_then(|t| t.parse::<usize>().ok())
        .filter(|n| (1..=most).contains(n))
        .ok_or_else(|| {
            error(
                line,
                format!("{} takes a whole number from 1 to {most}", tokens[0]),
            )
        })
}

/// A number of a `Keep` line (`Keep N`, `Keep N of M`), from 1 to [`MAX_KEEP`].
fn keep_number(token: &str, line: usize) -> Result<usize, PlanError> {
    token
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=MAX_KEEP).contains(n))
        .ok_or_else(|| keep_error(line))
}

/// A `Keep` line that is neither `Keep N` nor `Keep N of M` with numbers in range.
fn keep_error(line: usize) -> PlanError {
    error(
        line,
        format!(
            "Keep takes a whole number from 1 to {MAX_KEEP} (`Keep N`), or two \
             (`Keep N of M`)"
        ),
    )
}

fn error(line: usize, problem: impl Into<String>) -> PlanError {
    PlanError {
        line,
        problem: problem.into(),
    }
}

/// What a phase reaches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TargetSpec {
    /// The solved state.
    Solved,
    /// Any state the named moves reach from solved.
    Subgroup(Vec<String>),
    /// A pattern: per named set, the class of each piece (by its solved slot; `None`:
    /// not followed) and whether each piece's orientation is followed; sets whose
    /// permutations must be even together.
    Pattern {
        /// Set name, its line, classes per slot, orientation followed per slot.
        sets: Vec<PatternSet>,
        /// Sets whose joint permutation must be even (each with its line).
        parities: Vec<(usize, Vec<String>)>,
        /// `Whole SET SLOT...`: those slots hold some pieces of the set, each with the
        /// pieces that belong beside it (line, set, slots numbered from 1).
        whole: Option<(usize, String, Vec<usize>)>,
    },
}

/// One set of a pattern target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternSet {
    /// The set's name.
    pub name: String,
    /// The line naming it.
    pub line: usize,
    /// Per slot of the solved state: the class of the piece solved there (`None`: not
    /// followed).
    pub classes: Vec<Option<u16>>,
    /// Per slot: whether that piece's orientation is followed (all when absent).
    pub orientation: Option<Vec<bool>>,
}

/// One set's slots on a `Large` line: the set's name and the slots as written.
pub type LargeGroup = (String, Vec<String>);

/// One phase as the file gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhaseSpec {
    /// Its name.
    pub name: String,
    /// The line of `Phase`.
    pub line: usize,
    /// Move names (a base name stands for all its powers), with the line.
    pub moves: (usize, Vec<String>),
    /// What it reaches, with the line of `Target`.
    pub target: (usize, TargetSpec),
    /// How many of its solutions the next phase tries.
    pub keep: Option<usize>,
    /// `Keep N of M`: the first M solutions found, of which the N best (by their total
    /// plus the next phase's bound) are handed on; with the line.
    pub looks_at: Option<(usize, usize)>,
    /// `Join N`: each pattern database over a whole set of distinct pieces also follows
    /// N pieces of the next such set, where that fits the size cap.
    pub join: Option<usize>,
    /// `Large SET SLOT...`: the slots (numbered from 1) of a set whose kinds the phase's
    /// matching table sees beside the pairs when built large (`cubedb-gen puzzle
    /// --large`), with the line: per set named, its slots.
    pub large: Option<(usize, Vec<LargeGroup>)>,
    /// Moves whose cost is not 1: name, cost (0 or 1), line.
    pub costs: Vec<(String, u8, usize)>,
    /// `Upto NAME...`: states these moves reach from the target count as the target too
    /// (the next phase's moves finish the job), with the line.
    pub upto: Option<(usize, Vec<String>)>,
    /// `Through NAME`: the phase (this one or a later one) after which the target need no
    /// longer hold, with the line.
    pub through: Option<(usize, String)>,
    /// `Stream`: its solutions go on in batches as they are found (first phase only),
    /// with the line.
    pub stream: Option<usize>,
    /// `Inverse`: the search also starts from the inverse state (first phase only), with
    /// the line.
    pub inverse: Option<usize>,
}

/// A whole plan file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanSpec {
    /// `Plan NAME`, or `plan`.
    pub name: String,
    /// Compound moves: name, steps, line.
    pub compounds: Vec<(String, Vec<String>, usize)>,
    /// `Expand NAME...`: compound moves written out as their steps in answers, with the
    /// line.
    pub expand: Vec<(String, usize)>,
    /// `Rotations NAME...`: moves that turn the whole puzzle, with the line; a solution
    /// may leave the puzzle turned by any product of them (solved as a cuber holds it).
    pub rotations: Vec<(String, usize)>,
    /// `View FROM>TO...`: the state turned is searched too, each base move FROM of the
    /// state being TO in the turned one; per line its pairs and the line.
    pub views: Vec<(Vec<(String, String)>, usize)>,
    /// The phases, in order.
    pub phases: Vec<PhaseSpec>,
    /// `Finish 3x3x3 U R F D L B`: the last phase's states are a 3x3x3 whose faces U R F
    /// D L B those base moves turn, finished by the two-phase solver; the names and the
    /// line.
    pub finish: Option<(Vec<String>, usize)>,
}

/// Most phases a plan has.
pub const MAX_PHASES: usize = 16;

/// Most solutions a phase may hand on.
pub const MAX_KEEP: usize = 1_000_000;

/// The most pieces a `Join` line may add to a pattern database.
pub const MAX_JOIN: usize = 8;

/// Longest name in a plan.
const NAME_LIMIT: usize = 64;

fn checked_name<'a>(line: usize, token: &'a str, what: &str) -> Result<&'a str, PlanError> {
    if token.len() <= NAME_LIMIT && token.bytes().all(|b| b.is_ascii_graphic()) {
        Ok(token)
    } else {
        Err(error(
            line,
            format!(
                "{what} {} must be 1 to {NAME_LIMIT} visible ASCII characters",
                crate::text::quote(token)
            ),
        ))
    }
}

/// The lines of a plan as tokens, comments (`#` to the end of the line) and blank lines
/// dropped, read one at a time.
struct Lines<'a> {
    rest: std::iter::Enumerate<std::str::Split<'a, [char; 2]>>,
}

impl<'a> Iterator for Lines<'a> {
    type Item = (usize, Vec<&'a str>);

    fn next(&mut self) -> Option<Self::Item> {
        for (i, line) in self.rest.by_ref() {
            let line = line.split('#').next().unwrap_or("");
            let tokens: Vec<&str> = line
                .split(|c: char| c as u32 <= 0x20)
                .filter(|t| !t.is_empty())
                .collect();
            if !tokens.is_empty() {
                return Some((i + 1, tokens));
            }
        }
        None
    }
}

impl PlanSpec {
    /// Reads a plan from the text of its file.
    pub fn parse(text: &str) -> Result<Self, PlanError> {
        let mut lines = Lines {
            rest: text.split(['\n', '\r']).enumerate(),
        };
        let mut name = "plan".to_string();
        let mut compounds: Vec<(String, Vec<String>, usize)> = Vec::new();
        let mut expand: Vec<(String, usize)> = Vec::new();
        let mut rotations: Vec<(String, usize)> = Vec::new();
        let mut views: Vec<(Vec<(String, String)>, usize)> = Vec::new();
        let mut phases: Vec<PhaseSpec> = Vec::new();
        let mut finish: Option<(Vec<String>, usize)> = None;
        while let Some((line, tokens)) = lines.next() {
            match tokens[0] {
                "Plan" => {
                    if tokens.len() != 2 {
                        return Err(error(line, "Plan takes exactly one name"));
                    }
                    name = checked_name(line, tokens[1], "the plan's name")?.to_string();
                }
                "Move" => {
                    if tokens.len() < 3 {
                        return Err(error(line, "Move takes a name and the moves it is made of"));
                    }
                    let move_name = checked_name(line, tokens[1], "a move's name")?;
                    if compounds.iter().any(|(n, _, _)| n == move_name) {
                        return Err(error(
                            line,
                            format!("move {} is defined twice", crate::text::quote(move_name)),
                        ));
                    }
                    let steps = tokens[2..].iter().map(|t| t.to_string()).collect();
                    compounds.push((move_name.to_string(), steps, line));
                }
                "Expand" => {
                    if tokens.len() < 2 {
                        return Err(error(line, "Expand takes the names of compound moves"));
                    }
                    expand.extend(tokens[1..].iter().map(|t| (t.to_string(), line)));
                }
                "Rotations" => {
                    if tokens.len() < 2 {
                        return Err(error(line, "Rotations takes the names of moves"));
                    }
                    rotations.extend(tokens[1..].iter().map(|t| (t.to_string(), line)));
                }
                "View" => {
                    let pairs: Option<Vec<(String, String)>> = tokens[1..]
                        .iter()
                        .map(|t| {
                            t.split_once('>')
                                .filter(|(a, b)| !a.is_empty() && !b.is_empty())
                                .map(|(a, b)| (a.to_string(), b.to_string()))
                        })
                        .collect();
                    match pairs {
                        Some(pairs) if !pairs.is_empty() => views.push((pairs, line)),
                        _ => {
                            return Err(error(
                                line,
                                "View takes pairs FROM>TO of move names (U>R: a U of the \
                                 state is an R of the turned one)",
                            ))
                        }
                    }
                }
                "Phase" => {
                    if tokens.len() != 2 {
                        return Err(error(line, "Phase takes exactly one name"));
                    }
                    if phases.len() == MAX_PHASES {
                        return Err(error(line, format!("at most {MAX_PHASES} phases")));
                    }
                    let phase_name = checked_name(line, tokens[1], "a phase's name")?;
                    phases.push(read_phase(&mut lines, line, phase_name)?);
                }
                "Finish" => {
                    if tokens.get(1) != Some(&"3x3x3") || tokens.len() != 8 {
                        return Err(error(
                            line,
                            "Finish takes 3x3x3 and the six base moves that turn its faces \
                             U R F D L B, in that order",
                        ));
                    }
                    if finish.is_some() {
                        return Err(error(line, "a second Finish"));
                    }
                    finish = Some((tokens[2..].iter().map(|t| t.to_string()).collect(), line));
                }
                "End" => return Err(error(line, "End without a block to end")),
                other => {
                    return Err(error(
                        line,
                        format!(
                            "unexpected {}: expected Plan, Move, Expand, Rotations, View, Phase \
                             or Finish",
                            crate::text::quote(other)
                        ),
                    ))
                }
            }
        }
        if phases.is_empty() {
            return Err(error(0, "no Phase"));
        }
        for (k, phase) in phases.iter().enumerate() {
            if let Some((line, through)) = &phase.through {
                if !phases[k..].iter().any(|later| &later.name == through) {
                    return Err(error(
                        *line,
                        format!(
                            "Through names {}, which is neither this phase nor a later one",
                            crate::text::quote(through)
                        ),
                    ));
                }
            }
        }
        Ok(Self {
            name,
            compounds,
            expand,
            rotations,
            views,
            phases,
            finish,
        })
    }
}

fn read_phase(lines: &mut Lines<'_>, start: usize, name: &str) -> Result<PhaseSpec, PlanError> {
    let mut moves: Option<(usize, Vec<String>)> = None;
    let mut target: Option<(usize, TargetSpec)> = None;
    let mut keep = None;
    let mut looks_at = None;
    let mut join = None;
    let mut large = None;
    let mut stream = None;
    let mut inverse = None;
    let mut costs = Vec::new();
    let mut upto = None;
    let mut through = None;
    loop {
        let Some((line, tokens)) = lines.next() else {
            return Err(error(start, format!("Phase {name} without End")));
        };
        match tokens[0] {
            "End" => break,
            "Moves" => {
                if moves.is_some() {
                    return Err(error(line, "Moves is given twice in this phase"));
                }
                if tokens.len() < 2 {
                    return Err(error(line, "Moves takes at least one move"));
                }
                moves = Some((line, tokens[1..].iter().map(|t| t.to_string()).collect()));
            }
            "Target" => {
                if target.is_some() {
                    return Err(error(line, "Target is given twice in this phase"));
                }
                let spec = match tokens.get(1).copied() {
                    Some("Solved") if tokens.len() == 2 => TargetSpec::Solved,
                    Some("Subgroup") if tokens.len() > 2 => {
                        TargetSpec::Subgroup(tokens[2..].iter().map(|t| t.to_string()).collect())
                    }
                    None => read_pattern(lines, line)?,
                    _ => {
                        return Err(error(
                            line,
                            "Target takes Solved, Subgroup and moves, or nothing (a pattern \
                             block follows, up to End)",
                        ))
                    }
                };
                target = Some((line, spec));
            }
            "Upto" => {
                if upto.is_some() {
                    return Err(error(line, "Upto is given twice in this phase"));
                }
                if tokens.len() < 2 {
                    return Err(error(line, "Upto takes at least one move"));
                }
                upto = Some((line, tokens[1..].iter().map(|t| t.to_string()).collect()));
            }
            "Through" => {
                if through.is_some() {
                    return Err(error(line, "Through is given twice in this phase"));
                }
                if tokens.len() != 2 {
                    return Err(error(line, "Through takes the name of one later phase"));
                }
                through = Some((line, tokens[1].to_string()));
            }
            "Keep" if tokens.len() == 4 && tokens[2] == "of" => {
                let n = keep_number(tokens[1], line)?;
                let m = keep_number(tokens[3], line)?;
                if m <= n {
                    return Err(error(
                        line,
                        format!(
                            "Keep {n} of {m}: the solutions looked at must be more than those kept"
                        ),
                    ));
                }
                keep = Some(n);
                looks_at = Some((line, m));
            }
            "Keep" if tokens.len() == 2 => keep = Some(keep_number(tokens[1], line)?),
            "Keep" => return Err(keep_error(line)),
            "Stream" if tokens.len() == 1 => stream = Some(line),
            "Stream" => return Err(error(line, "Stream takes nothing after it")),
            "Inverse" if tokens.len() == 1 => inverse = Some(line),
            "Inverse" => return Err(error(line, "Inverse takes nothing after it")),
            "Join" => join = Some(whole_number(&tokens, line, MAX_JOIN)?),
            "Large" => {
                if large.is_some() {
                    return Err(error(line, "Large is given twice in this phase"));
                }
                // Sets and their slots: a word starts a set, numbers follow it.
                let mut groups: Vec<(String, Vec<String>)> = Vec::new();
                for token in &tokens[1..] {
                    if token.as_bytes()[0].is_ascii_digit() {
                        match groups.last_mut() {
                            Some((_, slots)) => slots.push(token.to_string()),
                            None => groups.push((String::new(), vec![token.to_string()])),
                        }
                    } else {
                        groups.push((token.to_string(), Vec::new()));
                    }
                }
                if groups.is_empty()
                    || groups
                        .iter()
                        .any(|(set, slots)| set.is_empty() || slots.is_empty())
                {
                    return Err(error(
                        line,
                        "Large takes a set and at least one of its slots (then maybe more \
                         sets, each with its slots)",
                    ));
                }
                large = Some((line, groups));
            }
            "Cost" => {
                if tokens.len() < 3 || tokens.len() % 2 == 0 {
                    return Err(error(
                        line,
                        "Cost takes pairs of a move and its cost (0 or 1)",
                    ));
                }
                for pair in tokens[1..].chunks(2) {
                    let cost = match pair[1] {
                        "0" => 0,
                        "1" => 1,
                        other => {
                            return Err(error(
                                line,
                                format!(
                                    "the cost of {} must be 0 or 1, not {}",
                                    crate::text::quote(pair[0]),
                                    crate::text::quote(other)
                                ),
                            ))
                        }
                    };
                    costs.push((pair[0].to_string(), cost, line));
                }
            }
            other => {
                return Err(error(
                    line,
                    format!(
                        "unexpected {} in phase {name}: expected Moves, Target, Upto, Keep, Join, \
                         Large, Cost, Through, Stream, Inverse or End",
                        crate::text::quote(other)
                    ),
                ))
            }
        }
    }
    Ok(PhaseSpec {
        name: name.to_string(),
        line: start,
        moves: moves.ok_or_else(|| error(start, format!("phase {name} has no Moves line")))?,
        target: target.ok_or_else(|| error(start, format!("phase {name} has no Target line")))?,
        keep,
        looks_at,
        join,
        large,
        costs,
        upto,
        through,
        stream,
        inverse,
    })
}

/// Reads a pattern target's blocks up to `End`.
fn read_pattern(lines: &mut Lines<'_>, start: usize) -> Result<TargetSpec, PlanError> {
    let mut sets: Vec<PatternSet> = Vec::new();
    let mut parities = Vec::new();
    let mut whole = None;
    let mut pending: Option<(usize, String, Vec<Option<u16>>)> = None;
    fn finish(
        sets: &mut Vec<PatternSet>,
        pending: &mut Option<(usize, String, Vec<Option<u16>>)>,
        orientation: Option<Vec<bool>>,
    ) {
        if let Some((line, name, classes)) = pending.take() {
            sets.push(PatternSet {
                name,
                line,
                classes,
                orientation,
            });
        }
    }
    loop {
        let Some((line, tokens)) = lines.next() else {
            return Err(error(start, "a pattern Target without End"));
        };
        let numbers = tokens[0] == "?" || tokens[0].as_bytes()[0].is_ascii_digit();
        match (tokens[0], numbers, &mut pending) {
            ("End", _, _) => {
                finish(&mut sets, &mut pending, None);
                break;
            }
            ("Whole", _, _) => {
                finish(&mut sets, &mut pending, None);
                if whole.is_some() {
                    return Err(error(line, "Whole is given twice in this pattern"));
                }
                if tokens.len() < 3 {
                    return Err(error(line, "Whole takes a set and one or more slots"));
                }
                let slots = tokens[2..]
                    .iter()
                    .map(|t| {
                        t.parse::<usize>().ok().filter(|&n| n > 0).ok_or_else(|| {
                            error(
                                line,
                                format!(
                                    "Whole: a slot is a whole number from 1, not {}",
                                    crate::text::quote(t)
                                ),
                            )
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                whole = Some((line, tokens[1].to_string(), slots));
            }
            ("Parity", _, _) => {
                finish(&mut sets, &mut pending, None);
                if tokens.len() < 2 {
                    return Err(error(line, "Parity takes one or more sets"));
                }
                parities.push((line, tokens[1..].iter().map(|t| t.to_string()).collect()));
            }
            (_, true, Some((_, _, classes))) if classes.is_empty() => {
                for token in &tokens {
                    classes.push(match *token {
                        "?" | "0" => None,
                        t => Some(t.parse::<u16>().ok().filter(|&c| c > 0).ok_or_else(|| {
                            error(
                                line,
                                format!(
                                    "a class is a whole number from 1 to 65535, `0` or `?`, not {}",
                                    crate::text::quote(t)
                                ),
                            )
                        })?),
                    });
                }
            }
            (_, true, Some(_)) => {
                let mut orientation = Vec::with_capacity(tokens.len());
                for token in &tokens {
                    orientation.push(match *token {
                        "?" => false,
                        "0" => true,
                        t => {
                            return Err(error(
                                line,
                                format!(
                                    "an orientation in a pattern is `0` (followed) or `?` (not), \
                                     not {}",
                                    crate::text::quote(t)
                                ),
                            ))
                        }
                    });
                }
                finish(&mut sets, &mut pending, Some(orientation));
            }
            (_, true, None) => {
                return Err(error(line, "numbers before a set name in the pattern"));
            }
            (set, false, _) => {
                if tokens.len() != 1 {
                    return Err(error(
                        line,
                        "expected a set name, Parity, Whole or End in the pattern",
                    ));
                }
                if matches!(&pending, Some((_, _, classes)) if classes.is_empty()) {
                    return Err(error(line, "a set name with no classes line before it"));
                }
                finish(&mut sets, &mut pending, None);
                if sets.iter().any(|s| s.name == set) {
                    return Err(error(
                        line,
                        format!(
                            "set {} appears twice in the pattern",
                            crate::text::quote(set)
                        ),
                    ));
                }
                pending = Some((line, set.to_string(), Vec::new()));
            }
        }
    }
    Ok(TargetSpec::Pattern {
        sets,
        parities,
        whole,
    })
}

/// Per move name, its cost, for messages and checks: a map from the `Cost` lines.
pub fn costs_by_name(phase: &PhaseSpec) -> HashMap<&str, u8> {
    phase
        .costs
        .iter()
        .map(|(name, cost, _)| (name.as_str(), *cost))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_reads_back_and_errors_name_their_line() {
        let text = "# two phases\nPlan k\nMove Uw U 2U\nPhase one\nMoves U D F B L R\n\
                    Target Subgroup U D F2 B2 L2 R2\nKeep 300\nEnd\n\
                    Phase two\nMoves U D F2 B2 L2 R2\nTarget\nCORNERS\n1 1 1 1 2 2 2 2\n? ? ? ? 0 0 0 0\n\
                    Parity EDGES\nEnd\nCost U 0 D 0\nEnd\n";
        let plan = PlanSpec::parse(text).expect("parses");
        assert_eq!(plan.name, "k");
        assert_eq!(
            plan.compounds,
            vec![("Uw".into(), vec!["U".into(), "2U".into()], 3)]
        );
        assert_eq!(plan.phases.len(), 2);
        assert_eq!(plan.phases[0].keep, Some(300));
        assert_eq!(
            plan.phases[0].target.1,
            TargetSpec::Subgroup(vec![
                "U".into(),
                "D".into(),
                "F2".into(),
                "B2".into(),
                "L2".into(),
                "R2".into()
            ])
        );
        match &plan.phases[1].target.1 {
            TargetSpec::Pattern { sets, parities, .. } => {
                assert_eq!(sets.len(), 1);
                assert_eq!(sets[0].classes[4], Some(2));
                assert_eq!(
                    sets[0].orientation.as_deref(),
                    Some(&[false, false, false, false, true, true, true, true][..])
                );
                assert_eq!(parities, &vec![(15, vec!["EDGES".to_string()])]);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(plan.phases[1].costs.len(), 2);
        for (text, line, words) in [
            ("Phase a\nMoves U\nEnd\n", 1, "no Target"),
            ("Phase a\nTarget Solved\nEnd\n", 1, "no Moves"),
            (
                "Phase a\nMoves U\nTarget Solved\nKeep 0\nEnd\n",
                4,
                "from 1 to",
            ),
            (
                "Phase a\nMoves U\nTarget Solved\nJoin 9\nEnd\n",
                4,
                "Join takes a whole number from 1 to 8",
            ),
            (
                "Phase a\nMoves U\nTarget Solved\nKeep 10 of 10\nEnd\n",
                4,
                "Keep 10 of 10: the solutions looked at must be more than those kept",
            ),
            (
                "Phase a\nMoves U\nTarget Solved\nKeep 10 of many\nEnd\n",
                4,
                "Keep takes a whole number from 1 to",
            ),
            ("Phase a\nMoves U\nTarget Solved\n", 1, "without End"),
            ("Bogus\n", 1, "unexpected `Bogus`"),
            (
                "Phase a\nMoves U\nTarget Solved\nCost U 2\nEnd\n",
                4,
                "0 or 1",
            ),
            ("Phase a\nMoves U\nTarget\nX\n1 x\nEnd\nEnd\n", 5, "class"),
            ("", 0, "no Phase"),
            (
                "Phase a\nMoves U\nTarget Solved\nEnd\nFinish 3x3x3 U R F\n",
                5,
                "six base moves",
            ),
            (
                "Phase a\nMoves U\nTarget Solved\nEnd\nFinish 2x2x2 U R F D L B\n",
                5,
                "Finish takes 3x3x3",
            ),
            (
                "Finish 3x3x3 U R F D L B\nFinish 3x3x3 U R F D L B\n",
                2,
                "a second Finish",
            ),
        ] {
            let err = PlanSpec::parse(text).expect_err(text);
            assert_eq!(err.line, line, "{text}: {err}");
            assert!(err.problem.contains(words), "{text}: {err}");
        }
    }
}
