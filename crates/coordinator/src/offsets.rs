//! OffsetCommit and OffsetFetch, for groups of either type (`docs/src/reference/classic-protocol.md#offset-commit`, `docs/src/reference/classic-protocol.md#offset-fetch`), at the level the simulation needs.

use crate::classic::{ClassicGroup, GroupState};
use crate::config::Flavour;
use crate::consumer_group::{ConsumerGroup, ConsumerGroups};
use crate::ctx::Ctx;
use crate::event::EventKind;
use crate::protocol::{
    OffsetCommitRequest, OffsetCommitResponse, OffsetCommitResponsePartition,
    OffsetCommitResponseTopic, OffsetFetchRequest, OffsetFetchRequestTopic, OffsetFetchResponse,
    OffsetFetchResponseGroup, OffsetFetchResponsePartition, OffsetFetchResponseTopic,
};
use crate::{ErrorCode, Groups, Response};
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;

/// A committed offset (Kafka's `OffsetAndMetadata`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct OffsetAndMetadata {
    pub committed_offset: i64,
    pub leader_epoch: i32,
    pub metadata: String,
    pub commit_timestamp_ms: i64,
    pub expire_timestamp_ms: Option<i64>,
}

/// A group's committed offsets, by topic and then partition: the order OffsetFetch lists them
/// in. Two levels, so that a commit compares a topic's name once per topic, not at every
/// partition's key, and allocates no name for a topic it has seen. The name is shared by the
/// topic's partitions, so a copy of the coordinator (each of the simulator's checkpoints)
/// copies no name per partition.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct GroupOffsets {
    by_topic: BTreeMap<Arc<str>, Partitions>,
}

/// How far past the partitions held in order a commit may reach and still be held in order
/// (and how many more slots than twice the offsets held the vector may have).
const DENSE_SLACK: usize = 16;

/// One topic's offsets by partition. A topic's partitions are numbered 0, 1, 2, ...: those are
/// held in a vector indexed by partition, so a commit finds its partition at once (measured:
/// the B-tree's scan of its keys was most of an OffsetCommit's handling, which a consumer sends
/// every `auto.commit.interval.ms`). Any other number (below 0, or far past the last held in
/// order: what a hand-written request may carry) goes to a map, and moves into the vector when
/// the partitions before it arrive.
#[derive(Clone, Debug, Default)]
struct Partitions {
    dense: Vec<Option<OffsetAndMetadata>>,
    /// The partitions not in `dense`: below 0, or at or past its length.
    sparse: BTreeMap<i32, OffsetAndMetadata>,
    count: usize,
}

impl Partitions {
    fn insert(&mut self, partition: i32, offset: OffsetAndMetadata) -> Option<OffsetAndMetadata> {
        let held = self.dense.len();
        let replaced = match usize::try_from(partition) {
            Ok(p) if p < held => self.dense[p].replace(offset),
            // Grown only while at least about half of it holds offsets: partitions far apart
            // (a hand-written request) would make it mostly empty.
            Ok(p) if p <= held + DENSE_SLACK && p < 2 * self.count + DENSE_SLACK => {
                self.dense.resize(p + 1, None);
                // What the map held in the vector's new range moves in.
                let moved: Vec<i32> = self
                    .sparse
                    .range(held as i32..=partition)
                    .map(|(p, _)| *p)
                    .collect();
                for q in moved {
                    self.dense[q as usize] = self.sparse.remove(&q);
                }
                self.dense[p].replace(offset)
            }
            _ => self.sparse.insert(partition, offset),
        };
        if replaced.is_none() {
            self.count += 1;
        }
        replaced
    }

    fn get(&self, partition: i32) -> Option<&OffsetAndMetadata> {
        match usize::try_from(partition) {
            Ok(p) if p < self.dense.len() => self.dense[p].as_ref(),
            _ => self.sparse.get(&partition),
        }
    }

    /// In partition order.
    fn iter(&self) -> impl Iterator<Item = (i32, &OffsetAndMetadata)> {
        let below = self.sparse.range(..0);
        let dense = self
            .dense
            .iter()
            .enumerate()
            .filter_map(|(p, o)| Some((p as i32, o.as_ref()?)));
        let past = self.sparse.range(self.dense.len() as i32..);
        below
            .map(|(p, o)| (*p, o))
            .chain(dense)
            .chain(past.map(|(p, o)| (*p, o)))
    }

    /// The offsets, in partition order.
    fn values(&self) -> impl Iterator<Item = &OffsetAndMetadata> {
        self.iter().map(|(_, o)| o)
    }

