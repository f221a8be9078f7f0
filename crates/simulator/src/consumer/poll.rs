//! The poll loop: what `poll()` does when the application calls it (rejoin, auto-commit, the poll timer).

use super::*;

impl Consumer {
    /// Makes the application's next poll() run, at its next poll boundary from now.
    pub(super) fn request_poll(&mut self, w: &mut World) {
        self.request_poll_at(w, w.now);
    }

    pub(super) fn request_poll_at(&mut self, w: &mut World, t: i64) {
        if !self.is_running() || self.paused.is_some() {
            return;
        }
        let at = self.next_poll_boundary(t.max(w.now).max(self.busy_until));
        if self.scheduled_poll.is_some_and(|s| s <= at && s >= w.now) {
            return;
        }
        self.poll_token += 1;
        self.scheduled_poll = Some(at);
        w.schedule_timer(
            at,
            self.index,
            self.incarnation,
            Timer::Poll(self.poll_token),
        );
    }

    pub fn on_timer(&mut self, w: &mut World, timer: Timer) {
        if !self.timer_is_current(timer) {
            return;
        }
        match timer {
            Timer::Poll(_) => {
                self.scheduled_poll = None;
                self.poll(w);
            }
            Timer::Heartbeat(_) => self.heartbeat_thread(w),
            Timer::Backoff(_) => self.lookup_coordinator(w),
            Timer::RequestTimeout(correlation_id) => self.on_request_timeout(w, correlation_id),
            Timer::Listener(_) => self.on_listener_returned(w),
            Timer::Callback(_) => self.on_callback_returned(w),
        }
    }

    /// Whether `timer` still means something when it fires: a newer one replaces a poll,
    /// heartbeat or backoff timer (its token moves on), and a request's time-out ends with the
    /// request. A stale timer fires as a no-op.
    pub fn timer_is_current(&self, timer: Timer) -> bool {
        match timer {
            Timer::Poll(token) => token == self.poll_token,
            Timer::Heartbeat(token) => token == self.heartbeat_token,
            Timer::Backoff(token) => token == self.backoff_token,
            Timer::RequestTimeout(correlation_id) => self.in_flight.contains_key(&correlation_id),
            Timer::Listener(token) => self.pending_owned.as_ref().is_some_and(|p| p.0 == token),
            Timer::Callback(token) => self.callback_is_current(token),
        }
    }

    /// `KafkaConsumer.poll()`: the coordinator's part of it.
    pub(super) fn poll(&mut self, w: &mut World) {
        if self.life != Life::Running || self.paused.is_some() {
            return;
        }
        if self.uses_consumer_protocol() {
            return self.poll_consumer_protocol(w);
        }
        // Still in the rebalance listener: this poll comes when it returns.
        if self.is_busy(w) {
            return self.request_poll(w);
        }
        match self.coordinator {
            CoordinatorStatus::Unknown => return self.lookup_coordinator(w),
            CoordinatorStatus::Finding => return,
            CoordinatorStatus::Known => {}
        }
        self.maybe_refresh_metadata(w);
        if self.rejoin_needed || self.state != MemberState::Stable {
            self.join_group_if_needed(w);
            return;
        }
        if self.config.enable_auto_commit {
            let due = self.last_commit + self.config.auto_commit_interval_ms;
            if w.now >= due {
                if self.commit.is_none() && !self.owned.is_empty() {
                    self.send_commit(w);
                }
                self.last_commit = w.now;
            }
            let next = self.last_commit + self.config.auto_commit_interval_ms;
            self.request_poll_at(w, next);
        }
    }

    /// `joinGroupIfNeeded` (`docs/src/reference/classic-protocol.md#client-join-loop`).
    pub(super) fn join_group_if_needed(&mut self, w: &mut World) {
        if self.join.is_some() || self.sync.is_some() {
            return;
        }
        if self.needs_join_prepare {
            // onJoinPrepare commits first and waits for the commit (on a later poll).
            if self.config.enable_auto_commit
                && self.generation.generation_id >= 0
                && !self.owned.is_empty()
                && !self.prepare_committed
            {
                if self.commit.is_none() {
                    self.send_commit(w);
                }
                return;
            }
            self.on_join_prepare(w);
            // The JoinGroup goes once onPartitionsRevoked has returned.
            if self.is_busy(w) {
                return self.request_poll(w);
            }
        }
        self.send_join_group(w);
    }

    /// `onJoinPrepare`: eager revokes everything, cooperative only what is no longer
    /// subscribed; after a generation reset everything is lost.
    pub(super) fn on_join_prepare(&mut self, w: &mut World) {
        self.needs_join_prepare = false;
        self.prepare_committed = false;
        if self.generation.generation_id < 0 {
            self.drop_owned(w, true);
        } else if self.config.rebalance_protocol() == RebalanceProtocol::Eager {
            self.drop_owned(w, false);
        } else {
            let gone: Vec<Tp> = self
                .owned
                .iter()
                .filter(|(t, _)| !self.topics.iter().any(|s| s.as_str() == &**t))
                .cloned()
                .collect();
            self.give_up(w, gone, false);
        }
    }

