//! A member of a classic group (Kafka's `ClassicGroupMember`, `docs/src/reference/classic-protocol.md#model`).

use crate::classic_rpc::{ParkedJoin, ParkedSync};
use crate::ctx::{Ctx, NO_SLOT};
use crate::protocol::{Bytes, JoinGroupRequestProtocol};
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::Cell;

#[derive(Clone, Debug)]
pub struct ClassicGroupMember {
    pub(crate) member_id: String,
    pub(crate) group_instance_id: Option<String>,
    pub(crate) client_id: String,
    pub(crate) client_host: String,
    pub(crate) rebalance_timeout_ms: i32,
    pub(crate) session_timeout_ms: i32,
    pub(crate) protocol_type: String,
    /// In order of preference.
    pub(crate) supported_protocols: Vec<JoinGroupRequestProtocol>,
    pub(crate) assignment: Bytes,
    pub(crate) awaiting_join: Option<ParkedJoin>,
    pub(crate) awaiting_sync: Option<ParkedSync>,
    /// From being added until the next join-phase completion.
    pub(crate) is_new: bool,
    /// Where the coordinator's timers keep this member's session timer, as last seen: a hint
    /// that spares a re-arm the lookup by key ([`crate::ctx::Ctx::schedule_session`]). Not
    /// part of the member's state: a copy of the group may carry it, and a wrong one costs a
    /// lookup.
    pub(crate) session_slot: Cell<u32>,
}

impl ClassicGroupMember {
    /// (Re)arms the member's session: its heartbeat timer fires its session timeout from now.
    pub(crate) fn arm_session(&self, ctx: &mut Ctx, group_id: &str) {
        let timeout = i64::from(self.session_timeout_ms);
        ctx.schedule_session(group_id, &self.member_id, timeout, &self.session_slot);
    }

    /// A member carried over from a consumer group (online downgrade): known, not new, with
    /// nothing parked; its assignment is set by the conversion.
    pub(crate) fn converted(
        member_id: &str,
        group_instance_id: Option<&str>,
        client_id: &str,
        rebalance_timeout_ms: i32,
        session_timeout_ms: i32,
        supported_protocols: Vec<JoinGroupRequestProtocol>,
    ) -> ClassicGroupMember {
        ClassicGroupMember {
            member_id: String::from(member_id),
            group_instance_id: group_instance_id.map(String::from),
            client_id: String::from(client_id),
            client_host: String::from("/127.0.0.1"),
            rebalance_timeout_ms,
            session_timeout_ms,
            protocol_type: String::from(crate::consumer_protocol::PROTOCOL_TYPE),
            supported_protocols,
            assignment: Bytes::new(),
            awaiting_join: None,
            awaiting_sync: None,
            is_new: false,
            session_slot: Cell::new(NO_SLOT),
        }
    }

    /// Its protocols, in its order of preference.
    pub fn supported_protocols(&self) -> &[JoinGroupRequestProtocol] {
        &self.supported_protocols
    }
    pub fn member_id(&self) -> &str {
        &self.member_id
    }
    pub fn group_instance_id(&self) -> Option<&str> {
        self.group_instance_id.as_deref()
    }
    pub fn is_static(&self) -> bool {
        self.group_instance_id.is_some()
    }
    pub fn protocol_type(&self) -> &str {
        &self.protocol_type
    }
    pub fn client_id(&self) -> &str {
        &self.client_id
    }
    pub fn session_timeout_ms(&self) -> i32 {
        self.session_timeout_ms
    }
    pub fn rebalance_timeout_ms(&self) -> i32 {
        self.rebalance_timeout_ms
    }
    pub fn assignment(&self) -> &Bytes {
        &self.assignment
    }
    pub fn is_awaiting_join(&self) -> bool {
        self.awaiting_join.is_some()
    }
    pub fn is_awaiting_sync(&self) -> bool {
        self.awaiting_sync.is_some()
    }

    /// `hasSatisfiedHeartbeat`: a known member parked in JoinGroup or SyncGroup cannot expire.
    pub(crate) fn has_satisfied_heartbeat(&self) -> bool {
        !self.is_new && (self.awaiting_join.is_some() || self.awaiting_sync.is_some())
    }

    /// `matches`: the same protocol names, in the same order, with byte-identical metadata.
    pub(crate) fn matches(&self, protocols: &[JoinGroupRequestProtocol]) -> bool {
        self.supported_protocols == protocols
    }

    /// The metadata this member sent for `protocol`.
    pub(crate) fn metadata(&self, protocol: &str) -> Bytes {
        self.supported_protocols
            .iter()
            .find(|p| p.name == protocol)
            .map(|p| p.metadata.clone())
            .unwrap_or_default()
    }

    /// The member's vote: its most preferred protocol among the candidates.
    pub(crate) fn vote<'a>(&'a self, candidates: &[&str]) -> Option<&'a str> {
        self.supported_protocols
            .iter()
            .map(|p| p.name.as_str())
            .find(|name| candidates.contains(name))
    }
}
