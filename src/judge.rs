//! Shared pieces of the judge formats: a whitespace tokenizer that remembers line numbers,
//! and the error every parser reports.

use thiserror::Error;

/// Bad judge input: which case, which line, and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{what} {case} (line {line}): {problem}")]
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

/// One whitespace-separated token and the line it stands on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token<'a> {
    /// The token's text.
    pub text: &'a str,
    /// 1-based line number.
    pub line: usize,
}

/// Splits judge input into tokens, tracking line numbers.
#[derive(Debug, Clone)]
pub struct Tokens<'a> {
    rest: &'a str,
    line: usize,
}

impl<'a> Tokens<'a> {
    /// Tokens of `input`.
    pub fn new(input: &'a str) -> Self {
        Self {
            rest: input,
            line: 1,
        }
    }

    /// The line the next token (or end of input) is on.
    pub fn line(&self) -> usize {
        let skipped = self.rest.len() - self.rest.trim_start().len();
        self.line + self.rest[..skipped].matches('\n').count()
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        let trimmed = self.rest.trim_start();
        self.line += self.rest[..self.rest.len() - trimmed.len()]
            .matches('\n')
            .count();
        if trimmed.is_empty() {
            self.rest = trimmed;
            return None;
        }
        let end = trimmed.find(char::is_whitespace).unwrap_or(trimmed.len());
        let (text, rest) = trimmed.split_at(end);
        self.rest = rest;
        Some(Token {
            text,
            line: self.line,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_carry_their_line() {
        let tokens: Vec<_> = Tokens::new("1 2\n\n  W E\nR\n").collect();
        let lines: Vec<_> = tokens.iter().map(|t| (t.text, t.line)).collect();
        assert_eq!(lines, [("1", 1), ("2", 1), ("W", 3), ("E", 3), ("R", 4)]);
        let mut t = Tokens::new("a\n\n b");
        t.next();
        assert_eq!(t.line(), 3);
    }
}

/// Why answering a batch stopped.
#[derive(Debug, Error)]
pub enum JudgeError {
    /// The input is malformed; answers before the bad case were written.
    #[error(transparent)]
    Input(#[from] InputError),
    /// Writing the output failed.
    #[error("writing output: {0}")]
    Output(#[from] std::io::Error),
}

/// Writes answers in chunks: each case's text is appended to a buffer that is flushed to
/// `out` whenever it grows past a threshold, and always before an error is returned.
pub struct AnswerWriter<W: std::io::Write> {
    out: W,
    buffer: String,
}

impl<W: std::io::Write> AnswerWriter<W> {
    /// Flush threshold in bytes.
    const FLUSH_AT: usize = 1 << 16;

    /// A writer to `out`.
    pub fn new(out: W) -> Self {
        Self {
            out,
            buffer: String::with_capacity(Self::FLUSH_AT * 2),
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

    /// Writes out everything buffered.
    pub fn flush(&mut self) -> std::io::Result<()> {
        self.out.write_all(self.buffer.as_bytes())?;
        self.buffer.clear();
        self.out.flush()
    }
}

/// Turns a parser of one case (`Ok(None)` at the terminator) into an iterator over the
/// cases, numbered from 1, that ends after the terminator or the first error.
pub fn cases<'a, Q: 'a>(
    mut parse_case: impl FnMut(usize) -> Result<Option<Q>, InputError> + 'a,
) -> impl Iterator<Item = Result<Q, InputError>> + 'a {
    let mut case = 0usize;
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        case += 1;
        let item = parse_case(case).transpose();
        done = !matches!(item, Some(Ok(_)));
        item
    })
}

/// Answers every case as it is parsed, streaming the answers to `out`. On bad input the
/// answers before the bad case are written and the error is returned.
pub fn answer_each<Q>(
    cases: impl Iterator<Item = Result<Q, InputError>>,
    out: impl std::io::Write,
    mut answer: impl FnMut(&Q, &mut String),
) -> Result<usize, JudgeError> {
    let mut writer = AnswerWriter::new(out);
    let mut answered = 0;
    for case in cases {
        let case = match case {
            Ok(case) => case,
            Err(e) => {
                writer.flush()?;
                return Err(e.into());
            }
        };
        answer(&case, writer.buffer());
        writer.done()?;
        answered += 1;
    }
    writer.flush()?;
    Ok(answered)
}