    pub(super) fn drop_owned(&mut self, w: &mut World, lost: bool) {
        // Taken whole: giving up each partition would search the set for it (an eager
        // rebalance gives up everything, each member at every rebalance).
        let all: Vec<Tp> = core::mem::take(&mut self.owned).into_iter().collect();
        self.give_up(w, all, lost);
    }

    pub(super) fn give_up(&mut self, w: &mut World, partitions: Vec<Tp>, lost: bool) {
        if partitions.is_empty() {
            return;
        }
        for tp in &partitions {
            self.owned.remove(tp);
            if !self.forget_pending(tp) {
                w.release(self.index, tp);
            }
        }
        let listener_ms = self.give_up_ms(partitions.len(), lost);
        self.listener_runs(w, listener_ms);
        w.record(TraceKind::Revoked {
            consumer: self.name.clone(),
            partitions: partitions.into(),
            lost,
            listener_ms,
        });
    }

    pub(super) fn set_generation(&mut self, w: &mut World, generation: Generation) {
        self.note_generation(w, generation.generation_id, &generation.member_id);
        self.generation = Rc::new(generation);
    }

    /// What follows a new generation beside the generation itself: the group's incarnation,
    /// the member id shared with the trace, the world's record of the client's generation.
    fn note_generation(&mut self, w: &mut World, generation_id: i32, member_id: &str) {
        self.group_incarnation = w.group_incarnation;
        if *self.member_id != *member_id {
            self.member_id = Rc::from(member_id);
        }
        w.client_generations[self.index] = (w.group_incarnation, generation_id);
    }

    /// [`Consumer::set_generation`] from borrowed parts, written over the current generation
    /// where nothing else holds it (each JoinGroup answer of each rebalance: the member id and
    /// protocol are most often the ones it had, and copying them was two allocations and a
    /// third for the `Rc`).
    pub(super) fn write_generation(
        &mut self,
        w: &mut World,
        generation_id: i32,
        member_id: &str,
        protocol_name: Option<&str>,
    ) {
        self.note_generation(w, generation_id, member_id);
        let g = Rc::make_mut(&mut self.generation);
        g.generation_id = generation_id;
        if g.member_id != member_id {
            g.member_id.clear();
            g.member_id.push_str(member_id);
        }
        if g.protocol_name.as_deref() != protocol_name {
            g.protocol_name = protocol_name.map(String::from);
        }
    }

    pub(super) fn set_state(&mut self, w: &mut World, to: MemberState) {
        if self.state != to {
            if !super::states::is_client_transition(self.uses_consumer_protocol(), self.state, to) {
                w.violation(format!(
                    "{} went from {} to {}, which the Java client does not allow",
                    self.name,
                    self.state.name(),
                    to.name()
                ));
            }
            self.record_state(w, to);
        }
    }

    /// Moves to `to` and tells it (no check: see `set_state`).
    pub(super) fn record_state(&mut self, w: &mut World, to: MemberState) {
        if self.state != to {
            w.record(TraceKind::ClientState {
                consumer: self.name.clone(),
                from: self.state,
                to,
            });
            self.state = to;
            w.mark_dirty();
        }
    }

    /// The metadata refresh `poll()` makes once its metadata is older than
    /// `metadata.max.age.ms`; then the leader's check (`rejoinNeededOrPending`): a subscribed
    /// topic's partition count differs from what it assigned from, so it rejoins and the group
    /// rebalances over the new partitions.
    fn maybe_refresh_metadata(&mut self, w: &mut World) {
        if w.now - self.metadata_at < self.config.metadata_max_age_ms {
            return;
        }
        self.metadata_at = w.now;
        if self.metadata != w.topics {
            self.metadata = w.topics.clone();
            w.record(TraceKind::MetadataRefreshed {
                consumer: self.name.clone(),
            });
        }
        // `subscribe(Pattern)`: the subscription follows the topics the pattern matches now;
        // a change makes the member rejoin (`rejoinNeededOrPending`: "subscription has
        // changed").
        if let Some(matched) = self.matched_topics()
            && matched != self.topics
        {
            self.topics = matched;
            self.request_rejoin(w, "subscription has changed");
        }
        let changed = self.assignment_snapshot.as_ref().is_some_and(|snapshot| {
            snapshot
                .iter()
                .any(|(t, n)| self.metadata.get(t) != Some(n))
        });
        if self.is_leader && changed {
            self.request_rejoin(w, "cached metadata has changed");
        }
    }

    pub(super) fn request_rejoin(&mut self, w: &mut World, reason: &'static str) {
        if !self.rejoin_needed || self.rejoin_reason != reason {
            w.record(TraceKind::RejoinRequested {
                consumer: self.name.clone(),
                reason,
            });
        }
        self.rejoin_needed = true;
        self.rejoin_reason = reason;
        w.mark_dirty();
        self.request_poll(w);
    }
}
