//! The world's pending events, in (time, sequence) order: what comes due next.
//!
//! A long run puts about a million events through the queue (a message each way, a
//! consumer's timers, most of them request time-outs that never fire), and the loop only ever
//! asks for the first. Four stores, each for the events it suits, and the first of their
//! firsts is the queue's first:
//!
//! - **the wheel**: one list per millisecond for the next [`SLOTS`] ms (a message on the wire,
//!   a poll, a heartbeat). Putting an event in is appending it to its millisecond's list;
//!   taking the first is taking the head of the first list a bitmap says is not empty. A
//!   binary heap did both in its depth of comparisons and moves (measured: a fifth of a run
//!   of 100 consumers, and more at 1,000, where the heap outgrows the cache); an ordered map
//!   before it shifted and rebalanced its nodes (a sixth).
//! - **buckets**: a list per second for the minute past the wheel (an auto-commit, a session
//!   check). As the wheel turns, a bucket it comes to reach moves into it.
//! - **lanes**: first-in, first-out queues for events a fixed delay after they were
//!   scheduled (requests' time-outs, below);
//! - **the far heap**: everything else. As the buckets move on, the far events they come to
//!   reach move into them.
//!
//! What wants the events in order (the page's list of what comes next, an action that takes a
//! message off the wire) sorts them when it asks, which is rare.
//!
//! Keys are unique (the sequence only grows), so the order is total and every run pops the
//! same events in the same order, whichever store holds them.

use crate::world::Pending;
use alloc::collections::{BinaryHeap, VecDeque};
use alloc::vec;
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

/// How many milliseconds the wheel reaches: more than a heartbeat interval (Kafka's default
/// 3 s), so a consumer's timers and messages are all in it. A power of two.
const SLOTS: usize = 4096;

/// No node (the end of a list).
const NIL: u32 = u32::MAX;

#[derive(Clone, Debug)]
struct Node {
    key: QueueKey,
    /// `None` once taken (the node is then on the free list).
    pending: Option<Pending>,
    next: u32,
}

/// One list of events per millisecond, for the [`SLOTS`] ms from a cursor its owner keeps: slot
/// `t % SLOTS` holds the events due at `t`, in sequence order. The lists' nodes live in one
/// vector and are reused.
#[derive(Clone, Debug)]
struct Wheel {
    /// Each slot's first and last node.
    slots: Vec<(u32, u32)>,
    /// A bit per slot: is its list not empty.
    occupied: Vec<u64>,
    nodes: Vec<Node>,
    free: Vec<u32>,
    len: usize,
}

impl Wheel {
    fn new() -> Wheel {
        Wheel {
            slots: vec![(NIL, NIL); SLOTS],
            occupied: vec![0; SLOTS / 64],
            nodes: Vec::new(),
            free: Vec::new(),
            len: 0,
        }
    }

    fn slot_of(t: i64) -> usize {
        t.rem_euclid(SLOTS as i64) as usize
    }

    fn node(&mut self, key: QueueKey, pending: Pending) -> u32 {
        let node = Node {
            key,
            pending: Some(pending),
            next: NIL,
        };
        match self.free.pop() {
            Some(n) => {
                self.nodes[n as usize] = node;
                n
            }
            None => {
                self.nodes.push(node);
                (self.nodes.len() - 1) as u32
            }
        }
    }

    /// Adds an event to its millisecond's list, after the keys before it: at the end, as the
    /// sequence only grows, but for an event put first by the user (a lower sequence) or a far
    /// one the wheel now reaches.
    fn push(&mut self, key: QueueKey, pending: Pending) -> usize {
        let s = Self::slot_of(key.0);
        let n = self.node(key, pending);
        let (head, tail) = self.slots[s];
        self.len += 1;
        if head == NIL {
            self.slots[s] = (n, n);
            self.occupied[s / 64] |= 1 << (s % 64);
        } else if self.nodes[tail as usize].key < key {
            self.nodes[tail as usize].next = n;
            self.slots[s].1 = n;
        } else if key < self.nodes[head as usize].key {
            self.nodes[n as usize].next = head;
            self.slots[s].0 = n;
        } else {
            // Between two: after the last key before it (the tail's key is greater).
            let mut before = head;
            loop {
                let next = self.nodes[before as usize].next;
                if next == NIL || self.nodes[next as usize].key > key {
                    break;
                }
                before = next;
            }
            self.nodes[n as usize].next = self.nodes[before as usize].next;
            self.nodes[before as usize].next = n;
        }
        s
    }

