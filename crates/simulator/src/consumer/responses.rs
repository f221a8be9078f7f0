//! The responses, error code by error code, as `AbstractCoordinator` and `ConsumerCoordinator` handle them.

use super::*;

impl Consumer {
    pub fn on_message(&mut self, w: &mut World, message: Incoming) {
        match message {
            Incoming::FindCoordinator {
                correlation_id,
                error_code,
            } => {
                if self.in_flight.remove(&correlation_id).is_none() {
                    return;
                }
                self.find = None;
                if error_code == ErrorCode::None {
                    self.coordinator = CoordinatorStatus::Known;
                    self.backoff_attempts = 0;
                    // FindCoordinatorResponseHandler: heartbeat.resetSessionTimeout().
                    self.session_deadline = w.now + self.config.session_timeout_ms;
                    // The poll that looked the coordinator up goes on (ensureCoordinatorReady
                    // blocks inside poll()).
                    if self.life == Life::Running && self.paused.is_none() {
                        self.poll(w);
                    }
                    self.schedule_heartbeat_thread(w);
                } else {
                    self.coordinator = CoordinatorStatus::Unknown;
                    self.backoff(w);
                }
            }
            Incoming::Response(response) => {
                let Some(sent) = self.in_flight.remove(&response.correlation_id()) else {
                    return;
                };
                if !self.is_running() {
                    return;
                }
                match &*response {
                    Response::JoinGroup(r) => self.on_join_response(w, r, sent),
                    Response::SyncGroup(r) => {
                        self.sync = None;
                        self.on_sync_response(w, r.error_code, &r.assignment, sent)
                    }
                    Response::Heartbeat(r) => self.on_heartbeat_response(w, r.error_code, sent),
                    Response::OffsetCommit(r) => self.on_commit_response(w, r.error_code, sent),
                    Response::ConsumerGroupHeartbeat(r) => {
                        self.on_consumer_group_heartbeat_response(w, r)
                    }
                    _ => {}
                }
            }
        }
    }

    pub(super) fn on_request_timeout(&mut self, w: &mut World, correlation_id: i32) {
        let Some(sent) = self.in_flight.remove(&correlation_id) else {
            return;
        };
        w.counters.requests_timed_out += 1;
        w.record(TraceKind::RequestTimedOut {
            consumer: self.name.clone(),
            api: sent.api,
            correlation_id,
        });
        if sent.api == MessageApi::FindCoordinator {
            self.find = None;
            self.coordinator = CoordinatorStatus::Unknown;
            self.backoff(w);
            return;
        }
        if sent.api == MessageApi::LeaveGroup {
            return;
        }
        // A timed-out request disconnects: the coordinator is unknown and what was in flight
        // fails with it.
        if self.join == Some(correlation_id) || self.sync == Some(correlation_id) {
            self.rejoin_needed = true;
        }
        if self.commit == Some(correlation_id) {
            self.commit = None;
            self.after_commit(w);
        }
        self.coordinator = CoordinatorStatus::Known;
        self.mark_coordinator_unknown(w);
    }

    pub(super) fn on_join_response(
        &mut self,
        w: &mut World,
        r: &JoinGroupResponse,
        sent: InFlight,
    ) {
        self.join = None;
        let unchanged = sent.generation == self.generation;
        // (Its share of the generation let go: the new one is written over the old in place.)
        drop(sent);
        match r.error_code {
            ErrorCode::None => {
                if self.state != MemberState::PreparingRebalance {
                    return;
                }
                self.write_generation(w, r.generation_id, &r.member_id, r.protocol_name.as_deref());
                self.set_state(w, MemberState::CompletingRebalance);
                self.enable_heartbeat(w);
                self.is_leader = r.leader == r.member_id;
                if !self.is_leader {
                    self.assignment_snapshot = None;
                }
                let assignments = if self.is_leader && !r.skip_assignment {
                    self.assign(w, r)
                } else {
                    Vec::new()
                };
                self.send_sync_group(w, assignments);
            }
            ErrorCode::MemberIdRequired => {
                self.set_generation(
                    w,
                    Generation {
                        member_id: r.member_id.clone(),
                        ..Generation::none()
                    },
                );
                self.send_join_group(w);
            }
            ErrorCode::UnknownMemberId => {
                if unchanged {
                    self.reset_generation(w, true);
                }
                self.rejoin_now(w);
            }
            ErrorCode::RebalanceInProgress | ErrorCode::IllegalGeneration => self.rejoin_now(w),
            ErrorCode::NotCoordinator | ErrorCode::CoordinatorNotAvailable => {
                self.rejoin_needed = true;
                self.mark_coordinator_unknown(w);
            }
            ErrorCode::CoordinatorLoadInProgress => {
                self.rejoin_needed = true;
                self.retry_join_after_backoff(w);
            }
            fatal => self.fail(w, fatal),
        }
    }

