//! The timeline's model: one bar per request, from its send to its end (the response delivered,
//! the message lost or the request timed out), the coordinator's answer and error on it, and
//! marks for state changes, fired timers, lifecycle changes, client expiries, cuts, heals and
//! failovers. Built once as the trace grows, and read for any prefix of it: a run that went back
//! asks for the window of its shorter trace, without rebuilding anything.

use crate::index::RowWindow;
use crate::scenario::Action;
use crate::trace::{ClientExpiry, Lifecycle, MessageApi, Trace, TraceEvent, TraceKind};
use alloc::collections::BTreeMap;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;
use group_coordinator::event::EventKind;
use group_coordinator::{ErrorCode, GroupState};
use serde::Serialize;

/// When and by which trace entry something happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    at_ms: i64,
    index: usize,
}

/// How a request ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    Answered,
    Lost,
    TimedOut,
}

#[derive(Clone, Debug)]
struct BarRecord {
    lane: u32,
    api: MessageApi,
    correlation_id: i32,
    sent: Stamp,
    /// The member epoch a ConsumerGroupHeartbeat carried.
    epoch: Option<i32>,
    /// The coordinator's response, with its error name when it carried one.
    answered: Option<(Stamp, Option<&'static str>)>,
    done: Option<(Stamp, End)>,
}

/// What a mark marks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum MarkKind {
    /// The group entered this state (on the coordinator's lane).
    State {
        state: GroupState,
    },
    /// One of the coordinator's timers fired (its key, as Kafka writes it).
    Timer {
        key: String,
    },
    Life {
        what: Lifecycle,
    },
    Expiry {
        expiry: ClientExpiry,
    },
    Cut,
    Heal,
    Failover,
}

#[derive(Clone, Debug)]
struct MarkRecord {
    lane: u32,
    at: Stamp,
    kind: MarkKind,
}

/// A bar as a view draws it: `end` is where it ends now (the current time for an open one).
/// Neighbouring bars of one lane and API closer than the asked resolution are drawn as one, and
/// `merged` counts them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(
    feature = "schema",
    derive(schemars::JsonSchema),
    schemars(rename = "TimelineBar")
)]
#[serde(rename_all = "camelCase")]
pub struct Bar {
    pub lane: u32,
    pub api: MessageApi,
    pub correlation_id: i32,
    pub sent_ms: i64,
    pub end_ms: i64,
    /// The `RequestSent` entry (what selecting the bar selects).
    pub index: usize,
    /// (The flags and `merged` are left out of the JSON when false and 1: a frame carries
    /// hundreds of bars, most of them plain.)
    #[serde(skip_serializing_if = "is_false")]
    pub open: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<&'static str>,
    #[serde(skip_serializing_if = "is_false")]
    pub lost: bool,
    #[serde(skip_serializing_if = "is_false")]
    pub timed_out: bool,
    #[serde(skip_serializing_if = "is_one")]
    pub merged: u32,
    /// A ConsumerGroupHeartbeat's member epoch (bars of different epochs are never merged).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub epoch: Option<i32>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(
    feature = "schema",
    derive(schemars::JsonSchema),
    schemars(rename = "TimelineMark")
)]
#[serde(rename_all = "camelCase")]
pub struct Mark {
    pub lane: u32,
    pub at_ms: i64,
    pub index: usize,
    #[serde(flatten)]
    pub kind: MarkKind,
}

/// What the timeline shows of `[fromMs, toMs]`: lane 0 is the coordinator's, lane k the k-th
/// consumer's (in the order they first appeared).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct TimelineWindow {
    pub from_ms: i64,
    pub to_ms: i64,
    /// The consumers' lanes shown (a window of them when the frame asked for `rows`: its bars
    /// and marks are then numbered within it, lane 0 still the coordinator's).
    pub lanes: Vec<Rc<str>>,
    /// How many consumers' lanes there are in all.
    pub lane_count: usize,
    /// In send order.
    pub bars: Vec<Bar>,
    /// In the order they happened.
    pub marks: Vec<Mark>,
}

