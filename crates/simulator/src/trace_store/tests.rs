//! The stored trace reads back as recorded, through replays and forks.

use super::*;
use crate::trace::{Lifecycle, MemberState};
use alloc::format;
use bodies::{KeptRequest, KeptResponse};
use group_coordinator::protocol::{
    ConsumerGroupHeartbeatRequest, ConsumerGroupHeartbeatResponse, HeartbeatRequest,
    HeartbeatResponse,
};
use group_coordinator::{Request, Response};

fn name(s: &str) -> Rc<str> {
    Rc::from(s)
}

/// An entry as a reader sees it: its JSON (entries have no `PartialEq`).
fn seen(e: &TraceEvent) -> String {
    serde_json::to_string(e).unwrap()
}

fn steady(tag: i32) -> ConsumerGroupHeartbeatRequest {
    ConsumerGroupHeartbeatRequest {
        api_version: 1,
        correlation_id: tag,
        client_id: "consumer-a".into(),
        group_id: "g".into(),
        member_id: "m-1".into(),
        member_epoch: tag + 7,
        rebalance_timeout_ms: -1,
        subscribed_topic_names: None,
        topic_partitions: None,
        ..Default::default()
    }
}

fn answer(tag: i32) -> ConsumerGroupHeartbeatResponse {
    ConsumerGroupHeartbeatResponse {
        api_version: 1,
        correlation_id: tag,
        member_epoch: tag + 7,
        heartbeat_interval_ms: 5_000,
        ..Default::default()
    }
}

fn cgh_sent(consumer: &Rc<str>, tag: i32, r: ConsumerGroupHeartbeatRequest) -> TraceKind {
    TraceKind::RequestSent {
        consumer: consumer.clone(),
        api: MessageApi::ConsumerGroupHeartbeat,
        correlation_id: tag,
        generation_id: tag + 7,
        member_id: name("m-1"),
        request: Some(Rc::new(Request::ConsumerGroupHeartbeat(r))),
        consumer_protocol: true,
    }
}

fn cgh_answered(consumer: &Rc<str>, tag: i32, r: ConsumerGroupHeartbeatResponse) -> TraceKind {
    TraceKind::ResponseSent {
        consumer: consumer.clone(),
        api: MessageApi::ConsumerGroupHeartbeat,
        correlation_id: tag,
        error_code: r.error_code,
        error: r.error_code.name(),
        response: Some(Rc::new(Response::ConsumerGroupHeartbeat(r))),
    }
}

