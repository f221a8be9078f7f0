//! The model's responses into wire responses (kafka-protocol's messages), field by field. The
//! model fills only the fields its response's version has, as Kafka's coordinator does, so the
//! encoder (which refuses a field its version lacks) sees a well-formed message.

use group_coordinator::Response;
use group_coordinator::protocol as model;
use kafka_protocol::messages as wire;
use kafka_protocol::messages::{GroupId, TopicName};

use super::{bytes_out, opt_str, str, uuid_out};

/// A wire response ready to encode, with its api key.
#[derive(Debug)]
pub enum WireResponse {
    JoinGroup(wire::JoinGroupResponse),
    SyncGroup(wire::SyncGroupResponse),
    Heartbeat(wire::HeartbeatResponse),
    LeaveGroup(wire::LeaveGroupResponse),
    OffsetCommit(wire::OffsetCommitResponse),
    OffsetFetch(wire::OffsetFetchResponse),
    DescribeGroups(wire::DescribeGroupsResponse),
    ListGroups(wire::ListGroupsResponse),
    DeleteGroups(wire::DeleteGroupsResponse),
    ConsumerGroupHeartbeat(wire::ConsumerGroupHeartbeatResponse),
    ConsumerGroupDescribe(wire::ConsumerGroupDescribeResponse),
    DescribeConfigs(wire::DescribeConfigsResponse),
    IncrementalAlterConfigs(wire::IncrementalAlterConfigsResponse),
}

fn group(id: &str) -> GroupId {
    GroupId(str(id))
}

fn topic(name: &str) -> TopicName {
    TopicName(str(name))
}

pub fn to_wire(response: &Response) -> WireResponse {
    match response {
        Response::JoinGroup(r) => WireResponse::JoinGroup(join_group(r)),
        Response::SyncGroup(r) => {
            let mut w = wire::SyncGroupResponse::default();
            w.throttle_time_ms = r.throttle_time_ms;
            w.error_code = r.error_code.code();
            w.protocol_type = opt_str(&r.protocol_type);
            w.protocol_name = opt_str(&r.protocol_name);
            w.assignment = bytes_out(&r.assignment);
            WireResponse::SyncGroup(w)
        }
        Response::Heartbeat(r) => {
            let mut w = wire::HeartbeatResponse::default();
            w.throttle_time_ms = r.throttle_time_ms;
            w.error_code = r.error_code.code();
            WireResponse::Heartbeat(w)
        }
        Response::LeaveGroup(r) => {
            let mut w = wire::LeaveGroupResponse::default();
            w.throttle_time_ms = r.throttle_time_ms;
            w.error_code = r.error_code.code();
            w.members = r
                .members
                .iter()
                .map(|m| {
                    let mut wm = wire::leave_group_response::MemberResponse::default();
                    wm.member_id = str(&m.member_id);
                    wm.group_instance_id = opt_str(&m.group_instance_id);
                    wm.error_code = m.error_code.code();
                    wm
                })
                .collect();
            WireResponse::LeaveGroup(w)
        }
        Response::OffsetCommit(r) => WireResponse::OffsetCommit(offset_commit(r)),
        Response::OffsetFetch(r) => WireResponse::OffsetFetch(offset_fetch(r)),
        Response::DescribeGroups(r) => WireResponse::DescribeGroups(describe_groups(r)),
        Response::ListGroups(r) => {
            let mut w = wire::ListGroupsResponse::default();
            w.throttle_time_ms = r.throttle_time_ms;
            w.error_code = r.error_code.code();
            w.groups = r
                .groups
                .iter()
                .map(|g| {
                    let mut wg = wire::list_groups_response::ListedGroup::default();
                    wg.group_id = group(&g.group_id);
                    wg.protocol_type = str(&g.protocol_type);
                    wg.group_state = str(&g.group_state);
                    wg.group_type = str(&g.group_type);
                    wg
                })
                .collect();
            WireResponse::ListGroups(w)
        }
        Response::DeleteGroups(r) => {
            let mut w = wire::DeleteGroupsResponse::default();
            w.throttle_time_ms = r.throttle_time_ms;
            w.results = r
                .results
                .iter()
                .map(|g| {
                    let mut wg = wire::delete_groups_response::DeletableGroupResult::default();
                    wg.group_id = group(&g.group_id);
                    wg.error_code = g.error_code.code();
                    wg
                })
                .collect();
            WireResponse::DeleteGroups(w)
        }
        Response::ConsumerGroupHeartbeat(r) => {
            WireResponse::ConsumerGroupHeartbeat(consumer_group_heartbeat(r))
        }
        Response::ConsumerGroupDescribe(r) => {
            WireResponse::ConsumerGroupDescribe(consumer_group_describe(r))
        }
        Response::DescribeConfigs(r) => WireResponse::DescribeConfigs(describe_configs(r)),
        Response::IncrementalAlterConfigs(r) => {
            let mut w = wire::IncrementalAlterConfigsResponse::default();
            w.throttle_time_ms = r.throttle_time_ms;
            w.responses = r
                .responses
                .iter()
                .map(|x| {
                    let mut wx = wire::incremental_alter_configs_response::AlterConfigsResourceResponse::default();
                    wx.error_code = x.error_code.code();
                    wx.error_message = opt_str(&x.error_message);
                    wx.resource_type = x.resource_type;
                    wx.resource_name = str(&x.resource_name);
                    wx
                })
                .collect();
            WireResponse::IncrementalAlterConfigs(w)
        }
    }
}

