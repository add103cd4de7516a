//! Phased solving: a puzzle too big for one table solved as a chain of phases, each
//! reaching a target (a subgroup or a pattern) with its own moves and its own tables, as
//! Kociemba's two-phase method does for the 3x3x3.
//!
//! A plan ([`super::plan`]) is compiled against a definition ([`Plan::compile`]): its
//! move names resolved (compound moves such as `Uw = U 2U` made), each target turned into
//! a view ([`view::View`]: classes of identical pieces, orientations in a twist-free
//! frame, parity sets), and the chain checked (every move of a phase keeps the targets
//! of the phases before it). [`PhasedSolver`] opens each phase's tables
//! ([`tables::PhaseTables`]) and solves: phase by phase, many solutions of each feed the
//! next, ordered by their length plus the next phase's bound, the best total found
//! bounding every later search ([`PhasedSolver::solve`]).

pub mod coset;
pub mod cube3;
pub mod kinds;
pub mod matching;
#[cfg(all(target_arch = "x86_64", target_feature = "sse4.1"))]
mod nibbles;
pub mod quotient;
pub mod rotation;
pub mod search;
pub mod starts;
pub mod steps;
pub mod straddle;
pub mod tables;
pub mod tie;
pub mod view;
pub mod whole;

use super::definition::power_names;
use super::element::{parity, Element, MAX_ORDER, WILD};
use super::element::{root, slot_orbits};
use super::exact::ExactError;
use super::plan::{PatternSet, PlanError, PlanSpec, TargetSpec};
use super::puzzle::{PermPuzzle, PuzzleMetric, PuzzleMove};
use crate::limits::Stop;
use crate::puzzles::perm::site::TableSite;
use crate::puzzles::rubik::api::TwoPhaseSolver;
use crate::puzzles::rubik::twophase::{
    solve_until as twophase_solve_until, Best, Searcher, AS_GIVEN_VIEWS, INVERTED_VIEWS,
};
use crate::puzzles::rubik::Metric;
use crate::rng::SplitMix64;
use search::{Halt, PhaseMoves, PhaseRun};
use std::collections::HashMap;
use steps::FreeSteps;
use tables::{PhaseTables, StartNode};
use tie::NumberSet;
use view::{twist_free_gauge, View};

/// How many solutions of a phase the next one tries, when the plan does not say.
pub const DEFAULT_KEEP: usize = 200;

/// How far beyond the cheapest start a phase's search looks for more solutions (one
/// that has found none goes on to [`LAST_SLACK`]).
const SLACK: usize = 6;

/// Most slots of an orbit whose reachable orders a kinds goal follows (its table numbers
/// the orbit's pieces in order among the set's slots: 665,280 for six of twelve).
const ORDERED_ORBIT: usize = 6;

/// The same for the last phase, which needs one solution only, and for any phase that has
/// found nothing within [`SLACK`]: far enough that a bound well below the true distance (a
/// pattern database's, the FTO's middle phase's) still finds one in the first pass, where
/// a wider pass would search every earlier phase again and four times the candidates here
/// (what that saves: docs/phases.md, "The search").
const LAST_SLACK: usize = 20;

/// Most solutions a phase hands on in the quick first pass (with a deadline or a length
/// to reach): enough that the last phase starts near its target from one of them (from
/// four, the 3x3x3's second phase often searched deeper than the whole full pass: 100
/// states with `--max-length 21` took 1.8 s, 1.35 s with 32), few enough for
/// milliseconds.
const QUICK_KEEP: usize = 32;

/// Nodes one total's search of a phase that stops at its first solution makes before
/// that phase's runs are searched by their first moves, nearest first
/// ([`PhasedSolver::pass_from`]).
const BY_CLOSENESS_NODES: u64 = 50_000;

/// Most nodes the quick first pass generates in its middle phases (neither the first,
/// whose solutions every pass needs, nor the last, which answers); past them it gives up
/// (to the full passes): a plan whose middle phases find little from few candidates
/// (the 4x4x4's pairs phase) gets nothing from it, and must not pay much for trying.
const QUICK_NODES: u64 = 1 << 20;

/// Runs that can reach a total a lone state's phase keeping several solutions searches
/// side by side in its first batch at that total, ahead of handing their solutions on
/// in order ([`search_ahead`]); each later batch twice the last, up to
/// [`AHEAD_RUNS_MOST`].
const AHEAD_RUNS: usize = 8;

/// Most runs in one batch searched ahead ([`AHEAD_RUNS`]).
const AHEAD_RUNS_MOST: usize = 1024;

/// Most solutions a run searched ahead holds ([`search_ahead`]); one with more is
/// searched again, in order, past those (a 4x4x4 first-phase run now and then: the
/// test of lone states against the same states solved as one of many goes that way).
const AHEAD_PATHS: usize = 256;

/// Nodes the two-phase solver may search to finish one of the last phase's solutions
/// as a 3x3x3 (`Finish 3x3x3`): a fixed effort, so answers are the same on any machine.
const FINISH_NODES: u64 = 100_000;

/// Most solutions a phase's [`HandedOn`] makes room for at once.
const HANDED_ON_ROOM: usize = 4096;

/// The two halves of the two-phase solver's six views a finish searches side by side
/// (the cube as given, then inverted; [`FINISH_NODES`] shared evenly): a lone state's
/// finish on two cores, with the same answers on one.
const FINISH_VIEWS: [u8; 2] = [AS_GIVEN_VIEWS, INVERTED_VIEWS];

/// The 3x3x3 length a finish looks for when no total bounds it yet.
const FINISH_AIM: usize = 18;

/// How many times wider each pass is than the one before (its phases keep that many
/// times the solutions); a phase searching past its slack keeps as many as the next pass
/// would.
const WIDER: usize = 4;

/// The widest pass, in multiples of the plan's widths; a streaming pass's first phase
/// hands on this many times its `Keep` at most.
const MOST_WIDEN: usize = 1 << 12;

/// One phase, compiled.
#[derive(Debug, Clone)]
pub struct Phase {
    /// Its name.
    pub name: String,
    /// Its moves, as indices into [`Plan::moves`].
    pub moves: Vec<usize>,
    /// The cost of each of its moves (0 or 1).
    pub costs: Vec<u8>,
    /// How many of its solutions the next phase tries.
    pub keep: usize,
    /// `Keep N of M`: how many solutions it looks at (M) before handing on the `keep`
    /// best by their total plus the next phase's bound; 0: the first `keep` found.
    pub looks_at: usize,
    /// `Stream`: with a deadline or a length to reach, its solutions go on in batches
    /// of `keep` as they are found (see [`PhasedSolver::solve`]).
    pub stream: bool,
    /// `Join N`: pieces of another set each whole-set pattern database follows (0: none).
    pub join: usize,
    /// Whether the search must follow full states to refuse forbidden ones: the definition
    /// has `Illegal` rules and some move of the phase moves a piece a rule names
    /// (Square-1's pieces phase keeps the shape: legal states stay legal).
    pub follows_legality: bool,
    /// How full states look to its target.
    pub view: View,
    /// Its target as a puzzle: the pattern, searched with the phase's moves.
    pub pattern: PermPuzzle,
    /// Per set of the pattern puzzle: whether its pieces arrive in the orbits of the
    /// phase's moves they are solved in (the earlier target puts them there), so that
    /// the set may be split by those orbits.
    pub splittable: Vec<bool>,
    /// Moves whose reach from the target counts as the target (`Upto`), as full-puzzle
    /// elements.
    pub upto: Vec<Element>,
    /// The line of the plan that starts it.
    pub line: usize,
    /// `Large`: the slots its matching's large table sees beside the pairs.
    pub large: Option<view::Beside>,
    /// `Whole`: slots that must hold some pieces whole, followed beside the pattern by a
    /// table of their own ([`whole::WholeTable`]).
    pub whole: Option<whole::WholeGoal>,
}

/// A plan compiled against a puzzle.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The plan's name.
    pub name: String,
    /// Every move some phase uses (with names; compound moves made).
    pub moves: Vec<PuzzleMove>,
    /// Every name the plan adds for input (compound moves and their powers).
    pub names: HashMap<String, Element>,
    /// Compound moves (and their powers) that answers write out as the definition's
    /// moves (`Expand`): name -> steps.
    pub expand: HashMap<String, Vec<String>>,
    /// The phases, in order.
    pub phases: Vec<Phase>,
    /// `Rotations`: the whole-puzzle turns a solution may end in (the search starts from
    /// the state seen after each), or none.
    pub rotations: Option<rotation::Rotations>,
    /// The states the search starts from besides the state (`View`, `Inverse`).
    pub starts: starts::Starts,
    /// `Finish 3x3x3`: the last phase's states are finished as a 3x3x3 by two-phase.
    pub finish: Option<cube3::Finish3>,
}

/// Names a plan can use: the definition's, then its compound moves', with each base
/// name's powers.
struct Vocabulary<'a> {
    puzzle: &'a PermPuzzle,
    /// Base name -> (order, powers with names in power order).
    bases: HashMap<String, Vec<(String, Element)>>,
    /// Power name -> (base name, element).
    powers: HashMap<String, (String, Element)>,
}

impl<'a> Vocabulary<'a> {
    fn new(puzzle: &'a PermPuzzle) -> Self {
        let mut v = Self {
            puzzle,
            bases: HashMap::new(),
            powers: HashMap::new(),
        };
        for (base, order) in &puzzle.bases {
            v.add_base(base, *order, &puzzle.names[base]);
        }
        // Names the definition has but does not search (rotations, aliases): usable as
        // single powers.
        for (name, element) in &puzzle.names {
            if !v.powers.contains_key(name) {
                v.powers
                    .insert(name.clone(), (name.clone(), element.clone()));
            }
        }
        v
    }

    fn add_base(&mut self, base: &str, order: u32, element: &Element) {
        let sets = &self.puzzle.sets;
        let powers: Vec<(String, Element)> = power_names(base, order)
            .into_iter()
            .map(|(_, name)| name)
            .zip(element.powers(order, sets))
            .collect();
        for (name, e) in &powers {
            self.powers
                .insert(name.clone(), (base.to_string(), e.clone()));
        }
        self.bases.insert(base.to_string(), powers);
    }

    /// The elements of every move `tokens` stand for, in order (a target's generators,
    /// an `Upto` line's moves); `Err` names the first token that is no move.
    fn elements(&self, tokens: &[String]) -> Result<Vec<Element>, String> {
        let mut out = Vec::new();
        for token in tokens {
            let resolved = self.resolve(token).ok_or_else(|| token.clone())?;
            out.extend(resolved.into_iter().map(|(_, _, e)| e));
        }
        Ok(out)
    }

    /// The moves a `Moves` token stands for: every power (quarter turns in QTM) of a
    /// base, or one power.
    fn resolve(&self, token: &str) -> Option<Vec<(String, String, Element)>> {
        if let Some(powers) = self.bases.get(token) {
            let order = powers.len() + 1;
            return Some(
                powers
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| {
                        let k = i + 1;
                        self.puzzle.metric == PuzzleMetric::Htm || k.min(order - k) == 1
                    })
                    .map(|(_, (name, e))| (token.to_string(), name.clone(), e.clone()))
                    .collect(),
            );
        }
        self.powers
            .get(token)
            .map(|(base, e)| vec![(base.clone(), token.to_string(), e.clone())])
    }
}

fn error(line: usize, problem: impl Into<String>) -> PlanError {
    PlanError {
        line,
        problem: problem.into(),
    }
}

/// A plan line naming a move the definition and the plan do not know.
fn unknown_move(line: usize, token: &str) -> PlanError {
    error(line, format!("unknown move {}", crate::text::quote(token)))
}

impl Plan {
    /// The matching phase `k` brings pieces across for (a straddle table's): the next
    /// phase's, unless phase `k` has moves that cost nothing (the table would have to
    /// count costs).
    pub fn straddled_by(&self, k: usize) -> Option<&view::Matching> {
        if self.phases[k].costs.contains(&0) {
            return None;
        }
        self.phases.get(k + 1)?.view.matching.as_ref()
    }

    /// What phase `k` must leave in slots of identical pieces that no later phase moves,
    /// where its target does not see it (a kinds table's goals; see [`kinds`]): per such
    /// set, the slots and their solved labels. Only for a plan that ends solved (no
    /// `Finish`, no `Rotations`), and not for a phase with moves that cost nothing.
    pub fn kinds_goals(&self, puzzle: &PermPuzzle, k: usize) -> Vec<kinds::KindsGoal> {
        if self.finish.is_some()
            || self.rotations.is_some()
            || k + 1 >= self.phases.len()
            || self.phases[k].costs.contains(&0)
        {
            return Vec::new();
        }
        let later: Vec<&Element> = (k + 1..self.phases.len())
            .flat_map(|j| self.phase_elements(j))
            .collect();
        let classes = &self.phases[k].view.classes;
        let mut goals = Vec::new();
        for s in 0..puzzle.sets.len() {
            if distinct(puzzle, s) {
                continue;
            }
            let labels = &puzzle.solved.orbits[s].perm;
            let class = |label: u8| classes.get(s).and_then(|c| c.get(label as usize)).copied();
            let slots: Vec<(usize, u8)> = (0..labels.len())
                .filter(|&f| later.iter().all(|e| e.orbits[s].perm[f] as usize == f))
                .map(|f| (f, labels[f]))
                // Kept only where another kind shares the label's class.
                .filter(|&(_, label)| {
                    labels
                        .iter()
                        .any(|&other| other != label && class(other) == class(label))
                })
                .collect();
            if !slots.is_empty() {
                goals.push(kinds::KindsGoal {
                    set: s,
                    ways: vec![slots],
                });
            }
        }
        goals.extend(self.order_goals(puzzle, k));
        goals
    }

    /// For phase `k` (see [`Plan::kinds_goals`]): per set of distinct, unoriented pieces,
    /// each orbit of the next phase's moves of at most [`ORDERED_ORBIT`] slots that every
    /// later move keeps, whose pieces those moves bring to fewer arrangements than they
    /// have: the state can end solved only with the orbit's pieces in one of those (the
    /// FTO's middle phase turns three edges among their own slots by 3-cycles: their even
    /// orders). Not for the phase before the last when the last phase's coset tables
    /// follow its sets (they see such orders, and more).
    fn order_goals(&self, puzzle: &PermPuzzle, k: usize) -> Vec<kinds::KindsGoal> {
        if k + 1 >= self.phases.len() || self.has_last_phase_tables(k) {
            return Vec::new();
        }
        let later: Vec<&Element> = (k + 1..self.phases.len())
            .flat_map(|j| self.phase_elements(j))
            .collect();
        let orbits = slot_orbits(&puzzle.sets, &self.phase_elements(k + 1));
        let mut goals = Vec::new();
        for (s, def) in puzzle.sets.iter().enumerate() {
            if def.omod != 1 || def.size < 2 || !distinct(puzzle, s) {
                continue;
            }
            let mut roots: Vec<usize> = orbits[s].clone();
            roots.sort_unstable();
            roots.dedup();
            for root in roots {
                let slots: Vec<usize> = (0..def.size).filter(|&i| orbits[s][i] == root).collect();
                let kept = later.iter().all(|e| {
                    slots
                        .iter()
                        .all(|&i| orbits[s][e.orbits[s].perm[i] as usize] == root)
                });
                if slots.len() < 2 || slots.len() > ORDERED_ORBIT || !kept {
                    continue;
                }
                // The orbit's arrangements the later moves reach from solved, numbered as
                // the tie tables number theirs: a label a byte, by place in the orbit
                // (each slot's place, to read a move's source there).
                let mut place = vec![0usize; def.size];
                for (p, &i) in slots.iter().enumerate() {
                    place[i] = p;
                }
                let label_at = |key: u64, p: usize| (key >> (8 * p)) as u8;
                let key_of = |labels: Vec<u8>| {
                    (labels.iter().enumerate())
                        .fold(0u64, |key, (p, &l)| key | u64::from(l) << (8 * p))
                };
                let solved = key_of(
                    slots
                        .iter()
                        .map(|&i| puzzle.solved.orbits[s].perm[i])
                        .collect(),
                );
                let step = |key: u64, m: usize| {
                    let source = |&i: &usize| place[later[m].orbits[s].perm[i] as usize];
                    key_of(slots.iter().map(|i| label_at(key, source(i))).collect())
                };
                let all: usize = (1..=slots.len()).product();
                let Some((reached, _)) = tie::numbered([solved], later.len(), step, all) else {
                    continue;
                };
                if reached.len() == all {
                    continue;
                }
                let mut ways: Vec<Vec<(usize, u8)>> = reached
                    .keys()
                    .map(|&key| {
                        slots
                            .iter()
                            .enumerate()
                            .map(|(p, &i)| (i, label_at(key, p)))
                            .collect()
                    })
                    .collect();
                ways.sort_unstable();
                goals.push(kinds::KindsGoal { set: s, ways });
            }
        }
        goals
    }

