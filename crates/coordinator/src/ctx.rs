//! What every group operation works in, whatever the group's type: the clock, the settings, the
//! timers, the outputs, the persisted records and offsets ([`Ctx`]), and the member ids the
//! coordinator makes up ([`MemberIdGenerator`]).

use crate::classic::GroupRecord;
use crate::config::BrokerConfig;
use crate::event::{Event, EventKind};
use crate::offsets::GroupOffsets;
use crate::timer::{TimerKey, TimerKeyRef, TimerQueue};
use crate::{ErrorCode, Response};
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::Cell;

/// A session slot hint that names no slot (see [`Ctx::schedule_session`]).
pub(crate) const NO_SLOT: u32 = u32::MAX;

/// Everything a group operation may touch besides the group itself: the clock, the settings,
/// the timers, the outputs, the log of persisted records and the offsets.
#[derive(Clone, Debug)]
pub(crate) struct Ctx {
    pub now: i64,
    pub config: BrokerConfig,
    pub timers: TimerQueue<TimerKey>,
    pub events: Vec<Event>,
    pub out: Vec<Response>,
    /// The last group record written per group (what `load` reads back).
    pub records: BTreeMap<String, GroupRecord>,
    /// Committed offsets per group (they are their own records in Kafka, so they survive an
    /// unload/load).
    pub offsets: BTreeMap<String, GroupOffsets>,
    /// Per group, how many of its offsets carry an explicit expiry (OffsetCommit v1-v4
    /// retention): without any, a non-empty consumer group's offsets cannot expire, and the
    /// cleanup timer is known without walking every offset on every commit.
    pub explicit_expiries: BTreeMap<String, usize>,
    pub persist_fault: Option<ErrorCode>,
    pub member_ids: MemberIdGenerator,
    /// Group configs (KIP-848) by group id (`crate::group_config`).
    pub group_configs: crate::group_config::GroupConfigs,
    /// Whether re-arming or cancelling a classic member's heartbeat timer is an event (see
    /// [`crate::Coordinator::emit_heartbeat_timer_events`]).
    pub heartbeat_timer_events: bool,
    /// A heartbeat timer's key written over at each re-arm without events (see
    /// [`Ctx::schedule_heartbeat`]).
    pub heartbeat_key: TimerKey,
    /// Timers armed and cancelled are counted here instead of made into events, when the
    /// caller keeps no log of events (see [`crate::Coordinator::count_timer_events`]).
    pub timer_events_counted: Option<u64>,
}

impl Ctx {
    pub fn emit(&mut self, group_id: &str, kind: EventKind) {
        self.emit_for(String::from(group_id), kind);
    }

    /// [`Self::emit`] with the group's id already owned (a timer event's, copied from its key
    /// before the key moves into the event).
    fn emit_for(&mut self, group_id: String, kind: EventKind) {
        self.events.push(Event {
            at_ms: self.now,
            group_id,
            kind,
        });
    }

    /// When a timer armed now for `delay_ms` comes due.
    fn deadline(&self, delay_ms: i64) -> i64 {
        self.now.saturating_add(delay_ms.max(0))
    }

    pub fn schedule(&mut self, key: TimerKey, delay_ms: i64) {
        let deadline = self.deadline(delay_ms);
        self.timers.schedule(&key, self.now, deadline);
        // (The key moves into its event: a re-armed heartbeat timer copies no key.)
        self.timer_event(|| {
            (
                String::from(key.group_id()),
                EventKind::TimerScheduled {
                    key,
                    deadline_ms: deadline,
                },
            )
        });
    }

    /// [`Self::schedule`] by a borrowed key: copied once when the timer is new, and for its
    /// event only if events are made (a consumer group member's session is re-armed at every
    /// heartbeat).
    pub fn schedule_ref(&mut self, key: TimerKeyRef<'_>, delay_ms: i64) {
        let deadline = self.deadline(delay_ms);
        self.timers
            .schedule_by(&key, TimerKeyRef::to_key, self.now, deadline);
        self.timer_event(|| {
            (
                String::from(key.ids().0),
                EventKind::TimerScheduled {
                    key: key.to_key(),
                    deadline_ms: deadline,
                },
            )
        });
    }

