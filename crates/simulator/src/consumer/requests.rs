//! The requests the client sends: FindCoordinator, JoinGroup, SyncGroup, Heartbeat, LeaveGroup, OffsetCommit.

use super::*;

impl Consumer {
    pub(super) fn send(
        &mut self,
        w: &mut World,
        api: MessageApi,
        request: Request,
        timeout_ms: i64,
    ) -> i32 {
        self.send_shared(w, api, Rc::new(request), timeout_ms)
    }

    pub(super) fn send_shared(
        &mut self,
        w: &mut World,
        api: MessageApi,
        request: Rc<Request>,
        timeout_ms: i64,
    ) -> i32 {
        let correlation_id = request.correlation_id();
        self.send_message(
            w,
            api,
            correlation_id,
            Outgoing::Request(request),
            timeout_ms,
        );
        correlation_id
    }

    /// Sends one message to the coordinator's broker, waits for its answer and arms its
    /// request timeout. FindCoordinator carries no member identity (any broker answers it).
    pub(super) fn send_message(
        &mut self,
        w: &mut World,
        api: MessageApi,
        correlation_id: i32,
        message: Outgoing,
        timeout_ms: i64,
    ) {
        self.in_flight.insert(
            correlation_id,
            InFlight {
                api,
                generation: self.generation.clone(),
            },
        );
        let (generation_id, member_id) = match message {
            Outgoing::FindCoordinator { .. } => (-1, Rc::from("")),
            Outgoing::Request(_) => (self.generation.generation_id, self.member_id.clone()),
        };
        w.send(
            self.index,
            self.incarnation,
            (generation_id, self.uses_consumer_protocol()),
            &member_id,
            message,
        );
        w.schedule_timer(
            w.now + timeout_ms,
            self.index,
            self.incarnation,
            Timer::RequestTimeout(correlation_id),
        );
    }

    /// The subscription's bytes for `strategy`. The consumer's topic list is lent to the
    /// subscription written (and taken back), not copied: a JoinGroup's only use of it. So is,
    /// as its owned partitions, the last assignment taken when the consumer owns exactly that
    /// (as most members of a rebalance do): otherwise the list is built from what it owns.
    fn encoded_subscription(&mut self, strategy: Strategy) -> group_coordinator::protocol::Bytes {
        let user_data = self.user_data(strategy);
        let lent = self
            .last_assignment
            .as_mut()
            .filter(|last| super::names_exactly(&last.partitions, &self.owned))
            .map(|last| core::mem::take(&mut last.partitions));
        let is_lent = lent.is_some();
        let owned_partitions = lent.unwrap_or_else(|| to_topic_partitions(&self.owned));
        let mut subscription = Subscription {
            version: 3,
            topics: core::mem::take(&mut self.topics),
            user_data,
            owned_partitions,
            generation_id: self.generation.generation_id,
            rack_id: self.config.client_rack.clone(),
        };
        let bytes = subscription.encode();
        self.topics = core::mem::take(&mut subscription.topics);
        if is_lent && let Some(last) = self.last_assignment.as_mut() {
            last.partitions = subscription.owned_partitions;
        }
        bytes
    }

    /// The subscription's user data for `strategy`: the eager sticky assignor's memory, or the
    /// cooperative one's generation.
    fn user_data(&self, strategy: Strategy) -> Option<group_coordinator::protocol::Bytes> {
        match strategy {
            Strategy::Sticky => self.last_assignment.as_ref().map(|last| {
                StickyUserData {
                    previous_assignment: last.partitions.clone(),
                    generation: Some(last.generation),
                }
                .encode()
            }),
            Strategy::CooperativeSticky => {
                Some(encode_cooperative_user_data(self.generation.generation_id))
            }
            Strategy::Range | Strategy::RoundRobin => None,
        }
    }

    /// Writes who sends (client id, group, member id, instance id) over a request's fields,
    /// keeping their buffers: every request a rewritten one (see [`rewritable`]).
    fn write_identity(
        &self,
        w: &World,
        client_id: &mut String,
        group_id: &mut String,
        member_id: &mut String,
        group_instance_id: &mut Option<String>,
    ) {
        client_id.clone_from(&self.spec.name);
        group_id.clone_from(&w.group_id);
        member_id.clone_from(&self.generation.member_id);
        group_instance_id.clone_from(&self.config.group_instance_id);
    }

