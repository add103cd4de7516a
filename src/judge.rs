//! Shared pieces of the judge formats: lazy input with line numbers, the error every
//! parser reports, and the loop that answers case after case as input arrives.

use thiserror::Error;

/// Bad judge input: which case, which line, and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{what} {case}{}: {problem}", if *line > 0 { format!(" (line {line})") } else { String::new() })]
pub struct InputError {
    /// How the puzzle's format calls one case ("data set", "case", ...).
    pub what: &'static str,
    /// 1-based number of the case.
    pub case: usize,
    /// 1-based input line where the problem was found.
    pub line: usize,
    /// What is wrong.
    pub problem: String,
}

/// The longest input line cubedb reads, in bytes (without its line break). No judge format
/// comes near it; a longer line is refused with its number instead of being held in memory.
pub const MAX_LINE: usize = 1 << 20;

/// Judge input read lazily from any buffered reader: whole lines or whitespace-separated
/// tokens, each with its 1-based line number. Nothing is read before it is asked for, so
/// answers can be written while the input is still arriving, in constant memory: a line
/// longer than [`MAX_LINE`] is an error, never a buffer that grows with it.
pub struct JudgeInput<R> {
    reader: R,
    /// The current line (without its line break).
    line: String,
    /// Bytes of the line being read, before they are checked to be UTF-8 (the buffer
    /// then becomes `line`).
    raw: Vec<u8>,
    /// Bytes of `line` already consumed by tokens.
    consumed: usize,
    /// Number of the current line; 0 before the first.
    line_no: usize,
    /// Whether `line` holds an unconsumed line.
    loaded: bool,
}

/// The error for line `number` being longer than [`MAX_LINE`].
fn too_long(number: usize) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        format!("line {number} is longer than {MAX_LINE} bytes, the most cubedb reads"),
    )
}

impl<R: std::io::BufRead> JudgeInput<R> {
    /// Input from `reader`.
    pub fn new(reader: R) -> Self {
        Self {
            reader,
            line: String::new(),
            raw: Vec::new(),
            consumed: 0,
            line_no: 0,
            loaded: false,
        }
    }

    /// Loads the next line; false at end of input. Errors (of kind `InvalidData` for text
    /// that is not UTF-8 or a line that is too long) name the line.
    fn load(&mut self) -> std::io::Result<bool> {
        use std::io::{Error, ErrorKind};
        // The line's buffer is reused for the raw bytes: no copy once they are checked.
        self.raw = std::mem::take(&mut self.line).into_bytes();
        self.raw.clear();
        self.consumed = 0;
        self.loaded = false;
        let number = self.line_no + 1;
        loop {
            let available = match self.reader.fill_buf() {
                Ok(bytes) => bytes,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                break;
            }
            let (take, ends_line) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (available.len(), false),
            };
            // Room for the line break itself ("\r\n") beyond the limit while reading; the
            // exact length is checked once the line is whole.
            if self.raw.len() + take > MAX_LINE + 2 {
                return Err(too_long(number));
            }
            self.raw.extend_from_slice(&available[..take]);
            self.reader.consume(take);
            if ends_line {
                break;
            }
        }
        if self.raw.is_empty() {
            return Ok(false);
        }
        let mut line = String::from_utf8(std::mem::take(&mut self.raw)).map_err(|_| {
            Error::new(
                ErrorKind::InvalidData,
                format!("line {number} is not valid UTF-8 text"),
            )
        })?;
        let kept = line.trim_end_matches(['\n', '\r']).len();
        if kept > MAX_LINE {
            return Err(too_long(number));
        }
        line.truncate(kept);
        self.line = line;
        self.line_no = number;
        self.loaded = true;
        Ok(true)
    }

    /// The rest of the current line if tokens were taken from it, else the next line;
    /// `None` at end of input.
    pub fn next_line(&mut self) -> std::io::Result<Option<(usize, &str)>> {
        if !self.loaded && !self.load()? {
            return Ok(None);
        }
        self.loaded = false;
        Ok(Some((self.line_no, &self.line[self.consumed..])))
    }

    /// The next whitespace-separated token and its line; `None` at end of input.
    pub fn next_token(&mut self) -> std::io::Result<Option<(usize, &str)>> {
        loop {
            if self.loaded {
                let rest = &self.line[self.consumed..];
                let start = rest.len() - rest.trim_start().len();
                if start < rest.len() {
                    let token_len = rest[start..]
                        .find(char::is_whitespace)
                        .unwrap_or(rest.len() - start);
                    let begin = self.consumed + start;
                    self.consumed = begin + token_len;
                    return Ok(Some((self.line_no, &self.line[begin..begin + token_len])));
                }
                self.loaded = false;
            }
            if !self.load()? {
                return Ok(None);
            }
        }
    }

    /// Number of the last line read (0 before any): where an unexpected end is reported.
    pub fn line_no(&self) -> usize {
        self.line_no.max(1)
    }
}

