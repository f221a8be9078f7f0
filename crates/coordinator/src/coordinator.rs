//! The coordinator: the sans-IO entry point that owns the groups, the timers and the outputs.

use crate::classic::GroupView;
use crate::classic::{self, ClassicGroup, GroupRecord, GroupState};
use crate::classic_rpc::ParkedJoin;
use crate::config::{BrokerConfig, ConfigError};
use crate::consumer_group::{ConsumerGroup, ConsumerGroups, TopicImage, Uuid};
use crate::ctx::{Ctx, MemberIdGenerator};
use crate::event::{Cause, Event, EventKind};
use crate::protocol::{ConsumerGroupHeartbeatRequest, ConsumerGroupHeartbeatResponse};
use crate::protocol::{Request, RequestError};
use crate::timer::{TimerKey, TimerQueue};
use crate::{ErrorCode, Response};
use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::{String, ToString};
use alloc::vec::Vec;

pub(crate) type Groups = BTreeMap<String, ClassicGroup>;

/// Misuse of the API. Protocol-level failures are never errors: they are Kafka error codes in
/// responses. On `Err` the coordinator is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoordinatorError {
    /// `now` is before a time the coordinator has already seen.
    TimeWentBackwards {
        now_ms: i64,
        current_ms: i64,
    },
    /// A request that could not have been sent at its version.
    InvalidRequest(RequestError),
    InvalidConfig(ConfigError),
    /// `unload`/`load` of a group this coordinator does not know.
    UnknownGroup(String),
    /// `unload` of a group that is already unloaded.
    GroupNotLoaded(String),
    /// `load` of a group that is loaded (unload it first).
    GroupAlreadyLoaded(String),
    /// Topic metadata that cannot be (a name, an id or a partition count that is wrong).
    InvalidMetadata(String),
}

impl core::fmt::Display for CoordinatorError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            CoordinatorError::TimeWentBackwards { now_ms, current_ms } => write!(
                f,
                "time went backwards: now = {now_ms} ms but the coordinator is already at {current_ms} ms"
            ),
            CoordinatorError::InvalidRequest(e) => write!(f, "{e}"),
            CoordinatorError::InvalidConfig(e) => write!(f, "{e}"),
            CoordinatorError::UnknownGroup(g) => write!(f, "unknown group \"{g}\""),
            CoordinatorError::GroupNotLoaded(g) => {
                write!(f, "group \"{g}\" is not loaded (it was already unloaded)")
            }
            CoordinatorError::InvalidMetadata(m) => write!(f, "{m}"),
            CoordinatorError::GroupAlreadyLoaded(g) => {
                write!(
                    f,
                    "group \"{g}\" is loaded; unload it before loading it again"
                )
            }
        }
    }
}

impl From<RequestError> for CoordinatorError {
    fn from(e: RequestError) -> Self {
        CoordinatorError::InvalidRequest(e)
    }
}

/// Kafka's classic group coordinator, one `__consumer_offsets` partition's worth of groups.
///
/// Call order, as in quinn-proto and str0m: feed an input ([`Coordinator::handle`] a request, or
/// [`Coordinator::advance`] the clock), take the responses it returns, drain the
/// [`Coordinator::drain_events`] if you draw them, and call `advance` again at
/// [`Coordinator::next_deadline`]. The coordinator never reads a clock: time is an argument
/// and may only move forward.
#[derive(Clone, Debug)]
pub struct Coordinator {
    pub(crate) ctx: Ctx,
    groups: Groups,
    /// The KIP-848 consumer groups and the topics' metadata they are assigned from.
    pub(crate) consumer: ConsumerGroups,
}

impl Default for Coordinator {
    fn default() -> Self {
        Coordinator::new(BrokerConfig::default())
    }
}

impl Coordinator {
    pub fn new(config: BrokerConfig) -> Coordinator {
        Coordinator::with_seed(config, 0)
    }

