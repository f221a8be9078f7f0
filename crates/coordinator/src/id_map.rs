//! A map keyed by ids that lists its entries in id order, as a `BTreeMap<String, V>` does, and
//! finds one by the id's hash: a consumer group's members, looked up at every heartbeat and
//! commit, listed in id order by everything that walks them.
//!
//! In an ordered map each lookup goes down the tree comparing the id with a key at each step,
//! and each comparison follows that key's pointer to its bytes: at 1,000 members, a cache miss
//! per step. Measured in wasm, an hour of 1,000 consumer-protocol consumers without its trace:
//! 5.27-5.39 s with the ordered map, 4.76-5.07 s with this one; making each comparison of the
//! ordered map cheaper, tried first, saved nothing. Here the entries are one vector in id
//! order, and a hash table ([`HashedMap`]) gives an id's place in it: a lookup is a hash and
//! one comparison. A new id is put in its place in the order and the places after it
//! renumbered, which costs a walk of the entries; ids come and go far less often than they are
//! looked up (a join, a leave, against a heartbeat every few seconds).
//!
//! Ordered as `str` orders (byte order), so whatever lists the entries lists them as before.

use crate::compare::name_order;
use crate::hashed::{ByBytes, HashedMap};
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

#[derive(Clone)]
pub struct IdMap<V> {
    /// In id order.
    entries: Vec<(String, V)>,
    /// Each id's place in `entries`.
    places: HashedMap<String, u32>,
}

impl<V> Default for IdMap<V> {
    fn default() -> Self {
        IdMap {
            entries: Vec::new(),
            places: HashedMap::default(),
        }
    }
}

// As a `BTreeMap`'s: the entries in order.
impl<V: fmt::Debug> fmt::Debug for IdMap<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

// The entries (the places follow from them).
impl<V: PartialEq> PartialEq for IdMap<V> {
    fn eq(&self, other: &Self) -> bool {
        self.entries == other.entries
    }
}

impl<V: Eq> Eq for IdMap<V> {}

impl<V> IdMap<V> {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn place(&self, id: &str) -> Option<usize> {
        self.places.get(&ByBytes(id)).map(|&p| p as usize)
    }

    pub fn contains_key(&self, id: &str) -> bool {
        self.places.contains_key(&ByBytes(id))
    }

    pub fn get(&self, id: &str) -> Option<&V> {
        let p = self.place(id)?;
        self.entries.get(p).map(|(_, v)| v)
    }

    pub fn get_mut(&mut self, id: &str) -> Option<&mut V> {
        let p = self.place(id)?;
        self.entries.get_mut(p).map(|(_, v)| v)
    }

    /// Puts `value` at `id`; returns the value it replaces (the id keeps its place).
    pub fn insert(&mut self, id: String, value: V) -> Option<V> {
        if let Some(p) = self.place(&id) {
            return Some(core::mem::replace(&mut self.entries[p].1, value));
        }
        let p = self
            .entries
            .partition_point(|(k, _)| name_order(k, &id).is_lt());
        self.places.insert(id.clone(), p as u32);
        self.entries.insert(p, (id, value));
        self.renumber_from(p + 1);
        None
    }

    pub fn remove(&mut self, id: &str) -> Option<V> {
        let p = self.places.remove(&ByBytes(id))? as usize;
        let (_, value) = self.entries.remove(p);
        self.renumber_from(p);
        Some(value)
    }

    /// Keeps the entries `keep` accepts (in order, as `BTreeMap::retain`).
    pub fn retain(&mut self, mut keep: impl FnMut(&String, &mut V) -> bool) {
        let places = &mut self.places;
        self.entries.retain_mut(|(k, v)| {
            let kept = keep(k, v);
            if !kept {
                places.remove(&ByBytes(k));
            }
            kept
        });
        self.renumber_from(0);
    }

    /// The places of the entries from `from` on, after an entry came in or left before them.
    fn renumber_from(&mut self, from: usize) {
        for (p, (k, _)) in self.entries.iter().enumerate().skip(from) {
            if let Some(place) = self.places.get_mut(&ByBytes(k)) {
                *place = p as u32;
            }
        }
    }