/// Entries of every packed kind, and some kept whole, with bodies of `tag`.
fn entries(tag: i32) -> Vec<TraceKind> {
    let (a, b) = (name("consumer-a"), name("consumer-b"));
    let request = Rc::new(Request::Heartbeat(HeartbeatRequest {
        correlation_id: tag,
        member_id: "m-1".into(),
        ..Default::default()
    }));
    let response = Rc::new(Response::Heartbeat(HeartbeatResponse {
        correlation_id: tag,
        error_code: ErrorCode::RebalanceInProgress,
        ..Default::default()
    }));
    alloc::vec![
        TraceKind::Lifecycle {
            consumer: a.clone(),
            what: Lifecycle::Started,
        },
        TraceKind::RequestSent {
            consumer: a.clone(),
            api: MessageApi::JoinGroup,
            correlation_id: tag,
            generation_id: -1,
            member_id: name("m-1"),
            request: Some(request),
            consumer_protocol: false,
        },
        TraceKind::RequestSent {
            consumer: b.clone(),
            api: MessageApi::Heartbeat,
            correlation_id: tag + 1,
            generation_id: 7,
            member_id: name(""),
            request: None,
            consumer_protocol: true,
        },
        TraceKind::RequestDelivered {
            consumer: a.clone(),
            api: MessageApi::JoinGroup,
            correlation_id: tag,
        },
        TraceKind::ResponseSent {
            consumer: a.clone(),
            api: MessageApi::JoinGroup,
            correlation_id: tag,
            error_code: ErrorCode::RebalanceInProgress,
            error: ErrorCode::RebalanceInProgress.name(),
            response: Some(response),
        },
        TraceKind::ResponseSent {
            consumer: b.clone(),
            api: MessageApi::Heartbeat,
            correlation_id: tag + 1,
            error_code: ErrorCode::Other(-7),
            error: ErrorCode::Other(-7).name(),
            response: None,
        },
        // An error text that is not its code's name: kept whole, so kept as it was.
        TraceKind::ResponseDelivered {
            consumer: a.clone(),
            api: MessageApi::JoinGroup,
            correlation_id: tag,
            error_code: ErrorCode::None,
            error: "something else",
        },
        TraceKind::ResponseDelivered {
            consumer: b.clone(),
            api: MessageApi::Heartbeat,
            correlation_id: tag + 1,
            error_code: ErrorCode::UnknownMemberId,
            error: ErrorCode::UnknownMemberId.name(),
        },
        TraceKind::ClientState {
            consumer: b.clone(),
            from: MemberState::Stable,
            to: MemberState::PreparingRebalance,
        },
        TraceKind::RejoinRequested {
            consumer: b.clone(),
            reason: "a reason",
        },
        // Consumer-group heartbeats: steady ones (kept packed; optional ids absent, present,
        // empty; ids not among the entry's names) and ones kept whole (a subscription, a
        // pattern, partitions; an answer with an assignment or an error message).
        cgh_sent(&a, tag, steady(tag)),
        cgh_sent(
            &b,
            tag + 2,
            ConsumerGroupHeartbeatRequest {
                instance_id: Some("i-1".into()),
                rack_id: Some(String::new()),
                server_assignor: Some("uniform".into()),
                client_id: "another client".into(),
                group_id: "another group".into(),
                ..steady(tag + 2)
            }
        ),
        cgh_sent(
            &a,
            tag + 3,
            ConsumerGroupHeartbeatRequest {
                subscribed_topic_names: Some(alloc::vec!["t".into()]),
                ..steady(tag + 3)
            }
        ),
        cgh_sent(
            &a,
            tag + 4,
            ConsumerGroupHeartbeatRequest {
                subscribed_topic_regex: Some(String::new()),
                ..steady(tag + 4)
            }
        ),
        cgh_sent(
            &a,
            tag + 5,
            ConsumerGroupHeartbeatRequest {
                topic_partitions: Some(Vec::new()),
                ..steady(tag + 5)
            }
        ),
        cgh_answered(
            &a,
            tag,
            ConsumerGroupHeartbeatResponse {
                member_id: Some("m-1".into()),
                ..answer(tag)
            }
        ),
        cgh_answered(
            &b,
            tag + 2,
            ConsumerGroupHeartbeatResponse {
                error_code: ErrorCode::FencedMemberEpoch,
                throttle_time_ms: 3,
                ..answer(tag + 2)
            }
        ),
        cgh_answered(
            &a,
            tag + 3,
            ConsumerGroupHeartbeatResponse {
                assignment: Some(Default::default()),
                ..answer(tag + 3)
            }
        ),
        cgh_answered(
            &a,
            tag + 4,
            ConsumerGroupHeartbeatResponse {
                error_message: Some("why".into()),
                ..answer(tag + 4)
            }
        ),
        // Lists of different lengths over two topics (the partitions differ with `tag`), and
        // none at all.
        TraceKind::Assigned {
            consumer: a.clone(),
            generation_id: tag,
            assigned: alloc::vec![(name("t"), tag), (name("u"), 0), (name("t"), tag + 1)].into(),
            added: alloc::vec![(name("u"), 0)].into(),
            revoked: alloc::vec![(name("t"), 7), (name("u"), 3)].into(),
            listener_ms: 250,
            consumer_protocol: false,
        },
        TraceKind::Assigned {
            consumer: b,
            generation_id: -1,
            assigned: Box::default(),
            added: Box::default(),
            revoked: Box::default(),
            listener_ms: 0,
            consumer_protocol: true,
        },
        TraceKind::Coordinator {
            event: EventKind::TimerScheduled {
                key: TimerKey::ConsumerSession("g".into(), "m-1".into()),
                deadline_ms: 45_000 + i64::from(tag),
            },
        },
        // A key without a member, and one whose member id is empty.
        TraceKind::Coordinator {
            event: EventKind::TimerScheduled {
                key: TimerKey::Join("g".into()),
                deadline_ms: i64::MAX,
            },
        },
        TraceKind::Coordinator {
            event: EventKind::TimerScheduled {
                key: TimerKey::Heartbeat("g".into(), String::new()),
                deadline_ms: -1,
            },
        },
        TraceKind::Coordinator {
            event: EventKind::ResponseParked {
                member_id: "m-2".into(),
                api: Api::SyncGroup,
                correlation_id: tag,
            },
        },
        TraceKind::Coordinator {
            event: EventKind::ConsumerMemberUpdated {
                member_id: "m-1".into(),
                state: ConsumerMemberState::UnrevokedPartitions,
                member_epoch: tag,
                previous_member_epoch: tag - 1,
            },
        },
        // Another coordinator event: kept whole.
        TraceKind::Coordinator {
            event: EventKind::TimerCancelled {
                key: TimerKey::ConsumerRebalance("g".into(), "m-1".into()),
            },
        },
    ]
}

