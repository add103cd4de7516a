//! Reading twsearch's KSolve-derived `.tws` definition files into a [`Definition`].
//!
//! Supported: `Name`; `Set NAME size orientations`; `Solved` (1-based pieces) or
//! `StartState` (0-based); `Move` (1-based, orientation indexed by the slot a piece
//! leaves, as KSolve writes it) and `MoveTransformation` (0-based, orientation by the slot
//! a piece arrives in); `MoveAlias`; `MoveSequence` (forward references allowed);
//! `Illegal`; identical pieces (repeated labels in the solved state); orientation
//! wildcards `?` in the solved state; whole-puzzle rotations (moves named `x`, `y`, `z`
//! with an optional `2` or `'`, or capitals ending in `v`). Comments are lines whose first
//! character is `#`. Anything else is an error naming the line and the rule.

use super::element::{Element, Orbit, SetDef, MAX_ORDER, WILD};
use std::collections::HashMap;
use thiserror::Error;

/// A definition that cannot be read: the line (1-based; 0 for the file as a whole) and
/// what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}: {problem}")]
pub struct DefinitionError {
    /// 1-based line, 0 when the problem is the whole file.
    pub line: usize,
    /// What is wrong.
    pub problem: String,
}

fn error(line: usize, problem: impl Into<String>) -> DefinitionError {
    DefinitionError {
        line,
        problem: problem.into(),
    }
}

/// A move as the file gives it, before its powers are made.
#[derive(Debug, Clone)]
pub struct BaseMove {
    /// The name (`R`).
    pub name: String,
    /// What it does.
    pub element: Element,
    /// A whole-puzzle rotation (not a search move).
    pub rotation: bool,
    /// Defined by `MoveAlias`: accepted in input, never searched.
    pub alias: bool,
    /// How many times it is applied before nothing has changed (at most
    /// [`MAX_ORDER`]).
    pub order: u32,
    /// The line that defines it.
    pub line: usize,
}

/// `Illegal SET slot piece...`: states with one of these pieces at that slot are not
/// allowed (bandaging, Square-1's shape rule).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Illegal {
    /// The set.
    pub set: usize,
    /// 0-based slot.
    pub slot: usize,
    /// 0-based piece labels not allowed there.
    pub labels: Vec<u8>,
}

/// A whole definition file.
#[derive(Debug, Clone)]
pub struct Definition {
    /// `Name`, or `Unnamed`.
    pub name: String,
    /// The orbits, in file order.
    pub sets: Vec<SetDef>,
    /// The solved state: 0-based labels, orientations ([`WILD`] for `?`).
    pub solved: Element,
    /// Base moves, rotations and aliases, in file order.
    pub moves: Vec<BaseMove>,
    /// Illegal placements.
    pub illegal: Vec<Illegal>,
}

