//! The Kafka messages the classic coordinator answers, one field per field of Kafka's message
//! schemas (Kafka 4.0 names), with the api version carried along because behaviour depends on it.
//!
//! With the `serde` feature, requests and responses (de)serialise as Kafka's JSON message
//! converters write them (camelCase field names, bytes as base64), plus an `api` tag, the
//! `apiVersion` and the `correlationId`.

mod admin;
mod bytes;
mod configs;
mod consumer_group_describe;
mod consumer_group_heartbeat;
mod heartbeat;
mod join_group;
mod leave_group;
mod offset_commit;
mod offset_fetch;
mod sync_group;

pub use admin::*;
pub use bytes::{Bytes, base64_decode, base64_encode};
pub use configs::*;
pub use consumer_group_describe::*;
pub use consumer_group_heartbeat::*;
pub use heartbeat::*;
pub use join_group::*;
pub use leave_group::*;
pub use offset_commit::*;
pub use offset_fetch::*;
pub use sync_group::*;

use alloc::format;
use alloc::string::String;

/// An api version that marks "the request did not say" (JSON input without `apiVersion`).
pub(crate) const MISSING_VERSION: i16 = i16::MIN;

#[cfg(feature = "serde")]
pub(crate) fn missing_version() -> i16 {
    MISSING_VERSION
}

/// The group APIs, with Kafka's api keys and the versions this model accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "schema",
    derive(schemars::JsonSchema),
    schemars(rename = "ApiName")
)]
pub enum Api {
    JoinGroup,
    SyncGroup,
    Heartbeat,
    LeaveGroup,
    OffsetCommit,
    OffsetFetch,
    DescribeGroups,
    ListGroups,
    DeleteGroups,
    ConsumerGroupHeartbeat,
    ConsumerGroupDescribe,
    DescribeConfigs,
    IncrementalAlterConfigs,
}

impl Api {
    pub const ALL: [Api; 13] = [
        Api::JoinGroup,
        Api::SyncGroup,
        Api::Heartbeat,
        Api::LeaveGroup,
        Api::OffsetCommit,
        Api::OffsetFetch,
        Api::DescribeGroups,
        Api::ListGroups,
        Api::DeleteGroups,
        Api::ConsumerGroupHeartbeat,
        Api::ConsumerGroupDescribe,
        Api::DescribeConfigs,
        Api::IncrementalAlterConfigs,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Api::JoinGroup => "JoinGroup",
            Api::SyncGroup => "SyncGroup",
            Api::Heartbeat => "Heartbeat",
            Api::LeaveGroup => "LeaveGroup",
            Api::OffsetCommit => "OffsetCommit",
            Api::OffsetFetch => "OffsetFetch",
            Api::DescribeGroups => "DescribeGroups",
            Api::ListGroups => "ListGroups",
            Api::DeleteGroups => "DeleteGroups",
            Api::ConsumerGroupHeartbeat => "ConsumerGroupHeartbeat",
            Api::ConsumerGroupDescribe => "ConsumerGroupDescribe",
            Api::DescribeConfigs => "DescribeConfigs",
            Api::IncrementalAlterConfigs => "IncrementalAlterConfigs",
        }
    }

    /// Kafka's api key.
    pub const fn key(self) -> i16 {
        match self {
            Api::OffsetCommit => 8,
            Api::OffsetFetch => 9,
            Api::JoinGroup => 11,
            Api::Heartbeat => 12,
            Api::LeaveGroup => 13,
            Api::SyncGroup => 14,
            Api::DescribeGroups => 15,
            Api::ListGroups => 16,
            Api::DeleteGroups => 42,
            Api::ConsumerGroupHeartbeat => 68,
            Api::ConsumerGroupDescribe => 69,
            Api::DescribeConfigs => 32,
            Api::IncrementalAlterConfigs => 44,
        }
    }

    /// The highest version accepted (the lowest is 0 for all of them).
    pub const fn max_version(self) -> i16 {
        match self {
            Api::JoinGroup => 9,
            Api::SyncGroup => 5,
            Api::Heartbeat => 4,
            Api::LeaveGroup => 5,
            Api::OffsetCommit => 9,
            Api::OffsetFetch => 9,
            Api::DescribeGroups => 6,
            Api::ListGroups => 5,
            Api::DeleteGroups => 2,
            Api::ConsumerGroupHeartbeat => 1,
            Api::ConsumerGroupDescribe => 1,
            Api::DescribeConfigs => 4,
            Api::IncrementalAlterConfigs => 1,
        }
    }
}

