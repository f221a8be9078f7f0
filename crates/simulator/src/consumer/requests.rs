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
        let correlation_id = request.correlation_id();
        self.send_message(
            w,
            api,
            correlation_id,
            Outgoing::Request(Rc::new(request)),
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

    pub(super) fn subscription(&self, strategy: Strategy) -> Subscription {
        let owned = to_topic_partitions(&self.owned);
        let user_data = match strategy {
            Strategy::Sticky => self
                .last_assignment
                .as_ref()
                .map(|(assignment, generation)| {
                    StickyUserData {
                        previous_assignment: assignment.clone(),
                        generation: Some(*generation),
                    }
                    .encode()
                }),
            Strategy::CooperativeSticky => {
                Some(encode_cooperative_user_data(self.generation.generation_id))
            }
            Strategy::Range | Strategy::RoundRobin => None,
        };
        Subscription {
            version: 3,
            topics: self.topics.clone(),
            user_data,
            owned_partitions: owned,
            generation_id: self.generation.generation_id,
            rack_id: self.config.client_rack.clone(),
        }
    }

    pub(super) fn send_join_group(&mut self, w: &mut World) {
        let correlation_id = w.next_correlation_id();
        let protocols = self
            .config
            .partition_assignment_strategy
            .iter()
            .map(|s| JoinGroupRequestProtocol {
                name: s.name().to_string(),
                metadata: self.subscription(*s).encode(),
            })
            .collect();
        let request = Request::JoinGroup(JoinGroupRequest {
            api_version: JOIN_GROUP_VERSION,
            correlation_id,
            client_id: self.spec.name.clone(),
            group_id: w.group_id.clone(),
            session_timeout_ms: self.config.session_timeout_ms as i32,
            rebalance_timeout_ms: self.config.max_poll_interval_ms as i32,
            member_id: self.generation.member_id.clone(),
            group_instance_id: self.config.group_instance_id.clone(),
            protocol_type: "consumer".to_string(),
            protocols,
            reason: Some(String::from(if self.rejoin_reason.is_empty() {
                "need to join the group"
            } else {
                self.rejoin_reason
            })),
        });
        self.set_state(w, MemberState::PreparingRebalance);
        self.heartbeat_enabled = false;
        let timeout = self.config.join_request_timeout_ms();
        self.join = Some(self.send(w, MessageApi::JoinGroup, request, timeout));
    }

    pub(super) fn send_sync_group(
        &mut self,
        w: &mut World,
        assignments: Vec<SyncGroupRequestAssignment>,
    ) {
        let correlation_id = w.next_correlation_id();
        let request = Request::SyncGroup(SyncGroupRequest {
            api_version: SYNC_GROUP_VERSION,
            correlation_id,
            client_id: self.spec.name.clone(),
            group_id: w.group_id.clone(),
            generation_id: self.generation.generation_id,
            member_id: self.generation.member_id.clone(),
            group_instance_id: self.config.group_instance_id.clone(),
            protocol_type: Some("consumer".to_string()),
            protocol_name: self.generation.protocol_name.clone(),
            assignments,
        });
        let timeout = self.config.request_timeout_ms;
        self.sync = Some(self.send(w, MessageApi::SyncGroup, request, timeout));
    }

    pub(super) fn send_heartbeat(&mut self, w: &mut World) {
        let correlation_id = w.next_correlation_id();
        let request = Request::Heartbeat(HeartbeatRequest {
            api_version: HEARTBEAT_VERSION,
            correlation_id,
            client_id: self.spec.name.clone(),
            group_id: w.group_id.clone(),
            generation_id: self.generation.generation_id,
            member_id: self.generation.member_id.clone(),
            group_instance_id: self.config.group_instance_id.clone(),
        });
        self.last_heartbeat_sent = w.now;
        let timeout = self.config.request_timeout_ms;
        self.heartbeat = Some(self.send(w, MessageApi::Heartbeat, request, timeout));
    }

    pub(super) fn send_commit(&mut self, w: &mut World) {
        let correlation_id = w.next_correlation_id();
        let mut topics: Vec<OffsetCommitRequestTopic> = Vec::new();
        // Each topic's partitions are sized for all that is left to commit: grown one by one,
        // they were reallocated at 1, 2, 4 and 8 (measured: most of building the request).
        for (i, (topic, partition)) in self.owned.iter().enumerate() {
            let entry = OffsetCommitRequestPartition {
                partition_index: *partition,
                // A stand-in position that only grows: the virtual time.
                committed_offset: w.now,
                committed_leader_epoch: -1,
                commit_timestamp: -1,
                committed_metadata: Some(String::new()),
            };
            match topics.last_mut() {
                Some(t) if t.name.as_str() == &**topic => t.partitions.push(entry),
                _ => {
                    let mut partitions = Vec::with_capacity(self.owned.len() - i);
                    partitions.push(entry);
                    topics.push(OffsetCommitRequestTopic {
                        name: topic.to_string(),
                        partitions,
                    })
                }
            }
        }
        let request = Request::OffsetCommit(OffsetCommitRequest {
            api_version: OFFSET_COMMIT_VERSION,
            correlation_id,
            client_id: self.spec.name.clone(),
            group_id: w.group_id.clone(),
            generation_id_or_member_epoch: self.generation.generation_id,
            member_id: self.generation.member_id.clone(),
            group_instance_id: self.config.group_instance_id.clone(),
            retention_time_ms: -1,
            topics,
        });
        let timeout = self.config.request_timeout_ms;
        self.commit = Some(self.send(w, MessageApi::OffsetCommit, request, timeout));
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
