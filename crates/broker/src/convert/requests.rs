//! Wire requests (kafka-protocol's decoded messages) into the model's requests, field by field.
//!
//! Both sides carry every field of every version; a field the request's version lacks keeps its
//! schema default on the wire side, which is the model's default too, so the model sees exactly
//! what Kafka's `RequestContext` would hand its coordinator.

use group_coordinator::Request;
use group_coordinator::protocol as model;
use kafka_protocol::messages as wire;

use super::{bytes_in, opt_text, text, uuid_in};

/// What the request header says, with the id the front end gave the request (the model answers
/// parked requests later and out of order; the id finds the connection again).
#[derive(Clone, Debug)]
pub struct Head {
    pub api_version: i16,
    pub routing_id: i32,
    pub client_id: String,
}

pub fn join_group(r: wire::JoinGroupRequest, h: &Head) -> Request {
    Request::JoinGroup(model::JoinGroupRequest {
        api_version: h.api_version,
        correlation_id: h.routing_id,
        client_id: h.client_id.clone(),
        group_id: text(&r.group_id.0),
        session_timeout_ms: r.session_timeout_ms,
        rebalance_timeout_ms: r.rebalance_timeout_ms,
        member_id: text(&r.member_id),
        group_instance_id: opt_text(&r.group_instance_id),
        protocol_type: text(&r.protocol_type),
        protocols: r
            .protocols
            .iter()
            .map(|p| model::JoinGroupRequestProtocol {
                name: text(&p.name),
                metadata: bytes_in(&p.metadata),
            })
            .collect(),
        reason: opt_text(&r.reason),
    })
}

pub fn sync_group(r: wire::SyncGroupRequest, h: &Head) -> Request {
    Request::SyncGroup(model::SyncGroupRequest {
        api_version: h.api_version,
        correlation_id: h.routing_id,
        client_id: h.client_id.clone(),
        group_id: text(&r.group_id.0),
        generation_id: r.generation_id,
        member_id: text(&r.member_id),
        group_instance_id: opt_text(&r.group_instance_id),
        protocol_type: opt_text(&r.protocol_type),
        protocol_name: opt_text(&r.protocol_name),
        assignments: r
            .assignments
            .iter()
            .map(|a| model::SyncGroupRequestAssignment {
                member_id: text(&a.member_id),
                assignment: bytes_in(&a.assignment),
            })
            .collect(),
    })
}

pub fn heartbeat(r: wire::HeartbeatRequest, h: &Head) -> Request {
    Request::Heartbeat(model::HeartbeatRequest {
        api_version: h.api_version,
        correlation_id: h.routing_id,
        client_id: h.client_id.clone(),
        group_id: text(&r.group_id.0),
        generation_id: r.generation_id,
        member_id: text(&r.member_id),
        group_instance_id: opt_text(&r.group_instance_id),
    })
}

pub fn leave_group(r: wire::LeaveGroupRequest, h: &Head) -> Request {
    Request::LeaveGroup(model::LeaveGroupRequest {
        api_version: h.api_version,
        correlation_id: h.routing_id,
        client_id: h.client_id.clone(),
        group_id: text(&r.group_id.0),
        member_id: text(&r.member_id),
        members: r
            .members
            .iter()
            .map(|m| model::MemberIdentity {
                member_id: text(&m.member_id),
                group_instance_id: opt_text(&m.group_instance_id),
                reason: opt_text(&m.reason),
            })
            .collect(),
    })
}

pub fn offset_commit(r: wire::OffsetCommitRequest, h: &Head) -> Request {
    Request::OffsetCommit(model::OffsetCommitRequest {
        api_version: h.api_version,
        correlation_id: h.routing_id,
        client_id: h.client_id.clone(),
        group_id: text(&r.group_id.0),
        generation_id_or_member_epoch: r.generation_id_or_member_epoch,
        member_id: text(&r.member_id),
        group_instance_id: opt_text(&r.group_instance_id),
        retention_time_ms: r.retention_time_ms,
        topics: r
            .topics
            .iter()
            .map(|t| model::OffsetCommitRequestTopic {
                name: text(&t.name.0),
                partitions: t
                    .partitions
                    .iter()
                    .map(|p| model::OffsetCommitRequestPartition {
                        partition_index: p.partition_index,
                        committed_offset: p.committed_offset,
                        committed_leader_epoch: p.committed_leader_epoch,
                        // Only v1 carried a commit timestamp; the wire versions served start at 2.
                        commit_timestamp: -1,
                        committed_metadata: opt_text(&p.committed_metadata),
                    })
                    .collect(),
            })
            .collect(),
    })
}