    /// A timer armed or cancelled: its event (group id and kind, made by `make`), or only
    /// counted when the caller keeps no events.
    fn timer_event(&mut self, make: impl FnOnce() -> (String, EventKind)) {
        match &mut self.timer_events_counted {
            Some(count) => *count += 1,
            None => {
                let (group_id, kind) = make();
                self.emit_for(group_id, kind);
            }
        }
    }

    /// (Re)arms a classic member's heartbeat timer. Without heartbeat-timer events (the
    /// simulator's setting) the key is written into one kept for the purpose, so a re-arm, the
    /// work of every Heartbeat, allocates nothing; the timer is the same.
    pub fn schedule_heartbeat(&mut self, group_id: &str, member_id: &str, delay_ms: i64) {
        self.schedule_session(group_id, member_id, delay_ms, &Cell::new(NO_SLOT));
    }

    /// [`Self::schedule_heartbeat`] of a member that keeps the slot of its timer in `slot`
    /// ([`crate::classic::ClassicGroupMember`]'s `session_slot`): a re-arm finds the timer there,
    /// checks that it is still the member's, and skips hashing the group and member ids and
    /// looking them up (finding the session timer at each Heartbeat and OffsetCommit was about
    /// 4% of an hour of 1,000 classic consumers in wasm). The slot is only a hint: a timer
    /// not there (cancelled, fired, its slot reused) is found by its key, as before, and the
    /// hint learns its new slot.
    pub fn schedule_session(
        &mut self,
        group_id: &str,
        member_id: &str,
        delay_ms: i64,
        slot: &Cell<u32>,
    ) {
        if self.heartbeat_timer_events {
            let key = TimerKey::Heartbeat(String::from(group_id), String::from(member_id));
            return self.schedule(key, delay_ms);
        }
        let deadline = self.deadline(delay_ms);
        let this = TimerKeyRef::Heartbeat(group_id, member_id);
        let rearmed =
            self.timers
                .rearm_in(slot.get(), |k| k.borrowed() == this, self.now, deadline);
        if rearmed.is_some() {
            return;
        }
        if let TimerKey::Heartbeat(group, member) = &mut self.heartbeat_key {
            group.clear();
            group.push_str(group_id);
            member.clear();
            member.push_str(member_id);
        }
        let (_, armed_in) = self
            .timers
            .schedule_in_slot(&self.heartbeat_key, self.now, deadline);
        slot.set(armed_in);
    }

    pub fn cancel(&mut self, key: &TimerKey) {
        self.cancel_ref(key.borrowed());
    }

    /// [`Self::cancel`] by a borrowed key: nothing is copied to cancel a timer that is not
    /// armed, and the key of one that is goes into its event (a classic member of a consumer
    /// group cancels its join or sync timer at each JoinGroup and SyncGroup; building a key of
    /// two ids to cancel was most of a cancellation).
    pub fn cancel_ref(&mut self, key: TimerKeyRef<'_>) {
        if let Some(key) = self.timers.cancel(&key)
            && (self.heartbeat_timer_events || !matches!(key, TimerKey::Heartbeat(..)))
        {
            self.timer_event(|| {
                (
                    String::from(key.group_id()),
                    EventKind::TimerCancelled { key },
                )
            });
        }
    }

    /// Cancels every timer of the group.
    pub fn cancel_group_timers(&mut self, group_id: &str) {
        let keys: Vec<TimerKey> = self
            .timers
            .iter()
            .filter(|(k, _)| k.group_id() == group_id)
            .map(|(k, _)| k.clone())
            .collect();
        for key in keys {
            self.cancel(&key);
        }
    }

