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

#[test]
fn a_member_joins_syncs_and_leaves_over_the_wire() {
    let dir = std::env::temp_dir().join(format!("group-broker-wire-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("trace.jsonl");
    let addr = broker(&["group.initial.rebalance.delay.ms=0"], Some(path.clone()));
    let mut c = Client::connect(addr);

    let versions = c.call(3, &ApiVersionsRequest::default());
    assert_eq!(versions.error_code, 0);
    let join_range = versions
        .api_keys
        .iter()
        .find(|k| k.api_key == ApiKey::JoinGroup as i16)
        .unwrap();
    assert_eq!((join_range.min_version, join_range.max_version), (0, 9));
    // CreateTopics at Kafka 4.0's versions; no other admin api of topics.
    let advertised = |key: ApiKey| {
        versions
            .api_keys
            .iter()
            .find(|k| k.api_key == key as i16)
            .map(|k| (k.min_version, k.max_version))
    };
    assert_eq!(advertised(ApiKey::CreateTopics), Some((2, 7)));
    assert_eq!(advertised(ApiKey::DeleteTopics), None);
    // Produce is advertised (clients read the record format off it) and refused per partition.
    let mut produce = ProduceRequest::default();
    produce.acks = -1;
    let mut topic = produce_request::TopicProduceData::default();
    topic.name = TopicName(StrBytes::from_static_str("orders"));
    let mut partition = produce_request::PartitionProduceData::default();
    partition.index = 1;
    topic.partition_data = vec![partition];
    produce.topic_data = vec![topic];
    let refused = c.call(9, &produce);
    let answer = &refused.responses[0].partition_responses[0];
    assert_eq!((answer.index, answer.error_code), (1, 42));
    assert!(
        answer
            .error_message
            .as_ref()
            .unwrap()
            .contains("keeps no log")
    );

    let mut find = FindCoordinatorRequest::default();
    find.key = StrBytes::from_static_str("g");
    let found = c.call(3, &find);
    assert_eq!((found.error_code, found.port), (0, i32::from(addr.port())));

    // v4+: MEMBER_ID_REQUIRED first, then the join (the delayed join completes at once).
    let first = c.call(9, &join(""));
    assert_eq!(first.error_code, 79);
    let member_id = first.member_id.to_string();
    let joined = c.call(9, &join(&member_id));
    assert_eq!(joined.error_code, 0);
    assert_eq!(joined.generation_id, 1);
    assert_eq!(joined.leader.to_string(), member_id);
    assert_eq!(
        joined.protocol_name.as_ref().map(|p| p.to_string()),
        Some("range".into())
    );

    let mut sync = SyncGroupRequest::default();
    sync.group_id = GroupId(StrBytes::from_static_str("g"));
    sync.generation_id = 1;
    sync.member_id = StrBytes::from_string(member_id.clone());
    sync.protocol_type = Some(StrBytes::from_static_str("consumer"));
    sync.protocol_name = Some(StrBytes::from_static_str("range"));
    let mut assignment = sync_group_request::SyncGroupRequestAssignment::default();
    assignment.member_id = StrBytes::from_string(member_id.clone());
    assignment.assignment = Bytes::from_static(
        b"\x00\x00\x00\x00\x00\x01\x00\x06orders\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00",
    );
    sync.assignments = vec![assignment.clone()];
    let synced = c.call(5, &sync);
    assert_eq!(synced.error_code, 0);
    assert_eq!(synced.assignment, assignment.assignment);

    let mut describe = DescribeGroupsRequest::default();
    describe.groups = vec![GroupId(StrBytes::from_static_str("g"))];
    describe.include_authorized_operations = true;
    let described = c.call(6, &describe);
    assert_eq!(described.groups[0].group_state.to_string(), "Stable");

    let mut leave = LeaveGroupRequest::default();
    leave.group_id = GroupId(StrBytes::from_static_str("g"));
    let mut me = leave_group_request::MemberIdentity::default();
    me.member_id = StrBytes::from_string(member_id.clone());
    leave.members = vec![me];
    let left = c.call(5, &leave);
    assert_eq!((left.error_code, left.members[0].error_code), (0, 0));
    let described = c.call(6, &describe);
    assert_eq!(described.groups[0].group_state.to_string(), "Empty");

    let replayed = trace::replay(&path).unwrap();
    assert_eq!(replayed.requests, 6);
    assert!(replayed.outputs > 12, "{replayed:?}");
}

#[test]
fn bad_frames_close_only_their_connection() {
    let addr = broker(&[], None);
    let mut bystander = Client::connect(addr);
    assert_eq!(
        bystander.call(3, &ApiVersionsRequest::default()).error_code,
        0
    );

    // A JoinGroup v5 whose protocol array claims 2^31-1 elements (kafka-protocol would reserve
    // ~190 GB for it; the allocation guard keeps the process alive).
    let mut huge = BytesMut::new();
    huge.put_i16(ApiKey::JoinGroup as i16);
    huge.put_i16(5);
    huge.put_i32(1);
    huge.put_i16(-1); // no client id
    huge.put_i16(1);
    huge.put_u8(b'g');
    huge.put_i32(10_000);
    huge.put_i32(10_000);
    huge.put_i16(0);
    huge.put_i16(-1);
    huge.put_i16(0);
    huge.put_i32(i32::MAX);
    let mut create_topics = BytesMut::new();
    create_topics.put_i16(ApiKey::CreateTopics as i16);
    create_topics.put_i16(4);
    create_topics.put_i32(1);
    create_topics.put_i16(-1);
    let mut unknown_key = BytesMut::new();
    unknown_key.put_i16(999);
    unknown_key.put_i16(0);
    unknown_key.put_i32(1);
    unknown_key.put_i16(-1);
    let mut too_new = BytesMut::new();
    too_new.put_i16(ApiKey::Heartbeat as i16);
    too_new.put_i16(42);
    too_new.put_i32(1);
    too_new.put_i16(-1);
    for frame in [
        &huge[..],
        &create_topics[..],
        &unknown_key[..],
        &too_new[..],
        b"\x00\x01",
    ] {
        let mut c = Client::connect(addr);
        c.raw(frame);
        assert!(c.closed(), "{frame:?} left the connection open");
    }
    // A frame longer than socket.request.max.bytes.
    let mut c = Client::connect(addr);
    c.stream
        .write_all(&(200 * 1024 * 1024_i32).to_be_bytes())
        .unwrap();
    assert!(c.closed());

    // The broker still serves, on the old connection and on new ones.
    assert_eq!(
        bystander.call(3, &ApiVersionsRequest::default()).error_code,
        0
    );
    let mut fresh = Client::connect(addr);
    assert_eq!(fresh.call(9, &join("")).error_code, 79);
}

/// Bytes after a request's last field are ignored, as Kafka does: librdkafka 2.16 sends
/// Metadata v12 with `00 00 00` after its last field (seen on the wire).
#[test]
fn bytes_after_the_last_field_are_ignored() {
    let addr = broker(&[], None);
    let mut c = Client::connect(addr);
    c.correlation_id += 1;
    // (Topics null: all of them.)
    let mut all = MetadataRequest::default();
    all.topics = None;
    let mut frame = BytesMut::from(
        &group_broker::wire::request_body(12, c.correlation_id, "rdkafka", &all).unwrap()[..],
    );
    frame.put_slice(b"\x00\x00\x00");
    c.raw(&frame);
    let metadata = c.receive::<MetadataRequest>(12);
    assert!(
        metadata
            .topics
            .iter()
            .any(|t| t.name.as_ref().is_some_and(|n| n.as_str() == "orders")),
        "the topics answered: {:?}",
        metadata.topics
    );
    // And a group request with bytes after it is served too.
    c.correlation_id += 1;
    let mut frame = BytesMut::from(
        &group_broker::wire::request_body(9, c.correlation_id, "rdkafka", &join("")).unwrap()[..],
    );
    frame.put_slice(b"\x00");
    c.raw(&frame);
    assert_eq!(
        c.receive::<JoinGroupRequest>(9).error_code,
        79,
        "MEMBER_ID_REQUIRED"
    );
}

/// A commit to a topic or partition the cluster does not have is UNKNOWN_TOPIC_OR_PARTITION,
/// answered by the request handler before the coordinator sees it (KafkaApis); the partitions
/// that exist are committed as usual, and only they are stored.
#[test]
fn a_commit_to_an_unknown_partition_is_unknown_topic_or_partition() {
    let addr = broker(&[], None);
    let mut c = Client::connect(addr);
    let partition = |index: i32| {
        let mut p = offset_commit_request::OffsetCommitRequestPartition::default();
        p.partition_index = index;
        p.committed_offset = 42;
        p
    };
    let topic = |name: &'static str, partitions: Vec<i32>| {
        let mut t = offset_commit_request::OffsetCommitRequestTopic::default();
        t.name = TopicName(StrBytes::from_static_str(name));
        t.partitions = partitions.into_iter().map(partition).collect();
        t
    };
    let mut commit = OffsetCommitRequest::default();
    commit.group_id = GroupId(StrBytes::from_static_str("solo"));
    commit.generation_id_or_member_epoch = -1;
    commit.topics = vec![topic("orders", vec![0, 99]), topic("nope", vec![0])];
    let r = c.call(8, &commit);
    let errors: Vec<(String, i32, i16)> = r
        .topics
        .iter()
        .flat_map(|t| {
            t.partitions
                .iter()
                .map(|p| (t.name.0.to_string(), p.partition_index, p.error_code))
        })
        .collect();
    assert_eq!(
        errors,
        vec![
            ("orders".to_string(), 0, 0),
            ("orders".to_string(), 99, 3),
            ("nope".to_string(), 0, 3)
        ]
    );
    // Nothing but unknown partitions: answered without the coordinator.
    commit.topics = vec![topic("nope", vec![1])];
    let r = c.call(8, &commit);
    assert_eq!(r.topics[0].partitions[0].error_code, 3);
    // Only orders-0 was stored.
    let mut fetch = OffsetFetchRequest::default();
    fetch.group_id = GroupId(StrBytes::from_static_str("solo"));
    fetch.topics = None;
    let f = c.call(7, &fetch);
    let stored: Vec<(String, i32, i64)> = f
        .topics
        .iter()
        .flat_map(|t| {
            t.partitions
                .iter()
                .map(|p| (t.name.0.to_string(), p.partition_index, p.committed_offset))
        })
        .collect();
    assert_eq!(stored, vec![("orders".to_string(), 0, 42)]);
}

#[test]
fn an_api_versions_request_too_new_is_answered_in_v0() {
    // Kafka's rule: UNSUPPORTED_VERSION in a v0 response listing what is served, so that the
    // client can retry at a version both know.
    let addr = broker(&[], None);
    let mut c = Client::connect(addr);
    let mut frame = BytesMut::new();
    frame.put_i16(ApiKey::ApiVersions as i16);
    frame.put_i16(99);
    frame.put_i32(7);
    frame.put_i16(-1); // v2 header: the client id (a plain nullable string, KIP-482) ...
    frame.put_u8(0); // ... and no tagged fields
    c.raw(&frame);
    c.correlation_id = 7;
    let r = c.receive::<ApiVersionsRequest>(0);
    assert_eq!(r.error_code, 35);
    assert!(
        r.api_keys
            .iter()
            .any(|k| k.api_key == ApiKey::Heartbeat as i16)
    );
}

#[test]
fn settings_read_as_the_model_expects_them() {
    use group_coordinator::ConfigValue;
    let header = trace::Header {
        seed: 1,
        settings: vec![
            "flavour=4.0".into(),
            "group.max.size=3".into(),
            "group.consumer.migration.policy=disabled".into(),
        ],
        topics: vec![("orders".into(), 3)],
    };
    let c = header.coordinator().unwrap();
    assert_eq!(c.config().group_max_size, 3);
    assert_eq!(
        trace::setting("flavour=3.x").unwrap().1,
        ConfigValue::Text("3.x".into())
    );
    let bad = trace::Header {
        settings: vec!["group.max.size=lots".into()],
        ..header
    };
    assert!(bad.coordinator().unwrap_err().contains("group.max.size"));
    assert!(trace::setting("no-equals").is_err());
}

#[test]
fn the_live_feed_sends_the_trace_from_its_start() {
    let mut o = Options {
        listen: "127.0.0.1:0".parse().unwrap(),
        live: Some("127.0.0.1:0".parse().unwrap()),
        topics: vec![Topic {
            name: "orders".into(),
            partitions: 3,
        }],
        ..Options::default()
    };
    o.model.settings = vec!["group.initial.rebalance.delay.ms=0".into()];
    let running = start(o).unwrap();
    let mut c = Client::connect(running.addr);
    assert_eq!(c.call(9, &join("")).error_code, 79);
    // A follower that connects after the first request still sees it, after the header.
    let url = format!("ws://{}", running.live.unwrap());
    let (mut ws, _) = tungstenite::connect(url).unwrap();
    let mut next = || -> serde_json::Value {
        let message = ws.read().unwrap();
        serde_json::from_str(message.to_text().unwrap()).unwrap()
    };
    let header = next();
    assert_eq!(
        header["broker"]["config"]["group.initial.rebalance.delay.ms"],
        0
    );
    assert_eq!(header["broker"]["topics"][0][0], "orders");
    let first = next();
    assert_eq!(first["request"]["api"], "JoinGroup");
    // And then what follows, as it happens.
    assert_eq!(c.call(9, &join("")).error_code, 79);
    let mut apis = Vec::new();
    while apis.len() < 2 {
        let line = next();
        if let Some(r) = line.get("request").or(line.get("response")) {
            apis.push(r["api"].as_str().unwrap().to_owned());
        }
    }
    assert_eq!(apis, ["JoinGroup", "JoinGroup"]);
}

#[test]
fn connections_beyond_max_connections_are_closed() {
    let mut o = Options {
        listen: "127.0.0.1:0".parse().unwrap(),
        ..Options::default()
    };
    o.limits.max_connections = 1;
    let addr = start(o).unwrap().addr;
    let mut first = Client::connect(addr);
    assert_eq!(first.call(3, &ApiVersionsRequest::default()).error_code, 0);
    let mut second = Client::connect(addr);
    assert!(second.closed(), "a second connection is refused");
    // The first still works, and once it is closed its place is free again.
    assert_eq!(first.call(3, &ApiVersionsRequest::default()).error_code, 0);
    drop(first);
    let mut third = None;
    for _ in 0..50 {
        let mut c = Client::connect(addr);
        c.correlation_id = 0;
        c.send(3, &ApiVersionsRequest::default());
        let mut size = [0u8; 4];
        if c.stream.read_exact(&mut size).is_ok() {
            third = Some(c);
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        third.is_some(),
        "the freed place was not given to a new connection"
    );
}

#[test]
fn a_replay_checks_refusals_too() {
    let dir = std::env::temp_dir().join(format!("group-broker-refusal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let header = r#"{"broker":{"seed":0,"settings":[],"topics":[]}}"#;
    let refused = r#"{"at":1,"request":{"api":"Heartbeat","groupId":"g"}}"#;
    let note = r#"{"at":1,"note":"the model refused a request: Heartbeat request: apiVersion is required"}"#;
    let write = |name: &str, lines: &[&str]| {
        let path = dir.join(name);
        std::fs::write(&path, lines.join("\n")).unwrap();
        path
    };
    let with_note = write("with-note.jsonl", &[header, refused, note]);
    assert_eq!(trace::replay(&with_note).unwrap().outputs, 1);
    let without = write("without.jsonl", &[header, refused]);
    assert!(trace::replay(&without).unwrap_err().contains("refused"));
    let only_note = write("only-note.jsonl", &[header, note]);
    assert!(trace::replay(&only_note).is_err());
}

/// Group configs (KIP-848) over the wire, as an admin client sets and reads them: a GROUP
/// resource (type 32) is the model's; a TOPIC resource is refused by name.
#[test]
fn group_configs_are_set_and_described_over_the_wire() {
    let addr = broker(&[], None);
    let mut c = Client::connect(addr);
    let entry = |name: &'static str, value: &'static str| {
        let mut e = incremental_alter_configs_request::AlterableConfig::default();
        e.name = StrBytes::from_static_str(name);
        e.config_operation = 0;
        e.value = Some(StrBytes::from_static_str(value));
        e
    };
    let resource = |kind: i8, name: &'static str, configs| {
        let mut r = incremental_alter_configs_request::AlterConfigsResource::default();
        r.resource_type = kind;
        r.resource_name = StrBytes::from_static_str(name);
        r.configs = configs;
        r
    };
    let mut alter = IncrementalAlterConfigsRequest::default();
    alter.resources = vec![
        resource(32, "g", vec![entry("consumer.session.timeout.ms", "50000")]),
        resource(
            32,
            "h",
            vec![entry("consumer.heartbeat.interval.ms", "100")],
        ),
        resource(2, "orders", vec![entry("retention.ms", "1")]),
    ];
    let r = c.call(1, &alter);
    let results: Vec<(String, i16, Option<String>)> = r
        .responses
        .iter()
        .map(|x| {
            (
                x.resource_name.to_string(),
                x.error_code,
                x.error_message.as_ref().map(|m| m.to_string()),
            )
        })
        .collect();
    assert_eq!(results[0], ("g".to_string(), 0, None));
    assert_eq!(
        results[1],
        (
            "h".to_string(),
            40,
            Some(
                "consumer.heartbeat.interval.ms must be greater than or equal to group.consumer.min.heartbeat.interval.ms"
                    .to_string()
            )
        )
    );
    assert_eq!((results[2].0.as_str(), results[2].1), ("orders", 42));

    let mut describe = DescribeConfigsRequest::default();
    let mut wanted = describe_configs_request::DescribeConfigsResource::default();
    wanted.resource_type = 32;
    wanted.resource_name = StrBytes::from_static_str("g");
    wanted.configuration_keys = None;
    describe.resources = vec![wanted];
    let d = c.call(4, &describe);
    let configs: Vec<(String, Option<String>, i8, i8)> = d.results[0]
        .configs
        .iter()
        .map(|e| {
            (
                e.name.to_string(),
                e.value.as_ref().map(|v| v.to_string()),
                e.config_source,
                e.config_type,
            )
        })
        .collect();
    assert_eq!(
        configs,
        vec![
            (
                "consumer.session.timeout.ms".to_string(),
                Some("50000".to_string()),
                8,
                3
            ),
            (
                "consumer.heartbeat.interval.ms".to_string(),
                Some("5000".to_string()),
                5,
                3
            ),
        ]
    );
}

/// CreateTopics as Kafka's controller answers it: a topic is made (Metadata lists it, by name and
/// by id), and each refusal has Kafka's error and message; the model's image gets the topic, and
/// the trace's createTopic line replays.
#[test]
fn create_topics_makes_topics_and_refuses_as_kafka_does() {
    let dir = std::env::temp_dir().join(format!("group-broker-create-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("trace.jsonl");
    let addr = broker(&[], Some(path.clone()));
    let mut c = Client::connect(addr);
    let topic = |name: &str, partitions: i32, replication: i16| {
        let mut t = create_topics_request::CreatableTopic::default();
        t.name = TopicName(StrBytes::from_string(name.to_owned()));
        t.num_partitions = partitions;
        t.replication_factor = replication;
        t
    };
    let mut create = CreateTopicsRequest::default();
    create.timeout_ms = 30_000;
    create.topics = vec![
        topic("ord_new", 2, 1),
        topic("defaults", -1, -1),
        topic("orders", 1, 1),
        topic("bad name!", 1, 1),
        topic("none", 0, 1),
        topic("three", 1, 3),
        topic("twice", 1, 1),
        topic("twice", 1, 1),
    ];
    let r = c.call(7, &create);
    let results: Vec<(String, i16, i32, i16)> = r
        .topics
        .iter()
        .map(|t| {
            (
                t.name.0.to_string(),
                t.error_code,
                t.num_partitions,
                t.replication_factor,
            )
        })
        .collect();
    let s = |n: &str| n.to_string();
    assert_eq!(
        results,
        vec![
            (s("ord_new"), 0, 2, 1),
            (s("defaults"), 0, 1, 1),
            (s("orders"), 36, -1, -1),
            (s("bad name!"), 17, -1, -1),
            (s("none"), 37, -1, -1),
            (s("three"), 38, -1, -1),
            (s("twice"), 42, -1, -1),
            (s("twice"), 42, -1, -1),
        ]
    );
    let message = |i: usize| r.topics[i].error_message.as_ref().unwrap().to_string();
    assert_eq!(message(2), "Topic 'orders' already exists.");
    assert!(message(3).contains("is illegal, it contains a character other than"));
    assert_eq!(
        message(5),
        "Unable to replicate the partition 3 time(s): The target replication factor of 3 cannot be reached because only 1 broker(s) are registered."
    );
    assert_eq!(message(6), "Duplicate topic name.");
    assert!(!r.topics[0].topic_id.is_nil());
    // A name that differs only by '.' for '_' collides; validate_only makes nothing.
    create.topics = vec![topic("ord.new", 1, 1)];
    assert_eq!(c.call(7, &create).topics[0].error_code, 17);
    create.topics = vec![topic("checked", 4, 1)];
    create.validate_only = true;
    let checked = c.call(7, &create);
    assert_eq!(
        (
            checked.topics[0].error_code,
            checked.topics[0].num_partitions
        ),
        (0, 4)
    );
    // Metadata: every topic is the command line's and the two made, by name and by id.
    let mut all = MetadataRequest::default();
    all.topics = None;
    let m = c.call(12, &all);
    let names: Vec<(String, usize)> = m
        .topics
        .iter()
        .map(|t| (t.name.as_ref().unwrap().0.to_string(), t.partitions.len()))
        .collect();
    assert_eq!(
        names,
        vec![(s("orders"), 3), (s("ord_new"), 2), (s("defaults"), 1)]
    );
    let mut by_id = MetadataRequest::default();
    let mut asked = metadata_request::MetadataRequestTopic::default();
    asked.topic_id = r.topics[0].topic_id;
    asked.name = None;
    by_id.topics = Some(vec![asked]);
    let m = c.call(12, &by_id);
    assert_eq!(m.topics[0].name.as_ref().unwrap().0.as_str(), "ord_new");
    assert_eq!(m.topics[0].error_code, 0);
    // The model's image has it too: a consumer group subscribed to it is assigned its partitions.
    let mut hb = ConsumerGroupHeartbeatRequest::default();
    hb.group_id = GroupId(StrBytes::from_static_str("made"));
    hb.member_id = StrBytes::from_static_str("m1-0000000000000000000");
    hb.member_epoch = 0;
    hb.rebalance_timeout_ms = 30_000;
    hb.subscribed_topic_names = Some(vec![TopicName(StrBytes::from_static_str("ord_new"))]);
    hb.topic_partitions = Some(Vec::new());
    let joined = c.call(1, &hb);
    assert_eq!(joined.error_code, 0);
    let assigned: Vec<i32> = joined
        .assignment
        .as_ref()
        .unwrap()
        .topic_partitions
        .iter()
        .flat_map(|t| t.partitions.clone())
        .collect();
    assert_eq!(assigned, vec![0, 1]);
    drop(c);
    std::thread::sleep(Duration::from_millis(100));
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.matches("\"createTopic\"").count(), 2, "{text}");
    let replayed = trace::replay(&path).unwrap();
    assert_eq!(replayed.topics_created, 2);
}

/// The operator's failover (`failover GROUP MS` on the broker's input): a consumer group
/// (KIP-848) answers NOT_COORDINATOR while its partition is away, and comes back with the same
/// member, epoch and assignment; a second unload is refused and leaves no trace; the unload and
/// load lines replay.
#[test]
fn a_consumer_group_survives_a_failover_with_its_member_and_assignment() {
    use group_broker::driver::Failover;
    let dir = std::env::temp_dir().join(format!("group-broker-failover-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("trace.jsonl");
    let mut o = Options {
        listen: "127.0.0.1:0".parse().unwrap(),
        topics: vec![Topic {
            name: "orders".into(),
            partitions: 3,
        }],
        trace: Some(path.clone()),
        ..Options::default()
    };
    o.model.settings = vec![];
    let running = start(o).unwrap();
    let mut c = Client::connect(running.addr);
    let heartbeat = |epoch: i32| {
        let mut hb = ConsumerGroupHeartbeatRequest::default();
        hb.group_id = GroupId(StrBytes::from_static_str("g"));
        hb.member_id = StrBytes::from_static_str("m1-0000000000000000000");
        hb.member_epoch = epoch;
        hb.rebalance_timeout_ms = 30_000;
        if epoch == 0 {
            hb.subscribed_topic_names = Some(vec![TopicName(StrBytes::from_static_str("orders"))]);
            hb.topic_partitions = Some(Vec::new());
        }
        hb
    };
    let assigned = |r: &ConsumerGroupHeartbeatResponse| -> Option<Vec<i32>> {
        r.assignment.as_ref().map(|a| {
            a.topic_partitions
                .iter()
                .flat_map(|t| t.partitions.clone())
                .collect()
        })
    };
    let joined = c.call(1, &heartbeat(0));
    assert_eq!((joined.error_code, joined.member_epoch), (0, 1));
    assert_eq!(assigned(&joined), Some(vec![0, 1, 2]));

    running.driver.failover(Failover::Unload, "g").unwrap();
    let refused = running.driver.failover(Failover::Unload, "g").unwrap_err();
    assert!(refused.contains("not loaded"), "{refused}");
    let away = c.call(1, &heartbeat(1));
    assert_eq!(away.error_code, 16, "NOT_COORDINATOR while unloaded");

    running.driver.failover(Failover::Load, "g").unwrap();
    let back = c.call(1, &heartbeat(1));
    assert_eq!(
        (
            back.error_code,
            back.member_id.as_ref().map(|m| m.to_string())
        ),
        (0, Some("m1-0000000000000000000".to_string()))
    );
    assert_eq!(back.member_epoch, 1, "the same epoch: nothing to rebalance");
    // A heartbeat at the member's epoch carries no assignment: it has not changed.
    assert_eq!(assigned(&back), None);
    drop(c);
    std::thread::sleep(Duration::from_millis(100));
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        text.matches("\"unload\":{\"groupId\":\"g\"}").count(),
        1,
        "{text}"
    );
    assert_eq!(
        text.matches("\"load\":{\"groupId\":\"g\"}").count(),
        1,
        "{text}"
    );
    let replayed = trace::replay(&path).unwrap();
    assert_eq!(replayed.failovers, 2);
    assert_eq!(replayed.requests, 3);
}
