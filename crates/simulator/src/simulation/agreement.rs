//! The checks after every event: a consumer of the group's current generation holds exactly
//! what the coordinator gave it (Kafka's tests' own check), else a violation in the trace.

use super::Simulation;
use alloc::format;
use alloc::vec::Vec;
use group_coordinator::GroupState;
use group_coordinator::consumer_protocol::Assignment;

impl Simulation {
    pub(super) fn after_event(&mut self) {
        // (Most events ask for neither: a delivered heartbeat or commit.)
        if self.w.agreement_checks.is_empty() && !self.w.dirty {
            return;
        }
        let mut checks = core::mem::take(&mut self.w.agreement_checks);
        // Each consumer once, in the order first asked (a Stable group asks for all of them;
        // one asked alone needs no record).
        let mut seen = alloc::vec![false; if checks.len() > 1 { self.consumers.len() } else { 0 }];
        for &c in &checks {
            let first = seen
                .get_mut(c)
                .is_none_or(|seen| !core::mem::replace(seen, true));
            if first {
                self.check_agreement(c);
            }
        }
        // The list's buffer is kept for the next event's checks.
        checks.clear();
        if self.w.agreement_checks.is_empty() {
            self.w.agreement_checks = checks;
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
        // Checked at every Stable for every member: the decoded assignment's partitions,
        // sorted, against `owned` (in the same (name, partition) order), without copying a name.
        // The bytes the member last took are decoded already: its own decoding of them is kept.
        let decoded;
        let assigned = match c.decoded_assignment(member.assignment()) {
            Some(kept) => kept,
            None => {
                decoded = Assignment::decode(member.assignment().as_slice()).unwrap_or_default();
                &decoded.assigned_partitions
            }
        };
        // The usual case, the assignment in order: nothing to sort.
        if crate::consumer::names_exactly(assigned, &c.owned) {
            return;
        }
        let mut expected: Vec<(&str, i32)> = Vec::with_capacity(c.owned.len());
        expected.extend(
            assigned
                .iter()
                .flat_map(|tp| tp.partitions.iter().map(|p| (&*tp.topic, *p))),
        );
        expected.sort_unstable();
        expected.dedup();
        let same = expected.len() == c.owned.len()
            && expected
                .iter()
                .zip(&c.owned)
                .all(|(&(t, p), (owned, q))| t == &**owned && p == *q);
        if !same {
            let message = format!(
                "{} owns {} partitions but the coordinator assigned it {} in generation {}",
                c.name,
                c.owned.len(),
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
        // Checked at every heartbeat's answer, topic by topic, without copying either side:
        // `owned` is in (name, partition) order, each assigned topic's partitions ascend. (A
        // partition left over of a topic comes round again, and fails at its first partition.)
        let coordinator = &self.coordinator;
        let id_of = |topic: &str| {
            coordinator
                .topics()
                .find(|(n, _, _)| *n == topic)
                .map(|(_, id, _)| id)
        };
        let assigned = &member.progress.assigned;
        let mut owned = c.owned.iter().peekable();
        let mut topics = 0;
        let mut same = true;
        while same && let Some((topic, _)) = owned.peek() {
            let topic = &**topic;
            let Some(partitions) = id_of(topic).and_then(|id| assigned.get(&id)) else {
                same = false;
                break;
            };
            topics += 1;
            for p in partitions {
                same &= owned.next_if(|(t, q)| &**t == topic && q == p).is_some();
            }
        }
        same &= topics == assigned.values().filter(|ps| !ps.is_empty()).count();
        if !same {
            let name = |id: &group_coordinator::consumer_group::Uuid| {
                coordinator
                    .topics()
                    .find(|(_, t, _)| t == id)
                    .map_or("?", |(n, _, _)| n)
            };
            let mut expected: Vec<(&str, i32)> = assigned
                .iter()
                .flat_map(|(id, ps)| {
                    let topic = name(id);
                    ps.iter().map(move |p| (topic, *p))
                })
                .collect();
            expected.sort_unstable();
            expected.dedup();
            let message = format!(
                "{} owns {} partitions at epoch {} but the coordinator assigned it {}",
                c.name,
                c.owned.len(),
                c.epoch(),
                expected.len()
            );
            self.w.violation(message);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::Simulation;
    use crate::builtin::large_group;
    use crate::scenario::Setting;
    use crate::trace::TraceKind;
    use alloc::string::{String, ToString};

    /// Three consumers of `protocol` (`classic` or `consumer`), settled (no restart before
    /// 360 s).
    fn settled(protocol: &str) -> Simulation {
        let mut scenario = large_group(3, 2, 3_600_000);
        scenario.consumer.insert(
            "group.protocol".to_string(),
            Setting::Text(protocol.to_string()),
        );
        let mut sim = Simulation::new(scenario).expect("valid");
        sim.run_until(30_000);
        assert!(sim.is_settled());
        sim
    }

    fn first_owned(sim: &Simulation, consumer: usize) -> crate::trace::Tp {
        sim.consumers[consumer]
            .owned
            .iter()
            .next()
            .cloned()
            .expect("owns")
    }

    fn last_violation(sim: &Simulation) -> Option<String> {
        match &sim.trace().get(sim.trace().len() - 1)?.kind {
            TraceKind::InvariantViolated { message } => Some(message.clone()),
            _ => None,
        }
    }

    /// The one violation consumer 0's check finds after `change`: the same whether the check
    /// reads the consumer's kept decoding of its assignment or decodes the coordinator's bytes.
    fn violation_after(sim: &Simulation, change: impl Fn(&mut Simulation)) -> String {
        let found = |forget: bool| {
            let mut changed = sim.clone();
            change(&mut changed);
            if forget {
                changed.consumers[0].forget_last_assignment();
            }
            changed.check_agreement(0);
            assert_eq!(changed.metrics().invariant_violations, 1);
            last_violation(&changed).expect("a violation")
        };
        let message = found(false);
        assert_eq!(found(true), message);
        message
    }

    #[test]
    fn a_member_holding_other_than_its_assignment_is_a_violation() {
        for protocol in ["classic", "consumer"] {
            holding_other_than_its_assignment(protocol);
        }
    }

    fn holding_other_than_its_assignment(protocol: &str) {
        let mut sim = settled(protocol);
        sim.check_agreement(0);
        assert_eq!(sim.metrics().invariant_violations, 0);
        let (mine, theirs) = (first_owned(&sim, 0), first_owned(&sim, 1));

        // One partition fewer than the coordinator gave it.
        let message = violation_after(&sim, |s| {
            s.consumers[0].owned.remove(&mine);
        });
        assert!(message.contains("owns 1 partitions"), "{message}");
        assert!(
            message.contains("but the coordinator assigned it 2"),
            "{message}"
        );

        // Nothing at all.
        let message = violation_after(&sim, |s| s.consumers[0].owned.clear());
        assert!(message.contains("owns 0 partitions"), "{message}");

        // As many partitions, of its own topics, one of them another member's.
        let same_topic = (1..3)
            .flat_map(|c| sim.consumers[c].owned.iter().cloned())
            .find(|(topic, _)| *topic == mine.0)
            .expect("another member holds a partition of the same topic");
        let message = violation_after(&sim, |s| {
            s.consumers[0].owned.remove(&mine);
            s.consumers[0].owned.insert(same_topic.clone());
        });
        assert!(message.contains("owns 2 partitions"), "{message}");

        // One partition more: another member's.
        let message = violation_after(&sim, |s| {
            s.consumers[0].owned.insert(theirs.clone());
        });
        assert!(message.contains("owns 3 partitions"), "{message}");

        // As many partitions, one of them another member's.
        let message = violation_after(&sim, |s| {
            s.consumers[0].owned.remove(&mine);
            s.consumers[0].owned.insert(theirs.clone());
        });
        assert!(message.contains("owns 2 partitions"), "{message}");
        assert!(
            message.contains("but the coordinator assigned it 2"),
            "{message}"
        );
    }
}