    pub(super) fn send_join_group(&mut self, w: &mut World) {
        let correlation_id = w.next_correlation_id();
        let strategies = core::mem::take(&mut self.config.partition_assignment_strategy);
        // The last JoinGroup written over (a member rejoins with the same ids and protocol
        // names at every rebalance; only the subscriptions' bytes are new).
        let fresh = Request::JoinGroup(JoinGroupRequest::default());
        let mut shared = rewritable(&mut self.sent_join, fresh);
        if let Request::JoinGroup(r) = Rc::make_mut(&mut shared) {
            r.api_version = JOIN_GROUP_VERSION;
            r.correlation_id = correlation_id;
            self.write_identity(
                w,
                &mut r.client_id,
                &mut r.group_id,
                &mut r.member_id,
                &mut r.group_instance_id,
            );
            r.session_timeout_ms = self.config.session_timeout_ms as i32;
            r.rebalance_timeout_ms = self.config.max_poll_interval_ms as i32;
            if r.protocol_type != "consumer" {
                r.protocol_type = String::from("consumer");
            }
            r.protocols.truncate(strategies.len());
            for (i, s) in strategies.iter().enumerate() {
                let metadata = self.encoded_subscription(*s);
                match r.protocols.get_mut(i) {
                    Some(p) => {
                        if p.name != s.name() {
                            p.name = s.name().to_string();
                        }
                        p.metadata = metadata;
                    }
                    None => r.protocols.push(JoinGroupRequestProtocol {
                        name: s.name().to_string(),
                        metadata,
                    }),
                }
            }
            let reason = if self.rejoin_reason.is_empty() {
                "need to join the group"
            } else {
                self.rejoin_reason
            };
            if r.reason.as_deref() != Some(reason) {
                r.reason = Some(String::from(reason));
            }
        }
        self.config.partition_assignment_strategy = strategies;
        self.sent_join = Some(shared.clone());
        self.set_state(w, MemberState::PreparingRebalance);
        self.heartbeat_enabled = false;
        let timeout = self.config.join_request_timeout_ms();
        self.join = Some(self.send_shared(w, MessageApi::JoinGroup, shared, timeout));
    }

    pub(super) fn send_sync_group(
        &mut self,
        w: &mut World,
        assignments: Vec<SyncGroupRequestAssignment>,
    ) {
        let correlation_id = w.next_correlation_id();
        let fresh = Request::SyncGroup(SyncGroupRequest::default());
        let mut shared = rewritable(&mut self.sent_sync, fresh);
        if let Request::SyncGroup(r) = Rc::make_mut(&mut shared) {
            r.api_version = SYNC_GROUP_VERSION;
            r.correlation_id = correlation_id;
            self.write_identity(
                w,
                &mut r.client_id,
                &mut r.group_id,
                &mut r.member_id,
                &mut r.group_instance_id,
            );
            r.generation_id = self.generation.generation_id;
            if r.protocol_type.as_deref() != Some("consumer") {
                r.protocol_type = Some(String::from("consumer"));
            }
            r.protocol_name.clone_from(&self.generation.protocol_name);
            r.assignments = assignments;
        }
        self.sent_sync = Some(shared.clone());
        let timeout = self.config.request_timeout_ms;
        self.sync = Some(self.send_shared(w, MessageApi::SyncGroup, shared, timeout));
    }

    pub(super) fn send_heartbeat(&mut self, w: &mut World) {
        let correlation_id = w.next_correlation_id();
        let fresh = Request::Heartbeat(HeartbeatRequest::default());
        let mut shared = rewritable(&mut self.sent_heartbeat, fresh);
        if let Request::Heartbeat(r) = Rc::make_mut(&mut shared) {
            r.api_version = HEARTBEAT_VERSION;
            r.correlation_id = correlation_id;
            self.write_identity(
                w,
                &mut r.client_id,
                &mut r.group_id,
                &mut r.member_id,
                &mut r.group_instance_id,
            );
            r.generation_id = self.generation.generation_id;
        }
        self.sent_heartbeat = Some(shared.clone());
        self.last_heartbeat_sent = w.now;
        let timeout = self.config.request_timeout_ms;
        self.heartbeat = Some(self.send_shared(w, MessageApi::Heartbeat, shared, timeout));
    }

