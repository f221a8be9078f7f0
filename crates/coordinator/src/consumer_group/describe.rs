//! ConsumerGroupDescribe: each asked-for consumer group, or GROUP_ID_NOT_FOUND (also for a
//! classic group of that id: it is not a consumer group).

use super::assignor::MemberAssignment;
use super::groups::{ConsumerGroups, preferred_assignor};
use crate::ErrorCode;
use crate::ctx::Ctx;

use crate::coordinator::Groups;
use crate::protocol::{
    ConsumerGroupDescribeRequest, ConsumerGroupDescribeResponse, DescribedAssignment,
    DescribedConsumerGroup, DescribedConsumerGroupMember, DescribedTopicPartitions,
};
use alloc::string::String;

impl ConsumerGroups {
    pub(crate) fn describe(
        &self,
        ctx: &Ctx,
        classic: &Groups,
        r: &ConsumerGroupDescribeRequest,
    ) -> ConsumerGroupDescribeResponse {
        let names = crate::ordered::map(self.topics.iter().map(|(n, t)| (t.id, n.as_str())));
        let described = |a: &MemberAssignment| DescribedAssignment {
            topic_partitions: a
                .iter()
                .map(|(t, ps)| DescribedTopicPartitions {
                    topic_id: *t,
                    topic_name: names.get(t).map_or_else(String::new, |n| String::from(*n)),
                    partitions: ps.iter().copied().collect(),
                })
                .collect(),
        };
        let groups = r
            .group_ids
            .iter()
            .map(|id| match self.groups.get(id) {
                // The coordinator's runtime refuses a group whose partition is not loaded
                // before the group is read: the error alone, without a message.
                Some(g) if g.unloaded => DescribedConsumerGroup {
                    error_code: ErrorCode::NotCoordinator,
                    group_id: id.clone(),
                    authorized_operations: i32::MIN,
                    ..Default::default()
                },
                Some(g) => DescribedConsumerGroup {
                    group_id: id.clone(),
                    group_state: String::from(g.state().name()),
                    group_epoch: g.group_epoch,
                    assignment_epoch: g.assignment_epoch,
                    assignor_name: String::from(
                        preferred_assignor(&ctx.config, g.members.values()).name(),
                    ),
                    members: g
                        .members
                        .values()
                        .map(|m| DescribedConsumerGroupMember {
                            member_id: m.member_id.clone(),
                            instance_id: m.instance_id.clone(),
                            rack_id: m.rack_id.clone(),
                            member_epoch: m.progress.member_epoch,
                            client_id: m.client_id.clone(),
                            client_host: String::from("/127.0.0.1"),
                            subscribed_topic_names: m.subscribed_topic_names.clone(),
                            // Kafka keeps "" for a member without one, and describes it so.
                            subscribed_topic_regex: Some(m.subscribed_topic_regex.clone()),
                            assignment: described(&m.progress.assigned),
                            target_assignment: described(
                                &g.target.get(&m.member_id).cloned().unwrap_or_default(),
                            ),
                        })
                        .collect(),
                    // No ACLs are modelled: "not included", as the classic DescribeGroups says.
                    authorized_operations: i32::MIN,
                    ..Default::default()
                },
                _ => DescribedConsumerGroup {
                    error_code: ErrorCode::GroupIdNotFound,
                    error_message: Some(if classic.contains_key(id) {
                        alloc::format!("Group {id} is not a consumer group.")
                    } else {
                        alloc::format!("Group {id} not found.")
                    }),
                    group_id: id.clone(),
                    authorized_operations: i32::MIN,
                    ..Default::default()
                },
            })
            .collect();
        ConsumerGroupDescribeResponse {
            api_version: r.api_version,
            correlation_id: r.correlation_id,
            throttle_time_ms: 0,
            groups,
        }
    }
}
