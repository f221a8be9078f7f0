//! Keyed timers, as Kafka's `CoordinatorTimer`: scheduling a key replaces its previous timer;
//! due timers fire in (deadline, scheduling sequence) order, so equal deadlines fire first-in,
//! first-out and the order never depends on anything but the inputs.

use crate::hashed::HashedMap;
use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::hash::Hash;
use group_coordinator_json::json;

/// A set of timers keyed by `K`, at most one per key.
///
/// The firing order is kept by (deadline, sequence) alone: the sequence is unique, so the key
/// has no part in it, and cancelling or firing a timer compares two integers instead of keys
/// (a heartbeat timer's key holds the group's and the member's ids, re-armed at every
/// heartbeat). A key is found by its hash ([`HashedMap`]): the order of keys is never read.
#[derive(Clone, Debug)]
pub struct TimerQueue<K: Ord + Clone + Hash> {
    by_key: HashedMap<K, (i64, u64)>,
    by_deadline: BTreeMap<(i64, u64), K>,
    next_sequence: u64,
}

impl<K: Ord + Clone + Hash> Default for TimerQueue<K> {
    fn default() -> Self {
        TimerQueue {
            by_key: HashedMap::default(),
            by_deadline: BTreeMap::new(),
            next_sequence: 0,
        }
    }
}

impl<K: Ord + Clone + Hash> TimerQueue<K> {
    /// Schedules `key` at `deadline`, replacing (cancelling) any timer with the same key.
    /// Returns the scheduling sequence number. The key is copied only when it is new (a
    /// heartbeat re-arms its member's timer without one).
    pub fn schedule(&mut self, key: &K, deadline: i64) -> u64 {
        let sequence = self.next_sequence;
        self.next_sequence += 1;
        match self.by_key.get_mut(key) {
            // Re-armed: the key stays where it is in `by_key`.
            Some(at) => {
                let old = core::mem::replace(at, (deadline, sequence));
                if let Some(k) = self.by_deadline.remove(&old) {
                    self.by_deadline.insert((deadline, sequence), k);
                }
            }
            None => {
                self.by_deadline.insert((deadline, sequence), key.clone());
                self.by_key.insert(key.clone(), (deadline, sequence));
            }
        }
        sequence
    }

    /// Cancels the timer of `key`; true if there was one.
    pub fn cancel(&mut self, key: &K) -> bool {
        match self.by_key.remove(key) {
            Some(at) => {
                self.by_deadline.remove(&at);
                true
            }
            None => false,
        }
    }

    pub fn deadline(&self, key: &K) -> Option<i64> {
        self.by_key.get(key).map(|&(deadline, _)| deadline)
    }

    pub fn contains(&self, key: &K) -> bool {
        self.by_key.contains_key(key)
    }

    /// The earliest deadline.
    pub fn next_deadline(&self) -> Option<i64> {
        self.by_deadline
            .first_key_value()
            .map(|((deadline, _), _)| *deadline)
    }

    /// Removes and returns the first timer (by deadline, then sequence) due at `now`, leaving in
    /// place the timers whose key `skip` accepts.
    pub fn pop_due_unless(&mut self, now: i64, skip: impl Fn(&K) -> bool) -> Option<(K, i64, u64)> {
        let (&(deadline, sequence), _) = self
            .by_deadline
            .iter()
            .take_while(|((deadline, _), _)| *deadline <= now)
            .find(|(_, key)| !skip(key))?;
        let key = self.by_deadline.remove(&(deadline, sequence))?;
        self.by_key.remove(&key);
        Some((key, deadline, sequence))
    }

    /// Every timer in firing order.
    pub fn iter(&self) -> impl Iterator<Item = (&K, i64)> {
        self.by_deadline
            .iter()
            .map(|((deadline, _), key)| (key, *deadline))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl<K: Ord + Clone + Hash> TimerQueue<K> {
        fn pop_due(&mut self, now: i64) -> Option<(K, i64, u64)> {
            self.pop_due_unless(now, |_| false)
        }

        fn len(&self) -> usize {
            self.iter().count()
        }
    }

    #[test]
    fn equal_deadlines_fire_in_scheduling_order_and_schedule_replaces() {
        let mut t = TimerQueue::default();
        t.schedule(&"b", 10);
        t.schedule(&"a", 10);
        t.schedule(&"c", 5);
        t.schedule(&"b", 10); // replaced: now after "a"
        assert_eq!(t.len(), 3);
        assert_eq!(t.next_deadline(), Some(5));
        assert_eq!(t.pop_due(4), None);
        let order: alloc::vec::Vec<_> =
            core::iter::from_fn(|| t.pop_due(10)).map(|x| x.0).collect();
        assert_eq!(order, ["c", "a", "b"]);
        assert_eq!(t.len(), 0);
    }

    #[test]
    fn cancel_removes() {
        let mut t = TimerQueue::default();
        t.schedule(&1, 3);
        assert!(t.cancel(&1));
        assert!(!t.cancel(&1));
        assert_eq!(t.next_deadline(), None);
    }
}

/// Kafka's timer keys (`docs/src/reference/classic-protocol.md#timers`): `join-<group>`, `sync-<group>`, `heartbeat-<group>-<member>`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TimerKey {
    Join(String),
    Sync(String),
    Heartbeat(String, String),
    /// The periodic offsets cleanup (`offsets.retention.check.interval.ms`) as it concerns one
    /// group: armed only while the group has something that can expire.
    OffsetsExpiration(String),
    /// A consumer group member's session (KIP-848): every heartbeat re-arms it; expiry fences.
    ConsumerSession(String, String),
    /// A consumer group member's time to revoke (its `RebalanceTimeoutMs`), armed when it enters
    /// UNREVOKED_PARTITIONS; expiry fences it if it is still at that epoch.
    ConsumerRebalance(String, String),
    /// A classic member of a consumer group told to rejoin (REBALANCE_IN_PROGRESS): its
    /// rebalance timeout to send JoinGroup; expiry fences it.
    ConsumerJoin(String, String),
    /// A classic member of a consumer group after its JoinGroup: its rebalance timeout to send
    /// SyncGroup; expiry fences it.
    ConsumerSync(String, String),
    /// A resolution of a consumer group's regular expressions under way (Kafka's executor task
    /// `<group>-regex`): its result applies when it fires.
    ConsumerRegexRefresh(String),
}