    /// A coordinator whose member-id uuids come from `seed`.
    pub fn with_seed(config: BrokerConfig, seed: u64) -> Coordinator {
        Coordinator {
            ctx: Ctx {
                now: 0,
                config,
                timers: TimerQueue::default(),
                events: Vec::new(),
                out: Vec::new(),
                records: BTreeMap::new(),
                offsets: BTreeMap::new(),
                explicit_expiries: BTreeMap::new(),
                persist_fault: None,
                member_ids: MemberIdGenerator::new(seed),
                group_configs: BTreeMap::new(),
                heartbeat_timer_events: true,
                heartbeat_key: TimerKey::Heartbeat(String::new(), String::new()),
                timer_events_counted: None,
            },
            groups: BTreeMap::new(),
            consumer: ConsumerGroups::default(),
        }
    }

    // ---- getters ---------------------------------------------------------------------------

    pub fn config(&self) -> &BrokerConfig {
        &self.ctx.config
    }

    /// The latest time the coordinator has seen.
    pub fn now(&self) -> i64 {
        self.ctx.now
    }

    /// When [`Coordinator::advance`] next has work to do.
    pub fn next_deadline(&self) -> Option<i64> {
        self.ctx.timers.next_deadline()
    }

    pub fn group(&self, group_id: &str) -> Option<&ClassicGroup> {
        self.groups.get(group_id)
    }

    pub fn groups(&self) -> impl Iterator<Item = &ClassicGroup> {
        self.groups.values()
    }

    /// A snapshot of the group for the views; `None` for a group this coordinator never saw
    /// (or deleted).
    pub fn describe(&self, group_id: &str) -> Option<GroupView> {
        self.groups
            .get(group_id)
            .map(|g| GroupView::of(g, &self.ctx.timers))
    }

    /// The last group record written for the group (what a failover would load).
    pub fn last_record(&self, group_id: &str) -> Option<&GroupRecord> {
        self.ctx.records.get(group_id)
    }

    pub(crate) fn timer_deadline<Q: core::hash::Hash + hashbrown::Equivalent<TimerKey> + ?Sized>(
        &self,
        key: &Q,
    ) -> Option<i64> {
        self.ctx.timers.deadline(key)
    }

    pub(crate) fn has_group_timers(&self, group_id: &str) -> bool {
        self.ctx
            .timers
            .iter()
            .any(|(k, _)| k.group_id() == group_id)
    }

    /// Every armed timer, in firing order, as (Kafka key, deadline).
    pub fn timers(&self) -> Vec<(String, i64)> {
        self.ctx
            .timers
            .iter()
            .map(|(k, d)| (k.to_string(), d))
            .collect()
    }

    /// Test support: change a setting of a running coordinator, as Kafka's tests build groups
    /// directly. Not a Kafka feature (broker settings of the coordinator are static there).
    #[doc(hidden)]
    pub fn config_mut(&mut self) -> &mut BrokerConfig {
        &mut self.ctx.config
    }

    // ---- inputs ----------------------------------------------------------------------------

    /// Handles one request at `now`: first every timer due at `now` fires (as
    /// [`Coordinator::advance`] would), then the request is handled. Returns the responses this
    /// produced, in order: those released by the timers, then the request's own response if it
    /// is immediate, with any parked responses it released.
    ///
    /// The request is only read: a caller that keeps it (a simulator tracing it) lends it, and
    /// nothing copies it.
    pub fn handle(
        &mut self,
        now: i64,
        request: impl core::borrow::Borrow<Request>,
    ) -> Result<Vec<Response>, CoordinatorError> {
        let mut out = Vec::new();
        self.handle_into(now, request, &mut out)?;
        Ok(out)
    }