    fn retain(&mut self, mut keep: impl FnMut(&OffsetAndMetadata) -> bool) {
        for slot in &mut self.dense {
            if slot.as_ref().is_some_and(|o| !keep(o)) {
                *slot = None;
                self.count -= 1;
            }
        }
        let before = self.sparse.len();
        self.sparse.retain(|_, o| keep(o));
        self.count -= before - self.sparse.len();
    }
}

/// Equal when they hold the same offsets (however they are held).
impl PartialEq for Partitions {
    fn eq(&self, other: &Self) -> bool {
        self.count == other.count && self.iter().eq(other.iter())
    }
}

impl Eq for Partitions {}

impl GroupOffsets {
    /// A topic's offsets, made empty when it has none yet (its name copied only then).
    fn topic_mut(&mut self, topic: &str) -> &mut Partitions {
        // (The key held, if any, for `entry`: its own copy of the name at every call would
        // allocate.)
        let key = match self.by_topic.get_key_value(topic) {
            Some((held, _)) => held.clone(),
            None => Arc::from(topic),
        };
        self.by_topic.entry(key).or_default()
    }

    pub(crate) fn get(&self, topic: &str, partition: i32) -> Option<&OffsetAndMetadata> {
        self.by_topic.get(topic)?.get(partition)
    }

    /// A topic's offsets, in partition order.
    pub(crate) fn topic(&self, topic: &str) -> impl Iterator<Item = &OffsetAndMetadata> {
        self.by_topic
            .get(topic)
            .into_iter()
            .flat_map(Partitions::values)
    }

    /// Every offset with its topic and partition, in (topic, partition) order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, i32, &OffsetAndMetadata)> {
        self.by_topic
            .iter()
            .flat_map(|(topic, partitions)| partitions.iter().map(move |(p, o)| (&**topic, p, o)))
    }

    /// The offsets of the topics `take` accepts, each topic asked once (not once per partition).
    pub(crate) fn of_topics(
        &self,
        mut take: impl FnMut(&str) -> bool,
    ) -> impl Iterator<Item = &OffsetAndMetadata> {
        self.by_topic
            .iter()
            .filter(move |(topic, _)| take(topic))
            .flat_map(|(_, partitions)| partitions.values())
    }

    pub(crate) fn values(&self) -> impl Iterator<Item = &OffsetAndMetadata> {
        self.by_topic.values().flat_map(Partitions::values)
    }

    /// Keeps the offsets `keep` accepts; a topic left without any goes.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(&str, &OffsetAndMetadata) -> bool) {
        self.by_topic.retain(|topic, partitions| {
            partitions.retain(|o| keep(topic, o));
            partitions.count > 0
        });
    }

    pub(crate) fn len(&self) -> usize {
        self.by_topic.values().map(|p| p.count).sum()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.by_topic.is_empty()
    }
}