/// The lines of a file as tokens, with their 1-based numbers, read one at a time (comment
/// and empty lines skipped): a file is tokenized only as far as it is read, so a bad line
/// stops the reading there whatever follows it.
struct Lines<'a> {
    rest: std::iter::Enumerate<std::str::Split<'a, [char; 2]>>,
    peeked: Option<(usize, Vec<&'a str>)>,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Self {
        Self {
            rest: text.split(['\n', '\r']).enumerate(),
            peeked: None,
        }
    }

    /// The next line with tokens, without taking it.
    fn peek(&mut self) -> Option<&(usize, Vec<&'a str>)> {
        if self.peeked.is_none() {
            self.peeked = self.read();
        }
        self.peeked.as_ref()
    }

    fn read(&mut self) -> Option<(usize, Vec<&'a str>)> {
        for (i, line) in self.rest.by_ref() {
            if line.starts_with('#') {
                continue;
            }
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

impl<'a> Iterator for Lines<'a> {
    type Item = (usize, Vec<&'a str>);

    fn next(&mut self) -> Option<Self::Item> {
        self.peeked.take().or_else(|| self.read())
    }
}

/// Whether a move name is a whole-puzzle rotation (twsearch's rule).
pub fn is_rotation_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    let xyz = matches!(bytes.first(), Some(b'x' | b'y' | b'z'))
        && match bytes.len() {
            1 => true,
            2 => matches!(bytes[1], b'2' | b'\''),
            _ => false,
        };
    let grip_v = bytes.len() >= 2
        && bytes[bytes.len() - 1] == b'v'
        && bytes[..bytes.len() - 1]
            .iter()
            .all(|b| b.is_ascii_uppercase() || *b == b'_');
    xyz || grip_v
}

/// How numbers in a position block are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block {
    /// `Solved`: 1-based labels, may repeat, `?` orientations.
    Solved,
    /// `StartState`: 0-based labels, may repeat, `?` orientations.
    StartState,
    /// `Move`: 1-based permutation, orientation by source slot.
    Move,
    /// `MoveTransformation`: 0-based permutation, orientation by destination slot.
    Transformation,
}

impl Definition {
    /// Reads a definition from the text of a `.tws` file.
    pub fn parse(text: &str) -> Result<Self, DefinitionError> {
        let mut lines = Lines::new(text);
        let mut name = "Unnamed".to_string();
        let mut sets: Vec<SetDef> = Vec::new();
        let mut solved: Option<Element> = None;
        let mut moves: Vec<BaseMove> = Vec::new();
        let mut pending: Vec<(usize, String, Vec<String>, bool)> = Vec::new();
        let mut illegal = Vec::new();
        // Every power of every move so far, by name (`R`, `R2`, `R'`).
        let mut known: HashMap<String, Element> = HashMap::new();
        while let Some((line, tokens)) = lines.next() {
            let keyword = tokens[0];
            match keyword {
                "Name" => {
                    if !sets.is_empty() || solved.is_some() || !moves.is_empty() {
                        return Err(error(line, "Name must come before everything else"));
                    }
                    if tokens.len() != 2 {
                        return Err(error(line, "Name takes exactly one word"));
                    }
                    name = checked_name(line, tokens[1], "the puzzle's name")?.to_string();
                }
                "Set" => {
                    if solved.is_some() {
                        return Err(error(line, "every Set must come before Solved"));
                    }
                    if tokens.len() != 4 {
                        return Err(error(
                            line,
                            "Set takes a name, a size and a number of orientations",
                        ));
                    }
                    checked_name(line, tokens[1], "a set's name")?;
                    if sets.iter().any(|s| s.name == tokens[1]) {
                        return Err(error(line, format!("set {} is defined twice", tokens[1])));
                    }
                    let size = number(line, tokens[2], "set size")?;
                    let omod = number(line, tokens[3], "number of orientations")?;
                    if size == 0 || omod == 0 || omod > 127 {
                        return Err(error(
                            line,
                            "a set needs 1 to 255 pieces and 1 to 127 orientations",
                        ));
                    }
                    sets.push(SetDef {
                        name: tokens[1].to_string(),
                        size: size as usize,
                        omod,
                    });
                }
                "Solved" | "StartState" => {
                    if solved.is_some() {
                        return Err(error(line, "the solved state is given twice"));
                    }
                    if sets.is_empty() {
                        return Err(error(line, "no Set before the solved state"));
                    }
                    if tokens.len() != 1 {
                        return Err(error(line, format!("{keyword} stands alone on its line")));
                    }
                    let kind = if keyword == "Solved" {
                        Block::Solved
                    } else {
                        Block::StartState
                    };
                    let (state, _) = read_block(&mut lines, line, &sets, kind, keyword)?;
                    if state.orbits.iter().any(|o| o.perm.contains(&WILD)) {
                        return Err(error(
                            line,
                            "`?` for a piece is for target patterns (--target), not the solved state",
                        ));
                    }
                    solved = Some(state);
                }
                "Move" | "MoveTransformation" => {
                    if solved.is_none() {
                        return Err(error(line, "moves must come after the solved state"));
                    }
                    if tokens.len() != 2 {
                        return Err(error(line, format!("{keyword} takes exactly one name")));
                    }
                    let kind = if keyword == "Move" {
                        Block::Move
                    } else {
                        Block::Transformation
                    };
                    let (element, _) = read_block(&mut lines, line, &sets, kind, keyword)?;
                    add_move(
                        &mut moves, &mut known, &sets, tokens[1], element, false, line,
                    )?;
                }
                "MoveAlias" | "MoveSequence" => {
                    if solved.is_none() {
                        return Err(error(line, "moves must come after the solved state"));
                    }
                    if tokens.len() < 3 || (keyword == "MoveAlias" && tokens.len() != 3) {
                        return Err(error(
                            line,
                            format!("{keyword} takes a name and a move sequence"),
                        ));
                    }
                    let steps = tokens[2..]
                        .iter()
                        .flat_map(|t| t.split(','))
                        .filter(|t| !t.is_empty())
                        .map(str::to_string)
                        .collect();
                    pending.push((line, tokens[1].to_string(), steps, keyword == "MoveAlias"));
                }
                "Illegal" => {
                    if solved.is_none() {
                        return Err(error(line, "Illegal must come after the solved state"));
                    }
                    if tokens.len() < 4 {
                        return Err(error(line, "Illegal takes a set, a slot and pieces"));
                    }
                    let set = sets
                        .iter()
                        .position(|s| s.name == tokens[1])
                        .ok_or_else(|| {
                            error(
                                line,
                                format!("no set named {}", crate::text::quote(tokens[1])),
                            )
                        })?;
                    let slot = number(line, tokens[2], "slot")? as usize;
                    if slot == 0 || slot > sets[set].size {
                        return Err(error(
                            line,
                            format!("slot {slot} is not in set {}", sets[set].name),
                        ));
                    }
                    let labels = tokens[3..]
                        .iter()
                        .map(|t| {
                            let piece = number(line, t, "piece")?;
                            if piece == 0 {
                                return Err(error(line, "pieces are numbered from 1"));
                            }
                            Ok(piece - 1)
                        })
                        .collect::<Result<_, _>>()?;
                    illegal.push(Illegal {
                        set,
                        slot: slot - 1,
                        labels,
                    });
                }
                "End" => return Err(error(line, "End without a block to end")),
                other => {
                    return Err(error(
                        line,
                        format!(
                            "unexpected {}: expected Name, Set, Solved, StartState, Move, \
                             MoveTransformation, MoveAlias, MoveSequence or Illegal",
                            crate::text::quote(other)
                        ),
                    ))
                }
            }
        }
        let solved = solved.ok_or_else(|| error(0, "no Solved (or StartState) block"))?;
        resolve_sequences(&sets, &mut moves, &mut known, pending)?;
        if !moves.iter().any(|m| !m.rotation && !m.alias) {
            return Err(error(0, "no moves"));
        }
        Ok(Self {
            name,
            sets,
            solved,
            moves,
            illegal,
        })
    }
}

/// Longest name a definition may give a puzzle, set or move.
pub const NAME_LIMIT: usize = 64;

/// `token` as a name (of the puzzle, a set or a move): at most [`NAME_LIMIT`] visible
/// ASCII characters, so that every message naming it stays short and readable.
fn checked_name<'a>(line: usize, token: &'a str, what: &str) -> Result<&'a str, DefinitionError> {
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