    /// The first slot at or after `from` (going round once) whose list is not empty.
    fn next_occupied(&self, from: usize) -> Option<usize> {
        if self.len == 0 {
            return None;
        }
        let words = self.occupied.len();
        let (w0, b0) = (from / 64, from % 64);
        let here = self.occupied[w0] & (!0u64 << b0);
        if here != 0 {
            return Some(w0 * 64 + here.trailing_zeros() as usize);
        }
        (1..=words).find_map(|i| {
            let w = (w0 + i) % words;
            // Round again to the first word: only the bits before `from`.
            let bits = if i == words {
                self.occupied[w] & !(!0u64 << b0)
            } else {
                self.occupied[w]
            };
            (bits != 0).then(|| w * 64 + bits.trailing_zeros() as usize)
        })
    }

    fn head_key(&self, s: usize) -> QueueKey {
        self.nodes[self.slots[s].0 as usize].key
    }

    /// Takes the first event of slot `s` (not empty).
    fn pop_head(&mut self, s: usize) -> Option<(QueueKey, Pending)> {
        let n = self.slots[s].0;
        let node = self.nodes.get_mut(n as usize)?;
        let (key, pending, next) = (node.key, node.pending.take()?, node.next);
        self.unlinked(s, n, NIL, next);
        Some((key, pending))
    }

    /// Node `n` of slot `s`, after `before` (or first) and before `next`, has left its list.
    fn unlinked(&mut self, s: usize, n: u32, before: u32, next: u32) {
        if before == NIL {
            self.slots[s].0 = next;
        } else {
            self.nodes[before as usize].next = next;
        }
        if self.slots[s].1 == n {
            self.slots[s].1 = before;
        }
        if self.slots[s].0 == NIL {
            self.occupied[s / 64] &= !(1 << (s % 64));
        }
        self.free.push(n);
        self.len -= 1;
    }

    /// Takes the event at `key` off its list, if it is there.
    fn remove(&mut self, key: QueueKey) -> Option<Pending> {
        let s = Self::slot_of(key.0);
        let (mut before, mut n) = (NIL, self.slots[s].0);
        while n != NIL {
            let node = &mut self.nodes[n as usize];
            if node.key == key {
                let (pending, next) = (node.pending.take(), node.next);
                self.unlinked(s, n, before, next);
                return pending;
            }
            (before, n) = (n, node.next);
        }
        None
    }

    fn iter(&self) -> impl Iterator<Item = (QueueKey, &Pending)> {
        self.nodes
            .iter()
            .filter_map(|n| n.pending.as_ref().map(|p| (n.key, p)))
    }
}

/// How many fixed delays get a lane of their own (a run has one or two: the consumers'
/// `request.timeout.ms`, and JoinGroup's longer one).
const LANES: usize = 4;

/// Past the wheel's reach, events wait in buckets of this many ms...
const BUCKET_MS: i64 = 1024;
/// ... this many of them: about a minute, so a session time-out (Kafka's default 45 s) is in
/// them.
const BUCKETS: usize = 64;