impl<T: std::io::Read> JudgeInput<std::io::BufReader<T>> {
    /// Whether at least `needed` more tokens can be read without going to the source:
    /// tokens of the current line and of whole lines already buffered (a line is only
    /// handed out once its end has arrived). A batching judge keeps adding cases only
    /// while the next one is complete, so no answer waits for a case still arriving.
    pub fn has_buffered_tokens(&self, needed: usize) -> bool {
        let mut found = 0;
        if self.loaded {
            found += self.line[self.consumed..]
                .split_whitespace()
                .take(needed)
                .count();
        }
        let buffer = self.reader.buffer();
        if found < needed {
            if let Some(end) = buffer.iter().rposition(|&b| b == b'\n') {
                // ASCII whitespace only: it can only merge tokens the parser splits at
                // other spaces, so the count never exceeds what the parser will see.
                found += buffer[..end]
                    .split(|b| b.is_ascii_whitespace())
                    .filter(|token| !token.is_empty())
                    .take(needed - found)
                    .count();
            }
        }
        found >= needed
    }
}

/// Judge input whose source is only read after the answers so far are flushed: however a
/// case is split across reads, no answer waits on input that has not arrived (as a
/// terminal's input is tied to its output).
pub type TiedInput<R, W> = JudgeInput<std::io::BufReader<FlushBeforeRead<R, W>>>;

/// Input `source` tied to `answers` (see [`TiedInput`]).
pub fn tied_input<R: std::io::Read, W: std::io::Write>(
    source: R,
    answers: &std::rc::Rc<std::cell::RefCell<AnswerWriter<W>>>,
) -> TiedInput<R, W> {
    JudgeInput::new(std::io::BufReader::with_capacity(
        1 << 16,
        FlushBeforeRead {
            source,
            answers: answers.clone(),
        },
    ))
}

/// A reader that flushes the answers buffered so far before each read of its source.
pub struct FlushBeforeRead<R, W: std::io::Write> {
    source: R,
    answers: std::rc::Rc<std::cell::RefCell<AnswerWriter<W>>>,
}

impl<R: std::io::Read, W: std::io::Write> std::io::Read for FlushBeforeRead<R, W> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        // A failed flush is kept by the writer (see `AnswerWriter::take_error`) and ends
        // the batch as an output error, not a read error.
        self.answers.borrow_mut().flush()?;
        self.source.read(buf)
    }
}

/// Why answering a batch stopped.
#[derive(Debug, Error)]
pub enum JudgeError {
    /// The input is malformed; answers before the bad case were written.
    #[error(transparent)]
    Input(#[from] InputError),
    /// A well-formed case that has no answer (e.g. a target walled off); answers before
    /// it were written.
    #[error("{0}")]
    Unanswerable(InputError),
    /// Reading the input failed (or it is not UTF-8 text).
    #[error("reading input: {0}")]
    Read(std::io::Error),
    /// Writing the output failed.
    #[error("writing output: {0}")]
    Output(std::io::Error),
}

/// Writes answers in chunks: each case's text is appended to a buffer that is flushed to
/// `out` whenever it grows past a threshold, and always before an error is returned.
pub struct AnswerWriter<W: std::io::Write> {
    out: W,
    buffer: String,
    /// The first write error, kept for whoever ends the batch.
    failed: Option<std::io::ErrorKind>,
}

impl<W: std::io::Write> AnswerWriter<W> {
    /// Flush threshold in bytes.
    const FLUSH_AT: usize = 1 << 16;

