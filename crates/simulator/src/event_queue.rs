//! The world's pending events, in (time, sequence) order: what comes due next.
//!
//! A binary heap, not an ordered map: a long run puts about a million events through it (a
//! message each way, a consumer's timers, most of them request time-outs that never fire), and
//! the loop only ever asks for the first. A heap's push and pop move a few entries; a B-tree's
//! insert and `pop_first` shift and rebalance its nodes (measured: the map was a sixth of the
//! run). What wants the events in order (the page's list of what comes next, an action that
//! takes a message off the wire) sorts them when it asks, which is rare.
//!
//! Keys are unique (the sequence only grows), so the order is total and every run pops the
//! same events in the same order.

use crate::world::Pending;
use alloc::collections::BinaryHeap;
use alloc::vec::Vec;
use core::cmp::Ordering;

/// When an event is due, and its place among the events due then.
pub type QueueKey = (i64, u64);

#[derive(Clone, Debug)]
struct Queued {
    key: QueueKey,
    pending: Pending,
}

// The heap is a max-heap: the earliest key is the greatest.
impl Ord for Queued {
    fn cmp(&self, other: &Self) -> Ordering {
        other.key.cmp(&self.key)
    }
}

impl PartialOrd for Queued {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Queued {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl Eq for Queued {}

#[derive(Clone, Debug, Default)]
pub struct EventQueue {
    heap: BinaryHeap<Queued>,
}

impl EventQueue {
    /// Queues `pending` at `key` (unique: the world's sequence numbers only grow).
    pub fn insert(&mut self, key: QueueKey, pending: Pending) {
        self.heap.push(Queued { key, pending });
    }

    /// The first key.
    pub fn first_key(&self) -> Option<QueueKey> {
        self.heap.peek().map(|q| q.key)
    }

    /// Takes the first event off.
    pub fn pop_first(&mut self) -> Option<(QueueKey, Pending)> {
        self.heap.pop().map(|q| (q.key, q.pending))
    }

    /// Every event, in order (sorted on each call: for the rare readers that want the order).
    pub fn iter(&self) -> impl Iterator<Item = (QueueKey, &Pending)> {
        let mut all: Vec<&Queued> = self.heap.iter().collect();
        all.sort_unstable_by_key(|q| q.key);
        all.into_iter().map(|q| (q.key, &q.pending))
    }

    /// Takes the event at `key` off, wherever it is.
    pub fn remove(&mut self, key: QueueKey) -> Option<Pending> {
        let mut all = core::mem::take(&mut self.heap).into_vec();
        let taken = all
            .iter()
            .position(|q| q.key == key)
            .map(|i| all.swap_remove(i).pending);
        self.heap = BinaryHeap::from(all);
        taken
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(i: usize) -> Pending {
        Pending::Start(i)
    }

    fn index(p: &Pending) -> usize {
        match p {
            Pending::Start(i) => *i,
            _ => usize::MAX,
        }
    }

    #[test]
    fn pops_in_time_then_sequence_order_and_removes_anywhere() {
        let mut q = EventQueue::default();
        for (i, key) in [(5, 3), (1, 9), (5, 1), (3, 4), (1, 2)]
            .into_iter()
            .enumerate()
        {
            q.insert(key, start(i));
        }
        assert_eq!(q.first_key(), Some((1, 2)));
        let order: Vec<usize> = q.iter().map(|(_, p)| index(p)).collect();
        assert_eq!(order, [4, 1, 3, 2, 0]);
        assert_eq!(q.remove((3, 4)).as_ref().map(index), Some(3));
        assert!(q.remove((3, 4)).is_none());
        let popped: Vec<(QueueKey, usize)> = core::iter::from_fn(|| q.pop_first())
            .map(|(k, p)| (k, index(&p)))
            .collect();
        assert_eq!(popped, [((1, 2), 4), ((1, 9), 1), ((5, 1), 2), ((5, 3), 0)]);
        assert_eq!(q.first_key(), None);
    }
}
