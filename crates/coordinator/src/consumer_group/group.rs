//! A consumer group (KIP-848) and its members: epochs, targets, partition epochs and the state
//! derived from them (`docs/src/reference/consumer-group-protocol.md#epochs`).

use super::assignor::{GroupAssignment, MemberAssignment};
use super::partition_epochs::PartitionEpochs;
use super::reconcile::{MemberState, Progress};
use super::uuid::Uuid;
use crate::id_map::IdMap;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

/// A topic as the coordinator's metadata image knows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopicImage {
    pub id: Uuid,
    pub partitions: i32,
    /// Per partition, the racks of its replicas (empty: unknown).
    pub racks: Vec<Vec<String>>,
}

/// The group's state, derived after every change (`docs/src/reference/consumer-group-protocol.md#states`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ConsumerGroupState {
    Empty,
    /// The inputs changed and the target is not recomputed yet.
    Assigning,
    /// Some member is not yet STABLE at the assignment epoch.
    Reconciling,
    Stable,
    Dead,
}

impl ConsumerGroupState {
    pub fn name(self) -> &'static str {
        match self {
            ConsumerGroupState::Empty => "Empty",
            ConsumerGroupState::Assigning => "Assigning",
            ConsumerGroupState::Reconciling => "Reconciling",
            ConsumerGroupState::Stable => "Stable",
            ConsumerGroupState::Dead => "Dead",
        }
    }
}

/// A member of a consumer group.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ConsumerGroupMember {
    pub member_id: String,
    pub instance_id: Option<String>,
    pub rack_id: Option<String>,
    pub client_id: String,
    pub rebalance_timeout_ms: i32,
    /// Sorted, without duplicates.
    pub subscribed_topic_names: Vec<String>,
    /// The member's `SubscribedTopicRegex` (RE2/J syntax); empty: none (Kafka keeps "" too).
    pub subscribed_topic_regex: String,
    pub server_assignor: Option<String>,
    pub progress: Progress,
    /// Set for a member that speaks the classic protocol (JoinGroup, SyncGroup, Heartbeat)
    /// inside the consumer group (Kafka's `ClassicMemberMetadata`).
    pub classic: Option<ClassicMemberMetadata>,
}

/// What the coordinator keeps of a classic member's JoinGroup: its session timeout (the
/// group's session timeout is not its own) and its protocols, whose metadata carries its
/// subscription and whose version its SyncGroup assignment is encoded in.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ClassicMemberMetadata {
    pub session_timeout_ms: i32,
    /// In the member's order of preference.
    pub supported_protocols: Vec<crate::protocol::JoinGroupRequestProtocol>,
}

impl ConsumerGroupMember {
    pub fn member_epoch(&self) -> i32 {
        self.progress.member_epoch
    }

    pub fn state(&self) -> MemberState {
        self.progress.state
    }

    /// Whether the member speaks the classic protocol (`useClassicProtocol`).
    pub fn uses_classic_protocol(&self) -> bool {
        self.classic.is_some()
    }

