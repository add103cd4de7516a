//! Progress reporting on stderr: bars while tables are built, hidden when stderr is not a
//! terminal or when the user asked for quiet.

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Arc;
use std::time::Duration;

/// Where library code reports progress; cheap to clone.
#[derive(Clone, Debug)]
pub struct Progress {
    multi: MultiProgress,
    visible: bool,
    notes: bool,
    /// A front end's own channel for notes (else stderr).
    sink: Option<NoteSink>,
}

/// A front end's channel for notes, such as Python's `sys.stderr`.
#[derive(Clone)]
struct NoteSink(Arc<dyn Fn(&str) + Send + Sync>);

impl std::fmt::Debug for NoteSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("NoteSink")
    }
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
            sink: None,
        }
    }

    /// No bars; each note handed to `sink` (a front end that is not a terminal program,
    /// such as the Python package, says when a long build starts through its own stderr).
    pub fn notes_to(sink: impl Fn(&str) + Send + Sync + 'static) -> Self {
        Self {
            sink: Some(NoteSink(Arc::new(sink))),
            notes: true,
            ..Self::hidden()
        }
    }

    /// Reports nothing at all (tests, benchmarks).
    pub fn hidden() -> Self {
        Self {
            multi: MultiProgress::with_draw_target(ProgressDrawTarget::hidden()),
            visible: false,
            notes: false,
            sink: None,
        }
    }

    /// A line of information on stderr (kept above any bars).
    pub fn note(&self, message: impl AsRef<str>) {
        if !self.notes {
            return;
        }
        if let Some(NoteSink(sink)) = &self.sink {
            sink(message.as_ref());
        } else if self.visible {
            let _ = self.multi.println(message.as_ref());
        } else {
            crate::output::note(format_args!("{}", message.as_ref()));
        }
    }

    /// A bar of states found so far out of a search space's `len`, with an ETA (rough:
    /// BFS layers are not equally fast).
    pub fn states(&self, prefix: impl Into<String>, len: u64) -> ProgressBar {
        self.add(
            ProgressBar::new(len),
            "{spinner} {prefix}: depth {msg:>3} [{bar:30}] {human_pos}/{human_len} states  {elapsed} (ETA {eta})",
            prefix.into(),
            Some(100),
        )
    }

    /// A counter of states found so far in a search whose total is not known in advance.
    pub fn counter(&self, prefix: impl Into<String>) -> ProgressBar {
        self.add(
            ProgressBar::new_spinner(),
            "{spinner} {prefix}: depth {msg:>3}  {human_pos:>12} states  {elapsed}",
            prefix.into(),
            Some(100),
        )
    }

    /// A status line for work of unknown length (a long search): a spinner, a message the
    /// caller updates, and the time since it started.
    pub fn status(&self) -> ProgressBar {
        self.add(
            ProgressBar::new_spinner(),
            "{spinner} {msg}  {elapsed}",
            String::new(),
            Some(200),
        )
    }

    /// A bar over a known amount of work.
    pub fn bar(&self, prefix: impl Into<String>, len: u64) -> ProgressBar {
        self.add(
            ProgressBar::new(len),
            "{prefix}: [{bar:40}] {human_pos}/{human_len} {msg} {elapsed}",
            prefix.into(),
            None,
        )
    }

    /// `bar` styled by `template`, shown under the others (ticking every `tick_ms`
    /// milliseconds if given), or a hidden bar when nothing is shown.
    fn add(
        &self,
        bar: ProgressBar,
        template: &str,
        prefix: String,
        tick_ms: Option<u64>,
    ) -> ProgressBar {
        if !self.visible {
            return ProgressBar::hidden();
        }
        let bar = self.multi.add(bar);
        bar.set_style(
            ProgressStyle::with_template(template)
                .expect("valid template")
                .progress_chars("=> "),
        );
        bar.set_prefix(prefix);
        if let Some(ms) = tick_ms {
            bar.enable_steady_tick(Duration::from_millis(ms));
        }
        bar
    }
}
