//! Limits on what callers ask for, checked in one place with one wording for every front
//! end (the CLI names `--max-length`, Python `max_length`: the same rule, the same words),
//! and the signal that stops a long computation: a deadline, a cancel flag, or both.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// An argument outside its range, or not a number at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{name} must be {rule}, not {value}")]
pub struct ArgError {
    /// The argument as the caller wrote it (`--timeout`, `timeout`).
    pub name: String,
    /// What it must be, e.g. "a whole number from 0 to 255".
    pub rule: String,
    /// The value given, as shown to the user.
    pub value: String,
}

/// A whole-number argument: its range, the same for every front end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WholeRange {
    /// Least value allowed.
    pub min: u64,
    /// Greatest value allowed.
    pub max: u64,
}

impl WholeRange {
    /// Move-count caps (`max_length`): any cap of 50 or more is the same as no cap
    /// (no two-phase solution is longer), and more than this is a mistake.
    pub const MAX_LENGTH: WholeRange = WholeRange { min: 0, max: 255 };
    /// How many positions or scrambles one call makes: a list of this many fits in memory.
    pub const COUNT: WholeRange = WholeRange {
        min: 0,
        max: 10_000_000,
    };
    /// How many solutions one cube lists.
    pub const SOLUTIONS: WholeRange = WholeRange {
        min: 1,
        max: 10_000_000,
    };
    /// Positions measured by a benchmark.
    pub const BENCH_COUNT: WholeRange = WholeRange {
        min: 1,
        max: 10_000_000,
    };
    /// Seeds of the random generator: any 64-bit value.
    pub const SEED: WholeRange = WholeRange {
        min: 0,
        max: u64::MAX,
    };
    /// Worker threads: more than this costs seconds to start and gains nothing.
    pub const THREADS: WholeRange = WholeRange { min: 1, max: 256 };
    /// Memory a table build may take, in MB (`--memory`): up to 16 TiB, so that the
    /// budget in bytes is always a plain number.
    pub const MEMORY_MB: WholeRange = WholeRange {
        min: 1,
        max: 1 << 24,
    };
    /// The longest solution a definition-driven search looks for (`--max-depth`).
    pub const SEARCH_DEPTH: WholeRange = WholeRange { min: 0, max: 1000 };
    /// The judge's depth limit (`--max-depth`): God's number in quarter turns.
    pub const JUDGE_DEPTH: WholeRange = WholeRange { min: 0, max: 26 };

    /// The rule in words.
    fn rule(&self) -> String {
        format!("a whole number from {} to {}", self.min, self.max)
    }

    /// `value` if it lies in the range, else an error naming `name`.
    pub fn check(&self, name: &str, value: impl Into<i128>) -> Result<u64, ArgError> {
        let value: i128 = value.into();
        if value < i128::from(self.min) || value > i128::from(self.max) {
            return Err(self.error(name, value));
        }
        Ok(value as u64)
    }

    /// A whole number in the range from its text (a command-line value): the error says
    /// what the value must be, in the words of [`ArgError`] (the front end adds the name).
    pub fn parse(&self, text: &str) -> Result<u64, String> {
        let value = text.trim().parse::<i128>().ok();
        value
            .and_then(|v| self.check("", v).ok())
            .ok_or_else(|| format!("must be {}, not {}", self.rule(), shown(text)))
    }

    /// The error for a value outside the range (or, for `value` given as text, not a
    /// whole number at all); a long value is shown cut short.
    pub fn error(&self, name: &str, value: impl fmt::Display) -> ArgError {
        ArgError {
            name: name.to_string(),
            rule: self.rule(),
            value: shown(&value.to_string()),
        }
    }
}

/// `value` as an error shows it: at most [`crate::text::QUOTE_LIMIT`] characters (then its
/// length), anything invisible escaped, as every message quotes input.
fn shown(value: &str) -> String {
    crate::text::shown(value).to_string()
}