    /// A writer to `out`.
    pub fn new(out: W) -> Self {
        Self {
            out,
            buffer: String::with_capacity(Self::FLUSH_AT * 2),
            failed: None,
        }
    }

    /// The buffer to append one answer to; call [`AnswerWriter::done`] after each answer.
    pub fn buffer(&mut self) -> &mut String {
        &mut self.buffer
    }

    /// Flushes if the buffer is large.
    pub fn done(&mut self) -> std::io::Result<()> {
        if self.buffer.len() >= Self::FLUSH_AT {
            self.flush()?;
        }
        Ok(())
    }

    /// Writes out everything buffered. After a failure every later flush fails too, so
    /// no answer is written after a lost one.
    pub fn flush(&mut self) -> std::io::Result<()> {
        if let Some(kind) = self.failed {
            return Err(std::io::Error::new(kind, "an earlier write failed"));
        }
        let result = self
            .out
            .write_all(self.buffer.as_bytes())
            .and_then(|()| self.out.flush());
        self.buffer.clear();
        if let Err(e) = &result {
            self.failed = Some(e.kind());
        }
        result
    }

    /// Whether a write has failed.
    pub fn has_failed(&self) -> bool {
        self.failed.is_some()
    }
}

/// Ends a batch: flushes what is buffered and turns a read error caused by a failed
/// flush (see [`FlushBeforeRead`]) back into the output error it is.
pub fn finish_batch<W: std::io::Write>(
    writer: &std::cell::RefCell<AnswerWriter<W>>,
    result: Result<usize, JudgeError>,
) -> Result<usize, JudgeError> {
    let mut writer = writer.borrow_mut();
    let flushed = writer.flush();
    match (result, flushed) {
        (Err(JudgeError::Read(e)), _) if writer.has_failed() => Err(JudgeError::Output(e)),
        (Err(e), _) => Err(e),
        (Ok(_), Err(e)) => Err(JudgeError::Output(e)),
        (Ok(n), Ok(())) => Ok(n),
    }
}

/// Parses one case from the input: `Ok(None)` at the terminator (or a clean end of input
/// where the format has no terminator).
pub trait CaseParser<R, Q>:
    FnMut(&mut JudgeInput<R>, usize) -> Result<Option<Q>, JudgeError>
{
}
impl<R, Q, F: FnMut(&mut JudgeInput<R>, usize) -> Result<Option<Q>, JudgeError>> CaseParser<R, Q>
    for F
{
}

/// All cases of an input, numbered from 1, ending after the terminator or the first error
/// (for tests and benchmarks that want the queries themselves).
pub fn cases<R: std::io::BufRead, Q>(
    reader: R,
    mut parse_case: impl CaseParser<R, Q>,
) -> impl Iterator<Item = Result<Q, JudgeError>> {
    let mut input = JudgeInput::new(reader);
    let mut case = 0usize;
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        case += 1;
        let item = parse_case(&mut input, case).transpose();
        done = !matches!(item, Some(Ok(_)));
        item
    })
}

/// Answers every case as soon as it is parsed (`answer` appends the case's answer text, or
/// fails for a case with no answer), streaming the answers to `out`: output is flushed
/// before every read of the input that could wait (so interactive use sees each answer at
/// once) and in large chunks otherwise. On bad input the answers before the bad case are
/// written and the error is returned.
pub fn answer_each<R: std::io::Read, W: std::io::Write, Q>(
    reader: R,
    out: W,
    mut parse_case: impl CaseParser<std::io::BufReader<FlushBeforeRead<R, W>>, Q>,
    mut answer: impl FnMut(&Q, &mut String) -> Result<(), JudgeError>,
) -> Result<usize, JudgeError> {
    let writer = std::rc::Rc::new(std::cell::RefCell::new(AnswerWriter::new(out)));
    let mut input = tied_input(reader, &writer);
    let mut answered = 0;
    let result = loop {
        match parse_case(&mut input, answered + 1) {
            Ok(Some(case)) => {
                let mut writer = writer.borrow_mut();
                if let Err(e) = answer(&case, writer.buffer()) {
                    break Err(e);
                }
                if let Err(e) = writer.done() {
                    break Err(JudgeError::Output(e));
                }
                answered += 1;
            }
            Ok(None) => break Ok(answered),
            Err(e) => break Err(e),
        }
    };
    finish_batch(&writer, result)
}

