//! The heartbeat thread: heartbeats at `heartbeat.interval.ms`, and the session timer on the client.

use super::*;

impl Consumer {
    pub(super) fn schedule_heartbeat_thread(&mut self, w: &mut World) {
        if self.uses_consumer_protocol() {
            return self.schedule_background(w);
        }
        if !self.heartbeat_enabled || !self.is_running() {
            return;
        }
        let mut at = self.session_deadline;
        if self.heartbeat.is_none() {
            at = at.min(self.last_heartbeat_sent + self.config.heartbeat_interval_ms);
        }
        if let Some(p) = self.poll_deadline {
            at = at.min(p);
        }
        self.wake_heartbeat_thread_at(w, at);
    }

    /// The heartbeat (background) thread wakes at `at` (or now), replacing its earlier wake-up.
    pub(super) fn wake_heartbeat_thread_at(&mut self, w: &mut World, at: i64) {
        self.heartbeat_token += 1;
        w.schedule_timer(
            at.max(w.now),
            self.index,
            self.incarnation,
            Timer::Heartbeat(self.heartbeat_token),
        );
    }

    /// One turn of `HeartbeatThread.run` (`docs/src/reference/classic-protocol.md#client-heartbeat`).
    pub(super) fn heartbeat_thread(&mut self, w: &mut World) {
        if self.uses_consumer_protocol() {
            return self.background(w);
        }
        if !self.heartbeat_enabled || !self.is_running() {
            return;
        }
        if self.coordinator != CoordinatorStatus::Known {
            return;
        }
        if w.now >= self.session_deadline {
            w.record(TraceKind::ClientExpired {
                consumer: self.name.clone(),
                expiry: ClientExpiry::SessionTimeout,
            });
            self.mark_coordinator_unknown(w);
            return;
        }
        if self.poll_deadline.is_some_and(|p| w.now >= p) {
            w.record(TraceKind::ClientExpired {
                consumer: self.name.clone(),
                expiry: ClientExpiry::PollTimeout,
            });
            self.poll_deadline = None;
            self.maybe_leave_group(w, "consumer poll timeout has expired.");
            return;
        }
        if self.heartbeat.is_none()
            && w.now >= self.last_heartbeat_sent + self.config.heartbeat_interval_ms
        {
            self.send_heartbeat(w);
        }
        self.schedule_heartbeat_thread(w);
    }

    /// `Heartbeat.resetTimeouts()` when a JoinGroup succeeds.
    pub(super) fn enable_heartbeat(&mut self, w: &mut World) {
        self.heartbeat_enabled = true;
        self.session_deadline = w.now + self.config.session_timeout_ms;
        self.last_heartbeat_sent = w.now;
        if self.paused == Some(PauseKind::Processing) {
            self.poll_deadline = Some(w.now + self.config.max_poll_interval_ms);
        }
        self.schedule_heartbeat_thread(w);
    }
}
