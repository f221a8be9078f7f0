//! Values kept by correlation id while a request is in flight: who to answer, when it was sent.
//!
//! The world hands out correlation ids in increasing order and most requests are answered
//! soon, so the ids in use at any time are a short run of recent ones. They are kept in a
//! window indexed by `id - base` (a request's insert and its answer's remove are an index
//! each, where a B-tree searched and rebalanced its nodes at every message: measured, the
//! two maps were 7% of a run). An id the window does not cover (a live client's own ids, an
//! id below the window, an entry that outstays [`WINDOW`] later ids: a request lost on the
//! way, a JoinGroup the coordinator dropped) lives in an ordered map beside it.
//!
//! Nothing iterates the values, so where an id lives never shows.

use alloc::collections::{BTreeMap, VecDeque};

/// How many consecutive ids the window covers at most before its oldest entries move out.
const WINDOW: usize = 4096;

/// Ids above the window's end by at most this much extend it (the slots between stay empty);
/// further ones go to the ordered map.
const GAP: i64 = 64;

#[derive(Clone, Debug)]
pub struct ByCorrelation<V> {
    /// The id of `window[0]`.
    base: i64,
    window: VecDeque<Option<V>>,
    /// Ids outside `base..base + window.len()`.
    others: BTreeMap<i32, V>,
}

impl<V> Default for ByCorrelation<V> {
    fn default() -> Self {
        ByCorrelation {
            base: 0,
            window: VecDeque::new(),
            others: BTreeMap::new(),
        }
    }
}

impl<V> ByCorrelation<V> {
    /// The window slot of `id`, if the window covers it.
    fn slot(&self, id: i32) -> Option<usize> {
        let offset = i64::from(id) - self.base;
        (0..self.window.len() as i64)
            .contains(&offset)
            .then_some(offset as usize)
    }

    /// Keeps `value` for `id`, returning the value it replaces.
    pub fn insert(&mut self, id: i32, value: V) -> Option<V> {
        if let Some(i) = self.slot(id) {
            return self.window[i].replace(value);
        }
        let id64 = i64::from(id);
        if self.window.is_empty() {
            self.base = id64;
        }
        let end = self.base + self.window.len() as i64;
        if !(end..=end + GAP).contains(&id64) {
            return self.others.insert(id, value);
        }
        // The window grows to take `id`: ids it now covers leave the ordered map.
        let mut old = None;
        for covered in end..=id64 {
            let moved = self.others.remove(&(covered as i32));
            if covered == id64 {
                old = moved;
                self.window.push_back(Some(value));
                break;
            }
            self.window.push_back(moved);
        }
        while self.window.len() > WINDOW {
            if let Some(Some(v)) = self.window.pop_front() {
                self.others.insert(self.base as i32, v);
            }
            self.base += 1;
        }
        self.trim();
        old
    }

    pub fn get(&self, id: i32) -> Option<&V> {
        match self.slot(id) {
            Some(i) => self.window[i].as_ref(),
            None => self.others.get(&id),
        }
    }

    pub fn remove(&mut self, id: i32) -> Option<V> {
        let Some(i) = self.slot(id) else {
            return self.others.remove(&id);
        };
        let taken = self.window[i].take();
        self.trim();
        taken
    }

    /// Drops the empty slots at the window's front.
    fn trim(&mut self) {
        while let Some(None) = self.window.front() {
            self.window.pop_front();
            self.base += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use group_coordinator::rng::Rng;
    use proptest::prelude::*;

    /// Inserts, gets and removes as an ordered map does, whatever the ids: increasing with
    /// gaps (the world's), far ahead, below the window, negative, and entries that outstay
    /// the window.
    fn agrees_with_a_map(seed: u64, steps: usize) {
        let mut rng = Rng::new(seed);
        let mut ours = ByCorrelation::default();
        let mut map = BTreeMap::new();
        let mut next: i32 = 0;
        for step in 0..steps {
            let id = match rng.upto(9) {
                0..=3 => {
                    next += 1 + rng.upto(2) as i32;
                    next
                }
                4 => next - rng.upto(6000) as i32,
                5 => next + 60 + rng.upto(10) as i32,
                6 => i32::MIN + rng.upto(3) as i32,
                _ => next - rng.upto(20) as i32,
            };
            match rng.upto(3) {
                0 | 1 => assert_eq!(ours.insert(id, step), map.insert(id, step), "insert {id}"),
                2 => assert_eq!(ours.get(id), map.get(&id), "get {id}"),
                _ => assert_eq!(ours.remove(id), map.remove(&id), "remove {id}"),
            }
            assert!(ours.window.len() <= WINDOW);
            assert!(!matches!(ours.window.front(), Some(None)));
            if step % 101 != 0 {
                continue;
            }
            // Every id has one home.
            for (i, slot) in ours.window.iter().enumerate() {
                if slot.is_some() {
                    assert!(!ours.others.contains_key(&((ours.base + i as i64) as i32)));
                }
            }
        }
        for (id, v) in &map {
            assert_eq!(ours.get(*id), Some(v));
        }
    }

    #[test]
    fn a_long_run_agrees_with_an_ordered_map() {
        agrees_with_a_map(7, 20_000);
    }

    #[test]
    fn an_entry_that_outstays_the_window_is_still_found() {
        let mut m = ByCorrelation::default();
        m.insert(1, "lost on the way");
        for id in 2..=(WINDOW as i32 + 10) {
            m.insert(id, "answered");
            m.remove(id);
        }
        assert!(m.window.len() <= 1);
        assert_eq!(m.remove(1), Some("lost on the way"));
        assert_eq!(m.get(1), None);
    }

    proptest! {
        #[test]
        fn any_run_agrees_with_an_ordered_map(seed in any::<u64>()) {
            agrees_with_a_map(seed, 1_000);
        }
    }
}
