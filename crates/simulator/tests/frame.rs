//! The frame: what the page draws comes from the model. The timeline's window agrees with bars
//! paired up from the trace by hand, at any step and after going back; the assignment table
//! names each generation's leader and what each consumer took; the step window and the
//! narration are the current step's.

#![allow(clippy::unwrap_used)]
use group_coordinator::GroupState;
use group_simulator::builtin::{large_group, scenario};
use group_simulator::frame::{Actor, FrameRequest, StepsRequest, TimelineRequest};
use group_simulator::player::Player;
use group_simulator::timeline::TimelineWindow;
use group_simulator::trace::tps;
use group_simulator::trace::{Lang, TraceKind};

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

#[test]
fn the_timeline_window_is_the_trace_paired_up_at_any_step_and_after_going_back() {
    for name in [
        "failover-mid-rebalance",
        "crash-session-timeout",
        "zombie-fenced",
    ] {
        let mut p = Player::new(scenario(name).unwrap(), Vec::new()).unwrap();
        p.seek(1_500).unwrap();
        let end = p.cursor();
        for target in [end, end / 3, 40, end - 1, end * 2 / 3, 7] {
            p.seek(target).unwrap();
            let now = p.simulation().now();
            for window in [2_000, 30_000, 3_600_000] {
                // Following now, and panned back (to half-way, to a second before now).
                for end in [None, Some(now / 2), Some(now - 1_000), Some(now + 5_000)] {
                    let w = panned(&p, window, 0, end);
                    assert_eq!(
                        plain(&w),
                        by_hand(&p, window, end),
                        "{name} at {target}, {window} ms, ending at {end:?}"
                    );
                    assert!(w.bars.iter().all(|b| b.merged == 1));
                    assert!(
                        w.marks
                            .iter()
                            .all(|m| m.at_ms <= w.to_ms && m.at_ms >= w.from_ms)
                    );
                }
            }
        }
    }
}

#[test]
fn a_coarse_timeline_merges_only_plain_neighbours() {
    let mut p = Player::new(large_group(20, 2, 600_000), Vec::new()).unwrap();
    while p.simulation().now() < 300_000 && p.forward().unwrap() {}
    let fine = timeline(&p, 300_000, 0);
    let coarse = timeline(&p, 300_000, 10_000);
    assert!(
        coarse.bars.len() * 4 < fine.bars.len(),
        "{} of {}",
        coarse.bars.len(),
        fine.bars.len()
    );
    // Every bar is drawn within one of the merged ones, and nothing that stands out is merged.
    assert_eq!(
        coarse.bars.iter().map(|b| b.merged as usize).sum::<usize>(),
        fine.bars.len()
    );
    for b in &fine.bars {
        let covered = coarse.bars.iter().any(|c| {
            c.lane == b.lane && c.api == b.api && c.sent_ms <= b.sent_ms && b.end_ms <= c.end_ms
        });
        assert!(covered, "{b:?}");
    }
    for c in coarse.bars.iter().filter(|c| c.merged > 1) {
        assert!(!c.open && c.error.is_none() && !c.lost && !c.timed_out);
    }
}

