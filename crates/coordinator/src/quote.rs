//! Values quoted in messages, at most [`QUOTE_MAX`] characters of each: a message names what is
//! wrong without echoing a caller's megabytes back at them (a group id of a million characters,
//! a broker's trace line, a serde error quoting a whole string). Every message the model's
//! bindings and its live follower show passes through [`clip_message`].

use alloc::format;
use alloc::string::String;

/// How much of an offending value a message quotes.
pub const QUOTE_MAX: usize = 100;

/// A value quoted in a message: at most [`QUOTE_MAX`] characters, the rest counted.
pub fn quote(value: &str) -> String {
    let mut chars = value.chars();
    let head: String = chars.by_ref().take(QUOTE_MAX).collect();
    let rest = chars.count();
    if rest == 0 {
        format!("\"{head}\"")
    } else {
        format!("\"{head}\"… ({rest} more characters)")
    }
}

/// Shortens every run of more than [`QUOTE_MAX`] characters between quotes or backticks (the
/// way the model's and serde's messages quote values), and the message itself to four times
/// that, so no message echoes a huge input.
pub fn clip_message(message: &str) -> String {
    const LIMIT: usize = 4 * QUOTE_MAX;
    let mut out = String::with_capacity(message.len().min(1024));
    let mut rest = message;
    while let Some(start) = rest.find(['"', '`']) {
        let q = &rest[start..start + 1];
        out.push_str(&rest[..=start]);
        rest = &rest[start + 1..];
        let end = rest.find(q).unwrap_or(rest.len());
        let quoted = &rest[..end];
        let n = quoted.chars().count();
        if n > QUOTE_MAX {
            out.extend(quoted.chars().take(QUOTE_MAX));
            out.push_str(&format!("… ({} more characters)", n - QUOTE_MAX));
        } else {
            out.push_str(quoted);
        }
        out.push_str(&rest[end..(end + 1).min(rest.len())]);
        rest = &rest[(end + 1).min(rest.len())..];
    }
    out.push_str(rest);
    // A message with no quotes at all can still be long (a long unquoted name).
    let n = out.chars().count();
    if n > LIMIT {
        let mut short: String = out.chars().take(LIMIT).collect();
        short.push_str(&format!("… ({} more characters)", n - LIMIT));
        return short;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn long_quotes_and_long_messages_are_cut_and_counted() {
        assert_eq!(quote("abc"), "\"abc\"");
        let long = "x".repeat(5_000);
        assert_eq!(
            quote(&long),
            format!("\"{}\"… (4900 more characters)", "x".repeat(100))
        );
        let m = clip_message(&format!("group \"{long}\" is unknown; `{long}` too"));
        assert!(m.starts_with(&format!(
            "group \"{}… (4900 more characters)\"",
            "x".repeat(100)
        )));
        assert!(m.ends_with("… (4900 more characters)` too"), "{m}");
        let bare = clip_message(&long);
        assert_eq!(
            bare.chars().count(),
            400 + "… (4600 more characters)".chars().count()
        );
        // Short messages, an unclosed quote and non-ASCII text stay whole.
        for m in ["plain", "a \"b\" c", "open \"quote", "成员 \"组\""] {
            assert_eq!(clip_message(m), m.to_string());
        }
    }
}