/// One of a few words (`metric`, `errors`): the value `choices` pairs with `text`, else an
/// error naming `name`, the words allowed and the text given (quoted: cut and escaped).
pub fn choice<T: Copy>(name: &str, choices: &[(&str, T)], text: &str) -> Result<T, ArgError> {
    choices
        .iter()
        .find(|(word, _)| *word == text)
        .map(|&(_, value)| value)
        .ok_or_else(|| {
            let words: Vec<String> = choices.iter().map(|(w, _)| format!("\"{w}\"")).collect();
            let rule = match words.split_last() {
                Some((last, [])) => last.clone(),
                Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
                None => "nothing".into(),
            };
            ArgError {
                name: name.to_string(),
                rule,
                value: crate::text::quote(text).to_string(),
            }
        })
}

/// The longest timeout taken at its word; a longer one (up to any finite number of
/// seconds) is this one, which no computation reaches.
pub const LONGEST_TIMEOUT: Duration = Duration::from_secs(100 * 365 * 24 * 3600);

/// A timeout in seconds: a finite number of 0 or more. More than a century counts as a
/// century ([`LONGEST_TIMEOUT`]), so that a deadline from it always exists.
pub fn timeout(name: &str, seconds: f64) -> Result<Duration, ArgError> {
    if !(seconds.is_finite() && seconds >= 0.0) {
        return Err(ArgError {
            name: name.to_string(),
            rule: "a number of seconds, 0 or more".into(),
            value: seconds.to_string(),
        });
    }
    Ok(Duration::try_from_secs_f64(seconds)
        .unwrap_or(LONGEST_TIMEOUT)
        .min(LONGEST_TIMEOUT))
}

/// Seconds from their text (a command-line value, a JSON number, a Python int): a finite
/// number, 0 or more. A number written out beyond what a float holds (`1e400`, a long
/// run of digits) is longer than any timeout, so it reads as the largest float (which
/// [`timeout`] makes [`LONGEST_TIMEOUT`]); `inf` and `nan` are not numbers of seconds.
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    let trimmed = text.trim();
    match trimmed.parse::<f64>() {
        Ok(seconds) if seconds.is_finite() && seconds >= 0.0 => Ok(seconds),
        Ok(seconds) if seconds == f64::INFINITY && trimmed.bytes().any(|b| b.is_ascii_digit()) => {
            Ok(f64::MAX)
        }
        _ => Err(format!(
            "must be a number of seconds, 0 or more, not {}",
            shown(text)
        )),
    }
}

/// The instant `timeout` after `start`, or `None` when that is beyond what a clock holds.
pub fn deadline(start: Instant, timeout: Option<Duration>) -> Option<Instant> {
    timeout.and_then(|t| start.checked_add(t))
}

/// A flag another thread sets to make a computation stop (Ctrl-C in Python, a closed
/// connection, a shutdown); cheap to clone and to check.
#[derive(Debug, Clone, Default)]
pub struct Cancel {
    own: Arc<AtomicBool>,
    /// A flag this one also reads as set (see [`Cancel::child`]).
    parent: Option<Arc<AtomicBool>>,
}

impl Cancel {
    /// A flag not yet set.
    pub fn new() -> Self {
        Self::default()
    }

    /// A flag of its own that also reads as set once this one is: a request's flag
    /// (set when its client leaves) under a service's (set at shutdown).
    pub fn child(&self) -> Self {
        Self {
            own: Arc::default(),
            parent: Some(Arc::clone(&self.own)),
        }
    }

    /// Asks every computation watching this flag (or a child of it) to stop.
    pub fn cancel(&self) {
        self.own.store(true, Ordering::Relaxed);
    }

    /// Whether [`Cancel::cancel`] was called on this flag or its parent.
    #[inline]
    pub fn is_cancelled(&self) -> bool {
        self.own.load(Ordering::Relaxed)
            || self
                .parent
                .as_ref()
                .is_some_and(|p| p.load(Ordering::Relaxed))
    }
}

/// When a long computation gives up: at a deadline, when a cancel flag is set, or never.
#[derive(Debug, Clone, Default)]
pub struct Stop {
    /// Give up once this instant has passed.
    pub deadline: Option<Instant>,
    /// Give up once this flag is set.
    pub cancel: Option<Cancel>,
}

impl Stop {
    /// Never stop.
    pub fn never() -> Self {
        Self::default()
    }