    /// For phase `k` when the next phase is the last (a plan with no finish and no
    /// rotations): per set the last phase's moves tie to another over the states they
    /// reach from solved, and per kind of its pieces, how far a state is from holding
    /// them where the tie says (see [`tie::TieTable`]); and per set of distinct pieces
    /// the last phase keeps to fewer arrangements, how far its class is from theirs,
    /// with a set the last phase keeps as it is (see [`coset::CosetTable`]). The last
    /// phase can only finish from such states. With `kept` (where the tables are), they
    /// are kept beside the phase's tables, a tie table's parts of two kinds get their
    /// distances from a table file of their own (built if missing), and its budget bounds
    /// those parts; without, they bound nothing and the default budget is assumed.
    pub fn last_phase_tables(
        &self,
        puzzle: &PermPuzzle,
        k: usize,
        kept: Option<&TableSite>,
    ) -> Result<Vec<kinds::Placing>, ExactError> {
        if !self.has_last_phase_tables(k) {
            return Ok(Vec::new());
        }
        let (last, moves) = (self.phase_elements(k + 1), self.phase_elements(k));
        let budget_mb = kept.map_or(crate::puzzles::perm::DEFAULT_BUDGET_MB, |site| {
            site.budget_mb
        });
        let limits = tie::PartLimits::within(budget_mb);
        let make = || LastPhaseTables {
            ties: tie::tables_before(&puzzle.sets, &puzzle.solved, &last, &moves, limits),
            cosets: coset::tables_before(&puzzle.sets, &puzzle.solved, &last, &moves),
        };
        // Made once and kept beside the phase's tables: a later process reads them back.
        let pattern = &self.phases[k].pattern;
        let mut tables = match kept {
            None => make(),
            Some(&TableSite {
                store,
                source,
                progress,
                ..
            }) => {
                let anchor = super::exact::phase_table_spec(
                    format!("{}-last-phase", super::exact::table_prefix(pattern)),
                    source,
                    "derived structures",
                    vec![("definition".into(), pattern.hash)],
                    0,
                    8,
                );
                // Parts limited by a small budget make other tables (the default's keep
                // their name).
                let limited = if limits.are_widest() {
                    String::new()
                } else {
                    format!(" {limits:?}")
                };
                let key = xxhash_rust::xxh3::xxh3_64(
                    format!(
                        "tie and coset tables, one per tie, its kinds in pairs (tie::joined) {:?}{limited}",
                        (&puzzle.sets, &puzzle.solved, &last, &moves)
                    )
                    .as_bytes(),
                );
                let count = moves.len();
                crate::table::derived::DerivedFile::beside(store, &anchor, "tables", key)
                    .load_or_make(
                        progress,
                        |t: &LastPhaseTables| {
                            t.ties.iter().all(|x| x.sound(count))
                                && t.cosets.iter().all(|x| x.sound(count))
                        },
                        || Some(make()),
                    )
                    .unwrap_or_else(make)
            }
        };
        if let Some(&TableSite {
            store,
            source,
            progress,
            rebuild,
            ..
        }) = kept
        {
            for table in &mut tables.ties {
                for part in table.joint_parts() {
                    let key = table.joint_key(part);
                    let spec = super::exact::phase_table_spec(
                        format!(
                            "{}-tie-{:08x}",
                            super::exact::table_prefix(pattern),
                            key as u32
                        ),
                        source,
                        "tie distances of two kinds",
                        vec![
                            ("definition".into(), pattern.hash),
                            ("numbering".into(), key),
                        ],
                        table.kind_size(part) as u64,
                        4,
                    );
                    if rebuild || !store.status(&spec)? {
                        let (nibbles, histogram) = table.joint_distances(part, progress);
                        store.write(&spec, &nibbles, histogram)?;
                    }
                    table.attach(part, store.open(&spec)?);
                }
            }
        }
        // The coset tables first: they cut most often, and the search stops at the first
        // table that cuts.
        Ok(tables
            .cosets
            .into_iter()
            .map(kinds::Placing::Coset)
            .chain(tables.ties.into_iter().map(kinds::Placing::Tie))
            .collect())
    }

    /// Whether phase `k` may get tables for the last phase ([`Plan::last_phase_tables`]):
    /// the phase before the last, in a plan with no finish and no rotations, whose moves
    /// all cost one.
    fn has_last_phase_tables(&self, k: usize) -> bool {
        self.finish.is_none()
            && self.rotations.is_none()
            && k + 2 == self.phases.len()
            && !self.phases[k].costs.contains(&0)
    }

    /// The moves of phase `k`, as full-puzzle elements.
    pub fn phase_elements(&self, k: usize) -> Vec<&Element> {
        self.phases[k]
            .moves
            .iter()
            .map(|&m| &self.moves[m].element)
            .collect()
    }

