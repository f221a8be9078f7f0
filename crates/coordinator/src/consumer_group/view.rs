//! A consumer group as the views and `describe` show it: epochs, states, and each member's
//! assigned, pending-revocation and target partitions by topic name.

use super::assignor::MemberAssignment;
use super::group::{ConsumerGroup, ConsumerGroupState, TopicImage};
use super::reconcile::MemberState;
use super::uuid::Uuid;
use crate::timer::TimerKey;

use crate::config::BrokerConfig;
use crate::timer::TimerQueue;
use crate::timer::TimerView;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use group_coordinator_json::json;

/// One topic's partitions, by topic name.
#[derive(Clone, Debug, PartialEq, Eq)]
#[json(out)]
pub struct TopicPartitionsView {
    pub topic: String,
    pub partitions: Vec<i32>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
#[json(out)]
pub struct ConsumerMemberView {
    pub member_id: String,
    pub instance_id: Option<String>,
    pub rack_id: Option<String>,
    pub client_id: String,
    pub member_epoch: i32,
    pub previous_member_epoch: i32,
    pub state: MemberState,
    pub subscribed_topic_names: Vec<String>,
    /// Its `SubscribedTopicRegex` (none: `None`).
    pub subscribed_topic_regex: Option<String>,
    pub server_assignor: Option<String>,
    pub rebalance_timeout_ms: i32,
    /// The member speaks the classic protocol (JoinGroup, SyncGroup, Heartbeat) inside the
    /// consumer group; its session timeout is its own.
    pub classic_protocol: bool,
    pub assigned: Vec<TopicPartitionsView>,
    pub pending_revocation: Vec<TopicPartitionsView>,
    pub target: Vec<TopicPartitionsView>,
    pub session_deadline_ms: Option<i64>,
    pub rebalance_deadline_ms: Option<i64>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
#[json(out)]
pub struct ConsumerGroupView {
    pub group_id: String,
    /// Always "consumer" (a classic group's view says "classic").
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    #[cfg_attr(feature = "schema", schemars(extend("tsType" = "\"consumer\"")))]
    pub group_type: &'static str,
    pub state: ConsumerGroupState,
    pub group_epoch: i32,
    pub assignment_epoch: i32,
    /// The server assignor the next target would be computed with.
    #[cfg_attr(feature = "schema", schemars(extend("tsType" = r#""uniform" | "range""#)))]
    pub preferred_assignor: &'static str,
    pub members: Vec<ConsumerMemberView>,
    /// Each subscribed regular expression resolved so far, with the topics it matched.
    pub resolved_regular_expressions: Vec<crate::event::ResolvedRegex>,
    pub timers: Vec<TimerView>,
    /// The coordinator has unloaded the group (a failover under way): it answers
    /// NOT_COORDINATOR and has no timers until loaded.
    pub unloaded: bool,
}

fn by_name(a: &MemberAssignment, names: &BTreeMap<Uuid, &str>) -> Vec<TopicPartitionsView> {
    let mut out: Vec<TopicPartitionsView> = a
        .iter()
        .map(|(t, ps)| TopicPartitionsView {
            topic: names
                .get(t)
                .map_or_else(|| alloc::format!("{t}"), |n| String::from(*n)),
            partitions: ps.iter().copied().collect(),
        })
        .collect();
    crate::ordered::sort_by(&mut out, |x, y| x.topic.cmp(&y.topic));
    out
}

impl ConsumerGroupView {
    pub(crate) fn of(
        group: &ConsumerGroup,
        topics: &BTreeMap<String, TopicImage>,
        timers: &TimerQueue<TimerKey>,
        config: &BrokerConfig,
    ) -> ConsumerGroupView {
        let names = crate::ordered::map(topics.iter().map(|(n, t)| (t.id, n.as_str())));
        let g = &group.group_id;
        ConsumerGroupView {
            group_id: g.clone(),
            group_type: "consumer",
            state: group.state(),
            group_epoch: group.group_epoch,
            assignment_epoch: group.assignment_epoch,
            preferred_assignor: super::groups::preferred_assignor(config, group.members.values())
                .name(),
            members: group
                .members
                .values()
                .map(|m| ConsumerMemberView {
                    member_id: m.member_id.clone(),
                    instance_id: m.instance_id.clone(),
                    rack_id: m.rack_id.clone(),
                    client_id: m.client_id.clone(),
                    member_epoch: m.progress.member_epoch,
                    previous_member_epoch: m.progress.previous_member_epoch,
                    state: m.progress.state,
                    subscribed_topic_names: m.subscribed_topic_names.clone(),
                    subscribed_topic_regex: (!m.subscribed_topic_regex.is_empty())
                        .then(|| m.subscribed_topic_regex.clone()),
                    server_assignor: m.server_assignor.clone(),
                    rebalance_timeout_ms: m.rebalance_timeout_ms,
                    classic_protocol: m.uses_classic_protocol(),
                    assigned: by_name(&m.progress.assigned, &names),
                    pending_revocation: by_name(&m.progress.pending_revocation, &names),
                    target: by_name(
                        &group.target.get(&m.member_id).cloned().unwrap_or_default(),
                        &names,
                    ),
                    session_deadline_ms: timers
                        .deadline(&TimerKey::ConsumerSession(g.clone(), m.member_id.clone())),
                    rebalance_deadline_ms: timers
                        .deadline(&TimerKey::ConsumerRebalance(g.clone(), m.member_id.clone())),
                })
                .collect(),
            resolved_regular_expressions: group
                .resolved_regular_expressions
                .iter()
                .map(|(regex, r)| crate::event::ResolvedRegex {
                    regex: regex.clone(),
                    topics: r.topics.clone(),
                })
                .collect(),
            timers: TimerView::of_group(timers, g),
            unloaded: group.unloaded,
        }
    }
}
