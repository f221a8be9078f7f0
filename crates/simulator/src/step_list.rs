//! The player's step records ([`Chunked`]: an hour of 1,000 consumers is some 6 million steps),
//! and the view of them the player gives.

use crate::chunked::{Chunked, Iter};
use crate::player::StepRecord;
use core::ops::{Index, Range};

/// Records a chunk (512 KB natively).
const CHUNK: usize = 1 << 12;

/// Every step's record known, in step order.
pub(crate) type StepList = Chunked<StepRecord, CHUNK>;

/// The records of a range of steps, in order.
pub type StepIter<'a> = Iter<'a, StepRecord, CHUNK>;

impl StepList {
    /// The first `len` records (all of them if there are fewer).
    pub(crate) fn view(&self, len: usize) -> Steps<'_> {
        Steps {
            list: self,
            len: len.min(self.len()),
        }
    }
}

/// A run's first steps' records, in order: what [`crate::Player::steps`] gives.
#[derive(Clone, Copy, Debug)]
pub struct Steps<'a> {
    list: &'a StepList,
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
        self.list.get(k)
    }

    pub fn last(&self) -> Option<&'a StepRecord> {
        self.get(self.len.checked_sub(1)?)
    }

    pub fn iter(self) -> StepIter<'a> {
        self.range(0..self.len)
    }

    /// The records of `range` (0-based), cut to those there are.
    pub fn range(self, range: Range<usize>) -> StepIter<'a> {
        self.list
            .range(range.start.min(self.len)..range.end.min(self.len))
    }

    /// The first `len` of these (all of them if there are fewer).
    pub fn prefix(self, len: usize) -> Steps<'a> {
        self.list.view(len.min(self.len))
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
        match self.get(k) {
            Some(record) => record,
            None => panic!("step {k} of {}", self.len),
        }
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

impl serde::Serialize for Steps<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}
