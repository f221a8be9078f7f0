//! A classic group's data (Kafka's `ClassicGroup`, `docs/src/reference/classic-protocol.md#model`) and the pure queries on it.
//! What changes state and emits events lives in `rebalance.rs`.

use super::member::ClassicGroupMember;
use super::members::Members;
use super::state::GroupState;
use crate::id_map::IdSet;
use crate::protocol::JoinGroupRequestProtocol;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

/// Which variant of the join timer is armed (`docs/src/reference/classic-protocol.md#join-timer`, `docs/src/reference/classic-protocol.md#initial-delay`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum JoinTimer {
    /// The initial-rebalance delay window (Kafka's `InitialDelayedJoin`).
    Initial { delay_ms: i64, remaining_ms: i64 },
    /// The rebalance timeout (Kafka's `DelayedJoin`).
    Rebalance,
}

#[derive(Clone, Debug)]
pub struct ClassicGroup {
    pub(crate) group_id: String,
    pub(crate) state: GroupState,
    pub(crate) previous_state: GroupState,
    pub(crate) state_timestamp_ms: i64,
    pub(crate) generation_id: i32,
    pub(crate) protocol_type: Option<String>,
    pub(crate) protocol_name: Option<String>,
    pub(crate) leader_id: Option<String>,
    /// Members in insertion order (Kafka uses a hash map; `docs/src/reference/classic-protocol.md#determinism`).
    members: Members,
    pub(crate) static_members: BTreeMap<String, String>,
    pub(crate) pending_join_members: IdSet,
    pub(crate) num_awaiting_join: usize,
    /// protocol name -> number of members listing it.
    pub(crate) supported_protocols: BTreeMap<String, usize>,
    pub(crate) pending_sync_members: IdSet,
    pub(crate) new_member_added: bool,
    pub(crate) join_timer: Option<JoinTimer>,
    /// The generation the sync timer was armed for.
    pub(crate) sync_timer_generation: Option<i32>,
    /// The coordinator lost the group's partition (`unload`); requests get NOT_COORDINATOR.
    pub(crate) unloaded: bool,
}

impl ClassicGroup {
    pub(crate) fn new(group_id: &str, now: i64) -> ClassicGroup {
        ClassicGroup {
            group_id: String::from(group_id),
            state: GroupState::Empty,
            previous_state: GroupState::Empty,
            state_timestamp_ms: now,
            generation_id: 0,
            protocol_type: None,
            protocol_name: None,
            leader_id: None,
            members: Members::default(),
            static_members: BTreeMap::new(),
            pending_join_members: IdSet::default(),
            num_awaiting_join: 0,
            supported_protocols: BTreeMap::new(),
            pending_sync_members: IdSet::default(),
            new_member_added: false,
            join_timer: None,
            sync_timer_generation: None,
            unloaded: false,
        }
    }

    pub fn group_id(&self) -> &str {
        &self.group_id
    }
    pub fn state(&self) -> GroupState {
        self.state
    }
    pub fn generation_id(&self) -> i32 {
        self.generation_id
    }
    pub fn leader_id(&self) -> Option<&str> {
        self.leader_id.as_deref()
    }
    pub fn protocol_name(&self) -> Option<&str> {
        self.protocol_name.as_deref()
    }
    pub fn protocol_type(&self) -> Option<&str> {
        self.protocol_type.as_deref()
    }

    /// Members in insertion order.
    pub fn members(&self) -> impl Iterator<Item = &ClassicGroupMember> {
        self.members.iter()
    }
    pub(crate) fn members_mut(&mut self) -> impl Iterator<Item = &mut ClassicGroupMember> {
        self.members.iter_mut()
    }
    /// The members in order, beside the ids awaiting SyncGroup: for a pass that moves every
    /// member into the sync phase without looking each up again by its id.
    pub(crate) fn members_and_pending_sync(
        &mut self,
    ) -> (impl Iterator<Item = &mut ClassicGroupMember>, &mut IdSet) {
        (self.members.iter_mut(), &mut self.pending_sync_members)
    }
    pub fn member_ids(&self) -> Vec<String> {
        self.members().map(|m| m.member_id.clone()).collect()
    }
    pub fn num_members(&self) -> usize {
        self.members.len()
    }
    pub fn has_member(&self, member_id: &str) -> bool {
        self.members.contains(member_id)
    }
    pub fn member(&self, member_id: &str) -> Option<&ClassicGroupMember> {
        self.members.get(member_id)
    }
    pub(crate) fn member_mut(&mut self, member_id: &str) -> Option<&mut ClassicGroupMember> {
        self.members.get_mut(member_id)
    }
    pub fn is_leader(&self, member_id: &str) -> bool {
        self.leader_id.as_deref() == Some(member_id)
    }
    pub fn is_pending_member(&self, member_id: &str) -> bool {
        self.pending_join_members.contains(member_id)
    }
    pub fn static_member_id(&self, group_instance_id: &str) -> Option<&str> {
        self.static_members
            .get(group_instance_id)
            .map(String::as_str)
    }

