//! ConsumerGroupHeartbeat, one request at a time (`docs/src/reference/consumer-group-protocol.md#processing`; Kafka's
//! `GroupMetadataManager.consumerGroupHeartbeat`): validate, find or create the group and the
//! member, update its metadata, bump the group epoch when the inputs changed, recompute the
//! target when the group epoch moved past it, reconcile the member one step, re-arm its session.
//! All of one heartbeat's changes apply together, as Kafka writes them in one batch.

use super::assignor::MemberAssignment;
use super::group::{ConsumerGroup, ConsumerGroupMember};
use super::groups::{ConsumerGroups, Failure, fail, member_updated, update_member};
use super::reconcile::Progress;
use crate::ErrorCode;
use crate::ctx::Ctx;
use crate::event::ConsumerRemoval;
use crate::protocol::{
    ConsumerGroupHeartbeatAssignment, ConsumerGroupHeartbeatRequest,
    ConsumerGroupHeartbeatResponse, TopicIdPartitions,
};
use crate::timer::{TimerKey, TimerKeyRef};
use alloc::string::String;
use alloc::vec::Vec;

pub const LEAVE_GROUP_MEMBER_EPOCH: i32 = -1;
pub const LEAVE_GROUP_STATIC_MEMBER_EPOCH: i32 = -2;

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

/// The answer to a heartbeat that changes nothing, or `None` when it may change something (the
/// full update decides then). Once a group is stable almost every heartbeat is one: a known,
/// reconciled member at its epoch, sending no field that differs from what the group holds, in
/// a group whose target is current and whose topics have not moved, with no regular expression
/// to refresh. The full update would copy the member, compare each field, find nothing to bump,
/// compute or reconcile, and put the same member back; Kafka's does the same walk and writes no
/// record. This gives its outcome (the session re-armed, the member's epoch, no assignment)
/// without the copy and the three lookups of the member by id: an hour of 1,000
/// consumer-protocol members sends 720,000 of them. A subscription by names (sent by a full
/// request) or an instance id takes the full update.
fn steady(
    ctx: &mut Ctx,
    group: &ConsumerGroup,
    topics_version: u64,
    r: &ConsumerGroupHeartbeatRequest,
) -> Option<ConsumerGroupHeartbeatResponse> {
    let group_unmoved = group.group_epoch != 0
        && group.group_epoch == group.assignment_epoch
        && group.topics_version == topics_version
        && group.num_subscribed_regular_expressions() == 0;
    if !group_unmoved || r.instance_id.is_some() || r.subscribed_topic_names.is_some() {
        return None;
    }
    let m = group.members.get(&r.member_id)?;
    let unchanged = !m.uses_classic_protocol()
        && r.member_epoch == m.progress.member_epoch
        && m.is_reconciled_to(group.assignment_epoch)
        && r.client_id == m.client_id
        && r.rack_id
            .as_ref()
            .is_none_or(|rack| m.rack_id.as_ref() == Some(rack))
        && (r.rebalance_timeout_ms == -1 || r.rebalance_timeout_ms == m.rebalance_timeout_ms)
        && r.server_assignor
            .as_ref()
            .is_none_or(|a| m.server_assignor.as_ref() == Some(a))
        && r.subscribed_topic_regex
            .as_ref()
            .is_none_or(|regex| *regex == m.subscribed_topic_regex);
    if !unchanged {
        return None;
    }
    let epoch = m.progress.member_epoch;
    Some(answer(ctx, r, m.member_id.clone(), epoch, None))
}

