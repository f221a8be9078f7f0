//! ConsumerGroupHeartbeat, one request at a time (`docs/src/reference/consumer-group-protocol.md#processing`; Kafka's
//! `GroupMetadataManager.consumerGroupHeartbeat`): validate, find or create the group and the
//! member, update its metadata, bump the group epoch when the inputs changed, recompute the
//! target when the group epoch moved past it, reconcile the member one step, re-arm its session.
//! All of one heartbeat's changes apply together, as Kafka writes them in one batch.

use super::assignor::{
    GroupAssignment, GroupSpec, MemberAssignment, MemberSpec, ServerAssignor, topic_ids,
};
use super::group::{ConsumerGroup, ConsumerGroupMember, TopicImage};
use super::reconcile::{MemberState, Progress};
use crate::ErrorCode;
use crate::ctx::Ctx;
use crate::timer::TimerKey;

use crate::event::{ConsumerRemoval, EventKind};
use crate::protocol::{
    ConsumerGroupHeartbeatAssignment, ConsumerGroupHeartbeatRequest,
    ConsumerGroupHeartbeatResponse, TopicIdPartitions,
};
use alloc::borrow::Cow;
use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

pub const LEAVE_GROUP_MEMBER_EPOCH: i32 = -1;
pub const LEAVE_GROUP_STATIC_MEMBER_EPOCH: i32 = -2;

/// The consumer groups and what they need besides `Ctx`: the topics' metadata image.
#[derive(Clone, Debug, Default)]
pub struct ConsumerGroups {
    pub groups: BTreeMap<String, ConsumerGroup>,
    /// Topic name -> its metadata.
    pub topics: BTreeMap<String, TopicImage>,
    /// Moves on at every change of `topics`: a group whose subscription metadata was computed
    /// at an older version recomputes it at its next heartbeat (Kafka's metadata refresh).
    pub topics_version: u64,
    /// The `topics_version` of the last change that created a topic (Kafka's
    /// `lastMetadataImageWithNewTopics`).
    pub topics_version_with_new_topics: u64,
    /// Group id -> the group epoch its offsets cleanup was last planned at
    /// (`expiration.rs`).
    pub(crate) cleanup_planned: BTreeMap<String, i32>,
}

/// A heartbeat's failure: its error code and Kafka's message.
pub(super) struct Failure(pub(super) ErrorCode, pub(super) String);

pub(super) fn fail<T>(code: ErrorCode, message: impl Into<String>) -> Result<T, Failure> {
    Err(Failure(code, message.into()))
}

fn to_assignment(list: &[TopicIdPartitions]) -> MemberAssignment {
    let mut out = MemberAssignment::new();
    for tp in list {
        out.entry(tp.topic_id)
            .or_default()
            .extend(tp.partitions.iter().copied());
    }
    out
}

fn to_list(assignment: &MemberAssignment) -> Vec<TopicIdPartitions> {
    assignment
        .iter()
        .map(|(t, ps)| TopicIdPartitions {
            topic_id: *t,
            partitions: ps.iter().copied().collect(),
        })
        .collect()
}

/// Whether every reported partition is one of `assigned` (`None` reports nothing: not a subset).
fn is_subset(owned: Option<&MemberAssignment>, assigned: &MemberAssignment) -> bool {
    owned.is_some_and(|owned| {
        owned
            .iter()
            .all(|(t, ps)| assigned.get(t).is_some_and(|a| ps.is_subset(a)))
    })
}

/// `throwIfConsumerGroupMemberEpochIsInvalid`: ahead is fenced; behind is fenced unless it is
/// the previous epoch and the member reports only partitions it is assigned (the response that
/// bumped its epoch was lost).
fn check_epoch(
    member: &ConsumerGroupMember,
    received: i32,
    owned: Option<&MemberAssignment>,
) -> Result<(), Failure> {
    let current = member.progress.member_epoch;
    if received > current {
        return fail(
            ErrorCode::FencedMemberEpoch,
            alloc::format!(
                "The consumer group member has a greater epoch ({received}) than the one known by the group coordinator ({current}). The member must abandon all its partitions and rejoin."
            ),
        );
    }
    if received < current
        && !(received == member.progress.previous_member_epoch
            && is_subset(owned, &member.progress.assigned))
    {
        return fail(
            ErrorCode::FencedMemberEpoch,
            alloc::format!(
                "The consumer group member has a smaller epoch ({received}) than the one known by the group coordinator ({current}). The member must abandon all its partitions and rejoin."
            ),
        );
    }
    Ok(())
}

