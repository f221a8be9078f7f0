//! Ordered maps and sets built by inserting one item at a time, and a stable sort that every
//! element type shares.
//!
//! `collect()` into a `BTreeMap` or `BTreeSet` sorts its input first (then builds the tree in
//! bulk), and `sort_by` compiles a sort for each element type and comparator: 3-5 KB of the
//! page's wasm module each. Off the hot paths, inserting costs no more and reuses the tree's
//! insert code, which every map has anyway; and [`sort_by`] sorts through one shared
//! instantiation. (The assignors keep their own sorts: there speed matters.)

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::vec::Vec;
use core::cmp::Ordering;

/// The map of `items`; a later item replaces an earlier one with the same key, as `collect()`.
pub fn map<K: Ord, V>(items: impl IntoIterator<Item = (K, V)>) -> BTreeMap<K, V> {
    let mut map = BTreeMap::new();
    map.extend(items);
    map
}

/// The set of `items`.
pub fn set<T: Ord>(items: impl IntoIterator<Item = T>) -> BTreeSet<T> {
    let mut set = BTreeSet::new();
    set.extend(items);
    set
}

/// Sorts `v` by `cmp`, stably, as `slice::sort_by` does: it sorts the positions (one sort of
/// `u32`s for every caller, comparing through `dyn`), then moves the items into that order.
pub fn sort_by<T>(v: &mut Vec<T>, mut cmp: impl FnMut(&T, &T) -> Ordering) {
    let items: &Vec<T> = v;
    let order = positions(items.len(), &mut |a, b| cmp(&items[a], &items[b]));
    let mut slots: Vec<Option<T>> = v.drain(..).map(Some).collect();
    v.extend(order.iter().filter_map(|&i| slots[i as usize].take()));
}

/// Sorts `v` in its own order, as `slice::sort` does (see [`sort_by`]).
pub fn sort<T: Ord>(v: &mut Vec<T>) {
    sort_by(v, T::cmp);
}

/// Sorts `v` by `key`, stably, as `slice::sort_by_key` does (see [`sort_by`]).
pub fn sort_by_key<T, K: Ord>(v: &mut Vec<T>, mut key: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// `0..n` sorted by `cmp`, stably: the one sort instantiation behind [`sort_by`].
fn positions(n: usize, cmp: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<u32> {
    let mut order: Vec<u32> = (0..n as u32).collect();
    order.sort_by(|&a, &b| cmp(a as usize, b as usize));
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn sort_by_is_the_slice_sort_stable_included() {
        // Pairs sorted by their first half only: equal keys keep their order.
        let mut seed = 7u32;
        for n in [0usize, 1, 2, 5, 31, 200] {
            let v: Vec<(u8, u32)> = (0..n as u32)
                .map(|i| {
                    seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    ((seed >> 16) as u8 % 7, i)
                })
                .collect();
            let mut ours = v.clone();
            sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
            let mut std = v.clone();
            std.sort_by_key(|a| a.0);
            assert_eq!(ours, std);
            let mut by_key = v;
            sort_by_key(&mut by_key, |p| core::cmp::Reverse(p.0));
            let mut std_key = by_key.clone();
            std_key.sort_by_key(|p| core::cmp::Reverse(p.0));
            assert_eq!(by_key, std_key);
        }
        let mut words = vec!["b", "a", "c", "a"];
        sort_by(&mut words, |a, b| a.cmp(b));
        assert_eq!(words, ["a", "a", "b", "c"]);
    }
}