    /// Compiles `spec` against `puzzle`: resolves every move name, makes each target a
    /// view, and checks that the phases chain (each phase's moves keep the targets of
    /// the phases before it) and end at the solved state. Errors name the plan's line.
    pub fn compile(puzzle: &PermPuzzle, spec: &PlanSpec) -> Result<Self, PlanError> {
        let mut vocabulary = Vocabulary::new(puzzle);
        let mut names: HashMap<String, Element> = HashMap::new();
        for (name, steps, line) in &spec.compounds {
            if vocabulary.powers.contains_key(name) || vocabulary.bases.contains_key(name) {
                return Err(error(
                    *line,
                    format!(
                        "move {} is already a move of the definition",
                        crate::text::quote(name)
                    ),
                ));
            }
            let mut element = Element::identity(&puzzle.sets);
            for step in steps {
                let (_, e) = vocabulary.powers.get(step).ok_or_else(|| {
                    error(
                        *line,
                        format!(
                            "{}: unknown move {}",
                            crate::text::quote(name),
                            crate::text::quote(step)
                        ),
                    )
                })?;
                element = element.then(e, &puzzle.sets);
            }
            let order = element
                .order(&puzzle.sets)
                .filter(|&o| (2..=MAX_ORDER).contains(&o))
                .ok_or_else(|| {
                    error(
                        *line,
                        format!(
                            "{} does nothing, or repeats only after more than {} turns",
                            crate::text::quote(name),
                            MAX_ORDER
                        ),
                    )
                })? as u32;
            vocabulary.add_base(name, order, &element);
            for (power, e) in &vocabulary.bases[name] {
                names.insert(power.clone(), e.clone());
            }
        }
        let mut expand: HashMap<String, Vec<String>> = HashMap::new();
        for (name, line) in &spec.expand {
            let Some((_, steps, _)) = spec.compounds.iter().find(|(n, _, _)| n == name) else {
                return Err(error(
                    *line,
                    format!(
                        "Expand names {}, which is not a Move of this plan",
                        crate::text::quote(name)
                    ),
                ));
            };
            // Power k: the steps k times, or past half the order the steps undone in
            // reverse (`X'` of `Move X D2 S D` is `D' S D2'`).
            let inverse: Vec<String> = steps
                .iter()
                .rev()
                .map(|step| {
                    puzzle
                        .bases
                        .iter()
                        .find_map(|(base, order)| {
                            let names = power_names(base, *order);
                            let k = names.iter().find(|(_, n)| n == step)?.0;
                            names
                                .into_iter()
                                .find(|(p, _)| *p == order - k)
                                .map(|(_, n)| n)
                        })
                        .unwrap_or_else(|| format!("{step}'"))
                })
                .collect();
            let powers = &vocabulary.bases[name];
            let order = powers.len() + 1;
            for (i, (power, _)) in powers.iter().enumerate() {
                let k = i + 1;
                let written: Vec<String> = if 2 * k <= order {
                    (0..k).flat_map(|_| steps.clone()).collect()
                } else {
                    (0..order - k).flat_map(|_| inverse.clone()).collect()
                };
                expand.insert(power.clone(), written);
            }
        }
        let mut moves: Vec<PuzzleMove> = Vec::new();
        let mut plan_bases: Vec<String> = Vec::new();
        let mut phases: Vec<Phase> = Vec::new();
        for (k, phase) in spec.phases.iter().enumerate() {
            if let Some(line) = phase.inverse.filter(|_| k > 0) {
                return Err(error(
                    line,
                    format!(
                        "Inverse in phase {}: only the first phase starts from the inverse",
                        phase.name
                    ),
                ));
            }
            if let Some(line) = phase.stream.filter(|_| k > 0 || spec.phases.len() == 1) {
                return Err(error(
                    line,
                    format!(
                        "Stream in phase {}: only the first of two or more phases streams \
                         its solutions to the next",
                        phase.name
                    ),
                ));
            }
            if let Some((line, _)) = phase.looks_at {
                if k + 1 == spec.phases.len() {
                    return Err(error(
                        line,
                        format!(
                            "Keep N of M in phase {}: the last phase has no next phase to \
                             rank its solutions by",
                            phase.name
                        ),
                    ));
                }
                if phase.stream.is_some() {
                    return Err(error(
                        line,
                        format!(
                            "Keep N of M in phase {}: a phase that streams hands its \
                             solutions on as they are found",
                            phase.name
                        ),
                    ));
                }
            }
            let (moves_line, tokens) = &phase.moves;
            let mut ids: Vec<usize> = Vec::new();
            let mut local: Vec<PuzzleMove> = Vec::new();
            let mut local_bases: Vec<(String, u32)> = Vec::new();
            for token in tokens {
                let resolved = vocabulary
                    .resolve(token)
                    .ok_or_else(|| unknown_move(*moves_line, token))?;
                for (base, name, element) in resolved {
                    if element.is_identity() || local.iter().any(|m| m.name == name) {
                        continue;
                    }
                    let id = plan_move(&mut moves, &mut plan_bases, &base, &name, &element);
                    let b = match local_bases.iter().position(|(x, _)| *x == base) {
                        Some(b) => b,
                        None => {
                            let order =
                                vocabulary.bases.get(&base).map_or(2, |p| p.len() + 1) as u32;
                            local_bases.push((base.clone(), order));
                            local_bases.len() - 1
                        }
                    };
                    ids.push(id);
                    local.push(PuzzleMove {
                        name,
                        element,
                        base: b,
                    });
                }
            }
            if local.is_empty() {
                return Err(error(
                    *moves_line,
                    "the phase has no move that does anything",
                ));
            }
            if local.len() > super::puzzle::MAX_MOVES {
                return Err(error(
                    *moves_line,
                    format!(
                        "{} moves: at most {} in a phase",
                        local.len(),
                        super::puzzle::MAX_MOVES
                    ),
                ));
            }
            let by_name = super::plan::costs_by_name(phase);
            let mut costs = vec![1u8; local.len()];
            for (name, _, line) in &phase.costs {
                if !local
                    .iter()
                    .any(|m| m.name == *name || local_bases[m.base].0 == *name)
                {
                    return Err(error(
                        *line,
                        format!(
                            "Cost names {}, which is not a move of this phase",
                            crate::text::quote(name)
                        ),
                    ));
                }
            }
            for (i, m) in local.iter().enumerate() {
                if let Some(&c) = by_name
                    .get(m.name.as_str())
                    .or_else(|| by_name.get(local_bases[m.base].0.as_str()))
                {
                    costs[i] = c;
                }
            }
            // A search turns moves that cost nothing as long as it likes: only moves of one
            // base, or of bases that commute (which it turns in one order), end.
            let free: Vec<&PuzzleMove> = local
                .iter()
                .zip(&costs)
                .filter(|(_, &c)| c == 0)
                .map(|(m, _)| m)
                .collect();
            for (i, a) in free.iter().enumerate() {
                for b in &free[i + 1..] {
                    let sets = &puzzle.sets;
                    if a.base != b.base
                        && a.element.then(&b.element, sets) != b.element.then(&a.element, sets)
                    {
                        return Err(error(
                            *moves_line,
                            format!(
                                "moves {} and {} cost 0 and do not commute: a search could \
                                 turn them forever",
                                a.name, b.name
                            ),
                        ));
                    }
                }
            }
            let (target_line, target) = &phase.target;
            let phase_elements: Vec<&Element> = local.iter().map(|m| &m.element).collect();
            let view = match target {
                TargetSpec::Solved => solved_view(puzzle, &phase_elements),
                TargetSpec::Subgroup(tokens) => {
                    let generators = vocabulary
                        .elements(tokens)
                        .map_err(|token| unknown_move(*target_line, &token))?;
                    let generators: Vec<&Element> = generators.iter().collect();
                    subgroup_view(puzzle, &generators, &phase_elements)
                }
                TargetSpec::Pattern { sets, parities, .. } => {
                    // Orientations the phase's moves twist whatever the frame are read in
                    // the next phase's frame, where it has one: that phase keeps them.
                    let next: Option<Vec<Element>> = spec
                        .phases
                        .get(k + 1)
                        .and_then(|next| vocabulary.elements(&next.moves.1).ok());
                    let next: Option<Vec<&Element>> = next.as_ref().map(|n| n.iter().collect());
                    pattern_view(puzzle, sets, parities, &phase_elements, next.as_deref())
                }
            }
            .map_err(|problem| error(*target_line, problem))?;
            let upto: Vec<Element> = match &phase.upto {
                Some((line, tokens)) => vocabulary
                    .elements(tokens)
                    .map_err(|token| unknown_move(*line, &token))?,
                None => Vec::new(),
            };
            // The chain: this phase's moves keep every earlier target (or are among the
            // moves its `Upto` allows), up to the phase its `Through` names (itself: the
            // next phase may undo it, from the states it leaves).
            for (e, earlier) in phases.iter().enumerate() {
                let released = spec.phases[e]
                    .through
                    .as_ref()
                    .is_some_and(|(_, last)| spec.phases[e..k].iter().any(|p| &p.name == last));
                if released {
                    continue;
                }
                let home = earlier.view.apply(&puzzle.solved, &puzzle.sets);
                for m in &local {
                    if earlier.upto.contains(&m.element) {
                        continue;
                    }
                    let moved = puzzle.solved.then(&m.element, &puzzle.sets);
                    if earlier.view.apply(&moved, &puzzle.sets) != home {
                        return Err(error(
                            *moves_line,
                            format!(
                                "move {} of phase {} undoes the target of phase {} (line {}): \
                                 the phases do not chain",
                                m.name, phase.name, earlier.name, earlier.line
                            ),
                        ));
                    }
                }
            }
            if k + 1 == spec.phases.len() {
                match (&spec.finish, target) {
                    (None, TargetSpec::Solved) => {}
                    (None, _) => {
                        return Err(error(
                            *target_line,
                            "the last phase's target must be Solved (or, with a Finish, the \
                             group of its moves)",
                        ))
                    }
                    (Some((faces, _)), TargetSpec::Subgroup(tokens))
                        if faces.len() == tokens.len()
                            && faces.iter().all(|f| tokens.contains(f)) => {}
                    (Some((_, line)), _) => {
                        return Err(error(
                            *target_line,
                            format!(
                                "the last phase's target must be Subgroup of the six moves \
                                 of the Finish on line {line}"
                            ),
                        ))
                    }
                }
            }
            // Pairs the phase's moves keep together, in states the earlier phases paired:
            // each pair one piece.
            let mut view = view;
            if let Some(earlier) = phases.last() {
                for s in 0..puzzle.sets.len() {
                    let Some(blocks) = view::pairs_kept(&puzzle.sets, s, &phase_elements) else {
                        continue;
                    };
                    let same = |other: &[(usize, usize)]| {
                        let norm = |v: &[(usize, usize)]| {
                            let mut v: Vec<(usize, usize)> =
                                v.iter().map(|&(p, q)| (p.min(q), p.max(q))).collect();
                            v.sort_unstable();
                            v
                        };
                        norm(other) == norm(&blocks)
                    };
                    let paired = earlier
                        .view
                        .matching
                        .as_ref()
                        .is_some_and(|m| m.pairing.set == s && same(&m.pairing.blocks))
                        || earlier
                            .view
                            .collapse
                            .as_ref()
                            .is_some_and(|c| c.set == s && same(&c.blocks));
                    if paired {
                        view = view.with_collapse(puzzle, s, blocks, &phase_elements);
                        break;
                    }
                }
            }
            let mut pattern = view.pattern_puzzle(puzzle, &local, local_bases);
            if !upto.is_empty() {
                pattern.hash = xxhash_rust::xxh3::xxh3_64(
                    format!("{}|upto|{upto:?}", pattern.hash).as_bytes(),
                );
            }
            let splittable =
                splittable_sets(puzzle, phases.last(), &phase_elements, &view, &pattern);
            let large = match &phase.large {
                None => None,
                Some((line, groups)) => Some(
                    large_beside(puzzle, &view, &phase_elements, groups)
                        .map_err(|problem| error(*line, problem))?,
                ),
            };
            phases.push(Phase {
                whole: None,
                large,
                splittable,
                upto,
                name: phase.name.clone(),
                moves: ids,
                costs,
                keep: phase.keep.unwrap_or(DEFAULT_KEEP),
                looks_at: phase.looks_at.map_or(0, |(_, m)| m),
                stream: phase.stream.is_some(),
                join: phase.join.unwrap_or(0),
                follows_legality: !keeps_legal_states(puzzle, &local),
                view,
                pattern,
                line: phase.line,
            });
        }
        resolve_wholes(puzzle, spec, &mut phases, &moves)?;
        let rotations = match spec.rotations.first() {
            None => None,
            Some((_, line)) => {
                let generators = spec
                    .rotations
                    .iter()
                    .map(|(name, line)| {
                        vocabulary
                            .powers
                            .get(name)
                            .map(|(_, e)| (name.clone(), e.clone()))
                            .ok_or_else(|| unknown_move(*line, name))
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                let rotations =
                    rotation::Rotations::generate(&puzzle.solved, &puzzle.sets, &generators)
                        .map_err(|problem| error(*line, problem))?;
                Some(rotations)
            }
        };
        let mut turns: Vec<Vec<(Element, Element)>> = Vec::new();
        for (pairs, line) in &spec.views {
            let mut turn = Vec::new();
            for (from, to) in pairs {
                let powers = |name: &str| {
                    vocabulary.bases.get(name).ok_or_else(|| {
                        error(
                            *line,
                            format!("View: unknown base move {}", crate::text::quote(name)),
                        )
                    })
                };
                let (from, to) = (powers(from)?, powers(to)?);
                if from.len() != to.len() {
                    return Err(error(*line, "View pairs moves of different orders"));
                }
                turn.extend(
                    from.iter()
                        .zip(to)
                        .map(|((_, m), (_, n))| (m.clone(), n.clone())),
                );
            }
            turns.push(turn);
        }
        let finish = match &spec.finish {
            None => None,
            Some((names, line)) => {
                let mut faces: Vec<Element> = Vec::with_capacity(6);
                let mut powers_of: Vec<&Vec<(String, Element)>> = Vec::with_capacity(6);
                for name in names {
                    let powers = vocabulary.bases.get(name).filter(|p| p.len() == 3);
                    let Some(powers) = powers else {
                        return Err(error(
                            *line,
                            format!(
                                "Finish: {} is not a base move of order 4 (a face's quarter turn)",
                                crate::text::quote(name)
                            ),
                        ));
                    };
                    faces.push(powers[0].1.clone());
                    powers_of.push(powers);
                }
                // Each 3x3x3 move as plan moves: its power, or two quarter turns for a half
                // turn when only quarter turns are moves.
                let mut by_move: Vec<Vec<usize>> = Vec::with_capacity(18);
                for (face, powers) in names.iter().zip(&powers_of) {
                    for turns in 1..=3usize {
                        let steps: Vec<&(String, Element)> =
                            if turns == 2 && puzzle.metric == PuzzleMetric::Qtm {
                                vec![&powers[0], &powers[0]]
                            } else {
                                vec![&powers[turns - 1]]
                            };
                        let ids = steps
                            .into_iter()
                            .map(|(name, element)| {
                                plan_move(&mut moves, &mut plan_bases, face, name, element)
                            })
                            .collect();
                        by_move.push(ids);
                    }
                }
                let faces: [Element; 6] = std::array::from_fn(|i| faces[i].clone());
                Some(cube3::Finish3::new(puzzle, &faces, by_move, *line)?)
            }
        };
        let inverse = spec.phases.first().and_then(|p| p.inverse);
        let starts = starts::Starts::new(
            puzzle,
            &moves,
            &turns,
            inverse.is_some(),
            rotations.is_some(),
        )
        .map_err(|problem| {
            let view_line = spec.views.first().map(|(_, l)| *l);
            let line = view_line.or(inverse).unwrap_or(0);
            let what = if view_line.is_some() {
                "View"
            } else {
                "Inverse"
            };
            error(line, format!("{what}: {problem}"))
        })?;
        Ok(Self {
            name: spec.name.clone(),
            moves,
            names,
            expand,
            phases,
            rotations,
            starts,
            finish,
        })
    }
}

/// Phase `phase`'s whole-pieces table ([`whole::WholeTable`]) for `goal`, its distances
/// read from their file, built first when missing (within the budget: the distances,
/// 4 bits a number, and the search's 2 bits).
fn open_whole(
    puzzle: &PermPuzzle,
    phase: &Phase,
    goal: &whole::WholeGoal,
    elements: &[&Element],
    site: &TableSite,
) -> Result<whole::WholeTable, ExactError> {
    let mut table = whole::WholeTable::new(puzzle, goal, elements)
        .map_err(|p| ExactError::Unsupported(super::coord::CoordError(p)))?;
    let key = table.key();
    let spec = super::exact::phase_table_spec(
        format!(
            "{}-whole-{:08x}",
            super::exact::table_prefix(&phase.pattern),
            key as u32
        ),
        site.source,
        "whole pieces distances",
        vec![
            ("definition".into(), phase.pattern.hash),
            ("numbering".into(), key),
        ],
        table.size(),
        4,
    );
    if site.rebuild || !site.store.status(&spec)? {
        site.within_budget(
            || format!("the whole pieces table of {}", table.describe(&puzzle.sets)),
            table.bytes() + table.size().div_ceil(4),
        )?;
        site.store.check_writable()?;
        let (nibbles, histogram) = table.distances(site.progress);
        site.store.write(&spec, &nibbles, histogram)?;
    }
    table.attach(site.store.open(&spec)?);
    Ok(table)
}

/// Resolves each phase's `Whole` line against the later phases, which must pair the
/// set's pieces (that is what tells which pieces belong beside each) and keep the goal
/// on every move.
fn resolve_wholes(
    puzzle: &PermPuzzle,
    spec: &PlanSpec,
    phases: &mut [Phase],
    moves: &[PuzzleMove],
) -> Result<(), PlanError> {
    for k in 0..phases.len() {
        let TargetSpec::Pattern {
            whole: Some((line, set, slots)),
            ..
        } = &spec.phases[k].target.1
        else {
            continue;
        };
        let line = *line;
        let s = set_index(puzzle, set).map_err(|p| error(line, format!("Whole: {p}")))?;
        let size = puzzle.sets[s].size;
        let mut zero_based = Vec::with_capacity(slots.len());
        for &slot in slots {
            if slot > size || zero_based.contains(&(slot - 1)) {
                return Err(error(
                    line,
                    format!(
                        "Whole: slot {slot} is not a slot of {set} (1 to {size}) or is listed twice"
                    ),
                ));
            }
            zero_based.push(slot - 1);
        }
        let sides: Vec<view::Sides> = phases[k + 1..]
            .iter()
            .flat_map(|p| p.view.anchored.iter().cloned())
            .collect();
        let goal = whole::WholeGoal::new(puzzle, s, &zero_based, &sides, line)
            .map_err(|p| error(line, p))?;
        for later in &phases[k + 1..] {
            for &m in &later.moves {
                if !goal.kept_by(&moves[m].element) {
                    return Err(error(
                        later.line,
                        format!(
                            "move {} of phase {} undoes the Whole goal of phase {} (line \
                             {line}): the phases do not chain",
                            moves[m].name, later.name, phases[k].name
                        ),
                    ));
                }
            }
        }
        let elements: Vec<&Element> = phases[k].moves.iter().map(|&m| &moves[m].element).collect();
        goal.fits(puzzle, &elements).map_err(|p| error(line, p))?;
        phases[k].whole = Some(goal);
    }
    Ok(())
}

/// The index of move `name` (a power of `base`) among the plan's `moves`, added (with its
/// base among `bases`) if it is not there yet.
fn plan_move(
    moves: &mut Vec<PuzzleMove>,
    bases: &mut Vec<String>,
    base: &str,
    name: &str,
    element: &Element,
) -> usize {
    if let Some(id) = moves.iter().position(|m| m.name == name) {
        return id;
    }
    let b = bases.iter().position(|x| x == base).unwrap_or_else(|| {
        bases.push(base.to_string());
        bases.len() - 1
    });
    moves.push(PuzzleMove {
        name: name.to_string(),
        element: element.clone(),
        base: b,
    });
    moves.len() - 1
}

/// Per set of `pattern`: whether the states entering the phase hold each piece in the
/// orbit (of the phase's moves) it is solved in. They do when the previous target keeps
/// every class of its pieces (the blank one included) inside one such orbit; the first
/// phase's states are anything.
fn splittable_sets(
    puzzle: &PermPuzzle,
    previous: Option<&Phase>,
    moves: &[&Element],
    view: &View,
    pattern: &PermPuzzle,
) -> Vec<bool> {
    let Some(previous) = previous else {
        return vec![false; pattern.sets.len()];
    };
    let orbits = slot_orbits(&puzzle.sets, moves);
    let mut out: Vec<bool> = puzzle
        .sets
        .iter()
        .enumerate()
        .map(|(s, def)| {
            // The pattern puzzle's slots: the set's, or its pairs when collapsed.
            let collapse = view.collapse.as_ref().filter(|c| c.set == s);
            let slot_of = |slot: usize| -> usize {
                match collapse {
                    Some(c) => c
                        .blocks
                        .iter()
                        .position(|&(p, q)| p == slot || q == slot)
                        .unwrap_or(0),
                    None => slot,
                }
            };
            let n = pattern.sets[s].size;
            // The moves' orbits, those of a block's two pieces merged (a block is one
            // slot of the pattern).
            let mut orbit_of = orbits[s].clone();
            if let Some(c) = collapse {
                for &(p, q) in &c.blocks {
                    let (a, b) = (orbit_of[p], orbit_of[q]);
                    if a != b {
                        let (keep, drop) = (a.min(b), a.max(b));
                        orbit_of
                            .iter_mut()
                            .filter(|o| **o == drop)
                            .for_each(|o| *o = keep);
                    }
                }
            }
            // Orbit groups of the pattern's slots: those orbits, merged where the
            // pattern's solved state repeats a label.
            let mut group: Vec<usize> = vec![usize::MAX; n];
            for slot in 0..def.size {
                let g = &mut group[slot_of(slot)];
                if *g == usize::MAX {
                    *g = orbit_of[slot];
                }
            }
            let labels = &pattern.solved.orbits[s].perm;
            let mut changed = true;
            while changed {
                changed = false;
                for i in 0..n {
                    for j in i + 1..n {
                        if labels[i] == labels[j] && group[i] != group[j] {
                            let (keep, drop) = (group[i].min(group[j]), group[i].max(group[j]));
                            group
                                .iter_mut()
                                .filter(|g| **g == drop)
                                .for_each(|g| *g = keep);
                            changed = true;
                        }
                    }
                }
            }
            // Every class of the previous target inside one group.
            let solved = &puzzle.solved.orbits[s];
            let mut group_of_class: HashMap<u8, usize> = HashMap::new();
            (0..def.size).all(|slot| {
                let class = previous.view.classes[s][solved.perm[slot] as usize];
                let g = group[slot_of(slot)];
                *group_of_class.entry(class).or_insert(g) == g
            })
        })
        .collect();
    out.resize(pattern.sets.len(), false);
    out
}

/// The frame in which the phase's moves twist nothing, where one exists (else the next
/// phase's such frame, `next_moves`, where that exists: the 5x5x5's midges, oriented by
/// a phase of quarter turns for one of half turns; else the definition's): a target's
/// orientations read in it are constant under those moves, which then need no twist
/// coordinate. (Any frame reads a target's solved orientation as
/// 0.) Identical pieces must share their slots' frame, or keep the definition's.
fn phase_frame(
    puzzle: &PermPuzzle,
    phase_moves: &[&Element],
    next_moves: Option<&[&Element]>,
) -> Vec<Vec<u8>> {
    let mut frames = twist_free_gauge(&puzzle.sets, phase_moves);
    if let Some(next) = next_moves {
        let next = twist_free_gauge(&puzzle.sets, next);
        for (own, next) in frames.iter_mut().zip(next) {
            for (slot, next) in own.iter_mut().zip(next) {
                *slot = slot.or(next);
            }
        }
    }
    puzzle
        .sets
        .iter()
        .enumerate()
        .map(|(s, def)| {
            let solved = &puzzle.solved.orbits[s];
            let mut frame: Vec<u8> = frames[s].iter().map(|c| c.unwrap_or(0)).collect();
            for i in 0..def.size {
                for j in i + 1..def.size {
                    if solved.perm[i] == solved.perm[j] && frame[i] != frame[j] {
                        frame[i] = 0;
                        frame[j] = 0;
                    }
                }
            }
            frame
        })
        .collect()
}

/// The view of the solved state: every piece followed as the definition labels it.
fn solved_view(puzzle: &PermPuzzle, phase_moves: &[&Element]) -> Result<View, String> {
    let classes: Vec<Vec<Option<u16>>> = puzzle
        .sets
        .iter()
        .map(|_| (0..256u16).map(|l| Some(l + 1)).collect())
        .collect();
    let oriented: Vec<Vec<bool>> = puzzle.sets.iter().map(|_| vec![true; 256]).collect();
    View::new(
        puzzle,
        &classes,
        &oriented,
        phase_frame(puzzle, phase_moves, None),
        Vec::new(),
    )
}

/// Whether a set's pieces are all told apart in the solved state.
fn distinct(puzzle: &PermPuzzle, s: usize) -> bool {
    let mut labels = puzzle.solved.orbits[s].perm.clone();
    labels.sort_unstable();
    labels.windows(2).all(|w| w[0] != w[1])
}

/// The view of "any state `generators` reach from solved": pieces identical within the
/// slot orbits of the generators (orbits sharing a label merged), orientations followed
/// where a frame exists in which the generators twist nothing, and parities of sets (and
/// pairs of sets) of distinct pieces that the generators keep even but the phase's moves
/// do not.
fn subgroup_view(
    puzzle: &PermPuzzle,
    generators: &[&Element],
    phase_moves: &[&Element],
) -> Result<View, String> {
    let orbits = slot_orbits(&puzzle.sets, generators);
    let frames = twist_free_gauge(&puzzle.sets, generators);
    let mut classes: Vec<Vec<Option<u16>>> = Vec::new();
    let mut oriented: Vec<Vec<bool>> = Vec::new();
    let mut gauge: Vec<Vec<u8>> = Vec::new();
    for (s, def) in puzzle.sets.iter().enumerate() {
        let solved = &puzzle.solved.orbits[s];
        // Orbits that hold the same label are one class.
        let mut class_of_orbit: Vec<usize> = (0..def.size).collect();
        let mut first_orbit_of_label: HashMap<u8, usize> = HashMap::new();
        for (slot, &label) in solved.perm.iter().enumerate() {
            let orbit = orbits[s][slot];
            if let Some(&other) = first_orbit_of_label.get(&label) {
                let (a, b) = (
                    root(&mut class_of_orbit, orbit),
                    root(&mut class_of_orbit, other),
                );
                class_of_orbit[a] = b;
            } else {
                first_orbit_of_label.insert(label, orbit);
            }
        }
        let mut label_class = vec![None; 256];
        let mut label_oriented = vec![true; 256];
        let mut label_frame: Vec<Option<u8>> = vec![None; 256];
        let mut frame = vec![0u8; def.size];
        for (slot, &label) in solved.perm.iter().enumerate() {
            let class = root(&mut class_of_orbit, orbits[s][slot]);
            label_class[label as usize] = Some(class as u16 + 1);
            match frames[s][slot] {
                Some(c) => {
                    frame[slot] = c;
                    // Identical pieces must share the frame of their slots.
                    match label_frame[label as usize] {
                        Some(other) if other != c => label_oriented[label as usize] = false,
                        _ => label_frame[label as usize] = Some(c),
                    }
                }
                None => label_oriented[label as usize] = false,
            }
            if solved.ori[slot] == WILD {
                label_oriented[label as usize] = false;
            }
        }
        // A slot whose orientation is not followed keeps the plain frame.
        for (slot, &label) in solved.perm.iter().enumerate() {
            if !label_oriented[label as usize] {
                frame[slot] = 0;
            }
        }
        classes.push(label_class);
        oriented.push(label_oriented);
        gauge.push(frame);
    }
    // Parities the generators keep and the phase's moves do not.
    let candidates: Vec<usize> = (0..puzzle.sets.len())
        .filter(|&s| distinct(puzzle, s) && puzzle.sets[s].size > 1)
        .collect();
    let odd = |e: &Element, sets: &[usize]| {
        sets.iter()
            .map(|&s| parity(&e.orbits[s].perm))
            .fold(0, |a, b| a ^ b)
    };
    let mut parities: Vec<Vec<usize>> = Vec::new();
    for &s in &candidates {
        let kept = generators.iter().all(|g| odd(g, &[s]) == 0);
        let broken = phase_moves.iter().any(|m| odd(m, &[s]) == 1);
        if kept && broken {
            parities.push(vec![s]);
        }
    }
    for (i, &a) in candidates.iter().enumerate() {
        for &b in &candidates[i + 1..] {
            if parities.iter().any(|p| p == &vec![a] || p == &vec![b]) {
                continue;
            }
            let kept = generators.iter().all(|g| odd(g, &[a, b]) == 0);
            let broken = phase_moves.iter().any(|m| odd(m, &[a, b]) == 1);
            if kept && broken {
                parities.push(vec![a, b]);
            }
        }
    }
    let mut view = View::new(puzzle, &classes, &oriented, gauge, parities)?;
    // Pairs of slots the target keeps together, split by the phase's moves: a matching.
    for s in 0..puzzle.sets.len() {
        if puzzle.sets[s].omod != 1 || !distinct(puzzle, s) {
            continue;
        }
        let Some(blocks) = view::pairs_kept(&puzzle.sets, s, generators) else {
            continue;
        };
        let Some(matching) = matching_of(puzzle, s, &blocks, generators, phase_moves) else {
            continue;
        };
        // Pairs each kept with a piece of another set (a 5x5x5's two wings with their
        // midge): each side matched against those pieces, which says more than the wings
        // matched with each other.
        if let Some(anchored) = anchored_sides(puzzle, &matching, generators) {
            view.anchored = anchored;
        } else {
            view = view.with_matching(puzzle, matching);
        }
        break;
    }
    Ok(view)
}

/// The number of the set named `name`, or the error saying there is none.
fn set_index(puzzle: &PermPuzzle, name: &str) -> Result<usize, String> {
    (puzzle.sets.iter())
        .position(|d| d.name == name)
        .ok_or_else(|| format!("no set named {}", crate::text::quote(name)))
}

/// The slots a `Large` line names (per set, slot numbers from 1), checked against the
/// phase: it follows a matching, its moves keep each set's slots among themselves, each
/// set's slots hold two kinds of piece solved and the target tells them apart.
fn large_beside(
    puzzle: &PermPuzzle,
    view: &View,
    moves: &[&Element],
    groups: &[(String, Vec<String>)],
) -> Result<view::Beside, String> {
    let pairs = (view.matching.as_ref().map(|m| m.a.len()))
        .or(view.anchored.first().map(|s| s.a.len()))
        .unwrap_or(0);
    if pairs == 0 {
        return Err(
            "Large needs a phase whose target pairs pieces its moves split \
                    (a matching)"
                .into(),
        );
    }
    if pairs > matching::MOST_PAIRS_BESIDE {
        return Err(format!(
            "Large: the phase's matching has {pairs} pairs, at most {} with slots beside",
            matching::MOST_PAIRS_BESIDE
        ));
    }
    let mut parts = Vec::with_capacity(groups.len());
    let mut arrangements = 1u64;
    for (set, slots) in groups {
        let (s, numbers, count) = large_slots(puzzle, view, moves, set, slots)?;
        if (parts.iter()).any(|(t, slots): &(usize, Vec<usize>)| {
            *t == s && slots.iter().any(|x| numbers.contains(x))
        }) {
            return Err(format!("Large names a slot of set {set} twice"));
        }
        arrangements = arrangements.saturating_mul(count);
        parts.push((s, numbers));
    }
    if arrangements > matching::MOST_BESIDE_ARRANGEMENTS {
        return Err(format!(
            "Large: the slots have {arrangements} arrangements, at most {}",
            matching::MOST_BESIDE_ARRANGEMENTS
        ));
    }
    let (set, slots) = parts.remove(0);
    Ok(view::Beside {
        set,
        slots,
        also: parts,
    })
}

/// One set's slots of a `Large` line, checked (see [`large_beside`]): the set, its slots
/// from 0, and how many arrangements of their two kinds there are.
fn large_slots(
    puzzle: &PermPuzzle,
    view: &View,
    moves: &[&Element],
    set: &str,
    slots: &[String],
) -> Result<(usize, Vec<usize>, u64), String> {
    let s = set_index(puzzle, set).map_err(|e| format!("Large: {e}"))?;
    let size = puzzle.sets[s].size;
    let mut numbers = Vec::new();
    for token in slots {
        let slot = token
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=size).contains(n))
            .ok_or_else(|| {
                format!(
                    "Large: {} is not a slot of {set} (1 to {size})",
                    crate::text::quote(token)
                )
            })?;
        if numbers.contains(&(slot - 1)) {
            return Err(format!("Large names slot {slot} twice"));
        }
        numbers.push(slot - 1);
    }
    if numbers.len() > matching::MOST_BESIDE {
        return Err(format!(
            "Large names {} slots: at most {}",
            numbers.len(),
            matching::MOST_BESIDE
        ));
    }
    for m in moves {
        if let Some(&slot) =
            (numbers.iter()).find(|&&x| !numbers.contains(&(m.orbits[s].perm[x] as usize)))
        {
            return Err(format!(
                "Large: the phase's moves bring a piece into slot {} of {set} from a slot not named",
                slot + 1
            ));
        }
    }
    let solved: Vec<u8> = numbers
        .iter()
        .map(|&x| puzzle.solved.orbits[s].perm[x])
        .collect();
    let mut kinds = solved.clone();
    kinds.sort_unstable();
    kinds.dedup();
    if kinds.len() != 2 {
        return Err(format!(
            "Large: the slots must hold two kinds of piece when solved, not {}",
            kinds.len()
        ));
    }
    let class = |kind: u8| view.classes[s][kind as usize];
    if class(kinds[0]) == class(kinds[1]) {
        return Err("Large: the phase's target does not tell the slots' two kinds apart".into());
    }
    // Which slots hold the first kind: C(slots, its count) arrangements.
    let ones = solved.iter().filter(|&&k| k == kinds[0]).count() as u64;
    let n = numbers.len() as u64;
    let count = (0..ones).fold(1u64, |acc, i| acc * (n - i) / (i + 1));
    Ok((s, numbers, count))
}