/// `throwIfConsumerGroupHeartbeatRequestIsInvalid` (with KIP-1082: the member id is never
/// empty).
/// Empty as Java's `String.trim().isEmpty()` reads it: nothing but characters up to U+0020
/// (spaces and control characters; not Unicode's other white space).
fn blank(s: &str) -> bool {
    s.chars().all(|c| c <= ' ')
}

/// The checks made before the group's coordinator shard sees the request: whether the broker
/// offers the API at all (the Scala coordinator of Kafka 3.x, or a 4.0 broker without
/// `consumer` in `group.coordinator.rebalance.protocols`, does not), then whether this
/// coordinator has the group's partition loaded (the runtime refuses the operation with a bare
/// NOT_COORDINATOR, before the request is validated).
fn front_door(
    ctx: &Ctx,
    groups: &ConsumerGroups,
    r: &ConsumerGroupHeartbeatRequest,
) -> Result<(), Failure> {
    if ctx.config.flavour == crate::config::Flavour::Kafka3 || !ctx.config.consumer_protocol_enabled
    {
        return fail(
            ErrorCode::UnsupportedVersion,
            "The consumer group protocol (KIP-848) is not enabled on this coordinator.",
        );
    }
    if groups.is_unloaded(&r.group_id) {
        return fail(ErrorCode::NotCoordinator, "");
    }
    Ok(())
}

fn validate(ctx: &Ctx, r: &ConsumerGroupHeartbeatRequest) -> Result<(), Failure> {
    let invalid = |m: &str| fail(ErrorCode::InvalidRequest, m);
    // Kafka's `throwIfEmptyString`: a string of spaces is empty too.
    if blank(&r.group_id) {
        return invalid("GroupId can't be empty.");
    }
    if r.instance_id.as_deref().is_some_and(blank) {
        return invalid("InstanceId can't be empty.");
    }
    if r.rack_id.as_deref().is_some_and(blank) {
        return invalid("RackId can't be empty.");
    }
    // KIP-1082: from v1 the client makes its own member id, so it is never empty; a v0 joiner
    // may send none and is given one (`ConsumerGroups::heartbeat`). Past joining, every
    // version names its member.
    if r.api_version >= 1 && blank(&r.member_id) {
        return invalid("MemberId can't be empty.");
    }
    match r.member_epoch {
        e if e > 0 || e == LEAVE_GROUP_MEMBER_EPOCH => {
            if blank(&r.member_id) {
                return invalid("MemberId can't be empty.");
            }
        }
        0 => {
            if r.rebalance_timeout_ms == -1 {
                return invalid("RebalanceTimeoutMs must be provided in first request.");
            }
            if r.topic_partitions.as_ref().is_none_or(|tp| !tp.is_empty()) {
                return invalid("TopicPartitions must be empty when (re-)joining.");
            }
            // Kafka 4.0 takes an empty list of names or an empty regex: a member of the group
            // subscribed to nothing.
            if r.subscribed_topic_names.is_none() && r.subscribed_topic_regex.is_none() {
                return invalid(
                    "Either SubscribedTopicNames or SubscribedTopicRegex must be non-null when (re-)joining.",
                );
            }
        }
        LEAVE_GROUP_STATIC_MEMBER_EPOCH => {
            if blank(&r.member_id) {
                return invalid("MemberId can't be empty.");
            }
            if r.instance_id.is_none() {
                return invalid("InstanceId can't be null.");
            }
        }
        _ => return invalid("MemberEpoch is invalid."),
    }
    if let Some(name) = &r.server_assignor
        && !ctx
            .config
            .group_consumer_assignors
            .iter()
            .any(|a| a.name() == name)
    {
        let supported: Vec<&str> = ctx
            .config
            .group_consumer_assignors
            .iter()
            .map(|a| a.name())
            .collect();
        return fail(
            ErrorCode::UnsupportedAssignor,
            alloc::format!(
                "ServerAssignor {name} is not supported. Supported assignors: {}.",
                supported.join(", ")
            ),
        );
    }
    Ok(())
}