pub(crate) fn handle_commit(
    ctx: &mut Ctx,
    groups: &mut Groups,
    consumer: &ConsumerGroups,
    req: &OffsetCommitRequest,
) {
    let (generation, member_id, instance) = match req.api_version {
        0 => (-1, "", None),
        v => (
            req.generation_id_or_member_epoch,
            req.member_id.as_str(),
            if v >= 7 {
                req.group_instance_id.as_deref()
            } else {
                None
            },
        ),
    };
    let group_error = match consumer.groups.get(&req.group_id) {
        Some(g) if g.unloaded => Some(ErrorCode::NotCoordinator),
        Some(g) => validate_consumer_commit(g, req.api_version, generation, member_id),
        None => validate_commit(ctx, groups, req, generation, member_id, instance),
    };
    let max_metadata = usize::try_from(ctx.config.offset_metadata_max_bytes).unwrap_or(0);
    let retention = (2..=4).contains(&req.api_version) && req.retention_time_ms != -1;
    let mut topics = Vec::with_capacity(req.topics.len());
    let mut first_error = ErrorCode::None;
    let now = ctx.now;
    // The group's offsets, looked up once, at the first partition written (a commit that writes
    // none makes no entry for the group: a load would tell).
    let mut written: Option<&mut GroupOffsets> = None;
    let mut all_offsets = Some(&mut ctx.offsets);
    let expiries = &mut ctx.explicit_expiries;
    for topic in &req.topics {
        let mut partitions = Vec::with_capacity(topic.partitions.len());
        // The topic's offsets, looked up once, at its first partition written (a commit names
        // a topic once, with its partitions).
        let mut held: Option<&mut Partitions> = None;
        for p in &topic.partitions {
            let metadata = p.committed_metadata.clone().unwrap_or_default();
            let error = match group_error {
                Some(error) => error,
                // Java measures String.length(): UTF-16 code units.
                None if metadata.encode_utf16().count() > max_metadata => {
                    ErrorCode::OffsetMetadataTooLarge
                }
                None => {
                    if held.is_none() {
                        if written.is_none() {
                            written = all_offsets
                                .take()
                                .and_then(|all| group_offsets(all, &req.group_id));
                        }
                        held = written.as_deref_mut().map(|o| o.topic_mut(&topic.name));
                    }
                    match held.as_deref_mut() {
                        Some(offsets) => {
                            // Java's `currentTimeMs + retentionTimeMs` wraps: a retention too
                            // long for a long gives a timestamp in the past, which the next
                            // cleanup expires.
                            let expire_timestamp_ms =
                                retention.then(|| now.wrapping_add(req.retention_time_ms));
                            let replaced = offsets.insert(
                                p.partition_index,
                                OffsetAndMetadata {
                                    committed_offset: p.committed_offset,
                                    leader_epoch: p.committed_leader_epoch,
                                    metadata,
                                    commit_timestamp_ms: now,
                                    expire_timestamp_ms,
                                },
                            );
                            let had = replaced.is_some_and(|o| o.expire_timestamp_ms.is_some());
                            if had != expire_timestamp_ms.is_some() {
                                let count = expiries.entry(req.group_id.clone()).or_default();
                                *count = if had {
                                    count.saturating_sub(1)
                                } else {
                                    *count + 1
                                };
                            }
                            ErrorCode::None
                        }
                        // (Not reached: the map is taken at the group's first write.)
                        None => ErrorCode::NotCoordinator,
                    }
                }
            };
            if first_error == ErrorCode::None {
                first_error = error;
            }
            partitions.push(OffsetCommitResponsePartition {
                partition_index: p.partition_index,
                error_code: error,
            });
        }
        topics.push(OffsetCommitResponseTopic {
            name: topic.name.clone(),
            partitions,
        });
    }
    if group_error.is_none() {
        match groups.get(&req.group_id) {
            Some(group) => group.schedule_offsets_expiration(ctx),
            None => consumer.after_commit(
                ctx,
                &req.group_id,
                req.topics.iter().map(|t| t.name.as_str()),
            ),
        }
    }
    ctx.out.push(Response::OffsetCommit(OffsetCommitResponse {
        api_version: req.api_version,
        correlation_id: req.correlation_id,
        throttle_time_ms: 0,
        error_code: group_error.unwrap_or(first_error),
        topics,
    }));
}

/// The group's offsets, made empty when it has none yet (its id copied only then: `entry`
/// would copy it at every commit).
fn group_offsets<'a>(
    all: &'a mut BTreeMap<String, GroupOffsets>,
    group_id: &str,
) -> Option<&'a mut GroupOffsets> {
    if !all.contains_key(group_id) {
        all.insert(String::from(group_id), GroupOffsets::default());
    }
    all.get_mut(group_id)
}

/// The group-level checks of an offset commit (C3–C11); `Some(error)` fails every partition.
/// A commit to a consumer group (KIP-848; Kafka's `ConsumerGroup.validateOffsetCommit`): with
/// no member epoch (−1) only while the group is empty (an admin or a consumer outside group
/// management); otherwise from a member at its current member epoch, at OffsetCommit v9+ unless
/// it speaks the classic protocol.
fn validate_consumer_commit(
    group: &ConsumerGroup,
    api_version: i16,
    member_epoch: i32,
    member_id: &str,
) -> Option<ErrorCode> {
    if member_epoch < 0 && group.members.is_empty() {
        return None;
    }
    let Some(member) = group.members.get(member_id) else {
        return Some(ErrorCode::UnknownMemberId);
    };
    if api_version < 9 && !member.uses_classic_protocol() {
        // "OffsetCommit version 9 or above must be used by members using the consumer group
        // protocol."
        return Some(ErrorCode::UnsupportedVersion);
    }
    member_epoch_error(member, member_epoch)
}

/// `validateMemberEpoch`: a classic member in a consumer group commits with its generation,
/// which must be its member epoch (ILLEGAL_GENERATION); a consumer-protocol member with its
/// member epoch (STALE_MEMBER_EPOCH).
fn member_epoch_error(
    member: &crate::consumer_group::ConsumerGroupMember,
    received: i32,
) -> Option<ErrorCode> {
    (received != member.member_epoch()).then_some(if member.uses_classic_protocol() {
        ErrorCode::IllegalGeneration
    } else {
        ErrorCode::StaleMemberEpoch
    })
}