/// A number token (decimal, at most 255).
fn number(line: usize, token: &str, what: &str) -> Result<u8, DefinitionError> {
    token
        .parse::<u16>()
        .ok()
        .filter(|n| *n <= 255 && token.bytes().all(|b| b.is_ascii_digit()))
        .map(|n| n as u8)
        .ok_or_else(|| {
            error(
                line,
                format!(
                    "{what} {} is not a whole number from 0 to 255",
                    crate::text::quote(token)
                ),
            )
        })
}

fn add_move(
    moves: &mut Vec<BaseMove>,
    known: &mut HashMap<String, Element>,
    sets: &[SetDef],
    name: &str,
    element: Element,
    alias: bool,
    line: usize,
) -> Result<(), DefinitionError> {
    checked_name(line, name, "a move's name")?;
    if moves.iter().any(|m| m.name == name) {
        return Err(error(
            line,
            format!("move {} is defined twice", crate::text::quote(name)),
        ));
    }
    let order = element
        .order(sets)
        .filter(|&order| order <= MAX_ORDER)
        .ok_or_else(|| {
            let order = element.order(sets).map_or_else(
                || "more than 2^64".to_string(),
                |o| crate::text::count(u128::from(o)),
            );
            error(
                line,
                format!(
                    "move {} has order {order} (it repeats after that many turns): at most {} \
                     is supported",
                    crate::text::quote(name),
                    crate::text::count(u128::from(MAX_ORDER))
                ),
            )
        })? as u32;
    for (name, power) in power_names(name, order)
        .into_iter()
        .map(|(_, n)| n)
        .zip(element.powers(order, sets))
    {
        known.insert(name, power);
    }
    moves.push(BaseMove {
        name: name.to_string(),
        element,
        rotation: is_rotation_name(name),
        alias,
        order,
        line,
    });
    Ok(())
}

