//! Steps of free moves then a paid move, listed per state of a small exact table.
//!
//! When some of a phase's moves cost nothing (Square-1's layer turns in the twist metric),
//! its search spends most of its nodes on them: every legal pair of turns before each
//! slash is a node, and most of the slashes they lead to are cut at once by the table.
//! Over a table small enough to list (the Square-1's 7,356 shapes), every such step from
//! every state is worked out once: each canonical word of free moves that the rules allow,
//! then each paid move, with the state it reaches and that state's table value. The
//! search then walks a state's list and reads each step's value, in the order the plain
//! search would have met those steps (so its solutions come in the same order), and makes
//! nodes only where the table lets it go on.

use super::tables::PhaseTables;
use crate::puzzles::perm::coord::Reachable;

/// Most states a phase's table may have for its steps to be listed.
const MOST_STATES: u64 = 1 << 16;
/// Most free moves in one step's word.
const LONGEST_WORD: usize = 6;
/// Most steps listed in all.
const MOST_STEPS: usize = 1 << 22;

/// One step: free moves, then one paid move.
#[derive(Debug, Clone, Copy)]
pub struct Step {
    /// The phase moves, free ones then the paid one (`len` of them).
    moves: [u8; LONGEST_WORD + 1],
    len: u8,
    /// The table value (distance modulo 3) of the state reached.
    pub value: u8,
    /// The exact table's rank of the state reached.
    pub rank: u32,
}

impl Step {
    /// The step's phase moves.
    pub fn moves(&self) -> impl Iterator<Item = usize> + '_ {
        self.moves[..self.len as usize].iter().map(|&m| m as usize)
    }

    /// Its last (paid) move.
    pub fn last(&self) -> usize {
        self.moves[self.len as usize - 1] as usize
    }

    /// How many moves it makes.
    pub fn move_count(&self) -> usize {
        self.len as usize
    }
}

/// A phase's steps, per kind of move before them and per state.
pub struct FreeSteps {
    /// Per phase move (and the start, at the end), which list of steps follows it;
    /// `u8::MAX` after a free move (the search goes on move by move there).
    row_of_last: Vec<u8>,
    /// The table's number of states.
    states: u64,
    /// Per row and state, where its steps start in `steps` (one more entry at the end).
    starts: Vec<u32>,
    steps: Vec<Step>,
}

impl FreeSteps {
    /// The steps of a phase over `tables` with move costs `costs`, or `None` when they
    /// would not pay or do not apply: no free or no paid move, a table other than one
    /// small exact table, a matching or straddle table beside it, states the search
    /// would have to follow in full (`follows_full_states`), or too many steps. `guard`
    /// is the coordinate that tells the moves the rules forbid, when the search asks it.
    pub fn new(
        tables: &PhaseTables,
        costs: &[u8],
        guard: Option<(usize, &Reachable)>,
        follows_full_states: bool,
    ) -> Option<Self> {
        let moves = tables.ranked.moves.len();
        let free = costs.iter().filter(|&&c| c == 0).count();
        let states = tables.whole_exact_size()?;
        if free == 0
            || free == moves
            || moves > u8::MAX as usize
            || states > MOST_STATES
            || follows_full_states
            || tables.matching.is_some()
            || tables.straddle.is_some()
        {
            return None;
        }
        let follows = &tables.ranked.follows;
        // One list per distinct row of `follows` after a paid move or at the start.
        let mut rows: Vec<u128> = Vec::new();
        let row_of_last = (0..=moves)
            .map(|last| {
                if last < moves && costs[last] == 0 {
                    return Some(u8::MAX);
                }
                let row = follows[last];
                let at = rows.iter().position(|&r| r == row).unwrap_or_else(|| {
                    rows.push(row);
                    rows.len() - 1
                });
                u8::try_from(at).ok()
            })
            .collect::<Option<Vec<u8>>>()?;
        let width = tables.width;
        let mut starts = Vec::with_capacity(rows.len() * states as usize + 1);
        let mut steps = Vec::new();
        let mut values = vec![0u64; width];
        for &row in &rows {
            for rank in 0..states {
                starts.push(u32::try_from(steps.len()).ok()?);
                tables.exact_values(rank, &mut values);
                let mut lister = Lister {
                    tables,
                    costs,
                    guard,
                    steps: &mut steps,
                    word: Vec::new(),
                };
                lister.from(&values, row)?;
                if steps.len() > MOST_STEPS {
                    return None;
                }
            }
        }
        starts.push(u32::try_from(steps.len()).ok()?);
        Some(Self {
            row_of_last,
            states,
            starts,
            steps,
        })
    }

    /// The steps after move `last` (the start: the number of moves) from the state of
    /// exact rank `rank`, or `None` after a free move.
    #[inline]
    pub fn after(&self, last: usize, rank: u64) -> Option<&[Step]> {
        let row = *self.row_of_last.get(last)?;
        if row == u8::MAX {
            return None;
        }
        let at = row as usize * self.states as usize + rank as usize;
        let (from, to) = (self.starts[at] as usize, self.starts[at + 1] as usize);
        Some(&self.steps[from..to])
    }
}

/// Lists the steps from one state, depth first in move order (the plain search's order).
struct Lister<'a> {
    tables: &'a PhaseTables,
    costs: &'a [u8],
    guard: Option<(usize, &'a Reachable)>,
    steps: &'a mut Vec<Step>,
    word: Vec<u8>,
}

impl Lister<'_> {
    /// The steps from coordinate values `values`, the moves `allowed` next; `None` when a
    /// word grows too long (free moves that never stop following one another).
    fn from(&mut self, values: &[u64], allowed: u128) -> Option<()> {
        let moves = self.tables.ranked.moves.len();
        let mut allowed = allowed;
        if let Some((at, coord)) = self.guard {
            allowed &= !coord.forbidden_moves(values[at], moves);
        }
        let mut next = vec![0u64; values.len()];
        for m in (0..moves).filter(|&m| allowed >> m & 1 == 1) {
            self.tables.child(values, m, &mut next);
            let value = self.tables.exact_value(&next);
            if value == super::tables::UNREACHABLE {
                continue;
            }
            if self.costs[m] == 0 {
                if self.word.len() == LONGEST_WORD {
                    return None;
                }
                self.word.push(m as u8);
                self.from(&next, self.tables.ranked.follows[m])?;
                self.word.pop();
            } else {
                let mut moves = [0u8; LONGEST_WORD + 1];
                moves[..self.word.len()].copy_from_slice(&self.word);
                moves[self.word.len()] = m as u8;
                self.steps.push(Step {
                    moves,
                    len: self.word.len() as u8 + 1,
                    value,
                    rank: u32::try_from(self.tables.exact_rank(&next)).ok()?,
                });
            }
        }
        Some(())
    }
}
