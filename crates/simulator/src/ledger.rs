//! Who owns which partition, over time: the metrics (time unowned, moves, overlaps) and the
//! ownership invariant are both read from here.

use crate::trace::Tp;

/// A generation of one incarnation of the group: a deleted and recreated group starts its
/// generations again from 0.
pub type GroupGeneration = (u32, i32);
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

#[derive(Clone, Debug, Default)]
pub struct Ledger {
    /// Each partition's entry, made when it is first owned: one lookup per acquisition (a
    /// rebalance of 1,000 consumers moves 10,000 partitions), where five maps took five.
    partitions: BTreeMap<Key, Partition>,
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

/// A partition as the ledger's key: ordered as [`Tp`] is (topic name, then partition), with
/// the topic's names compared by pointer first. The world hands every holder of a topic the
/// same shared name (`World::topic_name`), so most comparisons on the way down the map are
/// two integers instead of two strings.
#[derive(Clone, Debug)]
struct Key(Tp);

impl Ord for Key {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        let ((a, p), (b, q)) = (&self.0, &other.0);
        if alloc::rc::Rc::ptr_eq(a, b) {
            p.cmp(q)
        } else {
            (&**a, p).cmp(&(&**b, q))
        }
    }
}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for Key {}

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
        let partition = self.partitions.entry(Key(tp.clone())).or_default();
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
        for (Key(tp), partition) in &self.partitions {
            if partition
                .owners
                .as_slice()
                .iter()
                .any(|&(c, _)| c == consumer)
            {
                self.zombie.insert((tp.clone(), consumer));
            }
        }
    }

    pub fn release(&mut self, now: i64, consumer: usize, tp: &Tp) {
        if !self.zombie.is_empty() {
            self.zombie.remove(&(tp.clone(), consumer));
        }
        let Some(partition) = self.partitions.get_mut(&Key(tp.clone())) else {
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
        for (Key(tp), partition) in &self.partitions {
            let Some(ms) = partition.unowned_ms else {
                continue;
            };
            let open = partition.unowned_since.map_or(0, |since| now - since);
            total += ms + open;
            per.push((tp.clone(), ms + open));
        }
        (total, per)
    }

    pub fn overlap_until(&self, now: i64) -> i64 {
        self.overlap_ms
            + self
                .partitions
                .values()
                .filter_map(|p| p.overlap_since.map(|since| now - since))
                .sum::<i64>()
    }
}