/// A position read from a scramble file: its name, the line its block starts on, and the
/// state.
#[derive(Debug, Clone)]
pub struct NamedState {
    /// The block's name (`ScrambleState NAME`).
    pub name: String,
    /// 1-based line of the block's first line.
    pub line: usize,
    /// The position (sets the block does not name are as solved).
    pub state: Element,
    /// For a `ScrambleAlg` block, its moves (applied to solved by the caller, who knows
    /// the move names); `state` is then the solved state.
    pub alg: Option<String>,
}

/// Reads the positions of a scramble file in twsearch's format: `ScrambleState NAME`
/// blocks (0-based labels, orientations per slot) and `Scramble NAME` blocks (1-based),
/// each up to `End`; a set a block leaves out is as in `solved`.
pub fn parse_states(
    text: &str,
    sets: &[SetDef],
    solved: &Element,
) -> Result<Vec<NamedState>, DefinitionError> {
    let states = read_states(text, sets, solved)?;
    if let Some(wild) = states
        .iter()
        .find(|s| s.state.orbits.iter().any(|o| o.perm.contains(&WILD)))
    {
        return Err(error(
            wild.line,
            "`?` for a piece is for target patterns (--target), not positions",
        ));
    }
    Ok(states)
}

/// A target pattern: one block in the format of [`parse_states`] where `?` may also
/// stand for a piece (any piece not named elsewhere in its set) as well as for an
/// orientation (any). Pieces are [`WILD`] where `?` stands.
pub fn parse_target(
    text: &str,
    sets: &[SetDef],
    solved: &Element,
) -> Result<Element, DefinitionError> {
    let mut states = read_states(text, sets, solved)?;
    match states.len() {
        1 if states[0].alg.is_none() => Ok(states.remove(0).state),
        1 => Err(error(
            states[0].line,
            "a target is a position block (ScrambleState or Scramble), not moves",
        )),
        n => Err(error(
            states.get(1).map_or(0, |s| s.line),
            format!("a target file holds one position block, found {n}"),
        )),
    }
}

fn read_states(
    text: &str,
    sets: &[SetDef],
    solved: &Element,
) -> Result<Vec<NamedState>, DefinitionError> {
    let mut lines = Lines::new(text);
    let mut states = Vec::new();
    while let Some((line, tokens)) = lines.next() {
        let name = tokens.get(1).map_or_else(
            || format!("state {}", states.len() + 1),
            |n| crate::text::quote(n).to_string(),
        );
        let kind = match tokens[0] {
            "ScrambleState" | "StartState" => Block::StartState,
            "Scramble" => Block::Solved,
            "ScrambleAlg" => {
                let mut moves = Vec::new();
                loop {
                    let Some((_, t)) = lines.next() else {
                        return Err(error(line, "ScrambleAlg block without End"));
                    };
                    if t[0] == "End" {
                        break;
                    }
                    moves.extend(t.iter().map(|m| m.to_string()));
                }
                states.push(NamedState {
                    name,
                    line,
                    state: solved.clone(),
                    alg: Some(moves.join(" ")),
                });
                continue;
            }
            other => {
                return Err(error(
                    line,
                    format!(
                        "expected a ScrambleState, Scramble or ScrambleAlg block, found {}",
                        crate::text::quote(other)
                    ),
                ))
            }
        };
        let keyword = tokens[0];
        let (mut state, named) = read_block(&mut lines, line, sets, kind, keyword)?;
        // The sets the block does not name stay solved.
        for (s, orbit) in state.orbits.iter_mut().enumerate() {
            if !named[s] {
                *orbit = solved.orbits[s].clone();
            }
        }
        states.push(NamedState {
            name,
            line,
            state,
            alg: None,
        });
    }
    Ok(states)
}

