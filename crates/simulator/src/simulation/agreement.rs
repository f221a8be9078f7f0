//! The checks after every event: a consumer of the group's current generation holds exactly
//! what the coordinator gave it (Kafka's tests' own check), else a violation in the trace.

use super::Simulation;
use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::{String, ToString};
use group_coordinator::GroupState;
use group_coordinator::consumer_protocol::Assignment;
use group_coordinator::ordered;

impl Simulation {
    pub(super) fn after_event(&mut self) {
        let checks = core::mem::take(&mut self.w.agreement_checks);
        let mut seen = BTreeSet::new();
        for c in checks {
            if seen.insert(c) {
                self.check_agreement(c);
            }
        }
        if self.w.dirty {
            self.w.dirty = false;
            self.update_settled();
        }
    }

    /// A Stable consumer in the group's current generation owns exactly what the coordinator
    /// holds as its assignment, while the group is Stable.
    fn check_agreement(&mut self, index: usize) {
        // A real client's lane holds what it was told; there is nothing else to compare.
        if self.consumers[index].is_external() {
            return;
        }
        if self.consumers[index].uses_consumer_protocol() {
            return self.check_member_agreement(index);
        }
        let c = &self.consumers[index];
        if !c.is_running() || c.state != crate::trace::MemberState::Stable || c.rejoin_needed {
            return;
        }
        let Some(group) = self.coordinator.group(&self.w.group_id) else {
            return;
        };
        if group.state() != GroupState::Stable
            || group.generation_id() != c.generation.generation_id
            || c.group_incarnation != self.w.group_incarnation
        {
            return;
        }
        let Some(member) = group.member(&c.generation.member_id) else {
            let message = format!(
                "{} believes it is member {} of generation {}, which the coordinator does not know",
                c.name, c.generation.member_id, c.generation.generation_id
            );
            self.w.violation(message);
            return;
        };
        let expected: BTreeSet<(String, i32)> = Assignment::decode(member.assignment().as_slice())
            .map(|a| {
                ordered::set(
                    a.assigned_partitions
                        .iter()
                        .flat_map(|tp| tp.partitions.iter().map(|p| (tp.topic.to_string(), *p))),
                )
            })
            .unwrap_or_default();
        let actual = ordered::set(c.owned.iter().map(|(t, p)| (t.to_string(), *p)));
        if expected != actual {
            let message = format!(
                "{} owns {} partitions but the coordinator assigned it {} in generation {}",
                c.name,
                actual.len(),
                expected.len(),
                c.generation.generation_id
            );
            self.w.violation(message);
        }
    }

    /// Consumer protocol: a member STABLE at some epoch on the client and STABLE at the same
    /// epoch on the coordinator owns exactly the coordinator's assignment for it, once the
    /// coordinator's answer to its last heartbeat has arrived.
    fn check_member_agreement(&mut self, index: usize) {
        let c = &self.consumers[index];
        if !c.is_running() || c.state != crate::trace::MemberState::Stable {
            return;
        }
        let Some(group) = self.coordinator.consumer_group(&self.w.group_id) else {
            return;
        };
        let Some(member) = group.members.get(&c.generation.member_id) else {
            return;
        };
        if !member.is_reconciled_to(c.epoch()) {
            return;
        }
        let names = ordered::map(self.coordinator.topics().map(|(n, id, _)| (id, n)));
        let expected: BTreeSet<(String, i32)> =
            ordered::set(member.progress.assigned.iter().flat_map(|(id, ps)| {
                let topic = names.get(id).copied().unwrap_or("?");
                ps.iter().map(move |p| (topic.to_string(), *p))
            }));
        let actual = ordered::set(c.owned.iter().map(|(t, p)| (t.to_string(), *p)));
        if expected != actual {
            let message = format!(
                "{} owns {} partitions at epoch {} but the coordinator assigned it {}",
                c.name,
                actual.len(),
                c.epoch(),
                expected.len()
            );
            self.w.violation(message);
        }
    }
}
