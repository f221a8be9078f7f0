//! The model's internal invariants, checkable after any input: used by the property tests and
//! the fuzz target, and available to the simulator (a violation is reported, never a panic).
//! Each group type checks its own bookkeeping (`classic/invariants.rs`,
//! `ConsumerGroup::check_invariants`); what needs the coordinator's timers or both maps is here.

use crate::coordinator::Coordinator;
use crate::timer::TimerKeyRef;
use alloc::format;
use alloc::string::String;

impl Coordinator {
    /// Checks every group's bookkeeping; the error names the group and what is wrong.
    pub fn check_invariants(&self) -> Result<(), String> {
        for group in self.groups() {
            group
                .check_invariants(|key| self.timer_deadline(key).is_some())
                .map_err(|e| format!("group \"{}\": {e}", group.group_id()))?;
        }
        for group in self.consumer_groups() {
            group.check_invariants()?;
            let g = &group.group_id;
            // One id, one group (`crate::group_type`).
            if self.groups().any(|c| c.group_id() == g) {
                return Err(format!("\"{g}\" is both a classic and a consumer group"));
            }
            if group.unloaded {
                // No timers while unloaded: they restart when the group is loaded.
                if self.has_group_timers(g) {
                    return Err(format!("consumer group \"{g}\" is unloaded but has timers"));
                }
                continue;
            }
            for m in group.members.values() {
                let session = TimerKeyRef::ConsumerSession(g, &m.member_id);
                if self.timer_deadline(&session).is_none() {
                    return Err(format!(
                        "consumer group \"{g}\": member {} has no session timer",
                        m.member_id
                    ));
                }
                let rebalance = TimerKeyRef::ConsumerRebalance(g, &m.member_id);
                // A classic member has join and sync timers instead of a rebalance timer, except
                // that loading the group arms one for every member still revoking (Kafka's
                // `onLoaded`), so a classic member's is not checked.
                let revoking = m.state()
                    == crate::consumer_group::reconcile::MemberState::UnrevokedPartitions
                    && m.member_epoch() >= 0;
                if !m.uses_classic_protocol()
                    && revoking != self.timer_deadline(&rebalance).is_some()
                {
                    return Err(format!(
                        "consumer group \"{g}\": member {} is {:?} but its rebalance timer is {}",
                        m.member_id,
                        m.state(),
                        if revoking { "not armed" } else { "armed" }
                    ));
                }
            }
        }
        Ok(())
    }
}
