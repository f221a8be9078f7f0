//! KIP-848 consumer groups under structured chaos: joins (dynamic and static), heartbeats at
//! right, stale and garbage epochs with any owned set, leaves −1/−2, subscription and metadata
//! changes, clock moves, raw arbitrary heartbeats, and classic requests (JoinGroup, Heartbeat,
//! LeaveGroup, OffsetCommit, DeleteGroups) for the same group id, and failovers (unload, load),
//! over a few member ids so that
//! requests meet each other and the group changes type. Nothing panics, misuse is an `Err` that changes nothing, and every input
//! leaves the invariants intact (epochs ordered, no partition held twice, timers armed).
#![no_main]

use arbitrary::Arbitrary;
use group_coordinator::protocol::{
    ConsumerGroupHeartbeatRequest, DeleteGroupsRequest, HeartbeatRequest, JoinGroupRequest, JoinGroupRequestProtocol,
    LeaveGroupRequest, MemberIdentity, OffsetCommitRequest, TopicIdPartitions,
};
use group_coordinator::{Coordinator, Request, consumer_group::Uuid};
use libfuzzer_sys::fuzz_target;

const TOPICS: [&str; 3] = ["foo", "bar", "baz"];

#[derive(Arbitrary, Debug)]
enum Op {
    Join { m: u8, instance: Option<u8>, topics: u8, assignor: u8, timeout: u16 },
    Beat { m: u8, epoch: i8, owned: Option<Vec<(u8, u8)>>, topics: Option<u8> },
    Leave { m: u8, instance: Option<u8>, temporary: bool },
    Grow { topic: u8, by: u8 },
    Advance { dt: u32 },
    Raw { dt: u16, request: ConsumerGroupHeartbeatRequest },
    Classic { m: Option<u8>, instance: Option<u8>, kind: u8 },
    /// The coordinator unloads the group, or loads it again (a refused one changes nothing).
    Failover { load: bool },
}

/// A classic request for group "g" from member `m` (None: no member id yet).
fn classic(m: Option<u8>, instance: Option<u8>, kind: u8) -> Request {
    let member_id = m.map(|m| format!("m{}", m % 4)).unwrap_or_default();
    let group_instance_id = instance.map(|i| format!("i{}", i % 3));
    match kind % 5 {
        0 => Request::JoinGroup(JoinGroupRequest {
            api_version: 5,
            group_id: "g".into(),
            session_timeout_ms: 10_000,
            rebalance_timeout_ms: 10_000,
            member_id,
            group_instance_id,
            protocol_type: "consumer".into(),
            protocols: vec![JoinGroupRequestProtocol { name: "range".into(), metadata: Default::default() }],
            ..Default::default()
        }),
        1 => Request::Heartbeat(HeartbeatRequest {
            api_version: 4,
            group_id: "g".into(),
            generation_id: 1,
            member_id,
            group_instance_id,
            ..Default::default()
        }),
        2 => Request::LeaveGroup(LeaveGroupRequest {
            api_version: 5,
            group_id: "g".into(),
            members: vec![MemberIdentity { member_id, group_instance_id, reason: None }],
            ..Default::default()
        }),
        3 => Request::OffsetCommit(OffsetCommitRequest {
            api_version: 9,
            group_id: "g".into(),
            generation_id_or_member_epoch: -1,
            member_id,
            ..Default::default()
        }),
        _ => Request::DeleteGroups(DeleteGroupsRequest {
            api_version: 2,
            groups_names: vec!["g".into()],
            ..Default::default()
        }),
    }
}

fn names(mask: u8) -> Vec<String> {
    TOPICS.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, t)| t.to_string()).collect()
}

fuzz_target!(|ops: Vec<Op>| {
    let mut c = Coordinator::default();
    let mut sizes = [4, 2, 3];
    c.update_metadata(0, &TOPICS.iter().zip(sizes).map(|(t, n)| (t.to_string(), None, n)).collect::<Vec<_>>())
        .expect("valid metadata");
    let mut now: i64 = 0;
    let member = |m: u8| format!("m{}", m % 4);
    for op in ops.into_iter().take(300) {
        let request = match op {
            Op::Join { m, instance, topics, assignor, timeout } => Some(ConsumerGroupHeartbeatRequest {
                group_id: "g".into(),
                member_id: member(m),
                member_epoch: 0,
                instance_id: instance.map(|i| format!("i{}", i % 3)),
                rebalance_timeout_ms: i32::from(timeout),
                subscribed_topic_names: Some(names(topics)),
                server_assignor: [None, Some("uniform"), Some("range")][usize::from(assignor % 3)].map(str::to_string),
                topic_partitions: Some(vec![]),
                ..Default::default()
            }),
            Op::Beat { m, epoch, owned, topics } => Some(ConsumerGroupHeartbeatRequest {
                group_id: "g".into(),
                member_id: member(m),
                member_epoch: i32::from(epoch),
                subscribed_topic_names: topics.map(names),
                topic_partitions: owned.map(|list| {
                    list.into_iter()
                        .map(|(t, p)| TopicIdPartitions {
                            topic_id: Uuid::for_topic_name(TOPICS[usize::from(t % 3)]),
                            partitions: vec![i32::from(p % 8)],
                        })
                        .collect()
                }),
                ..Default::default()
            }),
            Op::Leave { m, instance, temporary } => Some(ConsumerGroupHeartbeatRequest {
                group_id: "g".into(),
                member_id: member(m),
                member_epoch: if temporary { -2 } else { -1 },
                instance_id: instance.map(|i| format!("i{}", i % 3)),
                ..Default::default()
            }),
            Op::Grow { topic, by } => {
                let i = usize::from(topic % 3);
                sizes[i] += i32::from(by % 4);
                c.update_metadata(now, &[(TOPICS[i].to_string(), None, sizes[i])]).expect("growing is allowed");
                None
            }
            Op::Advance { dt } => {
                now += i64::from(dt % 120_000);
                c.advance(now).expect("time moves forward");
                None
            }
            Op::Raw { dt, request } => {
                now += i64::from(dt);
                Some(request)
            }
            Op::Failover { load } => {
                let _ = if load { c.load("g") } else { c.unload("g") };
                None
            }
            Op::Classic { m, instance, kind } => {
                c.handle(now, classic(m, instance, kind)).expect("a valid classic request");
                None
            }
        };
        if let Some(request) = request {
            let before = c.describe_consumer_group(&request.group_id);
            if c.consumer_group_heartbeat(now, &request).is_err() {
                assert_eq!(before, c.describe_consumer_group(&request.group_id), "misuse changed nothing");
            }
        }
        if let Err(e) = c.check_invariants() {
            panic!("invariant broken: {e}");
        }
        c.drain_events();
    }
});
