//! OffsetCommit (api key 8), versions 0–9.

use alloc::string::String;
use alloc::vec::Vec;
use group_coordinator_json::json;

#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[json(in_out)]
pub struct OffsetCommitRequest {
    #[cfg_attr(feature = "serde", serde(default = "super::missing_version"))]
    // Declared required: a request without its version is refused.
    #[cfg_attr(feature = "schema", schemars(extend("tsRequired" = true)))]
    pub api_version: i16,
    pub correlation_id: i32,
    pub client_id: String,
    pub group_id: String,
    /// v1+; -1 = a commit from outside group management.
    pub generation_id_or_member_epoch: i32,
    /// v1+.
    pub member_id: String,
    /// v7+.
    pub group_instance_id: Option<String>,
    /// v2–v4; -1 = the broker's retention.
    pub retention_time_ms: i64,
    pub topics: Vec<OffsetCommitRequestTopic>,
}

impl Default for OffsetCommitRequest {
    fn default() -> Self {
        OffsetCommitRequest {
            api_version: 0,
            correlation_id: 0,
            client_id: String::new(),
            group_id: String::new(),
            generation_id_or_member_epoch: -1,
            member_id: String::new(),
            group_instance_id: None,
            retention_time_ms: -1,
            topics: Vec::new(),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[json(in_out)]
pub struct OffsetCommitRequestTopic {
    pub name: String,
    pub partitions: Vec<OffsetCommitRequestPartition>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[json(in_out)]
pub struct OffsetCommitRequestPartition {
    pub partition_index: i32,
    pub committed_offset: i64,
    /// v6+.
    pub committed_leader_epoch: i32,
    /// v1 only.
    pub commit_timestamp: i64,
    pub committed_metadata: Option<String>,
}

impl Default for OffsetCommitRequestPartition {
    fn default() -> Self {
        OffsetCommitRequestPartition {
            partition_index: 0,
            committed_offset: 0,
            committed_leader_epoch: -1,
            commit_timestamp: -1,
            committed_metadata: None,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[json(out)]
pub struct OffsetCommitResponse {
    pub api_version: i16,
    pub correlation_id: i32,
    pub throttle_time_ms: i32,
    /// Not a field of Kafka's schema: the first partition error, or NONE, so every response
    /// carries an `errorCode`.
    pub error_code: crate::ErrorCode,
    pub topics: Vec<OffsetCommitResponseTopic>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[json(out)]
pub struct OffsetCommitResponseTopic {
    pub name: String,
    pub partitions: Vec<OffsetCommitResponsePartition>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[json(out)]
pub struct OffsetCommitResponsePartition {
    pub partition_index: i32,
    pub error_code: crate::ErrorCode,
}
