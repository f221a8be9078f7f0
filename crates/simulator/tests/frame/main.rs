//! The frame: what the page draws comes from the model. The timeline's window agrees with bars
//! paired up from the trace by hand, at any step and after going back; the assignment table
//! names each generation's leader and what each consumer took; the step window and the
//! narration are the current step's.

#![allow(clippy::unwrap_used)]
use group_coordinator::GroupState;
use group_simulator::TimelineWindow;
use group_simulator::builtin::{large_group, scenario};
use group_simulator::frame::{Actor, FrameRequest, StepsRequest, TimelineRequest};
use group_simulator::player::Player;
use group_simulator::trace::tps;
use group_simulator::trace::{Lang, TraceKind};

mod choices_and_windows;
mod tables_and_steps;
mod timeline;

fn timeline(p: &Player, window_ms: i64, resolution_ms: i64) -> TimelineWindow {
    panned(p, window_ms, resolution_ms, None)
}

/// The window ending at `end_ms` (panned back), or at now.
fn panned(p: &Player, window_ms: i64, resolution_ms: i64, end_ms: Option<i64>) -> TimelineWindow {
    p.frame(&FrameRequest {
        timeline: Some(TimelineRequest {
            window_ms,
            resolution_ms,
            selected: None,
            end_ms,
        }),
        ..FrameRequest::default()
    })
    .timeline
    .unwrap()
}

/// (lane name, api, sent, end, index, open, error, lost, timed out) of every bar in the window,
/// paired up from the trace by the simplest means: every request, and whatever ended it.
type Plain = (
    String,
    String,
    i64,
    i64,
    usize,
    bool,
    Option<String>,
    bool,
    bool,
);

fn by_hand(p: &Player, window_ms: i64, end_ms: Option<i64>) -> Vec<Plain> {
    let trace = p.simulation().trace();
    let now = p.simulation().now();
    let edge = end_ms.map_or(now, |e| e.clamp(0, now));
    let to = edge.max(1);
    let from = (to - window_ms).max(0);
    let mut out = Vec::new();
    for (i, e) in trace.iter().enumerate() {
        let TraceKind::RequestSent {
            consumer,
            api,
            correlation_id,
            ..
        } = &e.kind
        else {
            continue;
        };
        let mut end = None;
        let mut error = None;
        for later in trace.iter().skip(i + 1) {
            let hit = |c: &str, id: i32| c == &**consumer && id == *correlation_id;
            match &later.kind {
                TraceKind::ResponseSent {
                    consumer: c,
                    correlation_id: id,
                    error: name,
                    ..
                } if hit(c, *id) && *name != "NONE" => error = Some(name.to_string()),
                TraceKind::ResponseDelivered {
                    consumer: c,
                    correlation_id: id,
                    ..
                } if hit(c, *id) => end = Some((later.at_ms, false, false)),
                TraceKind::MessageLost {
                    consumer: c,
                    correlation_id: id,
                    ..
                } if hit(c, *id) => end = Some((later.at_ms, true, false)),
                TraceKind::RequestTimedOut {
                    consumer: c,
                    correlation_id: id,
                    ..
                } if hit(c, *id) => end = Some((later.at_ms, false, true)),
                _ => {}
            }
            if end.is_some() {
                break;
            }
        }
        let end_ms = end.map_or(edge, |e| e.0);
        if end_ms < from || e.at_ms > to {
            continue;
        }
        out.push((
            consumer.to_string(),
            api.name().to_string(),
            e.at_ms,
            end_ms,
            e.index,
            end.is_none(),
            error,
            end.is_some_and(|e| e.1),
            end.is_some_and(|e| e.2),
        ));
    }
    out
}

fn plain(w: &TimelineWindow) -> Vec<Plain> {
    w.bars
        .iter()
        .map(|b| {
            (
                w.lanes[b.lane as usize - 1].to_string(),
                b.api.name().to_string(),
                b.sent_ms,
                b.end_ms,
                b.index,
                b.open,
                b.error.map(str::to_string),
                b.lost,
                b.timed_out,
            )
        })
        .collect()
}
