//! The player's step records, in chunks of a fixed size.
//!
//! An hour of 1,000 consumers is some 6 million steps, and their records were one `Vec`: at
//! each doubling of its capacity the old and the new buffer were both held (in wasm, past 8
//! million steps, 0.7 GB and 1.5 GB at once), and half the new one stood empty. A module's
//! memory is 4 GiB at most, and what a run may record is bounded
//! ([`crate::player::RECORD_BUDGET_BYTES`]): in chunks the records grow by one chunk at a time,
//! and the memory they take is what they fill, give or take a chunk.

use crate::player::StepRecord;
use alloc::vec::Vec;
use core::mem::size_of;
use core::ops::{Index, Range};

/// Records a chunk (512 KB natively).
const CHUNK: usize = 1 << 12;

/// Every step's record known, in step order.
#[derive(Clone, Debug, Default)]
pub(crate) struct StepList {
    chunks: Vec<Vec<StepRecord>>,
    len: usize,
}

impl StepList {
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn push(&mut self, record: StepRecord) {
        if self.chunks.last().is_none_or(|c| c.len() == CHUNK) {
            self.chunks.push(Vec::with_capacity(CHUNK));
        }
        if let Some(chunk) = self.chunks.last_mut() {
            chunk.push(record);
            self.len += 1;
        }
    }

    /// Keeps the first `len` records, and gives back the room of the others.
    pub(crate) fn truncate(&mut self, len: usize) {
        if len >= self.len {
            return;
        }
        self.chunks.truncate(len.div_ceil(CHUNK));
        if let Some(last) = self.chunks.last_mut() {
            last.truncate(len - (len - 1) / CHUNK * CHUNK);
        }
        self.chunks.shrink_to_fit();
        self.len = len;
    }

    pub(crate) fn get(&self, k: usize) -> Option<&StepRecord> {
        self.chunks.get(k / CHUNK)?.get(k % CHUNK)
    }

    pub(crate) fn get_mut(&mut self, k: usize) -> Option<&mut StepRecord> {
        self.chunks.get_mut(k / CHUNK)?.get_mut(k % CHUNK)
    }

    /// The first `len` records (all of them if there are fewer).
    pub(crate) fn view(&self, len: usize) -> Steps<'_> {
        Steps {
            chunks: &self.chunks,
            len: len.min(self.len),
        }
    }

    /// The bytes the records take: whole chunks (each allocated whole).
    pub(crate) fn bytes(&self) -> usize {
        self.chunks.len() * CHUNK * size_of::<StepRecord>() + self.chunks.capacity() * 24
    }
}

/// A run's first steps' records, in order: what [`crate::Player::steps`] gives.
#[derive(Clone, Copy, Debug)]
pub struct Steps<'a> {
    chunks: &'a [Vec<StepRecord>],
    len: usize,
}

impl<'a> Steps<'a> {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The record of step `k + 1` (0-based).
    pub fn get(&self, k: usize) -> Option<&'a StepRecord> {
        if k >= self.len {
            return None;
        }
        self.chunks.get(k / CHUNK)?.get(k % CHUNK)
    }

    pub fn last(&self) -> Option<&'a StepRecord> {
        self.get(self.len.checked_sub(1)?)
    }

    pub fn iter(self) -> StepIter<'a> {
        self.range(0..self.len)
    }

    /// The records of `range` (0-based), cut to those there are.
    pub fn range(self, range: Range<usize>) -> StepIter<'a> {
        StepIter {
            chunks: self.chunks,
            range: range.start.min(self.len)..range.end.min(self.len),
        }
    }

    /// The first `len` of these (all of them if there are fewer).
    pub fn prefix(self, len: usize) -> Steps<'a> {
        Steps {
            chunks: self.chunks,
            len: len.min(self.len),
        }
    }

    /// As `slice::partition_point`: the first record `pred` is false of (the records being
    /// partitioned by it).
    pub fn partition_point(&self, pred: impl Fn(&StepRecord) -> bool) -> usize {
        let (mut lo, mut hi) = (0, self.len);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if pred(&self[mid]) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }
}

impl Index<usize> for Steps<'_> {
    type Output = StepRecord;

    /// Panics past the end, as a slice does (callers index steps they know exist).
    fn index(&self, k: usize) -> &StepRecord {
        assert!(k < self.len, "step {k} of {}", self.len);
        &self.chunks[k / CHUNK][k % CHUNK]
    }
}

/// Equal when they hold equal records, in the same order.
impl PartialEq for Steps<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

impl<'a> IntoIterator for Steps<'a> {
    type Item = &'a StepRecord;
    type IntoIter = StepIter<'a>;

    fn into_iter(self) -> StepIter<'a> {
        self.iter()
    }
}

/// The records of a range of steps, in order.
#[derive(Clone, Debug)]
pub struct StepIter<'a> {
    chunks: &'a [Vec<StepRecord>],
    range: Range<usize>,
}

impl<'a> StepIter<'a> {
    fn at(&self, k: usize) -> &'a StepRecord {
        &self.chunks[k / CHUNK][k % CHUNK]
    }
}

impl<'a> Iterator for StepIter<'a> {
    type Item = &'a StepRecord;

    fn next(&mut self) -> Option<&'a StepRecord> {
        let k = self.range.next()?;
        Some(self.at(k))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.range.size_hint()
    }

    fn nth(&mut self, n: usize) -> Option<&'a StepRecord> {
        let k = self.range.nth(n)?;
        Some(self.at(k))
    }
}

impl DoubleEndedIterator for StepIter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        let k = self.range.next_back()?;
        Some(self.at(k))
    }
}

impl ExactSizeIterator for StepIter<'_> {}

impl serde::Serialize for Steps<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}
