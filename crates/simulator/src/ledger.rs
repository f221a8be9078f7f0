//! Who owns which partition, over time: the metrics (time unowned, moves, overlaps) and the
//! ownership invariant are both read from here.

use crate::trace::Tp;

/// A generation of one incarnation of the group: a deleted and recreated group starts its
/// generations again from 0.
pub type GroupGeneration = (u32, i32);
use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

#[derive(Clone, Debug, Default)]
pub struct Ledger {
    partitions: Partitions,
    /// Partitions owned now.
    owned: usize,
    /// Holdings of a consumer whose member the coordinator made anew while it still held them
    /// (`mark_zombie`): a zombie's, whatever generation the consumer joins next.
    zombie: alloc::collections::BTreeSet<(Tp, usize)>,
    pub overlap_ms: i64,
    pub moved: u64,
}

/// One partition's part of the ledger.
#[derive(Clone, Debug, Default)]
struct Partition {
    /// Current owners: (consumer, generation in which it was assigned).
    owners: Owners,
    /// The consumer that last got it.
    last_owner: Option<usize>,
    /// Owned once and unowned now, since when.
    unowned_since: Option<i64>,
    /// Time spent unowned after it was first owned (`Some` from its first owner on).
    unowned_ms: Option<i64>,
    /// Two owners at once (a zombie of an older generation), since when.
    overlap_since: Option<i64>,
}

/// Each topic's partitions, by partition number, the topics sorted by name. A partition is
/// found with one comparison of shared names and an index, where a map keyed by partition took
/// a walk down a tree of names (4% of an hour of 1,000 consumers, where every rebalance takes
/// 10,000 partitions again in the new generation). A slot never owned is as a partition the
/// ledger does not know: no owner, no time unowned.
#[derive(Clone, Debug, Default)]
struct Partitions(Vec<(Rc<str>, Vec<Partition>)>);

/// The most partitions a topic can have in a scenario: a partition number outside `0..` this is
/// not one of the world's, and the ledger refuses it rather than make room for it.
const MOST_PARTITIONS: usize = crate::scenario::MAX_PARTITIONS as usize;

impl Partitions {
    /// The place of `topic`: `Ok` when it is there. The world hands every holder of a topic the
    /// same shared name (`World::topic_name`), so the name's address is tried first, and names
    /// are compared only when that fails.
    fn topic(&self, topic: &Rc<str>) -> Result<usize, usize> {
        match self.0.iter().position(|(t, _)| Rc::ptr_eq(t, topic)) {
            Some(i) => Ok(i),
            None => self.0.binary_search_by(|(t, _)| (**t).cmp(&**topic)),
        }
    }

    /// `tp`'s entry, made (with the slots before it in its topic) if it has none yet; `None`
    /// for a partition number no topic of the world has.
    fn entry(&mut self, (topic, p): &Tp) -> Option<&mut Partition> {
        let p = usize::try_from(*p).ok().filter(|&p| p < MOST_PARTITIONS)?;
        let i = self.topic(topic).unwrap_or_else(|at| {
            self.0.insert(at, (topic.clone(), Vec::new()));
            at
        });
        let partitions = &mut self.0[i].1;
        if partitions.len() <= p {
            partitions.resize_with(p + 1, Partition::default);
        }
        Some(&mut partitions[p])
    }

    /// `tp`'s entry if it has one.
    fn get_mut(&mut self, (topic, p): &Tp) -> Option<&mut Partition> {
        let i = self.topic(topic).ok()?;
        self.0[i].1.get_mut(usize::try_from(*p).ok()?)
    }

    /// Every slot, in (topic, partition) order.
    fn iter(&self) -> impl Iterator<Item = (Tp, &Partition)> {
        self.0.iter().flat_map(|(topic, partitions)| {
            partitions
                .iter()
                .enumerate()
                .map(move |(p, partition)| ((topic.clone(), p as i32), partition))
        })
    }
}

/// A partition's current owners, (consumer, generation), in the order they took it: almost
/// always one, which is held without an allocation of its own (a checkpoint clones the ledger,
/// and one `Vec` per partition made that most of a large world's copy).
#[derive(Clone, Debug)]
enum Owners {
    One((usize, GroupGeneration)),
    Many(Vec<(usize, GroupGeneration)>),
}