/// An offset fetch from a consumer group at OffsetFetch v9+ (`validateOffsetFetch`): an admin
/// (no member id, no epoch) always may; a member only at its current epoch.
fn validate_consumer_fetch(
    group: &ConsumerGroup,
    member_id: Option<&str>,
    member_epoch: i32,
) -> Option<ErrorCode> {
    if member_epoch < 0 && member_id.is_none() {
        return None;
    }
    let Some(member) = group.members.get(member_id.unwrap_or_default()) else {
        return Some(ErrorCode::UnknownMemberId);
    };
    member_epoch_error(member, member_epoch)
}

fn validate_commit(
    ctx: &mut Ctx,
    groups: &mut Groups,
    req: &OffsetCommitRequest,
    generation: i32,
    member_id: &str,
    instance: Option<&str>,
) -> Option<ErrorCode> {
    let Some(group) = groups.get_mut(&req.group_id) else {
        if generation < 0 {
            // A "simple" group: offsets managed outside group management.
            ctx.emit(&req.group_id, EventKind::GroupCreated);
            groups.insert(
                req.group_id.clone(),
                ClassicGroup::new(&req.group_id, ctx.now),
            );
            return None;
        }
        return Some(
            if ctx.config.flavour == Flavour::Kafka4 && req.api_version >= 9 {
                ErrorCode::GroupIdNotFound
            } else {
                ErrorCode::IllegalGeneration
            },
        );
    };
    if group.unloaded {
        return Some(ErrorCode::NotCoordinator);
    }
    if group.state() == GroupState::Dead {
        return Some(ErrorCode::CoordinatorNotAvailable);
    }
    if generation < 0 && group.state() == GroupState::Empty {
        return None;
    }
    let mut member = None;
    if generation >= 0 || !member_id.is_empty() || instance.is_some() {
        match group.validate_member(member_id, instance) {
            Ok(found) => member = found,
            Err(error) => return Some(error),
        }
        if generation != group.generation_id() {
            return Some(ErrorCode::IllegalGeneration);
        }
    } else if group.state() != GroupState::Empty {
        return Some(ErrorCode::UnknownMemberId);
    }
    match group.state() {
        GroupState::CompletingRebalance => Some(ErrorCode::RebalanceInProgress),
        GroupState::Stable | GroupState::PreparingRebalance => {
            // A commit keeps the session alive, which is how a consumer can commit in
            // onPartitionsRevoked while the group is rebalancing.
            group.refresh_session_of(ctx, member);
            None
        }
        GroupState::Empty | GroupState::Dead => None,
    }
}

pub(crate) fn handle_fetch(
    ctx: &mut Ctx,
    groups: &mut Groups,
    consumer: &ConsumerGroups,
    req: &OffsetFetchRequest,
) {
    let mut response = OffsetFetchResponse {
        api_version: req.api_version,
        correlation_id: req.correlation_id,
        ..OffsetFetchResponse::default()
    };
    if req.api_version >= 8 {
        for g in &req.groups {
            let consumer_group = consumer.groups.get(&g.group_id);
            let refused = consumer_group
                .filter(|c| req.api_version >= 9 && !c.unloaded)
                .and_then(|c| validate_consumer_fetch(c, g.member_id.as_deref(), g.member_epoch));
            if let Some(error) = refused {
                response.groups.push(OffsetFetchResponseGroup {
                    group_id: g.group_id.clone(),
                    topics: Vec::new(),
                    error_code: error,
                });
                continue;
            }
            let (error, topics) = fetch_group(
                ctx,
                groups,
                consumer_group,
                &g.group_id,
                g.topics.as_deref(),
            );
            response.groups.push(OffsetFetchResponseGroup {
                group_id: g.group_id.clone(),
                topics,
                error_code: error,
            });
        }
        response.error_code = response
            .groups
            .iter()
            .map(|g| g.error_code)
            .find(|&e| e != ErrorCode::None)
            .unwrap_or(ErrorCode::None);
    } else {
        let consumer_group = consumer.groups.get(&req.group_id);
        let (error, mut topics) = fetch_group(
            ctx,
            groups,
            consumer_group,
            &req.group_id,
            req.topics.as_deref(),
        );
        if req.api_version < 2 && error != ErrorCode::None {
            // v0/v1 have no top-level error: it goes to every partition.
            for t in &mut topics {
                for p in &mut t.partitions {
                    p.error_code = error;
                }
            }
        }
        if req.api_version < 5 {
            for t in &mut topics {
                for p in &mut t.partitions {
                    p.committed_leader_epoch = -1;
                }
            }
        }
        response.error_code = error;
        response.topics = topics;
    }
    ctx.out.push(Response::OffsetFetch(response));
}