    /// [`Coordinator::handle`], its responses appended to `out`: a caller that handles many
    /// requests keeps one buffer instead of a new vector for every request (a simulated hour
    /// of 1,000 consumers sends 2.5 million).
    pub fn handle_into(
        &mut self,
        now: i64,
        request: impl core::borrow::Borrow<Request>,
        out: &mut Vec<Response>,
    ) -> Result<(), CoordinatorError> {
        let request = request.borrow();
        self.check_time(now)?;
        request.validate()?;
        self.fire_due_timers(now);
        let (ctx, groups) = (&mut self.ctx, &mut self.groups);
        if let crate::group_type::Route::Answered =
            crate::group_type::route_classic(ctx, &mut self.consumer, groups, request)
        {
            out.append(&mut self.ctx.out);
            return Ok(());
        }
        match request {
            Request::JoinGroup(r) => classic::join_group::handle(ctx, groups, r),
            Request::SyncGroup(r) => classic::sync_group::handle(ctx, groups, r),
            Request::Heartbeat(r) => classic::heartbeat::handle(ctx, groups, r),
            Request::LeaveGroup(r) => classic::leave_group::handle(ctx, groups, r),
            Request::OffsetCommit(r) => {
                crate::offsets::handle_commit(ctx, groups, &self.consumer, r)
            }
            Request::OffsetFetch(r) => crate::offsets::handle_fetch(ctx, groups, &self.consumer, r),
            Request::DescribeGroups(r) => {
                crate::admin::handle_describe(ctx, groups, &self.consumer, r)
            }
            Request::ListGroups(r) => crate::admin::handle_list(ctx, groups, &self.consumer, r),
            Request::DeleteGroups(r) => {
                crate::admin::handle_delete(ctx, groups, &mut self.consumer, r)
            }
            Request::ConsumerGroupHeartbeat(r) => {
                let response = self.consumer.heartbeat(ctx, groups, r);
                ctx.out.push(Response::ConsumerGroupHeartbeat(response));
            }
            Request::ConsumerGroupDescribe(r) => {
                let response = self.consumer.describe(ctx, groups, r);
                ctx.out.push(Response::ConsumerGroupDescribe(response));
            }
            Request::DescribeConfigs(r) => {
                let response = crate::group_config::handle_describe(ctx, r);
                ctx.out.push(Response::DescribeConfigs(response));
            }
            Request::IncrementalAlterConfigs(r) => {
                let response = crate::group_config::handle_alter(ctx, r);
                ctx.out.push(Response::IncrementalAlterConfigs(response));
            }
        }
        out.append(&mut self.ctx.out);
        Ok(())
    }

    /// Handles a ConsumerGroupHeartbeat (KIP-848) at `now`: timers due first, as for
    /// [`Coordinator::handle`], and returns its response alone. Responses it releases to other
    /// requests (classic ones, answered by a timer due or by an online upgrade) are dropped:
    /// [`Coordinator::handle`] returns them all.
    pub fn consumer_group_heartbeat(
        &mut self,
        now: i64,
        request: &ConsumerGroupHeartbeatRequest,
    ) -> Result<ConsumerGroupHeartbeatResponse, CoordinatorError> {
        self.check_time(now)?;
        request.api_version_checked()?;
        self.fire_due_timers(now);
        let response = self
            .consumer
            .heartbeat(&mut self.ctx, &mut self.groups, request);
        self.ctx.out.clear();
        Ok(response)
    }

    /// Defines or changes topics in the metadata image consumer groups are assigned from.
    /// A topic given without an id gets [`Uuid::for_topic_name`]'s. A subscribed topic that
    /// changes bumps its groups' epochs at their members' next heartbeats.
    pub fn update_metadata(
        &mut self,
        now: i64,
        topics: &[(String, Option<Uuid>, i32)],
    ) -> Result<(), CoordinatorError> {
        self.check_time(now)?;
        let mut image = self.consumer.topics.clone();
        for (name, id, partitions) in topics {
            let invalid = |m: String| Err(CoordinatorError::InvalidMetadata(m));
            if name.is_empty() || name.len() > 249 {
                return invalid(alloc::format!(
                    "topic name \"{name}\" must be 1 to 249 characters"
                ));
            }
            if !(0..=1_000_000).contains(partitions) {
                return invalid(alloc::format!(
                    "topic \"{name}\": {partitions} partitions is outside 0..=1000000"
                ));
            }
            if let Some(old) = image.get(name)
                && *partitions < old.partitions
            {
                return invalid(alloc::format!(
                    "topic \"{name}\": partitions can only be added ({} -> {partitions})",
                    old.partitions
                ));
            }
            let id = id.unwrap_or_else(|| {
                image
                    .get(name)
                    .map_or_else(|| Uuid::for_topic_name(name), |t| t.id)
            });
            if let Some((other, _)) = image.iter().find(|(n, t)| t.id == id && *n != name) {
                return invalid(alloc::format!(
                    "topic id {id} of \"{name}\" is already \"{other}\"'s"
                ));
            }
            image.insert(
                name.clone(),
                TopicImage {
                    id,
                    partitions: *partitions,
                    racks: Vec::new(),
                },
            );
        }
        // Bounded in all, not only per topic: the assignors' work is the image's partitions,
        // and 200 topics of a million each ran a heartbeat for minutes. Kafka has no such bound
        // (its controller bounds a cluster's partitions by what its brokers hold); this is the
        // model's, the same as its assignors' (`assignor::MAX_PARTITIONS`).
        let total: i64 = image.values().map(|t| i64::from(t.partitions)).sum();
        if total > crate::assignor::MAX_PARTITIONS {
            return Err(CoordinatorError::InvalidMetadata(alloc::format!(
                "{total} partitions in all topics, more than the {} this model assigns",
                crate::assignor::MAX_PARTITIONS
            )));
        }
        self.fire_due_timers(now);
        if image != self.consumer.topics {
            let created = image.keys().any(|n| !self.consumer.topics.contains_key(n));
            self.consumer.topics = image;
            self.consumer.topics_version += 1;
            // Kafka's `lastMetadataImageWithNewTopics`: a created topic asks every group with
            // regular expressions to resolve them again (a deleted one does not: it leaves the
            // subscription metadata by itself).
            if created {
                self.consumer.topics_version_with_new_topics = self.consumer.topics_version;
            }
        }
        Ok(())
    }