/// The first input error among parsed cases, for parser tests.
#[cfg(test)]
pub(crate) fn first_input_error<Q>(
    mut cases: impl Iterator<Item = Result<Q, JudgeError>>,
) -> Option<InputError> {
    cases.find_map(|r| match r {
        Err(JudgeError::Input(e)) => Some(e),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_and_lines_carry_their_line_numbers() {
        let mut input = JudgeInput::new("1 2\n\n  W E\r\nR\n".as_bytes());
        let mut tokens = Vec::new();
        while let Some((line, text)) = input.next_token().unwrap() {
            tokens.push((text.to_string(), line));
        }
        let expected = [("1", 1), ("2", 1), ("W", 3), ("E", 3), ("R", 4)];
        assert_eq!(tokens, expected.map(|(t, l)| (t.to_string(), l)));
        let mut input = JudgeInput::new("a b\nc\n".as_bytes());
        assert_eq!(input.next_token().unwrap(), Some((1, "a")));
        assert_eq!(input.next_line().unwrap(), Some((1, " b")));
        assert_eq!(input.next_line().unwrap(), Some((2, "c")));
        assert_eq!(input.next_line().unwrap(), None);
        assert_eq!(input.line_no(), 2);
    }

    #[test]
    fn text_that_is_not_utf8_is_reported_with_its_line() {
        let mut input = JudgeInput::new(&b"ok\nbad \xff\n"[..]);
        assert_eq!(input.next_token().unwrap(), Some((1, "ok")));
        let err = input.next_token().unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
        assert!(err.to_string().contains("line 2"), "{err}");
    }

    /// Output shared with the test, so a source can look at it while being read.
    #[derive(Clone, Default)]
    struct Shared(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);

    impl std::io::Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.borrow_mut().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// A source delivering one chunk per read, recording the output seen at each read.
    struct Chunks {
        chunks: Vec<&'static [u8]>,
        output: Shared,
        seen: std::rc::Rc<std::cell::RefCell<Vec<String>>>,
    }

    impl std::io::Read for Chunks {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let out = String::from_utf8_lossy(&self.output.0.borrow()).into_owned();
            self.seen.borrow_mut().push(out);
            if self.chunks.is_empty() {
                return Ok(0);
            }
            let chunk = self.chunks.remove(0);
            buf[..chunk.len()].copy_from_slice(chunk);
            Ok(chunk.len())
        }
    }

    #[test]
    fn answers_are_written_before_the_source_is_read_again() {
        let output = Shared::default();
        let seen = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
        // The second case arrives in two pieces: its first half must not hold back the
        // first answer.
        let source = Chunks {
            chunks: vec![b"1\n2 ", b"3\n"],
            output: output.clone(),
            seen: seen.clone(),
        };
        let answered = answer_each(
            source,
            output.clone(),
            |input: &mut JudgeInput<_>, _| {
                let Some((_, line)) = input.next_line().map_err(JudgeError::Read)? else {
                    return Ok(None);
                };
                Ok(Some(line.split_whitespace().count()))
            },
            |count, buffer| {
                buffer.push_str(&format!("{count}\n"));
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(answered, 2);
        assert_eq!(*seen.borrow(), ["", "1\n", "1\n2\n"]);
    }

    #[test]
    fn overlong_lines_are_refused_with_their_number() {
        let text = format!("ok\n{}\n", "x".repeat(MAX_LINE + 1));
        let mut input = JudgeInput::new(text.as_bytes());
        assert!(input.next_line().unwrap().is_some());
        let Err(err) = input.next_line() else {
            panic!("a line of {} bytes was accepted", MAX_LINE + 1)
        };
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
        assert!(err.to_string().contains("line 2 is longer than"), "{err}");
        let fits = format!("{}\r\n", "x".repeat(MAX_LINE));
        let mut input = JudgeInput::new(fits.as_bytes());
        assert_eq!(
            input.next_line().unwrap().map(|(_, l)| l.len()),
            Some(MAX_LINE)
        );
    }
}