/// The bars, marks and lanes of every trace entry indexed so far.
#[derive(Clone, Debug, Default)]
pub struct TimelineIndex {
    /// In send order (so by `sent.index`).
    bars: Vec<BarRecord>,
    /// By `at.index`.
    marks: Vec<MarkRecord>,
    /// Consumers' lanes (lane k + 1), with the entry that opened each.
    lanes: Vec<(Rc<str>, usize)>,
    /// Each consumer's lane number, by name: a lane is looked up for every entry indexed, and a
    /// walk along `lanes` cost a thousand comparisons an entry in a group of 1,000.
    lane_numbers: BTreeMap<Rc<str>, u32>,
    /// The bars not ended yet in the entries indexed, by consumer and correlation id.
    open: BTreeMap<(u32, i32), usize>,
    /// The longest a request took, among those that ended: a window needs no bar sent longer
    /// before its start than this, except the open ones.
    longest_ms: i64,
    indexed: usize,
}

impl TimelineIndex {
    /// The bytes its lists hold (the bars and marks: one per message, one per mark).
    pub(crate) fn bytes(&self) -> usize {
        self.bars.capacity() * core::mem::size_of::<BarRecord>()
            + self.marks.capacity() * core::mem::size_of::<MarkRecord>()
    }

    /// Indexes the trace's entries not indexed yet (a trace cut back by a fork must be
    /// [`truncate`](Self::truncate)d first).
    pub fn catch_up(&mut self, trace: &Trace) {
        if trace.len() <= self.indexed {
            return;
        }
        for e in trace.iter_from(self.indexed) {
            self.add(&e);
        }
        self.indexed = trace.len();
    }

    /// Forgets entries from `len` on (a fork dropped them).
    pub fn truncate(&mut self, len: usize) {
        if len >= self.indexed {
            return;
        }
        self.bars
            .truncate(self.bars.partition_point(|b| b.sent.index < len));
        self.marks
            .truncate(self.marks.partition_point(|m| m.at.index < len));
        // (A fork gives back the room of the future it dropped: a run's record is bounded.)
        self.bars.shrink_to_fit();
        self.marks.shrink_to_fit();
        self.lanes
            .truncate(self.lanes.partition_point(|l| l.1 < len));
        let kept = self.lanes.len();
        self.lane_numbers.retain(|_, n| (*n as usize) <= kept);
        self.open.clear();
        self.longest_ms = 0;
        for (i, bar) in self.bars.iter_mut().enumerate() {
            if bar.answered.is_some_and(|(s, _)| s.index >= len) {
                bar.answered = None;
            }
            if bar.done.is_some_and(|(s, _)| s.index >= len) {
                bar.done = None;
            }
            match bar.done {
                Some((s, _)) => self.longest_ms = self.longest_ms.max(s.at_ms - bar.sent.at_ms),
                None => {
                    self.open.insert((bar.lane, bar.correlation_id), i);
                }
            }
        }
        self.indexed = len;
    }

    /// The consumer's lane, opened by entry `index` if it has none yet.
    fn lane(&mut self, consumer: &Rc<str>, index: usize) -> u32 {
        self.lane_of(consumer).unwrap_or_else(|| {
            self.lanes.push((consumer.clone(), index));
            let lane = self.lanes.len() as u32;
            self.lane_numbers.insert(consumer.clone(), lane);
            lane
        })
    }

    fn mark(&mut self, lane: u32, e: &TraceEvent, kind: MarkKind) {
        self.marks.push(MarkRecord {
            lane,
            at: stamp(e),
            kind,
        });
    }

