//! The model's internal invariants, checkable after any input: used by the property tests and
//! the fuzz target, and available to the simulator (a violation is reported, never a panic).

use crate::classic::{ClassicGroup, GroupState};
use crate::coordinator::Coordinator;
use crate::timer::TimerKey;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;

impl Coordinator {
    /// Checks every group's bookkeeping; the error names the group and what is wrong.
    pub fn check_invariants(&self) -> Result<(), String> {
        for group in self.groups() {
            check_group(group, |key| self.timer_deadline(key).is_some())
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
                let session = TimerKey::ConsumerSession(g.clone(), m.member_id.clone());
                if self.timer_deadline(&session).is_none() {
                    return Err(format!(
                        "consumer group \"{g}\": member {} has no session timer",
                        m.member_id
                    ));
                }
                let rebalance = TimerKey::ConsumerRebalance(g.clone(), m.member_id.clone());
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

fn check_group(g: &ClassicGroup, armed: impl Fn(&TimerKey) -> bool) -> Result<(), String> {
    let members = g.num_members();
    match g.leader_id() {
        Some(leader) if !g.has_member(leader) => {
            return Err(format!("leader {leader} is not a member"));
        }
        None if members > 0 => return Err(String::from("members but no leader")),
        _ => {}
    }
    if let Some(p) = g.pending_join_members.iter().find(|p| g.has_member(p)) {
        return Err(format!("{p} is both pending and a member"));
    }
    let awaiting = g.members().filter(|m| m.is_awaiting_join()).count();
    if awaiting != g.num_awaiting_join {
        return Err(format!(
            "{awaiting} members await a join but the count says {}",
            g.num_awaiting_join
        ));
    }
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for m in g.members() {
        for p in &m.supported_protocols {
            *counts.entry(p.name.as_str()).or_insert(0) += 1;
        }
        if let Some(instance) = m.group_instance_id()
            && g.static_member_id(instance) != Some(m.member_id())
        {
            return Err(format!(
                "static member {} is not mapped by {instance}",
                m.member_id()
            ));
        }
        if m.is_awaiting_sync() && g.state() != GroupState::CompletingRebalance {
            return Err(format!(
                "{} waits in SyncGroup while {}",
                m.member_id(),
                g.state()
            ));
        }
        if m.is_awaiting_join() && g.state() != GroupState::PreparingRebalance {
            return Err(format!(
                "{} waits in JoinGroup while {}",
                m.member_id(),
                g.state()
            ));
        }
        // A member may be without a session timer only while it waits in JoinGroup or
        // SyncGroup, or while the group prepares a rebalance: completing the join removes a
        // dynamic member that did not rejoin and re-arms everyone else's timer. (A failed
        // online upgrade answers parked joins without re-arming them, as Kafka's
        // `convertToConsumerGroup` does; a static member left so waits for that completion.)
        let session = TimerKey::Heartbeat(String::from(g.group_id()), String::from(m.member_id()));
        if !g.unloaded
            && !armed(&session)
            && !m.is_awaiting_join()
            && !m.is_awaiting_sync()
            && g.state() != GroupState::PreparingRebalance
        {
            return Err(format!(
                "{} has no session timer: it can never expire",
                m.member_id()
            ));
        }
    }
    let recorded = crate::ordered::map(g.supported_protocols.iter().map(|(k, v)| (k.as_str(), *v)));
    if counts != recorded {
        return Err(format!(
            "protocol counts {recorded:?}, members list {counts:?}"
        ));
    }
    for (instance, member_id) in &g.static_members {
        if g.member(member_id).and_then(|m| m.group_instance_id()) != Some(instance.as_str()) {
            return Err(format!(
                "{instance} maps to {member_id}, which is not that static member"
            ));
        }
    }
    match g.state() {
        GroupState::Empty if members > 0 => Err(String::from("Empty with members")),
        GroupState::CompletingRebalance | GroupState::Stable if members == 0 => {
            Err(format!("{} without members", g.state()))
        }
        GroupState::PreparingRebalance if !armed(&TimerKey::Join(String::from(g.group_id()))) => {
            Err(String::from(
                "PreparingRebalance with no join timer: it would never complete",
            ))
        }
        GroupState::Dead if !g.unloaded => Err(String::from("Dead but still served")),
        _ => Ok(()),
    }
}