/// The end of every update that succeeds, the full one's and [`steady`]'s: the member's
/// session re-armed, and the answer (its id, its epoch, the interval, its assignment if any).
fn answer(
    ctx: &mut Ctx,
    r: &ConsumerGroupHeartbeatRequest,
    member_id: String,
    epoch: i32,
    assignment: Option<ConsumerGroupHeartbeatAssignment>,
) -> ConsumerGroupHeartbeatResponse {
    let session = ctx.consumer_session_timeout_ms(&r.group_id);
    ctx.schedule_ref(
        TimerKeyRef::ConsumerSession(&r.group_id, &member_id),
        session,
    );
    ConsumerGroupHeartbeatResponse {
        member_id: Some(member_id),
        member_epoch: epoch,
        heartbeat_interval_ms: ctx.consumer_heartbeat_interval_ms(&r.group_id),
        assignment,
        ..Default::default()
    }
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
        #[cfg(test)]
        let shortcut = !self.full_updates_only;
        #[cfg(not(test))]
        let shortcut = true;
        if shortcut && let Some(response) = steady(ctx, group, self.topics_version, r) {
            return Ok(response);
        }
        let owned = r.topic_partitions.as_deref().map(to_assignment);
        // The member as it is (or a new one), and the static member it replaces, if any.
        // Updated in place: what the update is compared with (its partitions, subscription and
        // pattern) is kept aside as it changes, not in a second copy of the member.
        let (mut updated, replaced) = find_member(group, r, owned.as_ref())?;
        let assigned_before = updated.progress.assigned.clone();
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
        let mut subscription_changed = false;
        if let Some(names) = &r.subscribed_topic_names {
            let mut names = names.clone();
            crate::ordered::sort(&mut names);
            names.dedup();
            subscription_changed = names != updated.subscribed_topic_names;
            updated.subscribed_topic_names = names;
        }
        let regex_before = r
            .subscribed_topic_regex
            .as_ref()
            .map(|regex| core::mem::replace(&mut updated.subscribed_topic_regex, regex.clone()));
        // (Into the member's own string: every heartbeat names its client, almost always the
        // same.)
        updated.client_id.clone_from(&r.client_id);
        // A new group moves off epoch 0 at once, whatever its first member subscribes to.
        let mut bump = group.group_epoch == 0 || subscription_changed;
        let regex_before = regex_before
            .as_deref()
            .unwrap_or(&updated.subscribed_topic_regex);
        bump |= super::regex::maybe_update_regular_expressions(
            ctx,
            group,
            &image,
            regex_before,
            &updated,
        )?;
        let updated = update_member(
            ctx,
            group,
            topics,
            self.topics_version,
            updated,
            replaced.as_deref(),
            owned.as_ref(),
            bump,
        )?;
        let member_id = updated.member_id.clone();
        let epoch = updated.progress.member_epoch;
        let full = joining
            || (r.rebalance_timeout_ms != -1
                && r.subscribed_topic_names.is_some()
                && r.topic_partitions.is_some());
        let assignment = (full || updated.progress.assigned != assigned_before).then(|| {
            ConsumerGroupHeartbeatAssignment {
                topic_partitions: to_list(&updated.progress.assigned),
            }
        });
        group.put_member(updated);
        Ok(answer(ctx, r, member_id, epoch, assignment))
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
                m.progress.pending_revocation = Default::default();
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

#[cfg(test)]
mod tests {
    use crate::Coordinator;
    use crate::protocol::{ConsumerGroupHeartbeatRequest, TopicIdPartitions};
    use crate::rng::Rng;
    use alloc::collections::BTreeMap;
    use alloc::format;
    use alloc::string::String;
    use alloc::vec;
    use alloc::vec::Vec;

    const G: &str = "g";

    /// Five clients heartbeat as Kafka's do (their epoch and assignment from the last answer,
    /// only what changed), with now and then a field that differs, a wrong epoch, an unknown
    /// member, an instance id, a new subscription or a metadata change. Before each heartbeat
    /// the coordinator is copied, and the copy takes the full update: the answers, the events,
    /// the timers and the groups are the same, and the shortcut answered most steady heartbeats.
    #[test]
    fn a_steady_heartbeat_is_answered_as_the_full_update_answers_it() {
        let mut c = Coordinator::default();
        c.update_metadata(0, &[("foo".into(), None, 12), ("bar".into(), None, 5)])
            .unwrap();
        let members = ["a", "b", "c", "d", "e"];
        // Per member: its epoch and its assignment as last answered, and whether to report it.
        let mut known: BTreeMap<&str, (i32, Vec<TopicIdPartitions>, bool)> = BTreeMap::new();
        let mut rng = Rng::new(7);
        let (mut now, mut shortcuts, mut foo) = (0i64, 0usize, 12);
        for step in 0..3_000 {
            now += 1 + rng.upto(400);
            let id = members[rng.upto(4) as usize];
            let (epoch, owned, report) = known.get(id).cloned().unwrap_or((0, vec![], true));
            let mut r = ConsumerGroupHeartbeatRequest {
                api_version: 1,
                group_id: G.into(),
                member_id: id.into(),
                member_epoch: epoch,
                client_id: format!("client-{id}"),
                ..Default::default()
            };
            if epoch == 0 {
                r.rebalance_timeout_ms = 30_000;
                r.subscribed_topic_names = Some(vec!["foo".into(), "bar".into()]);
                r.server_assignor = Some("uniform".into());
            }
            if report || epoch == 0 {
                r.topic_partitions = Some(owned.clone());
            }
            match rng.upto(40) {
                0 => r.client_id = "another".into(),
                1 => r.rack_id = Some(["r1", "r2"][rng.upto(1) as usize].into()),
                2 => r.rebalance_timeout_ms = [30_000, 45_000][rng.upto(1) as usize],
                3 => r.server_assignor = Some(["uniform", "range"][rng.upto(1) as usize].into()),
                4 => r.subscribed_topic_regex = Some(String::new()),
                5 => r.member_epoch += [-1, 1][rng.upto(1) as usize],
                6 => r.member_id = "stranger".into(),
                7 => r.instance_id = Some(format!("i-{id}")),
                8 => r.subscribed_topic_names = Some(vec!["foo".into()]),
                9 => {
                    foo += 1;
                    c.update_metadata(now, &[("foo".into(), None, foo)])
                        .unwrap();
                }
                10 => r.member_epoch = -1,
                _ => {}
            }
            let _ = c.drain_events();
            let mut full = c.clone();
            full.consumer.full_updates_only = true;
            // Whether the shortcut answers it (asked of a scratch copy).
            let mut scratch = c.clone();
            let version = scratch.consumer.topics_version;
            let shortcut = scratch
                .consumer
                .groups
                .get(G)
                .is_some_and(|g| super::steady(&mut scratch.ctx, g, version, &r).is_some());
            shortcuts += usize::from(shortcut);
            let answer = c.consumer_group_heartbeat(now, &r).unwrap();
            let expected = full.consumer_group_heartbeat(now, &r).unwrap();
            assert_eq!(answer, expected, "step {step}: {r:?}");
            assert_eq!(c.drain_events(), full.drain_events(), "step {step}");
            assert_eq!(c.consumer_group(G), full.consumer_group(G), "step {step}");
            assert_eq!(
                format!("{:?}", c.ctx.timers),
                format!("{:?}", full.ctx.timers),
                "step {step}"
            );
            c.check_invariants().unwrap();
            if r.member_id != id
                || r.member_epoch == -1
                || answer.error_code != crate::ErrorCode::None
            {
                if r.member_epoch == -1 || answer.error_code == crate::ErrorCode::FencedMemberEpoch
                {
                    known.remove(id);
                }
                continue;
            }
            let entry = known.entry(id).or_insert((0, vec![], false));
            entry.0 = answer.member_epoch;
            entry.2 = false;
            if let Some(a) = &answer.assignment {
                entry.1 = a.topic_partitions.clone();
                entry.2 = true;
            }
        }
        assert!(
            shortcuts > 400,
            "{shortcuts} heartbeats answered by the shortcut"
        );
    }
}