#[test]
fn the_marks_are_the_coordinators_states_and_timers_and_the_consumers_faults() {
    let mut p = Player::new(scenario("crash-session-timeout").unwrap(), Vec::new()).unwrap();
    while p.forward().unwrap() && !p.past_end() {}
    let w = timeline(&p, 3_600_000, 0);
    let kinds: Vec<String> = w
        .marks
        .iter()
        .map(|m| {
            serde_json::to_value(&m.kind).unwrap()["type"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    for kind in ["state", "timer", "life"] {
        assert!(kinds.iter().any(|k| k == kind), "{kind} in {kinds:?}");
    }
    let crash = w
        .marks
        .iter()
        .find(|m| serde_json::to_value(&m.kind).unwrap()["what"] == "crashed")
        .unwrap();
    assert_ne!(crash.lane, 0, "a crash is on its consumer's lane");
    let states: Vec<_> = p
        .simulation()
        .trace()
        .iter()
        .filter(|e| {
            matches!(
                e.kind,
                TraceKind::Coordinator {
                    event: group_coordinator::event::EventKind::StateChanged { .. }
                }
            )
        })
        .map(|e| e.index)
        .collect();
    let marked: Vec<_> = w
        .marks
        .iter()
        .filter(|m| serde_json::to_value(&m.kind).unwrap()["type"] == "state")
        .map(|m| m.index)
        .collect();
    assert_eq!(marked, states, "every state change, once");
}

#[test]
fn the_assignment_table_names_leaders_and_what_each_consumer_took() {
    let mut p = Player::new(scenario("normal-rebalance").unwrap(), Vec::new()).unwrap();
    while p.forward().unwrap() && !p.past_end() {}
    let f = p.frame(&FrameRequest {
        assignments: Some(8),
        ..FrameRequest::default()
    });
    let table = f.assignments.unwrap();
    assert!(table.generations.len() >= 2, "{table:?}");
    let trace = p.simulation().trace();
    for (col, g) in table.generations.iter().enumerate() {
        // The leader is the consumer whose JoinGroup response named it leader.
        assert!(
            g.leader.is_some(),
            "generation {} has a leader",
            g.generation_id
        );
        for row in &table.rows {
            let last = trace
                .iter()
                .filter_map(|e| match &e.kind {
                    TraceKind::Assigned {
                        consumer,
                        generation_id,
                        assigned,
                        ..
                    } if **consumer == *row.consumer && *generation_id == g.generation_id => {
                        Some((e.index, tps(assigned)))
                    }
                    _ => None,
                })
                .last();
            let cell = row.cells[col].as_ref();
            assert_eq!(
                cell.map(|c| (c.index, c.assigned.clone())),
                last,
                "{} in {}",
                row.consumer,
                g.generation_id
            );
        }
    }
    // The leader's name is the group's leader's member id, named.
    let sim = p.simulation();
    let leader_id = sim
        .coordinator()
        .describe(&sim.scenario().group_id)
        .unwrap()
        .leader_id
        .unwrap();
    let named = p
        .simulation()
        .snapshot()
        .consumers
        .into_iter()
        .find(|c| c.member_id == leader_id)
        .unwrap()
        .name;
    assert_eq!(f.group.unwrap().leader.as_deref(), Some(named.as_str()));
}

#[test]
fn steps_and_narration_are_the_current_steps() {
    let mut p = Player::new(scenario("leave-while-stable").unwrap(), Vec::new()).unwrap();
    p.seek(120).unwrap();
    let f = p.frame(&FrameRequest {
        lang: Lang::Zh,
        steps: Some(StepsRequest {
            from: None,
            span: 10,
            around: None,
        }),
        ..FrameRequest::default()
    });
    let steps = f.steps.unwrap();
    assert_eq!((steps.from, steps.to, steps.total), (110, 120, 120));
    assert_eq!(steps.rows.len(), 10);
    let last = steps.rows.last().unwrap();
    assert_eq!(last.step, 120);
    let record = &p.steps()[119];
    assert_eq!((last.first, last.end), (record.first, record.end));
    let trace = p.simulation().trace();
    // What the page shows: the narration with member ids shortened.
    let all: Vec<String> = (record.first..record.end)
        .map(|i| group_simulator::narration::short_ids(&trace.get(i).unwrap().narrate(Lang::Zh)))
        .collect();
    let lines: Vec<String> = (record.first..record.end)
        .filter(|&i| !matches!(trace.get(i).unwrap().kind, TraceKind::Narration { .. }))
        .map(|i| group_simulator::narration::short_ids(&trace.get(i).unwrap().narrate(Lang::Zh)))
        .collect();
    assert_eq!(
        f.narration
            .lines
            .iter()
            .map(|l| l.text.clone())
            .collect::<Vec<_>>(),
        lines
    );
    // The step table lists every entry of the step, the scenario's note among them.
    assert_eq!(
        last.lines
            .iter()
            .map(|l| l.text.clone())
            .collect::<Vec<_>>(),
        all
    );
    assert_eq!(
        last.actor,
        Actor::of(&trace.get(record.first).unwrap().kind)
    );
    // The note is the scenario's last before now.
    let note = trace
        .iter()
        .filter_map(|e| match &e.kind {
            TraceKind::Narration { note, .. } => Some(note.zh.clone()),
            _ => None,
        })
        .last();
    assert_eq!(f.narration.note, note);
    // Anchored windows stay inside the run.
    let f = p.frame(&FrameRequest {
        steps: Some(StepsRequest {
            from: Some(500),
            span: 10,
            around: None,
        }),
        ..FrameRequest::default()
    });
    assert_eq!(f.steps.unwrap().from, 110);
}

#[test]
fn the_state_machine_shows_the_last_transition_and_none_after_a_load() {
    let mut p = Player::new(scenario("leave-while-stable").unwrap(), Vec::new()).unwrap();
    p.seek(200).unwrap();
    let f = p.frame(&FrameRequest::default());
    let last = f.machine.last.clone().unwrap();
    assert_eq!(f.machine.state, last.to);
    let told = p
        .simulation()
        .trace()
        .iter()
        .filter_map(|e| match &e.kind {
            TraceKind::Coordinator {
                event: group_coordinator::event::EventKind::StateChanged { from, to, .. },
            } => Some((*from, *to, e.index)),
            _ => None,
        })
        .last()
        .unwrap();
    assert_eq!((last.from, last.to, last.index), told);
    // It says why it fired this time, in the narration's words.
    let cause = match &p.simulation().trace().get(last.index).unwrap().kind {
        TraceKind::Coordinator {
            event: group_coordinator::event::EventKind::StateChanged { cause, .. },
        } => group_simulator::narration::cause_text(cause, Lang::En),
        _ => unreachable!(),
    };
    assert!(!cause.is_empty());
    assert_eq!(last.cause, cause);
    // Before the group exists: Empty, nothing fired.
    p.seek(0).unwrap();
    let f = p.frame(&FrameRequest::default());
    assert_eq!((f.machine.state, f.machine.last), (GroupState::Empty, None));
}

#[test]
fn the_scrubber_spans_the_known_future_until_a_fork_drops_it() {
    let mut p = Player::new(scenario("leave-while-stable").unwrap(), Vec::new()).unwrap();
    p.seek(300).unwrap();
    p.seek(100).unwrap();
    let f = p.frame(&FrameRequest::default());
    assert_eq!((f.cursor, f.known_steps), (100, 300));
    p.act(group_simulator::Action::Crash {
        consumer: "A".into(),
    })
    .unwrap();
    let f = p.frame(&FrameRequest::default());
    assert_eq!((f.cursor, f.known_steps), (100, 100));
}

#[test]
fn a_note_after_the_users_first_action_is_marked_as_possibly_stale() {
    let note_at = |p: &Player| p.frame(&FrameRequest::default()).narration;
    let mut plain = Player::new(scenario("leave-while-stable").unwrap(), Vec::new()).unwrap();
    plain.seek(300).unwrap();
    assert!(note_at(&plain).note.is_some());
    assert!(!note_at(&plain).note_stale, "the scenario as scripted");
    let mut p = Player::new(scenario("leave-while-stable").unwrap(), Vec::new()).unwrap();
    p.seek(10).unwrap();
    let before = note_at(&p);
    p.act(group_simulator::Action::Crash {
        consumer: "A".into(),
    })
    .unwrap();
    assert!(
        !note_at(&p).note_stale,
        "the note before the action still applies"
    );
    // A note written before an action, a step on: no longer the run shown.
    let mut q = Player::new(scenario("leave-while-stable").unwrap(), Vec::new()).unwrap();
    q.seek(50).unwrap();
    let scripted = note_at(&q);
    assert!(scripted.note.is_some(), "the key moment's note (step 42)");
    q.act(group_simulator::Action::Cut {
        consumer: "A".into(),
    })
    .unwrap();
    assert!(
        !note_at(&q).note_stale,
        "at the action's own step it still applies"
    );
    q.seek(51).unwrap();
    let next = note_at(&q);
    assert_eq!(next.note, scripted.note, "no new note yet");
    assert!(
        next.note_stale,
        "a scripted headline after the reader's action is marked"
    );
    q.seek(49).unwrap();
    assert!(!note_at(&q).note_stale, "before the action: not marked");
    p.seek(300).unwrap();
    let after = note_at(&p);
    assert_ne!(after.note, before.note, "a later note");
    assert!(after.note_stale, "written for the scenario as scripted");
    let f = p.frame(&FrameRequest::default());
    assert_eq!(f.actions.len(), 1);
    assert_eq!(
        (f.actions[0].step, f.actions[0].text.as_str()),
        (10, "crash A")
    );
    p.seek(5).unwrap();
    assert!(!note_at(&p).note_stale, "back before the action");
}

#[test]
fn the_user_chooses_which_message_arrives_first_or_drops_one() {
    use group_simulator::Action;
    let upcoming = |p: &Player| {
        p.frame(&FrameRequest {
            upcoming: Some(20),
            ..FrameRequest::default()
        })
        .upcoming
        .unwrap()
    };
    // Find a moment with requests of two consumers on their way to the coordinator.
    let mut p = Player::new(
        scenario("leave-while-preparing-rebalance").unwrap(),
        Vec::new(),
    )
    .unwrap();
    let (first, second) = loop {
        assert!(p.forward().unwrap() && p.cursor() < 2_000, "no race found");
        let to_broker: Vec<_> = upcoming(&p)
            .into_iter()
            .filter_map(|u| u.message)
            .filter(|m| !m.response && m.first_on_link)
            .collect();
        if let [a, b, ..] = to_broker.as_slice()
            && a.consumer != b.consumer
        {
            break (a.clone(), b.clone());
        }
    };
    // Play the other order: the second arrives first.
    p.act(Action::DeliverNow {
        consumer: second.consumer.to_string(),
        correlation_id: second.correlation_id,
        response: false,
    })
    .unwrap();
    let from = p.simulation().trace().len();
    while p.simulation().trace().len() == from {
        p.forward().unwrap();
    }
    let delivered: Vec<i32> = p
        .simulation()
        .trace()
        .iter_from(from)
        .filter_map(|e| match &e.kind {
            TraceKind::RequestDelivered { correlation_id, .. } => Some(*correlation_id),
            _ => None,
        })
        .collect();
    assert_eq!(
        delivered.first(),
        Some(&second.correlation_id),
        "the chosen one arrived first"
    );
    assert_ne!(first.correlation_id, second.correlation_id);
    // A message behind another on its link cannot jump it; a dropped one is lost, and said so.
    let mut q = Player::new(scenario("leave-while-stable").unwrap(), Vec::new()).unwrap();
    let target = loop {
        assert!(
            q.forward().unwrap() && q.cursor() < 2_000,
            "nothing in flight"
        );
        if let Some(m) = upcoming(&q)
            .into_iter()
            .filter_map(|u| u.message)
            .find(|m| !m.response)
        {
            break m;
        }
    };
    assert!(
        q.act(Action::DeliverNow {
            consumer: target.consumer.to_string(),
            correlation_id: target.correlation_id + 1_000,
            response: false,
        })
        .is_err()
    );
    q.act(Action::Drop {
        consumer: target.consumer.to_string(),
        correlation_id: target.correlation_id,
        response: false,
    })
    .unwrap();
    let lost = q.simulation().trace().iter().any(|e| {
        matches!(&e.kind, TraceKind::MessageLost { correlation_id, reason: group_simulator::trace::LossReason::Dropped, .. } if *correlation_id == target.correlation_id)
    });
    assert!(lost, "the drop is in the trace");
    assert!(
        upcoming(&q)
            .iter()
            .filter_map(|u| u.message.as_ref())
            .all(|m| m.correlation_id != target.correlation_id || m.response)
    );
}

#[test]
fn what_happens_next_leaves_out_timers_that_would_fire_as_no_ops() {
    let mut p = Player::new(scenario("leave-while-stable").unwrap(), Vec::new()).unwrap();
    // Past C's close (the key moment) and its LeaveGroup: C's own timers are stale now.
    let k = p.seek_key(20_000).unwrap().unwrap();
    p.seek(k + 40).unwrap();
    let next = p
        .frame(&FrameRequest {
            upcoming: Some(30),
            ..FrameRequest::default()
        })
        .upcoming
        .unwrap();
    assert!(!next.is_empty());
    assert!(
        next.iter().all(|u| !u.text.starts_with("C: ")),
        "{:?}",
        next.iter().map(|u| &u.text).collect::<Vec<_>>()
    );
    assert!(
        next.windows(2).all(|w| w[0].at_ms <= w[1].at_ms),
        "in order"
    );
}

/// Partition lists read as ranges (three or more consecutive partitions), and the table can
/// leave out the generations in which nothing moved: each left-out generation is named, every
/// shown one moved something (or is the last), and none is lost between the two.
#[test]
fn the_assignment_table_shows_ranges_and_can_leave_out_generations_where_nothing_moved() {
    use group_simulator::Action;
    use group_simulator::player::TimedAction;
    assert_eq!(
        tps(&[
            ("orders".into(), 0),
            ("orders".into(), 1),
            ("orders".into(), 2),
            ("orders".into(), 3),
            ("orders".into(), 5),
            ("orders".into(), 7),
            ("orders".into(), 8),
            ("audit".into(), 4),
        ]),
        "orders-0..3,5,7,8 audit-4"
    );
    // A consumer that joins for a topic that does not exist makes a generation in which
    // nothing moves (it gets nothing, the others keep what they had), and so does its leaving.
    let actions = vec![
        TimedAction {
            step: 100,
            action: Action::AddConsumer(group_simulator::scenario::ConsumerSpec {
                name: "D".into(),
                topics: vec!["nowhere".into()],
                pattern: None,
                config: Default::default(),
                start_ms: 0,
                processing_ms: 100,
                network: None,
                application: None,
            }),
        },
        TimedAction {
            step: 900,
            action: Action::Close {
                consumer: "D".into(),
            },
        },
    ];
    let mut p = Player::new(scenario("leave-while-stable").unwrap(), actions).unwrap();
    let table = |p: &Player, changed_only: bool| {
        p.frame(&FrameRequest {
            assignments: Some(50),
            assignments_changed_only: changed_only,
            ..FrameRequest::default()
        })
        .assignments
        .unwrap()
    };
    let mut found = false;
    for _ in 0..40 {
        for _ in 0..40 {
            p.forward().unwrap();
        }
        let all = table(&p, false);
        let some = table(&p, true);
        assert!(all.unchanged.is_empty());
        let ids = |t: &group_simulator::assignments::AssignmentTable| {
            t.generations
                .iter()
                .map(|g| g.generation_id)
                .collect::<Vec<_>>()
        };
        let mut together = ids(&some);
        together.extend(&some.unchanged);
        together.sort();
        assert_eq!(together, ids(&all), "every generation is shown or named");
        // Each shown generation (but the last) gave some consumer other partitions than the
        // generation before it shown in the full table.
        let full = ids(&all);
        for (i, g) in some.generations.iter().enumerate() {
            if i + 1 == some.generations.len() {
                continue;
            }
            let k = full.iter().position(|&x| x == g.generation_id).unwrap();
            let moved = k == 0
                || all.rows.iter().any(|r| {
                    let was = r.cells[..k]
                        .iter()
                        .rev()
                        .flatten()
                        .next()
                        .map(|c| &c.assigned);
                    r.cells[k]
                        .as_ref()
                        .is_some_and(|c| Some(&c.assigned) != was)
                });
            assert!(moved, "generation {} moved something", g.generation_id);
        }
        found |= !some.unchanged.is_empty();
    }
    assert!(found, "a generation in which nothing moved was left out");
}

/// A selection made elsewhere (a timeline bar, an assignment cell) pages the step table to its
/// step when the window ending now does not hold it; a window that holds it stays.
#[test]
fn the_step_window_pages_to_a_selection_made_elsewhere() {
    let mut p = Player::new(scenario("leave-while-stable").unwrap(), Vec::new()).unwrap();
    p.seek(68).unwrap();
    let window = |around: Option<usize>| {
        p.frame(&FrameRequest {
            steps: Some(StepsRequest {
                from: None,
                span: 10,
                around,
            }),
            ..FrameRequest::default()
        })
        .steps
        .unwrap()
    };
    let now = window(None);
    assert_eq!((now.from, now.to), (58, 68), "ending at the current step");
    let recent = now.rows[3].first;
    assert_eq!(
        window(Some(recent)).from,
        58,
        "a selection it holds leaves it"
    );
    let old = p.known_steps()[19].first;
    let moved = window(Some(old));
    assert!(
        moved.rows.iter().any(|r| r.first <= old && old < r.end),
        "step 20's entry is in the window {}..{}",
        moved.from,
        moved.to
    );
    assert_eq!(moved.from, 14, "the selected step in the middle");
    assert_eq!(
        window(Some(usize::MAX)).from,
        58,
        "an entry of no step taken: ending now"
    );
}

/// A window of rows is that slice of the whole table, for the consumers and for the assignment
/// table alike, with the totals; a window past the end is empty, not an error.
#[test]
fn a_row_window_is_a_slice_of_the_whole() {
    use group_simulator::frame::RowWindow;
    let mut p = Player::new(large_group(120, 2, 600_000), Vec::new()).unwrap();
    p.seek(6_000).unwrap();
    let request = |rows| FrameRequest {
        assignments: Some(4),
        world: true,
        timeline: Some(TimelineRequest {
            window_ms: 600_000,
            resolution_ms: 0,
            selected: None,
            end_ms: None,
        }),
        rows,
        ..FrameRequest::default()
    };
    let whole = serde_json::to_value(p.frame(&request(None))).unwrap();
    let all = whole["consumers"].as_array().unwrap();
    let table = whole["assignments"]["rows"].as_array().unwrap();
    assert_eq!(whole["consumerCount"], 120);
    assert_eq!(all.len(), 120);
    assert_eq!(whole["assignments"]["totalRows"], 120);
    assert!(
        table
            .iter()
            .any(|r| r["cells"].as_array().unwrap().iter().any(|c| !c.is_null()))
    );
    for (from, count) in [(0, 50), (50, 50), (100, 50), (119, 1), (0, 0), (500, 50)] {
        let part =
            serde_json::to_value(p.frame(&request(Some(RowWindow { from, count })))).unwrap();
        let to = (from + count).min(120);
        let from = from.min(120);
        assert_eq!(
            part["consumers"].as_array().unwrap()[..],
            all[from..to],
            "consumers {from}..{to}"
        );
        assert_eq!(
            part["assignments"]["rows"].as_array().unwrap()[..],
            table[from..to],
            "rows {from}..{to}"
        );
        assert_eq!(part["consumerCount"], 120);
        assert_eq!(part["assignments"]["totalRows"], 120);
        assert_eq!(
            part["assignments"]["generations"],
            whole["assignments"]["generations"]
        );
        // The timeline: the coordinator's lane and those lanes, numbered within the window.
        let lanes = whole["timeline"]["lanes"].as_array().unwrap();
        assert_eq!(
            part["timeline"]["lanes"].as_array().unwrap()[..],
            lanes[from.min(lanes.len())..to.min(lanes.len())]
        );
        assert_eq!(
            part["timeline"]["laneCount"],
            whole["timeline"]["laneCount"]
        );
        for kind in ["bars", "marks"] {
            let expected: Vec<serde_json::Value> = whole["timeline"][kind]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|b| {
                    let lane = b["lane"].as_u64().unwrap() as usize;
                    let renumbered = match lane {
                        0 => 0,
                        k if (from + 1..=to).contains(&k) => k - from,
                        _ => return None,
                    };
                    let mut b = b.clone();
                    b["lane"] = renumbered.into();
                    Some(b)
                })
                .collect();
            assert_eq!(
                part["timeline"][kind].as_array().unwrap()[..],
                expected[..],
                "{kind} {from}..{to}"
            );
        }
    }
    assert_eq!(whole["timeline"]["laneCount"], 120);
}