    /// Stop at `deadline`, if any.
    pub fn at(deadline: Option<Instant>) -> Self {
        Self {
            deadline,
            cancel: None,
        }
    }

    /// This stop, also when `cancel` is set.
    pub fn or_cancel(self, cancel: Option<Cancel>) -> Self {
        Self { cancel, ..self }
    }

    /// Whether it is time to stop (reads the clock if there is a deadline).
    #[inline]
    pub fn reached(&self) -> bool {
        self.cancel.as_ref().is_some_and(Cancel::is_cancelled)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether the cancel flag is set (not the deadline): the caller asked to stop.
    pub fn cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(Cancel::is_cancelled)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_child_flag_follows_its_parent_not_the_other_way() {
        let parent = Cancel::new();
        let child = parent.child();
        let sibling = parent.child();
        child.cancel();
        assert!(child.is_cancelled() && !parent.is_cancelled() && !sibling.is_cancelled());
        parent.cancel();
        assert!(sibling.is_cancelled());
    }

    #[test]
    fn ranges_name_the_argument_and_the_rule() {
        let err = WholeRange::MAX_LENGTH.check("max_length", -1).unwrap_err();
        assert_eq!(
            err.to_string(),
            "max_length must be a whole number from 0 to 255, not -1"
        );
        assert_eq!(WholeRange::MAX_LENGTH.check("max_length", 255), Ok(255));
        assert!(WholeRange::SEED.check("seed", i128::from(u64::MAX)).is_ok());
        assert!(WholeRange::SEED.check("seed", -1).is_err());
        assert!(WholeRange::THREADS.check("--threads", 100_000).is_err());
    }

    #[test]
    fn choices_name_the_words_and_quote_the_text() {
        let metric = [("htm", 0), ("qtm", 1)];
        assert_eq!(choice("metric", &metric, "qtm"), Ok(1));
        let err = choice("metric", &metric, &"x".repeat(60_000))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("metric must be \"htm\" or \"qtm\", not `xxx"),
            "{err}"
        );
        assert!(
            err.ends_with("(60000 characters)") && err.len() < 120,
            "{err}"
        );
        let err = choice(
            "errors",
            &[("raise", 0), ("return", 1), ("skip", 2)],
            "\u{0}",
        );
        assert_eq!(
            err.unwrap_err().to_string(),
            "errors must be \"raise\", \"return\" or \"skip\", not `\\0`"
        );
    }

    #[test]
    fn timeouts_are_finite_and_huge_ones_mean_no_deadline() {
        assert_eq!(timeout("t", 1.5), Ok(Duration::from_millis(1500)));
        assert_eq!(timeout("t", 0.0), Ok(Duration::ZERO));
        for huge in [1e19, 1e308, f64::MAX] {
            assert_eq!(timeout("t", huge), Ok(LONGEST_TIMEOUT), "{huge}");
            assert!(deadline(Instant::now(), Some(LONGEST_TIMEOUT)).is_some());
        }
        for bad in [f64::NAN, f64::INFINITY, -1.0, -0.5] {
            let err = timeout("--timeout", bad).unwrap_err().to_string();
            assert!(
                err.starts_with("--timeout must be a number of seconds"),
                "{err}"
            );
        }
        let now = Instant::now();
        assert_eq!(deadline(now, None), None);
        assert_eq!(deadline(now, Some(Duration::MAX)), None);
        assert!(deadline(now, Some(Duration::from_secs(1))).is_some());
    }

    #[test]
    fn seconds_written_beyond_a_float_are_the_longest_timeout() {
        for huge in ["1e400", &"9".repeat(400)] {
            let seconds = parse_seconds(huge).expect(huge);
            assert_eq!(timeout("t", seconds), Ok(LONGEST_TIMEOUT));
        }
        for bad in ["inf", "-1e400", "nan", "-1", "soon"] {
            assert!(parse_seconds(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_stop_sees_its_deadline_and_its_flag() {
        assert!(!Stop::never().reached());
        assert!(Stop::at(Some(Instant::now())).reached());
        let cancel = Cancel::new();
        let stop = Stop::never().or_cancel(Some(cancel.clone()));
        assert!(!stop.reached());
        cancel.cancel();
        assert!(stop.reached() && stop.cancelled());
    }
}