impl TimerKey {
    pub fn group_id(&self) -> &str {
        match self {
            TimerKey::Join(g)
            | TimerKey::Sync(g)
            | TimerKey::Heartbeat(g, _)
            | TimerKey::OffsetsExpiration(g)
            | TimerKey::ConsumerSession(g, _)
            | TimerKey::ConsumerRebalance(g, _)
            | TimerKey::ConsumerJoin(g, _)
            | TimerKey::ConsumerSync(g, _)
            | TimerKey::ConsumerRegexRefresh(g) => g,
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for TimerKey {
    /// As Kafka's key text (`join-<group>`, ...): what the page and the trace show.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "schema")]
scalar_schema!(TimerKey, { "type": "string" });

impl core::fmt::Display for TimerKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            TimerKey::Join(g) => write!(f, "join-{g}"),
            TimerKey::Sync(g) => write!(f, "sync-{g}"),
            TimerKey::Heartbeat(g, m) => write!(f, "heartbeat-{g}-{m}"),
            TimerKey::OffsetsExpiration(g) => write!(f, "offsets-expiration-{g}"),
            // Kafka's keys for these timers.
            TimerKey::ConsumerSession(g, m) => write!(f, "session-timeout-{g}-{m}"),
            TimerKey::ConsumerRebalance(g, m) => write!(f, "rebalance-timeout-{g}-{m}"),
            TimerKey::ConsumerJoin(g, m) => write!(f, "join-{g}-{m}"),
            TimerKey::ConsumerSync(g, m) => write!(f, "sync-{g}-{m}"),
            TimerKey::ConsumerRegexRefresh(g) => write!(f, "{g}-regex"),
        }
    }
}

/// A timer as the views show it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[json(out)]
pub struct TimerView {
    /// Kafka's key: `join-<group>`, `sync-<group>`, `heartbeat-<group>-<member>`.
    pub key: String,
    /// "join", "sync", "heartbeat" or "expiration" (the offsets cleanup) in a classic group;
    /// "join", "sync", "session", "rebalance" or "regex" (its refresh) in a consumer group.
    #[cfg_attr(feature = "schema", schemars(extend("tsType" = TimerView::KINDS)))]
    pub kind: String,
    /// The member of a heartbeat timer.
    pub member_id: Option<String>,
    pub deadline_ms: i64,
}

impl TimerView {
    /// Every `kind` as a TypeScript type (the declarations' for it, wherever a kind is shown).
    pub const KINDS: &str =
        r#""join" | "sync" | "heartbeat" | "expiration" | "session" | "rebalance" | "regex""#;

    /// The group's timers in firing order.
    pub(crate) fn of_group(timers: &TimerQueue<TimerKey>, group_id: &str) -> Vec<TimerView> {
        timers
            .iter()
            .filter(|(key, _)| key.group_id() == group_id)
            .map(|(key, deadline)| TimerView {
                key: key.to_string(),
                kind: String::from(match key {
                    TimerKey::Join(_) | TimerKey::ConsumerJoin(..) => "join",
                    TimerKey::Sync(_) | TimerKey::ConsumerSync(..) => "sync",
                    TimerKey::Heartbeat(..) => "heartbeat",
                    TimerKey::OffsetsExpiration(_) => "expiration",
                    TimerKey::ConsumerSession(..) => "session",
                    TimerKey::ConsumerRebalance(..) => "rebalance",
                    TimerKey::ConsumerRegexRefresh(_) => "regex",
                }),
                member_id: match key {
                    TimerKey::Heartbeat(_, m)
                    | TimerKey::ConsumerSession(_, m)
                    | TimerKey::ConsumerRebalance(_, m)
                    | TimerKey::ConsumerJoin(_, m)
                    | TimerKey::ConsumerSync(_, m) => Some(m.clone()),
                    _ => None,
                },
                deadline_ms: deadline,
            })
            .collect()
    }
}
