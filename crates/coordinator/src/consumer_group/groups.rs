//! The consumer groups (KIP-848) as one aggregate: the groups and the topics' metadata image
//! (`ConsumerGroups`), and the member operations that ConsumerGroupHeartbeat, a classic member's
//! JoinGroup (`classic_member.rs`) and the migration between group types (`crate::migration`) share:
//! update a member (`update_member`), compute the target, fence a member and tidy up after a
//! removal, derive the subscription metadata, and tell a state change (`note_state`).

use super::assignor::{
    GroupAssignment, GroupSpec, MemberAssignment, MemberSpec, ServerAssignor, topic_ids,
};
use super::group::{ConsumerGroup, ConsumerGroupMember, TopicImage};
use super::reconcile::MemberState;
use super::uuid::Uuid;
use crate::ErrorCode;
use crate::ctx::Ctx;
use crate::event::{ConsumerRemoval, EventKind};
use crate::timer::TimerKey;
use alloc::borrow::Cow;
use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

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
    /// Every heartbeat takes the full update (`heartbeat::steady`'s test compares the two).
    #[cfg(test)]
    pub(crate) full_updates_only: bool,
}

/// A heartbeat's failure: its error code and Kafka's message.
pub(super) struct Failure(pub(super) ErrorCode, pub(super) String);

pub(super) fn fail<T>(code: ErrorCode, message: impl Into<String>) -> Result<T, Failure> {
    Err(Failure(code, message.into()))
}

impl ConsumerGroups {
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
        if crate::migration::can_downgrade_without(&ctx.config, group, member_id) {
            ctx.emit(
                group_id,
                EventKind::ConsumerMemberRemoved {
                    member_id: member_id.to_string(),
                    reason,
                },
            );
            if let Some(group) = self.groups.remove(group_id) {
                let converted = crate::migration::convert_to_classic_group(
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
/// the member one step. `bump`: the caller saw an input change (a new group, a changed
/// subscription, a pattern taken up). Returns the member as it is to be put in; nothing is put
/// yet, and on an error nothing of the member is applied (Kafka's failed batch).
#[allow(clippy::too_many_arguments)]
pub(super) fn update_member(
    ctx: &mut Ctx,
    group: &mut ConsumerGroup,
    topics: &BTreeMap<String, TopicImage>,
    topics_version: u64,
    mut updated: ConsumerGroupMember,
    replaced: Option<&str>,
    owned: Option<&MemberAssignment>,
    mut bump: bool,
) -> Result<ConsumerGroupMember, Failure> {
    let group_id = group.group_id.clone();
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
    if !updated.is_reconciled_to(assignment_epoch) {
        let none = MemberAssignment::new();
        let target = group.target.get(&updated.member_id).unwrap_or(&none);
        let next = updated.progress.reconcile(
            assignment_epoch,
            target,
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
    // Each member's subscribed topic ids, worked out once for a run of members that subscribe
    // alike (most groups: one run): a thousand members joining one by one had every member's
    // names looked up again at every epoch, a fifth of the run.
    let mut lists: Vec<Vec<Uuid>> = Vec::new();
    let mut list_of: Vec<usize> = Vec::with_capacity(members.len());
    let mut previous: Option<&ConsumerGroupMember> = None;
    for &m in members.values() {
        let alike = previous.is_some_and(|p| {
            p.subscribed_topic_regex == m.subscribed_topic_regex
                && p.subscribed_topic_names == m.subscribed_topic_names
        });
        if !alike {
            lists.push(topic_ids(group.member_subscribed_topics(m).filter_map(
                |n| group.subscription_metadata.get(n).map(|(id, _)| *id),
            )));
        }
        list_of.push(lists.len() - 1);
        previous = Some(m);
    }
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
            .zip(&list_of)
            .map(|(m, &list)| MemberSpec {
                member_id: Cow::Borrowed(&m.member_id),
                instance_id: m.instance_id.as_deref().map(Cow::Borrowed),
                rack_id: m.rack_id.as_deref().map(Cow::Borrowed),
                subscribed: Cow::Borrowed(&lists[list]),
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

pub(super) fn member_updated(m: &ConsumerGroupMember) -> EventKind {
    EventKind::ConsumerMemberUpdated {
        member_id: m.member_id.clone(),
        state: m.progress.state,
        member_epoch: m.progress.member_epoch,
        previous_member_epoch: m.progress.previous_member_epoch,
    }
}