    /// STABLE at epoch `epoch`.
    pub fn is_reconciled_to(&self, epoch: i32) -> bool {
        self.progress.state == MemberState::Stable && self.progress.member_epoch == epoch
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConsumerGroup {
    pub group_id: String,
    /// The version of the group's inputs (members, subscriptions, subscribed topics' metadata).
    pub group_epoch: i32,
    /// The group epoch the target assignment was computed for.
    pub assignment_epoch: i32,
    /// By member id, in id order (see [`IdMap`]).
    pub members: IdMap<ConsumerGroupMember>,
    /// Member epoch -> how many members are STABLE at it (kept by `put_member` and
    /// `remove_member`, the only writers of `members`). The group is Stable when every member
    /// is STABLE at the assignment epoch: [`ConsumerGroup::state`] reads that here, where it
    /// walked every member, twice a heartbeat (measured: a tenth of a run of 100 consumers, and
    /// quadratic in the group's size).
    stable_by_epoch: BTreeMap<i32, usize>,
    /// How many members speak the classic protocol, and protocol name -> how many of them list
    /// it (kept as `stable_by_epoch` is; Kafka's `numClassicProtocolMembers` and
    /// `classicProtocolMembersSupportedProtocols`): a classic member's JoinGroup is checked
    /// against them, where it walked every member.
    classic_members: usize,
    classic_protocols: BTreeMap<String, usize>,
    /// Instance id -> member id.
    pub static_members: BTreeMap<String, String>,
    /// Member id -> its target assignment.
    pub target: IdMap<MemberAssignment>,
    /// The subscribed topics' metadata as last computed (name -> id, partitions).
    pub subscription_metadata: BTreeMap<String, (Uuid, i32)>,
    /// (topic, partition) -> the epoch of the member that holds it (assigned or pending
    /// revocation). Absent: free (−1).
    partition_epochs: PartitionEpochs,
    /// The coordinator has unloaded the group's partition (a failover under way): the group
    /// is kept as its records keep it, without timers, and answers NOT_COORDINATOR.
    pub unloaded: bool,
    /// The topics-image version `subscription_metadata` was computed at.
    pub topics_version: u64,
    /// Regex -> how many members subscribe to it (kept by `put_member` and `remove_member`).
    subscribed_regular_expressions: BTreeMap<String, usize>,
    /// Topic name -> how many times the members' subscriptions name it (Kafka's
    /// `subscribedTopicNames`; kept as `stable_by_epoch` is): the subscribed topics are read at
    /// every join, epoch bump and cleanup plan, and walking every member for them made a
    /// group's growth quadratic (1,000 consumer-protocol members joining one by one: a tenth of
    /// the first minute in wasm).
    subscribed_topic_names: BTreeMap<String, usize>,
    /// Regex -> the topics it was last resolved to (Kafka's `ConsumerGroupRegularExpression`
    /// records). A regex goes when its last subscriber does.
    pub resolved_regular_expressions: BTreeMap<String, ResolvedRegularExpression>,
    /// A resolution under way (Kafka's executor task `<group>-regex`): computed when it was
    /// scheduled, against that metadata image, and applied when its timer fires.
    pub(crate) regex_refresh: Option<BTreeMap<String, ResolvedRegularExpression>>,
}

/// A regular expression resolved against a metadata image: the topics it matched, the image's
/// version and when it was resolved.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ResolvedRegularExpression {
    /// Sorted.
    pub topics: Vec<String>,
    pub version: u64,
    pub timestamp: i64,
}

/// How a topic is subscribed to: by how many members by name, and by how many resolved regular
/// expressions (Kafka's `SubscriptionCount`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SubscriptionCount {
    pub by_name: usize,
    pub by_regex: usize,
}

impl ConsumerGroup {
    pub fn new(group_id: &str) -> ConsumerGroup {
        ConsumerGroup {
            group_id: String::from(group_id),
            group_epoch: 0,
            assignment_epoch: 0,
            members: IdMap::new(),
            stable_by_epoch: BTreeMap::new(),
            classic_members: 0,
            classic_protocols: BTreeMap::new(),
            static_members: BTreeMap::new(),
            target: IdMap::new(),
            subscription_metadata: BTreeMap::new(),
            partition_epochs: PartitionEpochs::default(),
            unloaded: false,
            topics_version: 0,
            subscribed_regular_expressions: BTreeMap::new(),
            subscribed_topic_names: BTreeMap::new(),
            resolved_regular_expressions: BTreeMap::new(),
            regex_refresh: None,
        }
    }

    pub fn state(&self) -> ConsumerGroupState {
        if self.members.is_empty() {
            ConsumerGroupState::Empty
        } else if self.group_epoch > self.assignment_epoch {
            ConsumerGroupState::Assigning
        } else if self.stable_at(self.assignment_epoch) != self.members.len() {
            ConsumerGroupState::Reconciling
        } else {
            ConsumerGroupState::Stable
        }
    }

    /// The epoch of the partition's holder; −1 when free.
    pub fn partition_epoch(&self, topic: &Uuid, partition: i32) -> i32 {
        self.partition_epochs.get(topic, partition).unwrap_or(-1)
    }

    /// How many members speak the classic protocol.
    pub fn num_classic_members(&self) -> usize {
        self.classic_members
    }

