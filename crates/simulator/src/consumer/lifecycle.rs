//! The consumer process's life: start, close (leave), crash, pause and resume.

use super::*;

impl Consumer {
    /// The application creates the consumer (again): a fresh process with no member id.
    pub fn start(&mut self, w: &mut World) {
        let index = self.index;
        let spec = self.spec.clone();
        let config = self.config.clone();
        let app = self.app.clone();
        let incarnation = self.incarnation + 1;
        *self = Consumer::new(index, self.name.clone(), spec, config, app);
        self.incarnation = incarnation;
        if self.app.processing_jitter_ms > 0 {
            self.jitter_seed = w.rng.next_u64();
        }
        self.life = Life::Running;
        w.client_generations[index] = (w.group_incarnation, -1);
        if self.uses_consumer_protocol() {
            self.start_membership(w);
        }
        self.poll_anchor = w.now;
        self.last_commit = w.now;
        self.metadata = w.topics.clone();
        self.metadata_at = w.now;
        if let Some(topics) = self.matched_topics() {
            self.topics = topics;
        }
        w.record(TraceKind::Lifecycle {
            consumer: self.name.clone(),
            what: Lifecycle::Started,
        });
        self.request_poll(w);
    }

    /// `KafkaConsumer.close()`: commit what it consumed while in the group (a classic member
    /// Stable, a consumer-protocol member with an epoch), then revoke and leave (classic: if
    /// enabled; consumer protocol: `leaveGroup`). The commit's answer goes on from `after_commit`.
    pub fn close(&mut self, w: &mut World) {
        self.life = Life::Closing;
        let in_group = if self.uses_consumer_protocol() {
            self.epoch() > 0
        } else {
            self.state == MemberState::Stable
        };
        if self.config.enable_auto_commit
            && in_group
            && !self.owned.is_empty()
            && self.coordinator == CoordinatorStatus::Known
        {
            if self.commit.is_none() {
                self.send_commit(w);
            }
            return;
        }
        if self.uses_consumer_protocol() {
            self.leave_group(w);
        } else {
            self.finish_close(w);
        }
    }

    pub(super) fn finish_close(&mut self, w: &mut World) {
        self.heartbeat_enabled = false;
        if self.config.internal_leave_group_on_close {
            // onLeavePrepare: lost if the generation was reset or a rebalance is under way.
            let lost = self.generation.generation_id < 0 || self.state != MemberState::Stable;
            self.drop_owned(w, lost);
            self.maybe_leave_group(w, "the consumer is being closed");
        } else {
            self.drop_owned(w, true);
        }
        self.mark_closed(w);
    }

    /// `close()` returns: the process is closed.
    pub(super) fn mark_closed(&mut self, w: &mut World) {
        self.life = Life::Closed;
        self.paused = None;
        w.record(TraceKind::Lifecycle {
            consumer: self.name.clone(),
            what: Lifecycle::Closed,
        });
    }

    /// The process dies: nothing is sent, what it consumed is no longer consumed.
    pub fn crash(&mut self, w: &mut World) {
        self.life = Life::Crashed;
        self.paused = None;
        self.heartbeat_enabled = false;
        let owned: Vec<Tp> = core::mem::take(&mut self.owned).into_iter().collect();
        for tp in &owned {
            w.release(self.index, tp);
        }
        w.record(TraceKind::Lifecycle {
            consumer: self.name.clone(),
            what: Lifecycle::Crashed,
        });
    }

    pub fn pause(&mut self, w: &mut World, kind: PauseKind) {
        self.paused = Some(kind);
        // The application stops calling poll(): the poll timer runs from its last poll.
        let last_poll = self.last_poll_boundary(w.now);
        self.poll_deadline = Some(last_poll + self.config.max_poll_interval_ms);
        w.record(TraceKind::Lifecycle {
            consumer: self.name.clone(),
            what: Lifecycle::Paused,
        });
        self.schedule_heartbeat_thread(w);
    }

    pub fn resume(&mut self, w: &mut World) -> Vec<Pending> {
        self.paused = None;
        self.poll_deadline = None;
        self.poll_anchor = w.now;
        w.record(TraceKind::Lifecycle {
            consumer: self.name.clone(),
            what: Lifecycle::Resumed,
        });
        self.scheduled_poll = None;
        self.request_poll(w);
        self.schedule_heartbeat_thread(w);
        core::mem::take(&mut self.deferred)
    }

    /// `subscribe(topics)`, or `subscribe(Pattern)` with a `pattern`: a changed subscription
    /// makes the member rejoin.
    pub fn subscribe(&mut self, w: &mut World, topics: &[String], pattern: Option<&str>) {
        let old_pattern = core::mem::replace(
            &mut self.pattern,
            pattern.and_then(super::TopicPattern::new),
        );
        let mut topics = topics.to_vec();
        group_coordinator::ordered::sort(&mut topics);
        topics.dedup();
        if let Some(matched) = self.matched_topics() {
            topics = matched;
        }
        if topics == self.topics && self.pattern == old_pattern {
            return;
        }
        self.topics = topics;
        if self.uses_consumer_protocol() {
            // The next heartbeat carries it (an unsubscribed member joins at its next poll).
            self.request_poll(w);
            self.schedule_heartbeat_thread(w);
        } else if self.is_running() {
            self.request_rejoin(w, "subscription has changed");
        }
    }

    /// The topics of the consumer's metadata its pattern matches, for a classic consumer that
    /// subscribes by pattern (the Java consumer's `subscribe(Pattern)`: matched on the client at
    /// every metadata refresh). `None` without a pattern, and with the consumer protocol, where
    /// the coordinator resolves it.
    pub(super) fn matched_topics(&self) -> Option<Vec<String>> {
        if self.uses_consumer_protocol() {
            return None;
        }
        let pattern = self.pattern.as_ref()?;
        Some(
            self.metadata
                .keys()
                .filter(|t| pattern.matches(t))
                .cloned()
                .collect(),
        )
    }
}
