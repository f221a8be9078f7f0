//! A consumer group through a coordinator failover
//! (`docs/src/reference/consumer-group-protocol.md#failover`).
//!
//! Kafka keeps a consumer group only as records: every change is written as it happens, and a
//! coordinator that loads the partition replays them into the same group (members, epochs,
//! targets, partitions pending revocation). So unloading changes nothing of the group here: its
//! timers stop, and every request for it gets NOT_COORDINATOR until it is loaded. Loading is
//! Kafka's `onLoaded`: every member's session timer restarts with the group's consumer session
//! timeout (its group config, else the broker's) (a classic member's own session timeout is not used there), and each member still
//! revoking partitions gets its rebalance timer again. A classic member's join and sync timers
//! are not restarted. The offsets cleanup is planned afresh.

use super::groups::ConsumerGroups;
use super::reconcile::MemberState;
use crate::ctx::Ctx;
use crate::timer::TimerKey;

use crate::event::EventKind;

impl ConsumerGroups {
    /// Whether `group_id` is a consumer group whose partition this coordinator has unloaded.
    pub(crate) fn is_unloaded(&self, group_id: &str) -> bool {
        self.groups.get(group_id).is_some_and(|g| g.unloaded)
    }

    /// Unloads a loaded consumer group; false if there is none of that id (or it is unloaded).
    pub(crate) fn unload(&mut self, ctx: &mut Ctx, group_id: &str) -> bool {
        let Some(group) = self.groups.get_mut(group_id).filter(|g| !g.unloaded) else {
            return false;
        };
        group.unloaded = true;
        // A resolution under way is lost with the shard's executor; the next heartbeat after
        // loading asks again (a pattern is then unresolved, or its topics are).
        group.regex_refresh = None;
        ctx.cancel_group_timers(group_id);
        ctx.emit(group_id, EventKind::Unloaded);
        true
    }

    /// Loads an unloaded consumer group; false if there is none of that id (or it is loaded).
    pub(crate) fn load(&mut self, ctx: &mut Ctx, group_id: &str) -> bool {
        let Some(group) = self.groups.get_mut(group_id).filter(|g| g.unloaded) else {
            return false;
        };
        group.unloaded = false;
        let session = ctx.consumer_session_timeout_ms(group_id);
        for m in group.members.values() {
            let key =
                |kind: fn(_, _) -> TimerKey| kind(group.group_id.clone(), m.member_id.clone());
            ctx.schedule(key(TimerKey::ConsumerSession), session);
            if m.state() == MemberState::UnrevokedPartitions {
                ctx.schedule(
                    key(TimerKey::ConsumerRebalance),
                    i64::from(m.rebalance_timeout_ms),
                );
            }
        }
        ctx.emit(
            group_id,
            EventKind::ConsumerGroupLoaded {
                members: group.members.len(),
                state: group.state(),
            },
        );
        self.replan_offsets_cleanup(ctx, group_id);
        true
    }
}