/// Reads a position block up to `End`: set name lines, each followed by a permutation
/// line and an optional orientation line.
fn read_block(
    lines: &mut Lines<'_>,
    start: usize,
    sets: &[SetDef],
    kind: Block,
    keyword: &str,
) -> Result<(Element, Vec<bool>), DefinitionError> {
    let mut element = Element::identity(sets);
    let mut seen = vec![false; sets.len()];
    loop {
        let Some((line, tokens)) = lines.next() else {
            return Err(error(start, format!("{keyword} block without End")));
        };
        if tokens[0] == "End" {
            if tokens.len() != 1 {
                return Err(error(line, "End stands alone on its line"));
            }
            return Ok((element, seen));
        }
        if tokens.len() != 1 {
            return Err(error(
                line,
                format!("expected a set name or End in the {keyword} block"),
            ));
        }
        let set = sets
            .iter()
            .position(|s| s.name == tokens[0])
            .ok_or_else(|| {
                error(
                    line,
                    format!("no set named {}", crate::text::quote(tokens[0])),
                )
            })?;
        if seen[set] {
            return Err(error(
                line,
                format!(
                    "set {} appears twice in this block",
                    crate::text::quote(tokens[0])
                ),
            ));
        }
        seen[set] = true;
        let def = &sets[set];
        let is_numbers = |t: &Vec<&str>| {
            t.first()
                .is_some_and(|f| f.as_bytes()[0].is_ascii_digit() || *f == "?")
        };
        if !lines.peek().is_some_and(|(_, t)| is_numbers(t)) {
            return Err(error(
                line,
                format!("set {} has no permutation line", def.name),
            ));
        }
        let Some((perm_line, perm_tokens)) = lines.next() else {
            return Err(error(
                line,
                format!("set {} has no permutation line", def.name),
            ));
        };
        let perm_line = &perm_line;
        if perm_tokens.len() != def.size {
            return Err(error(
                *perm_line,
                format!(
                    "set {} needs {} numbers, found {}",
                    def.name,
                    def.size,
                    perm_tokens.len()
                ),
            ));
        }
        let one_based = matches!(kind, Block::Solved | Block::Move);
        let mut perm = Vec::with_capacity(def.size);
        for token in &perm_tokens {
            if *token == "?" && matches!(kind, Block::Solved | Block::StartState) {
                // Any piece: only a target pattern may say so (callers check).
                perm.push(WILD);
                continue;
            }
            let n = number(*perm_line, token, "piece")?;
            let n = if one_based {
                n.checked_sub(1)
                    .ok_or_else(|| error(*perm_line, "pieces are numbered from 1 here"))?
            } else if n == WILD {
                // 255 is what `?` reads as: a 0-based label stops at 254.
                return Err(error(
                    *perm_line,
                    "piece 255: pieces are numbered from 0 to 254 here (`?` for any piece)",
                ));
            } else {
                n
            };
            if n as usize >= def.size && matches!(kind, Block::Move | Block::Transformation) {
                return Err(error(
                    *perm_line,
                    format!(
                        "piece {} is not in set {} (of {} pieces)",
                        crate::text::quote(token),
                        def.name,
                        def.size
                    ),
                ));
            }
            perm.push(n);
        }
        let moving = matches!(kind, Block::Move | Block::Transformation);
        if moving {
            let mut used = vec![false; def.size];
            for &p in &perm {
                if std::mem::replace(&mut used[p as usize], true) {
                    return Err(error(
                        *perm_line,
                        format!(
                            "a move must be a permutation: {} appears twice",
                            p as usize + one_based as usize
                        ),
                    ));
                }
            }
        }
        let mut ori = vec![0u8; def.size];
        if lines.peek().is_some_and(|(_, t)| is_numbers(t)) {
            let Some((ori_line, ori_tokens)) = lines.next() else {
                return Err(error(line, "an orientation line went missing"));
            };
            let ori_line = &ori_line;
            if ori_tokens.len() != def.size {
                return Err(error(
                    *ori_line,
                    format!(
                        "set {} needs {} orientations, found {}",
                        def.name,
                        def.size,
                        ori_tokens.len()
                    ),
                ));
            }
            for (i, token) in ori_tokens.iter().enumerate() {
                if *token == "?" {
                    if moving {
                        return Err(error(
                            *ori_line,
                            "? (any orientation) is only for states, not moves",
                        ));
                    }
                    ori[i] = if def.omod == 1 { 0 } else { WILD };
                    continue;
                }
                let o = number(*ori_line, token, "orientation")?;
                if o >= def.omod {
                    return Err(error(
                        *ori_line,
                        format!(
                            "orientation {o} is not below {} (set {})",
                            def.omod, def.name
                        ),
                    ));
                }
                ori[i] = o;
            }
        }
        if kind == Block::Move {
            // KSolve moves give the twist of the piece leaving each slot; as a
            // transformation, the twist is that of the piece arriving.
            ori = perm.iter().map(|&from| ori[from as usize]).collect();
        }
        element.orbits[set] = Orbit { perm, ori };
    }
}

