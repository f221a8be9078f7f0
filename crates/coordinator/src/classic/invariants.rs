//! A classic group's internal invariants (`Coordinator::check_invariants`).

use super::{ClassicGroup, GroupState};
use crate::timer::TimerKeyRef;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;

impl ClassicGroup {
    /// The group's bookkeeping agrees with itself; `armed` says whether one of its timers is
    /// armed. The error says what is wrong.
    pub(crate) fn check_invariants(
        &self,
        armed: impl Fn(&TimerKeyRef) -> bool,
    ) -> Result<(), String> {
        let g = self;
        let members = g.num_members();
        match g.leader_id() {
            Some(leader) if !g.has_member(leader) => {
                return Err(format!("leader {leader} is not a member"));
            }
            None if members > 0 => return Err(String::from("members but no leader")),
            _ => {}
        }
        if let Some(p) = g.pending_join_members.sorted().find(|p| g.has_member(p)) {
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
            // The timer is looked up last, by a borrowed key: after every membership move,
            // for every member (copying the two ids was most of a check at 300 members).
            if !g.unloaded
                && !m.is_awaiting_join()
                && !m.is_awaiting_sync()
                && g.state() != GroupState::PreparingRebalance
                && !armed(&TimerKeyRef::Heartbeat(g.group_id(), m.member_id()))
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
            GroupState::PreparingRebalance if !armed(&TimerKeyRef::Join(g.group_id())) => Err(
                String::from("PreparingRebalance with no join timer: it would never complete"),
            ),
            GroupState::Dead if !g.unloaded => Err(String::from("Dead but still served")),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classic::member::ClassicGroupMember;
    use alloc::vec::Vec;

    /// A group of one member (`m-1`) in `state`.
    fn group_in(state: GroupState) -> ClassicGroup {
        let mut g = ClassicGroup::new("g", 0);
        g.add_converted_member(ClassicGroupMember::converted(
            "m-1",
            None,
            "c",
            30_000,
            10_000,
            Vec::new(),
        ));
        g.state = state;
        g
    }

    /// The check asks for the member's own session timer (its group's id and its id, in that
    /// order) and for the group's join timer while it prepares a rebalance, and finds them
    /// missing.
    #[test]
    fn the_check_finds_a_missing_session_timer_and_join_timer() {
        let stable = group_in(GroupState::Stable);
        let session = |key: &TimerKeyRef| *key == TimerKeyRef::Heartbeat("g", "m-1");
        assert_eq!(stable.check_invariants(session), Ok(()));
        let error = stable.check_invariants(|_| false).unwrap_err();
        assert!(error.contains("m-1 has no session timer"), "{error}");
        let other = |key: &TimerKeyRef| *key == TimerKeyRef::Heartbeat("m-1", "g");
        assert!(stable.check_invariants(other).is_err());

        let preparing = group_in(GroupState::PreparingRebalance);
        let join = |key: &TimerKeyRef| *key == TimerKeyRef::Join("g");
        assert_eq!(preparing.check_invariants(join), Ok(()));
        let error = preparing.check_invariants(|_| false).unwrap_err();
        assert!(error.contains("no join timer"), "{error}");
    }
}