/// A request to the coordinator.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(tag = "api")
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Request {
    JoinGroup(JoinGroupRequest),
    SyncGroup(SyncGroupRequest),
    Heartbeat(HeartbeatRequest),
    LeaveGroup(LeaveGroupRequest),
    OffsetCommit(OffsetCommitRequest),
    OffsetFetch(OffsetFetchRequest),
    DescribeGroups(DescribeGroupsRequest),
    ListGroups(ListGroupsRequest),
    DeleteGroups(DeleteGroupsRequest),
    ConsumerGroupHeartbeat(ConsumerGroupHeartbeatRequest),
    ConsumerGroupDescribe(ConsumerGroupDescribeRequest),
    DescribeConfigs(DescribeConfigsRequest),
    IncrementalAlterConfigs(IncrementalAlterConfigsRequest),
}

/// A response from the coordinator.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(tag = "api"))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Response {
    JoinGroup(JoinGroupResponse),
    SyncGroup(SyncGroupResponse),
    Heartbeat(HeartbeatResponse),
    LeaveGroup(LeaveGroupResponse),
    OffsetCommit(OffsetCommitResponse),
    OffsetFetch(OffsetFetchResponse),
    DescribeGroups(DescribeGroupsResponse),
    ListGroups(ListGroupsResponse),
    DeleteGroups(DeleteGroupsResponse),
    ConsumerGroupHeartbeat(ConsumerGroupHeartbeatResponse),
    ConsumerGroupDescribe(ConsumerGroupDescribeResponse),
    DescribeConfigs(DescribeConfigsResponse),
    IncrementalAlterConfigs(IncrementalAlterConfigsResponse),
}

/// A request Kafka could not even put on the wire: an unsupported version, or a field set that
/// its version does not have. The message names the field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestError {
    pub api: Api,
    pub message: String,
}

impl core::fmt::Display for RequestError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} request: {}", self.api.name(), self.message)
    }
}

impl Request {
    pub fn api(&self) -> Api {
        match self {
            Request::JoinGroup(_) => Api::JoinGroup,
            Request::SyncGroup(_) => Api::SyncGroup,
            Request::Heartbeat(_) => Api::Heartbeat,
            Request::LeaveGroup(_) => Api::LeaveGroup,
            Request::OffsetCommit(_) => Api::OffsetCommit,
            Request::OffsetFetch(_) => Api::OffsetFetch,
            Request::DescribeGroups(_) => Api::DescribeGroups,
            Request::ListGroups(_) => Api::ListGroups,
            Request::DeleteGroups(_) => Api::DeleteGroups,
            Request::ConsumerGroupHeartbeat(_) => Api::ConsumerGroupHeartbeat,
            Request::ConsumerGroupDescribe(_) => Api::ConsumerGroupDescribe,
            Request::DescribeConfigs(_) => Api::DescribeConfigs,
            Request::IncrementalAlterConfigs(_) => Api::IncrementalAlterConfigs,
        }
    }

    pub fn api_version(&self) -> i16 {
        match self {
            Request::JoinGroup(r) => r.api_version,
            Request::SyncGroup(r) => r.api_version,
            Request::Heartbeat(r) => r.api_version,
            Request::LeaveGroup(r) => r.api_version,
            Request::OffsetCommit(r) => r.api_version,
            Request::OffsetFetch(r) => r.api_version,
            Request::DescribeGroups(r) => r.api_version,
            Request::ListGroups(r) => r.api_version,
            Request::DeleteGroups(r) => r.api_version,
            Request::ConsumerGroupHeartbeat(r) => r.api_version,
            Request::ConsumerGroupDescribe(r) => r.api_version,
            Request::DescribeConfigs(r) => r.api_version,
            Request::IncrementalAlterConfigs(r) => r.api_version,
        }
    }

