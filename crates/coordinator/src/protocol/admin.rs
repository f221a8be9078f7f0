//! DescribeGroups (15, v0–v6), ListGroups (16, v0–v5), DeleteGroups (42, v0–v2).

use super::Bytes;
use alloc::string::String;
use alloc::vec::Vec;
use group_coordinator_json::json;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[json(in_out)]
pub struct DescribeGroupsRequest {
    #[cfg_attr(feature = "serde", serde(default = "super::missing_version"))]
    // Declared required: a request without its version is refused.
    #[cfg_attr(feature = "schema", schemars(extend("tsRequired" = true)))]
    pub api_version: i16,
    pub correlation_id: i32,
    pub client_id: String,
    pub groups: Vec<String>,
    /// v3+.
    pub include_authorized_operations: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[json(out)]
pub struct DescribeGroupsResponse {
    pub api_version: i16,
    pub correlation_id: i32,
    pub throttle_time_ms: i32,
    /// Not a field of Kafka's schema: the first group's error, or NONE.
    pub error_code: crate::ErrorCode,
    pub groups: Vec<DescribedGroup>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[json(out)]
pub struct DescribedGroup {
    pub error_code: crate::ErrorCode,
    /// v6+ (KIP-1043): why the group could not be described.
    pub error_message: Option<String>,
    pub group_id: String,
    /// "Empty", "PreparingRebalance", "CompletingRebalance", "Stable" or "Dead".
    pub group_state: String,
    pub protocol_type: String,
    /// The selected protocol, only while Stable.
    pub protocol_data: String,
    pub members: Vec<DescribedGroupMember>,
    /// v3+; -2147483648 when not requested.
    pub authorized_operations: i32,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[json(out)]
pub struct DescribedGroupMember {
    pub member_id: String,
    /// v4+.
    pub group_instance_id: Option<String>,
    pub client_id: String,
    pub client_host: String,
    /// Only while Stable.
    pub member_metadata: Bytes,
    /// Only while Stable.
    pub member_assignment: Bytes,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[json(in_out)]
pub struct ListGroupsRequest {
    #[cfg_attr(feature = "serde", serde(default = "super::missing_version"))]
    // Declared required: a request without its version is refused.
    #[cfg_attr(feature = "schema", schemars(extend("tsRequired" = true)))]
    pub api_version: i16,
    pub correlation_id: i32,
    pub client_id: String,
    /// v4+: only groups in these states (case-insensitive); empty = all.
    pub states_filter: Vec<String>,
    /// v5+: only groups of these types ("classic", "consumer"); empty = all.
    pub types_filter: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[json(out)]
pub struct ListGroupsResponse {
    pub api_version: i16,
    pub correlation_id: i32,
    pub throttle_time_ms: i32,
    pub error_code: crate::ErrorCode,
    pub groups: Vec<ListedGroup>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[json(out)]
pub struct ListedGroup {
    pub group_id: String,
    pub protocol_type: String,
    /// v4+.
    pub group_state: String,
    /// v5+.
    pub group_type: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[json(in_out)]
pub struct DeleteGroupsRequest {
    #[cfg_attr(feature = "serde", serde(default = "super::missing_version"))]
    // Declared required: a request without its version is refused.
    #[cfg_attr(feature = "schema", schemars(extend("tsRequired" = true)))]
    pub api_version: i16,
    pub correlation_id: i32,
    pub client_id: String,
    pub groups_names: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[json(out)]
pub struct DeleteGroupsResponse {
    pub api_version: i16,
    pub correlation_id: i32,
    pub throttle_time_ms: i32,
    /// Not a field of Kafka's schema: the first group's error, or NONE.
    pub error_code: crate::ErrorCode,
    pub results: Vec<DeletableGroupResult>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[json(out)]
pub struct DeletableGroupResult {
    pub group_id: String,
    pub error_code: crate::ErrorCode,
}