fn fetch_group(
    ctx: &Ctx,
    groups: &Groups,
    consumer_group: Option<&crate::consumer_group::ConsumerGroup>,
    group_id: &str,
    topics: Option<&[OffsetFetchRequestTopic]>,
) -> (ErrorCode, Vec<OffsetFetchResponseTopic>) {
    let unloaded = groups.get(group_id).is_some_and(|g| g.unloaded)
        || consumer_group.is_some_and(|g| g.unloaded);
    let empty = GroupOffsets::default();
    let stored = if consumer_group.is_some() || groups.contains_key(group_id) {
        ctx.offsets.get(group_id).unwrap_or(&empty)
    } else {
        &empty
    };
    let partition = |topic: &str, index: i32| {
        let found = stored.get(topic, index);
        OffsetFetchResponsePartition {
            partition_index: index,
            committed_offset: found.map_or(-1, |o| o.committed_offset),
            committed_leader_epoch: found.map_or(-1, |o| o.leader_epoch),
            metadata: Some(found.map(|o| o.metadata.clone()).unwrap_or_default()),
            error_code: ErrorCode::None,
        }
    };
    if unloaded {
        let topics = topics
            .unwrap_or_default()
            .iter()
            .map(|t| OffsetFetchResponseTopic {
                name: t.name.clone(),
                partitions: t
                    .partition_indexes
                    .iter()
                    .map(|&i| OffsetFetchResponsePartition {
                        partition_index: i,
                        committed_offset: -1,
                        committed_leader_epoch: -1,
                        metadata: Some(String::new()),
                        error_code: ErrorCode::NotCoordinator,
                    })
                    .collect(),
            })
            .collect();
        return (ErrorCode::NotCoordinator, topics);
    }
    let result = match topics {
        Some(topics) => topics
            .iter()
            .map(|t| OffsetFetchResponseTopic {
                name: t.name.clone(),
                partitions: t
                    .partition_indexes
                    .iter()
                    .map(|&i| partition(&t.name, i))
                    .collect(),
            })
            .collect(),
        None => {
            let mut by_topic: BTreeMap<&str, Vec<OffsetFetchResponsePartition>> = BTreeMap::new();
            for (topic, index, _) in stored.iter() {
                by_topic
                    .entry(topic)
                    .or_default()
                    .push(partition(topic, index));
            }
            by_topic
                .into_iter()
                .map(|(name, partitions)| OffsetFetchResponseTopic {
                    name: String::from(name),
                    partitions,
                })
                .collect()
        }
    };
    (ErrorCode::None, result)
}

impl ClassicGroup {
    /// The time from which an offset's retention counts, if it can expire in the group's current
    /// state (Kafka's `offsetExpirationCondition`): an Empty consumer group counts from when it
    /// became Empty, a simple group (no protocol type) from each commit; members' offsets in a
    /// live group never expire here.
    fn expiration_base(&self, offset: &OffsetAndMetadata) -> Option<i64> {
        match (&self.protocol_type, self.state()) {
            (None, _) => Some(offset.commit_timestamp_ms),
            (Some(_), GroupState::Empty) => Some(self.state_timestamp_ms),
            _ => None,
        }
    }

    fn expires_at(&self, offset: &OffsetAndMetadata, retention_ms: i64) -> Option<i64> {
        match offset.expire_timestamp_ms {
            Some(at) => Some(at),
            None => self
                .expiration_base(offset)
                .map(|base| base.saturating_add(retention_ms)),
        }
    }

    /// Arms `offsets-expiration-<group>` at the first cleanup run (a multiple of
    /// `offsets.retention.check.interval.ms` since the coordinator started) at which an offset
    /// expires or, for an Empty group without offsets, the group itself is removed.
    pub(crate) fn schedule_offsets_expiration(&self, ctx: &mut Ctx) {
        let retention = i64::from(ctx.config.offsets_retention_minutes).saturating_mul(60_000);
        let offsets = ctx.offsets.get(&self.group_id);
        let cannot_expire = self.protocol_type.is_some()
            && self.state() != GroupState::Empty
            && ctx
                .explicit_expiries
                .get(&self.group_id)
                .is_none_or(|n| *n == 0);
        let earliest = match offsets {
            Some(_) if cannot_expire => None,
            Some(o) if !o.is_empty() => o
                .values()
                .filter_map(|x| self.expires_at(x, retention))
                .min(),
            _ if self.state() == GroupState::Empty => Some(ctx.now),
            _ => None,
        };
        ctx.schedule_offsets_cleanup(&self.group_id, earliest);
    }