    pub fn correlation_id(&self) -> i32 {
        match self {
            Request::JoinGroup(r) => r.correlation_id,
            Request::SyncGroup(r) => r.correlation_id,
            Request::Heartbeat(r) => r.correlation_id,
            Request::LeaveGroup(r) => r.correlation_id,
            Request::OffsetCommit(r) => r.correlation_id,
            Request::OffsetFetch(r) => r.correlation_id,
            Request::DescribeGroups(r) => r.correlation_id,
            Request::ListGroups(r) => r.correlation_id,
            Request::DeleteGroups(r) => r.correlation_id,
            Request::ConsumerGroupHeartbeat(r) => r.correlation_id,
            Request::ConsumerGroupDescribe(r) => r.correlation_id,
            Request::DescribeConfigs(r) => r.correlation_id,
            Request::IncrementalAlterConfigs(r) => r.correlation_id,
        }
    }

    /// The group the request is about (the first one for batch requests), if any.
    pub fn group_id(&self) -> Option<&str> {
        match self {
            Request::JoinGroup(r) => Some(&r.group_id),
            Request::SyncGroup(r) => Some(&r.group_id),
            Request::Heartbeat(r) => Some(&r.group_id),
            Request::LeaveGroup(r) => Some(&r.group_id),
            Request::OffsetCommit(r) => Some(&r.group_id),
            Request::OffsetFetch(r) if r.api_version >= 8 => {
                r.groups.first().map(|g| g.group_id.as_str())
            }
            Request::OffsetFetch(r) => Some(&r.group_id),
            Request::DescribeGroups(r) => r.groups.first().map(String::as_str),
            Request::ListGroups(_) => None,
            Request::DeleteGroups(r) => r.groups_names.first().map(String::as_str),
            Request::ConsumerGroupHeartbeat(r) => Some(&r.group_id),
            Request::ConsumerGroupDescribe(r) => r.group_ids.first().map(String::as_str),
            // Config resources name groups, but no group is looked up or created.
            Request::DescribeConfigs(_) | Request::IncrementalAlterConfigs(_) => None,
        }
    }

    /// Checks that the request could be sent at its version: the version is supported, and no
    /// field the version lacks carries a non-default value (Kafka's serializer refuses those).
    pub fn validate(&self) -> Result<(), RequestError> {
        let api = self.api();
        let v = self.api_version();
        let fail = |message: String| Err(RequestError { api, message });
        if v == MISSING_VERSION {
            return fail(String::from("apiVersion is required"));
        }
        if !(0..=api.max_version()).contains(&v) {
            return fail(format!(
                "version {v} is not supported (this coordinator accepts v0-v{})",
                api.max_version()
            ));
        }
        // (field, present, first version that has it, last version that has it)
        let checks: &[(&str, bool, i16, i16)] = match self {
            Request::JoinGroup(r) => &[
                ("groupInstanceId", r.group_instance_id.is_some(), 5, 9),
                ("reason", r.reason.is_some(), 8, 9),
            ],
            Request::SyncGroup(r) => &[
                ("groupInstanceId", r.group_instance_id.is_some(), 3, 5),
                ("protocolType", r.protocol_type.is_some(), 5, 5),
                ("protocolName", r.protocol_name.is_some(), 5, 5),
            ],
            Request::Heartbeat(r) => &[("groupInstanceId", r.group_instance_id.is_some(), 3, 4)],
            Request::LeaveGroup(r) => &[
                ("memberId", !r.member_id.is_empty(), 0, 2),
                ("members", !r.members.is_empty(), 3, 5),
                (
                    "members[].reason",
                    r.members.iter().any(|m| m.reason.is_some()),
                    5,
                    5,
                ),
            ],
            Request::OffsetCommit(r) => &[
                ("groupInstanceId", r.group_instance_id.is_some(), 7, 9),
                ("retentionTimeMs", r.retention_time_ms != -1, 2, 4),
                ("memberId", !r.member_id.is_empty(), 1, 9),
                (
                    "generationIdOrMemberEpoch",
                    r.generation_id_or_member_epoch != -1,
                    1,
                    9,
                ),
            ],
            Request::OffsetFetch(r) => &[
                ("groupId", !r.group_id.is_empty(), 0, 7),
                ("topics", r.topics.is_some() && v >= 8, 0, 7),
                ("groups", !r.groups.is_empty(), 8, 9),
                ("requireStable", r.require_stable, 7, 9),
                (
                    "topics: null (fetch all)",
                    r.topics.is_none() && v < 2,
                    2,
                    9,
                ),
            ],
            Request::DescribeGroups(r) => &[(
                "includeAuthorizedOperations",
                r.include_authorized_operations,
                3,
                6,
            )],
            Request::ListGroups(r) => &[
                ("statesFilter", !r.states_filter.is_empty(), 4, 5),
                ("typesFilter", !r.types_filter.is_empty(), 5, 5),
            ],
            Request::DeleteGroups(_) => &[],
            Request::ConsumerGroupHeartbeat(r) => &[(
                "subscribedTopicRegex",
                r.subscribed_topic_regex.is_some(),
                1,
                1,
            )],
            Request::ConsumerGroupDescribe(_) => &[],
            Request::DescribeConfigs(r) => &[
                ("includeSynonyms", r.include_synonyms, 1, 4),
                ("includeDocumentation", r.include_documentation, 3, 4),
            ],
            Request::IncrementalAlterConfigs(_) => &[],
        };
        for &(field, present, first, last) in checks {
            if present && !(first..=last).contains(&v) {
                return fail(format!(
                    "{field} is not in version {v} (it exists in v{first}-v{last})"
                ));
            }
        }
        Ok(())
    }
}