impl ConsumerGroups {
    /// Handles one heartbeat at `ctx.now`.
    /// Handles one heartbeat: validated first, then its group id checked against the classic
    /// groups (`crate::group_type`), then handled.
    pub(crate) fn heartbeat(
        &mut self,
        ctx: &mut Ctx,
        classic: &mut crate::Groups,
        r: &ConsumerGroupHeartbeatRequest,
    ) -> ConsumerGroupHeartbeatResponse {
        let valid = front_door(ctx, self, r).and_then(|()| validate(ctx, r));
        // A valid v0 joiner without a member id is given one (Kafka 4.0's `Uuid.randomUuid()`,
        // drawn from the coordinator's seeded stream).
        let named;
        let r =
            if valid.is_ok() && r.api_version == 0 && r.member_epoch == 0 && r.member_id.is_empty()
            {
                named = ConsumerGroupHeartbeatRequest {
                    member_id: alloc::string::ToString::to_string(&ctx.member_ids.next_uuid()),
                    ..r.clone()
                };
                &named
            } else {
                r
            };
        let routed = valid.and_then(|()| {
            crate::group_type::route_consumer_heartbeat(ctx, classic, &self.topics, r)
                .map_err(|(code, message)| Failure(code, message))
        });
        // A classic group converted for this member: its consumer group starts Stable, its
        // members as they were.
        let routed = routed.map(|converted| {
            if let Some(group) = converted {
                self.groups.insert(r.group_id.clone(), group);
            }
        });
        let before = self.groups.get(&r.group_id).map(ConsumerGroup::state);
        let result = routed.and_then(|()| match r.member_epoch {
            LEAVE_GROUP_MEMBER_EPOCH | LEAVE_GROUP_STATIC_MEMBER_EPOCH => {
                self.leave(ctx, classic, r)
            }
            _ => self.join_or_update(ctx, r),
        });
        let mut response = match result {
            Ok(response) => response,
            // Kafka's `ApiError.fromThrowable` sends no message for UNKNOWN_SERVER_ERROR (it
            // could leak internals) nor for an error's generic one (a bare NOT_COORDINATOR).
            Err(Failure(code, message)) => ConsumerGroupHeartbeatResponse {
                error_code: code,
                error_message: (code != ErrorCode::UnknownServerError && !message.is_empty())
                    .then_some(message),
                member_epoch: 0,
                ..Default::default()
            },
        };
        response.api_version = r.api_version;
        response.correlation_id = r.correlation_id;
        self.note_state(ctx, &r.group_id, before);
        response
    }

    /// The one place a consumer group's state changes are told: derived after each input.
    pub(super) fn note_state(
        &mut self,
        ctx: &mut Ctx,
        group_id: &str,
        before: Option<super::ConsumerGroupState>,
    ) {
        self.plan_offsets_cleanup(ctx, group_id);
        let Some(after) = self.groups.get(group_id).map(ConsumerGroup::state) else {
            return;
        };
        let from = before.unwrap_or(super::ConsumerGroupState::Empty);
        if before.is_none() {
            ctx.emit(group_id, EventKind::GroupCreated);
        }
        if from != after {
            ctx.emit(
                group_id,
                EventKind::ConsumerGroupStateChanged { from, to: after },
            );
        }
    }

    fn join_or_update(
        &mut self,
        ctx: &mut Ctx,
        r: &ConsumerGroupHeartbeatRequest,
    ) -> Result<ConsumerGroupHeartbeatResponse, Failure> {
        let joining = r.member_epoch == 0;
        if self.groups.contains_key(&r.group_id) {
            return self.update(ctx, r);
        }
        if !joining {
            return fail(
                ErrorCode::GroupIdNotFound,
                alloc::format!("Consumer group {} not found.", r.group_id),
            );
        }
        // A group made for this request goes again if the request fails: Kafka's failed
        // batch writes nothing, its new group included.
        self.groups
            .insert(r.group_id.clone(), ConsumerGroup::new(&r.group_id));
        let result = self.update(ctx, r);
        if result.is_err() {
            self.groups.remove(&r.group_id);
        }
        result
    }