    /// Arms `offsets-expiration-<group>` at the first cleanup run (a multiple of
    /// `offsets.retention.check.interval.ms` since the coordinator started) after now and not
    /// before `at`; `None` cancels it. Kafka runs the cleanup over every group at each run; the
    /// model keeps one timer per group, armed for the first run at which it has work.
    pub fn schedule_offsets_cleanup(&mut self, group_id: &str, at: Option<i64>) {
        // Asked at every OffsetCommit: the timer is looked up by a borrowed key, and a key is
        // made only to arm or cancel one (most commits, to a group whose offsets cannot
        // expire, do neither).
        let armed = self
            .timers
            .deadline(&TimerKeyRef::OffsetsExpiration(group_id));
        let key = || TimerKey::OffsetsExpiration(String::from(group_id));
        let Some(at) = at else {
            if armed.is_some() {
                self.cancel(&key());
            }
            return;
        };
        let interval = self.config.offsets_retention_check_interval_ms.max(1);
        let from = at.max(self.now);
        let tick = from
            .div_euclid(interval)
            .saturating_add(i64::from(from.rem_euclid(interval) != 0))
            .saturating_mul(interval);
        let tick = if tick <= self.now {
            tick.saturating_add(interval)
        } else {
            tick
        };
        if armed != Some(tick) {
            self.schedule(key(), tick - self.now);
        }
    }

    /// Takes the injected persist failure, if one is armed.
    pub fn take_persist_fault(&mut self) -> Option<ErrorCode> {
        self.persist_fault.take()
    }
}

/// Member ids `<client.id or group.instance.id>-<uuid>`, with the uuid (a version-4 UUID, as
/// `java.util.UUID.randomUUID()` prints it) drawn from a seeded SplitMix64 stream instead of
/// a random source, so runs repeat.
#[derive(Clone, Debug)]
pub(crate) struct MemberIdGenerator {
    rng: crate::rng::Rng,
}

impl MemberIdGenerator {
    pub fn new(seed: u64) -> MemberIdGenerator {
        MemberIdGenerator {
            rng: crate::rng::Rng::new(seed),
        }
    }

    /// A random Kafka `Uuid` (`Uuid.randomUuid()`): what a consumer group names a classic
    /// member that joins without a member id.
    /// Like Kafka, it draws again for an id that prints with a leading `-` (it would read as a
    /// command-line flag) or is one of the reserved ids (all zeros, `00..01`). The draws are
    /// mixed with fixed constants: a simulation seeds this stream and its clients' (whose
    /// consumer-protocol members pick their own ids) with the same seed, and the two must not
    /// print near-identical ids.
    pub fn next_uuid(&mut self) -> crate::consumer_group::Uuid {
        loop {
            let hi = self.rng.next_u64() ^ 0x9e37_79b9_7f4a_7c15;
            let lo = self.rng.next_u64() ^ 0xc2b2_ae3d_27d4_eb4f;
            let hi = (hi & !0xF000) | 0x4000;
            let lo = (lo & !(0b11 << 62)) | (0b10 << 62);
            let id =
                crate::consumer_group::Uuid::from_u128((u128::from(hi) << 64) | u128::from(lo));
            if !alloc::string::ToString::to_string(&id).starts_with('-') && id.to_u128() > 1 {
                return id;
            }
        }
    }

    pub fn next(&mut self, prefix: &str) -> String {
        let hi = self.rng.next_u64();
        let lo = self.rng.next_u64();
        // Version 4, IETF variant, as Java's randomUUID.
        let hi = (hi & !0xF000) | 0x4000;
        let lo = (lo & !(0b11 << 62)) | (0b10 << 62);
        format!(
            "{prefix}-{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
            hi >> 32,
            (hi >> 16) & 0xFFFF,
            hi & 0xFFFF,
            lo >> 48,
            lo & 0xFFFF_FFFF_FFFF
        )
    }
}