fn record(trace: &mut Trace, kinds: Vec<TraceKind>) -> Vec<String> {
    kinds
        .into_iter()
        .map(|kind| {
            let at_ms = 1_000 * trace.len() as i64;
            let index = trace.len();
            let event = TraceEvent {
                index,
                at_ms,
                kind: kind.clone(),
            };
            trace.push(at_ms, kind);
            seen(&event)
        })
        .collect()
}

fn read(trace: &Trace) -> Vec<String> {
    trace.iter().map(|e| seen(&e)).collect()
}

#[test]
fn every_entry_reads_back_as_it_was_recorded() {
    let mut trace = Trace::default();
    let mut expected = record(&mut trace, entries(10));
    expected.extend(record(&mut trace, entries(20)));
    assert_eq!(read(&trace), expected);
    for (i, e) in expected.iter().enumerate() {
        assert_eq!(&seen(&trace.get(i).unwrap()), e);
        assert_eq!(trace.at_ms(i), Some(1_000 * i as i64));
    }
    assert!(trace.get(expected.len()).is_none());
    assert_eq!(read_from(&trace, 5), expected[5..]);
    // Each name once, whichever allocation it came in: the consumers, "m-1", "", the topics
    // "t" and "u", "g", "m-2", and the ids only the heartbeats name: "i-1", "uniform",
    // "another client", "another group".
    assert_eq!(trace.names.list.len(), 12);
    // Per half, a Heartbeat's and five consumer-group heartbeats, two of them packed; a
    // Heartbeat's answer and four consumer-group ones, two of them packed.
    let packed = |requests: usize, responses: usize| (requests, responses);
    let requests = &trace.bodies.requests;
    let responses = &trace.bodies.responses;
    assert_eq!(
        packed(
            requests
                .iter()
                .filter(|r| matches!(r, KeptRequest::Heartbeat(_)))
                .count(),
            responses
                .iter()
                .filter(|r| matches!(r, KeptResponse::Heartbeat(_)))
                .count(),
        ),
        (4, 4)
    );
    assert_eq!((requests.len(), responses.len()), (12, 10));
}

fn read_from(trace: &Trace, from: usize) -> Vec<String> {
    trace.iter_from(from).map(|e| seen(&e)).collect()
}

/// A name's address is trusted only when it is the table's own copy: a name freed and
/// another allocated in its place must not be taken for it.
#[test]
fn a_freed_names_address_is_not_taken_for_the_next_name() {
    let mut trace = Trace::default();
    let mut expected = Vec::new();
    for i in 0..2_000 {
        // A fresh allocation each time, dropped after the entry: the allocator hands the
        // same addresses out again.
        let consumer: Rc<str> = Rc::from(format!("consumer-{}", i % 37).as_str());
        expected.extend(record(
            &mut trace,
            alloc::vec![TraceKind::RequestDelivered {
                consumer,
                api: MessageApi::Heartbeat,
                correlation_id: i,
            }],
        ));
    }
    assert_eq!(read(&trace), expected);
    assert_eq!(trace.names.list.len(), 37);
}

