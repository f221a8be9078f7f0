//! Ordered maps and sets built by inserting one item at a time.
//!
//! `collect()` into a `BTreeMap` or `BTreeSet` sorts its input first (then builds the tree in
//! bulk): one stable-sort instantiation per item type, about 4 KB of the page's wasm module
//! each. Off the hot paths, inserting costs no more and reuses the tree's insert code, which
//! every map has anyway.

use alloc::collections::{BTreeMap, BTreeSet};

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
