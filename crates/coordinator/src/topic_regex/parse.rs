//! RE2/J's syntax (the `Pattern.compile` of `com.google.re2j` 1.7, which Kafka 4.0 resolves
//! `SubscribedTopicRegex` with), parsed the way its parser does: one pass over the pattern with
//! a stack of open groups, the same checks in the same order, and the same error descriptions.
//! `bench/re2j/` runs RE2/J itself beside this parser on a corpus of patterns.
//!
//! What is built is only what deciding a match needs (no captures, no greediness): sets of
//! characters, assertions, concatenations, alternations and repetitions. The sets are projected
//! onto ASCII, the alphabet of Kafka's topic names (`charset`).

use super::charset::CharSet;
use alloc::boxed::Box;
use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;

/// RE2/J's `PatternSyntaxException.getDescription()` texts.
pub(super) mod desc {
    pub const INTERNAL_ERROR: &str = "regexp/syntax: internal error";
    pub const INVALID_CHAR_RANGE: &str = "invalid character class range";
    pub const INVALID_ESCAPE: &str = "invalid escape sequence";
    pub const INVALID_NAMED_CAPTURE: &str = "invalid named capture";
    pub const INVALID_PERL_OP: &str = "invalid or unsupported Perl syntax";
    pub const INVALID_REPEAT_OP: &str = "invalid nested repetition operator";
    pub const INVALID_REPEAT_SIZE: &str = "invalid repeat count";
    pub const MISSING_BRACKET: &str = "missing closing ]";
    pub const MISSING_PAREN: &str = "missing closing )";
    pub const MISSING_REPEAT_ARGUMENT: &str = "missing argument to repetition operator";
    pub const TRAILING_BACKSLASH: &str = "trailing backslash at end of expression";
    pub const DUPLICATE_NAME: &str = "duplicate capture group name";
    /// The model's own bounds (RE2/J has none; Go's regexp has these two with these texts).
    pub const NESTING_DEPTH: &str = "expression nests too deeply";
    pub const TOO_LARGE: &str = "expression too large";
}

/// The deepest group nesting the model parses (its matcher's compiler recurses on it).
pub(super) const MAX_NESTING: usize = 1000;

/// Zero-width assertions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Look {
    /// `^` (without `(?m)`) and `\A`.
    Start,
    /// `$` (without `(?m)`) and `\z`.
    End,
    /// `^` with `(?m)`: at the start or after `\n`.
    StartLine,
    /// `$` with `(?m)`: at the end or before `\n`.
    EndLine,
    /// `\b`: between an ASCII word character and a non-word one (or an end).
    WordBoundary,
    /// `\B`.
    NotWordBoundary,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Node {
    Empty,
    Set(CharSet),
    Look(Look),
    Concat(Vec<Node>),
    Alternate(Vec<Node>),
    /// `max` `None`: unbounded.
    Repeat {
        sub: Box<Node>,
        min: u32,
        max: Option<u32>,
    },
}

/// The flags `(?imsU)` set; `U` (ungreedy) changes nothing a match decision sees.
#[derive(Clone, Copy, Debug, Default)]
struct Flags {
    fold_case: bool,
    multi_line: bool,
    dot_nl: bool,
}

/// An open group: the alternatives closed so far, the concatenation being built, and the flags
/// to restore when it closes.
struct Frame {
    alternatives: Vec<Node>,
    current: Vec<Node>,
    restore: Flags,
}

impl Frame {
    fn new(restore: Flags) -> Frame {
        Frame {
            alternatives: Vec::new(),
            current: Vec::new(),
            restore,
        }
    }

    fn finish(mut self) -> Node {
        let last = concat(core::mem::take(&mut self.current));
        if self.alternatives.is_empty() {
            return last;
        }
        self.alternatives.push(last);
        Node::Alternate(self.alternatives)
    }
}

fn concat(mut items: Vec<Node>) -> Node {
    match items.len() {
        0 => Node::Empty,
        1 => items.pop().unwrap_or(Node::Empty),
        _ => Node::Concat(items),
    }
}

type Parsed<T> = Result<T, &'static str>;

