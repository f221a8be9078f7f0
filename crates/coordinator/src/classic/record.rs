//! The group record Kafka writes to `__consumer_offsets` (`GroupMetadataValue`): what a
//! coordinator that loads the group after a failover starts from (`docs/src/reference/classic-protocol.md#admin`).

use super::{ClassicGroup, ClassicGroupMember, GroupState};
use crate::ctx::{Ctx, NO_SLOT};
use crate::protocol::{Bytes, JoinGroupRequestProtocol};
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::Cell;
use group_coordinator_json::json;

#[derive(Clone, Debug, PartialEq, Eq)]
#[json(out)]
pub struct GroupRecord {
    pub protocol_type: Option<String>,
    pub generation: i32,
    pub protocol: Option<String>,
    pub leader: Option<String>,
    pub current_state_timestamp_ms: i64,
    pub members: Vec<GroupRecordMember>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
#[json(out)]
pub struct GroupRecordMember {
    pub member_id: String,
    pub group_instance_id: Option<String>,
    pub client_id: String,
    pub client_host: String,
    pub rebalance_timeout_ms: i32,
    pub session_timeout_ms: i32,
    /// The member's metadata for the selected protocol.
    pub subscription: Bytes,
    pub assignment: Bytes,
}

impl ClassicGroup {
    /// The group record as Kafka writes it (`GroupMetadataValue`). `previous` is the record it
    /// replaces, if any: a member found at the same place with the same id and client keeps its
    /// strings from there (every rebalance writes the record again, and most members stay as
    /// they were: copying their ids was three allocations per member per write).
    pub(crate) fn record(&self, ctx: &Ctx, previous: Option<GroupRecord>) -> GroupRecord {
        let protocol = self.protocol_name.clone().unwrap_or_default();
        let mut previous = previous
            .map(|r| r.members)
            .unwrap_or_default()
            .into_iter()
            .peekable();
        let mut members = Vec::with_capacity(self.num_members());
        for m in self.members() {
            let same = |r: &GroupRecordMember| {
                r.member_id == m.member_id
                    && r.client_id == m.client_id
                    && r.client_host == m.client_host
                    && r.group_instance_id == m.group_instance_id
            };
            // A member gone since (a rolling restart's leaver) moves everyone after it up by
            // one place: its entry is skipped, not every later member's strings copied.
            let kept = match previous.next() {
                Some(r) if same(&r) => Some(r),
                Some(_) => previous.next_if(same),
                None => None,
            };
            let (member_id, group_instance_id, client_id, client_host) = match kept {
                Some(r) => (r.member_id, r.group_instance_id, r.client_id, r.client_host),
                None => (
                    m.member_id.clone(),
                    m.group_instance_id.clone(),
                    m.client_id.clone(),
                    m.client_host.clone(),
                ),
            };
            members.push(GroupRecordMember {
                member_id,
                group_instance_id,
                client_id,
                client_host,
                rebalance_timeout_ms: m.rebalance_timeout_ms,
                session_timeout_ms: m.session_timeout_ms,
                subscription: m.metadata(&protocol),
                assignment: m.assignment.clone(),
            });
        }
        GroupRecord {
            protocol_type: self.protocol_type.clone(),
            generation: self.generation_id,
            protocol: self.protocol_name.clone(),
            leader: self.leader_id.clone(),
            current_state_timestamp_ms: ctx.now,
            members,
        }
    }

    /// Rebuilds the group (new, Empty) from its record, as Kafka's `ClassicGroup.fromRecord`
    /// does, and enters the state the record implies through the state funnel: Stable with
    /// members, Empty without (or without a record at all).
    pub(crate) fn load(&mut self, ctx: &mut Ctx, record: Option<&GroupRecord>) {
        let Some(record) = record else {
            self.enter_loaded_state(ctx, GroupState::Empty);
            return;
        };
        self.generation_id = record.generation;
        self.protocol_type = record.protocol_type.clone();
        self.protocol_name = record.protocol.clone();
        self.leader_id = record.leader.clone();
        self.state_timestamp_ms = record.current_state_timestamp_ms;
        let protocol = record.protocol.clone().unwrap_or_default();
        for m in &record.members {
            if let Some(instance) = &m.group_instance_id {
                self.static_members
                    .insert(instance.clone(), m.member_id.clone());
            }
            self.insert_member(ClassicGroupMember {
                member_id: m.member_id.clone(),
                group_instance_id: m.group_instance_id.clone(),
                client_id: m.client_id.clone(),
                client_host: m.client_host.clone(),
                rebalance_timeout_ms: m.rebalance_timeout_ms,
                session_timeout_ms: m.session_timeout_ms,
                protocol_type: record.protocol_type.clone().unwrap_or_default(),
                supported_protocols: alloc::vec![JoinGroupRequestProtocol {
                    name: protocol.clone(),
                    metadata: m.subscription.clone(),
                }],
                assignment: m.assignment.clone(),
                awaiting_join: None,
                awaiting_sync: None,
                is_new: false,
                session_slot: Cell::new(NO_SLOT),
            });
        }
        let state = if record.members.is_empty() {
            GroupState::Empty
        } else {
            GroupState::Stable
        };
        self.enter_loaded_state(ctx, state);
    }
}
