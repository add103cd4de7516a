//! Showing user input inside messages: short, and with nothing invisible.
//!
//! An error message quotes the token it refuses. Quoted as is, a 100 MB token would make a
//! 100 MB message, and a token with a byte-order mark, a NUL or a non-breaking space would
//! print as something that looks valid (`` `1` is not 1, 2 or 3 ``). [`quote`] cuts long
//! text and escapes every character that is not visible ASCII.

use std::fmt;

/// Characters of input shown before a quote is cut.
pub const QUOTE_LIMIT: usize = 40;

/// `text` in backticks for a message: at most [`QUOTE_LIMIT`] characters (then `...` and
/// the full length), every character other than printable ASCII and the plain space
/// escaped as `\n`, `\t`, `\0` or `\u{XXXX}`.
pub fn quote(text: &str) -> Quoted<'_> {
    Quoted {
        text,
        backticks: true,
    }
}

/// [`quote`] without the backticks: for values that read as themselves in a sentence
/// (`count must be a whole number from 0 to 10000000, not -1`), cut and escaped the same
/// way.
pub fn shown(text: &str) -> Quoted<'_> {
    Quoted {
        text,
        backticks: false,
    }
}

/// Input text displayed by [`quote`] or [`shown`].
#[derive(Debug, Clone, Copy)]
pub struct Quoted<'a> {
    text: &'a str,
    backticks: bool,
}

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tick = if self.backticks { "`" } else { "" };
        f.write_str(tick)?;
        for (shown, c) in self.text.chars().enumerate() {
            if shown == QUOTE_LIMIT {
                let total = self.text.chars().count();
                return write!(f, "...{tick} ({total} characters)");
            }
            write_escaped(f, c)?;
        }
        f.write_str(tick)
    }
}

/// A command-line parse error with the values it quotes (an invalid value, an unknown
/// argument) shown as every message shows input: cut at [`QUOTE_LIMIT`] characters and
/// escaped. Clap quotes them whole: a 60,000-character value made a 60 KB message.
pub fn cut_quoted_values(mut err: clap::Error) -> clap::Error {
    use clap::builder::StyledStr;
    use clap::error::{ContextKind, ContextValue};
    let mut cuts = Vec::new();
    for kind in [ContextKind::InvalidValue, ContextKind::InvalidArg] {
        if let Some(ContextValue::String(value)) = err.get(kind) {
            let cut = shown(value).to_string();
            if cut != *value {
                cuts.push((value.clone(), cut.clone()));
            }
            err.insert(kind, ContextValue::String(cut));
        }
    }
    // The tips repeat the argument (`to pass '--x...' as a value, use '-- --x...'`).
    if let Some(ContextValue::StyledStrs(tips)) = err.get(ContextKind::Suggested) {
        let tips: Vec<StyledStr> = tips
            .iter()
            .map(|tip| {
                let text = cuts.iter().fold(tip.to_string(), |text, (whole, cut)| {
                    text.replace(whole, cut)
                });
                StyledStr::from(text)
            })
            .collect();
        err.insert(ContextKind::Suggested, ContextValue::StyledStrs(tips));
    }
    err
}

/// One character, escaped unless it is printable ASCII or a space.
fn write_escaped(f: &mut fmt::Formatter<'_>, c: char) -> fmt::Result {
    match c {
        ' ' | '!'..='~' => write!(f, "{c}"),
        '\n' => f.write_str("\\n"),
        '\r' => f.write_str("\\r"),
        '\t' => f.write_str("\\t"),
        '\0' => f.write_str("\\0"),
        _ => write!(f, "\\u{{{:04X}}}", c as u32),
    }
}

/// `bytes` as UTF-8 text, or the 1-based number of the first line that is not.
pub fn utf8_or_bad_line(bytes: &[u8]) -> Result<&str, usize> {
    std::str::from_utf8(bytes).map_err(|e| {
        1 + bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
    })
}

/// A count for a person to read: digits in groups of three up to a quadrillion
/// (`88,179,840`), then about three significant digits and a power of ten
/// (`6.20e23`), never a saturated machine number.
pub fn count(n: u128) -> String {
    if n < 1_000_000_000_000_000 {
        let digits = n.to_string();
        let mut out = String::with_capacity(digits.len() + digits.len() / 3);
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    } else {
        format!("{:.2e}", n as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invisible_characters_are_escaped() {
        assert_eq!(quote("\u{FEFF}1").to_string(), "`\\u{FEFF}1`");
        assert_eq!(quote("1\u{00A0}").to_string(), "`1\\u{00A0}`");
        assert_eq!(quote("a\0b\tc").to_string(), "`a\\0b\\tc`");
        assert_eq!(quote("R U2'").to_string(), "`R U2'`");
    }

    #[test]
    fn counts_read_as_people_write_them() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(1000), "1,000");
        assert_eq!(count(88_179_840), "88,179,840");
        assert_eq!(count(620_448_401_733_239_439_360_000), "6.20e23");
        assert_eq!(count(u128::MAX), "3.40e38");
    }

    #[test]
    fn bad_utf8_is_located_by_line() {
        assert_eq!(utf8_or_bad_line(b"a\nb\n"), Ok("a\nb\n"));
        assert_eq!(utf8_or_bad_line(b"a\nb\n\xffc"), Err(3));
        assert_eq!(utf8_or_bad_line(b"\xc3"), Err(1));
    }

    #[test]
    fn long_text_is_cut_with_its_length() {
        let long = "W".repeat(1000);
        let quoted = quote(&long).to_string();
        assert_eq!(quoted, format!("`{}...` (1000 characters)", "W".repeat(40)));
        let exact = "x".repeat(QUOTE_LIMIT);
        assert_eq!(quote(&exact).to_string(), format!("`{exact}`"));
        assert_eq!(
            shown(&long).to_string(),
            format!("{}... (1000 characters)", "W".repeat(40))
        );
        assert_eq!(shown("-1\u{200B}").to_string(), "-1\\u{200B}");
    }
}
