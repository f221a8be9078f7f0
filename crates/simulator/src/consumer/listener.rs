//! The application's own time (`Application`): its rebalance listener, which keeps the poll
//! thread busy (the JoinGroup after a revoke and every later poll wait for it, and partitions
//! assigned are processed only once `onPartitionsAssigned` returns), and the jitter of its
//! processing between polls.

use super::*;

impl Consumer {
    /// What the listener costs for `partitions` partitions given up (`lost`: `onPartitionsLost`).
    pub(super) fn give_up_ms(&self, partitions: usize, lost: bool) -> i64 {
        let per = if lost {
            self.app.lost_ms_per_partition
        } else {
            self.app.revoke_ms_per_partition
        };
        per.saturating_mul(partitions as i64)
    }

    /// The listener runs for `ms` from now: the poll thread is busy until then, and the
    /// application's poll rhythm resumes from there.
    pub(super) fn listener_runs(&mut self, w: &World, ms: i64) {
        if ms <= 0 {
            return;
        }
        self.busy_until = self.busy_until.max(w.now) + ms;
        self.poll_anchor = self.busy_until;
    }

    /// Whether the poll thread is still in the listener.
    pub(super) fn is_busy(&self, w: &World) -> bool {
        w.now < self.busy_until
    }

    /// `onPartitionsAssigned` for `added` (in generation `generation`): owned (processed) now if
    /// it takes no time, otherwise when it returns (`Timer::Listener`).
    pub(super) fn own_when_assigned(
        &mut self,
        w: &mut World,
        generation: GroupGeneration,
        added: Vec<Tp>,
    ) {
        if added.is_empty() || self.busy_until <= w.now {
            for tp in &added {
                w.acquire(self.index, generation, tp);
            }
            return;
        }
        self.listener_token += 1;
        self.pending_owned = Some((self.listener_token, generation, added));
        w.schedule_timer(
            self.busy_until,
            self.index,
            self.incarnation,
            Timer::Listener(self.listener_token),
        );
    }

    /// `onPartitionsAssigned` returned: what it was given and still holds is processed now.
    pub(super) fn on_listener_returned(&mut self, w: &mut World) {
        let Some((_, generation, added)) = self.pending_owned.take() else {
            return;
        };
        for tp in added.iter().filter(|tp| self.owned.contains(*tp)) {
            w.acquire(self.index, generation, tp);
        }
    }

    /// Forgets partitions not yet processed that are given up before `onPartitionsAssigned`
    /// returned (they were never owned in the ledger).
    pub(super) fn forget_pending(&mut self, tp: &Tp) -> bool {
        match &mut self.pending_owned {
            Some((_, _, added)) => match added.iter().position(|p| p == tp) {
                Some(i) => {
                    added.remove(i);
                    true
                }
                None => false,
            },
            None => false,
        }
    }

    /// The `k`-th poll boundary after the anchor: the steady rhythm, plus this batch's jitter
    /// (below `processingMs`, so boundaries keep their order).
    fn boundary(&self, k: i64) -> i64 {
        let jitter = self.app.processing_jitter_ms;
        let extra = if jitter <= 0 || k == 0 {
            0
        } else {
            (mix(self.jitter_seed ^ k as u64) % (jitter as u64 + 1)) as i64
        };
        self.poll_anchor + k * self.spec.processing_ms + extra
    }

    /// The last poll boundary at or before `now` (when the application last called poll()).
    pub(super) fn last_poll_boundary(&self, now: i64) -> i64 {
        let p = self.spec.processing_ms;
        if p <= 0 || now <= self.poll_anchor {
            return now;
        }
        let k = (now - self.poll_anchor) / p;
        // Boundary k-1 is before k*p (its jitter is below p), so one of the two is it.
        if self.boundary(k) <= now {
            self.boundary(k)
        } else {
            self.boundary(k - 1)
        }
    }

    /// The first poll boundary at or after `t`.
    pub(super) fn next_poll_boundary(&self, t: i64) -> i64 {
        let p = self.spec.processing_ms;
        if p <= 0 || t <= self.poll_anchor {
            return t.max(self.poll_anchor);
        }
        let jitter = self.app.processing_jitter_ms.max(0);
        let k = (t - self.poll_anchor - jitter + p - 1).div_euclid(p).max(0);
        // Boundary k+1 is at or after t (see `last_poll_boundary`), so one of the two is it.
        if self.boundary(k) >= t {
            self.boundary(k)
        } else {
            self.boundary(k + 1)
        }
    }
}

/// SplitMix64's finaliser: a well-spread draw per batch from the process's seed.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