impl Default for Owners {
    fn default() -> Self {
        Owners::Many(Vec::new())
    }
}

impl Owners {
    fn as_slice(&self) -> &[(usize, GroupGeneration)] {
        match self {
            Owners::One(owner) => core::slice::from_ref(owner),
            Owners::Many(owners) => owners,
        }
    }

    fn len(&self) -> usize {
        self.as_slice().len()
    }

    fn is_empty(&self) -> bool {
        self.as_slice().is_empty()
    }

    fn retain(&mut self, keep: impl Fn(&(usize, GroupGeneration)) -> bool) {
        match self {
            Owners::One(owner) if !keep(owner) => *self = Owners::default(),
            Owners::One(_) => {}
            Owners::Many(owners) => {
                owners.retain(keep);
                if let [owner] = owners[..] {
                    *self = Owners::One(owner);
                }
            }
        }
    }

    fn push(&mut self, owner: (usize, GroupGeneration)) {
        match self {
            Owners::One(first) => *self = Owners::Many(alloc::vec![*first, owner]),
            Owners::Many(owners) if owners.is_empty() => *self = Owners::One(owner),
            Owners::Many(owners) => owners.push(owner),
        }
    }
}

impl Ledger {
    /// `consumer` owns `tp` from generation `generation` (a member epoch, in the consumer
    /// protocol). Returns a violation if another consumer owns it in the same generation, or
    /// still holds it from an older generation after it has itself joined this one (it should
    /// have revoked it first). A zombie (removed from the group, frozen, cut off) holding it
    /// from an older generation is what both protocols allow: that is counted as overlap time,
    /// not a violation. So is a zombie taking it from an older generation than its holder's (a
    /// consumer-protocol member removed while it reconciled, which completes before it learns).
    pub fn acquire(
        &mut self,
        now: i64,
        consumer: usize,
        generation: GroupGeneration,
        tp: &Tp,
        describe: impl Fn(usize) -> (String, GroupGeneration),
    ) -> Option<String> {
        let Some(partition) = self.partitions.entry(tp) else {
            return Some(format!(
                "{} was given {}-{}, a partition no topic has",
                describe(consumer).0,
                tp.0,
                tp.1
            ));
        };
        let owners = &mut partition.owners;
        let mut violation = None;
        for &(other, other_generation) in owners.as_slice() {
            if other == consumer {
                continue;
            }
            let (other_name, other_now) = describe(other);
            if self.zombie.contains(&(tp.clone(), other)) {
                continue;
            }
            if other_generation == generation {
                violation = Some(format!(
                    "{}-{} is owned by {other_name} and {} in generation {}",
                    tp.0,
                    tp.1,
                    describe(consumer).0,
                    generation.1
                ));
            } else if other_generation < generation && other_now >= generation {
                violation = Some(format!(
                    "{other_name} joined generation {} still holding {}-{} from generation {}, now given to {}",
                    other_now.1,
                    tp.0,
                    tp.1,
                    other_generation.1,
                    describe(consumer).0
                ));
            }
        }
        if owners.is_empty() {
            self.owned += 1;
        }
        owners.retain(|&(c, _)| c != consumer);
        owners.push((consumer, generation));
        if !self.zombie.is_empty() {
            self.zombie.remove(&(tp.clone(), consumer));
        }
        if owners.len() > 1 {
            partition.overlap_since.get_or_insert(now);
        }
        let unowned = partition
            .unowned_since
            .take()
            .map_or(0, |since| now - since);
        *partition.unowned_ms.get_or_insert(0) += unowned;
        if let Some(previous) = partition.last_owner.replace(consumer)
            && previous != consumer
        {
            self.moved += 1;
        }
        violation
    }

    /// The coordinator made `consumer`'s member anew (a classic member whose old member was
    /// fenced, rejoining a consumer group with its old member id: Kafka 4.0 takes it in as a
    /// new member, and the client is not told): what it still holds, it holds as a zombie
    /// until it revokes it.
    pub fn mark_zombie(&mut self, consumer: usize) {
        for (tp, partition) in self.partitions.iter() {
            if partition
                .owners
                .as_slice()
                .iter()
                .any(|&(c, _)| c == consumer)
            {
                self.zombie.insert((tp, consumer));
            }
        }
    }

