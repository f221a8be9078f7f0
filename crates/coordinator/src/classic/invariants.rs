//! A classic group's internal invariants (`Coordinator::check_invariants`).

use super::{ClassicGroup, GroupState};
use crate::timer::TimerKey;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;

impl ClassicGroup {
    /// The group's bookkeeping agrees with itself; `armed` says whether one of its timers is
    /// armed. The error says what is wrong.
    pub(crate) fn check_invariants(&self, armed: impl Fn(&TimerKey) -> bool) -> Result<(), String> {
        let g = self;
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
            let session =
                TimerKey::Heartbeat(String::from(g.group_id()), String::from(m.member_id()));
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
        let recorded =
            crate::ordered::map(g.supported_protocols.iter().map(|(k, v)| (k.as_str(), *v)));
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
            GroupState::PreparingRebalance
                if !armed(&TimerKey::Join(String::from(g.group_id()))) =>
            {
                Err(String::from(
                    "PreparingRebalance with no join timer: it would never complete",
                ))
            }
            GroupState::Dead if !g.unloaded => Err(String::from("Dead but still served")),
            _ => Ok(()),
        }
    }
}