    fn update(
        &mut self,
        ctx: &mut Ctx,
        r: &ConsumerGroupHeartbeatRequest,
    ) -> Result<ConsumerGroupHeartbeatResponse, Failure> {
        let joining = r.member_epoch == 0;
        let topics = &self.topics;
        let image = super::regex::Image {
            topics,
            version: self.topics_version,
            version_with_new_topics: self.topics_version_with_new_topics,
        };
        let Some(group) = self.groups.get_mut(&r.group_id) else {
            return fail(ErrorCode::GroupIdNotFound, "the group vanished");
        };
        let max = usize::try_from(ctx.config.group_consumer_max_size).unwrap_or(usize::MAX);
        if group.members.len() >= max && !group.members.contains_key(&r.member_id) {
            return fail(
                ErrorCode::GroupMaxSizeReached,
                alloc::format!(
                    "The consumer group has reached its maximum capacity of {max} members."
                ),
            );
        }
        let owned = r.topic_partitions.as_deref().map(to_assignment);
        // The member as it is (or a new one), and the static member it replaces, if any.
        let (member, replaced) = find_member(group, r, owned.as_ref())?;
        let mut updated = member.clone();
        if let Some(i) = &r.instance_id {
            updated.instance_id = Some(i.clone());
        }
        if let Some(rack) = &r.rack_id {
            updated.rack_id = Some(rack.clone());
        }
        if r.rebalance_timeout_ms != -1 {
            updated.rebalance_timeout_ms = r.rebalance_timeout_ms;
        }
        if let Some(a) = &r.server_assignor {
            updated.server_assignor = Some(a.clone());
        }
        if let Some(names) = &r.subscribed_topic_names {
            let mut names = names.clone();
            crate::ordered::sort(&mut names);
            names.dedup();
            updated.subscribed_topic_names = names;
        }
        if let Some(regex) = &r.subscribed_topic_regex {
            updated.subscribed_topic_regex = regex.clone();
        }
        updated.client_id = r.client_id.clone();
        let before_assigned = member.progress.assigned.clone();
        // A new group moves off epoch 0 at once, whatever its first member subscribes to.
        let mut bump = group.group_epoch == 0;
        bump |=
            super::regex::maybe_update_regular_expressions(ctx, group, &image, &member, &updated)?;
        let updated = update_member(
            ctx,
            group,
            topics,
            self.topics_version,
            &member,
            updated,
            replaced.as_deref(),
            owned.as_ref(),
            bump,
        )?;
        let member_id = updated.member_id.clone();
        let epoch = updated.progress.member_epoch;
        let assigned_changed = updated.progress.assigned != before_assigned;
        let assigned = updated.progress.assigned.clone();
        group.put_member(updated);
        ctx.schedule(
            TimerKey::ConsumerSession(r.group_id.clone(), member_id.clone()),
            ctx.consumer_session_timeout_ms(&r.group_id),
        );
        let full = joining
            || (r.rebalance_timeout_ms != -1
                && r.subscribed_topic_names.is_some()
                && r.topic_partitions.is_some());
        Ok(ConsumerGroupHeartbeatResponse {
            member_id: Some(member_id),
            member_epoch: epoch,
            heartbeat_interval_ms: ctx.consumer_heartbeat_interval_ms(&r.group_id),
            assignment: (full || assigned_changed).then(|| ConsumerGroupHeartbeatAssignment {
                topic_partitions: to_list(&assigned),
            }),
            ..Default::default()
        })
    }