    /// In id order.
    pub fn iter(
        &self,
    ) -> impl DoubleEndedIterator<Item = (&String, &V)> + ExactSizeIterator + Clone {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    pub fn iter_mut(
        &mut self,
    ) -> impl DoubleEndedIterator<Item = (&String, &mut V)> + ExactSizeIterator {
        self.entries.iter_mut().map(|(k, v)| (&*k, v))
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &String> + ExactSizeIterator + Clone {
        self.entries.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator + Clone {
        self.entries.iter().map(|(_, v)| v)
    }

    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut V> + ExactSizeIterator {
        self.entries.iter_mut().map(|(_, v)| v)
    }
}

impl<'a, V> IntoIterator for &'a IdMap<V> {
    type Item = (&'a String, &'a V);
    type IntoIter = core::iter::Map<
        core::slice::Iter<'a, (String, V)>,
        fn(&'a (String, V)) -> (&'a String, &'a V),
    >;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(k, v)| (k, v))
    }
}

/// As `BTreeMap`'s: the value at an id that must be there (panics if it is not).
impl<V> core::ops::Index<&str> for IdMap<V> {
    type Output = V;

    fn index(&self, id: &str) -> &V {
        self.get(id).expect("no entry with that id")
    }
}

impl<V> FromIterator<(String, V)> for IdMap<V> {
    fn from_iter<I: IntoIterator<Item = (String, V)>>(items: I) -> Self {
        let mut map = IdMap::new();
        for (k, v) in items {
            map.insert(k, v);
        }
        map
    }
}

/// A set of ids, found by their hashes, listed sorted (a classic group's members pending a
/// JoinGroup or a SyncGroup): each member is put in and taken out once a rebalance and looked
/// up at its requests, and the set is listed only by views and when the sync timer expires.
/// An ordered set went down the tree at each of those, following each compared id's pointer.
#[derive(Clone, Debug, Default)]
pub struct IdSet {
    ids: HashedMap<String, ()>,
}

impl IdSet {
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    pub fn contains(&self, id: &str) -> bool {
        self.ids.contains_key(&ByBytes(id))
    }

    /// Whether it was not there.
    pub fn insert(&mut self, id: String) -> bool {
        self.ids.insert(id, ()).is_none()
    }

    /// Whether it was there.
    pub fn remove(&mut self, id: &str) -> bool {
        self.ids.remove(&ByBytes(id)).is_some()
    }

    pub fn clear(&mut self) {
        self.ids = HashedMap::default();
    }

    /// The ids in byte order (as an ordered set lists them; never in the table's order).
    pub fn sorted(&self) -> impl Iterator<Item = &String> {
        let mut ids = self.ids.keys();
        ids.sort_unstable_by(|a, b| name_order(a, b));
        ids.into_iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use alloc::collections::BTreeMap;
    use alloc::format;

    /// Random insertions (new ids and replaced values), removals and retains against a
    /// `BTreeMap`: the same entries in the same order, each id found, no other.
    #[test]
    fn agrees_with_an_ordered_map() {
        let mut rng = Rng::new(5);
        let mut map: IdMap<u32> = IdMap::new();
        let mut model: BTreeMap<String, u32> = BTreeMap::new();
        // Ids with shared prefixes, of several lengths, some multi-byte.
        let id = |rng: &mut Rng| {
            let n = rng.upto(300);
            match rng.upto(3) {
                0 => format!("consumer-{n}"),
                1 => format!("consumer-{n}-é"),
                2 => format!("c{n}"),
                _ => format!("consumer-1-{n}-0f3a9b"),
            }
        };
        for step in 0..20_000u32 {
            match rng.upto(9) {
                0..=4 => {
                    let k = id(&mut rng);
                    assert_eq!(map.insert(k.clone(), step), model.insert(k, step));
                }
                5..=7 => {
                    let k = id(&mut rng);
                    assert_eq!(map.remove(&k), model.remove(&k));
                }
                8 if step % 50 == 0 => {
                    let third = |v: &u32| v.is_multiple_of(3);
                    map.retain(|_, v| !third(v));
                    model.retain(|_, v| !third(v));
                }
                _ => {
                    let k = id(&mut rng);
                    assert_eq!(map.get(&k), model.get(&k));
                    assert_eq!(map.contains_key(&k), model.contains_key(&k));
                    if let (Some(a), Some(b)) = (map.get_mut(&k), model.get_mut(&k)) {
                        *a += 1;
                        *b += 1;
                    }
                }
            }
            assert_eq!(map.len(), model.len());
            if step % 101 == 0 {
                assert!(map.iter().eq(model.iter()));
                assert!(map.keys().rev().eq(model.keys().rev()));
                for (k, v) in &model {
                    assert_eq!(map.get(k), Some(v));
                }
                assert_eq!(format!("{map:?}"), format!("{model:?}"));
            }
        }
    }

    /// The set against a `BTreeSet`: the same answers, and listed in the same order.
    #[test]
    fn the_set_agrees_with_an_ordered_set() {
        let mut rng = Rng::new(8);
        let mut set = IdSet::default();
        let mut model: alloc::collections::BTreeSet<String> = Default::default();
        for step in 0..10_000 {
            let id = match rng.upto(2) {
                0 => format!("consumer-{}", rng.upto(200)),
                1 => format!("consumer-{}-é", rng.upto(200)),
                _ => format!("c{}", rng.upto(200)),
            };
            match rng.upto(5) {
                0..=1 => assert_eq!(set.insert(id.clone()), model.insert(id)),
                2..=3 => assert_eq!(set.remove(&id), model.remove(&id)),
                4 if step % 500 == 0 => {
                    set.clear();
                    model.clear();
                }
                _ => assert_eq!(set.contains(&id), model.contains(&id)),
            }
            assert_eq!((set.len(), set.is_empty()), (model.len(), model.is_empty()));
            if step % 97 == 0 {
                assert!(set.sorted().eq(model.iter()));
            }
        }
    }
}