    fn add(&mut self, e: &TraceEvent) {
        match &e.kind {
            TraceKind::RequestSent {
                consumer,
                api,
                correlation_id,
                generation_id,
                ..
            } => {
                let lane = self.lane(consumer, e.index);
                self.open.insert((lane, *correlation_id), self.bars.len());
                self.bars.push(BarRecord {
                    lane,
                    api: *api,
                    correlation_id: *correlation_id,
                    sent: stamp(e),
                    epoch: (*api == MessageApi::ConsumerGroupHeartbeat).then_some(*generation_id),
                    answered: None,
                    done: None,
                });
            }
            TraceKind::ResponseSent {
                consumer,
                correlation_id,
                error_code,
                error,
                ..
            } => {
                if let Some(bar) = self.open_bar(consumer, *correlation_id) {
                    let error = (*error_code != ErrorCode::None).then_some(*error);
                    bar.answered = Some((stamp(e), error));
                }
            }
            TraceKind::ResponseDelivered {
                consumer,
                correlation_id,
                ..
            } => self.end(consumer, *correlation_id, e, End::Answered),
            TraceKind::MessageLost {
                consumer,
                correlation_id,
                ..
            } => self.end(consumer, *correlation_id, e, End::Lost),
            TraceKind::RequestTimedOut {
                consumer,
                correlation_id,
                ..
            } => self.end(consumer, *correlation_id, e, End::TimedOut),
            TraceKind::Coordinator { event } => match event {
                EventKind::StateChanged { to, .. } | EventKind::Loaded { state: to, .. } => {
                    self.mark(0, e, MarkKind::State { state: *to })
                }
                EventKind::TimerFired { key } => self.mark(
                    0,
                    e,
                    MarkKind::Timer {
                        key: alloc::format!("{key}"),
                    },
                ),
                _ => {}
            },
            TraceKind::Lifecycle { consumer, what } => {
                let lane = self.lane(consumer, e.index);
                self.mark(lane, e, MarkKind::Life { what: *what });
            }
            TraceKind::ClientExpired { consumer, expiry } => {
                let lane = self.lane(consumer, e.index);
                self.mark(lane, e, MarkKind::Expiry { expiry: *expiry });
            }
            TraceKind::Action { action } => match &**action {
                Action::Cut { consumer } | Action::Heal { consumer } => {
                    let kind = if matches!(**action, Action::Cut { .. }) {
                        MarkKind::Cut
                    } else {
                        MarkKind::Heal
                    };
                    if let Some(lane) = self.lane_of(consumer) {
                        self.mark(lane, e, kind);
                    }
                }
                Action::Failover { .. } | Action::Unload { .. } => {
                    self.mark(0, e, MarkKind::Failover)
                }
                _ => {}
            },
            _ => {}
        }
    }

    fn lane_of(&self, consumer: &str) -> Option<u32> {
        self.lane_numbers.get(consumer).copied()
    }

    fn open_bar(&mut self, consumer: &str, correlation_id: i32) -> Option<&mut BarRecord> {
        let lane = self.lane_of(consumer)?;
        let i = *self.open.get(&(lane, correlation_id))?;
        self.bars.get_mut(i)
    }

    fn end(&mut self, consumer: &str, correlation_id: i32, e: &TraceEvent, how: End) {
        let Some(lane) = self.lane_of(consumer) else {
            return;
        };
        let Some(i) = self.open.remove(&(lane, correlation_id)) else {
            return;
        };
        if let Some(bar) = self.bars.get_mut(i) {
            bar.done = Some((stamp(e), how));
            self.longest_ms = self.longest_ms.max(e.at_ms - bar.sent.at_ms);
        }
    }

