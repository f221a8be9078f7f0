//! The assignment table, the steps and narration, the state machine, the scrubber, stale notes.

use super::*;

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
