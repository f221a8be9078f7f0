//! Whether the group is settled (Stable, every running consumer Stable at the group's epoch
//! with nothing left to do, every subscribed partition owned) or at rest (settled with no
//! crashed member left to time out, or Empty with nobody running), and since when it has been
//! unsettled: what the metrics' time-to-settle and the player's stops read.

use super::Simulation;
use crate::consumer::{Consumer, Life};
use alloc::collections::BTreeSet;
use alloc::string::String;
use group_coordinator::GroupState;

impl Simulation {
    /// Settled, and every member of the group is a running consumer (none is a crashed one the
    /// coordinator has yet to time out); or nobody runs and the group is Empty.
    pub fn is_at_rest(&self) -> bool {
        let running = self
            .consumers
            .iter()
            .filter(|c| c.life == Life::Running)
            .count();
        if let Some(group) = self.coordinator.consumer_group(&self.w.group_id) {
            return if running == 0 {
                group.members.is_empty()
            } else {
                group.members.len() == running && self.is_settled()
            };
        }
        match self.coordinator.group(&self.w.group_id) {
            Some(group) if running == 0 => group.state() == GroupState::Empty,
            Some(group) => group.num_members() == running && self.is_settled(),
            None => running == 0,
        }
    }

    /// Whether the coordinator holds the scenario's group (false from a failover's unload to
    /// its load).
    pub fn coordinator_available(&self) -> bool {
        self.coordinator_available
    }

    /// The group is Stable, every running consumer is Stable in its generation with nothing
    /// left to do, and every partition someone subscribes to is owned.
    pub fn is_settled(&self) -> bool {
        if !self.coordinator_available {
            return false;
        }
        // The group's epoch every running member must have reached: a consumer group's
        // (KIP-848) group epoch, its target reconciled and acknowledged; or a classic group's
        // generation. Either group Stable.
        let epoch = match self.coordinator.consumer_group(&self.w.group_id) {
            Some(group) => (group.state()
                == group_coordinator::consumer_group::ConsumerGroupState::Stable)
                .then_some(group.group_epoch),
            None => self
                .coordinator
                .group(&self.w.group_id)
                .filter(|g| g.state() == GroupState::Stable)
                .map(|g| g.generation_id()),
        };
        let Some(epoch) = epoch else {
            return false;
        };
        // A live run's lanes are not in the ledger: the group's state is all that tells.
        let running = || {
            self.consumers
                .iter()
                .filter(|c| c.life == Life::Running && !c.is_external())
        };
        // This is asked after every event that moves a partition: while the members'
        // listeners (`onPartitionsAssigned`) return one after another, every member is Stable
        // already and only the count of owned partitions is short. One member's subscription is a lower bound on
        // the partitions wanted, so a short count answers before the walk over the members.
        let owned = self.w.ledger.owned_count() as i64;
        if let Some(first) = running().next()
            && owned < self.partitions_subscribed(core::iter::once(first))
        {
            return false;
        }
        // Then the states alone: while a rebalance completes this is asked at every member's
        // step, and fails at the first member not there yet.
        if running().any(|c| {
            c.state != crate::trace::MemberState::Stable || c.rejoin_needed || c.epoch() != epoch
        }) {
            return false;
        }
        owned == self.partitions_subscribed(running())
    }