    /// Commits every partition owned (auto-commit, and before a revocation or a close), at a
    /// stand-in position that only grows: the virtual time.
    pub(super) fn send_commit(&mut self, w: &mut World) {
        let correlation_id = w.next_correlation_id();
        let fresh = Request::OffsetCommit(OffsetCommitRequest::default());
        let mut shared = rewritable(&mut self.sent_commit, fresh);
        if let Request::OffsetCommit(r) = Rc::make_mut(&mut shared) {
            r.api_version = OFFSET_COMMIT_VERSION;
            r.correlation_id = correlation_id;
            self.write_identity(
                w,
                &mut r.client_id,
                &mut r.group_id,
                &mut r.member_id,
                &mut r.group_instance_id,
            );
            r.generation_id_or_member_epoch = self.generation.generation_id;
            r.retention_time_ms = -1;
            // The topics in order, each with its partitions (`owned` is sorted by topic); the
            // lists of the last commit are written over.
            let mut written = 0;
            for (topic, partition) in &self.owned {
                if written == 0 || r.topics[written - 1].name.as_str() != &**topic {
                    if written == r.topics.len() {
                        r.topics.push(OffsetCommitRequestTopic {
                            name: String::new(),
                            partitions: Vec::new(),
                        });
                    }
                    let t = &mut r.topics[written];
                    t.name.clear();
                    t.name.push_str(topic);
                    t.partitions.clear();
                    written += 1;
                }
                r.topics[written - 1]
                    .partitions
                    .push(OffsetCommitRequestPartition {
                        partition_index: *partition,
                        committed_offset: w.now,
                        committed_leader_epoch: -1,
                        commit_timestamp: -1,
                        committed_metadata: Some(String::new()),
                    });
            }
            r.topics.truncate(written);
        }
        self.sent_commit = Some(shared.clone());
        let timeout = self.config.request_timeout_ms;
        self.commit = Some(self.send_shared(w, MessageApi::OffsetCommit, shared, timeout));
    }

    /// `maybeLeaveGroup` (`docs/src/reference/classic-protocol.md#client-leave`): dynamic members with a member id send LeaveGroup once;
    /// everyone resets.
    pub(super) fn maybe_leave_group(&mut self, w: &mut World, reason: &'static str) {
        if self.config.group_instance_id.is_none()
            && self.coordinator == CoordinatorStatus::Known
            && self.state != MemberState::Unjoined
            && !self.generation.member_id.is_empty()
        {
            let correlation_id = w.next_correlation_id();
            let request = Request::LeaveGroup(LeaveGroupRequest {
                api_version: LEAVE_GROUP_VERSION,
                correlation_id,
                client_id: self.spec.name.clone(),
                group_id: w.group_id.clone(),
                member_id: String::new(),
                members: alloc::vec![MemberIdentity {
                    member_id: self.generation.member_id.clone(),
                    group_instance_id: None,
                    reason: Some(reason.to_string()),
                }],
            });
            let timeout = self.config.request_timeout_ms;
            self.send(w, MessageApi::LeaveGroup, request, timeout);
        }
        self.reset_generation(w, true);
        self.needs_join_prepare = true;
        self.rejoin_needed = true;
        self.rejoin_reason = "consumer pro-actively leaving the group";
    }

    /// `resetStateAndGeneration`: UNJOINED, no generation; the member id is kept or not.
    pub(super) fn reset_generation(&mut self, w: &mut World, reset_member_id: bool) {
        let member_id = if reset_member_id {
            String::new()
        } else {
            self.generation.member_id.clone()
        };
        self.set_generation(
            w,
            Generation {
                member_id,
                ..Generation::none()
            },
        );
        self.heartbeat_enabled = false;
        self.is_leader = false;
        // Requests of the old generation are abandoned: their answers are ignored.
        for slot in [&mut self.join, &mut self.sync, &mut self.heartbeat] {
            if let Some(c) = slot.take() {
                self.in_flight.remove(&c);
            }
        }
        self.set_state(w, MemberState::Unjoined);
        self.needs_join_prepare = true;
    }

    pub(super) fn lookup_coordinator(&mut self, w: &mut World) {
        if !self.is_running() || self.find.is_some() || self.coordinator == CoordinatorStatus::Known
        {
            return;
        }
        self.coordinator = CoordinatorStatus::Finding;
        let correlation_id = w.next_correlation_id();
        self.find = Some(correlation_id);
        let timeout = self.config.request_timeout_ms;
        self.send_message(
            w,
            MessageApi::FindCoordinator,
            correlation_id,
            Outgoing::FindCoordinator { correlation_id },
            timeout,
        );
    }

