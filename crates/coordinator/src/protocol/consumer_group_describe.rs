//! ConsumerGroupDescribe (API key 69): a consumer group's (KIP-848) epochs, members and their
//! current and target assignments, by topic id and name. Kafka's JSON field names.

use alloc::string::String;
use alloc::vec::Vec;
use group_coordinator_json::json;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[json(in_out)]
pub struct ConsumerGroupDescribeRequest {
    #[cfg_attr(feature = "serde", serde(default = "super::missing_version"))]
    // Declared required: a request without its version is refused.
    #[cfg_attr(feature = "schema", schemars(extend("tsRequired" = true)))]
    pub api_version: i16,
    pub correlation_id: i32,
    pub client_id: String,
    pub group_ids: Vec<String>,
    pub include_authorized_operations: bool,
}

/// One topic's partitions with the topic's id and name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[json(out)]
pub struct DescribedTopicPartitions {
    pub topic_id: crate::consumer_group::Uuid,
    pub topic_name: String,
    pub partitions: Vec<i32>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[json(out)]
pub struct DescribedAssignment {
    pub topic_partitions: Vec<DescribedTopicPartitions>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[json(out)]
pub struct DescribedConsumerGroupMember {
    pub member_id: String,
    pub instance_id: Option<String>,
    pub rack_id: Option<String>,
    pub member_epoch: i32,
    pub client_id: String,
    pub client_host: String,
    pub subscribed_topic_names: Vec<String>,
    pub subscribed_topic_regex: Option<String>,
    pub assignment: DescribedAssignment,
    pub target_assignment: DescribedAssignment,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[json(out)]
pub struct DescribedConsumerGroup {
    pub error_code: crate::ErrorCode,
    pub error_message: Option<String>,
    pub group_id: String,
    pub group_state: String,
    pub group_epoch: i32,
    pub assignment_epoch: i32,
    pub assignor_name: String,
    pub members: Vec<DescribedConsumerGroupMember>,
    /// −2147483648: not included (no ACLs are modelled).
    pub authorized_operations: i32,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[json(out)]
pub struct ConsumerGroupDescribeResponse {
    pub api_version: i16,
    pub correlation_id: i32,
    pub throttle_time_ms: i32,
    pub groups: Vec<DescribedConsumerGroup>,
}