    /// `supportsClassicProtocols`: a classic member may join when its protocol type is
    /// `consumer` and one of its protocols is supported by every classic member already in
    /// (any, when there is none).
    pub fn supports_classic_protocols(&self, protocol_type: &str, names: &[&str]) -> bool {
        if protocol_type != crate::consumer_protocol::PROTOCOL_TYPE {
            return false;
        }
        if self.members.is_empty() {
            return !names.is_empty();
        }
        names.iter().any(|name| {
            self.classic_protocols.get(*name).copied().unwrap_or(0) == self.classic_members
        })
    }

    /// `allMembersUseClassicProtocolExcept`: `member_id` speaks the consumer protocol and is the
    /// only one who does.
    pub fn all_members_use_classic_protocol_except(&self, member_id: &str) -> bool {
        self.members
            .get(member_id)
            .is_some_and(|m| !m.uses_classic_protocol())
            && self.num_classic_members() + 1 == self.members.len()
    }

    /// `waitingOnUnreleasedPartition`: the member waits for a partition of its target that
    /// another member still holds.
    pub fn waiting_on_unreleased_partition(&self, member: &ConsumerGroupMember) -> bool {
        if member.state() != MemberState::UnreleasedPartitions {
            return false;
        }
        let Some(target) = self.target.get(&member.member_id) else {
            return false;
        };
        target.iter().any(|(t, ps)| {
            ps.iter().any(|p| {
                !member
                    .progress
                    .assigned
                    .get(t)
                    .is_some_and(|a| a.contains(p))
                    && self.partition_epoch(t, *p) != -1
            })
        })
    }

    pub fn static_member(&self, instance_id: &str) -> Option<&ConsumerGroupMember> {
        self.static_members
            .get(instance_id)
            .and_then(|m| self.members.get(m))
    }

    /// How many members are STABLE at `epoch`.
    fn stable_at(&self, epoch: i32) -> usize {
        self.stable_by_epoch.get(&epoch).copied().unwrap_or(0)
    }

    /// Counts `member` in (`true`) or out of [`Self::stable_by_epoch`].
    fn count_stable(&mut self, member: &ConsumerGroupMember, counted: bool) {
        if member.progress.state != MemberState::Stable {
            return;
        }
        let epoch = member.progress.member_epoch;
        let count = self.stable_by_epoch.entry(epoch).or_default();
        if counted {
            *count += 1;
        } else {
            *count = count.saturating_sub(1);
            if *count == 0 {
                self.stable_by_epoch.remove(&epoch);
            }
        }
    }

    /// Counts a classic member in (`true`) or out of [`Self::classic_members`] and
    /// [`Self::classic_protocols`] (each name it lists once).
    fn count_classic(&mut self, member: &ConsumerGroupMember, counted: bool) {
        let Some(classic) = &member.classic else {
            return;
        };
        self.classic_members = if counted {
            self.classic_members + 1
        } else {
            self.classic_members.saturating_sub(1)
        };
        for name in classic_protocol_names(classic) {
            count(&mut self.classic_protocols, name, counted);
        }
    }

    /// Puts `member` in (replacing its previous version): its partitions' epochs follow it.
    pub(crate) fn put_member(&mut self, member: ConsumerGroupMember) {
        // The members are set aside while the group's counts follow the change (none of them
        // reads the members): the member is found once and replaced where it is, and its id
        // is copied only when it is new. (At 1,000 members, a removal and an insertion were
        // two more searches of the map at every reconciliation step.)
        let mut members = core::mem::take(&mut self.members);
        match members.get_mut(&member.member_id) {
            // Most heartbeats change nothing: the member stays as it is, its partitions held.
            Some(slot) if *slot == member => {}
            Some(slot) => {
                let old = core::mem::replace(slot, member);
                self.count_change(Some(&old), slot);
            }
            None => {
                self.count_change(None, &member);
                members.insert(member.member_id.clone(), member);
            }
        }
        self.members = members;
    }