    pub fn consumer_group(&self, group_id: &str) -> Option<&ConsumerGroup> {
        self.consumer.groups.get(group_id)
    }

    /// The consumer groups (KIP-848), by id.
    pub fn consumer_groups(&self) -> impl Iterator<Item = &ConsumerGroup> {
        self.consumer.groups.values()
    }

    /// A snapshot of a consumer group (KIP-848) for the views.
    pub fn describe_consumer_group(
        &self,
        group_id: &str,
    ) -> Option<crate::consumer_group::ConsumerGroupView> {
        self.consumer.groups.get(group_id).map(|g| {
            crate::consumer_group::ConsumerGroupView::of(
                g,
                &self.consumer.topics,
                &self.ctx.timers,
                &self.ctx.config,
            )
        })
    }

    /// The topics' metadata consumer groups are assigned from: (name, id, partitions).
    pub fn topics(&self) -> impl Iterator<Item = (&str, Uuid, i32)> {
        self.consumer
            .topics
            .iter()
            .map(|(n, t)| (n.as_str(), t.id, t.partitions))
    }

    /// Moves the clock to `now` and fires every due timer in (deadline, scheduling order),
    /// each seeing `now` as the current time — Kafka's `MockCoordinatorTimer`. Timers that
    /// fire schedule new ones relative to `now`; those already due fire in the same call, but a
    /// key fires at most once per call (so a zero-length timer cannot spin forever).
    /// Calling `advance(next_deadline())` repeatedly fires each timer exactly at its deadline.
    /// A timer that re-arms itself with a zero delay (a join timer of static members with a
    /// rebalance timeout of 0) is due again at once; a driver must let time move on then (Kafka's
    /// real timer ticks every millisecond).
    pub fn advance(&mut self, now: i64) -> Result<Vec<Response>, CoordinatorError> {
        self.check_time(now)?;
        self.fire_due_timers(now);
        Ok(core::mem::take(&mut self.ctx.out))
    }

    /// Events since the last call, oldest first.
    pub fn drain_events(&mut self) -> Vec<Event> {
        core::mem::take(&mut self.ctx.events)
    }

    /// [`Coordinator::drain_events`] into `into` (appended): a caller that drains after every
    /// request reuses one buffer instead of a new one each time.
    pub fn drain_events_into(&mut self, into: &mut Vec<Event>) {
        into.append(&mut self.ctx.events);
    }

    /// Whether re-arming and cancelling a classic member's heartbeat timer (at every Heartbeat,
    /// and at every commit that keeps a session alive) are events: yes unless turned off. A
    /// caller that has no use for them (the simulator's trace keeps only a heartbeat timer's
    /// expiry) turns them off and saves an event per heartbeat; the timers themselves, their
    /// expiry and its event are the same.
    pub fn emit_heartbeat_timer_events(&mut self, emit: bool) {
        self.ctx.heartbeat_timer_events = emit;
    }

