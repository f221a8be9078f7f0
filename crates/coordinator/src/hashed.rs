//! A map that finds a key by its hash first, for keys that are only looked up, never listed:
//! the coordinator's timer keys and a classic group's member ids (and the simulator's trace,
//! for the names its packed entries keep by number). Ordering such keys compares
//! strings with long common prefixes (`consumer-17-…` against `consumer-18-…`) at every level of
//! a B-tree, at every heartbeat and commit; a word-at-a-time hash and one comparison of integers
//! per level cost less. Measured: the timers, 3% of an hour of 100 consumers natively; the member
//! ids, 10% of the page's "Your group" run of 300 consumers in wasm (8.4-8.6 s -> 7.6-7.8 s),
//! where looking members up had become the largest part.
//!
//! It has no iteration on purpose: the order of a hash table means nothing, and nothing a reader
//! sees may depend on it (its `Debug` says how many keys, not which). The hash is a fixed
//! function, the same on every target. A hash table in place of the first version's ordered map
//! of hashes: at 1,000 members each lookup went down a B-tree of hashes, then to a bucket, then
//! to the key, a cache miss each (measured: 13% of an hour of 1,000 consumers natively).

use crate::compare::same_bytes;
use alloc::vec::Vec;
use core::borrow::Borrow;
use core::fmt;
use core::hash::{BuildHasherDefault, Hash, Hasher};

/// A hash table ([`hashbrown`], without its randomly seeded hasher: this module's `WordHash`
/// is fixed).
#[derive(Clone)]
pub struct HashedMap<K, V> {
    table: hashbrown::HashMap<K, V, BuildHasherDefault<WordHash>>,
}

impl<K, V> Default for HashedMap<K, V> {
    fn default() -> Self {
        HashedMap {
            table: hashbrown::HashMap::default(),
        }
    }
}

// How many, never which: listing the keys would show the table's order.
impl<K, V> fmt::Debug for HashedMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HashedMap")
            .field("len", &self.table.len())
            .finish()
    }
}

impl<K: Hash + Eq, V> HashedMap<K, V> {
    /// The value at `key`: a `K`, a form it borrows as, or any other that hashes and compares
    /// as one ([`hashbrown::Equivalent`]).
    pub fn get<Q: Hash + hashbrown::Equivalent<K> + ?Sized>(&self, key: &Q) -> Option<&V> {
        self.table.get(key)
    }

    pub fn contains_key<Q: Hash + hashbrown::Equivalent<K> + ?Sized>(&self, key: &Q) -> bool {
        self.table.contains_key(key)
    }

    pub fn get_mut<Q: Hash + hashbrown::Equivalent<K> + ?Sized>(
        &mut self,
        key: &Q,
    ) -> Option<&mut V> {
        self.table.get_mut(key)
    }

    /// Inserts `value` at `key`, returning the value it replaces.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        self.table.insert(key, value)
    }

    pub fn remove<Q: Hash + hashbrown::Equivalent<K> + ?Sized>(&mut self, key: &Q) -> Option<V> {
        self.table.remove(key)
    }

    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// The keys in the table's order, which means nothing: for a caller that sorts them
    /// ([`crate::id_map::IdSet::sorted`]).
    pub(crate) fn keys(&self) -> Vec<&K> {
        self.table.keys().collect()
    }

    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }
}

/// A string key to look up by: it hashes as the `str` it holds, and is compared eight bytes at a
/// time (`compare::same_bytes`) where `==` on strings is `memcmp`, which wasm does byte by byte (a
/// member id is tens of bytes, looked up at every Heartbeat and OffsetCommit).
#[derive(Clone, Copy, Debug)]
pub struct ByBytes<'a>(pub &'a str);

impl Hash for ByBytes<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl<K: Borrow<str>> hashbrown::Equivalent<K> for ByBytes<'_> {
    fn equivalent(&self, key: &K) -> bool {
        same_bytes(self.0.as_bytes(), key.borrow().as_bytes())
    }
}

/// A word-at-a-time hash (as rustc's FxHash): eight bytes per multiply.
#[derive(Default)]
struct WordHash(u64);

