//! LeaveGroup (api key 13), versions 0–5: one `memberId` up to v2, a batch of `members` from v3.

use alloc::string::String;
use alloc::vec::Vec;
use group_coordinator_json::json;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[json(in_out)]
pub struct LeaveGroupRequest {
    #[cfg_attr(feature = "serde", serde(default = "super::missing_version"))]
    // Declared required: a request without its version is refused.
    #[cfg_attr(feature = "schema", schemars(extend("tsRequired" = true)))]
    pub api_version: i16,
    pub correlation_id: i32,
    pub client_id: String,
    pub group_id: String,
    /// v0–v2.
    pub member_id: String,
    /// v3+ (KAFKA-8221).
    pub members: Vec<MemberIdentity>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[json(in_out)]
pub struct MemberIdentity {
    pub member_id: String,
    pub group_instance_id: Option<String>,
    /// v5+ (KIP-800), logged only.
    pub reason: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[json(out)]
pub struct LeaveGroupResponse {
    pub api_version: i16,
    pub correlation_id: i32,
    pub throttle_time_ms: i32,
    /// v0–v2: the first per-member error, or NONE. v3+: the top-level error.
    pub error_code: crate::ErrorCode,
    /// v3+.
    pub members: Vec<MemberResponse>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[json(out)]
pub struct MemberResponse {
    pub member_id: String,
    pub group_instance_id: Option<String>,
    pub error_code: crate::ErrorCode,
}
