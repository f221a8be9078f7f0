//! The user's choice of message order, what happens next, the assignment table's ranges, the step and row windows.

use super::*;

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
        let ids = |t: &group_simulator::AssignmentTable| {
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