/// The matching of the pairs `blocks` of set `s` when the phase's moves split every pair
/// between two sides (unions of their slot orbits) and keep each side: which slot of each
/// pair is on side A, and the sets whose parity the target's moves tie to the pairs'.
fn matching_of(
    puzzle: &PermPuzzle,
    s: usize,
    blocks: &[(usize, usize)],
    generators: &[&Element],
    phase_moves: &[&Element],
) -> Option<view::Matching> {
    let orbits = slot_orbits(&puzzle.sets, phase_moves);
    let orbit = &orbits[s];
    let mut side_a: Vec<usize> = Vec::new();
    let mut side_b: Vec<usize> = Vec::new();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for &(p, q) in blocks {
        let (op, oq) = (orbit[p], orbit[q]);
        if op == oq {
            return None;
        }
        let (first, second) = if side_a.contains(&op) || side_b.contains(&oq) {
            (p, q)
        } else if side_a.contains(&oq) || side_b.contains(&op) {
            (q, p)
        } else {
            side_a.push(op);
            side_b.push(oq);
            (p, q)
        };
        if side_b.contains(&orbit[first]) || side_a.contains(&orbit[second]) {
            return None;
        }
        if !side_a.contains(&orbit[first]) {
            side_a.push(orbit[first]);
        }
        if !side_b.contains(&orbit[second]) {
            side_b.push(orbit[second]);
        }
        a.push(first);
        b.push(second);
    }
    let solved = &puzzle.solved.orbits[s];
    let mut block_of_label = vec![u8::MAX; 256];
    for (j, &(p, q)) in blocks.iter().enumerate() {
        block_of_label[solved.perm[p] as usize] = j as u8;
        block_of_label[solved.perm[q] as usize] = j as u8;
    }
    // The target's moves take pairs to pairs: the parity of that permutation, beside
    // each other set's, for every generator.
    let block_parity = |g: &Element| -> u8 {
        let perm: Vec<u8> = blocks
            .iter()
            .map(|&(p, _)| {
                let from = g.orbits[s].perm[p] as usize;
                blocks
                    .iter()
                    .position(|&(x, y)| x == from || y == from)
                    .unwrap_or(0) as u8
            })
            .collect();
        parity(&perm)
    };
    let alone = generators.iter().all(|g| block_parity(g) == 0);
    let with = if alone {
        Vec::new()
    } else {
        match (0..puzzle.sets.len()).find(|&t| {
            t != s
                && distinct(puzzle, t)
                && generators
                    .iter()
                    .all(|g| block_parity(g) == parity(&g.orbits[t].perm))
        }) {
            Some(t) => vec![t],
            None => Vec::new(),
        }
    };
    Some(view::Matching {
        pairing: view::Pairing {
            set: s,
            blocks: blocks.to_vec(),
            block_of_label,
        },
        a,
        b,
        with,
    })
}

/// When the target's moves keep every pair of `matching` with one slot of another set
/// (an anchor: the 5x5x5's midge between its two wings), the pair's two sides each
/// matched against the anchors: per pair, its A slot (then its B slot) against its
/// anchor's slot, a piece's partner being the anchor piece solved beside it. `None`
/// when no set anchors the pairs.
fn anchored_sides(
    puzzle: &PermPuzzle,
    matching: &view::Matching,
    generators: &[&Element],
) -> Option<Vec<view::Sides>> {
    let s = matching.pairing.set;
    let pairs = matching.a.len();
    // The first set that holds one slot beside both pieces of each pair, a different
    // slot for each pair.
    let (anchor_set, anchors) = (0..puzzle.sets.len())
        .filter(|&t| t != s && puzzle.sets[t].size == pairs && distinct(puzzle, t))
        .find_map(|t| {
            let anchors: Vec<usize> = matching
                .a
                .iter()
                .zip(&matching.b)
                .map(|(&p, &q)| {
                    let at = view::kept_with(&puzzle.sets, (s, p), t, generators)?;
                    (view::kept_with(&puzzle.sets, (s, q), t, generators)? == at).then_some(at)
                })
                .collect::<Option<_>>()?;
            let mut taken = vec![false; pairs];
            anchors
                .iter()
                .all(|&at| !std::mem::replace(&mut taken[at], true))
                .then_some((t, anchors))
        })?;
    let solved = &puzzle.solved;
    let side = |slots: &[usize]| {
        let mut partner = vec![u8::MAX; 256];
        for (&slot, &anchor) in slots.iter().zip(&anchors) {
            partner[solved.orbits[s].perm[slot] as usize] = solved.orbits[anchor_set].perm[anchor];
        }
        view::Sides {
            a_set: s,
            a: slots.to_vec(),
            b_set: anchor_set,
            b: anchors.clone(),
            partner,
            beside: None,
        }
    };
    Some(vec![side(&matching.a), side(&matching.b)])
}

/// The view of a pattern target: per named set, the class of the piece solved in each
/// slot; sets not named are not followed.
fn pattern_view(
    puzzle: &PermPuzzle,
    sets: &[PatternSet],
    parities: &[(usize, Vec<String>)],
    phase_moves: &[&Element],
    next_moves: Option<&[&Element]>,
) -> Result<View, String> {
    // Sets the pattern does not name are not followed.
    let mut classes: Vec<Vec<Option<u16>>> = puzzle.sets.iter().map(|_| vec![None; 256]).collect();
    let mut oriented: Vec<Vec<bool>> = puzzle.sets.iter().map(|_| vec![false; 256]).collect();
    for set in sets {
        let s = set_index(puzzle, &set.name)?;
        let def = &puzzle.sets[s];
        if set.classes.len() != def.size {
            return Err(format!(
                "set {} needs {} classes (one per slot), found {}",
                def.name,
                def.size,
                set.classes.len()
            ));
        }
        if let Some(o) = &set.orientation {
            if o.len() != def.size {
                return Err(format!(
                    "set {} needs {} orientations, found {}",
                    def.name,
                    def.size,
                    o.len()
                ));
            }
        }
        let solved = &puzzle.solved.orbits[s];
        let mut by_label: Vec<Option<Option<u16>>> = vec![None; 256];
        let mut ori_by_label: Vec<Option<bool>> = vec![None; 256];
        for (slot, &label) in solved.perm.iter().enumerate() {
            let class = set.classes[slot];
            if by_label[label as usize].is_some_and(|c| c != class) {
                return Err(format!(
                    "set {}: piece {} is identical to another in the definition, so both \
                     need one class",
                    def.name,
                    label as usize + 1
                ));
            }
            by_label[label as usize] = Some(class);
            let follow = set.orientation.as_ref().is_none_or(|o| o[slot]);
            if ori_by_label[label as usize].is_some_and(|f| f != follow) {
                return Err(format!(
                    "set {}: identical pieces need the same orientation rule",
                    def.name
                ));
            }
            ori_by_label[label as usize] = Some(follow);
        }
        for label in 0..256 {
            if let Some(class) = by_label[label] {
                classes[s][label] = class;
            }
            if let Some(follow) = ori_by_label[label] {
                oriented[s][label] = follow;
            }
        }
    }
    let mut parity_sets = Vec::new();
    let mut readings = Vec::new();
    for (_, names) in parities {
        let mut group = Vec::new();
        for name in names {
            let s = set_index(puzzle, name).map_err(|e| format!("Parity: {e}"))?;
            group.push(s);
        }
        match group.as_slice() {
            // A set with identical pieces: the order of its other pieces, read slot by
            // slot (Square-1's 16 pieces; each corner's second halves are alike).
            &[s] if !distinct(puzzle, s) => {
                let solved = &puzzle.solved.orbits[s].perm;
                let mut place = vec![u8::MAX; 256];
                let mut next = 0u8;
                for &label in solved {
                    if solved.iter().filter(|&&l| l == label).count() == 1 {
                        place[label as usize] = next;
                        next += 1;
                    }
                }
                readings.push((s, place));
            }
            _ => {
                if let Some(&s) = group.iter().find(|&&s| !distinct(puzzle, s)) {
                    return Err(format!(
                        "Parity: set {} has identical pieces: its order is read alone, on a \
                         line of its own",
                        puzzle.sets[s].name
                    ));
                }
                parity_sets.push(group);
            }
        }
    }
    let mut view = View::new(
        puzzle,
        &classes,
        &oriented,
        phase_frame(puzzle, phase_moves, next_moves),
        parity_sets,
    )?;
    view.readings = readings;
    Ok(view)
}

/// Whether `moves` keep every piece an `Illegal` rule names where it is (true without
/// rules): legal states then stay legal, and a phase need not check them.
fn keeps_legal_states(puzzle: &PermPuzzle, moves: &[PuzzleMove]) -> bool {
    moves.iter().all(|m| {
        let moved = puzzle.solved.then(&m.element, &puzzle.sets);
        puzzle.illegal.iter().all(|rule| {
            let watched = |state: &Element| -> Vec<bool> {
                state.orbits[rule.set]
                    .perm
                    .iter()
                    .map(|l| rule.labels.contains(l))
                    .collect()
            };
            watched(&moved) == watched(&puzzle.solved)
        })
    })
}

/// Why a state has no phased solution.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PhasedError {
    /// The moves cannot reach the state.
    #[error("not reachable with the moves searched")]
    Unreachable,
    /// The deadline passed before any solution was found.
    #[error("no solution found within the time allowed (--timeout)")]
    TimedOut,
    /// The search was cancelled.
    #[error("cancelled")]
    Cancelled,
    /// The phases found no solution (a state outside what the plan handles).
    #[error("the plan's phases found no solution for this state")]
    NoSolution,
    /// No random state could be drawn (the stabilizer chain could not be made).
    #[error("no random state can be drawn for this puzzle")]
    NoRandomState,
    /// A scramble read back does not reach the state it was made for (a fault of the
    /// solver or of the names it writes, never of the input).
    #[error("the scramble does not reach the state drawn")]
    ScrambleMisses,
}

/// Limits of one solve.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// Stop at the first solution of at most this cost (searching wider until one is
    /// found or time runs out).
    pub max_length: Option<usize>,
    /// Give up (returning the best found) at this deadline or cancel flag.
    pub stop: Stop,
    /// Without `max_length`: keep searching wider passes until `stop` for shorter totals
    /// (the command line's `--timeout`), rather than answering after the first pass.
    pub until_stop: bool,
}

/// A phased solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhasedSolution {
    /// The moves, as indices into [`Plan::moves`].
    pub moves: Vec<usize>,
    /// Its cost in the plan's count (moves of cost 0 not counted).
    pub cost: usize,
    /// The cost of each phase's part.
    pub phase_costs: Vec<usize>,
    /// Nodes the searches generated.
    pub nodes: u64,
    /// Passes through the phases the search made (the quick one included, when there is
    /// one): 1 when the plan's own widths found it.
    pub passes: usize,
}