/// Resolves `MoveSequence` and `MoveAlias` lines (which may refer to one another in any
/// order) into moves, once every move is known: each line is resolved once, after the
/// lines it names (depth first, with a cycle check), so the work is linear in the lines.
fn resolve_sequences(
    sets: &[SetDef],
    moves: &mut Vec<BaseMove>,
    known: &mut HashMap<String, Element>,
    pending: Vec<(usize, String, Vec<String>, bool)>,
) -> Result<(), DefinitionError> {
    // Which pending line defines each name (the powers of a sequence are named after
    // resolving it, so a step `B2` waits for `B`).
    let mut by_name: HashMap<&str, usize> = HashMap::new();
    for (i, (line, name, _, _)) in pending.iter().enumerate() {
        if by_name.insert(name.as_str(), i).is_some() || known.contains_key(name) {
            return Err(error(
                *line,
                format!("move {} is defined twice", crate::text::quote(name)),
            ));
        }
    }
    // 0: not started, 1: on the current path, 2: resolved.
    let mut mark = vec![0u8; pending.len()];
    for root in 0..pending.len() {
        if mark[root] == 2 {
            continue;
        }
        // An explicit stack of (line index, next step to look at).
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        mark[root] = 1;
        while let Some(&mut (i, ref mut step)) = stack.last_mut() {
            let (line, name, steps, alias) = &pending[i];
            if let Some(token) = steps.get(*step) {
                *step += 1;
                if known.contains_key(token) {
                    continue;
                }
                // A power of a pending move (`B2`) needs `B` first.
                let dependency = by_name.get(token.as_str()).copied().or_else(|| {
                    let base = token
                        .trim_end_matches('\'')
                        .trim_end_matches(|c: char| c.is_ascii_digit());
                    by_name.get(base).copied()
                });
                match dependency {
                    Some(d) if mark[d] == 1 => {
                        return Err(error(
                            *line,
                            format!(
                                "{}: the sequences refer to each other in a loop (through {})",
                                crate::text::quote(name),
                                crate::text::quote(token)
                            ),
                        ))
                    }
                    Some(d) if mark[d] == 0 => {
                        mark[d] = 1;
                        stack.push((d, 0));
                    }
                    _ => {
                        return Err(error(
                            *line,
                            format!(
                                "{}: unknown move {}",
                                crate::text::quote(name),
                                crate::text::quote(token)
                            ),
                        ))
                    }
                }
                continue;
            }
            // Every step is known: compose them.
            let mut element = Element::identity(sets);
            for token in steps {
                let part = known.get(token).ok_or_else(|| {
                    error(
                        *line,
                        format!(
                            "{}: unknown move {}",
                            crate::text::quote(name),
                            crate::text::quote(token)
                        ),
                    )
                })?;
                element = element.then(part, sets);
            }
            add_move(moves, known, sets, name, element, *alias, *line)?;
            mark[i] = 2;
            stack.pop();
        }
    }
    Ok(())
}