pub fn offset_fetch(r: wire::OffsetFetchRequest, h: &Head) -> Request {
    // The top-level topics (before v8) and each group's (v8 on) are two generated types with
    // the same two fields.
    macro_rules! topics {
        ($ts:expr) => {
            $ts.iter()
                .map(|t| model::OffsetFetchRequestTopic {
                    name: text(&t.name.0),
                    partition_indexes: t.partition_indexes.clone(),
                })
                .collect()
        };
    }
    let batched = h.api_version >= 8;
    Request::OffsetFetch(model::OffsetFetchRequest {
        api_version: h.api_version,
        correlation_id: h.routing_id,
        client_id: h.client_id.clone(),
        group_id: text(&r.group_id.0),
        // v8+ names its topics per group (the top-level list is not on the wire).
        topics: if batched {
            None
        } else {
            r.topics.as_ref().map(|ts| topics!(ts))
        },
        groups: r
            .groups
            .iter()
            .map(|g| model::OffsetFetchRequestGroup {
                group_id: text(&g.group_id.0),
                member_id: opt_text(&g.member_id),
                member_epoch: g.member_epoch,
                topics: g.topics.as_ref().map(|ts| topics!(ts)),
            })
            .collect(),
        require_stable: r.require_stable,
    })
}

pub fn describe_groups(r: wire::DescribeGroupsRequest, h: &Head) -> Request {
    Request::DescribeGroups(model::DescribeGroupsRequest {
        api_version: h.api_version,
        correlation_id: h.routing_id,
        client_id: h.client_id.clone(),
        groups: r.groups.iter().map(|g| text(&g.0)).collect(),
        include_authorized_operations: r.include_authorized_operations,
    })
}

pub fn list_groups(r: wire::ListGroupsRequest, h: &Head) -> Request {
    Request::ListGroups(model::ListGroupsRequest {
        api_version: h.api_version,
        correlation_id: h.routing_id,
        client_id: h.client_id.clone(),
        states_filter: r.states_filter.iter().map(text).collect(),
        types_filter: r.types_filter.iter().map(text).collect(),
    })
}

pub fn delete_groups(r: wire::DeleteGroupsRequest, h: &Head) -> Request {
    Request::DeleteGroups(model::DeleteGroupsRequest {
        api_version: h.api_version,
        correlation_id: h.routing_id,
        client_id: h.client_id.clone(),
        groups_names: r.groups_names.iter().map(|g| text(&g.0)).collect(),
    })
}

pub fn consumer_group_heartbeat(r: wire::ConsumerGroupHeartbeatRequest, h: &Head) -> Request {
    Request::ConsumerGroupHeartbeat(model::ConsumerGroupHeartbeatRequest {
        api_version: h.api_version,
        correlation_id: h.routing_id,
        client_id: h.client_id.clone(),
        group_id: text(&r.group_id.0),
        member_id: text(&r.member_id),
        member_epoch: r.member_epoch,
        instance_id: opt_text(&r.instance_id),
        rack_id: opt_text(&r.rack_id),
        rebalance_timeout_ms: r.rebalance_timeout_ms,
        subscribed_topic_names: r
            .subscribed_topic_names
            .as_ref()
            .map(|ts| ts.iter().map(|t| text(&t.0)).collect()),
        subscribed_topic_regex: opt_text(&r.subscribed_topic_regex),
        server_assignor: opt_text(&r.server_assignor),
        topic_partitions: r.topic_partitions.as_ref().map(|ts| {
            ts.iter()
                .map(|t| model::TopicIdPartitions {
                    topic_id: uuid_in(&t.topic_id),
                    partitions: t.partitions.clone(),
                })
                .collect()
        }),
    })
}

pub fn consumer_group_describe(r: wire::ConsumerGroupDescribeRequest, h: &Head) -> Request {
    Request::ConsumerGroupDescribe(model::ConsumerGroupDescribeRequest {
        api_version: h.api_version,
        correlation_id: h.routing_id,
        client_id: h.client_id.clone(),
        group_ids: r.group_ids.iter().map(|g| text(&g.0)).collect(),
        include_authorized_operations: r.include_authorized_operations,
    })
}

pub fn describe_configs(r: wire::DescribeConfigsRequest, h: &Head) -> Request {
    Request::DescribeConfigs(model::DescribeConfigsRequest {
        api_version: h.api_version,
        correlation_id: h.routing_id,
        client_id: h.client_id.clone(),
        resources: r
            .resources
            .iter()
            .map(|x| model::DescribeConfigsResource {
                resource_type: x.resource_type,
                resource_name: text(&x.resource_name),
                configuration_keys: x
                    .configuration_keys
                    .as_ref()
                    .map(|keys| keys.iter().map(text).collect()),
            })
            .collect(),
        include_synonyms: r.include_synonyms,
        include_documentation: r.include_documentation,
    })
}

pub fn incremental_alter_configs(r: wire::IncrementalAlterConfigsRequest, h: &Head) -> Request {
    Request::IncrementalAlterConfigs(model::IncrementalAlterConfigsRequest {
        api_version: h.api_version,
        correlation_id: h.routing_id,
        client_id: h.client_id.clone(),
        resources: r
            .resources
            .iter()
            .map(|x| model::AlterConfigsResource {
                resource_type: x.resource_type,
                resource_name: text(&x.resource_name),
                configs: x
                    .configs
                    .iter()
                    .map(|c| model::AlterableConfigEntry {
                        name: text(&c.name),
                        config_operation: c.config_operation,
                        value: c.value.as_ref().map(text),
                    })
                    .collect(),
            })
            .collect(),
        validate_only: r.validate_only,
    })
}