/// The wheel, the buckets, the lanes and the far heap (see the module's comment).
///
/// Buckets: a consumer's auto-commit (5 s) and its heartbeat thread's session check (45 s)
/// are past the wheel's reach; in a heap each would cost its depth twice. A bucket is a plain
/// list of the events due in its second; when the wheel comes to reach all of it, its events
/// move into the wheel.
///
/// Lanes: every request arms a time-out and almost none fires: with 1,000 consumers about
/// 16,000 wait at any time. Scheduled at a clock that only moves forward, with growing sequence
/// numbers, a lane's keys come in order: its front is its first.
#[derive(Clone, Debug)]
pub struct EventQueue {
    wheel: Wheel,
    /// Nothing is due before the cursor: it moves up to each event taken off.
    cursor: i64,
    /// The wheel holds the events due in `cursor..horizon` (a multiple of [`BUCKET_MS`], at
    /// most [`SLOTS`] past the cursor), the buckets those due in the [`BUCKETS`] seconds after.
    horizon: i64,
    /// Bucket `(t / BUCKET_MS) % BUCKETS` holds the events due at `t`, in no order.
    buckets: Vec<Vec<Queued>>,
    bucketed: usize,
    /// Events past the buckets (and any due before the cursor, which the world never queues).
    far: BinaryHeap<Queued>,
    /// `(delay, events queued that long after they were scheduled)`.
    lanes: Vec<(i64, VecDeque<Queued>)>,
    /// The first event's key and place, kept up to date by every change: the loop asks for it
    /// before each event (is it due?) and again to take it.
    first: Option<(QueueKey, First)>,
    /// The first of the far heap's and the lanes' events, when known (`None` inside: there is
    /// none): it changes only when one of them is taken off or comes in first, so finding the
    /// first event after each one taken compares the wheel's with it instead of every lane's
    /// front (a third of finding it, measured in instructions).
    beyond: Option<Option<(QueueKey, First)>>,
}

impl Default for EventQueue {
    fn default() -> Self {
        EventQueue {
            wheel: Wheel::new(),
            cursor: 0,
            horizon: SLOTS as i64,
            buckets: vec![Vec::new(); BUCKETS],
            bucketed: 0,
            far: BinaryHeap::new(),
            lanes: Vec::new(),
            first: None,
            beyond: Some(None),
        }
    }
}

/// Where the first event is.
#[derive(Clone, Copy, Debug)]
enum First {
    Wheel(usize),
    /// Bucket, index in it.
    Bucket(usize, usize),
    Far,
    Lane(usize),
}

fn bucket_of(t: i64) -> usize {
    t.div_euclid(BUCKET_MS).rem_euclid(BUCKETS as i64) as usize
}

impl EventQueue {
    /// Queues `pending` at `key` (unique: the world's sequence numbers only grow).
    pub fn insert(&mut self, key: QueueKey, pending: Pending) {
        let t = key.0;
        let place = if t >= self.cursor && t < self.horizon {
            First::Wheel(self.wheel.push(key, pending))
        } else if t >= self.horizon && t < self.buckets_end() {
            self.put_in_bucket(Queued { key, pending })
        } else {
            self.far.push(Queued { key, pending });
            self.arrived_beyond(key, First::Far);
            First::Far
        };
        self.arrived(key, place);
    }

    /// An event came in at `key` in the far heap or a lane (`place`): is it the first there?
    fn arrived_beyond(&mut self, key: QueueKey, place: First) {
        if let Some(beyond) = &mut self.beyond
            && beyond.is_none_or(|(first, _)| key < first)
        {
            *beyond = Some((key, place));
        }
    }

    /// Puts `q` (due in the buckets' span) in its bucket; returns its place.
    fn put_in_bucket(&mut self, q: Queued) -> First {
        let b = bucket_of(q.key.0);
        self.buckets[b].push(q);
        self.bucketed += 1;
        First::Bucket(b, self.buckets[b].len() - 1)
    }