impl Response {
    pub fn api(&self) -> Api {
        match self {
            Response::JoinGroup(_) => Api::JoinGroup,
            Response::SyncGroup(_) => Api::SyncGroup,
            Response::Heartbeat(_) => Api::Heartbeat,
            Response::LeaveGroup(_) => Api::LeaveGroup,
            Response::OffsetCommit(_) => Api::OffsetCommit,
            Response::OffsetFetch(_) => Api::OffsetFetch,
            Response::DescribeGroups(_) => Api::DescribeGroups,
            Response::ListGroups(_) => Api::ListGroups,
            Response::DeleteGroups(_) => Api::DeleteGroups,
            Response::ConsumerGroupHeartbeat(_) => Api::ConsumerGroupHeartbeat,
            Response::ConsumerGroupDescribe(_) => Api::ConsumerGroupDescribe,
            Response::DescribeConfigs(_) => Api::DescribeConfigs,
            Response::IncrementalAlterConfigs(_) => Api::IncrementalAlterConfigs,
        }
    }

    pub fn correlation_id(&self) -> i32 {
        match self {
            Response::JoinGroup(r) => r.correlation_id,
            Response::SyncGroup(r) => r.correlation_id,
            Response::Heartbeat(r) => r.correlation_id,
            Response::LeaveGroup(r) => r.correlation_id,
            Response::OffsetCommit(r) => r.correlation_id,
            Response::OffsetFetch(r) => r.correlation_id,
            Response::DescribeGroups(r) => r.correlation_id,
            Response::ListGroups(r) => r.correlation_id,
            Response::DeleteGroups(r) => r.correlation_id,
            Response::ConsumerGroupHeartbeat(r) => r.correlation_id,
            Response::ConsumerGroupDescribe(r) => r.correlation_id,
            Response::DescribeConfigs(r) => r.correlation_id,
            Response::IncrementalAlterConfigs(r) => r.correlation_id,
        }
    }

    pub fn error_code(&self) -> crate::ErrorCode {
        match self {
            Response::JoinGroup(r) => r.error_code,
            Response::SyncGroup(r) => r.error_code,
            Response::Heartbeat(r) => r.error_code,
            Response::LeaveGroup(r) => r.error_code,
            Response::OffsetCommit(r) => r.error_code,
            Response::OffsetFetch(r) => r.error_code,
            Response::DescribeGroups(r) => r.error_code,
            Response::ListGroups(r) => r.error_code,
            Response::DeleteGroups(r) => r.error_code,
            Response::ConsumerGroupHeartbeat(r) => r.error_code,
            // Per group; the response itself has none.
            Response::ConsumerGroupDescribe(_)
            | Response::DescribeConfigs(_)
            | Response::IncrementalAlterConfigs(_) => crate::ErrorCode::None,
        }
    }
}