/// The powers a move of order `order` makes, with their names and twsearch's rule: the
/// shorter direction wins, ties go positive (`R2` for a half turn; `R2'` only when order
/// is 5 or more).
pub fn power_names(base: &str, order: u32) -> Vec<(u32, String)> {
    (1..order)
        .map(|k| {
            let mut turn = k as i64;
            if (order as i64 - turn) < turn {
                turn -= order as i64;
            }
            let name = match turn {
                1 => base.to_string(),
                -1 => format!("{base}'"),
                t if t > 1 => format!("{base}{t}"),
                t => format!("{base}{}'", -t),
            };
            (k, name)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TINY: &str = "# a three-piece puzzle\nName Tiny\nSet X 3 3\nSolved\nX\n1 2 3\n0 0 0\nEnd\nMove A\nX\n2 3 1\n1 0 0\nEnd\n";

    #[test]
    fn ksolve_moves_twist_by_source_slot_and_powers_are_named() {
        let def = Definition::parse(TINY).expect("parses");
        assert_eq!(def.name, "Tiny");
        let a = &def.moves[0].element;
        assert_eq!(a.orbits[0].perm, vec![1, 2, 0]);
        assert_eq!(a.orbits[0].ori, vec![0, 0, 1]);
        assert_eq!(a.order(&def.sets), Some(9));
        let names: Vec<String> = power_names("A", 9).into_iter().map(|(_, n)| n).collect();
        assert_eq!(names, ["A", "A2", "A3", "A4", "A4'", "A3'", "A2'", "A'"]);
        let four: Vec<String> = power_names("R", 4).into_iter().map(|(_, n)| n).collect();
        assert_eq!(four, ["R", "R2", "R'"]);
        let new_style =
            "Set X 3 3\nStartState\nX\n0 1 2\nEnd\nMoveTransformation A\nX\n1 2 0\n0 0 1\nEnd\n";
        let b = Definition::parse(new_style).expect("parses");
        assert_eq!(b.moves[0].element, def.moves[0].element);
    }

    #[test]
    fn errors_name_the_line_and_the_rule() {
        let cases = [
            (
                "Set X 3 3\nSolved\nX\n1 2 3\nEnd\nMove A\nX\n2 2 1\nEnd\n",
                8,
                "permutation",
            ),
            ("Set X 3 3\nSolved\nX\n1 2\nEnd\n", 4, "needs 3 numbers"),
            (
                "Set X 3 3\nSolved\nX\n1 2 3\n0 0 3\nEnd\n",
                5,
                "not below 3",
            ),
            (
                "Set X 3 3\nSolved\nX\n1 2 3\nEnd\nMove A\nY\n1 2 3\nEnd\n",
                7,
                "no set named `Y`",
            ),
            (
                "Set X 3 3\nSolved\nX\n1 2 3\nEnd\nFoo\n",
                6,
                "unexpected `Foo`",
            ),
            ("Set X 3 3\nSolved\nX\n1 2 3\n", 2, "without End"),
            (
                "Set X 3 3\nSolved\nX\n1 2 3\nEnd\nMoveSequence B A C\nMove A\nX\n2 3 1\nEnd\n",
                6,
                "unknown move `C`",
            ),
            ("Set X 3 3\nSolved\nX\n1 2 3\nEnd\n", 0, "no moves"),
            (
                "Set X 3 1\nSolved\nX\n1 2 3\nEnd\nMove A\nX\n2 3 1\n? 0 0\nEnd\n",
                9,
                "only for states",
            ),
        ];
        for (text, line, words) in cases {
            let err = Definition::parse(text).expect_err(text);
            assert_eq!(err.line, line, "{text}: {err}");
            assert!(err.problem.contains(words), "{text}: {err}");
        }
    }

    #[test]
    fn sequences_resolve_forward_and_rotations_are_recognised() {
        let text = "Set X 3 1\nSolved\nX\n1 2 3\nEnd\nMoveSequence B A A\nMoveAlias C B\nMove A\nX\n2 3 1\nEnd\nMove xv\nX\n1 2 3\nEnd\nMove x\nX\n1 2 3\nEnd\n";
        let def = Definition::parse(text).expect("parses");
        let names: Vec<&str> = def.moves.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["A", "xv", "x", "B", "C"]);
        assert!(!def.moves[1].rotation, "lowercase before v is a move");
        assert!(def.moves[2].rotation);
        assert!(def.moves[4].alias);
        assert!(is_rotation_name("DFRv") && is_rotation_name("y'") && !is_rotation_name("f"));
        let a2 = def.moves[0].element.power(2, &def.sets);
        assert_eq!(def.moves[3].element, a2);
    }
}