    /// The group's counts, partition epochs and static members follow `member` replacing `old`
    /// (or joining).
    fn count_change(&mut self, old: Option<&ConsumerGroupMember>, member: &ConsumerGroupMember) {
        if let Some(old) = old {
            self.release_partitions(old, Some(member));
            self.count_stable(old, false);
            self.count_classic(old, false);
            if old.subscribed_topic_names != member.subscribed_topic_names {
                count_names(&mut self.subscribed_topic_names, old, false);
                count_names(&mut self.subscribed_topic_names, member, true);
            }
        } else {
            count_names(&mut self.subscribed_topic_names, member, true);
        }
        self.count_stable(member, true);
        self.count_classic(member, true);
        let old_regex = old.map(|o| o.subscribed_topic_regex.as_str());
        if old_regex != Some(member.subscribed_topic_regex.as_str()) {
            if let Some(old_regex) = old_regex {
                self.unsubscribe_regex(old_regex);
            }
            if !member.subscribed_topic_regex.is_empty() {
                count(
                    &mut self.subscribed_regular_expressions,
                    &member.subscribed_topic_regex,
                    true,
                );
            }
        }
        self.hold_partitions(member);
        if let Some(instance) = &member.instance_id {
            self.static_members
                .insert(instance.clone(), member.member_id.clone());
        }
    }

    /// Installs a new target assignment, given in member-id order over the members and
    /// `joining` (which may not be a member yet). Targets are replaced in place: no member id
    /// is copied except a newcomer's.
    pub(crate) fn set_target(&mut self, joining: &str, target: GroupAssignment) {
        let newcomer = (!self.members.contains_key(joining)).then_some(joining);
        let mut ids = self.members.keys().map(String::as_str).peekable();
        let mut pending = newcomer;
        for i in 0..target.len() {
            let id = match (pending, ids.peek()) {
                (Some(n), Some(&next)) if n < next => pending.take(),
                (Some(_), None) => pending.take(),
                _ => ids.next(),
            };
            let Some(id) = id else { break };
            match self.target.get_mut(id) {
                Some(slot) if target.member_equals(i, slot) => {}
                Some(slot) => *slot = target.member_assignment(i),
                None => {
                    self.target
                        .insert(String::from(id), target.member_assignment(i));
                }
            }
        }
        // Targets of members gone since (none are expected: leaving takes the target along).
        if self.target.len() > self.members.len() + usize::from(newcomer.is_some()) {
            let members = &self.members;
            self.target
                .retain(|id, _| members.contains_key(id) || Some(id.as_str()) == newcomer);
        }
    }

    /// Takes the member out with its target and its partitions' epochs.
    pub(crate) fn remove_member(&mut self, member_id: &str) -> Option<ConsumerGroupMember> {
        let old = self.members.remove(member_id)?;
        self.release_partitions(&old, None);
        self.count_stable(&old, false);
        self.count_classic(&old, false);
        count_names(&mut self.subscribed_topic_names, &old, false);
        self.unsubscribe_regex(&old.subscribed_topic_regex);
        self.target.remove(member_id);
        if let Some(instance) = &old.instance_id
            && self.static_members.get(instance).map(String::as_str) == Some(member_id)
        {
            self.static_members.remove(instance);
        }
        Some(old)
    }

    /// One subscriber fewer; the last one takes the resolution along (Kafka writes its
    /// tombstone).
    fn unsubscribe_regex(&mut self, regex: &str) {
        if regex.is_empty() {
            return;
        }
        if let Some(n) = self.subscribed_regular_expressions.get_mut(regex) {
            *n -= 1;
            if *n == 0 {
                self.subscribed_regular_expressions.remove(regex);
                self.resolved_regular_expressions.remove(regex);
            }
        }
    }

    /// How many regular expressions the members subscribe to.
    pub fn num_subscribed_regular_expressions(&self) -> usize {
        self.subscribed_regular_expressions.len()
    }

    /// How many members subscribe to `regex`.
    pub fn num_subscribed_members(&self, regex: &str) -> usize {
        self.subscribed_regular_expressions
            .get(regex)
            .copied()
            .unwrap_or(0)
    }

    /// Regex -> subscribers, with `updated` in place of its previous version and `replacing`
    /// left out (Kafka's `computeSubscribedRegularExpressions`).
    pub(crate) fn subscribed_regular_expressions(
        &self,
        replacing: Option<&str>,
        updated: Option<&ConsumerGroupMember>,
    ) -> BTreeMap<String, usize> {
        let mut counts = self.subscribed_regular_expressions.clone();
        let previous = [replacing, updated.map(|u| u.member_id.as_str())];
        for old in previous
            .into_iter()
            .flatten()
            .filter_map(|id| self.members.get(id))
        {
            if let Some(n) = counts.get_mut(&old.subscribed_topic_regex) {
                *n -= 1;
                if *n == 0 {
                    counts.remove(&old.subscribed_topic_regex);
                }
            }
        }
        if let Some(u) = updated.filter(|u| !u.subscribed_topic_regex.is_empty()) {
            *counts.entry(u.subscribed_topic_regex.clone()).or_default() += 1;
        }
        counts
    }