    /// Inserts a member record at the end of the order and updates the derived counts (not the
    /// leader, not the static mapping: the callers decide those).
    pub(crate) fn insert_member(&mut self, member: ClassicGroupMember) {
        for p in &member.supported_protocols {
            *self.supported_protocols.entry(p.name.clone()).or_insert(0) += 1;
        }
        if member.awaiting_join.is_some() {
            self.num_awaiting_join += 1;
        }
        self.members.push(member);
    }

    /// Adds a member carried over from a consumer group (online downgrade, Kafka's
    /// `ClassicGroup.add`): the first one added leads.
    pub(crate) fn add_converted_member(&mut self, member: ClassicGroupMember) {
        if let Some(instance) = &member.group_instance_id {
            self.static_members
                .insert(instance.clone(), member.member_id.clone());
        }
        if self.leader_id.is_none() {
            self.leader_id = Some(member.member_id.clone());
        }
        self.insert_member(member);
    }

    /// Removes a member record and undoes its counts.
    pub(crate) fn take_member(&mut self, member_id: &str) -> Option<ClassicGroupMember> {
        let member = self.members.remove(member_id)?;
        self.forget_protocols(&member.supported_protocols);
        if member.awaiting_join.is_some() {
            self.num_awaiting_join -= 1;
        }
        Some(member)
    }

    /// Undoes the counts of a member's `protocols`.
    pub(crate) fn forget_protocols(&mut self, protocols: &[JoinGroupRequestProtocol]) {
        for p in protocols {
            if let Some(count) = self.supported_protocols.get_mut(&p.name) {
                *count -= 1;
                if *count == 0 {
                    self.supported_protocols.remove(&p.name);
                }
            }
        }
    }

    pub(crate) fn count_protocols(&mut self, member_id: &str) {
        let names: Vec<String> = match self.member(member_id) {
            Some(m) => m
                .supported_protocols
                .iter()
                .map(|p| p.name.clone())
                .collect(),
            None => return,
        };
        for name in names {
            *self.supported_protocols.entry(name).or_insert(0) += 1;
        }
    }

    /// `rebalanceTimeoutMs`: the largest rebalance timeout of the current members (0 if none).
    pub fn rebalance_timeout_ms(&self) -> i64 {
        self.members()
            .map(|m| i64::from(m.rebalance_timeout_ms))
            .max()
            .unwrap_or(0)
            .max(0)
    }

    /// `hasAllMembersJoined`.
    pub fn all_members_joined(&self) -> bool {
        self.members.len() == self.num_awaiting_join && self.pending_join_members.is_empty()
    }

    /// The rebalance that started from Empty (Kafka 4.0: `previousState == EMPTY`).
    pub fn is_initial_rebalance(&self) -> bool {
        self.state == GroupState::PreparingRebalance && self.previous_state == GroupState::Empty
    }

    /// `supportsProtocols` (`docs/src/reference/classic-protocol.md#protocol-compatibility`).
    pub(crate) fn supports_protocols(
        &self,
        protocol_type: &str,
        protocols: &[JoinGroupRequestProtocol],
    ) -> bool {
        if self.state == GroupState::Empty {
            return !protocol_type.is_empty() && !protocols.is_empty();
        }
        self.protocol_type.as_deref() == Some(protocol_type)
            && protocols.iter().any(|p| {
                self.supported_protocols.get(&p.name).copied().unwrap_or(0) == self.members.len()
            })
    }

    /// `selectProtocol` (`docs/src/reference/classic-protocol.md#protocol-selection`): every member votes for its most preferred protocol among
    /// those all members support; most votes wins. Kafka breaks ties by hash-map order; this
    /// model breaks them by the leader's order of preference, then by name, and says so.
    pub fn select_protocol(&self) -> Option<String> {
        let candidates: Vec<&str> = self
            .supported_protocols
            .iter()
            .filter(|&(_, &count)| count == self.members.len())
            .map(|(name, _)| name.as_str())
            .collect();
        let mut votes: BTreeMap<&str, usize> = BTreeMap::new();
        for member in self.members() {
            if let Some(vote) = member.vote(&candidates) {
                *votes.entry(vote).or_insert(0) += 1;
            }
        }
        let most = votes.values().copied().max()?;
        let tied: Vec<&str> = votes
            .iter()
            .filter(|&(_, &n)| n == most)
            .map(|(name, _)| *name)
            .collect();
        let leader_order = self
            .leader_id
            .as_deref()
            .and_then(|id| self.member(id))
            .and_then(|leader| {
                leader
                    .supported_protocols
                    .iter()
                    .map(|p| p.name.as_str())
                    .find(|name| tied.contains(name))
            });
        // `tied` is sorted by name (BTreeMap order), so its first entry is the fallback.
        leader_order.or(tied.first().copied()).map(String::from)
    }
}
