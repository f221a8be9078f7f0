//! A set of (count, rank) pairs in ascending order, for the sticky general builder's "members
//! by how many partitions they hold, then by id" (Kafka's `sortedCurrentSubscriptions`). Counts
//! move by one at a time and ranks are dense (`0..n`), so the set is kept as one bitset of
//! ranks per count (a bucket queue) rather than a `BTreeSet<(usize, usize)>`: the fill takes
//! the least loaded member and puts it back one higher once per partition, and in wasm the tree's
//! searches were half of the whole assignment.
//!
//! Iteration, [`LoadQueue::first`] and [`LoadQueue::iter`] give exactly the `BTreeSet` order
//! (the property test in this module compares them operation by operation).

use alloc::vec::Vec;

#[derive(Clone, Debug, Default)]
struct Bucket {
    /// One bit per rank; empty while the bucket is (so that counts a member only passes
    /// through hold no memory).
    bits: Vec<u64>,
    len: usize,
    /// No bit is set in the words before this one.
    low: usize,
}

/// See the module doc.
#[derive(Clone, Debug)]
pub(crate) struct LoadQueue {
    words: usize,
    buckets: Vec<Bucket>,
    len: usize,
    /// No bucket below this count holds anything (kept lazily; meaningless when empty).
    min: usize,
    /// No bucket above this count holds anything (likewise).
    max: usize,
}

impl LoadQueue {
    /// An empty queue for ranks `0..ranks`.
    pub(crate) fn new(ranks: usize) -> LoadQueue {
        LoadQueue {
            words: ranks.div_ceil(64),
            buckets: Vec::new(),
            len: 0,
            min: usize::MAX,
            max: 0,
        }
    }

    /// Adds (count, rank); false when it was there already. `rank` must be below the queue's
    /// rank count.
    pub(crate) fn insert(&mut self, count: usize, rank: usize) -> bool {
        if self.buckets.len() <= count {
            self.buckets.resize_with(count + 1, Bucket::default);
        }
        let bucket = &mut self.buckets[count];
        if bucket.bits.is_empty() {
            bucket.bits = alloc::vec![0; self.words];
            bucket.low = self.words;
        }
        let (word, bit) = (rank / 64, 1u64 << (rank % 64));
        if bucket.bits[word] & bit != 0 {
            return false;
        }
        bucket.bits[word] |= bit;
        bucket.len += 1;
        bucket.low = bucket.low.min(word);
        self.len += 1;
        self.min = self.min.min(count);
        self.max = self.max.max(count);
        true
    }

    /// Removes (count, rank); false when it was not there.
    pub(crate) fn remove(&mut self, count: usize, rank: usize) -> bool {
        let Some(bucket) = self.buckets.get_mut(count) else {
            return false;
        };
        let (word, bit) = (rank / 64, 1u64 << (rank % 64));
        if bucket.bits.get(word).is_none_or(|&w| w & bit == 0) {
            return false;
        }
        bucket.bits[word] &= !bit;
        bucket.len -= 1;
        if bucket.len == 0 {
            bucket.bits = Vec::new();
        }
        self.len -= 1;
        true
    }

    /// The least count held.
    pub(crate) fn min_count(&mut self) -> Option<usize> {
        if self.len == 0 {
            return None;
        }
        while self.buckets[self.min].len == 0 {
            self.min += 1;
        }
        Some(self.min)
    }

    /// The greatest count held.
    pub(crate) fn max_count(&mut self) -> Option<usize> {
        if self.len == 0 {
            return None;
        }
        self.max = self.max.min(self.buckets.len() - 1);
        while self.buckets[self.max].len == 0 {
            self.max -= 1;
        }
        Some(self.max)
    }

    /// The least (count, rank).
    pub(crate) fn first(&mut self) -> Option<(usize, usize)> {
        let count = self.min_count()?;
        let bucket = &mut self.buckets[count];
        while bucket.bits[bucket.low] == 0 {
            bucket.low += 1;
        }
        let rank = bucket.low * 64 + bucket.bits[bucket.low].trailing_zeros() as usize;
        Some((count, rank))
    }

    /// Every (count, rank), ascending.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.buckets
            .iter()
            .enumerate()
            .filter(|(_, b)| b.len > 0)
            .flat_map(|(count, b)| {
                b.bits
                    .iter()
                    .enumerate()
                    .flat_map(move |(w, &word)| Ones(word).map(move |bit| (count, w * 64 + bit)))
            })
    }
}

/// The set bits of a word, lowest first.
struct Ones(u64);

impl Iterator for Ones {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let bit = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(bit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::collections::BTreeSet;
    use proptest::prelude::*;

    #[derive(Clone, Debug)]
    enum Op {
        Insert(usize, usize),
        Remove(usize, usize),
        First,
        Ends,
    }

    fn op(ranks: usize) -> impl Strategy<Value = Op> {
        prop_oneof![
            (0..12usize, 0..ranks).prop_map(|(c, r)| Op::Insert(c, r)),
            (0..12usize, 0..ranks).prop_map(|(c, r)| Op::Remove(c, r)),
            Just(Op::First),
            Just(Op::Ends),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1_000))]
        #[test]
        fn behaves_as_an_ordered_set_of_pairs(
            (ranks, ops) in (1..200usize).prop_flat_map(|n| (Just(n), proptest::collection::vec(op(n), 0..300)))
        ) {
            let mut queue = LoadQueue::new(ranks);
            let mut set: BTreeSet<(usize, usize)> = BTreeSet::new();
            for op in ops {
                match op {
                    Op::Insert(c, r) => prop_assert_eq!(queue.insert(c, r), set.insert((c, r))),
                    Op::Remove(c, r) => prop_assert_eq!(queue.remove(c, r), set.remove(&(c, r))),
                    Op::First => prop_assert_eq!(queue.first(), set.first().copied()),
                    Op::Ends => {
                        prop_assert_eq!(queue.min_count(), set.first().map(|p| p.0));
                        prop_assert_eq!(queue.max_count(), set.last().map(|p| p.0));
                    }
                }
                prop_assert!(queue.iter().eq(set.iter().copied()));
            }
        }
    }
}
