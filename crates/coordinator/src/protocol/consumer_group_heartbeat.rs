//! ConsumerGroupHeartbeat (API key 68, v0–v1): the one RPC of the KIP-848 consumer group
//! protocol (`docs/src/reference/consumer-group-protocol.md#heartbeat`). Kafka's JSON field names.

use crate::consumer_group::Uuid;
use alloc::string::String;
use alloc::vec::Vec;
use group_coordinator_json::json;

/// One topic's partitions, by topic id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[json(in_out)]
pub struct TopicIdPartitions {
    pub topic_id: Uuid,
    pub partitions: Vec<i32>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[json(in_out)]
pub struct ConsumerGroupHeartbeatRequest {
    #[cfg_attr(feature = "serde", serde(default = "super::missing_version"))]
    // Declared required: a request without its version is refused.
    #[cfg_attr(feature = "schema", schemars(extend("tsRequired" = true)))]
    pub api_version: i16,
    pub correlation_id: i32,
    pub client_id: String,
    pub group_id: String,
    /// KIP-1082: the client makes its own (a UUID) and sends it from the first heartbeat on.
    pub member_id: String,
    /// 0 joins, −1 leaves, −2 leaves for a while (a static member), > 0 the current epoch.
    pub member_epoch: i32,
    /// `group.instance.id`; null: not given or unchanged.
    pub instance_id: Option<String>,
    /// null: unchanged.
    pub rack_id: Option<String>,
    /// −1: unchanged; required when joining.
    pub rebalance_timeout_ms: i32,
    /// null: unchanged; required and non-empty when joining.
    pub subscribed_topic_names: Option<Vec<String>>,
    /// v1; not supported (INVALID_REQUEST), as in the Kafka source these rules come from.
    pub subscribed_topic_regex: Option<String>,
    /// null: unchanged or none.
    pub server_assignor: Option<String>,
    /// What the member owns; null: unchanged; must be present and empty when joining.
    pub topic_partitions: Option<Vec<TopicIdPartitions>>,
}

impl Default for ConsumerGroupHeartbeatRequest {
    fn default() -> Self {
        ConsumerGroupHeartbeatRequest {
            api_version: 0,
            correlation_id: 0,
            client_id: String::new(),
            group_id: String::new(),
            member_id: String::new(),
            member_epoch: 0,
            instance_id: None,
            rack_id: None,
            rebalance_timeout_ms: -1,
            subscribed_topic_names: None,
            subscribed_topic_regex: None,
            server_assignor: None,
            topic_partitions: None,
        }
    }
}

/// The member's assigned partitions (not those pending revocation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[json(out)]
pub struct ConsumerGroupHeartbeatAssignment {
    pub topic_partitions: Vec<TopicIdPartitions>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[json(out)]
pub struct ConsumerGroupHeartbeatResponse {
    pub api_version: i16,
    pub correlation_id: i32,
    pub throttle_time_ms: i32,
    pub error_code: crate::ErrorCode,
    pub error_message: Option<String>,
    pub member_id: Option<String>,
    pub member_epoch: i32,
    pub heartbeat_interval_ms: i32,
    /// Only when the request was a full one or the assignment changed.
    pub assignment: Option<ConsumerGroupHeartbeatAssignment>,
}

impl ConsumerGroupHeartbeatRequest {
    /// [`super::Request::validate`] for this request alone.
    pub fn api_version_checked(&self) -> Result<(), super::RequestError> {
        super::Request::ConsumerGroupHeartbeat(self.clone()).validate()
    }
}
