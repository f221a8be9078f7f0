//! What the wire front end adds to the model: Heartbeats answered by the model alone (a
//! `Coordinator::handle` call) against the same Heartbeats sent over loopback to group-broker
//! (frame, decode, the model's thread, encode, write), one connection at a time for the
//! latency, then 1, 10 and 100 connections at once for the rate. Each connection's member is
//! alone in its own group, so every Heartbeat is a real one (a Stable group, a known member).
//! Prints `BENCH broker ...` lines.
//!
//! The benchmark measures wall time, which the model itself never reads.
#![allow(clippy::disallowed_types, clippy::unwrap_used)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::thread;
use std::time::Instant;

use bytes::Bytes;
use group_broker::cluster::Topic;
use group_broker::{Options, start};
use group_coordinator::protocol as model;
use group_coordinator::{BrokerConfig, ConfigValue, Coordinator, Request, Response};
use kafka_protocol::messages::*;
use kafka_protocol::protocol::StrBytes;

const HEARTBEATS: usize = 20_000;

struct Wire {
    stream: TcpStream,
    correlation_id: i32,
}

impl Wire {
    fn call<R: kafka_protocol::protocol::Request>(&mut self, version: i16, r: &R) -> R::Response {
        self.correlation_id += 1;
        let body =
            group_broker::wire::request_body(version, self.correlation_id, "bench", r).unwrap();
        let mut frame = (body.len() as i32).to_be_bytes().to_vec();
        frame.extend_from_slice(&body);
        self.stream.write_all(&frame).unwrap();
        let mut size = [0u8; 4];
        self.stream.read_exact(&mut size).unwrap();
        let mut buf = vec![0u8; i32::from_be_bytes(size) as usize];
        self.stream.read_exact(&mut buf).unwrap();
        group_broker::wire::decode_response::<R>(Bytes::from(buf), version)
            .unwrap()
            .1
    }
}

/// A connection whose member has joined its own group `g<i>` and synced: (wire, heartbeat).
fn member(addr: SocketAddr, i: usize) -> (Wire, model::HeartbeatRequest) {
    let stream = TcpStream::connect(addr).unwrap();
    stream.set_nodelay(true).unwrap();
    let mut w = Wire {
        stream,
        correlation_id: 0,
    };
    let group = GroupId(StrBytes::from_string(format!("g{i}")));
    let mut join = JoinGroupRequest::default();
    join.group_id = group.clone();
    join.session_timeout_ms = 45_000;
    join.rebalance_timeout_ms = 45_000;
    join.protocol_type = StrBytes::from_static_str("consumer");
    let mut p = join_group_request::JoinGroupRequestProtocol::default();
    p.name = StrBytes::from_static_str("range");
    join.protocols = vec![p];
    let first = w.call(9, &join);
    join.member_id = first.member_id.clone();
    let joined = w.call(9, &join);
    assert_eq!(joined.error_code, 0);
    let mut sync = SyncGroupRequest::default();
    sync.group_id = group.clone();
    sync.generation_id = joined.generation_id;
    sync.member_id = joined.member_id.clone();
    sync.protocol_type = Some(StrBytes::from_static_str("consumer"));
    sync.protocol_name = Some(StrBytes::from_static_str("range"));
    assert_eq!(w.call(5, &sync).error_code, 0);
    let heartbeat = model::HeartbeatRequest {
        api_version: 4,
        group_id: format!("g{i}"),
        generation_id: joined.generation_id,
        member_id: joined.member_id.to_string(),
        ..Default::default()
    };
    (w, heartbeat)
}

fn wire_heartbeat(h: &model::HeartbeatRequest) -> HeartbeatRequest {
    let mut r = HeartbeatRequest::default();
    r.group_id = GroupId(StrBytes::from_string(h.group_id.clone()));
    r.generation_id = h.generation_id;
    r.member_id = StrBytes::from_string(h.member_id.clone());
    r
}