/// One partial solution handed from phase to phase.
#[derive(Clone)]
struct Candidate {
    full: Element,
    moves: Vec<usize>,
    cost: usize,
    phase_costs: Vec<usize>,
    /// The next phase's start node, worked out when the candidate was scored.
    start: Option<StartNode>,
    /// Which of the plan's starts it comes from (0: the state itself; see
    /// [`starts::Starts`]): its moves are read back through it.
    from: usize,
}

/// The solutions a phase hands on to the next, with their scores: at most `keep`, each
/// reaching a different state, and a different start of the next phase. Another path to
/// a state already handed on (as cheap or dearer: totals only grow) would only make the
/// next phase search that state again; so would a state the next phase sees as one
/// handed on (the same coordinates: the 4x4x4's pairs phase sees centres and wings, not
/// corners, and had searched one start over and over).
///
/// With `Keep N of M` it looks at M solutions (`looks_at`) and keeps the N best by
/// score, in the order found among equals: one that could not be among them is passed
/// over before anything of it is copied.
struct HandedOn<T = Candidate> {
    keep: usize,
    kept: Vec<(usize, T)>,
    reached: NumberSet<Element>,
    started: NumberSet<Vec<u64>>,
    /// Solutions passed over for reaching a state already handed on.
    repeated: usize,
    /// Solutions to look at before stopping (0: stop at `keep` kept).
    looks_at: usize,
    /// Solutions scored so far (`Keep N of M`).
    seen: usize,
    /// Per score, how many of `kept` have it (`Keep N of M`).
    by_score: Vec<usize>,
}

/// What the next phase makes of a state a phase's solution reaches.
enum NextStart {
    /// Scored by the solution's total and the start's bound (the total alone when the
    /// phase is the last); the start's values are in the [`NextScratch`].
    Scored(usize),
    /// A start of its class was handed on already: passed over before its distance is
    /// walked.
    ClassHandedOn,
    /// The next phase cannot start there.
    Unreachable,
}

/// Room reused from one scored solution to the next: the next phase's view of the
/// state reached, its coordinate values, ranked state and start key.
struct NextScratch {
    view: Element,
    values: Vec<u64>,
    inner: Element,
    key: Vec<u64>,
}

impl NextScratch {
    fn new() -> Self {
        Self {
            view: Element { orbits: Vec::new() },
            values: Vec::new(),
            inner: Element { orbits: Vec::new() },
            key: Vec::new(),
        }
    }
}

/// What [`HandedOn`] needs of a candidate: the state it reaches.
trait Reaches {
    fn state(&self) -> &Element;
}

impl Reaches for Candidate {
    fn state(&self) -> &Element {
        &self.full
    }
}

impl<T: Reaches> HandedOn<T> {
    fn new(keep: usize) -> Self {
        // Room for what a phase keeping several hands on (the 4x4x4's first phase:
        // 2,000), so that the sets are not grown and rehashed on the way.
        let room = keep.min(HANDED_ON_ROOM);
        Self {
            keep,
            kept: Vec::with_capacity(room),
            reached: NumberSet::with_capacity_and_hasher(room, Default::default()),
            started: NumberSet::with_capacity_and_hasher(room, Default::default()),
            repeated: 0,
            looks_at: 0,
            seen: 0,
            by_score: Vec::new(),
        }
    }

    /// The same, looking at `looks_at` solutions and keeping the `keep` best (no more
    /// than `keep` looked at: the first `keep`).
    fn looking_at(keep: usize, looks_at: usize) -> Self {
        Self {
            looks_at: if looks_at > keep { looks_at } else { 0 },
            ..Self::new(keep)
        }
    }

    /// Whether a solution scored `score` could be among the best kept (always, without
    /// `Keep N of M`).
    fn could_keep(&self, score: usize) -> bool {
        self.looks_at == 0 || self.by_score.iter().take(score + 1).sum::<usize>() < self.keep
    }

    /// Counts a solution as looked at (`Keep N of M`).
    fn note_seen(&mut self) {
        if self.looks_at > 0 {
            self.seen += 1;
        }
    }

    /// The kept solutions, the best `keep` by score first when it looked at more
    /// (stable: in the order found among equals).
    fn into_best(mut self) -> Vec<(usize, T)> {
        if self.looks_at > 0 {
            self.kept.sort_by_key(|(score, _)| *score);
            self.kept.truncate(self.keep);
        }
        self.kept
    }

    /// Whether `state` was handed on already (then counted as repeated).
    fn already(&mut self, state: &Element) -> bool {
        let seen = self.reached.contains(state);
        self.repeated += usize::from(seen);
        seen
    }

    /// Whether the next phase's start `values` (coordinates) was handed on already (then
    /// counted as repeated); else it is taken.
    fn already_started(&mut self, values: &[u64]) -> bool {
        let seen = !self.started.insert(values.to_vec());
        self.repeated += usize::from(seen);
        seen
    }

    /// Whether the next phase's start key `key` was handed on already (then counted as
    /// repeated); nothing is taken.
    fn started_already(&mut self, key: &[u64]) -> bool {
        let seen = self.started.contains(key);
        self.repeated += usize::from(seen);
        seen
    }

    /// Hands on `candidate` (whose state was not handed on yet); whether more are wanted.
    fn push(&mut self, score: usize, candidate: T) -> bool {
        self.reached.insert(candidate.state().clone());
        self.kept.push((score, candidate));
        if self.looks_at > 0 {
            if self.by_score.len() <= score {
                self.by_score.resize(score + 1, 0);
            }
            self.by_score[score] += 1;
        }
        !self.is_full()
    }

    fn is_full(&self) -> bool {
        if self.looks_at > 0 {
            self.seen >= self.looks_at
        } else {
            self.kept.len() >= self.keep
        }
    }
}

/// A plan with its tables open: solves any state the plan handles.
pub struct PhasedSolver {
    puzzle: PermPuzzle,
    plan: Plan,
    tables: Vec<PhaseTables>,
    /// Per phase, [`spare_moves`].
    spares: Vec<(u128, u128)>,
    /// Per phase, its steps of free moves then a paid move, where they are listed.
    steps: Vec<Option<FreeSteps>>,
    /// How answers merge turns of one base.
    spelling: Spelling,
    membership: std::sync::OnceLock<Option<super::group::Membership>>,
    /// The two-phase solver of the plan's `Finish 3x3x3`, in the puzzle's metric.
    two_phase: Option<TwoPhaseSolver>,
}

/// The definition's turns as answers merge them (see [`PhasedSolver::format`]), worked
/// out once: each move name's base and power, each base's powers' names, and which bases
/// move no slot in common.
struct Spelling {
    /// Per move name: its base (an index into `powers`) and power.
    power: HashMap<String, (usize, u32)>,
    /// Per base: the names of its powers 1, 2, ... (its order less one of them).
    powers: Vec<Vec<String>>,
    /// Per pair of bases: whether they move (or twist) no slot in common.
    apart: Vec<Vec<bool>>,
}

impl Spelling {
    fn new(puzzle: &PermPuzzle) -> Self {
        let mut power = HashMap::new();
        let powers: Vec<Vec<String>> = puzzle
            .bases
            .iter()
            .enumerate()
            .map(|(b, (base, order))| {
                let names = power_names(base, *order);
                for (k, name) in &names {
                    power.entry(name.clone()).or_insert((b, *k));
                }
                names.into_iter().map(|(_, name)| name).collect()
            })
            .collect();
        // The slots each base's turn moves (or twists), per set; `None` for a base
        // that is no move.
        let moved: Vec<Option<Vec<Vec<bool>>>> = puzzle
            .bases
            .iter()
            .map(|(base, _)| {
                let m = puzzle.moves.iter().find(|m| &m.name == base)?;
                Some(
                    m.element
                        .orbits
                        .iter()
                        .map(|o| {
                            o.perm
                                .iter()
                                .zip(&o.ori)
                                .enumerate()
                                .map(|(i, (&p, &t))| p as usize != i || t != 0)
                                .collect()
                        })
                        .collect(),
                )
            })
            .collect();
        let apart = moved
            .iter()
            .map(|a| {
                moved
                    .iter()
                    .map(|b| match (a, b) {
                        (Some(x), Some(y)) => x
                            .iter()
                            .zip(y)
                            .all(|(x, y)| x.iter().zip(y).all(|(&x, &y)| !(x && y))),
                        _ => false,
                    })
                    .collect()
            })
            .collect();
        Self {
            power,
            powers,
            apart,
        }
    }
}

/// The tables for the phase before the last ([`Plan::last_phase_tables`]), as a file keeps them.
#[derive(serde::Serialize, serde::Deserialize)]
struct LastPhaseTables {
    ties: Vec<tie::TieTable>,
    cosets: Vec<coset::CosetTable>,
}

impl PhasedSolver {
    /// Opens the tables of every phase of `plan` at `site` (building missing ones, all
    /// cores, with progress), each build within its budget; a rebuilding site builds
    /// every one again (`cubedb-gen puzzle --force`).
    pub fn open(puzzle: &PermPuzzle, plan: Plan, site: &TableSite) -> Result<Self, ExactError> {
        let (store, progress, rebuild) = (site.store, site.progress, site.rebuild);
        let metric = match puzzle.metric {
            PuzzleMetric::Htm => Metric::Htm,
            PuzzleMetric::Qtm => Metric::Qtm,
        };
        // A finish's two-phase tables, there to open (else built): refused before any
        // other table is built when they would take more than the budget.
        let two_phase_present =
            plan.finish.is_some() && !rebuild && TwoPhaseSolver::present(store, metric);
        if let Some(finish) = &plan.finish {
            if !two_phase_present {
                site.within_budget(
                    || {
                        format!(
                            "the finish (line {}): the two-phase tables ({})",
                            finish.line,
                            metric.name()
                        )
                    },
                    TwoPhaseSolver::build_bytes(metric),
                )?;
            }
        }
        // Each phase's matchings, as their tables follow them.
        let sides_of = |k: usize| -> Vec<view::Sides> {
            let view = &plan.phases[k].view;
            view.matching
                .iter()
                .map(|m| view::Sides {
                    beside: plan.phases[k].large.clone(),
                    ..view::Sides::within(puzzle, m)
                })
                .chain(view.anchored.iter().map(|s| view::Sides {
                    beside: plan.phases[k].large.clone(),
                    ..s.clone()
                }))
                .collect()
        };
        let asked_at = |k: usize| {
            let phase = &plan.phases[k];
            move || format!("phase {} (line {})", phase.name, phase.line)
        };
        // Matching tables to build: refused before any table is built when one would
        // take more than the budget (the phases' other tables fit it or give way).
        for k in 0..plan.phases.len() {
            let elements = plan.phase_elements(k);
            for sides in sides_of(k) {
                matching::MatchingTable::within_budget(puzzle, &sides, &elements, site)
                    .map_err(|e| e.asked_at(asked_at(k)))?;
            }
        }
        // One phase's tables, given the last phase's tables it gets (see below).
        let open_phase =
            |k: usize, last_tables: Vec<kinds::Placing>| -> Result<PhaseTables, ExactError> {
                let phase = &plan.phases[k];
                let elements = plan.phase_elements(k);
                let sides = sides_of(k);
                let matching = (puzzle, sides.as_slice(), elements.as_slice());
                // The next phase's matching, for this phase to bring its pairs across.
                let straddle = plan
                    .straddled_by(k)
                    .map(|m| (puzzle, m, elements.as_slice()));
                // Kinds the later phases need where they never move.
                let mut kinds: Vec<kinds::Placing> = plan
                    .kinds_goals(puzzle, k)
                    .iter()
                    .filter_map(|goal| kinds::KindsTable::new(puzzle, goal, &elements))
                    .map(kinds::Placing::Kinds)
                    .chain(last_tables)
                    .collect();
                if let Some(goal) = &phase.whole {
                    let table = open_whole(puzzle, phase, goal, &elements, site)
                        .map_err(|e| e.asked_at(asked_at(k)))?;
                    kinds.push(kinds::Placing::Whole(Box::new(table)));
                }
                let upto: Vec<Element> = phase
                    .upto
                    .iter()
                    .map(|e| phase.view.map_move(e, &puzzle.sets))
                    .collect();
                PhaseTables::load_or_build(
                    &phase.pattern,
                    &phase.splittable,
                    &phase.costs,
                    phase.join,
                    &upto,
                    matching,
                    straddle,
                    kinds,
                    &phase.name,
                    site,
                )
                .map_err(|e| e.asked_at(asked_at(k)))
            };
        // The tie and coset tables for the last phase (read from the file kept beside the
        // tables, 23 MB for the FTO, or made) on the other core while the other phases'
        // tables open: a fresh FTO process answers 10 ms sooner.
        let open_phases = || -> Result<Vec<PhaseTables>, ExactError> {
            let n = plan.phases.len();
            let Some(before_last) = (0..n).find(|&k| plan.has_last_phase_tables(k)) else {
                return (0..n).map(|k| open_phase(k, Vec::new())).collect();
            };
            let (last_tables, others) = rayon::join(
                || plan.last_phase_tables(puzzle, before_last, Some(site)),
                || {
                    (0..n)
                        .filter(|&k| k != before_last)
                        .map(|k| open_phase(k, Vec::new()))
                        .collect::<Result<Vec<_>, ExactError>>()
                },
            );
            let mut tables = others?;
            tables.insert(before_last, open_phase(before_last, last_tables?)?);
            Ok(tables)
        };
        let open_two_phase = || -> Result<Option<TwoPhaseSolver>, ExactError> {
            let open = |_: &cube3::Finish3| TwoPhaseSolver::open(store, metric, progress);
            Ok(plan.finish.as_ref().map(open).transpose()?)
        };
        // Two-phase tables already there are opened on the other core while the phases'
        // tables open; missing ones are built after the phases' tables, on every core,
        // their progress lines apart.
        let (tables, two_phase) = if two_phase_present {
            let (tables, two_phase) = rayon::join(open_phases, open_two_phase);
            (tables?, two_phase?)
        } else {
            (open_phases()?, open_two_phase()?)
        };
        let spares = spare_moves(puzzle, &plan, &tables);
        let steps = plan
            .phases
            .iter()
            .zip(&tables)
            .enumerate()
            .map(|(k, (phase, tables))| {
                let elements = plan.phase_elements(k);
                // As the search asks (see `pass`): the coordinate that keeps the rules, or
                // full states when none does.
                let guard = phase
                    .follows_legality
                    .then(|| tables.legality_guard(puzzle.illegal.len()))
                    .flatten();
                let full = phase.follows_legality && guard.is_none();
                let make =
                    || FreeSteps::new(tables, &phase.costs, guard, full, (&elements, &puzzle.sets));
                // Listed once and kept beside the phase's exact table (for its contents:
                // a step holds the table's value where it lands).
                match (tables.exact_file(), tables.whole_exact_size()) {
                    (Some((spec, checksum)), Some(states)) => {
                        let key = xxhash_rust::xxh3::xxh3_64(
                            format!(
                                "{:?}",
                                (&phase.costs, guard.map(|g| g.0), full, &elements, checksum)
                            )
                            .as_bytes(),
                        );
                        let moves = tables.ranked.moves.len();
                        let suffix = format!("steps-{:08x}", key as u32);
                        crate::table::derived::DerivedFile::beside(store, spec, &suffix, key)
                            .load_or_make(
                                progress,
                                |steps: &FreeSteps| steps.fit(moves, states),
                                make,
                            )
                    }
                    _ => make(),
                }
            })
            .collect();
        Ok(Self {
            puzzle: puzzle.clone(),
            plan,
            tables,
            spares,
            steps,
            spelling: Spelling::new(puzzle),
            membership: std::sync::OnceLock::new(),
            two_phase,
        })
    }

    /// The plan.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The phases whose plan names a large table (`Large`) that is not built, so that
    /// they read the smaller matching table instead.
    pub fn phases_without_their_large_table(&self) -> impl Iterator<Item = &Phase> {
        (self.plan.phases.iter())
            .zip(&self.tables)
            .filter(|(phase, tables)| {
                phase.large.is_some() && !tables.matchings.iter().any(|m| m.is_large())
            })
            .map(|(phase, _)| phase)
    }

    /// Each phase's tables.
    pub fn tables(&self) -> &[PhaseTables] {
        &self.tables
    }

    /// The names of a solution's moves, separated by spaces.
    pub fn format(&self, moves: &[usize]) -> String {
        self.written(moves.iter().map(|&m| self.plan.moves[m].name.clone()))
    }

