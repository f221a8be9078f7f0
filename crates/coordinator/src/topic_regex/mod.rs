//! The regular expressions of consumer-protocol subscriptions (`SubscribedTopicRegex`, Kafka
//! 4.0): RE2/J's syntax, matched against whole topic names.
//!
//! Kafka compiles a member's pattern with RE2/J 1.7 (`com.google.re2j.Pattern`) when it first
//! sees it, refusing a bad one with INVALID_REGULAR_EXPRESSION, and resolves it against the
//! metadata image's topic names with `matcher(name).matches()`. The model parses RE2/J's syntax
//! itself (`parse`: the same rules, in the same order, with RE2/J's error descriptions) and
//! matches with a small Thompson NFA (`nfa`), so the core needs no regex crate and stays
//! `no_std`: a general engine would bring Unicode tables for an alphabet of 64 characters
//! (`charset`). `bench/re2j/check.sh` runs RE2/J itself beside this module.
//!
//! Bounds of the model's own, where RE2/J has none: groups nest at most 1,000 deep, and a
//! compiled pattern has at most 10,000 instructions ("expression too large").

mod charset;
mod nfa;
mod parse;

/// A compiled topic pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopicRegex {
    program: nfa::Program,
}

/// Why a pattern is not one: RE2/J's description (`PatternSyntaxException.getDescription()`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegexError {
    pub description: &'static str,
}

impl core::fmt::Display for RegexError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.description)
    }
}

impl TopicRegex {
    /// Compiles `pattern` as RE2/J's `Pattern.compile` would (or refuses it as RE2/J does).
    pub fn new(pattern: &str) -> Result<TopicRegex, RegexError> {
        let err = |description| RegexError { description };
        let node = parse::parse(pattern).map_err(err)?;
        let program = nfa::compile(&node).map_err(err)?;
        Ok(TopicRegex { program })
    }

    /// Whether the whole of `name` matches (RE2/J's `matcher(name).matches()`).
    pub fn matches(&self, name: &str) -> bool {
        self.program.matches(name)
    }
}