    /// Where the buckets end.
    fn buckets_end(&self) -> i64 {
        self.horizon + BUCKETS as i64 * BUCKET_MS
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
                self.arrived_beyond(key, First::Lane(lane));
                self.arrived(key, First::Lane(lane));
            }
        }
    }

    /// Looks for the first event: the wheel's, or (the wheel empty) the first bucket's, then
    /// the far heap's and every lane's front.
    fn find_first(&mut self) -> Option<(QueueKey, First)> {
        let mut first = self
            .wheel
            .next_occupied(Wheel::slot_of(self.cursor))
            .map(|s| (self.wheel.head_key(s), First::Wheel(s)));
        if first.is_none() && self.bucketed > 0 {
            first = (0..BUCKETS).find_map(|i| {
                let b = (bucket_of(self.horizon) + i) % BUCKETS;
                let (at, q) = self.buckets[b]
                    .iter()
                    .enumerate()
                    .min_by_key(|(_, q)| q.key)?;
                Some((q.key, First::Bucket(b, at)))
            });
        }
        let beyond = match self.beyond {
            Some(beyond) => beyond,
            None => {
                let beyond = self.find_beyond();
                self.beyond = Some(beyond);
                beyond
            }
        };
        match (first, beyond) {
            (Some((k, _)), Some((b, _))) if b < k => beyond,
            (None, _) => beyond,
            _ => first,
        }
    }

    /// The first of the far heap's event and every lane's front.
    fn find_beyond(&self) -> Option<(QueueKey, First)> {
        let mut first = self.far.peek().map(|q| (q.key, First::Far));
        for (i, (_, events)) in self.lanes.iter().enumerate() {
            if let Some(q) = events.front()
                && first.is_none_or(|(k, _)| q.key < k)
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
        let taken = match self.first?.1 {
            First::Wheel(s) => self.wheel.pop_head(s),
            First::Bucket(b, i) => {
                self.bucketed -= 1;
                let q = self.buckets[b].swap_remove(i);
                Some((q.key, q.pending))
            }
            First::Far => {
                self.beyond = None;
                self.far.pop().map(|q| (q.key, q.pending))
            }
            First::Lane(i) => {
                self.beyond = None;
                self.lanes[i].1.pop_front().map(|q| (q.key, q.pending))
            }
        };
        if let Some(((t, _), _)) = taken {
            self.turn_to(t);
        }
        self.first = self.find_first();
        taken
    }

    /// Nothing is due before `t` now: the cursor moves up to it, the buckets the wheel then
    /// reaches move into it, and the far events the buckets then reach move into them.
    fn turn_to(&mut self, t: i64) {
        if t <= self.cursor {
            return;
        }
        self.cursor = t;
        let reach = t + SLOTS as i64;
        if self.wheel.len == 0 && self.bucketed == 0 {
            // A jump over nothing (a quiet world): no bucket to move, one step.
            self.horizon = self.horizon.max(reach.div_euclid(BUCKET_MS) * BUCKET_MS);
        }
        while self.horizon + BUCKET_MS <= reach {
            let b = bucket_of(self.horizon);
            let mut events = core::mem::take(&mut self.buckets[b]);
            self.bucketed -= events.len();
            // In the order they were queued: to the end of their millisecond's list, mostly.
            for q in events.drain(..) {
                self.wheel.push(q.key, q.pending);
            }
            self.buckets[b] = events;
            self.horizon += BUCKET_MS;
        }
        let end = self.buckets_end();
        while let Some(q) = self.far.peek()
            && q.key.0 >= self.horizon
            && q.key.0 < end
        {
            if let Some(q) = self.far.pop() {
                self.beyond = None;
                self.put_in_bucket(q);
            }
        }
    }

    /// Every event, in order (sorted on each call: for the rare readers that want the order).
    pub fn iter(&self) -> impl Iterator<Item = (QueueKey, &Pending)> {
        let mut all: Vec<(QueueKey, &Pending)> = self
            .wheel
            .iter()
            .chain(
                self.buckets
                    .iter()
                    .flatten()
                    .chain(self.far.iter())
                    .chain(self.lanes.iter().flat_map(|(_, events)| events.iter()))
                    .map(|q| (q.key, &q.pending)),
            )
            .collect();
        all.sort_unstable_by_key(|(key, _)| *key);
        all.into_iter()
    }

    /// Takes the event at `key` off, wherever it is.
    pub fn remove(&mut self, key: QueueKey) -> Option<Pending> {
        let taken = self.take(key);
        self.beyond = None;
        self.first = self.find_first();
        taken
    }

    fn take(&mut self, key: QueueKey) -> Option<Pending> {
        for (_, events) in &mut self.lanes {
            if let Ok(i) = events.binary_search_by_key(&key, |q| q.key) {
                return events.remove(i).map(|q| q.pending);
            }
        }
        let t = key.0;
        if t >= self.cursor
            && t < self.horizon
            && let Some(pending) = self.wheel.remove(key)
        {
            return Some(pending);
        }
        let bucket = &mut self.buckets[bucket_of(t)];
        if let Some(i) = bucket.iter().position(|q| q.key == key) {
            self.bucketed -= 1;
            return Some(bucket.swap_remove(i).pending);
        }
        let mut all = core::mem::take(&mut self.far).into_vec();
        let taken = all
            .iter()
            .position(|q| q.key == key)
            .map(|i| all.swap_remove(i).pending);
        self.far = BinaryHeap::from(all);
        taken
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::collections::BTreeMap;
    use group_coordinator::rng::Rng;
    use proptest::prelude::*;

    /// Drives the queue as the world does (a clock that moves to each event taken off, keys
    /// never before it) and checks every answer against an ordered map: events due now, soon,
    /// at the wheel's edge, far ahead; put first (a lower sequence); in lanes; removed anywhere.
    fn agrees_with_an_ordered_map(seed: u64, steps: usize) {
        let mut rng = Rng::new(seed);
        let mut q = EventQueue::default();
        let mut map: BTreeMap<QueueKey, usize> = BTreeMap::new();
        let (mut now, mut seq, mut front) = (0i64, 1u64 << 40, 0u64);
        let delays = [
            0, 1, 3, 50, 3_000, 4_095, 4_096, 4_097, 9_000, 30_000, 200_000,
        ];
        for _ in 0..steps {
            match rng.upto(9) {
                0..=3 => {
                    seq += 1;
                    let key = (now + delays[rng.upto(10) as usize] + rng.upto(2), seq);
                    q.insert(key, start(seq as usize));
                    map.insert(key, seq as usize);
                }
                4 => {
                    seq += 1;
                    let delay = [30_000, 40_000, 5][rng.upto(2) as usize];
                    q.insert_after(delay, (now + delay, seq), start(seq as usize));
                    map.insert((now + delay, seq), seq as usize);
                }
                5 => {
                    front += 1;
                    q.insert((now, front), start(front as usize));
                    map.insert((now, front), front as usize);
                }
                6 if !map.is_empty() => {
                    let nth = rng.upto(map.len() as i64 - 1) as usize;
                    let key = *map.keys().nth(nth).unwrap();
                    assert_eq!(q.remove(key).as_ref().map(index), map.remove(&key));
                }
                _ => {
                    let popped = q.pop_first().map(|(k, p)| (k, index(&p)));
                    assert_eq!(popped, map.pop_first());
                    if let Some(((t, _), _)) = popped {
                        now = t;
                    }
                }
            }
            assert_eq!(q.first_key(), map.keys().next().copied());
        }
        let listed: Vec<(QueueKey, usize)> = q.iter().map(|(k, p)| (k, index(p))).collect();
        assert_eq!(listed, map.into_iter().collect::<Vec<_>>());
    }

    #[test]
    fn a_long_run_pops_as_an_ordered_map() {
        agrees_with_an_ordered_map(11, 50_000);
    }

    proptest! {
        #[test]
        fn any_run_pops_as_an_ordered_map(seed in any::<u64>()) {
            agrees_with_an_ordered_map(seed, 2_000);
        }
    }

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