    /// `markCoordinatorUnknown` with a disconnect: what was in flight to the coordinator fails,
    /// and a lookup follows after the retry backoff.
    pub(super) fn mark_coordinator_unknown(&mut self, w: &mut World) {
        if self.coordinator == CoordinatorStatus::Unknown {
            return;
        }
        self.coordinator = CoordinatorStatus::Unknown;
        let failed_join = self.join.take().is_some() | self.sync.take().is_some();
        self.heartbeat = None;
        // A failed heartbeat: the next one carries every field.
        self.m.reset_sent_fields();
        let commit = self.commit.take();
        self.in_flight
            .retain(|_, f| f.api == MessageApi::LeaveGroup);
        if failed_join {
            self.rejoin_needed = true;
        }
        if commit.is_some() {
            self.after_commit(w);
        }
        self.backoff(w);
    }

    pub(super) fn backoff(&mut self, w: &mut World) {
        let delay = self.next_retry_delay();
        self.backoff_token += 1;
        w.schedule_timer(
            w.now + delay,
            self.index,
            self.incarnation,
            Timer::Backoff(self.backoff_token),
        );
    }

    /// The next retry's wait: `retry.backoff.ms`, doubling with each attempt up to
    /// `retry.backoff.max.ms`.
    pub(super) fn next_retry_delay(&mut self) -> i64 {
        let delay = self
            .config
            .retry_backoff_ms
            .saturating_mul(1i64 << self.backoff_attempts.min(20))
            .min(self.config.retry_backoff_max_ms);
        self.backoff_attempts += 1;
        delay
    }
}

/// The request last sent from `slot` when it is of `fresh`'s kind (else `fresh`, an empty one),
/// to be written over with the next: `Rc::make_mut` copies it only while something else still
/// holds it. The world drops a delivered heartbeat or commit (the trace keeps neither's body),
/// so in a steady run the next one reuses its strings and lists: a long run sends hundreds of
/// thousands, and allocating each anew was about a tenth of the run in wasm. (A consumer
/// restarted with the other `group.protocol` finds the other kind of heartbeat there.)
pub(super) fn rewritable(slot: &mut Option<Rc<Request>>, fresh: Request) -> Rc<Request> {
    match slot.take() {
        Some(last) if core::mem::discriminant(&*last) == core::mem::discriminant(&fresh) => last,
        _ => Rc::new(fresh),
    }
}

#[cfg(test)]
mod tests {
    use crate::Simulation;
    use crate::builtin::large_group;
    use crate::world::{Outgoing, Pending};
    use alloc::rc::Rc;
    use alloc::vec::Vec;
    use group_coordinator::Request;
    use group_coordinator::assignor::Strategy;
    use group_coordinator::protocol::{ConsumerGroupHeartbeatRequest, HeartbeatRequest};

    /// The request on the wire with `correlation_id`, taken off it (so that only the consumer
    /// holds it, as after its delivery).
    fn take_sent(sim: &mut Simulation, correlation_id: i32) -> Rc<Request> {
        let key = sim
            .w
            .queue
            .iter()
            .find_map(|(key, p)| match p {
                Pending::ToBroker {
                    message: Outgoing::Request(r),
                    ..
                } if r.correlation_id() == correlation_id => Some(key),
                _ => None,
            })
            .expect("on the wire");
        match sim.w.queue.remove(key) {
            Some(Pending::ToBroker {
                message: Outgoing::Request(r),
                ..
            }) => r,
            _ => unreachable!("found above"),
        }
    }

    fn committed(request: &Request) -> Vec<(&str, Vec<i32>)> {
        let Request::OffsetCommit(r) = request else {
            panic!("a commit: {request:?}")
        };
        r.topics
            .iter()
            .map(|t| {
                let partitions = t.partitions.iter().map(|p| p.partition_index).collect();
                (t.name.as_str(), partitions)
            })
            .collect()
    }

