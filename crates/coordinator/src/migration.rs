//! Online migration between the two group types (Kafka 4.0, KIP-848; `GroupMetadataManager`'s
//! `convertToConsumerGroup` and `convertToClassicGroup`), under
//! `group.consumer.migration.policy` (`docs/src/reference/consumer-group-protocol.md#migration`):
//!
//! - **Upgrade.** A ConsumerGroupHeartbeat at epoch 0 to a classic group with members converts
//!   it, when the policy allows upgrades, the group's protocol type is `consumer` and it is no
//!   larger than `group.consumer.max.size`. Parked JoinGroups and SyncGroups are answered
//!   REBALANCE_IN_PROGRESS; every member becomes STABLE at the generation, its last classic
//!   assignment both its current and its target assignment; the group and assignment epochs
//!   become the generation. The joining member then bumps the group epoch as any new member.
//! - **Downgrade.** When the last member that speaks the consumer protocol leaves or is fenced
//!   and the others all speak the classic protocol, the group becomes a classic group, when
//!   the policy allows downgrades and the rest fit `group.max.size`: Stable at the group epoch,
//!   each member's target as its assignment, then a rebalance. A static member that rejoins
//!   with the classic protocol in place of the last consumer-protocol member converts it too,
//!   without a rebalance.

use crate::ErrorCode;
use crate::classic::{ClassicGroup, ClassicGroupMember, GroupState};
use crate::config::BrokerConfig;
use crate::consumer_group::assignor::MemberAssignment;
use crate::consumer_group::reconcile::{MemberState, Progress};
use crate::consumer_group::{
    ClassicMemberMetadata, ConsumerGroup, ConsumerGroupMember, ConsumerGroupState, TopicImage,
};
use crate::consumer_protocol::{Assignment, PROTOCOL_TYPE, Subscription, TopicPartitions};
use crate::ctx::Ctx;
use crate::event::{Cause, EventKind, GroupType};
use crate::protocol::Bytes;
use crate::timer::TimerKey;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

/// `validateOnlineUpgrade`.
pub(crate) fn can_upgrade(config: &BrokerConfig, classic: &ClassicGroup) -> bool {
    config.group_consumer_migration_policy.is_upgrade_enabled()
        && classic.protocol_type() == Some(PROTOCOL_TYPE)
        && i64::try_from(classic.num_members()).unwrap_or(i64::MAX)
            <= i64::from(config.group_consumer_max_size)
}

/// `validateOnlineDowngradeWithFencedMember`: `fenced` leaves, and it was the last member that
/// speaks the consumer protocol in a group that keeps members.
pub(crate) fn can_downgrade_without(
    config: &BrokerConfig,
    group: &ConsumerGroup,
    fenced: &str,
) -> bool {
    group.all_members_use_classic_protocol_except(fenced)
        && group.members.len() > 1
        && config
            .group_consumer_migration_policy
            .is_downgrade_enabled()
        && i64::try_from(group.members.len() - 1).unwrap_or(i64::MAX)
            <= i64::from(config.group_max_size)
}

/// `validateOnlineDowngradeWithReplacedMemberId`: a static member speaking the classic protocol
/// takes the place of `replaced`, the last member that speaks the consumer protocol.
pub(crate) fn can_downgrade_replacing(
    config: &BrokerConfig,
    group: &ConsumerGroup,
    replaced: &str,
) -> bool {
    group.all_members_use_classic_protocol_except(replaced)
        && config
            .group_consumer_migration_policy
            .is_downgrade_enabled()
        && i64::try_from(group.members.len()).unwrap_or(i64::MAX)
            <= i64::from(config.group_max_size)
}

/// The topic-name partitions of a classic assignment, by topic id (topics the image does not
/// know are left out, as Kafka's `toTopicPartitionMap` does).
pub(crate) fn by_topic_id(
    partitions: &[TopicPartitions],
    topics: &BTreeMap<String, TopicImage>,
) -> MemberAssignment {
    let mut out = MemberAssignment::new();
    for tp in partitions {
        if let Some(t) = topics.get(&*tp.topic) {
            out.entry(t.id)
                .or_default()
                .extend(tp.partitions.iter().copied());
        }
    }
    out
}