fn describe_configs(r: &model::DescribeConfigsResponse) -> wire::DescribeConfigsResponse {
    let mut w = wire::DescribeConfigsResponse::default();
    w.throttle_time_ms = r.throttle_time_ms;
    w.results = r
        .results
        .iter()
        .map(|x| {
            let mut wx = wire::describe_configs_response::DescribeConfigsResult::default();
            wx.error_code = x.error_code.code();
            wx.error_message = opt_str(&x.error_message);
            wx.resource_type = x.resource_type;
            wx.resource_name = str(&x.resource_name);
            wx.configs = x
                .configs
                .iter()
                .map(|c| {
                    let mut wc =
                        wire::describe_configs_response::DescribeConfigsResourceResult::default();
                    wc.name = str(&c.name);
                    wc.value = opt_str(&c.value);
                    wc.read_only = c.read_only;
                    wc.config_source = c.config_source;
                    wc.is_sensitive = c.is_sensitive;
                    wc.config_type = c.config_type;
                    wc
                })
                .collect();
            wx
        })
        .collect();
    w
}

fn join_group(r: &model::JoinGroupResponse) -> wire::JoinGroupResponse {
    let mut w = wire::JoinGroupResponse::default();
    w.throttle_time_ms = r.throttle_time_ms;
    w.error_code = r.error_code.code();
    w.generation_id = r.generation_id;
    w.protocol_type = opt_str(&r.protocol_type);
    w.protocol_name = opt_str(&r.protocol_name);
    w.leader = str(&r.leader);
    w.skip_assignment = r.skip_assignment;
    w.member_id = str(&r.member_id);
    w.members = r
        .members
        .iter()
        .map(|m| {
            let mut wm = wire::join_group_response::JoinGroupResponseMember::default();
            wm.member_id = str(&m.member_id);
            wm.group_instance_id = opt_str(&m.group_instance_id);
            wm.metadata = bytes_out(&m.metadata);
            wm
        })
        .collect();
    w
}

fn offset_commit(r: &model::OffsetCommitResponse) -> wire::OffsetCommitResponse {
    let mut w = wire::OffsetCommitResponse::default();
    w.throttle_time_ms = r.throttle_time_ms;
    w.topics = r
        .topics
        .iter()
        .map(|t| {
            let mut wt = wire::offset_commit_response::OffsetCommitResponseTopic::default();
            wt.name = topic(&t.name);
            wt.partitions = t
                .partitions
                .iter()
                .map(|p| {
                    let mut wp =
                        wire::offset_commit_response::OffsetCommitResponsePartition::default();
                    wp.partition_index = p.partition_index;
                    wp.error_code = p.error_code.code();
                    wp
                })
                .collect();
            wt
        })
        .collect();
    w
}

/// OffsetFetch's topics come in two generated types with the same fields: the top-level list
/// (before v8) and each group's (v8 on).
macro_rules! fetched_topics {
    ($topics:expr, $topic:ty, $partition:ty) => {
        $topics
            .iter()
            .map(|t| {
                let mut wt = <$topic>::default();
                wt.name = topic(&t.name);
                wt.partitions = t
                    .partitions
                    .iter()
                    .map(|p| {
                        let mut wp = <$partition>::default();
                        wp.partition_index = p.partition_index;
                        wp.committed_offset = p.committed_offset;
                        wp.committed_leader_epoch = p.committed_leader_epoch;
                        wp.metadata = opt_str(&p.metadata);
                        wp.error_code = p.error_code.code();
                        wp
                    })
                    .collect();
                wt
            })
            .collect()
    };
}

fn offset_fetch(r: &model::OffsetFetchResponse) -> wire::OffsetFetchResponse {
    use wire::offset_fetch_response as of;
    let mut w = wire::OffsetFetchResponse::default();
    w.throttle_time_ms = r.throttle_time_ms;
    w.error_code = r.error_code.code();
    w.topics = fetched_topics!(
        r.topics,
        of::OffsetFetchResponseTopic,
        of::OffsetFetchResponsePartition
    );
    w.groups = r
        .groups
        .iter()
        .map(|g| {
            let mut wg = of::OffsetFetchResponseGroup::default();
            wg.group_id = group(&g.group_id);
            wg.error_code = g.error_code.code();
            wg.topics = fetched_topics!(
                g.topics,
                of::OffsetFetchResponseTopics,
                of::OffsetFetchResponsePartitions
            );
            wg
        })
        .collect();
    w
}