    /// The cleanup ran: expired offsets go; returns true if the group is now an Empty group with
    /// no offsets, which Kafka deletes.
    pub(crate) fn on_offsets_expiration_timer(&mut self, ctx: &mut Ctx) -> bool {
        let retention = i64::from(ctx.config.offsets_retention_minutes).saturating_mul(60_000);
        let now = ctx.now;
        let mut removed = 0;
        if let Some(offsets) = ctx.offsets.get_mut(&self.group_id) {
            let before = offsets.len();
            offsets.retain(|_, o| self.expires_at(o, retention).is_none_or(|at| now < at));
            removed = before - offsets.len();
            let explicit = offsets
                .values()
                .filter(|o| o.expire_timestamp_ms.is_some())
                .count();
            ctx.explicit_expiries
                .insert(self.group_id.clone(), explicit);
        }
        if removed > 0 {
            ctx.emit(
                &self.group_id,
                EventKind::OffsetsExpired {
                    partitions: removed,
                },
            );
        }
        let no_offsets = ctx.offsets.get(&self.group_id).is_none_or(|o| o.is_empty());
        if no_offsets {
            ctx.offsets.remove(&self.group_id);
            ctx.explicit_expiries.remove(&self.group_id);
        }
        if self.state() == GroupState::Empty && no_offsets {
            return true;
        }
        self.schedule_offsets_expiration(ctx);
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offset(o: i64) -> OffsetAndMetadata {
        OffsetAndMetadata {
            committed_offset: o,
            leader_epoch: -1,
            metadata: String::new(),
            commit_timestamp_ms: 0,
            expire_timestamp_ms: None,
        }
    }

    /// Partitions held in order or in the map, against a map of them all: the same offsets in
    /// the same order, whatever numbers commits carry (in order, out of order, below 0, far
    /// past the last, the largest) and whatever a cleanup keeps.
    #[test]
    fn partitions_hold_what_a_map_would() {
        let mut held = Partitions::default();
        let mut model: BTreeMap<i32, OffsetAndMetadata> = BTreeMap::new();
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) % n
        };
        for round in 0..5_000i64 {
            let partition = match next(10) {
                0 => -(next(5) as i32) - 1,
                1 => i32::MAX - next(3) as i32,
                2 => 40 + next(200) as i32,
                _ => next(60) as i32,
            };
            assert_eq!(
                held.insert(partition, offset(round)),
                model.insert(partition, offset(round))
            );
            if round % 500 == 499 {
                let keep = |o: &OffsetAndMetadata| o.committed_offset % 3 != 0;
                held.retain(keep);
                model.retain(|_, o| keep(o));
            }
            assert_eq!(held.get(partition), model.get(&partition));
            assert_eq!(held.count, model.len());
            // Never mostly empty (counting what a cleanup emptied, which it does not shrink).
            assert!(held.dense.len() <= 2 * round as usize + DENSE_SLACK + 1);
        }
        let listed: Vec<(i32, i64)> = held.iter().map(|(p, o)| (p, o.committed_offset)).collect();
        let expected: Vec<(i32, i64)> = model
            .iter()
            .map(|(p, o)| (*p, o.committed_offset))
            .collect();
        assert_eq!(listed, expected);
        // Held differently, equal all the same.
        let mut other = Partitions::default();
        for (p, o) in model.iter().rev() {
            other.insert(*p, o.clone());
        }
        assert_eq!(held, other);
    }

    /// Partitions committed far apart (each just within reach of the last) stay in the map: the
    /// vector does not become mostly empty slots.
    #[test]
    fn partitions_far_apart_do_not_grow_the_vector() {
        let mut held = Partitions::default();
        for k in 0..10_000 {
            held.insert(k * (DENSE_SLACK as i32 + 1), offset(0));
        }
        assert_eq!(held.count, 10_000);
        assert!(
            held.dense.len() <= 2 * DENSE_SLACK + 1,
            "{}",
            held.dense.len()
        );
        assert_eq!(held.iter().count(), 10_000);
    }
}