    /// Move names as answers write them: compound moves the plan expands written out as
    /// their steps, and then turns of one base of the definition merged (`D3 D'` is `D2`;
    /// turns that cancel are dropped), also across turns of bases that move none of the
    /// same slots (Square-1's `U2 D U3` is `U5 D`): such turns commute, and since every
    /// `Illegal` rule is about one slot, each state of the merged sequence holds in every
    /// slot what some state of the unmerged one held there. Turns across phases merge so
    /// too: the 5x5x5's orientation phase may end on `U` where the finish starts with
    /// `U2` (`U'`); a plan's compound moves (`Uw`) stop the merging.
    fn written(&self, names: impl Iterator<Item = String>) -> String {
        let spelling = &self.spelling;
        let mut out: Vec<String> = Vec::new();
        for name in names {
            let expanded = self.plan.expand.get(&name);
            let steps = expanded.map_or(std::slice::from_ref(&name), Vec::as_slice);
            for step in steps {
                // The latest turn of the step's base, past turns of bases apart from it.
                let into = spelling.power.get(step).and_then(|&(base, j)| {
                    let order = spelling.powers[base].len() as u32 + 1;
                    let mut at = out.len();
                    while at > 0 {
                        at -= 1;
                        let &(other, k) = spelling.power.get(&out[at])?;
                        if other == base {
                            return Some((at, base, (k + j) % order));
                        }
                        if !spelling.apart[other][base] {
                            return None;
                        }
                    }
                    None
                });
                match into {
                    Some((at, _, 0)) => {
                        out.remove(at);
                    }
                    Some((at, base, k)) => out[at] = spelling.powers[base][k as usize - 1].clone(),
                    None => out.push(step.clone()),
                }
            }
        }
        out.join(" ")
    }

    /// Whether the moves reach `state` (true when no membership test can be made: pieces
    /// that are identical, or "any" orientations).
    pub fn reachable(&self, state: &Element) -> bool {
        self.membership
            .get_or_init(|| super::group::Membership::new(&self.puzzle, 20_000_000))
            .as_ref()
            .map_or_else(
                || super::group::invariants_hold(&self.puzzle, state),
                |m| m.contains(state),
            )
    }

    /// Solves `state` phase by phase. Without limits: one pass with the plan's widths
    /// (deterministic). With `max_length`, `until_stop` or a deadline: first a quick pass
    /// that hands on a few solutions per phase (an answer within milliseconds). Then, with
    /// `max_length`: passes four times wider each until a solution that short is found (or
    /// time runs out, or the widest pass is done: the best found is returned, longer than
    /// asked; the caller compares); with `until_stop`: wider passes until the deadline,
    /// the best kept; with a deadline alone (the service): the plan's first full pass,
    /// whose best is the answer unless the deadline falls inside it. Every solution is
    /// checked by applying it (and, with `Illegal` rules, every state on the way).
    pub fn solve(&self, state: &Element, limits: &Limits) -> Result<PhasedSolution, PhasedError> {
        if !self.reachable(state) {
            return Err(PhasedError::Unreachable);
        }
        let mut best: Option<PhasedSolution> = None;
        let mut nodes = 0u64;
        // With a deadline or a length to reach, a first pass hands on a few solutions per
        // phase: an answer within milliseconds (as two-phase's first solution), which
        // the full passes then improve; without it a deadline inside the first full
        // pass would leave nothing to answer.
        let quick_first =
            limits.max_length.is_some() || limits.until_stop || limits.stop.deadline.is_some();
        let mut widen = if quick_first { 0 } else { 1 };
        let mut passes = 0;
        // After the quick pass, a length to reach or a deadline to use up, and a plan
        // whose first phase says `Stream`: one pass whose first phase streams its
        // solutions to the later phases (as many as the widest pass would hand on).
        let streams =
            self.plan.phases[0].stream && (limits.max_length.is_some() || limits.until_stop);
        loop {
            passes += 1;
            let outcome = if streams && widen > 0 {
                let stream = Streaming {
                    good_enough: limits.max_length,
                    most: self.plan.phases[0].keep.saturating_mul(MOST_WIDEN),
                };
                let candidates = self.first_candidates(state);
                let bound = best.as_ref().map(|b| b.cost);
                self.pass_from(
                    0,
                    candidates,
                    1,
                    bound,
                    Some(&stream),
                    &limits.stop,
                    &mut nodes,
                )
            } else {
                self.pass(
                    state,
                    widen,
                    best.as_ref().map(|b| b.cost),
                    &limits.stop,
                    &mut nodes,
                )
            };
            if let Some(found) = outcome.found {
                if best.as_ref().is_none_or(|b| found.cost < b.cost) {
                    best = Some(found);
                }
            }
            let good_enough = match (limits.max_length, &best) {
                (Some(limit), Some(b)) => b.cost <= limit,
                (_, None) => false,
                // Without a length to reach: the first full pass's best (the quick
                // pass only answers a deadline that falls inside it).
                (None, Some(_)) => !limits.until_stop && widen >= 1,
            };
            // Nothing at all from a pass and its wider retry: the plan cannot solve it.
            let hopeless = best.is_none() && widen >= 4;
            let streamed = streams && widen > 0;
            if good_enough || outcome.halted || hopeless || streamed || widen >= MOST_WIDEN {
                break;
            }
            widen = (widen * WIDER).max(1);
        }
        match best {
            Some(mut solution) => {
                solution.nodes = nodes;
                solution.passes = passes;
                self.verify(state, &solution.moves)?;
                Ok(solution)
            }
            None if limits.stop.cancelled() => Err(PhasedError::Cancelled),
            None if limits.stop.reached() => Err(PhasedError::TimedOut),
            None => Err(PhasedError::NoSolution),
        }
    }

    /// Applies a solution to `state`: it must end solved (turned by one of the plan's
    /// rotations, if it names any), through legal states only.
    fn verify(&self, state: &Element, moves: &[usize]) -> Result<(), PhasedError> {
        let mut here = state.clone();
        for &m in moves {
            here = here.then(&self.plan.moves[m].element, &self.puzzle.sets);
            if !self.puzzle.is_legal(&here) {
                return Err(PhasedError::NoSolution);
            }
        }
        let solved = match &self.plan.rotations {
            Some(rotations) => rotations.solves(&here),
            None => self.puzzle.is_solved(&here),
        };
        if solved {
            Ok(())
        } else {
            Err(PhasedError::NoSolution)
        }
    }

    /// The first phase's candidates: `state`, or with `Rotations`, `state` seen after
    /// each rotation, one of those alike to the first phase (equal start coordinates).
    fn first_candidates(&self, state: &Element) -> Vec<Candidate> {
        let sets = &self.puzzle.sets;
        let fresh = |full: Element, start: Option<StartNode>| Candidate {
            full,
            moves: Vec::new(),
            cost: 0,
            phase_costs: Vec::new(),
            start,
            from: 0,
        };
        let Some(rotations) = &self.plan.rotations else {
            // `View` and `Inverse`: the state turned and inverted too (two-phase's views);
            // a start equal to an earlier one is left out.
            let starts = &self.plan.starts;
            let mut candidates: Vec<Candidate> = Vec::with_capacity(starts.len());
            for from in 0..starts.len() {
                let full = starts.start(state, from, &self.puzzle);
                if candidates.iter().all(|c| c.full != full) {
                    candidates.push(Candidate {
                        from,
                        ..fresh(full, None)
                    });
                }
            }
            return candidates;
        };
        // Each turn of the state (`View`: the cube picked up another way, so that the
        // phases' own axes fall on other pieces) seen after each rotation (the colours
        // renamed). Of the holds of one turn the first phase sees alike, only the first
        // starts: the first phase's solutions then go to the next as many different
        // paths, not as a few paths each seen in several holds (the 4x4x4, 200 states:
        // 44.49 moves in 20.8 s, where also handing on each solution's alike holds gave
        // 44.87 in 34.0 s).
        let (phase, tables) = (&self.plan.phases[0], &self.tables[0]);
        let mut candidates: Vec<Candidate> = Vec::new();
        let starts = &self.plan.starts;
        for from in 0..starts.len() {
            let turned = starts.start(state, from, &self.puzzle);
            let first_of_turn = candidates.len();
            for seen in rotations.starts(&turned, sets) {
                let Some(start) = phase
                    .view
                    .apply(&seen, sets)
                    .and_then(|view| tables.start(&view, &seen))
                else {
                    continue;
                };
                let alike = candidates[first_of_turn..]
                    .iter()
                    .any(|c| c.start.as_ref().is_some_and(|s| s.values == start.values));
                if !alike {
                    candidates.push(Candidate {
                        from,
                        ..fresh(seen, Some(start))
                    });
                }
            }
        }
        candidates
    }

    /// One pass through the phases with widths `widen` times the plan's (`0`: a quick
    /// pass, at most [`QUICK_KEEP`] solutions handed on per phase, [`QUICK_NODES`] nodes
    /// in its middle phases, no limit on the last phase's length); solutions that
    /// cannot beat `bound` are not looked for.
    fn pass(
        &self,
        state: &Element,
        widen: usize,
        bound: Option<usize>,
        stop: &Stop,
        nodes: &mut u64,
    ) -> PassOutcome {
        let candidates = self.first_candidates(state);
        self.pass_from(0, candidates, widen, bound, None, stop, nodes)
    }