    /// How many partitions the topics `consumers` subscribe to have, together.
    fn partitions_subscribed<'a>(&'a self, consumers: impl Iterator<Item = &'a Consumer>) -> i64 {
        let mut subscribed: BTreeSet<&str> = BTreeSet::new();
        let mut last: Option<&[String]> = None;
        for c in consumers {
            // A pattern subscribes to every topic it matches now, whether or not the
            // coordinator (or a classic client) has resolved it yet.
            match &c.pattern {
                Some(p) => subscribed.extend(
                    self.w
                        .topics
                        .keys()
                        .filter(|t| p.matches(t))
                        .map(String::as_str),
                ),
                // Members mostly share one subscription: each list is added once.
                None if last == Some(&c.topics[..]) => {}
                None => {
                    subscribed.extend(c.topics.iter().map(String::as_str));
                    last = Some(&c.topics[..]);
                }
            }
        }
        self.w
            .topics
            .iter()
            .filter(|(t, _)| subscribed.contains(t.as_str()))
            .map(|(_, n)| i64::from(*n))
            .sum()
    }

    pub(super) fn update_settled(&mut self) {
        let now = self.w.now;
        let settled = self.is_settled();
        match (settled, self.settled_since) {
            (true, None) => {
                self.settled_since = Some(now);
                self.first_settled.get_or_insert(now);
                if let Some(since) = self.unsettled_since.take() {
                    self.unsettled_ms += now - since;
                }
            }
            (false, Some(_)) => {
                self.settled_since = None;
                if self.first_settled.is_some() {
                    self.unsettled_since = Some(now);
                }
            }
            _ => {}
        }
    }

    pub(crate) fn unsettled_until_now(&self) -> i64 {
        self.unsettled_ms + self.unsettled_since.map_or(0, |s| self.w.now - s)
    }
}

#[cfg(test)]
mod tests {
    use crate::Simulation;
    use crate::builtin::large_group;
    use crate::consumer::Life;
    use alloc::collections::BTreeSet;
    use alloc::string::ToString;
    use group_coordinator::GroupState;

    /// Settled as the metrics define it, written out plainly: the group Stable, every running
    /// consumer Stable at its generation with nothing to do, and exactly the partitions of
    /// the topics they subscribe to, together, owned.
    fn settled_by_definition(sim: &Simulation) -> bool {
        let Some(group) = sim.coordinator.group(&sim.w.group_id) else {
            return false;
        };
        if group.state() != GroupState::Stable || !sim.coordinator_available {
            return false;
        }
        let running: alloc::vec::Vec<_> = sim
            .consumers
            .iter()
            .filter(|c| c.life == Life::Running)
            .collect();
        let all_stable = running.iter().all(|c| {
            c.state == crate::trace::MemberState::Stable
                && !c.rejoin_needed
                && c.epoch() == group.generation_id()
        });
        let topics: BTreeSet<&str> = running
            .iter()
            .flat_map(|c| c.topics.iter().map(|t| t.as_str()))
            .collect();
        let wanted: i64 = topics.iter().map(|t| i64::from(sim.w.topics[*t])).sum();
        all_stable && sim.w.ledger.owned_count() as i64 == wanted
    }

    /// Event by event through a rolling restart whose listeners take time (every member
    /// Stable while the owned count climbs as each listener returns), with the first member subscribed
    /// to one topic and the others to two (its subscription is less than the group's):
    /// `is_settled` answers as the definition at every step, and both answers occur.
    #[test]
    fn settled_is_the_definition_at_every_event() {
        let mut scenario = large_group(4, 3, 120_000);
        scenario.application.assign_ms_per_partition = 50;
        scenario.application.revoke_ms_per_partition = 20;
        scenario.consumers[0].topics = alloc::vec!["t0".to_string()];
        let mut sim = Simulation::new(scenario).expect("valid");
        let (mut settled, mut short) = (0, 0);
        while sim.now() < 120_000 && sim.step().is_some() {
            let expected = settled_by_definition(&sim);
            assert_eq!(sim.is_settled(), expected, "at {} ms", sim.now());
            settled += usize::from(expected);
            // Every member Stable with partitions still to take: the case the lower bound answers.
            let stable = sim
                .consumers
                .iter()
                .filter(|c| c.life == Life::Running)
                .all(|c| c.state == crate::trace::MemberState::Stable);
            short += usize::from(stable && !expected);
        }
        assert!(settled > 0 && short > 0, "settled {settled}, short {short}");
    }
}
