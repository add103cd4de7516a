//! Progress reporting on stderr: bars while tables are built, hidden when stderr is not a
//! terminal or when the user asked for quiet.

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// Where library code reports progress; cheap to clone.
#[derive(Clone, Debug)]
pub struct Progress {
    multi: MultiProgress,
    visible: bool,
    notes: bool,
}

impl Progress {
    /// Bars on stderr if it is a terminal and `quiet` is false; notes unless `quiet`.
    pub fn stderr(quiet: bool) -> Self {
        let visible = !quiet && std::io::stderr().is_terminal();
        let target = if visible {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        Self {
            multi: MultiProgress::with_draw_target(target),
            visible,
            notes: !quiet,
        }
    }

    /// Reports nothing at all (tests, benchmarks).
    pub fn hidden() -> Self {
        Self {
            multi: MultiProgress::with_draw_target(ProgressDrawTarget::hidden()),
            visible: false,
            notes: false,
        }
    }

    /// A line of information on stderr (kept above any bars).
    pub fn note(&self, message: impl AsRef<str>) {
        if !self.notes {
            return;
        }
        if self.visible {
            let _ = self.multi.println(message.as_ref());
        } else {
            crate::output::note(format_args!("{}", message.as_ref()));
        }
    }

    /// A bar of states found so far out of a search space's `len`, with an ETA (rough:
    /// BFS layers are not equally fast).
    pub fn states(&self, prefix: impl Into<String>, len: u64) -> ProgressBar {
        if !self.visible {
            return ProgressBar::hidden();
        }
        let bar = self.multi.add(ProgressBar::new(len));
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} {prefix}: depth {msg:>3} [{bar:30}] {human_pos}/{human_len} states  {elapsed} (ETA {eta})",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        bar.set_prefix(prefix.into());
        bar.enable_steady_tick(Duration::from_millis(100));
        bar
    }

    /// A counter of states found so far in a search whose total is not known in advance.
    pub fn counter(&self, prefix: impl Into<String>) -> ProgressBar {
        if !self.visible {
            return ProgressBar::hidden();
        }
        let bar = self.multi.add(ProgressBar::new_spinner());
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} {prefix}: depth {msg:>3}  {human_pos:>12} states  {elapsed}",
            )
            .expect("valid template"),
        );
        bar.set_prefix(prefix.into());
        bar.enable_steady_tick(Duration::from_millis(100));
        bar
    }

    /// A status line for work of unknown length (a long search): a spinner, a message the
    /// caller updates, and the time since it started.
    pub fn status(&self) -> ProgressBar {
        if !self.visible {
            return ProgressBar::hidden();
        }
        let bar = self.multi.add(ProgressBar::new_spinner());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {msg}  {elapsed}").expect("valid template"),
        );
        bar.enable_steady_tick(Duration::from_millis(200));
        bar
    }

    /// A bar over a known amount of work.
    pub fn bar(&self, prefix: impl Into<String>, len: u64) -> ProgressBar {
        if !self.visible {
            return ProgressBar::hidden();
        }
        let bar = self.multi.add(ProgressBar::new(len));
        bar.set_style(
            ProgressStyle::with_template(
                "{prefix}: [{bar:40}] {human_pos}/{human_len} {msg} {elapsed}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        bar.set_prefix(prefix.into());
        bar
    }
}