    /// A commit written over the last one sends what is owned now (fewer topics and
    /// partitions than before included), and one still held elsewhere is copied, not changed.
    #[test]
    fn a_commit_written_over_the_last_one_sends_exactly_what_is_owned_now() {
        let mut sim = Simulation::new(large_group(2, 3, 3_600_000)).expect("valid");
        sim.run_until(20_000);
        let owned = |topics: &[(&str, i32)]| {
            topics
                .iter()
                .map(|(t, p)| (Rc::<str>::from(*t), *p))
                .collect()
        };
        let c = &mut sim.consumers[0];
        c.owned = owned(&[("a", 0), ("a", 1), ("b", 4)]);
        c.send_commit(&mut sim.w);
        let first_id = sim.consumers[0].commit.expect("sent");
        let first = take_sent(&mut sim, first_id);
        assert_eq!(
            committed(&first),
            [("a", [0, 1].to_vec()), ("b", [4].to_vec())]
        );
        drop(first);

        sim.consumers[0].owned = owned(&[("a", 2)]);
        sim.consumers[0].send_commit(&mut sim.w);
        let second_id = sim.consumers[0].commit.expect("sent");
        let second = take_sent(&mut sim, second_id);
        assert_eq!(committed(&second), [("a", [2].to_vec())]);
        assert_eq!(second.correlation_id(), second_id);

        // Held elsewhere (as the trace holds a body it keeps): the next commit leaves it be.
        sim.consumers[0].owned = owned(&[("c", 0), ("c", 1)]);
        sim.consumers[0].send_commit(&mut sim.w);
        let third_id = sim.consumers[0].commit.expect("sent");
        assert_eq!(committed(&second), [("a", [2].to_vec())]);
        assert_eq!(second.correlation_id(), second_id);
        let third = take_sent(&mut sim, third_id);
        assert_eq!(committed(&third), [("c", [0, 1].to_vec())]);
    }

    /// A JoinGroup written over the last one says what a new one would: another rejoin reason,
    /// fewer strategies and another member id replace what was there; one still held elsewhere
    /// is copied, not changed.
    #[test]
    fn a_join_group_written_over_the_last_one_says_what_a_new_one_would() {
        let mut sim = Simulation::new(large_group(2, 3, 3_600_000)).expect("valid");
        sim.run_until(20_000);
        let send = |sim: &mut Simulation| -> Rc<Request> {
            sim.consumers[0].send_join_group(&mut sim.w);
            let id = sim.consumers[0].join.expect("sent");
            take_sent(sim, id)
        };
        let join = |r: &Request| match r {
            Request::JoinGroup(j) => j.clone(),
            other => panic!("a JoinGroup: {other:?}"),
        };
        let strategies = [Strategy::Range, Strategy::CooperativeSticky].to_vec();
        sim.consumers[0].config.partition_assignment_strategy = strategies.clone();
        let first = join(&send(&mut sim));
        assert_eq!(first.protocols.len(), strategies.len());
        assert_eq!(first.reason.as_deref(), Some("need to join the group"));

        sim.consumers[0].rejoin_reason = "group is already rebalancing";
        sim.consumers[0].config.partition_assignment_strategy = strategies[1..].to_vec();
        let new_id = alloc::string::String::from("another-member-id");
        Rc::make_mut(&mut sim.consumers[0].generation).member_id = new_id.clone();
        let second = send(&mut sim);
        let j = join(&second);
        assert_eq!(j.reason.as_deref(), Some("group is already rebalancing"));
        assert_eq!(j.member_id, new_id);
        assert_eq!(j.correlation_id, second.correlation_id());
        let names: Vec<&str> = j.protocols.iter().map(|p| p.name.as_str()).collect();
        let wanted: Vec<&str> = strategies[1..].iter().map(|s| s.name()).collect();
        assert_eq!(names, wanted);
        assert_eq!(
            (&j.client_id, &j.group_id, &j.protocol_type),
            (&first.client_id, &first.group_id, &first.protocol_type)
        );

        // Held elsewhere (as the trace holds a body it keeps): the next JoinGroup leaves it be.
        sim.consumers[0].rejoin_reason = "";
        let third = join(&send(&mut sim));
        assert_eq!(join(&second), j);
        assert_eq!(third.reason.as_deref(), Some("need to join the group"));
        assert_eq!(third.member_id, new_id);
    }