impl WordHash {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for WordHash {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            let mut b = [0u8; 8];
            b.copy_from_slice(w);
            self.add(u64::from_le_bytes(b));
        }
        let rest = words.remainder();
        let mut b = [0u8; 8];
        b[..rest.len()].copy_from_slice(rest);
        self.add(u64::from_le_bytes(b) ^ ((rest.len() as u64) << 59));
    }

    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    // As 8 bytes on every target (an enum's discriminant is hashed as one).
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    fn write_isize(&mut self, i: isize) {
        self.add(i as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;
    use alloc::vec::Vec;

    fn hash_of<Q: Hash + ?Sized>(key: &Q) -> u64 {
        let mut h = WordHash::default();
        key.hash(&mut h);
        h.finish()
    }

    /// A key looked up by its bytes finds what the key itself finds, for ids of every length
    /// around the eight-byte reads (ids that differ in their first, middle or last byte).
    #[test]
    fn a_key_by_its_bytes_finds_what_the_key_finds() {
        let mut map: HashedMap<String, usize> = HashedMap::default();
        let ids: Vec<String> = (0..40)
            .flat_map(|n| {
                let base: String = (0..n).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
                let mut last = base.clone();
                if n > 0 {
                    last.replace_range(n - 1.., "!");
                }
                [base, last]
            })
            .collect();
        for (i, id) in ids.iter().enumerate() {
            map.insert(id.clone(), i);
        }
        for id in &ids {
            assert_eq!(map.get(&ByBytes(id)), map.get(id.as_str()), "{id}");
            assert!(map.contains_key(&ByBytes(id)));
            let mut other = id.clone();
            other.push('?');
            assert_eq!(map.get(&ByBytes(&other)), None, "{other}");
        }
        // The comparison itself, apart from the hash (which keeps most unequal ids apart).
        for a in &ids {
            for b in &ids {
                let same = hashbrown::Equivalent::equivalent(&ByBytes(a), b);
                assert_eq!(same, a == b, "{a} against {b}");
            }
        }
        let mut first = ids[30].clone();
        first.replace_range(..1, "#");
        assert_eq!(map.get(&ByBytes(&first)), None);
        assert_eq!(map.remove(&ByBytes(&ids[30])), Some(30));
        assert_eq!(map.get(&ByBytes(&ids[30])), None);
    }

    /// A key whose hash is the same for all: every key in one bucket.
    #[derive(Clone, Debug, PartialEq, Eq)]
    struct Colliding(u32);

    impl Hash for Colliding {
        fn hash<H: Hasher>(&self, state: &mut H) {
            state.write_u8(7);
        }
    }

    #[test]
    fn keys_whose_hashes_collide_are_kept_apart() {
        let mut m = HashedMap::default();
        for k in [1, 2, 3] {
            assert_eq!(m.insert(Colliding(k), k * 10), None);
        }
        assert_eq!(m.insert(Colliding(1), 5), Some(10));
        assert_eq!(m.get(&Colliding(1)), Some(&5));
        assert_eq!(m.get(&Colliding(2)), Some(&20));
        assert_eq!(m.remove(&Colliding(3)), Some(30));
        assert!(!m.contains_key(&Colliding(3)));
        assert_eq!(m.insert(Colliding(2), 21), Some(20));
        assert_eq!(m.remove(&Colliding(2)), Some(21));
        assert_eq!(m.remove(&Colliding(1)), Some(5));
        assert!(m.is_empty());
    }

    /// A `String` key is found by its `&str`: both hash alike (the `Borrow` contract).
    #[test]
    fn a_string_key_is_found_by_str() {
        let mut m = HashedMap::default();
        m.insert(String::from("consumer-17-a"), 1);
        m.insert(String::from("consumer-18-a"), 2);
        assert_eq!(m.get("consumer-17-a"), Some(&1));
        assert_eq!(m.get("consumer-18-a"), Some(&2));
        assert_eq!(m.get("consumer-19-a"), None);
        // Texts of every length around a word's 8 bytes hash apart.
        let texts: Vec<String> = (0..40).map(|n| "x".repeat(n)).collect();
        let mut hashes: Vec<u64> = texts.iter().map(|t| hash_of(t.as_str())).collect();
        hashes.sort_unstable();
        hashes.dedup();
        assert_eq!(hashes.len(), texts.len());
    }
}
