//! The offsets cleanup of a consumer group (`docs/src/reference/consumer-group-protocol.md#expiry`;
//! Kafka's `OffsetMetadataManager.cleanupExpiredOffsets` with the consumer group's
//! `offsetExpirationCondition` and `isSubscribedToTopic`).
//!
//! An offset expires `offsets.retention.minutes` after its commit (or at the expiry time an
//! OffsetCommit v2–v4 gave it), and only while no member subscribes to its topic: unlike a
//! classic group's, it does not wait for the group to become Empty, and the retention counts
//! from the commit, not from when the group emptied. A cleanup run that leaves an Empty group
//! without offsets deletes the group.

use super::group::ConsumerGroup;
use super::groups::ConsumerGroups;
use crate::ctx::Ctx;
use crate::event::EventKind;
use crate::offsets::OffsetAndMetadata;
use alloc::string::String;

fn expires_at(offset: &OffsetAndMetadata, retention_ms: i64) -> i64 {
    offset
        .expire_timestamp_ms
        .unwrap_or_else(|| offset.commit_timestamp_ms.saturating_add(retention_ms))
}

fn retention_ms(ctx: &Ctx) -> i64 {
    i64::from(ctx.config.offsets_retention_minutes).saturating_mul(60_000)
}

/// Arms the cleanup for the first run at which the group has work: an offset of a topic no
/// member subscribes to expires, or the group is Empty without offsets and goes.
fn plan(ctx: &mut Ctx, group: &ConsumerGroup) {
    if group.unloaded {
        return;
    }
    let retention = retention_ms(ctx);
    let subscribed = group.subscribed_topic_counts(None, None);
    let earliest = match ctx.offsets.get(&group.group_id) {
        // (Each topic looked up once: planned at every epoch, 1,000 members joining one by one
        // walked 10,000 offsets a thousand times, a name lookup each.)
        Some(offsets) if !offsets.is_empty() => offsets
            .of_topics(|topic| !subscribed.contains_key(topic))
            .map(|o| expires_at(o, retention))
            .min(),
        _ if group.members.is_empty() => Some(ctx.now),
        _ => None,
    };
    ctx.schedule_offsets_cleanup(&group.group_id, earliest);
}

impl ConsumerGroups {
    /// After an input changed the group: what can expire changes only with the members or their
    /// subscriptions, which move the group epoch, so the offsets are walked once per epoch.
    pub(super) fn plan_offsets_cleanup(&mut self, ctx: &mut Ctx, group_id: &str) {
        let Some(group) = self.groups.get(group_id) else {
            self.cleanup_planned.remove(group_id);
            return;
        };
        if group.unloaded || self.cleanup_planned.get(group_id) == Some(&group.group_epoch) {
            return;
        }
        plan(ctx, group);
        self.cleanup_planned
            .insert(String::from(group_id), group.group_epoch);
    }

    /// A loaded group plans its cleanup afresh.
    pub(super) fn replan_offsets_cleanup(&mut self, ctx: &mut Ctx, group_id: &str) {
        self.cleanup_planned.remove(group_id);
        self.plan_offsets_cleanup(ctx, group_id);
    }

    /// Offsets were committed to the group: an offset of a topic nobody may subscribe to can
    /// expire before the run the cleanup is armed for. (The group's subscription metadata holds
    /// the subscribed topics that exist; a topic outside it is taken as unsubscribed here, which
    /// at worst arms a run that finds nothing to do, as Kafka's every run may.)
    pub(crate) fn after_commit<'a>(
        &self,
        ctx: &mut Ctx,
        group_id: &str,
        committed: impl Iterator<Item = &'a str>,
    ) {
        let Some(group) = self.groups.get(group_id).filter(|g| !g.unloaded) else {
            return;
        };
        let retention = retention_ms(ctx);
        let stored = ctx.offsets.get(group_id);
        let earliest = committed
            .filter(|t| !group.subscription_metadata.contains_key(*t))
            .filter_map(|t| stored.and_then(|s| s.topic(t).map(|o| expires_at(o, retention)).min()))
            .min();
        let armed = ctx
            .timers
            .deadline(&crate::timer::TimerKey::OffsetsExpiration(String::from(
                group_id,
            )));
        if let Some(earliest) = earliest {
            let at = armed.map_or(earliest, |armed| armed.min(earliest));
            ctx.schedule_offsets_cleanup(group_id, Some(at));
        }
    }

    /// The cleanup ran for the group: expired offsets go, then an Empty group without offsets
    /// is deleted.
    pub(crate) fn on_offsets_expiration_timer(&mut self, ctx: &mut Ctx, group_id: &str) {
        let Some(group) = self.groups.get(group_id).filter(|g| !g.unloaded) else {
            return;
        };
        let retention = retention_ms(ctx);
        let subscribed = group.subscribed_topic_counts(None, None);
        let now = ctx.now;
        let mut removed = 0;
        let mut left = 0;
        if let Some(offsets) = ctx.offsets.get_mut(group_id) {
            let before = offsets.len();
            offsets.retain(|topic, o| {
                subscribed.contains_key(topic) || now < expires_at(o, retention)
            });
            removed = before - offsets.len();
            left = offsets.len();
            let explicit = offsets
                .values()
                .filter(|o| o.expire_timestamp_ms.is_some())
                .count();
            ctx.explicit_expiries
                .insert(String::from(group_id), explicit);
        }
        if removed > 0 {
            ctx.emit(
                group_id,
                EventKind::OffsetsExpired {
                    partitions: removed,
                },
            );
        }
        if left == 0 {
            ctx.offsets.remove(group_id);
            ctx.explicit_expiries.remove(group_id);
            if group.members.is_empty() {
                crate::group_type::remove_consumer_group(ctx, self, group_id);
                ctx.emit(group_id, EventKind::Deleted);
                self.cleanup_planned.remove(group_id);
                return;
            }
        }
        if let Some(group) = self.groups.get(group_id) {
            plan(ctx, group);
        }
    }
}