    /// Epoch −1 (leave; a static member for good) or −2 (a static member, for a while).
    fn leave(
        &mut self,
        ctx: &mut Ctx,
        classic: &mut crate::Groups,
        r: &ConsumerGroupHeartbeatRequest,
    ) -> Result<ConsumerGroupHeartbeatResponse, Failure> {
        let Some(group) = self.groups.get_mut(&r.group_id) else {
            return fail(
                ErrorCode::GroupIdNotFound,
                alloc::format!("Consumer group {} not found.", r.group_id),
            );
        };
        let member_id = match &r.instance_id {
            None => {
                if !group.members.contains_key(&r.member_id) {
                    return fail(
                        ErrorCode::UnknownMemberId,
                        alloc::format!(
                            "Member {} is not a member of group {}.",
                            r.member_id,
                            r.group_id
                        ),
                    );
                }
                r.member_id.clone()
            }
            Some(instance) => {
                let Some(m) = group.static_member(instance) else {
                    return fail(
                        ErrorCode::UnknownMemberId,
                        alloc::format!("Instance id {instance} is unknown."),
                    );
                };
                if m.member_id != r.member_id {
                    return fail(
                        ErrorCode::FencedInstanceId,
                        alloc::format!(
                            "Static member {} with instance id {instance} is not the member {}.",
                            r.member_id,
                            m.member_id
                        ),
                    );
                }
                m.member_id.clone()
            }
        };
        if r.member_epoch == LEAVE_GROUP_STATIC_MEMBER_EPOCH {
            // Away for a while: epoch −2, nothing to revoke, no new epoch, no reassignment.
            if let Some(mut m) = group.members.get(&member_id).cloned() {
                m.progress.member_epoch = LEAVE_GROUP_STATIC_MEMBER_EPOCH;
                m.progress.pending_revocation = MemberAssignment::new();
                ctx.emit(&r.group_id, member_updated(&m));
                group.put_member(m);
            }
            // Kafka leaves its rebalance timer to fire as a no-op (the epoch moved on); the
            // session timer keeps running: not back in time, the member is fenced.
            ctx.cancel(&TimerKey::ConsumerRebalance(
                r.group_id.clone(),
                member_id.clone(),
            ));
        } else {
            self.fence_member(ctx, classic, &r.group_id, &member_id, ConsumerRemoval::Left);
        }
        Ok(ConsumerGroupHeartbeatResponse {
            member_id: Some(member_id),
            member_epoch: r.member_epoch,
            ..Default::default()
        })
    }

    /// A member's session, rebalance, join or sync timer fired.
    pub(crate) fn on_timer(&mut self, ctx: &mut Ctx, classic: &mut crate::Groups, key: &TimerKey) {
        if let TimerKey::ConsumerRegexRefresh(g) = key {
            self.on_regex_refresh(ctx, g);
            return;
        }
        let (reason, g, m) = match key {
            TimerKey::ConsumerSession(g, m) => (ConsumerRemoval::SessionExpired, g, m),
            TimerKey::ConsumerRebalance(g, m) => (ConsumerRemoval::RebalanceTimeout, g, m),
            TimerKey::ConsumerJoin(g, m) => (ConsumerRemoval::JoinTimeout, g, m),
            TimerKey::ConsumerSync(g, m) => (ConsumerRemoval::SyncTimeout, g, m),
            _ => return,
        };
        let Some(member) = self.groups.get(g).and_then(|group| group.members.get(m)) else {
            return;
        };
        // The rebalance timer fences only a member still revoking (Kafka checks that the
        // member is still at the epoch the timer was armed for).
        if reason == ConsumerRemoval::RebalanceTimeout
            && member.progress.state != MemberState::UnrevokedPartitions
        {
            return;
        }
        let before = self.groups.get(g).map(ConsumerGroup::state);
        self.fence_member(ctx, classic, g, m, reason);
        self.note_state(ctx, g, before);
    }

    /// `consumerGroupFenceMember`: the member goes (a leave, an expired timer), or, when it was
    /// the last one speaking the consumer protocol among classic members, the group becomes a
    /// classic group without it (`migration`). The caller tells the state change.
    pub(crate) fn fence_member(
        &mut self,
        ctx: &mut Ctx,
        classic: &mut crate::Groups,
        group_id: &str,
        member_id: &str,
        reason: ConsumerRemoval,
    ) {
        let Some(group) = self.groups.get_mut(group_id) else {
            return;
        };
        if super::migration::can_downgrade_without(&ctx.config, group, member_id) {
            ctx.emit(
                group_id,
                EventKind::ConsumerMemberRemoved {
                    member_id: member_id.to_string(),
                    reason,
                },
            );
            if let Some(group) = self.groups.remove(group_id) {
                let converted = super::migration::convert_to_classic_group(
                    ctx,
                    group,
                    &self.topics,
                    member_id,
                    None,
                );
                classic.insert(group_id.to_string(), converted);
            }
            return;
        }
        fence(ctx, group, &self.topics, member_id, reason);
    }
}