fn describe_groups(r: &model::DescribeGroupsResponse) -> wire::DescribeGroupsResponse {
    use wire::describe_groups_response as dg;
    let mut w = wire::DescribeGroupsResponse::default();
    w.throttle_time_ms = r.throttle_time_ms;
    w.groups = r
        .groups
        .iter()
        .map(|g| {
            let mut wg = dg::DescribedGroup::default();
            wg.error_code = g.error_code.code();
            wg.error_message = opt_str(&g.error_message);
            wg.group_id = group(&g.group_id);
            wg.group_state = str(&g.group_state);
            wg.protocol_type = str(&g.protocol_type);
            wg.protocol_data = str(&g.protocol_data);
            wg.authorized_operations = g.authorized_operations;
            wg.members = g
                .members
                .iter()
                .map(|m| {
                    let mut wm = dg::DescribedGroupMember::default();
                    wm.member_id = str(&m.member_id);
                    wm.group_instance_id = opt_str(&m.group_instance_id);
                    wm.client_id = str(&m.client_id);
                    wm.client_host = str(&m.client_host);
                    wm.member_metadata = bytes_out(&m.member_metadata);
                    wm.member_assignment = bytes_out(&m.member_assignment);
                    wm
                })
                .collect();
            wg
        })
        .collect();
    w
}

fn consumer_group_heartbeat(
    r: &model::ConsumerGroupHeartbeatResponse,
) -> wire::ConsumerGroupHeartbeatResponse {
    use wire::consumer_group_heartbeat_response as ch;
    let mut w = wire::ConsumerGroupHeartbeatResponse::default();
    w.throttle_time_ms = r.throttle_time_ms;
    w.error_code = r.error_code.code();
    w.error_message = opt_str(&r.error_message);
    w.member_id = opt_str(&r.member_id);
    w.member_epoch = r.member_epoch;
    w.heartbeat_interval_ms = r.heartbeat_interval_ms;
    w.assignment = r.assignment.as_ref().map(|a| {
        let mut wa = ch::Assignment::default();
        wa.topic_partitions = a
            .topic_partitions
            .iter()
            .map(|t| {
                let mut wt = ch::TopicPartitions::default();
                wt.topic_id = uuid_out(t.topic_id);
                wt.partitions = t.partitions.clone();
                wt
            })
            .collect();
        wa
    });
    w
}

fn consumer_group_describe(
    r: &model::ConsumerGroupDescribeResponse,
) -> wire::ConsumerGroupDescribeResponse {
    use wire::consumer_group_describe_response as cd;
    let assignment = |a: &model::DescribedAssignment| {
        let mut wa = cd::Assignment::default();
        wa.topic_partitions = a
            .topic_partitions
            .iter()
            .map(|t| {
                let mut wt = cd::TopicPartitions::default();
                wt.topic_id = uuid_out(t.topic_id);
                wt.topic_name = topic(&t.topic_name);
                wt.partitions = t.partitions.clone();
                wt
            })
            .collect();
        wa
    };
    let mut w = wire::ConsumerGroupDescribeResponse::default();
    w.throttle_time_ms = r.throttle_time_ms;
    w.groups = r
        .groups
        .iter()
        .map(|g| {
            let mut wg = cd::DescribedGroup::default();
            wg.error_code = g.error_code.code();
            wg.error_message = opt_str(&g.error_message);
            wg.group_id = group(&g.group_id);
            wg.group_state = str(&g.group_state);
            wg.group_epoch = g.group_epoch;
            wg.assignment_epoch = g.assignment_epoch;
            wg.assignor_name = str(&g.assignor_name);
            wg.authorized_operations = g.authorized_operations;
            wg.members = g
                .members
                .iter()
                .map(|m| {
                    let mut wm = cd::Member::default();
                    wm.member_id = str(&m.member_id);
                    wm.instance_id = opt_str(&m.instance_id);
                    wm.rack_id = opt_str(&m.rack_id);
                    wm.member_epoch = m.member_epoch;
                    wm.client_id = str(&m.client_id);
                    wm.client_host = str(&m.client_host);
                    wm.subscribed_topic_names =
                        m.subscribed_topic_names.iter().map(|t| topic(t)).collect();
                    wm.subscribed_topic_regex = opt_str(&m.subscribed_topic_regex);
                    wm.assignment = assignment(&m.assignment);
                    wm.target_assignment = assignment(&m.target_assignment);
                    wm
                })
                .collect();
            wg
        })
        .collect();
    w
}
