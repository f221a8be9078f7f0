//! One topic's partitions in a member's assignment: a sorted list without duplicates.
//!
//! Kafka keeps them in a `Set<Integer>`; they were a `BTreeSet<i32>` here. A group of 1,000
//! members on 10,000 partitions walks every member's partitions at each new target (the
//! assignor reads the previous one, the coordinator compares the new one with it, each member
//! reconciles towards it), and a tree costs some 30 instructions per element walked where a
//! slice costs one or two (measured: the consumer protocol's 1,000-member benchmark spent a
//! seventh of its instructions in `BTreeSet` iteration). A member holds a handful of
//! partitions of a topic, so the rare insertion in the middle costs less than the tree's nodes.
//!
//! The interface is the part of `BTreeSet`'s that the coordinator uses, with the same meaning:
//! ascending iteration, set equality and order, and (with `serde`) the same form, a sequence
//! (read back sorted, duplicates dropped, as a set reads it).

use alloc::vec::Vec;
use core::cmp::Ordering;
use core::fmt;

/// Partitions of one topic, ascending and distinct.
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Partitions(Vec<i32>);

impl Partitions {
    pub const fn new() -> Self {
        Partitions(Vec::new())
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter(&self) -> core::slice::Iter<'_, i32> {
        self.0.iter()
    }

    /// The partitions as an ascending slice.
    pub fn as_slice(&self) -> &[i32] {
        &self.0
    }

    pub fn contains(&self, p: &i32) -> bool {
        self.0.binary_search(p).is_ok()
    }

    pub fn first(&self) -> Option<&i32> {
        self.0.first()
    }

    pub fn last(&self) -> Option<&i32> {
        self.0.last()
    }

    /// Adds `p`; false when it was there already.
    pub fn insert(&mut self, p: i32) -> bool {
        // Most insertions come in order: the end is looked at first.
        match self.0.last() {
            None => {}
            Some(&last) if last < p => {}
            Some(_) => {
                return match self.0.binary_search(&p) {
                    Ok(_) => false,
                    Err(at) => {
                        self.0.insert(at, p);
                        true
                    }
                };
            }
        }
        self.0.push(p);
        true
    }

    /// Takes `p` out; false when it was not there.
    pub fn remove(&mut self, p: &i32) -> bool {
        match self.0.binary_search(p) {
            Ok(at) => {
                self.0.remove(at);
                true
            }
            Err(_) => false,
        }
    }

    pub fn retain(&mut self, keep: impl FnMut(&i32) -> bool) {
        self.0.retain(keep);
    }

    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// The partitions in both, ascending.
    pub fn intersection<'a>(&'a self, other: &'a Partitions) -> impl Iterator<Item = &'a i32> {
        Merge::new(&self.0, &other.0, |o| o == Ordering::Equal)
    }

    /// The partitions in `self` and not in `other`, ascending.
    pub fn difference<'a>(&'a self, other: &'a Partitions) -> impl Iterator<Item = &'a i32> {
        Merge::new(&self.0, &other.0, |o| o == Ordering::Less)
    }

    /// Whether the two have a partition in common.
    pub fn is_disjoint(&self, other: &Partitions) -> bool {
        self.intersection(other).next().is_none()
    }

    /// Whether every partition of `self` is in `other`.
    pub fn is_subset(&self, other: &Partitions) -> bool {
        self.difference(other).next().is_none()
    }

    /// Sorts and drops duplicates, unless already ascending and distinct.
    fn normalized(mut v: Vec<i32>) -> Self {
        if !v.is_sorted_by(|a, b| a < b) {
            v.sort_unstable();
            v.dedup();
        }
        Partitions(v)
    }
}

/// Walks two ascending slices together, yielding `a`'s elements whose comparison with `b`'s
/// passes `keep` (`Equal`: in both; `Less`: in `a` only).
struct Merge<'a, F> {
    a: &'a [i32],
    b: &'a [i32],
    keep: F,
}

impl<'a, F: Fn(Ordering) -> bool> Merge<'a, F> {
    fn new(a: &'a [i32], b: &'a [i32], keep: F) -> Self {
        Merge { a, b, keep }
    }
}

impl<'a, F: Fn(Ordering) -> bool> Iterator for Merge<'a, F> {
    type Item = &'a i32;

    fn next(&mut self) -> Option<&'a i32> {
        loop {
            let (x, rest) = self.a.split_first()?;
            let order = match self.b.first() {
                Some(y) => x.cmp(y),
                None => Ordering::Less,
            };
            match order {
                Ordering::Greater => self.b = &self.b[1..],
                Ordering::Equal => {
                    self.a = rest;
                    self.b = &self.b[1..];
                    if (self.keep)(order) {
                        return Some(x);
                    }
                }
                Ordering::Less => {
                    self.a = rest;
                    if (self.keep)(order) {
                        return Some(x);
                    }
                }
            }
        }
    }
}