    pub(super) fn rejoin_now(&mut self, w: &mut World) {
        self.rejoin_needed = true;
        if self.life == Life::Running && self.paused.is_none() {
            self.join_group_if_needed(w);
        }
    }

    pub(super) fn retry_join_after_backoff(&mut self, w: &mut World) {
        let delay = self.config.retry_backoff_ms;
        self.request_poll_at(w, w.now + delay);
    }

    pub(super) fn on_sync_response(
        &mut self,
        w: &mut World,
        error: ErrorCode,
        assignment: &Bytes,
        sent: InFlight,
    ) {
        let unchanged = sent.generation == self.generation;
        match error {
            ErrorCode::None => {
                if !unchanged || self.state != MemberState::CompletingRebalance {
                    // The heartbeat thread reset the generation meanwhile: ILLEGAL_GENERATION.
                    self.rejoin_now(w);
                    return;
                }
                self.set_state(w, MemberState::Stable);
                self.rejoin_needed = false;
                self.rejoin_reason = "";
                self.on_join_complete(w, assignment);
            }
            ErrorCode::RebalanceInProgress => self.rejoin_now(w),
            ErrorCode::UnknownMemberId => {
                if unchanged {
                    self.reset_generation(w, true);
                }
                self.rejoin_now(w);
            }
            ErrorCode::IllegalGeneration => {
                if unchanged {
                    self.reset_generation(w, false);
                }
                self.rejoin_now(w);
            }
            ErrorCode::NotCoordinator | ErrorCode::CoordinatorNotAvailable => {
                self.rejoin_needed = true;
                self.mark_coordinator_unknown(w);
            }
            fatal => self.fail(w, fatal),
        }
    }

    /// `onJoinComplete`: take the assignment; cooperative members revoke what moved away and
    /// rejoin so the withheld partitions can be given out.
    pub(super) fn on_join_complete(&mut self, w: &mut World, bytes: &Bytes) {
        self.needs_join_prepare = true;
        let assignment = match Assignment::decode(bytes) {
            Ok(a) => a,
            Err(e) => {
                w.violation(format!(
                    "{} received an assignment it cannot decode: {e}",
                    self.name
                ));
                Assignment::default()
            }
        };
        // `checkAssignmentMatchedSubscription`: an assignment with a topic the member does not
        // subscribe to (its subscription changed since it joined, or Kafka's sticky flaw gave it
        // one) is not taken at all: no revocation, no `onPartitionsAssigned`; it rejoins.
        if assignment
            .assigned_partitions
            .iter()
            .any(|tp| !self.topics.iter().any(|t| t.as_str() == &*tp.topic))
        {
            self.request_rejoin(
                w,
                "received assignment does not match the current subscription",
            );
            return;
        }
        // Most members of a rebalance keep what they own (one member restarted, the rest stay
        // put): their set is then the one they hold, not built again partition by partition.
        let (assigned, revoked, added) =
            if super::names_exactly(&assignment.assigned_partitions, &self.owned) {
                (self.owned.clone(), Vec::new(), Vec::new())
            } else {
                let assigned = super::partitions_of(w, &assignment);
                let revoked: Vec<Tp> = self.owned.difference(&assigned).cloned().collect();
                let added: Vec<Tp> = assigned.difference(&self.owned).cloned().collect();
                (assigned, revoked, added)
            };
        for tp in &revoked {
            self.owned.remove(tp);
            if !self.forget_pending(tp) {
                w.release(self.index, tp);
            }
        }
        let generation = self.generation.generation_id;
        // onPartitionsRevoked, then onPartitionsAssigned (ConsumerCoordinator.onJoinComplete):
        // what was kept is processed on in the new generation, what was added once the
        // listener returns.
        let listener_ms = self.give_up_ms(revoked.len(), false).saturating_add(
            self.app
                .assign_ms_per_partition
                .saturating_mul(added.len() as i64),
        );
        self.listener_runs(w, listener_ms);
        let group_generation = (self.group_incarnation, generation);
        // Partitions kept whose earlier onPartitionsAssigned has not returned wait on with the
        // new ones.
        let mut waiting: Vec<Tp> = self
            .pending_owned
            .take()
            .map(|(_, _, p)| p)
            .unwrap_or_default();
        waiting.retain(|tp| assigned.contains(tp));
        for tp in assigned
            .iter()
            .filter(|tp| self.owned.contains(*tp) && !waiting.contains(tp))
        {
            w.acquire(self.index, group_generation, tp);
        }
        waiting.extend(added.iter().cloned());
        self.own_when_assigned(w, group_generation, waiting);
        let revoked_any = !revoked.is_empty();
        // (Its lists made only if the trace keeps them: a comparison's run counts it.)
        w.record_with(|| TraceKind::Assigned {
            consumer: self.name.clone(),
            generation_id: generation,
            assigned: assigned.iter().cloned().collect(),
            added: added.into(),
            revoked: revoked.into(),
            listener_ms,
            consumer_protocol: false,
        });
        // (Moved in, not copied: the set and the assignment are this call's own.)
        self.owned = assigned;
        self.owned_generation = generation;
        self.last_assignment = Some(super::LastAssignment {
            partitions: assignment.assigned_partitions,
            generation,
            bytes: bytes.clone(),
        });
        w.agreement_checks.push(self.index);
        if revoked_any && self.config.rebalance_protocol() == RebalanceProtocol::Cooperative {
            self.request_rejoin(w, "need to revoke partitions and re-join");
        }
        if self.config.enable_auto_commit {
            self.request_poll_at(w, self.last_commit + self.config.auto_commit_interval_ms);
        }
    }

