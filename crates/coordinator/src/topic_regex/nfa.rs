//! The matcher: a Thompson NFA run as a set of states over the name, byte by byte (the way RE2
//! guarantees linear time), asking only whether the whole name matches (RE2/J's
//! `Matcher.matches()`).

use super::charset::CharSet;
use super::parse::{Look, Node, desc};
use alloc::vec::Vec;

/// The most instructions a compiled pattern may have: the model's bound on a resolution's
/// work (every name costs at most its length times this). Real patterns need tens.
pub(super) const MAX_INSTRUCTIONS: usize = 10_000;

#[derive(Clone, Debug, PartialEq, Eq)]
enum Inst {
    /// Consume a byte of the set, then go on.
    Byte(CharSet, usize),
    /// Go on to both.
    Split(usize, usize),
    Jump(usize),
    Assert(Look, usize),
    Match,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Program {
    insts: Vec<Inst>,
    start: usize,
}

/// A fragment under construction: its entry and the holes (instructions whose next is to be
/// patched) to join to what follows.
struct Fragment {
    entry: usize,
    holes: Vec<usize>,
}

struct Compiler {
    insts: Vec<Inst>,
}

const HOLE: usize = usize::MAX;

impl Compiler {
    fn emit(&mut self, inst: Inst) -> Result<usize, &'static str> {
        if self.insts.len() >= MAX_INSTRUCTIONS {
            return Err(desc::TOO_LARGE);
        }
        self.insts.push(inst);
        Ok(self.insts.len() - 1)
    }

    fn patch(&mut self, holes: &[usize], to: usize) {
        for &h in holes {
            match &mut self.insts[h] {
                Inst::Byte(_, next) | Inst::Jump(next) | Inst::Assert(_, next) => *next = to,
                Inst::Split(a, b) => {
                    if *a == HOLE {
                        *a = to;
                    } else {
                        *b = to;
                    }
                }
                Inst::Match => {}
            }
        }
    }

    /// An empty fragment: a jump to what follows.
    fn nothing(&mut self) -> Result<Fragment, &'static str> {
        let j = self.emit(Inst::Jump(HOLE))?;
        Ok(Fragment {
            entry: j,
            holes: alloc::vec![j],
        })
    }

    fn seq(&mut self, a: Fragment, b: Fragment) -> Fragment {
        self.patch(&a.holes, b.entry);
        Fragment {
            entry: a.entry,
            holes: b.holes,
        }
    }

    /// Node depth is bounded by the parser's group nesting (`parse::MAX_NESTING`).
    fn compile(&mut self, node: &Node) -> Result<Fragment, &'static str> {
        match node {
            Node::Empty => self.nothing(),
            Node::Set(set) => {
                let i = self.emit(Inst::Byte(*set, HOLE))?;
                Ok(Fragment {
                    entry: i,
                    holes: alloc::vec![i],
                })
            }
            Node::Look(look) => {
                let i = self.emit(Inst::Assert(*look, HOLE))?;
                Ok(Fragment {
                    entry: i,
                    holes: alloc::vec![i],
                })
            }
            Node::Concat(items) => {
                let mut out: Option<Fragment> = None;
                for item in items {
                    let f = self.compile(item)?;
                    out = Some(match out {
                        None => f,
                        Some(prev) => self.seq(prev, f),
                    });
                }
                match out {
                    Some(f) => Ok(f),
                    None => self.nothing(),
                }
            }
            Node::Alternate(alternatives) => {
                // A chain of splits: each takes one alternative or goes on to the next split.
                let mut holes = Vec::new();
                let mut entry = None;
                let mut pending_split: Option<usize> = None;
                for (k, alt) in alternatives.iter().enumerate() {
                    let last = k + 1 == alternatives.len();
                    let split = if last {
                        None
                    } else {
                        Some(self.emit(Inst::Split(HOLE, HOLE))?)
                    };
                    let f = self.compile(alt)?;
                    let here = split.unwrap_or(f.entry);
                    if let Some(s) = pending_split {
                        self.patch(&[s], here);
                    }
                    entry.get_or_insert(here);
                    if let Some(s) = split {
                        self.patch(&[s], f.entry);
                    }
                    holes.extend(f.holes);
                    pending_split = split;
                }
                match entry {
                    Some(entry) => Ok(Fragment { entry, holes }),
                    None => self.nothing(),
                }
            }
            Node::Repeat { sub, min, max } => self.repeat(sub, *min, *max),
        }
    }

    fn repeat(&mut self, sub: &Node, min: u32, max: Option<u32>) -> Result<Fragment, &'static str> {
        // `min` copies, then either a loop (no max) or `max - min` optional copies.
        let mut out: Option<Fragment> = None;
        for _ in 0..min {
            let f = self.compile(sub)?;
            out = Some(match out {
                None => f,
                Some(prev) => self.seq(prev, f),
            });
        }
        let tail = match max {
            None => {
                // split(sub → back to split, on)
                let split = self.emit(Inst::Split(HOLE, HOLE))?;
                let f = self.compile(sub)?;
                self.patch(&[split], f.entry);
                self.patch(&f.holes, split);
                Some(Fragment {
                    entry: split,
                    holes: alloc::vec![split],
                })
            }
            Some(max) if max > min => {
                // Nested optionals, (sub (sub (sub)?)?)?: each copy's skip goes past all of
                // them; its consuming path goes on to the next copy.
                let mut entry = None;
                let mut skips = Vec::new();
                let mut consumed: Vec<usize> = Vec::new();
                for _ in min..max {
                    let split = self.emit(Inst::Split(HOLE, HOLE))?;
                    let f = self.compile(sub)?;
                    self.patch(&[split], f.entry);
                    match entry {
                        None => entry = Some(split),
                        Some(_) => self.patch(&consumed, split),
                    }
                    skips.push(split);
                    consumed = f.holes;
                }
                entry.map(|entry| {
                    skips.extend(consumed);
                    Fragment {
                        entry,
                        holes: skips,
                    }
                })
            }
            Some(_) => None,
        };
        Ok(match (out, tail) {
            (Some(a), Some(b)) => self.seq(a, b),
            (Some(a), None) => a,
            (None, Some(b)) => b,
            (None, None) => self.nothing()?,
        })
    }
}