    /// The phases from `first` on, from `candidates` (see [`Self::pass`]). With
    /// `stream`, phase `first` does not stop at its `Keep`: each batch of that many
    /// solutions goes through the later phases (at the plan's widths) as soon as it is
    /// found, the best total so far bounding the rest, and the phase goes on where it
    /// was, as two-phase goes on in its first phase: nothing is searched twice, nothing
    /// found is thrown away at a deadline.
    #[allow(clippy::too_many_arguments)]
    fn pass_from(
        &self,
        first: usize,
        mut candidates: Vec<Candidate>,
        widen: usize,
        bound: Option<usize>,
        stream: Option<&Streaming>,
        stop: &Stop,
        nodes: &mut u64,
    ) -> PassOutcome {
        let sets = &self.puzzle.sets;
        let mut halted = false;
        let mut nodes_before = *nodes;
        let last = self.plan.phases.len() - 1;
        let phases = self.plan.phases.iter().zip(&self.tables).enumerate();
        for (k, (phase, tables)) in phases.skip(first) {
            let began = trace().then(std::time::Instant::now);
            if k == 1 {
                nodes_before = *nodes;
            }
            // This phase streams its solutions to the later ones (never the last phase).
            let streaming = stream.filter(|_| k == first && k != last);
            let mut streamed: Option<PhasedSolution> = None;
            let mut streamed_nodes = 0u64;
            let elements = self.plan.phase_elements(k);
            let guard = phase
                .follows_legality
                .then(|| tables.legality_guard(self.puzzle.illegal.len()))
                .flatten();
            let (spare_at_target, spare_at_zero) = self.spares[k];
            let moves = PhaseMoves {
                tables,
                costs: &phase.costs,
                legality: (phase.follows_legality && guard.is_none())
                    .then(|| (&self.puzzle, elements.clone())),
                guard,
                spare_at_target,
                spare_at_zero,
                steps: self.steps[k].as_ref(),
            };
            // With a finish the last phase hands on its solutions as a middle phase does.
            let finishes = k == last && self.plan.finish.is_some();
            let keep = match (k == last && !finishes, widen) {
                (true, _) => 1,
                (false, 0) => phase.keep.min(QUICK_KEEP),
                (false, _) => phase.keep.saturating_mul(widen),
            };
            // Each candidate's search and its distance to this phase's target (boxed: the
            // runs are sorted at every total, thousands of them below their first moves).
            let mut runs: Vec<(usize, Box<PhaseRun<'_>>, usize)> = Vec::new();
            for (i, c) in candidates.iter_mut().enumerate() {
                // Worked out when the candidate was made (the previous phase scored it).
                let start = match c.start.take() {
                    Some(start) => start,
                    None => {
                        let Some(start) = phase
                            .view
                            .apply(&c.full, sets)
                            .and_then(|view| tables.start(&view, &c.full))
                        else {
                            continue;
                        };
                        start
                    }
                };
                let (run, distance) = PhaseRun::new(&moves, start, &c.full, stop);
                runs.push((i, Box::new(run), distance));
            }
            runs.sort_by_key(|(i, _, d)| (candidates[*i].cost + d, *i));
            let Some(cheapest) = runs.first().map(|(i, _, d)| candidates[*i].cost + d) else {
                return PassOutcome {
                    found: None,
                    halted,
                };
            };
            let looks_at = if widen == 0 {
                0
            } else {
                phase.looks_at.saturating_mul(widen)
            };
            let mut handed = HandedOn::looking_at(keep, looks_at);
            let mut cap = bound.map_or(usize::MAX, |b| b.saturating_sub(1));
            // A solution counts only when the next phase can start from it (its tables rank
            // the state, and it is not unreachable for them): the estimate is its total
            // plus the next phase's distance.
            let following = self.plan.phases.get(k + 1).zip(self.tables.get(k + 1));
            // The next phase's score of a state a solution reaches (at `total`), the
            // state's view, coordinates and start key worked out once (into `scratch`,
            // reused) for the checks of starts handed on, the score and the start made
            // if kept.
            let next_start = |handed: &mut HandedOn<Candidate>,
                              scratch: &mut NextScratch,
                              full: &Element,
                              total: usize|
             -> NextStart {
                let Some((phase, tables)) = following else {
                    return NextStart::Scored(total);
                };
                if phase
                    .view
                    .apply_into(full, sets, &mut scratch.view)
                    .is_none()
                {
                    return NextStart::Unreachable;
                }
                scratch.values.resize(tables.width, 0);
                if tables
                    .encode_into(&scratch.view, full, &mut scratch.values, &mut scratch.inner)
                    .is_none()
                {
                    return NextStart::Unreachable;
                }
                tables.start_key_into(&scratch.values, &mut scratch.key);
                if tables.starts_by_class() && handed.started_already(&scratch.key) {
                    return NextStart::ClassHandedOn;
                }
                match tables.start_bound(&scratch.values) {
                    Some(bound) => NextStart::Scored(total + bound),
                    None => NextStart::Unreachable,
                }
            };
            let mut scratch = NextScratch::new();
            let mut visited = 0usize;
            let mut rejected = 0usize;
            let mut total = cheapest;
            // Wider passes also look further past the cheapest start.
            // The quick pass's last phase looks as far as it must: it is there to answer.
            let slack = match (k == last, widen) {
                _ if streaming.is_some() => usize::MAX,
                (true, 0) => usize::MAX,
                (true, _) if !finishes => LAST_SLACK,
                (_, _) => SLACK + widen.max(1).trailing_zeros() as usize / 2 * 2,
            };
            // A phase keeping one solution, when this solve is not one of many already run
            // side by side: its candidates searched side by side too (the FTO's middle
            // phase, the 4x4x4's pairs phase). Not a middle phase of the quick pass, whose
            // node budget counts the runs in order.
            let on_every_core = streaming.is_none()
                && rayon::current_num_threads() > 1
                && !crate::jobs::one_of_many();
            let side_by_side = on_every_core && keep == 1 && (k == last || widen > 0);
            // A phase keeping several (the 4x4x4's first two): its runs searched a few
            // at a time side by side, their solutions then handed on in the runs' order,
            // as the search in order would find them. Not where a run has a node budget
            // (the quick pass's middle phases).
            let searches_ahead = on_every_core && keep > 1 && (k == 0 || k == last || widen > 0);
            // A phase with nothing found yet goes on deeper rather than give up the pass:
            // a wider pass would search every earlier phase again.
            let within = |total: usize, found: bool| {
                total <= cheapest.saturating_add(slack)
                    || (!found && total <= cheapest.saturating_add(LAST_SLACK))
            };
            // Whether the runs are searched by their first moves, nearest first (below).
            let mut by_closeness = false;
            let mut total_began = *nodes;
            'totals: while total <= cap && within(total, !handed.kept.is_empty()) {
                // A phase over an exact table that stops at its first solution, once a
                // total's search is big: each run's subtrees below its first moves become
                // runs of their own, searched at each total in the order of how near the
                // last total's searches came to a solution. The total where such a phase
                // stops, searched run by run until one has a solution, made two thirds of
                // the FTO's middle phase's nodes in the plain order. Runs not searched
                // then keep their order, after the rest. Over pattern databases, which
                // bound loosely at every depth, nearness says little (the megaminx's last
                // phase: 15% slower); small searches (Square-1's) would pay more for the
                // runs than they save. Not by listed steps, whose first step is not one
                // move.
                let searched = *nodes - total_began;
                total_began = *nodes;
                if keep == 1
                    && !by_closeness
                    && total > cheapest
                    && searched >= BY_CLOSENESS_NODES
                    && tables.is_exact()
                    && moves.steps.is_none()
                {
                    by_closeness = true;
                    let root = tables.ranked.moves.len();
                    runs = runs
                        .into_iter()
                        .flat_map(|(i, run, distance)| {
                            super::coord::set_bits(tables.ranked.follows[root])
                                .map(|m| (i, Box::new(run.below(m)), distance))
                                .collect::<Vec<_>>()
                        })
                        .collect();
                }
                if by_closeness {
                    runs.sort_by(|(_, a, _), (_, b, _)| b.closeness.total_cmp(&a.closeness));
                    runs.iter_mut().for_each(|(_, run, _)| run.closeness = 0.0);
                }
                // Past the slack (nothing found yet): as many as a wider pass would keep,
                // the next phase choosing among them as it would there.
                if total > cheapest.saturating_add(slack) {
                    handed.keep = keep.saturating_mul(WIDER);
                }
                // What the side-by-side search settled at this total: every candidate
                // before the one it names has no solution, and that one's first (in
                // the search's order) is the path it names; `Some(None)`: none has one.
                let mut settled: Option<Option<FirstSolution>> = None;
                if side_by_side {
                    match first_solutions(&candidates, &mut runs, total, stop) {
                        Ok((found, searched)) => {
                            *nodes += searched;
                            settled = Some(found);
                        }
                        Err(searched) => {
                            *nodes += searched;
                            halted = true;
                            break 'totals;
                        }
                    }
                }
                // Solutions of the runs from `ahead_from` on, searched side by side.
                let mut ahead: Vec<Option<Ahead>> = Vec::new();
                let mut ahead_from = 0;
                for place in 0..runs.len() {
                    if searches_ahead && place >= ahead_from + ahead.len() {
                        // Each batch twice the last (a total that goes on long pays
                        // little for starting each batch), so what is searched past the
                        // phase's fill is at most what was searched before it.
                        let searched = ahead.iter().flatten().count();
                        let most = (2 * searched).clamp(AHEAD_RUNS, AHEAD_RUNS_MOST);
                        ahead_from = place;
                        ahead = search_ahead(&candidates, &mut runs[place..], total, most);
                    }
                    let found_ahead = match ahead.get_mut(place.wrapping_sub(ahead_from)) {
                        Some(found) => found.take(),
                        None => None,
                    };
                    if !reaches(&candidates, &runs[place], total) {
                        continue;
                    }
                    let (i, run, _) = &mut runs[place];
                    let c = &candidates[*i];
                    let own = total - c.cost;
                    let given = match &settled {
                        Some(Some(first)) if first.place == place => Some(first.path.clone()),
                        Some(Some(first)) if first.place > place => continue,
                        Some(None) => continue,
                        _ => None,
                    };
                    // The states along the last solution's path (from the candidate's):
                    // solutions come depth first, so the next shares most of its path.
                    let mut along: Vec<Element> = vec![c.full.clone()];
                    let mut along_path: Vec<usize> = Vec::new();
                    let mut visit = |path: &[usize]| {
                        visited += 1;
                        let common = along_path
                            .iter()
                            .zip(path)
                            .take_while(|(a, b)| a == b)
                            .count();
                        along_path.truncate(common);
                        for &m in &path[common..] {
                            let at = along_path.len();
                            if along.len() <= at + 1 {
                                along.push(along[at].clone());
                            }
                            let (before, after) = along.split_at_mut(at + 1);
                            before[at].then_into(elements[m], sets, &mut after[0]);
                            along_path.push(m);
                        }
                        let reached = &along[path.len()];
                        if handed.already(reached) {
                            return true;
                        }
                        // A start of a class handed on already is passed over before its
                        // distance is walked, and one that cannot be among the best kept
                        // is counted as looked at: nothing of either is copied.
                        let score = match next_start(&mut handed, &mut scratch, reached, total) {
                            NextStart::Scored(score) => score,
                            NextStart::ClassHandedOn | NextStart::Unreachable => {
                                rejected += 1;
                                return true;
                            }
                        };
                        // Streaming: what cannot beat the best so far is not handed on.
                        if streaming.is_some() && score > cap {
                            return true;
                        }
                        handed.note_seen();
                        if !handed.could_keep(score) {
                            return !handed.is_full();
                        }
                        // Its start key is the one `next_start` left in the scratch.
                        let start = match following {
                            Some((_, tables)) => {
                                if handed.already_started(&scratch.key) {
                                    return true;
                                }
                                tables.start_of(scratch.values.clone(), scratch.inner.clone())
                            }
                            None => None,
                        };
                        debug_assert_eq!(
                            start.as_ref().map_or(total, |s| total + s.bound()),
                            score,
                            "a start's bound is the one it was scored by"
                        );
                        let mut moves = c.moves.clone();
                        moves.extend(path.iter().map(|&m| phase.moves[m]));
                        let mut phase_costs = c.phase_costs.clone();
                        phase_costs.push(own);
                        let more = handed.push(
                            score,
                            Candidate {
                                full: reached.clone(),
                                moves,
                                cost: total,
                                phase_costs,
                                start,
                                from: c.from,
                            },
                        );
                        if more {
                            return true;
                        }
                        let Some(stream) = streaming else {
                            return false;
                        };
                        // A full batch: through the later phases now, then on.
                        let batch = std::mem::take(&mut handed.kept);
                        if self.stream_batch(
                            k,
                            batch,
                            (bound, &mut cap),
                            &mut streamed,
                            stop,
                            &mut streamed_nodes,
                        ) {
                            halted = true;
                            return false;
                        }
                        if stream.reached(&streamed) || handed.reached.len() >= stream.most {
                            return false;
                        }
                        true
                    };
                    if widen == 0 && k != 0 && k != last {
                        run.budget = QUICK_NODES.saturating_sub(*nodes - nodes_before);
                    }
                    let result = match (given, found_ahead) {
                        // The first solution, found side by side: visited as the search
                        // in order would visit it (and searched on from there if kept
                        // on: it is then passed over as handed on already).
                        (Some(path), _) if !visit(&path) => Err(Halt::Enough),
                        (None, Some(found)) => found.hand_on(run, own, &mut visit),
                        _ => run.solutions(own, &mut visit),
                    };
                    *nodes += std::mem::take(&mut run.nodes) + std::mem::take(&mut streamed_nodes);
                    match result {
                        Err(Halt::Enough) => break 'totals,
                        // The quick pass gives up: the full passes follow.
                        Err(Halt::Budget) => {
                            return PassOutcome {
                                found: None,
                                halted: false,
                            }
                        }
                        Err(Halt::Stopped | Halt::Overtaken) => {
                            halted = true;
                            break 'totals;
                        }
                        Ok(()) => {}
                    }
                }
                // A finished phase hands on what its cheapest total holds: a dearer total
                // would cost a whole deeper search for one move more.
                if handed.is_full() || (finishes && !handed.kept.is_empty()) {
                    break;
                }
                // Streaming: what the plan's own pass would hand on goes on at once, so
                // that a deadline soon after still has its answer.
                if streaming.is_some()
                    && total >= cheapest.saturating_add(SLACK)
                    && !handed.kept.is_empty()
                {
                    let batch = std::mem::take(&mut handed.kept);
                    if self.stream_batch(k, batch, (bound, &mut cap), &mut streamed, stop, nodes) {
                        halted = true;
                        break;
                    }
                    if streaming.is_some_and(|s| s.reached(&streamed)) {
                        break;
                    }
                }
                total += 1;
            }
            if trace() {
                crate::output::note(format_args!(
                    "phase {}: {} candidates in, {} start, cheapest total {cheapest}, {} out \
                     (totals up to {}), {} nodes so far, {visited} solutions seen, {repeated} \
                     reaching a state already handed on, {rejected} refused by the next phase, \
                     {:.1} ms",
                    phase.name,
                    candidates.len(),
                    runs.len(),
                    handed.kept.len().min(handed.keep),
                    total,
                    nodes,
                    began.map_or(0.0, |b| b.elapsed().as_secs_f64() * 1e3),
                    repeated = handed.repeated,
                ));
            }
            if streaming.is_some() {
                // The last batch, unless the search stopped for good.
                let done = halted || handed.reached.len() >= stream.map_or(0, |s| s.most);
                if !handed.kept.is_empty() && (!done || streamed.is_none()) && !stop.reached() {
                    let batch = std::mem::take(&mut handed.kept);
                    halted |=
                        self.stream_batch(k, batch, (bound, &mut cap), &mut streamed, stop, nodes);
                }
                return PassOutcome {
                    found: streamed,
                    halted,
                };
            }
            let mut next = handed.into_best();
            if next.is_empty() {
                return PassOutcome {
                    found: None,
                    halted,
                };
            }
            if let Some(finish) = self.plan.finish.as_ref().filter(|_| k == last) {
                let (found, stopped) = self.finish_as_cube(finish, next, bound, stop, nodes);
                return PassOutcome {
                    found,
                    halted: halted || stopped,
                };
            }
            if k == last {
                let (_, best) = next.swap_remove(0);
                return PassOutcome {
                    found: Some(self.solution_of(best)),
                    halted,
                };
            }
            candidates = most_promising_first(next);
            if halted {
                return PassOutcome {
                    found: None,
                    halted,
                };
            }
        }
        PassOutcome {
            found: None,
            halted,
        }
    }

    /// The last phase's solutions `kept` finished as the 3x3x3 their states are, by the
    /// two-phase solver: cheapest first, each given [`FINISH_NODES`] nodes to beat the
    /// best total so far (`bound` to begin with, else [`FINISH_AIM`] moves of its own).
    /// The best solution, and whether `stop` cut it short.
    fn finish_as_cube(
        &self,
        finish: &cube3::Finish3,
        kept: Vec<(usize, Candidate)>,
        bound: Option<usize>,
        stop: &Stop,
        nodes: &mut u64,
    ) -> (Option<PhasedSolution>, bool) {
        let Some(solver) = &self.two_phase else {
            return (None, false);
        };
        let began = std::time::Instant::now();
        // Two searches, each over half the views with half the nodes (one over all of
        // them where the views cannot be shared out).
        let mut searches = [solver.search(), solver.search()];
        let split = searches
            .iter_mut()
            .zip(FINISH_VIEWS)
            .all(|(search, mask)| search.take_views(mask));
        let mut best: Option<Candidate> = None;
        let mut stopped = false;
        for mut c in most_promising_first(kept) {
            let cap = best.as_ref().map(|b| b.cost).or(bound);
            let aim = match cap {
                Some(cap) if cap <= c.cost => continue,
                Some(cap) => (cap - 1 - c.cost).min(FINISH_AIM),
                None => FINISH_AIM,
            };
            let Some(cube) = finish.cube_of(&c.full, &self.puzzle) else {
                continue;
            };
            let found = if split {
                let [first, second] = &mut searches;
                for search in [&mut *first, &mut *second] {
                    search.limit_nodes(search.nodes().saturating_add(FINISH_NODES / 2));
                }
                let (a, b) = rayon::join(
                    || twophase_solve_until(first, &cube, aim as u32, stop),
                    || twophase_solve_until(second, &cube, aim as u32, stop),
                );
                a.shorter(b, first.metric())
            } else {
                let search = &mut searches[0];
                search.limit_nodes(search.nodes().saturating_add(FINISH_NODES));
                twophase_solve_until(search, &cube, aim as u32, stop)
            };
            let moves = match found {
                Best::Within(moves) | Best::Above { moves, .. } => moves,
                Best::Nothing => {
                    if stop.reached() {
                        stopped = true;
                        break;
                    }
                    continue;
                }
            };
            let steps: Vec<usize> = moves
                .iter()
                .flat_map(|m| finish.moves[m.index()].iter().copied())
                .collect();
            let total = c.cost + steps.len();
            if cap.is_some_and(|cap| total >= cap) {
                continue;
            }
            c.moves.extend(steps.iter().copied());
            c.phase_costs.push(steps.len());
            c.cost = total;
            best = Some(c);
            if stop.reached() {
                stopped = true;
                break;
            }
        }
        let finish_nodes: u64 = searches.iter().map(|s| s.nodes()).sum();
        *nodes += finish_nodes;
        if trace() {
            crate::output::note(format_args!(
                "finish 3x3x3: best total {:?}, {finish_nodes} two-phase nodes, {:.1} ms",
                best.as_ref().map(|b| b.cost),
                began.elapsed().as_secs_f64() * 1e3
            ));
        }
        (best.map(|b| self.solution_of(b)), stopped)
    }

    /// The solution a last phase's candidate stands for: its moves read back through
    /// the start it comes from (see [`starts::Starts::read_back`]).
    fn solution_of(&self, candidate: Candidate) -> PhasedSolution {
        let (moves, reversed) = self.plan.starts.read_back(candidate.from, &candidate.moves);
        let mut phase_costs = candidate.phase_costs;
        if reversed {
            phase_costs.reverse();
        }
        PhasedSolution {
            moves,
            cost: candidate.cost,
            phase_costs,
            nodes: 0,
            passes: 0,
        }
    }

    /// A streaming phase `k`'s `batch` through the later phases, bounded by the best so
    /// far (`streamed`, else the pass's `bound`), which it replaces when beaten; the
    /// phase's `cap` on totals then drops below it. Whether the search was stopped.
    fn stream_batch(
        &self,
        k: usize,
        batch: Vec<(usize, Candidate)>,
        (bound, cap): (Option<usize>, &mut usize),
        streamed: &mut Option<PhasedSolution>,
        stop: &Stop,
        nodes: &mut u64,
    ) -> bool {
        let bound = streamed.as_ref().map_or(bound, |b| Some(b.cost));
        let outcome = self.hand_on(k, batch, bound, stop, nodes);
        if let Some(found) = outcome.found {
            if streamed.as_ref().is_none_or(|b| found.cost < b.cost) {
                *streamed = Some(found);
            }
        }
        if let Some(b) = streamed {
            *cap = (*cap).min(b.cost.saturating_sub(1));
        }
        outcome.halted
    }

    /// Phase `k`'s solutions `batch` (with their scores) through the phases after it,
    /// the most promising first (see [`Self::pass_from`]).
    fn hand_on(
        &self,
        k: usize,
        batch: Vec<(usize, Candidate)>,
        bound: Option<usize>,
        stop: &Stop,
        nodes: &mut u64,
    ) -> PassOutcome {
        let candidates = most_promising_first(batch);
        self.pass_from(k + 1, candidates, 1, bound, None, stop, nodes)
    }

    /// A uniformly random state of the puzzle (over every state its moves reach, identical
    /// pieces counted once), from a random element of the moves' group
    /// (Schreier–Sims): `None` when that cannot be made.
    pub fn random_state(&self, rng: &mut SplitMix64) -> Option<Element> {
        super::group::random_state(&self.puzzle, rng)
    }

    /// Random-state scramble number `index` of `seed` (see [`Self::random_scramble`]),
    /// checked: `read`, the caller's own parser of the names it writes (the definition's
    /// with the plan's), takes it to the state drawn, else [`PhasedError::ScrambleMisses`].
    pub fn checked_random_scramble(
        &self,
        seed: u64,
        index: u64,
        stop: Stop,
        read: impl Fn(&str) -> Option<Element>,
    ) -> Result<String, PhasedError> {
        let (state, text) = self.random_scramble(seed, index, stop)?;
        match read(&text) {
            Some(reached) if reached == state => Ok(text),
            _ => Err(PhasedError::ScrambleMisses),
        }
    }

    /// Random-state scramble number `index` of `seed` (each from its own generator, so a
    /// batch's output does not depend on how many are made at once): the state drawn and
    /// a scramble reaching it (with `Rotations`, the state as the solution's closing turn
    /// leaves it held; [`Self::checked_random_scramble`] checks it). `stop` bounds the
    /// solve (the best found by then is used).
    pub fn random_scramble(
        &self,
        seed: u64,
        index: u64,
        stop: Stop,
    ) -> Result<(Element, String), PhasedError> {
        let mut rng = SplitMix64::stream(seed, index);
        let state = self
            .random_state(&mut rng)
            .ok_or(PhasedError::NoRandomState)?;
        let limits = Limits {
            max_length: None,
            stop,
            until_stop: false,
        };
        let solution = self.solve(&state, &limits)?;
        let scramble = self.scramble_of(&solution.moves);
        if self.plan.rotations.is_none() {
            return Ok((state, scramble));
        }
        // A solution may leave the puzzle turned: its scramble reaches the state drawn
        // as seen after that turn.
        let sets = &self.puzzle.sets;
        let reached = solution
            .moves
            .iter()
            .rev()
            .fold(self.puzzle.solved.clone(), |here, &m| {
                here.then(&self.plan.moves[m].element.inverse(sets), sets)
            });
        Ok((reached, scramble))
    }

