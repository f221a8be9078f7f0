//! The model's side of `bench/re2j/check.sh` (RE2/J 1.7 beside `topic_regex`).
//!
//!   topic_regex_cases generate <count> <seed>   random patterns, one per line
//!   topic_regex_cases match <name>...           for each pattern of stdin: `ERR <RE2/J's
//!                                               description>`, or `OK` and the indexes of the
//!                                               names it matches whole

use group_coordinator::topic_regex::TopicRegex;
use std::io::{BufRead, Write};

/// Pieces of patterns: literals of a topic name's alphabet (and the letters case folding ties to
/// non-ASCII ones), the syntax's operators, and whole constructs valid and broken.
const PIECES: &[&str] = &[
    "a",
    "b",
    "s",
    "k",
    "S",
    "K",
    "o",
    "r",
    "d",
    "0",
    "9",
    "_",
    "-",
    ".",
    "x",
    "(",
    ")",
    "|",
    "*",
    "+",
    "?",
    "{",
    "}",
    ",",
    "[",
    "]",
    "^",
    "$",
    "\\",
    ":",
    "<",
    ">",
    "P",
    "i",
    "m",
    "U",
    "1",
    "2",
    "3",
    "(?i)",
    "(?-i)",
    "(?i:",
    "(?s)",
    "(?m)",
    "(?U)",
    "(?:",
    "(?P<n>",
    "(?P<m>",
    "(?<n>",
    "(?=",
    "[[:alpha:]]",
    "[[:^digit:]]",
    "[:word:]",
    "\\p{Latin}",
    "\\p{Lu}",
    "\\p{Greek}",
    "\\pL",
    "\\PN",
    "\\p{^Ll}",
    "\\d",
    "\\D",
    "\\w",
    "\\W",
    "\\s",
    "\\b",
    "\\B",
    "\\A",
    "\\z",
    "\\Q",
    "\\E",
    "\\x{17F}",
    "\\x{212A}",
    "\\x41",
    "\\x6",
    "\\101",
    "\\8",
    "\\.",
    "\\-",
    "\\_",
    "{2}",
    "{1,3}",
    "{,2}",
    "{0}",
    "{2,}",
    "{3,1}",
    "{1001}",
    "[^",
    "a-z",
    "z-a",
    "-]",
    "ord",
    "ers",
    ".*",
    ".+",
    "\\pZ",
    "\\C",
    "\\Z",
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("generate") => {
            let count: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
            let mut state: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1) | 1;
            let mut next = move || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state
            };
            let mut out = std::io::BufWriter::new(std::io::stdout());
            for _ in 0..count {
                let len = 1 + (next() % 8) as usize;
                let pattern: String = (0..len)
                    .map(|_| PIECES[(next() % PIECES.len() as u64) as usize])
                    .collect();
                let _ = writeln!(out, "{pattern}");
            }
        }
        Some("match") => {
            let names = &args[1..];
            let mut out = std::io::BufWriter::new(std::io::stdout());
            for line in std::io::stdin().lock().lines() {
                let Ok(pattern) = line else { break };
                let result = match TopicRegex::new(&pattern) {
                    Err(e) => format!("ERR {}", e.description),
                    Ok(re) => {
                        let mut s = String::from("OK");
                        for (i, name) in names.iter().enumerate() {
                            if re.matches(name) {
                                s.push_str(&format!(" {i}"));
                            }
                        }
                        s
                    }
                };
                let _ = writeln!(out, "{result}");
            }
        }
        _ => eprintln!("usage: topic_regex_cases generate <count> <seed> | match <name>..."),
    }
}