pub(super) fn compile(node: &Node) -> Result<Program, &'static str> {
    let mut c = Compiler { insts: Vec::new() };
    let f = c.compile(node)?;
    let m = c.emit(Inst::Match)?;
    c.patch(&f.holes, m);
    Ok(Program {
        insts: c.insts,
        start: f.entry,
    })
}

fn is_word(b: Option<u8>) -> bool {
    b.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
}

impl Program {
    /// Whether all of `text` matches. Text with a non-ASCII byte matches nothing (no topic name
    /// has one).
    pub(super) fn matches(&self, text: &str) -> bool {
        let bytes = text.as_bytes();
        if !bytes.is_ascii() {
            return false;
        }
        let n = self.insts.len();
        let mut current: Vec<usize> = Vec::with_capacity(n);
        let mut next: Vec<usize> = Vec::with_capacity(n);
        let mut seen = alloc::vec![usize::MAX; n];
        let mut stack: Vec<usize> = Vec::new();
        self.add(self.start, bytes, 0, &mut current, &mut seen, &mut stack);
        for pos in 0..bytes.len() {
            if current.is_empty() {
                return false;
            }
            next.clear();
            for &pc in &current {
                if let Inst::Byte(set, to) = &self.insts[pc]
                    && set.contains_byte(bytes[pos])
                {
                    self.add(*to, bytes, pos + 1, &mut next, &mut seen, &mut stack);
                }
            }
            core::mem::swap(&mut current, &mut next);
        }
        current
            .iter()
            .any(|&pc| matches!(self.insts[pc], Inst::Match))
    }

    /// Adds `pc` and what it reaches without consuming, at `pos`, to `list` (once per
    /// position: `seen` holds the position each instruction was last added at).
    fn add(
        &self,
        pc: usize,
        bytes: &[u8],
        pos: usize,
        list: &mut Vec<usize>,
        seen: &mut [usize],
        stack: &mut Vec<usize>,
    ) {
        stack.push(pc);
        while let Some(pc) = stack.pop() {
            if seen[pc] == pos {
                continue;
            }
            seen[pc] = pos;
            match &self.insts[pc] {
                Inst::Jump(to) => stack.push(*to),
                Inst::Split(a, b) => {
                    stack.push(*b);
                    stack.push(*a);
                }
                Inst::Assert(look, to) => {
                    let before = pos.checked_sub(1).map(|i| bytes[i]);
                    let after = bytes.get(pos).copied();
                    let holds = match look {
                        Look::Start => pos == 0,
                        Look::End => pos == bytes.len(),
                        Look::StartLine => before.is_none_or(|b| b == b'\n'),
                        Look::EndLine => after.is_none_or(|b| b == b'\n'),
                        Look::WordBoundary => is_word(before) != is_word(after),
                        Look::NotWordBoundary => is_word(before) == is_word(after),
                    };
                    if holds {
                        stack.push(*to);
                    }
                }
                Inst::Byte(..) | Inst::Match => list.push(pc),
            }
        }
    }
}
