//! OffsetFetch (api key 9), versions 0–9: one group up to v7, a batch of `groups` from v8.

use alloc::string::String;
use alloc::vec::Vec;
use group_coordinator_json::json;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[json(in_out)]
pub struct OffsetFetchRequest {
    #[cfg_attr(feature = "serde", serde(default = "super::missing_version"))]
    // Declared required: a request without its version is refused.
    #[cfg_attr(feature = "schema", schemars(extend("tsRequired" = true)))]
    pub api_version: i16,
    pub correlation_id: i32,
    pub client_id: String,
    /// v0–v7.
    pub group_id: String,
    /// v0–v7; `None` (v2+) fetches every committed offset of the group.
    pub topics: Option<Vec<OffsetFetchRequestTopic>>,
    /// v8+.
    pub groups: Vec<OffsetFetchRequestGroup>,
    /// v7+.
    pub require_stable: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[json(in_out)]
pub struct OffsetFetchRequestTopic {
    pub name: String,
    pub partition_indexes: Vec<i32>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[json(in_out)]
pub struct OffsetFetchRequestGroup {
    pub group_id: String,
    /// v9+.
    pub member_id: Option<String>,
    /// v9+.
    pub member_epoch: i32,
    pub topics: Option<Vec<OffsetFetchRequestTopic>>,
}

impl Default for OffsetFetchRequestGroup {
    fn default() -> Self {
        OffsetFetchRequestGroup {
            group_id: String::new(),
            member_id: None,
            member_epoch: -1,
            topics: None,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[json(out)]
pub struct OffsetFetchResponse {
    pub api_version: i16,
    pub correlation_id: i32,
    pub throttle_time_ms: i32,
    /// v2+ top-level error (for v8+, the first group's error).
    pub error_code: crate::ErrorCode,
    /// v0–v7.
    pub topics: Vec<OffsetFetchResponseTopic>,
    /// v8+.
    pub groups: Vec<OffsetFetchResponseGroup>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[json(out)]
pub struct OffsetFetchResponseGroup {
    pub group_id: String,
    pub topics: Vec<OffsetFetchResponseTopic>,
    pub error_code: crate::ErrorCode,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[json(out)]
pub struct OffsetFetchResponseTopic {
    pub name: String,
    pub partitions: Vec<OffsetFetchResponsePartition>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[json(out)]
pub struct OffsetFetchResponsePartition {
    pub partition_index: i32,
    pub committed_offset: i64,
    /// v5+.
    pub committed_leader_epoch: i32,
    pub metadata: Option<String>,
    pub error_code: crate::ErrorCode,
}