#[test]
fn a_replay_writes_over_its_entries_and_their_bodies_and_a_fork_drops_the_future() {
    let mut trace = Trace::default();
    let first = record(&mut trace, entries(10));
    let second = record(&mut trace, entries(20));
    let all: Vec<String> = first.iter().chain(&second).cloned().collect();
    // Back to the end of the first half, and the second recorded again: same entries, no
    // new bodies.
    trace.rewind(first.len());
    assert_eq!(read(&trace), first);
    assert_eq!(record(&mut trace, entries(20)), second);
    assert_eq!(read(&trace), all);
    assert_eq!(trace.bodies.requests.len(), 12);
    // Each half keeps its Assigned entries' partitions: two headers and six partitions each.
    let half = 2 * 2 + 6;
    assert_eq!(trace.bodies.partitions.len(), 2 * half);
    // Back again, and a different future: the fork drops the old one and its bodies.
    trace.rewind(first.len());
    trace.forget_future();
    assert_eq!(read(&trace), first);
    assert_eq!(trace.bodies.requests.len(), 6);
    assert_eq!(trace.bodies.responses.len(), 5);
    assert_eq!(trace.bodies.partitions.len(), half);
    let third = record(&mut trace, entries(30));
    assert_eq!(read(&trace)[first.len()..], third);
    assert_eq!(trace.bodies.partitions.len(), 2 * half);
    assert!(
        read(&trace)
            .iter()
            .any(|e| e.contains("\"correlationId\":30"))
    );
}

#[test]
fn a_counted_trace_keeps_nothing() {
    let mut trace = Trace::default();
    record(&mut trace, entries(10));
    trace.count_only();
    record(&mut trace, entries(20));
    assert_eq!(trace.len(), 2 * entries(0).len());
    assert!(trace.get(0).is_none() && trace.iter().next().is_none());
    assert!(trace.names.list.is_empty() && trace.bodies.requests.is_empty());
}

/// What the trace counts it holds follows its bodies: a SyncGroup answer of a large assignment
/// weighs at least that assignment, a replay counts nothing twice, and a fork counts only what
/// is left.
#[test]
fn kept_bytes_follow_the_bodies_through_replays_and_forks() {
    let consumer = name("consumer-a");
    let synced = |tag: i32, bytes: usize| TraceKind::ResponseSent {
        consumer: consumer.clone(),
        api: MessageApi::SyncGroup,
        correlation_id: tag,
        error_code: ErrorCode::None,
        error: ErrorCode::None.name(),
        response: Some(Rc::new(Response::SyncGroup(
            group_coordinator::protocol::SyncGroupResponse {
                correlation_id: tag,
                assignment: alloc::vec![7u8; bytes].into(),
                ..Default::default()
            },
        ))),
    };
    let mut trace = Trace::default();
    trace.push(0, synced(1, 10));
    let small = trace.bodies.whole_bytes;
    assert!(small > 10, "{small}");
    assert!(trace.kept_bytes() >= small + CHUNK * size_of::<Stored>());
    trace.push(1, synced(2, 100_000));
    let both = trace.bodies.whole_bytes;
    assert!(both - small >= 100_000, "{both} - {small}");
    // Replayed: written over itself, counted once.
    trace.rewind(1);
    trace.push(1, synced(2, 100_000));
    assert_eq!(trace.bodies.whole_bytes, both);
    // Forked after the first: the large one is dropped, and so is its count.
    trace.rewind(1);
    trace.forget_future();
    assert_eq!(trace.bodies.whole_bytes, small);
    // An entry kept whole counts too, and a fork counts again what is left.
    let before = trace.kept_bytes();
    trace.push(
        2,
        TraceKind::Lifecycle {
            consumer: consumer.clone(),
            what: Lifecycle::Started,
        },
    );
    assert_eq!(trace.kept_bytes(), before + WHOLE_BYTES);
    trace.rewind(1);
    trace.forget_future();
    assert_eq!(trace.kept_bytes(), before);
}