impl fmt::Debug for Partitions {
    /// As a set prints: `{0, 1, 2}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(&self.0).finish()
    }
}

impl FromIterator<i32> for Partitions {
    fn from_iter<I: IntoIterator<Item = i32>>(iter: I) -> Self {
        Partitions::normalized(iter.into_iter().collect())
    }
}

impl<'a> FromIterator<&'a i32> for Partitions {
    fn from_iter<I: IntoIterator<Item = &'a i32>>(iter: I) -> Self {
        iter.into_iter().copied().collect()
    }
}

impl Extend<i32> for Partitions {
    fn extend<I: IntoIterator<Item = i32>>(&mut self, iter: I) {
        let was_empty = self.0.is_empty();
        self.0.extend(iter);
        if !was_empty || !self.0.is_sorted_by(|a, b| a < b) {
            let v = core::mem::take(&mut self.0);
            *self = Partitions::normalized(v);
        }
    }
}

impl<'a> Extend<&'a i32> for Partitions {
    fn extend<I: IntoIterator<Item = &'a i32>>(&mut self, iter: I) {
        self.extend(iter.into_iter().copied());
    }
}

impl<const N: usize> From<[i32; N]> for Partitions {
    fn from(a: [i32; N]) -> Self {
        a.into_iter().collect()
    }
}

impl From<Vec<i32>> for Partitions {
    fn from(v: Vec<i32>) -> Self {
        Partitions::normalized(v)
    }
}

impl From<alloc::collections::BTreeSet<i32>> for Partitions {
    fn from(s: alloc::collections::BTreeSet<i32>) -> Self {
        Partitions(s.into_iter().collect())
    }
}

impl From<Partitions> for Vec<i32> {
    fn from(p: Partitions) -> Self {
        p.0
    }
}

impl<'a> IntoIterator for &'a Partitions {
    type Item = &'a i32;
    type IntoIter = core::slice::Iter<'a, i32>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl IntoIterator for Partitions {
    type Item = i32;
    type IntoIter = alloc::vec::IntoIter<i32>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Partitions {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Partitions {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Vec::<i32>::deserialize(d).map(Partitions::normalized)
    }
}

#[cfg(test)]
mod tests {
    use super::Partitions;
    use alloc::collections::BTreeSet;
    use alloc::vec::Vec;

    /// Small deterministic lists (a linear congruential walk), duplicates and disorder included.
    fn lists() -> Vec<Vec<i32>> {
        let mut x: u32 = 7;
        let mut out = Vec::new();
        for len in 0..24 {
            let mut v = Vec::new();
            for _ in 0..len {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                v.push(((x >> 16) % 16) as i32);
            }
            out.push(v);
        }
        out
    }

    #[test]
    fn behaves_as_a_btreeset() {
        let all = lists();
        for a in &all {
            let set: BTreeSet<i32> = a.iter().copied().collect();
            let p: Partitions = a.iter().copied().collect();
            assert!(p.iter().eq(set.iter()), "{a:?}");
            assert_eq!(p.len(), set.len());
            assert_eq!(alloc::format!("{p:?}"), alloc::format!("{set:?}"));
            for q in -1..17 {
                assert_eq!(p.contains(&q), set.contains(&q));
                let (mut p2, mut s2) = (p.clone(), set.clone());
                assert_eq!(p2.insert(q), s2.insert(q));
                assert!(p2.iter().eq(s2.iter()));
                assert_eq!(p2.remove(&(q / 2)), s2.remove(&(q / 2)));
                assert!(p2.iter().eq(s2.iter()));
            }
            for b in &all {
                let other: BTreeSet<i32> = b.iter().copied().collect();
                let q: Partitions = b.iter().copied().collect();
                assert!(p.intersection(&q).eq(set.intersection(&other)));
                assert!(p.difference(&q).eq(set.difference(&other)));
                assert_eq!(p.is_disjoint(&q), set.is_disjoint(&other));
                assert_eq!(p.is_subset(&q), set.is_subset(&other));
                assert_eq!(p == q, set == other);
                assert_eq!(p.cmp(&q), set.cmp(&other));
                let (mut pe, mut se) = (p.clone(), set.clone());
                pe.extend(b.iter().copied());
                se.extend(b.iter().copied());
                assert!(pe.iter().eq(se.iter()));
            }
        }
    }

    #[cfg(feature = "serde")]
    #[test]
    fn reads_and_writes_as_a_set_does() {
        let p: Partitions = serde_json::from_str("[3,1,3,2]").unwrap();
        let set: BTreeSet<i32> = serde_json::from_str("[3,1,3,2]").unwrap();
        assert_eq!(
            serde_json::to_string(&p).unwrap(),
            serde_json::to_string(&set).unwrap()
        );
    }
}
