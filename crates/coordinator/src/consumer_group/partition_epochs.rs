//! Which partitions a consumer group's members hold, and at what epoch (Kafka's
//! `ConsumerGroup.currentPartitionEpoch`): a partition is free for a new owner only once the
//! member holding it (assigned, or pending revocation) has let it go.
//!
//! Per topic, a list by partition number, with a mark where the partition is free: every member update
//! that holds or releases partitions (each rebalance's new epoch, for every member) writes
//! them, and an ordered map of (topic id, partition) pairs cost a search with id comparisons per
//! partition (measured: most of a 300-member protocol upgrade's member updates). Kafka keeps a
//! hash map of hash maps; the lists iterate in (topic id, partition) order, as the ordered map
//! did.

use super::uuid::Uuid;
use alloc::collections::BTreeMap;
use alloc::vec::Vec;

/// A free partition's place in its topic's list: below every epoch a holder can have (a member
/// leaving holds at −1, a static member away at −2; the public answer for a free partition is
/// −1, as Kafka's).
const FREE: i32 = i32::MIN;

/// (topic id, partition) -> the holder's epoch; absent: free.
#[derive(Clone, Debug, Default)]
pub(crate) struct PartitionEpochs {
    topics: BTreeMap<Uuid, Vec<i32>>,
    held: usize,
}

impl PartitionEpochs {
    /// The epoch `partition` of `topic` is held at, if it is held.
    pub(crate) fn get(&self, topic: &Uuid, partition: i32) -> Option<i32> {
        let at = usize::try_from(partition).ok()?;
        let epoch = *self.topics.get(topic)?.get(at)?;
        (epoch != FREE).then_some(epoch)
    }

    /// Holds `partition` of `topic` at `epoch`; the epoch it was held at before, if it was.
    /// (A negative partition number is never held: no topic has one.)
    pub(crate) fn insert(&mut self, (topic, partition): (Uuid, i32), epoch: i32) -> Option<i32> {
        let at = usize::try_from(partition).ok()?;
        let list = self.topics.entry(topic).or_default();
        if list.len() <= at {
            list.resize(at + 1, FREE);
        }
        let before = core::mem::replace(&mut list[at], epoch);
        if before == FREE {
            self.held += 1;
            None
        } else {
            Some(before)
        }
    }

    /// Frees `partition` of `topic`; the epoch it was held at, if it was.
    pub(crate) fn remove(&mut self, &(topic, partition): &(Uuid, i32)) -> Option<i32> {
        let at = usize::try_from(partition).ok()?;
        let slot = self.topics.get_mut(&topic)?.get_mut(at)?;
        let before = core::mem::replace(slot, FREE);
        (before != FREE).then(|| {
            self.held -= 1;
            before
        })
    }

    /// How many partitions are held.
    pub(crate) fn len(&self) -> usize {
        self.held
    }

    /// The held partitions with their epochs, in (topic id, partition) order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = ((Uuid, i32), i32)> + '_ {
        self.topics.iter().flat_map(|(t, list)| {
            list.iter()
                .enumerate()
                .filter(|&(_, &epoch)| epoch != FREE)
                .map(move |(p, &epoch)| ((*t, p as i32), epoch))
        })
    }
}

impl PartitionEpochs {
    /// Whether exactly the partitions `holdings` list are held, each listed once, at the epoch
    /// listed with it: `holdings` gives each holder's (topic, partitions, epoch). One walk of
    /// the holdings, each looked up in its topic's list: the group's invariant check asks at
    /// every change of state, and a sorted list of the holdings compared with these was most of
    /// that check. (`false` says only that something differs: the check then looks for what.)
    pub(crate) fn are_exactly<'h>(
        &self,
        holdings: impl IntoIterator<Item = (&'h Uuid, &'h [i32], i32)>,
    ) -> bool {
        let mut seen: BTreeMap<Uuid, Vec<bool>> = self
            .topics
            .iter()
            .map(|(t, list)| (*t, alloc::vec![false; list.len()]))
            .collect();
        let mut listed = 0;
        for (topic, partitions, epoch) in holdings {
            let (Some(list), Some(seen)) = (self.topics.get(topic), seen.get_mut(topic)) else {
                return false;
            };
            for &p in partitions {
                let at = usize::try_from(p).unwrap_or(usize::MAX);
                match (list.get(at), seen.get_mut(at)) {
                    (Some(&held), Some(once)) if held == epoch && held != FREE && !*once => {
                        *once = true;
                        listed += 1;
                    }
                    _ => return false,
                }
            }
        }
        listed == self.held
    }
}