/// Steps 1 to 3 of a member's update, shared by ConsumerGroupHeartbeat and a classic member's
/// JoinGroup (`docs/src/reference/consumer-group-protocol.md#processing`): bump the group epoch
/// when its inputs changed, recompute the target when the group epoch moved past it, reconcile
/// the member one step. Returns the member as it is to be put in; nothing is put yet, and on an
/// error nothing of the member is applied (Kafka's failed batch).
#[allow(clippy::too_many_arguments)]
pub(super) fn update_member(
    ctx: &mut Ctx,
    group: &mut ConsumerGroup,
    topics: &BTreeMap<String, TopicImage>,
    topics_version: u64,
    member: &ConsumerGroupMember,
    mut updated: ConsumerGroupMember,
    replaced: Option<&str>,
    owned: Option<&MemberAssignment>,
    bump: bool,
) -> Result<ConsumerGroupMember, Failure> {
    let group_id = group.group_id.clone();
    let mut bump = bump || updated.subscribed_topic_names != member.subscribed_topic_names;
    // The subscribed topics' metadata is recomputed when a subscription changed, a member
    // joins or is replaced, or the metadata image changed since the group last looked (a
    // steady heartbeat costs no walk over the members).
    let joins = !group.members.contains_key(&updated.member_id);
    if bump || joins || replaced.is_some() || group.topics_version != topics_version {
        let metadata = subscription_metadata(group, topics, replaced, Some(&updated));
        if metadata != group.subscription_metadata {
            group.subscription_metadata = metadata;
            bump = true;
        }
        group.topics_version = topics_version;
    }
    if bump {
        group.group_epoch += 1;
        ctx.emit(
            &group_id,
            EventKind::GroupEpochBumped {
                group_epoch: group.group_epoch,
            },
        );
    }
    // Replacing a static member: the old one goes, its target moves to the new one.
    if let Some(old_id) = replaced {
        let inherited = group.target.get(old_id).cloned().unwrap_or_default();
        group.remove_member(old_id);
        super::classic_member::cancel_timers(ctx, &group_id, old_id);
        group.target.insert(updated.member_id.clone(), inherited);
        ctx.emit(
            &group_id,
            EventKind::ConsumerMemberRemoved {
                member_id: old_id.to_string(),
                reason: ConsumerRemoval::Replaced,
            },
        );
    }
    if !group.members.contains_key(&updated.member_id) {
        ctx.emit(
            &group_id,
            EventKind::ConsumerMemberJoined {
                member_id: updated.member_id.clone(),
            },
        );
    }
    if group.group_epoch > group.assignment_epoch {
        // On failure the member's update stays unapplied, as Kafka's failed batch.
        let (target, assignor) = compute_target(ctx, group, &updated)
            .or_else(|m| fail(ErrorCode::UnknownServerError, m))?;
        group.set_target(&updated.member_id, target);
        group.assignment_epoch = group.group_epoch;
        ctx.emit(
            &group_id,
            EventKind::TargetAssignmentComputed {
                assignment_epoch: group.assignment_epoch,
                assignor: assignor.name(),
            },
        );
    }
    let assignment_epoch = group.assignment_epoch;
    let target = group
        .target
        .get(&updated.member_id)
        .cloned()
        .unwrap_or_default();
    if !updated.is_reconciled_to(assignment_epoch) {
        let next = updated.progress.reconcile(
            assignment_epoch,
            &target,
            |t, p| group.partition_epoch(t, p),
            owned,
        );
        match next {
            Ok(progress) => {
                if progress != updated.progress {
                    // Only a consumer-protocol member has a rebalance timer; a classic member
                    // has its join and sync timers instead.
                    if !updated.uses_classic_protocol() {
                        let key = TimerKey::ConsumerRebalance(
                            group_id.clone(),
                            updated.member_id.clone(),
                        );
                        if progress.state == MemberState::UnrevokedPartitions {
                            ctx.schedule(key, i64::from(updated.rebalance_timeout_ms));
                        } else {
                            ctx.cancel(&key);
                        }
                    }
                    updated.progress = progress;
                    ctx.emit(&group_id, member_updated(&updated));
                }
            }
            Err(_) => {
                return fail(
                    ErrorCode::FencedMemberEpoch,
                    "The consumer group member is in a unknown state. The member must abandon all its partitions and rejoin.",
                );
            }
        }
    }
    Ok(updated)
}

