//! A group's target assignment in one buffer. Kafka's `GroupAssignment` is a map of member id
//! to a map of topic id to a set of partitions: two or three allocations per member, which for
//! 10,000 members cost more than assigning (measured: building and dropping them takes about
//! 8 ms, filling one buffer 0.1 ms). The assignors write here; a member's usual map is made only
//! when someone needs it, and the coordinator compares before it copies.

use super::MemberAssignment;
use crate::consumer_group::uuid::Uuid;
use alloc::vec::Vec;

/// Every member's partitions, member after member in the spec's order. Within a member they are
/// sorted by (topic id, partition), the order [`MemberAssignment`] iterates in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GroupAssignment {
    /// The topic ids the buffer refers to by index, ascending.
    topics: Vec<Uuid>,
    /// (topic index, partition).
    partitions: Vec<(u32, i32)>,
    /// Where each member's run ends in `partitions`.
    ends: Vec<usize>,
}

impl GroupAssignment {
    /// An empty assignment over `topics` (ascending ids), for `members` members.
    pub(crate) fn with_capacity(topics: Vec<Uuid>, members: usize, partitions: usize) -> Self {
        GroupAssignment {
            topics,
            partitions: Vec::with_capacity(partitions),
            ends: Vec::with_capacity(members),
        }
    }

    /// An assignment made of runs already sorted: member `i`'s pairs end at `ends[i]`.
    pub(crate) fn from_runs(
        topics: Vec<Uuid>,
        partitions: Vec<(u32, i32)>,
        ends: Vec<usize>,
    ) -> Self {
        debug_assert_eq!(ends.last().copied().unwrap_or(0), partitions.len());
        GroupAssignment {
            topics,
            partitions,
            ends,
        }
    }

    /// Adds a partition (by topic index) to the member being written: the one after the last
    /// [`GroupAssignment::end_member`].
    pub(crate) fn push(&mut self, topic: usize, partition: i32) {
        self.partitions.push((topic as u32, partition));
    }

    /// Closes the member being written, sorting its run; the next push starts the next member.
    pub(crate) fn end_member(&mut self) {
        let start = self.ends.last().copied().unwrap_or(0);
        let run = &mut self.partitions[start..];
        if !run.is_sorted() {
            run.sort_unstable();
        }
        self.ends.push(self.partitions.len());
    }

    /// How many members it holds.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    fn run(&self, member: usize) -> &[(u32, i32)] {
        let start = if member == 0 {
            0
        } else {
            self.ends[member - 1]
        };
        &self.partitions[start..self.ends[member]]
    }

    /// The topic ids the runs refer to by index, ascending.
    pub fn topics(&self) -> &[Uuid] {
        &self.topics
    }

    /// Member `member`'s (topic index in [`GroupAssignment::topics`], partition) pairs, sorted.
    pub fn indexed(&self, member: usize) -> &[(u32, i32)] {
        self.run(member)
    }

    /// Member `member`'s (topic id, partition) pairs, sorted.
    pub fn member(&self, member: usize) -> impl Iterator<Item = (Uuid, i32)> + '_ {
        self.run(member)
            .iter()
            .map(|&(k, p)| (self.topics[k as usize], p))
    }

    /// How many partitions member `member` has.
    pub fn count(&self, member: usize) -> usize {
        self.run(member).len()
    }

    /// Member `member`'s assignment as a map.
    pub fn member_assignment(&self, member: usize) -> MemberAssignment {
        let run = self.run(member);
        let mut out = MemberAssignment::new();
        let mut i = 0;
        while i < run.len() {
            let k = run[i].0;
            let j = i + run[i..].iter().take_while(|(t, _)| *t == k).count();
            // Sorted: the set is bulk-built.
            out.insert(
                self.topics[k as usize],
                run[i..j].iter().map(|(_, p)| *p).collect(),
            );
            i = j;
        }
        out
    }

    /// Whether member `member`'s assignment is `other`, without building it.
    pub fn member_equals(&self, member: usize, other: &MemberAssignment) -> bool {
        let run = self.run(member);
        run.len() == other.values().map(|ps| ps.len()).sum::<usize>()
            && self
                .member(member)
                .eq(other.iter().flat_map(|(t, ps)| ps.iter().map(|p| (*t, *p))))
    }
}