/// A member's partitions by topic name, in name then partition order (Kafka iterates hash maps
/// here; the canonical order keeps the bytes the same run after run).
pub(crate) fn by_topic_name(
    assignment: &MemberAssignment,
    topics: &BTreeMap<String, TopicImage>,
) -> Vec<TopicPartitions> {
    let names = crate::ordered::map(topics.iter().map(|(n, t)| (t.id, n.as_str())));
    let mut out: Vec<TopicPartitions> = assignment
        .iter()
        .filter_map(|(id, ps)| {
            names.get(id).map(|n| TopicPartitions {
                topic: alloc::sync::Arc::from(*n),
                partitions: ps.iter().copied().collect(),
            })
        })
        .collect();
    crate::ordered::sort_by(&mut out, |a, b| a.topic.cmp(&b.topic));
    out
}

/// The consumer protocol version a member's metadata is written in (`deserializeVersion`):
/// what its assignment is encoded in.
pub(crate) fn metadata_version(metadata: &[u8]) -> i16 {
    match metadata {
        [hi, lo, ..] => i16::from_be_bytes([*hi, *lo]),
        _ => 0,
    }
}

/// `member`'s assignment as a classic member reads it in SyncGroup: its `assigned` partitions
/// in its first protocol's version.
pub(crate) fn encode_assignment(
    classic: &ClassicMemberMetadata,
    assigned: &MemberAssignment,
    topics: &BTreeMap<String, TopicImage>,
) -> Bytes {
    let version = classic
        .supported_protocols
        .first()
        .map_or(0, |p| metadata_version(p.metadata.as_slice()));
    Assignment {
        version,
        assigned_partitions: by_topic_name(assigned, topics),
        user_data: None,
    }
    .encode()
}

/// `convertToConsumerGroup`: the classic group `classic` (already validated by
/// [`can_upgrade`]) becomes a consumer group. The classic group is left as it was, except for
/// its parked responses, when its members' protocol data cannot be read (Kafka's failed write).
pub(crate) fn convert_to_consumer_group(
    ctx: &mut Ctx,
    classic: &mut ClassicGroup,
    topics: &BTreeMap<String, TopicImage>,
) -> Result<ConsumerGroup, (ErrorCode, String)> {
    // Members waiting in JoinGroup or SyncGroup are told to rejoin: the new member starts a
    // new epoch anyway.
    let waiting: Vec<String> = classic
        .members()
        .filter(|m| m.is_awaiting_join())
        .map(|m| String::from(m.member_id()))
        .collect();
    for member_id in waiting {
        if let Some(parked) = classic.unpark_join(&member_id) {
            ctx.out.push(crate::classic_rpc::join_error(
                parked,
                ErrorCode::RebalanceInProgress,
                &member_id,
            ));
        }
    }
    classic.answer_parked_syncs(ctx, ErrorCode::RebalanceInProgress);
    let group_id = String::from(classic.group_id());
    // A group that never completed a join has no protocol: Kafka's `protocolName().get()`
    // throws, which the runtime answers UNKNOWN_SERVER_ERROR.
    let Some(protocol) = classic.protocol_name().map(String::from) else {
        return Err((
            ErrorCode::UnknownServerError,
            String::from("No value present"),
        ));
    };
    let malformed = || {
        (
            ErrorCode::GroupIdNotFound,
            alloc::format!(
                "Cannot upgrade the classic group {group_id} to consumer group because the embedded consumer protocol is malformed."
            ),
        )
    };
    let generation = classic.generation_id();
    let mut group = ConsumerGroup::new(&group_id);
    group.group_epoch = generation;
    group.assignment_epoch = generation;
    for m in classic.members() {
        let assignment = Assignment::decode(m.assignment().as_slice()).map_err(|_| malformed())?;
        let subscription =
            Subscription::decode(m.metadata(&protocol).as_slice()).map_err(|_| malformed())?;
        let assigned = by_topic_id(&assignment.assigned_partitions, topics);
        let mut names = subscription.topics.clone();
        crate::ordered::sort(&mut names);
        names.dedup();
        group
            .target
            .insert(String::from(m.member_id()), assigned.clone());
        group.put_member(ConsumerGroupMember {
            member_id: String::from(m.member_id()),
            instance_id: m.group_instance_id().map(String::from),
            rack_id: subscription.rack_id.clone(),
            client_id: String::from(m.client_id()),
            rebalance_timeout_ms: m.rebalance_timeout_ms(),
            subscribed_topic_names: names,
            subscribed_topic_regex: String::new(),
            server_assignor: None,
            progress: Progress {
                state: MemberState::Stable,
                member_epoch: generation,
                previous_member_epoch: generation,
                assigned: assigned.into(),
                pending_revocation: Default::default(),
            },
            classic: Some(ClassicMemberMetadata {
                session_timeout_ms: m.session_timeout_ms(),
                supported_protocols: m.supported_protocols().to_vec(),
            }),
        });
    }
    // The classic group's record is deleted and its timers stop; the consumer group's members
    // keep their classic session timeouts.
    classic.transition_to(ctx, GroupState::Dead, Cause::ConvertedToConsumerGroup);
    ctx.cancel_group_timers(&group_id);
    ctx.records.remove(&group_id);
    ctx.emit(
        &group_id,
        EventKind::GroupConverted {
            to: GroupType::Consumer,
            members: group.members.len(),
        },
    );
    let sessions: Vec<(String, i32)> = group
        .members
        .values()
        .map(|m| {
            (
                m.member_id.clone(),
                m.classic.as_ref().map_or(0, |c| c.session_timeout_ms),
            )
        })
        .collect();
    for (member_id, timeout) in sessions {
        ctx.schedule(
            TimerKey::ConsumerSession(group_id.clone(), member_id),
            i64::from(timeout),
        );
    }
    Ok(group)
}