    /// Whether timers armed and cancelled (`TimerScheduled`, `TimerCancelled`) are only
    /// counted, not made into events: a caller that keeps no log of events but its length (the
    /// simulator's metrics-only run) saves making and dropping an event, its group id and its
    /// key, at most heartbeats. [`Coordinator::take_timer_events_counted`] gives the count.
    /// The timers are the same either way.
    pub fn count_timer_events(&mut self, count: bool) {
        self.ctx.timer_events_counted = count.then_some(0);
    }

    /// How many timer events were counted instead of made since last asked (see
    /// [`Coordinator::count_timer_events`]).
    pub fn take_timer_events_counted(&mut self) -> u64 {
        self.ctx
            .timer_events_counted
            .as_mut()
            .map_or(0, core::mem::take)
    }

    /// IncrementalAlterConfigs of a GROUP resource (KIP-848 group configs): applied unless
    /// `validate_only`; the error is Kafka's (INVALID_CONFIG, INVALID_REQUEST) with its message.
    /// Members see a change at their next heartbeat.
    pub fn incremental_alter_group_configs(
        &mut self,
        group_id: &str,
        ops: &[crate::group_config::AlterableConfig],
        validate_only: bool,
    ) -> Result<(), (ErrorCode, String)> {
        crate::group_config::alter(&mut self.ctx, group_id, ops, validate_only)
    }

    /// DescribeConfigs of a GROUP resource: each group config with its value and source.
    pub fn describe_group_configs(
        &self,
        group_id: &str,
    ) -> Result<Vec<crate::group_config::ConfigEntry>, (ErrorCode, String)> {
        crate::group_config::described(&self.ctx.config, &self.ctx.group_configs, group_id)
    }

    /// The next group-record write whose failure Kafka handles (the leader's SyncGroup, a static
    /// member's replacement) fails with `error` (e.g. `NotLeaderOrFollower`, mapped to
    /// NOT_COORDINATOR for the client as Kafka maps it).
    pub fn fail_next_persist(&mut self, error: ErrorCode) {
        self.ctx.persist_fault = Some(error);
    }

    /// The coordinator loses the group's partition (`docs/src/reference/classic-protocol.md#admin`): parked requests are answered
    /// NOT_COORDINATOR, the timers go, the group is Dead here and later requests get
    /// NOT_COORDINATOR until [`Coordinator::load`].
    /// A consumer group (KIP-848) keeps its members, epochs and targets, loses its timers, and
    /// answers NOT_COORDINATOR until loaded (`docs/src/reference/consumer-group-protocol.md#failover`).
    pub fn unload(&mut self, group_id: &str) -> Result<Vec<Response>, CoordinatorError> {
        if self.consumer.groups.contains_key(group_id) {
            if !self.consumer.unload(&mut self.ctx, group_id) {
                return Err(CoordinatorError::GroupNotLoaded(group_id.to_string()));
            }
            return Ok(core::mem::take(&mut self.ctx.out));
        }
        let group = self
            .groups
            .get_mut(group_id)
            .ok_or_else(|| CoordinatorError::UnknownGroup(group_id.to_string()))?;
        if group.unloaded {
            return Err(CoordinatorError::GroupNotLoaded(group_id.to_string()));
        }
        let ctx = &mut self.ctx;
        for member_id in group.member_ids() {
            if let Some(parked) = group.unpark_join(&member_id) {
                ctx.out.push(crate::classic_rpc::join_error(
                    parked,
                    ErrorCode::NotCoordinator,
                    &member_id,
                ));
            }
        }
        group.propagate_assignment(ctx, ErrorCode::NotCoordinator);
        group.transition_to(ctx, GroupState::Dead, Cause::Unloaded);
        ctx.cancel_group_timers(group_id);
        group.unloaded = true;
        ctx.emit(group_id, EventKind::Unloaded);
        Ok(core::mem::take(&mut self.ctx.out))
    }