    /// A JoinGroup's subscription names what the consumer owns, whether that is the last
    /// assignment it took (whose list is lent to the subscription) or not; and the eager sticky
    /// memory it sends back stays the last assignment either way.
    #[test]
    fn a_subscription_names_what_is_owned_and_the_sticky_memory_stays() {
        use group_coordinator::consumer_protocol::{StickyUserData, Subscription};
        let mut sim = Simulation::new(large_group(2, 3, 3_600_000)).expect("valid");
        sim.run_until(20_000);
        sim.consumers[0].config.partition_assignment_strategy = [Strategy::Sticky].to_vec();
        let subscription = |sim: &mut Simulation| {
            sim.consumers[0].send_join_group(&mut sim.w);
            let id = sim.consumers[0].join.expect("sent");
            let Request::JoinGroup(j) = &*take_sent(sim, id) else {
                panic!("a JoinGroup")
            };
            let s = Subscription::decode(&j.protocols[0].metadata).expect("decodes");
            let owned: Vec<(alloc::string::String, i32)> = s
                .owned_partitions
                .iter()
                .flat_map(|tp| {
                    tp.partitions
                        .iter()
                        .map(|&p| (alloc::string::String::from(&*tp.topic), p))
                })
                .collect();
            let memory = StickyUserData::decode(s.user_data.as_ref().expect("sticky memory"))
                .expect("decodes")
                .previous_assignment;
            (owned, memory)
        };
        let owns = |sim: &Simulation| -> Vec<(alloc::string::String, i32)> {
            sim.consumers[0]
                .owned
                .iter()
                .map(|(t, p)| (alloc::string::String::from(&**t), *p))
                .collect()
        };
        let taken = owns(&sim);
        assert!(!taken.is_empty());
        let (owned, memory) = subscription(&mut sim);
        assert_eq!(owned, taken);
        // Sent again: the lent list came back.
        assert_eq!(subscription(&mut sim), (owned, memory.clone()));

        // One partition fewer than the last assignment: the subscription says so, the memory
        // does not change.
        let first = sim.consumers[0].owned.iter().next().cloned().expect("owns");
        sim.consumers[0].owned.remove(&first);
        let (owned, after) = subscription(&mut sim);
        assert_eq!(owned, owns(&sim));
        assert_eq!(owned.len() + 1, taken.len());
        assert_eq!(after, memory);
    }

    /// A SyncGroup written over the last one carries this generation's assignments only (a
    /// follower after the leader sends none).
    #[test]
    fn a_sync_group_written_over_the_last_one_carries_only_its_own_assignments() {
        use group_coordinator::protocol::SyncGroupRequestAssignment;
        let mut sim = Simulation::new(large_group(2, 3, 3_600_000)).expect("valid");
        sim.run_until(20_000);
        let mut send = |assignments: Vec<SyncGroupRequestAssignment>| {
            sim.consumers[0].send_sync_group(&mut sim.w, assignments);
            let id = sim.consumers[0].sync.expect("sent");
            match &*take_sent(&mut sim, id) {
                Request::SyncGroup(r) => r.clone(),
                other => panic!("a SyncGroup: {other:?}"),
            }
        };
        let leader = send(
            [SyncGroupRequestAssignment {
                member_id: "m".into(),
                assignment: group_coordinator::protocol::Bytes::from(&[1u8][..]),
            }]
            .to_vec(),
        );
        assert_eq!(leader.assignments.len(), 1);
        let follower = send(Vec::new());
        assert!(follower.assignments.is_empty());
        assert_eq!(follower.protocol_type.as_deref(), Some("consumer"));
        assert_eq!(
            (&follower.member_id, &follower.protocol_name),
            (&leader.member_id, &leader.protocol_name)
        );
        assert_ne!(follower.correlation_id, leader.correlation_id);
    }

    /// The last request is written over only by one of its kind (a consumer restarted with the
    /// other protocol sends the other heartbeat).
    #[test]
    fn only_a_request_of_the_same_kind_is_written_over() {
        let classic = Request::Heartbeat(HeartbeatRequest {
            correlation_id: 7,
            ..Default::default()
        });
        let mut slot = Some(Rc::new(classic.clone()));
        let fresh = Request::ConsumerGroupHeartbeat(ConsumerGroupHeartbeatRequest::default());
        assert_eq!(*super::rewritable(&mut slot, fresh.clone()), fresh);
        let mut slot = Some(Rc::new(classic.clone()));
        let again = super::rewritable(&mut slot, Request::Heartbeat(HeartbeatRequest::default()));
        assert_eq!(*again, classic);
        assert!(slot.is_none(), "taken out until sent again");
    }
}