    pub(super) fn on_heartbeat_response(
        &mut self,
        w: &mut World,
        error: ErrorCode,
        sent: InFlight,
    ) {
        self.heartbeat = None;
        let unchanged = sent.generation == self.generation;
        match error {
            ErrorCode::None => {
                self.session_deadline = w.now + self.config.session_timeout_ms;
            }
            ErrorCode::RebalanceInProgress => {
                self.session_deadline = w.now + self.config.session_timeout_ms;
                if self.state == MemberState::Stable {
                    self.request_rejoin(w, "group is already rebalancing");
                }
            }
            ErrorCode::IllegalGeneration | ErrorCode::UnknownMemberId if unchanged => {
                self.reset_generation(w, error == ErrorCode::UnknownMemberId);
                self.rejoin_needed = true;
                self.request_poll(w);
            }
            ErrorCode::FencedInstanceId => {
                if unchanged {
                    self.fail(w, error);
                }
                return;
            }
            ErrorCode::NotCoordinator | ErrorCode::CoordinatorNotAvailable => {
                self.mark_coordinator_unknown(w);
            }
            _ => {}
        }
        self.schedule_heartbeat_thread(w);
    }

    pub(super) fn on_commit_response(&mut self, w: &mut World, error: ErrorCode, sent: InFlight) {
        self.commit = None;
        let unchanged = sent.generation == self.generation;
        if self.uses_consumer_protocol() {
            return self.on_commit_response_consumer_protocol(
                w,
                error,
                sent.generation.generation_id,
            );
        }
        match error {
            ErrorCode::None => self.last_commit = w.now,
            ErrorCode::RebalanceInProgress => {
                self.request_rejoin(w, "offset commit failed with a rebalance in progress")
            }
            ErrorCode::UnknownMemberId | ErrorCode::IllegalGeneration
                if unchanged && self.state != MemberState::PreparingRebalance =>
            {
                self.reset_generation(w, error == ErrorCode::UnknownMemberId);
                self.rejoin_needed = true;
                self.request_poll(w);
            }
            ErrorCode::FencedInstanceId if unchanged => {
                self.fail(w, error);
                return;
            }
            ErrorCode::NotCoordinator
            | ErrorCode::CoordinatorNotAvailable
            | ErrorCode::RequestTimedOut => {
                self.mark_coordinator_unknown(w);
                return;
            }
            _ => {}
        }
        self.after_commit(w);
    }

    /// A commit finished (answered, failed or timed out): a close or a join waiting on it
    /// goes on.
    pub(super) fn after_commit(&mut self, w: &mut World) {
        if self.uses_consumer_protocol() {
            return self.after_commit_consumer_protocol(w);
        }
        if self.life == Life::Closing {
            self.finish_close(w);
        } else if self.needs_join_prepare && self.rejoin_needed {
            self.prepare_committed = true;
            self.request_poll(w);
        }
    }

    /// A non-retriable error reaches the application, which stops using the consumer.
    pub(super) fn fail(&mut self, w: &mut World, error: ErrorCode) {
        w.counters.consumer_failures += 1;
        w.record(TraceKind::ConsumerFailed {
            consumer: self.name.clone(),
            error_code: error,
            error: error.name(),
        });
        self.heartbeat_enabled = false;
        self.drop_owned(w, true);
        self.life = Life::Failed;
        self.failure = Some(error);
        w.mark_dirty();
    }
}