    /// A scramble reaching the state `solution` solves: its moves undone in reverse
    /// order, each named by the plan or the definition.
    pub fn scramble_of(&self, solution: &[usize]) -> String {
        let sets = &self.puzzle.sets;
        let names = solution.iter().rev().map(|&m| {
            let inverse = self.plan.moves[m].element.inverse(sets);
            self.plan
                .moves
                .iter()
                .find(|x| x.element == inverse)
                .map(|x| x.name.clone())
                .or_else(|| {
                    let mut names: Vec<&String> = self
                        .plan
                        .names
                        .iter()
                        .chain(&self.puzzle.names)
                        .filter(|(_, e)| **e == inverse)
                        .map(|(n, _)| n)
                        .collect();
                    names.sort_by_key(|n| (n.len(), n.to_string()));
                    names.first().map(|n| n.to_string())
                })
                .unwrap_or_else(|| format!("{}'", self.plan.moves[m].name))
        });
        self.written(names)
    }
}

/// The shipped 4x4x4 definition and plan, with the index of the phase that pairs the
/// wings (for tests).
#[cfg(test)]
pub(crate) fn shipped_4x4x4_pairing() -> (PermPuzzle, Plan, usize) {
    use super::{shipped_plan, shipped_puzzle};
    let puzzle = shipped_puzzle("4x4x4.tws", PuzzleMetric::Htm);
    let plan = shipped_plan(&puzzle, "4x4x4.plan");
    let at = plan
        .phases
        .iter()
        .position(|p| p.view.matching.is_some())
        .expect("a phase pairs the wings");
    (puzzle, plan, at)
}

/// The first solution at a total among runs searched side by side: the place of its
/// run among the runs, and its moves (phase move indices).
struct FirstSolution {
    place: usize,
    path: Vec<usize>,
}

/// Whether a run (its candidate, the run, its distance to the phase's target) can reach
/// `total`: its candidate's cost so far and its distance together within it.
fn reaches(
    candidates: &[Candidate],
    run: &(usize, Box<PhaseRun<'_>>, usize),
    total: usize,
) -> bool {
    candidates[run.0].cost + run.2 <= total
}

/// One run's solutions at a total, searched ahead of their turn beside other runs'
/// ([`search_ahead`]).
struct Ahead {
    /// Its solutions in the search's order: all of them, or the first [`AHEAD_PATHS`]
    /// when `whole` is false.
    paths: Vec<Vec<usize>>,
    whole: bool,
    /// How its search stopped, when it did before its end (a deadline).
    halted: Option<Halt>,
}

impl Ahead {
    /// Each solution to `visit` in order, as `run.solutions(cost, visit)` would give
    /// them (and with the same outcome); past the paths held, the run searched again.
    fn hand_on(
        self,
        run: &mut PhaseRun<'_>,
        cost: usize,
        visit: &mut dyn FnMut(&[usize]) -> bool,
    ) -> Result<(), Halt> {
        for path in &self.paths {
            if !visit(path) {
                return Err(Halt::Enough);
            }
        }
        match self.halted {
            Some(halt) => Err(halt),
            None if self.whole => Ok(()),
            None => {
                let mut seen = self.paths.len();
                run.solutions(cost, &mut |path: &[usize]| {
                    if seen > 0 {
                        seen -= 1;
                        return true;
                    }
                    visit(path)
                })
            }
        }
    }
}

/// The next `most` runs of `runs` that can reach `total`, each searched whole at that
/// total, side by side (rayon): their solutions, one entry a run from the first of
/// `runs` up to the last searched (`None`: a run that cannot reach the total).
fn search_ahead(
    candidates: &[Candidate],
    runs: &mut [(usize, Box<PhaseRun<'_>>, usize)],
    total: usize,
    most: usize,
) -> Vec<Option<Ahead>> {
    use rayon::prelude::*;
    let end = runs
        .iter()
        .enumerate()
        .filter(|(_, run)| reaches(candidates, run, total))
        .nth(most - 1)
        .map_or(runs.len(), |(place, _)| place + 1);
    runs[..end]
        .par_iter_mut()
        .map(|entry| {
            if !reaches(candidates, entry, total) {
                return None;
            }
            let (i, run, _) = entry;
            let mut paths = Vec::new();
            let result = run.solutions(total - candidates[*i].cost, &mut |path: &[usize]| {
                paths.push(path.to_vec());
                paths.len() < AHEAD_PATHS
            });
            let (whole, halted) = match result {
                Ok(()) => (true, None),
                Err(Halt::Enough) => (false, None),
                Err(halt) => (false, Some(halt)),
            };
            Some(Ahead {
                paths,
                whole,
                halted,
            })
        })
        .collect()
}

/// What one run searched side by side found: its place, how it ended, its first
/// solution, and its nodes.
struct RunOutcome {
    place: usize,
    result: Result<(), Halt>,
    first: Option<Vec<usize>>,
    nodes: u64,
}

/// The runs of `candidates` that can reach `total`, searched side by side (rayon) for
/// their first solution there: the earliest run (in order) that has one, with that
/// solution, or `None`; and the nodes searched (`Err` with them: the search was stopped).
/// Every thread takes the next run in order whenever it is free, and a run halts as
/// soon as one before it has found a solution, so the answer is the one the search in
/// order would find first, and both cores work on the earliest runs (where that
/// solution mostly is: the runs come nearest first), not one of them on the last half.
fn first_solutions(
    candidates: &[Candidate],
    runs: &mut [(usize, Box<PhaseRun<'_>>, usize)],
    total: usize,
    stop: &Stop,
) -> Result<(Option<FirstSolution>, u64), u64> {
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let earliest = std::sync::Arc::new(AtomicUsize::new(usize::MAX));
    // The runs in order, each taken by the next free thread.
    let queue = Mutex::new(runs.iter_mut().enumerate());
    // Each thread's outcomes, then all of them in the runs' order.
    let mut outcomes: Vec<RunOutcome> = (0..rayon::current_num_threads())
        .into_par_iter()
        .flat_map_iter(|_| {
            let mut own = Vec::new();
            loop {
                let next = queue.lock().unwrap_or_else(|e| e.into_inner()).next();
                let Some((place, entry)) = next else {
                    break own;
                };
                if earliest.load(Ordering::Relaxed) < place {
                    break own;
                }
                if !reaches(candidates, entry, total) {
                    continue;
                }
                let (i, run, _) = entry;
                let cost = candidates[*i].cost;
                run.overtaken_by = Some((place, earliest.clone()));
                let mut first = None;
                let result = run.solutions(total - cost, &mut |path: &[usize]| {
                    first = Some(path.to_vec());
                    earliest.fetch_min(place, Ordering::Relaxed);
                    false
                });
                run.overtaken_by = None;
                own.push(RunOutcome {
                    place,
                    result,
                    first,
                    nodes: std::mem::take(&mut run.nodes),
                });
            }
        })
        .collect();
    outcomes.sort_unstable_by_key(|o| o.place);
    let searched = outcomes.iter().map(|o| o.nodes).sum();
    if stop.reached() || outcomes.iter().any(|o| o.result == Err(Halt::Stopped)) {
        return Err(searched);
    }
    // In order: the earliest run with a solution (every run before it searched whole).
    let found = outcomes.into_iter().find_map(|o| {
        o.first.map(|path| FirstSolution {
            place: o.place,
            path,
        })
    });
    Ok((found, searched))
}

/// Whether to note each phase's progress on stderr (`CUBEDB_TRACE_PHASES` set): for
/// tuning plans.
fn trace() -> bool {
    static TRACE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *TRACE.get_or_init(|| std::env::var_os("CUBEDB_TRACE_PHASES").is_some())
}

/// Per phase, the free moves its search does not follow from a target reached, and once
/// only free moves are left (bit per phase move; see [`PhaseMoves`]): none unless the next
/// phase's table is over the classes its own free moves join. Worked out once, at open.
fn spare_moves(puzzle: &PermPuzzle, plan: &Plan, tables: &[PhaseTables]) -> Vec<(u128, u128)> {
    let sets = &puzzle.sets;
    (0..plan.phases.len())
        .map(|k| {
            let phase = &plan.phases[k];
            let elements = plan.phase_elements(k);
            // Free moves that are free moves of the next phase too, when its table is over
            // the classes those join: not followed from a target (same class again).
            // Once nothing but free moves is left, a free move that is an earlier one then a
            // free move of the next phase reaches the same classes: not followed either.
            match plan.phases.get(k + 1).zip(tables.get(k + 1)) {
                Some((next, next_tables)) if next_tables.starts_by_class() => {
                    let next_free: Vec<&Element> = next
                        .moves
                        .iter()
                        .zip(&next.costs)
                        .filter(|&(_, &c)| c == 0)
                        .map(|(&m, _)| &plan.moves[m].element)
                        .collect();
                    let free: Vec<usize> = (0..phase.moves.len())
                        .filter(|&m| phase.costs.get(m) == Some(&0))
                        .collect();
                    let mask = |keep: &dyn Fn(usize) -> bool| {
                        free.iter()
                            .filter(|&&m| keep(m))
                            .fold(0u128, |mask, &m| mask | 1 << m)
                    };
                    let at_target = mask(&|m| next_free.contains(&elements[m]));
                    let at_zero = mask(&|m| {
                        free.iter().take_while(|&&e| e < m).any(|&e| {
                            next_free
                                .iter()
                                .any(|f| &elements[e].then(f, sets) == elements[m])
                        })
                    });
                    (at_target, at_zero)
                }
                _ => (0, 0),
            }
        })
        .collect()
}

/// Handed-on candidates in the order the next phase tries them: those that promise the
/// shortest totals (their scores) first, ties in the order they were found.
fn most_promising_first(scored: Vec<(usize, Candidate)>) -> Vec<Candidate> {
    let mut scored: Vec<(usize, usize, Candidate)> = scored
        .into_iter()
        .enumerate()
        .map(|(i, (score, c))| (score, i, c))
        .collect();
    scored.sort_by_key(|(score, i, _)| (*score, *i));
    scored.into_iter().map(|(_, _, c)| c).collect()
}

/// How a streaming pass's first phase ends (see [`PhasedSolver::pass_from`]).
struct Streaming {
    /// A total this short ends it.
    good_enough: Option<usize>,
    /// It ends after handing on this many solutions in all.
    most: usize,
}

impl Streaming {
    /// Whether `best` is short enough to end it.
    fn reached(&self, best: &Option<PhasedSolution>) -> bool {
        best.as_ref()
            .is_some_and(|b| self.good_enough.is_some_and(|limit| b.cost <= limit))
    }
}

struct PassOutcome {
    found: Option<PhasedSolution>,
    halted: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::perm::element::Orbit;

    /// The shipped 4x4x4 plan reads its `Large` line (the pairs phase's U and D
    /// centres); a `Large` line that names slots the phase's moves do not keep together,
    /// more than two kinds, no set, a slot out of range, or a phase with no matching is
    /// refused at its line.
    #[test]
    fn large_lines_are_checked_against_their_phase() {
        let puzzle = crate::puzzles::perm::shipped_puzzle("4x4x4.tws", PuzzleMetric::Htm);
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/4x4x4.plan");
        let text = std::fs::read_to_string(path).expect("shipped plan");
        let plan = crate::puzzles::perm::shipped_plan(&puzzle, "4x4x4.plan");
        let large = plan
            .phases
            .iter()
            .find_map(|p| p.large.as_ref())
            .expect("a Large line");
        assert_eq!(large.slots, (8..16).collect::<Vec<_>>());
        let shipped = "Large CENTER 9 10 11 12 13 14 15 16";
        let line = 1 + text.lines().position(|l| l == shipped).expect("the line");
        for (instead, problem) in [
            ("Large CENTER 1 9", "slot 9 of CENTER from a slot not named"),
            ("Large CENTER 9 10 11 12 13 14 15 16 17", "a slot not named"),
            (
                "Large CENTER 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16",
                "not 4",
            ),
            ("Large CENTRE 9 10", "no set named"),
            ("Large CENTER 9 25", "1 to 24"),
            ("Large CENTER 9 9", "slot 9 twice"),
        ] {
            let changed = text.replace(shipped, instead);
            let error = Plan::compile(&puzzle, &PlanSpec::parse(&changed).expect("parses"))
                .expect_err(instead);
            assert_eq!(error.line, line, "{instead}: {}", error.problem);
            assert!(
                error.problem.contains(problem),
                "{instead}: {}",
                error.problem
            );
        }
        // The centres phase pairs nothing.
        let changed = text.replace(shipped, "").replace(
            "Keep 30 of 100\nEnd",
            &format!("Keep 30 of 100\n{shipped}\nEnd"),
        );
        let error = Plan::compile(&puzzle, &PlanSpec::parse(&changed).expect("parses"))
            .expect_err("no matching");
        assert!(error.problem.contains("a matching"), "{}", error.problem);
    }

    struct Reached(Element, &'static str);

    impl Reaches for Reached {
        fn state(&self) -> &Element {
            &self.0
        }
    }

    fn state(perm: &[u8]) -> Element {
        Element {
            orbits: vec![Orbit {
                perm: perm.to_vec(),
                ori: vec![0; perm.len()],
            }],
        }
    }

    /// `Keep 2` counts states: a second path to a state handed on is passed over (and
    /// counted), so the two kept reach different states.
    #[test]
    fn a_phase_hands_on_each_state_once() {
        let (a, b) = (state(&[1, 0, 2]), state(&[0, 2, 1]));
        let mut handed = HandedOn::new(2);
        assert!(!handed.already(&a));
        assert!(handed.push(5, Reached(a.clone(), "R")));
        // The same state by another path, dearer: passed over.
        assert!(handed.already(&a));
        assert!(!handed.already(&b));
        // The next phase's start: taken once.
        assert!(!handed.already_started(&[3, 1]));
        assert!(handed.already_started(&[3, 1]));
        assert!(!handed.push(6, Reached(b.clone(), "U R U'")));
        assert!(handed.is_full());
        assert_eq!(handed.repeated, 2);
        let kept: Vec<(usize, &str)> = handed.kept.iter().map(|(s, r)| (*s, r.1)).collect();
        assert_eq!(kept, [(5, "R"), (6, "U R U'")]);
        assert_ne!(handed.kept[0].1 .0, handed.kept[1].1 .0);
    }

    /// `Keep 2 of 4`: four solutions looked at, the two best by score handed on (the
    /// first found among equals); one that cannot be among them is passed over.
    #[test]
    fn a_phase_keeping_the_best_of_more_hands_on_the_cheapest() {
        let states = [
            state(&[1, 0, 2, 3]),
            state(&[0, 2, 1, 3]),
            state(&[0, 1, 3, 2]),
            state(&[3, 1, 2, 0]),
        ];
        let mut handed = HandedOn::looking_at(2, 4);
        let offer = |handed: &mut HandedOn<Reached>, score: usize, at: usize| {
            handed.note_seen();
            if handed.could_keep(score) {
                handed.push(score, Reached(states[at].clone(), ["a", "b", "c", "d"][at]));
            }
            !handed.is_full()
        };
        assert!(offer(&mut handed, 7, 0));
        assert!(offer(&mut handed, 5, 1));
        // Two kept at 7 or less: a third at 7 could not be among the best two.
        assert!(!handed.could_keep(7));
        assert!(offer(&mut handed, 7, 2));
        assert!(!offer(&mut handed, 5, 3));
        assert!(handed.is_full());
        let best: Vec<(usize, &str)> = handed.into_best().iter().map(|(s, r)| (*s, r.1)).collect();
        assert_eq!(best, [(5, "b"), (5, "d")]);
        // Without more looked at than kept it is the plain first-found hand-on.
        let plain = HandedOn::<Reached>::looking_at(2, 2);
        assert_eq!(plain.looks_at, 0);
    }

    /// `Keep N of M` ranks by the next phase's bound: refused on the last phase and
    /// beside `Stream`, naming the line.
    #[test]
    fn keeping_the_best_of_more_needs_a_next_phase() {
        let puzzle = crate::puzzles::perm::shipped_puzzle("4x4x4.tws", PuzzleMetric::Htm);
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/4x4x4.plan");
        let text = std::fs::read_to_string(path).expect("shipped plan");
        // The first phase's `Keep N of M` line, as shipped.
        let first = text
            .lines()
            .find(|l| l.starts_with("Keep ") && l.contains(" of "))
            .expect("a Keep N of M line");
        let (plain, streams) = (format!("{first}\n"), format!("{first}\nStream\n"));
        for (from, to, words) in [
            (
                "Keep 1\nEnd",
                "Keep 1 of 5\nEnd",
                "the last phase has no next phase",
            ),
            (plain.as_str(), streams.as_str(), "a phase that streams"),
        ] {
            assert!(text.contains(from), "{from}");
            let changed = text.replacen(from, to, 1);
            let keep_line = to.lines().next().expect("a line");
            let line = 1 + changed
                .lines()
                .position(|l| l == keep_line)
                .expect("the Keep N of M line");
            let error =
                Plan::compile(&puzzle, &PlanSpec::parse(&changed).expect("parses")).expect_err(to);
            assert_eq!(error.line, line, "{to}: {}", error.problem);
            assert!(error.problem.contains(words), "{to}: {}", error.problem);
        }
    }
}
