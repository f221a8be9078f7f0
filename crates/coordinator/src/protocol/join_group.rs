//! JoinGroup (api key 11), versions 0–9.

use super::Bytes;
use alloc::string::String;
use alloc::vec::Vec;
use group_coordinator_json::json;

#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[json(in_out)]
pub struct JoinGroupRequest {
    #[cfg_attr(feature = "serde", serde(default = "super::missing_version"))]
    // Declared required: a request without its version is refused.
    #[cfg_attr(feature = "schema", schemars(extend("tsRequired" = true)))]
    pub api_version: i16,
    pub correlation_id: i32,
    pub client_id: String,
    pub group_id: String,
    pub session_timeout_ms: i32,
    /// v1+; v0 uses the session timeout as the rebalance timeout.
    pub rebalance_timeout_ms: i32,
    /// "" for a member that has no id yet.
    pub member_id: String,
    /// v5+ (static membership, KIP-345).
    pub group_instance_id: Option<String>,
    pub protocol_type: String,
    /// In the member's order of preference.
    pub protocols: Vec<JoinGroupRequestProtocol>,
    /// v8+ (KIP-800), logged only.
    pub reason: Option<String>,
}

impl Default for JoinGroupRequest {
    fn default() -> Self {
        JoinGroupRequest {
            api_version: 0,
            correlation_id: 0,
            client_id: String::new(),
            group_id: String::new(),
            session_timeout_ms: 0,
            rebalance_timeout_ms: -1,
            member_id: String::new(),
            group_instance_id: None,
            protocol_type: String::new(),
            protocols: Vec::new(),
            reason: None,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[json(in_out)]
pub struct JoinGroupRequestProtocol {
    pub name: String,
    pub metadata: Bytes,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[json(out)]
pub struct JoinGroupResponse {
    pub api_version: i16,
    pub correlation_id: i32,
    pub throttle_time_ms: i32,
    pub error_code: crate::ErrorCode,
    pub generation_id: i32,
    /// v7+.
    pub protocol_type: Option<String>,
    pub protocol_name: Option<String>,
    pub leader: String,
    /// v9+: the returning static leader need not compute an assignment (KIP-814).
    pub skip_assignment: bool,
    pub member_id: String,
    /// Only the leader gets the member list.
    pub members: Vec<JoinGroupResponseMember>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[json(out)]
pub struct JoinGroupResponseMember {
    pub member_id: String,
    /// v5+.
    pub group_instance_id: Option<String>,
    pub metadata: Bytes,
}
