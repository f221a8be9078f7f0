//! The world's pending events, in (time, sequence) order: what comes due next.
//!
//! A binary heap, not an ordered map: a long run puts about a million events through it (a
//! message each way, a consumer's timers, most of them request time-outs that never fire), and
//! the loop only ever asks for the first. The time-outs wait apart, in lanes (below). A heap's push and pop move a few entries; a B-tree's
//! insert and `pop_first` shift and rebalance its nodes (measured: the map was a sixth of the
//! run). What wants the events in order (the page's list of what comes next, an action that
//! takes a message off the wire) sorts them when it asks, which is rare.
//!
//! Keys are unique (the sequence only grows), so the order is total and every run pops the
//! same events in the same order.

use crate::world::Pending;
use alloc::collections::{BinaryHeap, VecDeque};
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

/// How many fixed delays get a lane of their own (a run has one or two: the consumers'
/// `request.timeout.ms`, and JoinGroup's longer one).
const LANES: usize = 4;

/// The heap, and beside it a few first-in, first-out lanes for events queued a fixed delay
/// after they were scheduled (requests' time-outs). Every request arms one and almost none
/// fires: with 1,000 consumers about 16,000 wait at any time, and in the heap each pop would
/// walk that many more levels through memory the cache does not hold. Scheduled at a clock
/// that only moves forward, with growing sequence numbers, a lane's keys come in order:
/// its front is its first.
#[derive(Clone, Debug, Default)]
pub struct EventQueue {
    heap: BinaryHeap<Queued>,
    /// `(delay, events queued that long after they were scheduled)`.
    lanes: Vec<(i64, VecDeque<Queued>)>,
    /// The first event's key and place, kept up to date by every change: the loop asks for it
    /// before each event (is it due?) and again to take it, and finding it means looking at
    /// the heap and every lane.
    first: Option<(QueueKey, First)>,
}

/// Where the first event is.
#[derive(Clone, Copy, Debug)]
enum First {
    Heap,
    Lane(usize),
}

impl EventQueue {
    /// Queues `pending` at `key` (unique: the world's sequence numbers only grow).
    pub fn insert(&mut self, key: QueueKey, pending: Pending) {
        self.heap.push(Queued { key, pending });
        self.arrived(key, First::Heap);
    }

    /// An event came in at `key`, in `place`: is it the first now?
    fn arrived(&mut self, key: QueueKey, place: First) {
        if self.first.is_none_or(|(first, _)| key < first) {
            self.first = Some((key, place));
        }
    }

    /// Queues `pending` at `key`, scheduled `delay` ms before it: the caller's clock only moves
    /// forward and its sequence numbers only grow, so an event with a delay seen before goes to
    /// the end of that delay's lane.
    pub fn insert_after(&mut self, delay: i64, key: QueueKey, pending: Pending) {
        let queued = Queued { key, pending };
        let lane = match self.lanes.iter().position(|(d, _)| *d == delay) {
            Some(i) => i,
            None if self.lanes.len() < LANES => {
                self.lanes.push((delay, VecDeque::new()));
                self.lanes.len() - 1
            }
            None => return self.insert(key, queued.pending),
        };
        let events = &mut self.lanes[lane].1;
        match events.back() {
            Some(last) if last.key > key => self.insert(key, queued.pending),
            _ => {
                events.push_back(queued);
                self.arrived(key, First::Lane(lane));
            }
        }
    }

    /// Looks for the first event (in the heap and at the front of every lane).
    fn find_first(&self) -> Option<(QueueKey, First)> {
        let mut first = self.heap.peek().map(|q| (q.key, First::Heap));
        for (i, (_, events)) in self.lanes.iter().enumerate() {
            if let Some(q) = events.front()
                && first.is_none_or(|(key, _)| q.key < key)
            {
                first = Some((q.key, First::Lane(i)));
            }
        }
        first
    }

    /// The first key.
    pub fn first_key(&self) -> Option<QueueKey> {
        self.first.map(|(key, _)| key)
    }

    /// Takes the first event off.
    pub fn pop_first(&mut self) -> Option<(QueueKey, Pending)> {
        let q = match self.first?.1 {
            First::Heap => self.heap.pop(),
            First::Lane(i) => self.lanes[i].1.pop_front(),
        };
        self.first = self.find_first();
        q.map(|q| (q.key, q.pending))
    }

    /// Every event, in order (sorted on each call: for the rare readers that want the order).
    pub fn iter(&self) -> impl Iterator<Item = (QueueKey, &Pending)> {
        let mut all: Vec<&Queued> = self
            .heap
            .iter()
            .chain(self.lanes.iter().flat_map(|(_, events)| events.iter()))
            .collect();
        all.sort_unstable_by_key(|q| q.key);
        all.into_iter().map(|q| (q.key, &q.pending))
    }

    /// Takes the event at `key` off, wherever it is.
    pub fn remove(&mut self, key: QueueKey) -> Option<Pending> {
        for (_, events) in &mut self.lanes {
            if let Ok(i) = events.binary_search_by_key(&key, |q| q.key) {
                let taken = events.remove(i).map(|q| q.pending);
                self.first = self.find_first();
                return taken;
            }
        }
        let mut all = core::mem::take(&mut self.heap).into_vec();
        let taken = all
            .iter()
            .position(|q| q.key == key)
            .map(|i| all.swap_remove(i).pending);
        self.heap = BinaryHeap::from(all);
        self.first = self.find_first();
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
    fn lanes_and_heap_pop_as_one_order() {
        let mut q = EventQueue::default();
        // Three delays share two lanes... and more delays than lanes go to the heap.
        let mut expected = Vec::new();
        let mut seq = 0;
        for now in [0i64, 5, 5, 9, 20] {
            for delay in [30i64, 10, 0, 7, 30, 12, 3] {
                seq += 1;
                let key = (now + delay, seq);
                q.insert_after(delay, key, start(seq as usize));
                expected.push((key, seq as usize));
            }
            seq += 1;
            q.insert((now + 1, seq), start(seq as usize));
            expected.push(((now + 1, seq), seq as usize));
        }
        expected.sort();
        let listed: Vec<(QueueKey, usize)> = q.iter().map(|(k, p)| (k, index(p))).collect();
        assert_eq!(listed, expected);
        let removed = expected.remove(7);
        assert_eq!(q.remove(removed.0).as_ref().map(index), Some(removed.1));
        let popped: Vec<(QueueKey, usize)> = core::iter::from_fn(|| q.pop_first())
            .map(|(k, p)| (k, index(&p)))
            .collect();
        assert_eq!(popped, expected);
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