    /// A coordinator (this one again, after a failover) loads the group from its last record:
    /// Stable with the recorded members (Empty without), their sessions restarted, and a
    /// rebalance if the group is over `group.max.size` (`docs/src/reference/classic-protocol.md#admin`).
    /// A consumer group is loaded as it was unloaded, its members' session timers restarted.
    pub fn load(&mut self, group_id: &str) -> Result<Vec<Response>, CoordinatorError> {
        if self.consumer.groups.contains_key(group_id) {
            if !self.consumer.load(&mut self.ctx, group_id) {
                return Err(CoordinatorError::GroupAlreadyLoaded(group_id.to_string()));
            }
            return Ok(core::mem::take(&mut self.ctx.out));
        }
        match self.groups.get(group_id) {
            Some(g) if !g.unloaded => {
                return Err(CoordinatorError::GroupAlreadyLoaded(group_id.to_string()));
            }
            None if !self.ctx.records.contains_key(group_id)
                && !self.ctx.offsets.contains_key(group_id) =>
            {
                return Err(CoordinatorError::UnknownGroup(group_id.to_string()));
            }
            _ => {}
        }
        self.groups.remove(group_id);
        let ctx = &mut self.ctx;
        let mut group = ClassicGroup::new(group_id, ctx.now);
        let record = ctx.records.get(group_id).cloned();
        group.load(ctx, record.as_ref());
        let members = group.num_members();
        for member_id in group.member_ids() {
            group.refresh_session(ctx, &member_id);
        }
        if members > usize::try_from(ctx.config.group_max_size).unwrap_or(usize::MAX) {
            group.prepare_rebalance(ctx, Cause::LoadedOverCapacity);
        }
        group.schedule_offsets_expiration(ctx);
        self.groups.insert(group_id.to_string(), group);
        Ok(core::mem::take(&mut self.ctx.out))
    }

    fn check_time(&self, now: i64) -> Result<(), CoordinatorError> {
        if now < self.ctx.now {
            return Err(CoordinatorError::TimeWentBackwards {
                now_ms: now,
                current_ms: self.ctx.now,
            });
        }
        Ok(())
    }

    fn fire_due_timers(&mut self, now: i64) {
        self.ctx.now = now;
        let mut fired: BTreeSet<TimerKey> = BTreeSet::new();
        while let Some((key, _, _)) = self.ctx.timers.pop_due_unless(now, |k| fired.contains(k)) {
            fired.insert(key.clone());
            self.ctx
                .emit(key.group_id(), EventKind::TimerFired { key: key.clone() });
            if matches!(
                key,
                TimerKey::ConsumerSession(..)
                    | TimerKey::ConsumerRebalance(..)
                    | TimerKey::ConsumerJoin(..)
                    | TimerKey::ConsumerSync(..)
                    | TimerKey::ConsumerRegexRefresh(..)
            ) {
                self.consumer
                    .on_timer(&mut self.ctx, &mut self.groups, &key);
                continue;
            }
            if let TimerKey::OffsetsExpiration(group_id) = &key
                && self.consumer.groups.contains_key(group_id)
            {
                self.consumer
                    .on_offsets_expiration_timer(&mut self.ctx, group_id);
                continue;
            }
            let Some(group) = self.groups.get_mut(key.group_id()) else {
                continue;
            };
            match &key {
                TimerKey::Join(_) => group.on_join_timer(&mut self.ctx),
                TimerKey::Sync(_) => group.on_sync_timer(&mut self.ctx),
                TimerKey::Heartbeat(_, member_id) => {
                    group.on_heartbeat_timer(&mut self.ctx, member_id)
                }
                TimerKey::ConsumerSession(..)
                | TimerKey::ConsumerRebalance(..)
                | TimerKey::ConsumerJoin(..)
                | TimerKey::ConsumerSync(..)
                | TimerKey::ConsumerRegexRefresh(..) => {}
                TimerKey::OffsetsExpiration(group_id) => {
                    if group.on_offsets_expiration_timer(&mut self.ctx) {
                        crate::admin::delete_group(
                            &mut self.ctx,
                            &mut self.groups,
                            group_id,
                            Cause::OffsetsExpired,
                        );
                    }
                }
            }
        }
    }

    /// Test and fuzz support: the member ids of the group whose JoinGroup is parked.
    #[doc(hidden)]
    pub fn parked_joins(&self, group_id: &str) -> Vec<(String, i32)> {
        self.groups
            .get(group_id)
            .map(|g| {
                g.members()
                    .filter_map(|m| {
                        m.awaiting_join
                            .map(|p: ParkedJoin| (m.member_id().to_string(), p.correlation_id))
                    })
                    .collect()
            })
            .unwrap_or_default()
    }
}