    pub fn release(&mut self, now: i64, consumer: usize, tp: &Tp) {
        if !self.zombie.is_empty() {
            self.zombie.remove(&(tp.clone(), consumer));
        }
        let Some(partition) = self.partitions.get_mut(tp) else {
            return;
        };
        let owners = &mut partition.owners;
        if owners.is_empty() {
            return;
        }
        owners.retain(|&(c, _)| c != consumer);
        if owners.len() <= 1
            && let Some(since) = partition.overlap_since.take()
        {
            self.overlap_ms += now - since;
        }
        if owners.is_empty() {
            self.owned -= 1;
            partition.unowned_since = Some(now);
        }
    }

    pub fn owned_count(&self) -> usize {
        self.owned
    }

    /// Total time unowned up to `now`, and per partition.
    pub fn unowned_until(&self, now: i64) -> (i64, Vec<(Tp, i64)>) {
        let mut per: Vec<(Tp, i64)> = Vec::new();
        let mut total = 0;
        for (tp, partition) in self.partitions.iter() {
            let Some(ms) = partition.unowned_ms else {
                continue;
            };
            let open = partition.unowned_since.map_or(0, |since| now - since);
            total += ms + open;
            per.push((tp, ms + open));
        }
        (total, per)
    }

    pub fn overlap_until(&self, now: i64) -> i64 {
        self.overlap_ms
            + self
                .partitions
                .iter()
                .filter_map(|(_, p)| p.overlap_since.map(|since| now - since))
                .sum::<i64>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tp(topic: &str, p: i32) -> Tp {
        (Rc::from(topic), p)
    }

    fn name(c: usize) -> (String, GroupGeneration) {
        (format!("c{c}"), (0, 1))
    }

    /// Partitions are read back in (topic, partition) order whatever order they were first
    /// owned in, a topic found by its name when its holder's copy is not the ledger's, and a
    /// slot never owned counted nowhere.
    #[test]
    fn partitions_read_back_in_order_by_name() {
        let mut ledger = Ledger::default();
        for (at, tp) in [tp("b", 3), tp("a", 1), tp("b", 0)].iter().enumerate() {
            assert_eq!(ledger.acquire(at as i64, 0, (0, 1), tp, name), None);
        }
        // Another copy of the name "b": the same partition.
        ledger.release(10, 0, &tp("b", 3));
        assert_eq!(ledger.owned_count(), 2);
        let (total, per) = ledger.unowned_until(15);
        let per: Vec<(String, i32, i64)> = per
            .into_iter()
            .map(|((t, p), ms)| (String::from(&*t), p, ms))
            .collect();
        assert_eq!(
            per,
            [("a".into(), 1, 0), ("b".into(), 0, 0), ("b".into(), 3, 5)]
        );
        assert_eq!(total, 5);
    }

    /// A partition number no topic can have is refused with a violation naming it, and
    /// changes nothing.
    #[test]
    fn a_partition_out_of_range_is_a_violation() {
        let mut ledger = Ledger::default();
        for p in [-1, MOST_PARTITIONS as i32] {
            let v = ledger.acquire(0, 0, (0, 1), &tp("t", p), name);
            assert_eq!(
                v.as_deref(),
                Some(format!("c0 was given t-{p}, a partition no topic has").as_str())
            );
            ledger.release(1, 0, &tp("t", p));
        }
        assert_eq!(ledger.owned_count(), 0);
        assert_eq!(ledger.unowned_until(5), (0, Vec::new()));
    }

    /// Two owners in one generation is a violation; the second owner after a release is a move.
    #[test]
    fn owners_and_moves() {
        let mut ledger = Ledger::default();
        let t = tp("t", 0);
        assert_eq!(ledger.acquire(0, 0, (0, 1), &t, name), None);
        let v = ledger.acquire(1, 1, (0, 1), &t, name);
        assert_eq!(
            v.as_deref(),
            Some("t-0 is owned by c0 and c1 in generation 1")
        );
        ledger.release(2, 0, &t);
        ledger.release(3, 1, &t);
        assert_eq!(ledger.acquire(4, 0, (0, 2), &t, name), None);
        assert_eq!(ledger.moved, 2);
        assert_eq!(ledger.overlap_until(4), 1);
    }
}
