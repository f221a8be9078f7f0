//! Ordered maps and sets built by inserting one item at a time, and a stable sort that every
//! element type shares.
//!
//! `collect()` into a `BTreeMap` or `BTreeSet` sorts its input first (then builds the tree in
//! bulk), and `sort_by` compiles a sort for each element type and comparator: 3-5 KB of the
//! page's wasm module each. Off the hot paths, inserting costs no more and reuses the tree's
//! insert code, which every map has anyway; and [`sort_by`] sorts through one shared
//! instantiation. (The assignors keep their own sorts: there speed matters.) [`by_partition`]
//! is the exception, for the checks run at every rebalance: partitions counted into place.

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

/// `items` sorted by partition, stably (the items of one partition in the order given), where
/// `key` gives an item's partition as (its topic's rank below `topics`, its number). A group's
/// partitions are dense (each topic's run from 0 to its count), so the items are counted into
/// place in two passes: at 10,000 partitions, sorting them by comparison was a third of the
/// assignment check of a 1,000-member group's rebalance (more than the assignor took) and the
/// most of a consumer group's invariant check. Keys spread wide (partitions that do not exist,
/// in an invalid assignment) are sorted by comparison instead.
pub fn by_partition<T: Copy>(
    mut items: Vec<T>,
    topics: usize,
    key: impl Fn(&T) -> (usize, i32),
) -> Vec<T> {
    let mut range = alloc::vec![(i32::MAX, i32::MIN); topics];
    for item in &items {
        let (t, p) = key(item);
        let (low, high) = &mut range[t];
        *low = (*low).min(p);
        *high = (*high).max(p);
    }
    // Where each topic's slots start, and the number of slots in all.
    let mut base = Vec::with_capacity(topics);
    let mut slots: u64 = 0;
    for &(low, high) in &range {
        base.push(slots as usize);
        if low <= high {
            slots += (i64::from(high) - i64::from(low) + 1) as u64;
        }
    }
    if slots > 4 * items.len() as u64 + 64 {
        sort_by_key(&mut items, &key);
        return items;
    }
    let slot = |item: &T| {
        let (t, p) = key(item);
        base[t] + (i64::from(p) - i64::from(range[t].0)) as usize
    };
    let mut start = alloc::vec![0usize; slots as usize + 1];
    for item in &items {
        start[slot(item) + 1] += 1;
    }
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    // (Every place is written below: the copy only gives the list its length.)
    let mut sorted = items.clone();
    for item in &items {
        let s = slot(item);
        sorted[start[s]] = *item;
        start[s] += 1;
    }
    sorted
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

    /// Dense keys (counted into place) and wide ones (sorted by comparison) give the same
    /// order: by (topic, partition), each partition's items in the order given.
    #[test]
    fn by_partition_is_a_stable_sort() {
        let dense = alloc::vec![((1, 2), 'a'), ((0, 1), 'b'), ((1, 2), 'c'), ((0, 0), 'd')];
        let wide = alloc::vec![
            ((1, 2), 'a'),
            ((0, i32::MIN), 'b'),
            ((1, 2), 'c'),
            ((0, i32::MAX), 'd')
        ];
        for items in [dense, wide] {
            let mut expected = items.clone();
            expected.sort_by_key(|&(k, _)| k);
            assert_eq!(by_partition(items, 2, |&(k, _)| k), expected);
        }
    }
}