/// The model alone: one member per group, heartbeating, as `Coordinator::handle` calls.
fn model_alone(groups: usize) -> f64 {
    let config = BrokerConfig::from_pairs([(
        "group.initial.rebalance.delay.ms",
        &ConfigValue::Number(0.0),
    )])
    .unwrap();
    let mut c = Coordinator::new(config);
    let mut beats = Vec::new();
    let mut now = 0;
    for i in 0..groups {
        let join = |member_id: String| {
            Request::JoinGroup(model::JoinGroupRequest {
                api_version: 9,
                group_id: format!("g{i}"),
                session_timeout_ms: 45_000,
                rebalance_timeout_ms: 45_000,
                member_id,
                protocol_type: "consumer".into(),
                protocols: vec![model::JoinGroupRequestProtocol {
                    name: "range".into(),
                    metadata: Default::default(),
                }],
                ..Default::default()
            })
        };
        let Response::JoinGroup(first) = &c.handle(now, join(String::new())).unwrap()[0] else {
            unreachable!()
        };
        let id = first.member_id.clone();
        c.handle(now, join(id.clone())).unwrap();
        now += 1;
        c.advance(now).unwrap();
        let sync = Request::SyncGroup(model::SyncGroupRequest {
            api_version: 5,
            group_id: format!("g{i}"),
            generation_id: 1,
            member_id: id.clone(),
            protocol_type: Some("consumer".into()),
            protocol_name: Some("range".into()),
            ..Default::default()
        });
        let Response::SyncGroup(synced) = &c.handle(now, sync).unwrap()[0] else {
            unreachable!()
        };
        assert_eq!(synced.error_code, group_coordinator::ErrorCode::None);
        beats.push(model::HeartbeatRequest {
            api_version: 4,
            group_id: format!("g{i}"),
            generation_id: 1,
            member_id: id,
            ..Default::default()
        });
    }
    let t = Instant::now();
    for n in 0..HEARTBEATS {
        let out = c
            .handle(now, Request::Heartbeat(beats[n % groups].clone()))
            .unwrap();
        assert_eq!(out[0].error_code(), group_coordinator::ErrorCode::None);
    }
    t.elapsed().as_secs_f64() * 1e6 / HEARTBEATS as f64
}

fn main() {
    let mut options = Options {
        listen: "127.0.0.1:0".parse().unwrap(),
        topics: vec![Topic {
            name: "orders".into(),
            partitions: 6,
        }],
        ..Options::default()
    };
    options.model.settings = vec!["group.initial.rebalance.delay.ms=0".into()];
    let addr = start(options).unwrap().addr;

    let model_us = model_alone(100);
    println!("BENCH broker model_alone_us_per_heartbeat {model_us:.2}");

    // Latency: one connection, one request at a time.
    let (mut w, h) = member(addr, 0);
    let request = wire_heartbeat(&h);
    for _ in 0..1000 {
        w.call(4, &request);
    }
    let t = Instant::now();
    for _ in 0..HEARTBEATS {
        assert_eq!(w.call(4, &request).error_code, 0);
    }
    let wire_us = t.elapsed().as_secs_f64() * 1e6 / HEARTBEATS as f64;
    println!("BENCH broker round_trip_us_per_heartbeat {wire_us:.2}");
    println!(
        "BENCH broker added_us_per_heartbeat {:.2} (round trip over loopback minus the model alone)",
        wire_us - model_us
    );

    // Rate: connections at once, each its own member, each sending its next request when the
    // last is answered (as Kafka allows one in flight per connection).
    let mut next_group = 1;
    for connections in [1usize, 10, 100] {
        let members: Vec<_> = (0..connections)
            .map(|i| member(addr, next_group + i))
            .collect();
        next_group += connections;
        let per = HEARTBEATS / connections.min(10);
        let t = Instant::now();
        let threads: Vec<_> = members
            .into_iter()
            .map(|(mut w, h)| {
                thread::spawn(move || {
                    let request = wire_heartbeat(&h);
                    for _ in 0..per {
                        assert_eq!(w.call(4, &request).error_code, 0);
                    }
                })
            })
            .collect();
        for th in threads {
            th.join().unwrap();
        }
        let rate = (per * connections) as f64 / t.elapsed().as_secs_f64();
        println!("BENCH broker heartbeats_per_second connections={connections} {rate:.0}");
    }
}
