//! Read-only snapshots of a classic group for the views (`Coordinator::describe`); a consumer
//! group's are in `consumer_group/view.rs`, the timers' in `crate::timer`.

use super::{ClassicGroup, GroupState};
use crate::protocol::Bytes;
use crate::timer::{TimerKey, TimerQueue, TimerView};
use alloc::string::String;
use alloc::vec::Vec;
use group_coordinator_json::json;

#[derive(Clone, Debug, PartialEq, Eq)]
#[json(out)]
pub struct GroupView {
    pub group_id: String,
    /// Always "classic" (a consumer group's view says "consumer").
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    #[cfg_attr(feature = "schema", schemars(extend("tsType" = "\"classic\"")))]
    pub group_type: &'static str,
    pub state: GroupState,
    pub previous_state: GroupState,
    pub state_timestamp_ms: i64,
    pub generation_id: i32,
    pub protocol_type: Option<String>,
    pub protocol_name: Option<String>,
    pub leader_id: Option<String>,
    pub members: Vec<MemberView>,
    /// Member ids handed out with MEMBER_ID_REQUIRED that have not joined yet.
    pub pending_members: Vec<String>,
    /// Members that got the current generation but have not sent SyncGroup yet.
    pub pending_sync_members: Vec<String>,
    pub num_awaiting_join: usize,
    /// The initial-rebalance delay may be extended (a member joined during the window).
    pub new_member_added: bool,
    /// The coordinator lost the group's partition.
    pub unloaded: bool,
    /// The group's timers in firing order.
    pub timers: Vec<TimerView>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
#[json(out)]
pub struct MemberView {
    pub member_id: String,
    pub group_instance_id: Option<String>,
    pub client_id: String,
    pub session_timeout_ms: i32,
    pub rebalance_timeout_ms: i32,
    pub protocols: Vec<String>,
    pub is_leader: bool,
    pub is_new: bool,
    pub awaiting_join: bool,
    pub awaiting_sync: bool,
    /// When the member's heartbeat timer fires, if armed.
    pub session_deadline_ms: Option<i64>,
    pub assignment: Bytes,
}

impl GroupView {
    pub(crate) fn of(group: &ClassicGroup, timers: &TimerQueue<TimerKey>) -> GroupView {
        let group_id = group.group_id();
        GroupView {
            group_id: String::from(group_id),
            group_type: "classic",
            state: group.state(),
            previous_state: group.previous_state,
            state_timestamp_ms: group.state_timestamp_ms,
            generation_id: group.generation_id(),
            protocol_type: group.protocol_type.clone(),
            protocol_name: group.protocol_name.clone(),
            leader_id: group.leader_id.clone(),
            members: group
                .members()
                .map(|m| MemberView {
                    member_id: String::from(m.member_id()),
                    group_instance_id: m.group_instance_id.clone(),
                    client_id: m.client_id.clone(),
                    session_timeout_ms: m.session_timeout_ms,
                    rebalance_timeout_ms: m.rebalance_timeout_ms,
                    protocols: m
                        .supported_protocols
                        .iter()
                        .map(|p| p.name.clone())
                        .collect(),
                    is_leader: group.is_leader(m.member_id()),
                    is_new: m.is_new,
                    awaiting_join: m.is_awaiting_join(),
                    awaiting_sync: m.is_awaiting_sync(),
                    session_deadline_ms: timers.deadline(&TimerKey::Heartbeat(
                        String::from(group_id),
                        String::from(m.member_id()),
                    )),
                    assignment: m.assignment().clone(),
                })
                .collect(),
            pending_members: group.pending_join_members.sorted().cloned().collect(),
            pending_sync_members: group.pending_sync_members.sorted().cloned().collect(),
            num_awaiting_join: group.num_awaiting_join,
            new_member_added: group.new_member_added,
            unloaded: group.unloaded,
            timers: TimerView::of_group(timers, group_id),
        }
    }
}