    /// What the timeline shows of the trace's first `len` entries, in the `window_ms` before
    /// `now_ms` (the run's now, or an earlier end the view was panned back to). Bars closer than `resolution_ms` (about a pixel) in one lane and API are
    /// merged, except errors, losses, time-outs, open bars and the bar of entry `keep`.
    pub fn window(
        &self,
        len: usize,
        now_ms: i64,
        window_ms: i64,
        resolution_ms: i64,
        keep: Option<usize>,
        rows: Option<RowWindow>,
    ) -> TimelineWindow {
        let to_ms = now_ms.max(1);
        let from_ms = (to_ms - window_ms.max(1)).max(0);
        let all: Vec<Rc<str>> = self
            .lanes
            .iter()
            .take_while(|l| l.1 < len)
            .map(|l| l.0.clone())
            .collect();
        let lanes = RowWindow::of(rows, &all).to_vec();
        let first = rows.map_or(0, |w| w.from.min(all.len()));
        // A lane's number in the window: the coordinator's stays 0; a consumer's outside the
        // window has none.
        let shown = |lane: u32| -> Option<u32> {
            if lane == 0 {
                return Some(0);
            }
            let k = (lane as usize - 1).checked_sub(first)?;
            (k < lanes.len()).then_some(k as u32 + 1)
        };
        // Bars sent before the window by more than the longest request took cannot reach into
        // it, unless they are still open: walk back to there, then add the open ones.
        let hi = self.bars.partition_point(|b| b.sent.index < len);
        // (Panned back: bars sent after the window's end are not walked.)
        let hi = self.bars[..hi].partition_point(|b| b.sent.at_ms <= to_ms);
        let horizon = from_ms - self.longest_ms;
        let mut picked: Vec<usize> = Vec::new();
        let mut i = hi;
        while i > 0 && self.bars[i - 1].sent.at_ms >= horizon {
            i -= 1;
            picked.push(i);
        }
        picked.reverse();
        let earliest = i;
        let mut older: Vec<usize> = self
            .open
            .values()
            .copied()
            .filter(|&b| b < earliest)
            .collect();
        older.sort_unstable();
        older.extend(picked);
        let mut bars: Vec<Bar> = Vec::new();
        let mut last_of: BTreeMap<(u32, MessageApi), usize> = BTreeMap::new();
        for b in older {
            let rec = &self.bars[b];
            let Some(lane) = shown(rec.lane) else {
                continue;
            };
            let done = rec.done.filter(|(s, _)| s.index < len);
            let end_ms = done.map_or(now_ms, |(s, _)| s.at_ms);
            if end_ms < from_ms || rec.sent.at_ms > to_ms {
                continue;
            }
            let error = rec
                .answered
                .filter(|(s, _)| s.index < len)
                .and_then(|(_, e)| e);
            let bar = Bar {
                lane,
                api: rec.api,
                correlation_id: rec.correlation_id,
                sent_ms: rec.sent.at_ms,
                end_ms,
                index: rec.sent.index,
                open: done.is_none(),
                error,
                lost: matches!(done, Some((_, End::Lost))),
                timed_out: matches!(done, Some((_, End::TimedOut))),
                merged: 1,
                epoch: rec.epoch,
            };
            let plain = |b: &Bar| {
                !b.open && b.error.is_none() && !b.lost && !b.timed_out && Some(b.index) != keep
            };
            let key = (bar.lane, bar.api);
            if resolution_ms > 0
                && plain(&bar)
                && let Some(&at) = last_of.get(&key)
                && plain(&bars[at])
                && bars[at].epoch == bar.epoch
                && bar.sent_ms - bars[at].end_ms <= resolution_ms
            {
                let into = &mut bars[at];
                into.end_ms = into.end_ms.max(bar.end_ms);
                into.merged += 1;
                continue;
            }
            last_of.insert(key, bars.len());
            bars.push(bar);
        }
        let hi = self.marks.partition_point(|m| m.at.index < len);
        // (Panned back: nothing after the window's end.)
        let hi = self.marks[..hi].partition_point(|m| m.at.at_ms <= to_ms);
        let lo = self.marks[..hi].partition_point(|m| m.at.at_ms < from_ms);
        let marks = self.marks[lo..hi]
            .iter()
            .filter_map(|m| {
                Some(Mark {
                    lane: shown(m.lane)?,
                    at_ms: m.at.at_ms,
                    index: m.at.index,
                    kind: m.kind.clone(),
                })
            })
            .collect();
        TimelineWindow {
            from_ms,
            to_ms,
            lane_count: all.len(),
            lanes,
            bars,
            marks,
        }
    }
}

fn stamp(e: &TraceEvent) -> Stamp {
    Stamp {
        at_ms: e.at_ms,
        index: e.index,
    }
}
