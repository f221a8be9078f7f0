//! A group over the wire, bad frames, trailing bytes, commits, API versions, settings.

use super::*;

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
