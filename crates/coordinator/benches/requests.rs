//! Requests handled per second for one group of 1,000 members: the joins of the first
//! rebalance, the syncs, rounds of heartbeats, and a full rebalance (everyone rejoins and syncs).
//! `cargo bench -p group-coordinator --bench requests`; `scripts/bench.sh` runs it beside the
//! same workload in wasm under Node and prints the ratio.
//!
//! The benchmark measures wall time, which the model itself never reads.
#![allow(clippy::disallowed_types, clippy::unwrap_used)]

use group_coordinator::protocol::*;
use group_coordinator::{BrokerConfig, Coordinator, Request, Response};
use std::time::Instant;

const MEMBERS: usize = 1000;
const HEARTBEAT_ROUNDS: usize = 10;

fn join(correlation_id: i32, member_id: &str) -> Request {
    Request::JoinGroup(JoinGroupRequest {
        api_version: 7,
        correlation_id,
        client_id: "consumer".into(),
        group_id: "bench".into(),
        session_timeout_ms: 45_000,
        rebalance_timeout_ms: 300_000,
        member_id: member_id.into(),
        protocol_type: "consumer".into(),
        protocols: vec![JoinGroupRequestProtocol {
            name: "range".into(),
            metadata: Bytes::from(&[0, 1, 0, 0, 0, 1, 0, 6, b'o', b'r', b'd', b'e', b'r', b's']),
        }],
        ..Default::default()
    })
}

fn sync(
    correlation_id: i32,
    member_id: &str,
    generation_id: i32,
    assignments: Vec<SyncGroupRequestAssignment>,
) -> Request {
    Request::SyncGroup(SyncGroupRequest {
        api_version: 5,
        correlation_id,
        group_id: "bench".into(),
        generation_id,
        member_id: member_id.into(),
        assignments,
        ..Default::default()
    })
}

fn heartbeat(correlation_id: i32, member_id: &str, generation_id: i32) -> Request {
    Request::Heartbeat(HeartbeatRequest {
        api_version: 4,
        correlation_id,
        group_id: "bench".into(),
        generation_id,
        member_id: member_id.into(),
        ..Default::default()
    })
}

struct Phase {
    name: &'static str,
    requests: usize,
    seconds: f64,
}

fn run() -> Vec<Phase> {
    let mut c = Coordinator::new(BrokerConfig::default());
    let mut phases = Vec::new();
    let mut correlation = 0;
    let mut next = || {
        correlation += 1;
        correlation
    };
    let mut measure = |name, requests, f: &mut dyn FnMut()| {
        let start = Instant::now();
        f();
        phases.push(Phase {
            name,
            requests,
            seconds: start.elapsed().as_secs_f64(),
        });
    };

    let mut ids = Vec::new();
    measure("join (first rebalance)", 2 * MEMBERS, &mut || {
        // v7: each member first gets its id with MEMBER_ID_REQUIRED, then joins with it.
        for _ in 0..MEMBERS {
            let out = c.handle(0, join(next(), "")).unwrap();
            let Some(Response::JoinGroup(r)) = out.first() else {
                unreachable!()
            };
            let id = r.member_id.clone();
            c.handle(0, join(next(), &id)).unwrap();
        }
        let mut out: Vec<Response> = c.advance(3000).unwrap();
        out.extend(c.advance(6000).unwrap());
        assert_eq!(out.len(), MEMBERS);
        for r in out {
            if let Response::JoinGroup(j) = r {
                ids.push(j.member_id);
            }
        }
        c.drain_events();
    });
    let leader = c.describe("bench").unwrap().leader_id.unwrap();
    ids.sort_by_key(|id| *id != leader);
    let assignments: Vec<SyncGroupRequestAssignment> = ids
        .iter()
        .enumerate()
        .map(|(i, id)| SyncGroupRequestAssignment {
            member_id: id.clone(),
            assignment: Bytes::from(&[
                0, 1, 0, 0, 0, 1, 0, 6, b'o', b'r', b'd', b'e', b'r', b's', 0, 0, 0, 1, 0, 0, 0,
                i as u8,
            ]),
        })
        .collect();
    measure("sync", MEMBERS, &mut || {
        c.handle(6000, sync(next(), &ids[0], 1, assignments.clone()))
            .unwrap();
        for id in &ids[1..] {
            c.handle(6000, sync(next(), id, 1, vec![])).unwrap();
        }
        c.drain_events();
    });
    measure("heartbeat", MEMBERS * HEARTBEAT_ROUNDS, &mut || {
        for round in 0..HEARTBEAT_ROUNDS {
            let now = 6000 + 3000 * (round as i64 + 1);
            for id in &ids {
                c.handle(now, heartbeat(next(), id, 1)).unwrap();
            }
            c.drain_events();
        }
    });
    measure("rebalance (rejoin + sync)", 2 * MEMBERS, &mut || {
        let now = 60_000;
        for id in &ids {
            c.handle(now, join(next(), id)).unwrap();
        }
        c.handle(now, sync(next(), &ids[0], 2, assignments.clone()))
            .unwrap();
        for id in &ids[1..] {
            c.handle(now, sync(next(), id, 2, vec![])).unwrap();
        }
        c.drain_events();
    });
    assert_eq!(c.describe("bench").unwrap().generation_id, 2);
    phases
}

fn main() {
    // Warm up once, then take the best of five runs per phase.
    let _ = run();
    let runs: Vec<Vec<Phase>> = (0..5).map(|_| run()).collect();
    let mut total_requests = 0;
    let mut total_seconds = 0.0;
    println!("native: one group of {MEMBERS} members (best of 5)");
    for i in 0..runs[0].len() {
        let best = runs
            .iter()
            .map(|r| r[i].seconds)
            .fold(f64::INFINITY, f64::min);
        let p = &runs[0][i];
        total_requests += p.requests;
        total_seconds += best;
        println!(
            "  {:<28} {:>7} requests {:>9.2} ms {:>12.0} requests/s",
            p.name,
            p.requests,
            best * 1e3,
            p.requests as f64 / best
        );
    }
    println!(
        "  {:<28} {:>7} requests {:>9.2} ms {:>12.0} requests/s",
        "all",
        total_requests,
        total_seconds * 1e3,
        total_requests as f64 / total_seconds
    );
    println!(
        "BENCH native requests_per_second {:.0}",
        total_requests as f64 / total_seconds
    );
}
