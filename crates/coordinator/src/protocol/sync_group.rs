//! SyncGroup (api key 14), versions 0–5.

use super::Bytes;
use alloc::string::String;
use alloc::vec::Vec;
use group_coordinator_json::json;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[json(in_out)]
pub struct SyncGroupRequest {
    #[cfg_attr(feature = "serde", serde(default = "super::missing_version"))]
    // Declared required: a request without its version is refused.
    #[cfg_attr(feature = "schema", schemars(extend("tsRequired" = true)))]
    pub api_version: i16,
    pub correlation_id: i32,
    pub client_id: String,
    pub group_id: String,
    pub generation_id: i32,
    pub member_id: String,
    /// v3+.
    pub group_instance_id: Option<String>,
    /// v5+ (KIP-559).
    pub protocol_type: Option<String>,
    /// v5+ (KIP-559).
    pub protocol_name: Option<String>,
    /// Only the leader sends a non-empty list.
    pub assignments: Vec<SyncGroupRequestAssignment>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[json(in_out)]
pub struct SyncGroupRequestAssignment {
    pub member_id: String,
    pub assignment: Bytes,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[json(out)]
pub struct SyncGroupResponse {
    pub api_version: i16,
    pub correlation_id: i32,
    pub throttle_time_ms: i32,
    pub error_code: crate::ErrorCode,
    /// v5+.
    pub protocol_type: Option<String>,
    /// v5+.
    pub protocol_name: Option<String>,
    pub assignment: Bytes,
}