/// Parses `pattern` as RE2/J does, or names what is wrong with RE2/J's description.
pub(super) fn parse(pattern: &str) -> Parsed<Node> {
    let t: Vec<char> = pattern.chars().collect();
    let mut p = Parser {
        t: &t,
        i: 0,
        flags: Flags::default(),
        stack: alloc::vec![Frame::new(Flags::default())],
        names: BTreeSet::new(),
    };
    p.run()?;
    if p.stack.len() > 1 {
        return Err(desc::MISSING_PAREN);
    }
    Ok(p.stack.pop().map_or(Node::Empty, Frame::finish))
}

struct Parser<'a> {
    t: &'a [char],
    i: usize,
    flags: Flags,
    stack: Vec<Frame>,
    names: BTreeSet<String>,
}

impl Parser<'_> {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.t.get(self.i + ahead).copied()
    }

    fn top(&mut self) -> &mut Frame {
        // The root frame is never popped (an unmatched `)` is refused first).
        let last = self.stack.len() - 1;
        &mut self.stack[last]
    }

    fn push(&mut self, node: Node) {
        self.top().current.push(node);
    }

    fn literal(&mut self, c: char) {
        let set = CharSet::of_char(c);
        let set = if self.flags.fold_case {
            set.case_folded()
        } else {
            set
        };
        self.push(Node::Set(set));
    }

    fn run(&mut self) -> Parsed<()> {
        // Whether the previous token was a repetition operator (RE2/J refuses `a**`).
        let mut last_repeat = false;
        while let Some(c) = self.peek(0) {
            let mut repeat = false;
            match c {
                '(' => {
                    if self.peek(1) == Some('?') {
                        self.perl_flags()?;
                    } else {
                        self.open_group(self.flags)?;
                        self.i += 1;
                    }
                }
                '|' => {
                    let frame = self.top();
                    let done = concat(core::mem::take(&mut frame.current));
                    frame.alternatives.push(done);
                    self.i += 1;
                }
                ')' => {
                    // RE2/J 1.7 answers an unmatched `)` with a stack underflow.
                    if self.stack.len() == 1 {
                        return Err(desc::INTERNAL_ERROR);
                    }
                    let Some(frame) = self.stack.pop() else {
                        return Err(desc::INTERNAL_ERROR);
                    };
                    self.flags = frame.restore;
                    let node = frame.finish();
                    self.push(node);
                    self.i += 1;
                }
                '^' => {
                    let look = if self.flags.multi_line {
                        Look::StartLine
                    } else {
                        Look::Start
                    };
                    self.push(Node::Look(look));
                    self.i += 1;
                }
                '$' => {
                    let look = if self.flags.multi_line {
                        Look::EndLine
                    } else {
                        Look::End
                    };
                    self.push(Node::Look(look));
                    self.i += 1;
                }
                '.' => {
                    let set = if self.flags.dot_nl {
                        CharSet::all()
                    } else {
                        CharSet::all().without('\n')
                    };
                    self.push(Node::Set(set));
                    self.i += 1;
                }
                '[' => {
                    let set = self.class()?;
                    self.push(Node::Set(set));
                }
                '*' | '+' | '?' => {
                    let (min, max) = match c {
                        '*' => (0, None),
                        '+' => (1, None),
                        _ => (0, Some(1)),
                    };
                    self.i += 1;
                    self.repeat(min, max, last_repeat)?;
                    repeat = true;
                }
                '{' => match self.counted_repeat() {
                    // A literal `{`, which RE2/J 1.7 still counts as a repetition operator for
                    // the next one (`{{2}` and `{*` are "invalid nested repetition operator").
                    None => {
                        self.literal('{');
                        self.i += 1;
                        repeat = true;
                    }
                    Some((min, max, after)) => {
                        if !(0..=1000).contains(&min) || max > 1000 || (max >= 0 && min > max) {
                            return Err(desc::INVALID_REPEAT_SIZE);
                        }
                        self.i = after;
                        let max = u32::try_from(max).ok();
                        self.repeat(u32::try_from(min).unwrap_or(0), max, last_repeat)?;
                        repeat = true;
                    }
                },
                '\\' => self.top_level_escape()?,
                _ => {
                    self.literal(c);
                    self.i += 1;
                }
            }
            last_repeat = repeat;
        }
        Ok(())
    }

    fn open_group(&mut self, restore: Flags) -> Parsed<()> {
        if self.stack.len() > MAX_NESTING {
            return Err(desc::NESTING_DEPTH);
        }
        self.stack.push(Frame::new(restore));
        Ok(())
    }

    /// After `(?`: a named group `(?P<name>`, or flags `(?i)`, `(?i-s:`.
    fn perl_flags(&mut self) -> Parsed<()> {
        let rest = &self.t[self.i..];
        if rest.len() >= 4 && rest[2] == 'P' && rest[3] == '<' {
            let Some(end) = rest.iter().position(|&c| c == '>') else {
                return Err(desc::INVALID_NAMED_CAPTURE);
            };
            let name: String = rest[4..end].iter().collect();
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(desc::INVALID_NAMED_CAPTURE);
            }
            if !self.names.insert(name) {
                return Err(desc::DUPLICATE_NAME);
            }
            self.open_group(self.flags)?;
            self.i += end + 1;
            return Ok(());
        }
        let mut flags = self.flags;
        let mut negated = false;
        let mut saw_flag = false;
        let mut j = 2;
        while let Some(&c) = rest.get(j) {
            j += 1;
            match c {
                'i' => {
                    flags.fold_case = !negated;
                    saw_flag = true;
                }
                'm' => {
                    flags.multi_line = !negated;
                    saw_flag = true;
                }
                's' => {
                    flags.dot_nl = !negated;
                    saw_flag = true;
                }
                'U' => saw_flag = true,
                '-' => {
                    if negated {
                        break;
                    }
                    negated = true;
                    saw_flag = false;
                }
                ':' | ')' => {
                    if negated && !saw_flag {
                        break;
                    }
                    if c == ':' {
                        self.open_group(self.flags)?;
                    }
                    self.flags = flags;
                    self.i += j;
                    return Ok(());
                }
                _ => break,
            }
        }
        Err(desc::INVALID_PERL_OP)
    }

    /// Applies `*`, `+`, `?` or `{n,m}` (already consumed) to the last item.
    fn repeat(&mut self, min: u32, max: Option<u32>, last_repeat: bool) -> Parsed<()> {
        // A lazy marker belongs to the operator.
        if self.peek(0) == Some('?') {
            self.i += 1;
        }
        if last_repeat {
            return Err(desc::INVALID_REPEAT_OP);
        }
        let Some(sub) = self.top().current.pop() else {
            return Err(desc::MISSING_REPEAT_ARGUMENT);
        };
        self.push(Node::Repeat {
            sub: Box::new(sub),
            min,
            max,
        });
        Ok(())
    }

    /// `{n}`, `{n,}` or `{n,m}` at the cursor: (min, max or −1 for none, index after). `None`:
    /// not a repetition, and `{` is a literal. A number too large is −1 (refused as a count).
    fn counted_repeat(&self) -> Option<(i64, i64, usize)> {
        let mut j = self.i + 1;
        let min = number(self.t, &mut j)?;
        let max = match self.t.get(j) {
            Some(',') => {
                j += 1;
                if self.t.get(j) == Some(&'}') {
                    -1
                } else {
                    number(self.t, &mut j)?
                }
            }
            _ => min,
        };
        (self.t.get(j) == Some(&'}')).then_some((min, max, j + 1))
    }

    fn top_level_escape(&mut self) -> Parsed<()> {
        match self.peek(1) {
            Some('A') => {
                self.push(Node::Look(Look::Start));
                self.i += 2;
                return Ok(());
            }
            Some('z') => {
                self.push(Node::Look(Look::End));
                self.i += 2;
                return Ok(());
            }
            Some('b') => {
                self.push(Node::Look(Look::WordBoundary));
                self.i += 2;
                return Ok(());
            }
            Some('B') => {
                self.push(Node::Look(Look::NotWordBoundary));
                self.i += 2;
                return Ok(());
            }
            Some('C') => return Err(desc::INVALID_ESCAPE),
            Some('Q') => {
                // Literal up to `\E` or the end.
                self.i += 2;
                while let Some(c) = self.peek(0) {
                    if c == '\\' && self.peek(1) == Some('E') {
                        self.i += 2;
                        break;
                    }
                    self.literal(c);
                    self.i += 1;
                }
                return Ok(());
            }
            _ => {}
        }
        if let Some(set) = self.unicode_class()? {
            self.push(Node::Set(set));
            return Ok(());
        }
        if let Some(set) = self.perl_class() {
            self.push(Node::Set(set));
            return Ok(());
        }
        let c = self.escape()?;
        self.literal(c);
        Ok(())
    }

    /// `\d \D \s \S \w \W` at the cursor (ASCII classes, as RE2's).
    fn perl_class(&mut self) -> Option<CharSet> {
        if self.peek(0) != Some('\\') {
            return None;
        }
        let set = match self.peek(1)? {
            'd' | 'D' => CharSet::ranges(&[('0', '9')]),
            's' | 'S' => CharSet::chars("\t\n\x0c\r "),
            'w' | 'W' => CharSet::ranges(&[('0', '9'), ('A', 'Z'), ('a', 'z'), ('_', '_')]),
            _ => return None,
        };
        let negated = self.peek(1).is_some_and(|c| c.is_ascii_uppercase());
        self.i += 2;
        Some(self.fold_negate(set, negated))
    }

    /// `\pN`, `\p{Name}`, `\p{^Name}`, `\PN` at the cursor.
    fn unicode_class(&mut self) -> Parsed<Option<CharSet>> {
        if self.peek(0) != Some('\\') || !matches!(self.peek(1), Some('p' | 'P')) {
            return Ok(None);
        }
        let mut negated = self.peek(1) == Some('P');
        let (name, after): (String, usize) = match self.peek(2) {
            None => return Err(desc::INVALID_CHAR_RANGE),
            Some('{') => {
                let rest = &self.t[self.i + 3..];
                let Some(end) = rest.iter().position(|&c| c == '}') else {
                    return Err(desc::INVALID_CHAR_RANGE);
                };
                (rest[..end].iter().collect(), self.i + 3 + end + 1)
            }
            Some(c) => (String::from(c), self.i + 3),
        };
        let name = match name.strip_prefix('^') {
            Some(n) => {
                negated = !negated;
                n
            }
            None => &name,
        };
        let Some(set) = super::charset::unicode_class(name, self.flags.fold_case) else {
            return Err(desc::INVALID_CHAR_RANGE);
        };
        self.i = after;
        Ok(Some(if negated { set.negated() } else { set }))
    }

    fn fold_negate(&self, set: CharSet, negated: bool) -> CharSet {
        let set = if self.flags.fold_case {
            set.case_folded()
        } else {
            set
        };
        if negated { set.negated() } else { set }
    }

    /// A single-character escape at the cursor (`\n`, `\x41`, `\x{10FFFF}`, `\101`, `\.`).
    fn escape(&mut self) -> Parsed<char> {
        let Some(c) = self.peek(1) else {
            return Err(desc::TRAILING_BACKSLASH);
        };
        self.i += 2;
        let octal = |c: Option<char>| c.filter(|c| ('0'..='7').contains(c));
        match c {
            '1'..='7' if octal(self.peek(0)).is_none() => Err(desc::INVALID_ESCAPE),
            '0'..='7' => {
                let mut r = u32::from(c) - u32::from('0');
                for _ in 1..3 {
                    let Some(d) = octal(self.peek(0)) else { break };
                    r = r * 8 + (u32::from(d) - u32::from('0'));
                    self.i += 1;
                }
                Ok(char::from_u32(r).unwrap_or('\0'))
            }
            'x' => self.hex_escape(),
            'a' => Ok('\x07'),
            'f' => Ok('\x0c'),
            'n' => Ok('\n'),
            'r' => Ok('\r'),
            't' => Ok('\t'),
            'v' => Ok('\x0b'),
            c if c.is_ascii() && !c.is_ascii_alphanumeric() => Ok(c),
            _ => Err(desc::INVALID_ESCAPE),
        }
    }

    /// After `\x`: two hex digits, or any number (at least one) in braces.
    fn hex_escape(&mut self) -> Parsed<char> {
        let hex = |c: Option<char>| c.and_then(|c| c.to_digit(16));
        if self.peek(0) == Some('{') {
            self.i += 1;
            let mut r: u32 = 0;
            let mut digits = 0;
            loop {
                match self.peek(0) {
                    None => return Err(desc::INVALID_ESCAPE),
                    Some('}') => {
                        self.i += 1;
                        break;
                    }
                    c => {
                        let v = hex(c).ok_or(desc::INVALID_ESCAPE)?;
                        r = r * 16 + v;
                        if r > 0x10_FFFF {
                            return Err(desc::INVALID_ESCAPE);
                        }
                        digits += 1;
                        self.i += 1;
                    }
                }
            }
            if digits == 0 {
                return Err(desc::INVALID_ESCAPE);
            }
            // A surrogate cannot be in a Rust string; it matches nothing here either way.
            return Ok(char::from_u32(r).unwrap_or('\u{FFFD}'));
        }
        let (Some(x), Some(y)) = (hex(self.peek(0)), hex(self.peek(1))) else {
            return Err(desc::INVALID_ESCAPE);
        };
        self.i += 2;
        Ok(char::from_u32(x * 16 + y).unwrap_or('\0'))
    }

    /// A bracketed class at the cursor (`[a-z]`, `[^\d_]`, `[[:alpha:]]`, `[\p{Greek}]`).
    fn class(&mut self) -> Parsed<CharSet> {
        self.i += 1;
        let mut negated = false;
        if self.peek(0) == Some('^') {
            negated = true;
            self.i += 1;
        }
        let mut set = CharSet::empty();
        let mut first = true;
        while self.peek(0) != Some(']') || first {
            first = false;
            // `[:alpha:]`, `[:^alpha:]`: only when `:]` follows somewhere.
            if self.peek(0) == Some('[') && self.peek(1) == Some(':') {
                let rest = &self.t[self.i + 2..];
                if let Some(end) = rest.windows(2).position(|w| w == [':', ']']) {
                    let name: String = rest[..end].iter().collect();
                    let (name, neg) = match name.strip_prefix('^') {
                        Some(n) => (n, true),
                        None => (name.as_str(), false),
                    };
                    let named =
                        super::charset::posix_class(name).ok_or(desc::INVALID_CHAR_RANGE)?;
                    self.i += 2 + end + 2;
                    set = set.union(self.fold_negate(named, neg));
                    continue;
                }
            }
            if let Some(named) = self.unicode_class()? {
                set = set.union(named);
                continue;
            }
            if let Some(named) = self.perl_class() {
                set = set.union(named);
                continue;
            }
            let lo = self.class_char()?;
            let mut hi = lo;
            if self.peek(0) == Some('-') && self.peek(1).is_some_and(|c| c != ']') {
                self.i += 1;
                hi = self.class_char()?;
                if hi < lo {
                    return Err(desc::INVALID_CHAR_RANGE);
                }
            }
            let range = CharSet::range(lo, hi);
            set = set.union(if self.flags.fold_case {
                range.case_folded()
            } else {
                range
            });
        }
        self.i += 1;
        Ok(if negated { set.negated() } else { set })
    }

    fn class_char(&mut self) -> Parsed<char> {
        match self.peek(0) {
            None => Err(desc::MISSING_BRACKET),
            Some('\\') => self.escape(),
            Some(c) => {
                self.i += 1;
                Ok(c)
            }
        }
    }
}

/// Decimal digits at `*j` (no leading zero unless alone), advancing past them; a value past
/// 10⁸ is −1. `None`: no digits, or a leading zero.
fn number(t: &[char], j: &mut usize) -> Option<i64> {
    let start = *j;
    while t.get(*j).is_some_and(char::is_ascii_digit) {
        *j += 1;
    }
    let digits = &t[start..*j];
    if digits.is_empty() || (digits.len() >= 2 && digits[0] == '0') {
        return None;
    }
    let mut n: i64 = 0;
    for d in digits {
        if n >= 100_000_000 {
            return Some(-1);
        }
        n = n * 10 + i64::from(d.to_digit(10).unwrap_or(0));
    }
    Some(n)
}