    /// The topics a member subscribes to: its names, and what its regex resolved to.
    pub fn member_subscribed_topics<'a>(
        &'a self,
        m: &'a ConsumerGroupMember,
    ) -> impl Iterator<Item = &'a String> {
        let resolved = self
            .resolved_regular_expressions
            .get(&m.subscribed_topic_regex)
            .map(|r| r.topics.as_slice())
            .unwrap_or_default();
        m.subscribed_topic_names.iter().chain(resolved)
    }

    /// When the regular expressions were last resolved (all are resolved together); `i64::MIN`
    /// when none is (Kafka's `lastResolvedRegularExpressionRefreshTimeMs`).
    pub(crate) fn last_regex_refresh_ms(&self) -> i64 {
        self.resolved_regular_expressions
            .values()
            .map(|r| r.timestamp)
            .min()
            .unwrap_or(i64::MIN)
    }

    /// The metadata version the regular expressions were resolved at; 0 when none is.
    pub(crate) fn last_regex_version(&self) -> u64 {
        self.resolved_regular_expressions
            .values()
            .map(|r| r.version)
            .min()
            .unwrap_or(0)
    }

    /// `m`'s partitions at its epoch (most were held already, by its previous version: their
    /// entries are rewritten in place).
    fn hold_partitions(&mut self, m: &ConsumerGroupMember) {
        let epoch = m.progress.member_epoch;
        for set in [&*m.progress.assigned, &*m.progress.pending_revocation] {
            for (t, ps) in set {
                for p in ps {
                    self.partition_epochs.insert((*t, *p), epoch);
                }
            }
        }
    }

    /// Releases what `old` holds, except what `kept_by` (the member's next version, about to
    /// be put in) goes on holding: `hold_partitions` rewrites those entries.
    fn release_partitions(
        &mut self,
        old: &ConsumerGroupMember,
        kept_by: Option<&ConsumerGroupMember>,
    ) {
        let keeps = |t: &Uuid, p: &i32| {
            kept_by.is_some_and(|m| {
                [&m.progress.assigned, &m.progress.pending_revocation]
                    .iter()
                    .any(|set| set.get(t).is_some_and(|ps| ps.contains(p)))
            })
        };
        for set in [&*old.progress.assigned, &*old.progress.pending_revocation] {
            for (t, ps) in set {
                for p in ps {
                    if !keeps(t, p) {
                        self.partition_epochs.remove(&(*t, *p));
                    }
                }
            }
        }
    }

    /// Topic name -> how it is subscribed to, with `updated` in place of its previous version
    /// and `replacing` left out: by the members' names, and by the resolved regular expressions
    /// that keep a subscriber (Kafka's `computeSubscribedTopicNames`).
    pub(crate) fn subscribed_topic_counts(
        &self,
        replacing: Option<&str>,
        updated: Option<&ConsumerGroupMember>,
    ) -> BTreeMap<String, SubscriptionCount> {
        // The group's counts, the previous versions of `replacing` and `updated` taken out and
        // `updated` put in.
        let mut by_name: BTreeMap<&str, usize> = self
            .subscribed_topic_names
            .iter()
            .map(|(t, n)| (t.as_str(), *n))
            .collect();
        let updated_id = updated.map(|u| u.member_id.as_str());
        let previous = [replacing, updated_id.filter(|&u| Some(u) != replacing)];
        for old in previous
            .into_iter()
            .flatten()
            .filter_map(|id| self.members.get(id))
        {
            for t in &old.subscribed_topic_names {
                if let Some(n) = by_name.get_mut(t.as_str()) {
                    *n = n.saturating_sub(1);
                }
            }
        }
        for t in updated.iter().flat_map(|u| &u.subscribed_topic_names) {
            *by_name.entry(t).or_default() += 1;
        }
        let mut counts: BTreeMap<String, SubscriptionCount> =
            crate::ordered::map(by_name.into_iter().filter(|&(_, n)| n > 0).map(|(t, n)| {
                let count = SubscriptionCount {
                    by_name: n,
                    by_regex: 0,
                };
                (String::from(t), count)
            }));
        if !self.resolved_regular_expressions.is_empty() {
            let regexes = self.subscribed_regular_expressions(replacing, updated);
            for (regex, resolved) in &self.resolved_regular_expressions {
                if regexes.contains_key(regex) {
                    for t in &resolved.topics {
                        counts.entry(t.clone()).or_default().by_regex += 1;
                    }
                }
            }
        }
        counts
    }

    /// Kafka's `subscriptionType`: without regular expressions, homogeneous iff every
    /// subscribed topic is named by all `members`; with them, iff every member subscribes to one
    /// and the same regex and no topic is also named or matched twice.
    pub(crate) fn subscription_type(
        regexes: &BTreeMap<String, usize>,
        topics: &BTreeMap<String, SubscriptionCount>,
        members: usize,
    ) -> super::assignor::SubscriptionType {
        use super::assignor::SubscriptionType::{Heterogeneous, Homogeneous};
        let homogeneous = match regexes.values().next() {
            None => topics.values().all(|c| c.by_name == members),
            Some(&n) => n == members && topics.values().all(|c| c.by_regex == 1 && c.by_name == 0),
        };
        if homogeneous {
            Homogeneous
        } else {
            Heterogeneous
        }
    }

    /// Checks the invariants of `docs/src/reference/consumer-group-protocol.md#epochs`: `memberEpoch ≤ assignmentEpoch ≤ groupEpoch` (a
    /// member at −2 is away), no partition held by two members, and the partition epochs are
    /// exactly the members' holdings.
    pub fn check_invariants(&self) -> Result<(), String> {
        if self.assignment_epoch > self.group_epoch {
            return Err(alloc::format!(
                "{}: assignment epoch {} > group epoch {}",
                self.group_id,
                self.assignment_epoch,
                self.group_epoch
            ));
        }
        let mut stable: BTreeMap<i32, usize> = BTreeMap::new();
        for m in self.members.values() {
            if m.progress.state == MemberState::Stable {
                *stable.entry(m.progress.member_epoch).or_default() += 1;
            }
        }
        if stable != self.stable_by_epoch {
            return Err(alloc::format!(
                "{}: STABLE members by epoch {:?}, counted {:?}",
                self.group_id,
                stable,
                self.stable_by_epoch
            ));
        }
        // The usual case, in one walk: the partition epochs are exactly the members' holdings,
        // each partition held once, and no member is past the assignment epoch. Otherwise the
        // holdings are sorted to find what is wrong (checked at every change of state: the
        // sorted list took most of the check).
        let holdings = self.members.values().flat_map(|m| {
            [&*m.progress.assigned, &*m.progress.pending_revocation]
                .into_iter()
                .flatten()
                .map(|(t, ps)| (t, ps.as_slice(), m.progress.member_epoch))
        });
        let in_step = self
            .members
            .values()
            .all(|m| m.progress.member_epoch <= self.assignment_epoch)
            && self.partition_epochs.are_exactly(holdings);
        let held = if in_step {
            None
        } else {
            Some(self.sorted_holdings()?)
        };
        let mut classic_protocols: BTreeMap<String, usize> = BTreeMap::new();
        let mut classic_members = 0;
        for classic in self.members.values().filter_map(|m| m.classic.as_ref()) {
            classic_members += 1;
            for name in classic_protocol_names(classic) {
                count(&mut classic_protocols, name, true);
            }
        }
        if (classic_members, &classic_protocols) != (self.classic_members, &self.classic_protocols)
        {
            return Err(alloc::format!(
                "{}: {classic_members} classic members listing {classic_protocols:?}, counted {} listing {:?}",
                self.group_id,
                self.classic_members,
                self.classic_protocols
            ));
        }
        let mut names: BTreeMap<String, usize> = BTreeMap::new();
        for m in self.members.values() {
            count_names(&mut names, m, true);
        }
        if names != self.subscribed_topic_names {
            return Err(alloc::format!(
                "{}: subscribed topic names counted {:?}, kept {:?}",
                self.group_id,
                names,
                self.subscribed_topic_names
            ));
        }
        let mut regexes: BTreeMap<String, usize> = BTreeMap::new();
        for m in self.members.values() {
            if !m.subscribed_topic_regex.is_empty() {
                count(&mut regexes, &m.subscribed_topic_regex, true);
            }
        }
        if regexes != self.subscribed_regular_expressions {
            return Err(alloc::format!(
                "{}: regex subscriber counts out of step with the members",
                self.group_id
            ));
        }
        if let Some(r) = self
            .resolved_regular_expressions
            .keys()
            .find(|r| !regexes.contains_key(*r))
        {
            return Err(alloc::format!(
                "{}: regex {r} is resolved but no member subscribes to it",
                self.group_id
            ));
        }
        let in_step = held.is_none_or(|(topics, held)| {
            held.len() == self.partition_epochs.len()
                && held
                    .iter()
                    .zip(self.partition_epochs.iter())
                    .all(|(&((t, p), epoch, _), (k, e))| (topics[t], p) == k && epoch == e)
        });
        if !in_step {
            return Err(alloc::format!(
                "{}: partition epochs out of step with the members",
                self.group_id
            ));
        }
        Ok(())
    }

    /// The members' holdings as (partition by topic rank, epoch, holder), sorted by partition (a
    /// partition's holders in the members' order), with the topics ranked; or the first member
    /// past the assignment epoch, or the first partition held twice.
    fn sorted_holdings(&self) -> Result<(Vec<Uuid>, Vec<Holding<'_>>), String> {
        // Every (partition, epoch, holder), sorted by partition (stable: a partition's holders
        // in the members' order). Checked after every membership move: a sorted list, not a
        // map, and sorted by counting (`ordered::by_partition`), the topics by their rank.
        let mut topics: Vec<Uuid> = Vec::new();
        for m in self.members.values() {
            for set in [&m.progress.assigned, &m.progress.pending_revocation] {
                for t in set.keys() {
                    if let Err(at) = topics.binary_search(t) {
                        topics.insert(at, *t);
                    }
                }
            }
        }
        let mut held: Vec<Holding> = Vec::with_capacity(self.partition_epochs.len());
        for m in self.members.values() {
            if m.progress.member_epoch > self.assignment_epoch {
                return Err(alloc::format!(
                    "{}: member {} at epoch {} > assignment epoch {}",
                    self.group_id,
                    m.member_id,
                    m.progress.member_epoch,
                    self.assignment_epoch
                ));
            }
            for set in [&*m.progress.assigned, &*m.progress.pending_revocation] {
                for (t, ps) in set {
                    let t = topics.binary_search(t).unwrap_or_default();
                    held.extend(
                        ps.iter()
                            .map(|p| ((t, *p), m.progress.member_epoch, m.member_id.as_str())),
                    );
                }
            }
        }
        let held = crate::ordered::by_partition(held, topics.len(), |&(key, _, _)| key);
        if let Some(pair) = held.windows(2).find(|pair| pair[0].0 == pair[1].0) {
            let ((t, p), _, other) = pair[0];
            let t = topics[t];
            return Err(alloc::format!(
                "{}: partition {t}-{p} held by {other} and {}",
                self.group_id,
                pair[1].2
            ));
        }
        Ok((topics, held))
    }
}

/// A partition held (its topic's rank, its number), at an epoch, by a member.
type Holding<'a> = ((usize, i32), i32, &'a str);

/// Counts `name` in (`true`) or out of `counts`: a name is copied only when it comes in, and
/// a count that reaches 0 goes.
fn count(counts: &mut BTreeMap<String, usize>, name: &str, counted: bool) {
    match counts.get_mut(name) {
        Some(n) if counted => *n += 1,
        None if counted => {
            counts.insert(String::from(name), 1);
        }
        Some(n) => {
            *n = n.saturating_sub(1);
            if *n == 0 {
                counts.remove(name);
            }
        }
        None => {}
    }
}

/// Counts the topics `member` subscribes to by name in or out of `counts` (each time its list
/// names one).
fn count_names(counts: &mut BTreeMap<String, usize>, member: &ConsumerGroupMember, counted: bool) {
    for t in &member.subscribed_topic_names {
        count(counts, t, counted);
    }
}

/// The protocol names a classic member lists, each once, sorted.
fn classic_protocol_names(classic: &ClassicMemberMetadata) -> Vec<&str> {
    let mut names: Vec<&str> = classic
        .supported_protocols
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

#[cfg(test)]
mod tests;
