//! The broker over real sockets, with frames encoded by kafka-protocol's client side: a group
//! forms through the wire; malformed and unsupported frames close only their own connection
//! (the broker keeps serving the others); a trace replays.
#![allow(clippy::unwrap_used)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use bytes::{BufMut, Bytes, BytesMut};
use group_broker::cluster::Topic;
use group_broker::{Options, start, trace};
use kafka_protocol::messages::*;
use kafka_protocol::protocol::{Request, StrBytes};

mod admin;
mod feed_and_limits;
mod group;

fn broker(settings: &[&str], trace: Option<std::path::PathBuf>) -> SocketAddr {
    let mut o = Options {
        listen: "127.0.0.1:0".parse().unwrap(),
        topics: vec![Topic {
            name: "orders".into(),
            partitions: 3,
        }],
        trace,
        ..Options::default()
    };
    o.model.settings = settings.iter().map(|s| s.to_string()).collect();
    start(o).unwrap().addr
}

struct Client {
    stream: TcpStream,
    correlation_id: i32,
}

impl Client {
    fn connect(addr: SocketAddr) -> Client {
        let stream = TcpStream::connect(addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        Client {
            stream,
            correlation_id: 0,
        }
    }

    fn send<R: Request>(&mut self, version: i16, request: &R) {
        self.correlation_id += 1;
        let body =
            group_broker::wire::request_body(version, self.correlation_id, "wire-test", request)
                .unwrap();
        self.raw(&body);
    }

    fn raw(&mut self, frame: &[u8]) {
        let mut out = BytesMut::new();
        out.put_i32(frame.len() as i32);
        out.put_slice(frame);
        self.stream.write_all(&out).unwrap();
    }

    fn receive<R: Request>(&mut self, version: i16) -> R::Response {
        let mut size = [0u8; 4];
        self.stream.read_exact(&mut size).unwrap();
        let mut frame = vec![0u8; i32::from_be_bytes(size) as usize];
        self.stream.read_exact(&mut frame).unwrap();
        let (correlation_id, response, left) =
            group_broker::wire::decode_response::<R>(Bytes::from(frame), version).unwrap();
        assert_eq!(correlation_id, self.correlation_id);
        assert_eq!(left, 0, "bytes after the response");
        response
    }

    fn call<R: Request>(&mut self, version: i16, request: &R) -> R::Response {
        self.send(version, request);
        self.receive::<R>(version)
    }

    /// The broker closed the connection (read returns end of stream).
    fn closed(&mut self) -> bool {
        let mut byte = [0u8; 1];
        matches!(self.stream.read(&mut byte), Ok(0) | Err(_))
    }
}

fn join(member_id: &str) -> JoinGroupRequest {
    let mut protocol = join_group_request::JoinGroupRequestProtocol::default();
    protocol.name = StrBytes::from_static_str("range");
    // A ConsumerProtocolSubscription v0: topics ["orders"], no user data.
    protocol.metadata =
        Bytes::from_static(b"\x00\x00\x00\x00\x00\x01\x00\x06orders\x00\x00\x00\x00");
    let mut r = JoinGroupRequest::default();
    r.group_id = GroupId(StrBytes::from_static_str("g"));
    r.session_timeout_ms = 10_000;
    r.rebalance_timeout_ms = 10_000;
    r.member_id = StrBytes::from_string(member_id.to_owned());
    r.protocol_type = StrBytes::from_static_str("consumer");
    r.protocols = vec![protocol];
    r
}