/// Equal when the same partitions are held at the same epochs (however long the lists grew).
impl PartialEq for PartitionEpochs {
    fn eq(&self, other: &Self) -> bool {
        self.held == other.held && self.iter().eq(other.iter())
    }
}

impl Eq for PartitionEpochs {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against an ordered map of (topic, partition) pairs, through random holds and releases:
    /// the same answers, lengths, order and equality.
    #[test]
    fn partition_epochs_behave_as_an_ordered_map() {
        let mut ours = PartitionEpochs::default();
        let mut map: BTreeMap<(Uuid, i32), i32> = BTreeMap::new();
        let mut seed = 11u32;
        let mut next = |n: u32| {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (seed >> 16) % n
        };
        for step in 0..5_000 {
            let key = (Uuid::from_u128(u128::from(next(3))), next(12) as i32 - 1);
            // (From −2: a leaving member's epochs are held too.)
            let epoch = next(9) as i32 - 2;
            if next(3) == 0 {
                let expected = if key.1 < 0 { None } else { map.remove(&key) };
                assert_eq!(ours.remove(&key), expected, "step {step}");
            } else {
                let expected = if key.1 < 0 {
                    None
                } else {
                    map.insert(key, epoch)
                };
                assert_eq!(ours.insert(key, epoch), expected, "step {step}");
            }
            assert_eq!(
                ours.get(&key.0, key.1),
                map.get(&key).copied(),
                "step {step}"
            );
            assert_eq!(ours.len(), map.len(), "step {step}");
            let listed: Vec<((Uuid, i32), i32)> = ours.iter().collect();
            let expected: Vec<((Uuid, i32), i32)> = map.iter().map(|(k, e)| (*k, *e)).collect();
            assert_eq!(listed, expected, "step {step}");
        }
        // Equal by content, not by how long the lists grew.
        let mut grown = PartitionEpochs::default();
        grown.insert((Uuid::from_u128(1), 9), 4);
        grown.remove(&(Uuid::from_u128(1), 9));
        assert_eq!(grown, PartitionEpochs::default());
        grown.insert((Uuid::from_u128(1), 0), 4);
        assert_ne!(grown, PartitionEpochs::default());
    }

    /// The holdings that are exactly what is kept, and each way of not being so.
    #[test]
    fn holdings_are_exactly_what_is_kept_or_not() {
        let (t, u) = (Uuid::from_u128(1), Uuid::from_u128(2));
        let mut kept = PartitionEpochs::default();
        for (key, epoch) in [((t, 0), 3), ((t, 1), 3), ((t, 4), 5), ((u, 0), 5)] {
            kept.insert(key, epoch);
        }
        let are = |holdings: &[(&Uuid, &[i32], i32)]| kept.are_exactly(holdings.iter().copied());
        assert!(are(&[(&t, &[0, 1], 3), (&t, &[4], 5), (&u, &[0], 5)]));
        // In any order.
        assert!(are(&[(&u, &[0], 5), (&t, &[4], 5), (&t, &[1, 0], 3)]));
        // One missing; one twice (by two holders, or listed twice by one); another epoch; a
        // partition kept free; a topic not kept; a negative partition.
        assert!(!are(&[(&t, &[0, 1], 3), (&t, &[4], 5)]));
        assert!(!are(&[
            (&t, &[0, 1], 3),
            (&t, &[4], 5),
            (&u, &[0], 5),
            (&t, &[1], 3)
        ]));
        assert!(!are(&[(&t, &[0, 1, 1], 3), (&t, &[4], 5), (&u, &[0], 5)]));
        assert!(!are(&[(&t, &[0, 1], 3), (&t, &[4], 3), (&u, &[0], 5)]));
        assert!(!are(&[(&t, &[0, 1, 2], 3), (&t, &[4], 5), (&u, &[0], 5)]));
        let v = Uuid::from_u128(3);
        assert!(!are(&[
            (&t, &[0, 1], 3),
            (&t, &[4], 5),
            (&u, &[0], 5),
            (&v, &[0], 5)
        ]));
        assert!(!are(&[(&t, &[0, 1, -1], 3), (&t, &[4], 5), (&u, &[0], 5)]));
        assert!(PartitionEpochs::default().are_exactly([]));
    }
}
