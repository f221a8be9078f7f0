//! Group configs, CreateTopics, and a consumer group through a failover, over the wire.

use super::*;

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