/// The member a heartbeat is for (`docs/src/reference/consumer-group-protocol.md#processing` step 2), with the id of the static member it
/// replaces.
fn find_member(
    group: &ConsumerGroup,
    r: &ConsumerGroupHeartbeatRequest,
    owned: Option<&MemberAssignment>,
) -> Result<(ConsumerGroupMember, Option<String>), Failure> {
    let joining = r.member_epoch == 0;
    let fresh = || ConsumerGroupMember {
        member_id: r.member_id.clone(),
        ..Default::default()
    };
    let Some(instance) = &r.instance_id else {
        return match group.members.get(&r.member_id) {
            Some(m) => {
                check_epoch(m, r.member_epoch, owned)?;
                Ok((m.clone(), None))
            }
            None if joining => Ok((fresh(), None)),
            None => fail(
                ErrorCode::UnknownMemberId,
                alloc::format!(
                    "Member {} is not a member of group {}.",
                    r.member_id,
                    r.group_id
                ),
            ),
        };
    };
    match (group.static_member(instance), joining) {
        (None, true) => Ok((
            group
                .members
                .get(&r.member_id)
                .cloned()
                .unwrap_or_else(fresh),
            None,
        )),
        // A static member (re)joins while its instance id is held: Kafka compares no member
        // ids (the same id sent again is refused too) and replaces the holder only if it left
        // for a while (epoch -2), or if the holder speaks the classic protocol
        // (`getOrMaybeSubscribeStaticConsumerGroupMember`, `throwIfInstanceIdIsUnreleased`).
        (Some(existing), true) => {
            if !existing.uses_classic_protocol()
                && existing.progress.member_epoch != LEAVE_GROUP_STATIC_MEMBER_EPOCH
            {
                return fail(
                    ErrorCode::UnreleasedInstanceId,
                    alloc::format!(
                        "Static member {} with instance id {instance} cannot join the group because the instance id is owned by member {}.",
                        r.member_id,
                        existing.member_id
                    ),
                );
            }
            // A copy under the new id, at epoch 0: it takes over the old one's assignment.
            let mut copy = existing.clone();
            copy.member_id = r.member_id.clone();
            copy.progress = Progress {
                member_epoch: 0,
                previous_member_epoch: 0,
                ..existing.progress.clone()
            };
            Ok((copy, Some(existing.member_id.clone())))
        }
        (None, false) => fail(
            ErrorCode::UnknownMemberId,
            alloc::format!("Instance id {instance} is unknown."),
        ),
        (Some(existing), false) if existing.member_id != r.member_id => fail(
            ErrorCode::FencedInstanceId,
            alloc::format!(
                "Static member {} with instance id {instance} is not the member {}.",
                r.member_id,
                existing.member_id
            ),
        ),
        (Some(existing), false) => {
            check_epoch(existing, r.member_epoch, owned)?;
            Ok((existing.clone(), None))
        }
    }
}

/// The new target assignment for the group with `updated` in (`docs/src/reference/consumer-group-protocol.md#target-assignment`).
fn compute_target(
    ctx: &Ctx,
    group: &ConsumerGroup,
    updated: &ConsumerGroupMember,
) -> Result<(GroupAssignment, ServerAssignor), String> {
    let mut members: BTreeMap<&str, &ConsumerGroupMember> =
        group.members.iter().map(|(k, v)| (k.as_str(), v)).collect();
    members.insert(&updated.member_id, updated);
    let preferred = preferred_assignor(&ctx.config, members.values().copied());
    let spec = GroupSpec {
        subscription_type: Some(ConsumerGroup::subscription_type(
            &group.subscribed_regular_expressions(None, Some(updated)),
            &group.subscribed_topic_counts(None, Some(updated)),
            members.len(),
        )),
        partitions: group
            .subscription_metadata
            .values()
            .map(|(id, n)| (*id, *n))
            .collect(),
        members: members
            .values()
            .map(|m| MemberSpec {
                member_id: Cow::Borrowed(&m.member_id),
                instance_id: m.instance_id.as_deref().map(Cow::Borrowed),
                rack_id: m.rack_id.as_deref().map(Cow::Borrowed),
                subscribed: topic_ids(
                    group
                        .member_subscribed_topics(m)
                        .filter_map(|n| group.subscription_metadata.get(n).map(|(id, _)| *id)),
                )
                .into(),
                previous: group
                    .target
                    .get(&m.member_id)
                    .map_or_else(Cow::default, Cow::Borrowed),
            })
            .collect(),
    };
    preferred
        .assign(&spec)
        .map(|target| (target, preferred))
        .map_err(|e| {
            alloc::format!(
                "Failed to compute a new target assignment for epoch {}: {}",
                group.group_epoch,
                e.0
            )
        })
}