/// `convertToClassicGroup`: the consumer group becomes a classic group without `leaving`, with
/// `joining` (a static member replacing `leaving`) if given. Members in member-id order
/// (Kafka's follows its hash map); the first is the leader. After a member left, a rebalance
/// starts at once.
pub(crate) fn convert_to_classic_group(
    ctx: &mut Ctx,
    group: ConsumerGroup,
    topics: &BTreeMap<String, TopicImage>,
    leaving: &str,
    joining: Option<&ConsumerGroupMember>,
) -> ClassicGroup {
    let group_id = group.group_id.clone();
    let before = group.state();
    for member_id in group.members.keys() {
        crate::consumer_group::cancel_timers(ctx, &group_id, member_id);
    }
    ctx.emit(
        &group_id,
        EventKind::ConsumerGroupStateChanged {
            from: before,
            to: ConsumerGroupState::Dead,
        },
    );
    let mut classic = ClassicGroup::new(&group_id, ctx.now);
    classic.generation_id = group.group_epoch;
    classic.protocol_type = Some(String::from(PROTOCOL_TYPE));
    let members = group
        .members
        .values()
        .filter(|m| m.member_id != leaving)
        .chain(joining);
    let mut targets: BTreeMap<String, MemberAssignment> = BTreeMap::new();
    for m in members {
        let meta = m.classic.clone().unwrap_or_default();
        // The joining static member takes the leaving one's target (already moved to its own
        // id when the replacement was applied).
        let target = group.target.get(&m.member_id).or_else(|| {
            joining
                .filter(|j| j.member_id == m.member_id)
                .and_then(|_| group.target.get(leaving))
        });
        targets.insert(m.member_id.clone(), target.cloned().unwrap_or_default());
        classic.add_converted_member(ClassicGroupMember::converted(
            &m.member_id,
            m.instance_id.as_deref(),
            &m.client_id,
            m.rebalance_timeout_ms,
            meta.session_timeout_ms,
            meta.supported_protocols,
        ));
    }
    classic.protocol_name = classic.select_protocol();
    // Each member's target as its assignment, in the version of its metadata for the chosen
    // protocol.
    let protocol = classic.protocol_name.clone().unwrap_or_default();
    for m in classic.members_mut() {
        m.assignment = Assignment {
            version: metadata_version(m.metadata(&protocol).as_slice()),
            assigned_partitions: targets
                .get(m.member_id())
                .map(|t| by_topic_name(t, topics))
                .unwrap_or_default(),
            user_data: None,
        }
        .encode();
    }
    classic.state = GroupState::Stable;
    classic.previous_state = GroupState::Stable;
    ctx.emit(
        &group_id,
        EventKind::GroupConverted {
            to: GroupType::Classic,
            members: classic.num_members(),
        },
    );
    classic.persist_record(ctx);
    for member_id in classic.member_ids() {
        classic.refresh_session(ctx, &member_id);
    }
    if joining.is_none() {
        classic.prepare_rebalance(ctx, Cause::ConvertedFromConsumerGroup);
    }
    classic
}