/// The preferred server assignor: the one most members name; a tie goes to the one listed first
/// in `group.consumer.assignors` (Kafka's tie depends on hash-map order); none named: the first
/// listed.
pub(crate) fn preferred_assignor<'a>(
    config: &crate::config::BrokerConfig,
    members: impl Iterator<Item = &'a ConsumerGroupMember>,
) -> ServerAssignor {
    let assignors = &config.group_consumer_assignors;
    let mut votes: BTreeMap<&str, usize> = BTreeMap::new();
    for m in members {
        if let Some(a) = &m.server_assignor {
            *votes.entry(a).or_default() += 1;
        }
    }
    let votes_for = |a: &ServerAssignor| votes.get(a.name()).copied().unwrap_or(0);
    let mut best: Option<ServerAssignor> = None;
    for a in assignors {
        if votes_for(a) > best.as_ref().map_or(0, votes_for) {
            best = Some(*a);
        }
    }
    best.or_else(|| assignors.first().copied())
        .unwrap_or(ServerAssignor::Uniform)
}

/// Removes the member (a leave, an expired session or rebalance timeout): its partitions are
/// free, the subscription metadata is recomputed without it, the group epoch moves on.
fn fence(
    ctx: &mut Ctx,
    group: &mut ConsumerGroup,
    topics: &BTreeMap<String, TopicImage>,
    member_id: &str,
    reason: ConsumerRemoval,
) {
    group.remove_member(member_id);
    let group_id = group.group_id.clone();
    ctx.emit(
        &group_id,
        EventKind::ConsumerMemberRemoved {
            member_id: member_id.to_string(),
            reason,
        },
    );
    after_removal(ctx, group, topics);
    super::classic_member::cancel_timers(ctx, &group_id, member_id);
}

/// After members were removed: the subscription metadata is recomputed without them and the
/// group epoch moves on.
pub(super) fn after_removal(
    ctx: &mut Ctx,
    group: &mut ConsumerGroup,
    topics: &BTreeMap<String, TopicImage>,
) {
    group.subscription_metadata = subscription_metadata(group, topics, None, None);
    group.group_epoch += 1;
    ctx.emit(
        &group.group_id.clone(),
        EventKind::GroupEpochBumped {
            group_epoch: group.group_epoch,
        },
    );
}

/// The subscribed topics' metadata (name -> id, partitions) with `updated` in place of its
/// previous version and `replacing` left out: the topics some member subscribes to that exist.
pub(super) fn subscription_metadata(
    group: &ConsumerGroup,
    topics: &BTreeMap<String, TopicImage>,
    replacing: Option<&str>,
    updated: Option<&ConsumerGroupMember>,
) -> BTreeMap<String, (super::Uuid, i32)> {
    crate::ordered::map(
        group
            .subscribed_topic_counts(replacing, updated)
            .into_keys()
            .filter_map(|name| {
                topics
                    .get(&name)
                    .map(|t| (t.id, t.partitions))
                    .map(|m| (name, m))
            }),
    )
}

fn member_updated(m: &ConsumerGroupMember) -> EventKind {
    EventKind::ConsumerMemberUpdated {
        member_id: m.member_id.clone(),
        state: m.progress.state,
        member_epoch: m.progress.member_epoch,
        previous_member_epoch: m.progress.previous_member_epoch,
    }
}
