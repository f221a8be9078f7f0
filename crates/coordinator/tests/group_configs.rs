//! Group configs (KIP-848; `docs/src/reference/consumer-group-protocol.md#group-configs`):
//! IncrementalAlterConfigs and DescribeConfigs of a GROUP resource, validated as Kafka's
//! `GroupConfig.validate` (its test `GroupConfigTest`), and read by the coordinator at a member's
//! next heartbeat (`consumerGroupSessionTimeoutMs(groupId)` and the heartbeat interval).

#![allow(clippy::unwrap_used)]
use group_coordinator::protocol::ConsumerGroupHeartbeatRequest;
use group_coordinator::{AlterConfigOp, AlterableConfig, ConfigSource};
use group_coordinator::{Coordinator, ErrorCode};

const G: &str = "grp";

fn set(name: &str, value: &str) -> AlterableConfig {
    AlterableConfig {
        name: name.into(),
        op: AlterConfigOp::Set,
        value: Some(value.into()),
    }
}

fn delete(name: &str) -> AlterableConfig {
    AlterableConfig {
        name: name.into(),
        op: AlterConfigOp::Delete,
        value: None,
    }
}

fn join(c: &mut Coordinator, now: i64) -> i32 {
    let r = c
        .consumer_group_heartbeat(
            now,
            &ConsumerGroupHeartbeatRequest {
                group_id: G.into(),
                member_id: "m1".into(),
                member_epoch: 0,
                rebalance_timeout_ms: 10_000,
                subscribed_topic_names: Some(vec!["foo".into()]),
                topic_partitions: Some(vec![]),
                ..Default::default()
            },
        )
        .unwrap();
    assert_eq!(r.error_code, ErrorCode::None);
    r.heartbeat_interval_ms
}

fn session_deadline(c: &Coordinator) -> Option<i64> {
    c.timers()
        .into_iter()
        .find(|(k, _)| k == "session-timeout-grp-m1")
        .map(|(_, d)| d)
}

#[test]
fn a_group_config_changes_the_session_and_heartbeat_interval_at_the_next_heartbeat() {
    let mut c = Coordinator::default();
    c.update_metadata(0, &[("foo".into(), None, 2)]).unwrap();
    assert_eq!(join(&mut c, 0), 5_000, "the broker's interval");
    assert_eq!(session_deadline(&c), Some(45_000));
    c.incremental_alter_group_configs(
        G,
        &[
            set("consumer.session.timeout.ms", "60000"),
            set("consumer.heartbeat.interval.ms", "12000"),
        ],
        false,
    )
    .unwrap();
    // Nothing moves before the member's next heartbeat.
    assert_eq!(session_deadline(&c), Some(45_000));
    let r = c
        .consumer_group_heartbeat(
            1_000,
            &ConsumerGroupHeartbeatRequest {
                group_id: G.into(),
                member_id: "m1".into(),
                member_epoch: 1,
                ..Default::default()
            },
        )
        .unwrap();
    assert_eq!(r.heartbeat_interval_ms, 12_000);
    assert_eq!(session_deadline(&c), Some(61_000));
    let described: Vec<(&str, String, ConfigSource)> = c
        .describe_group_configs(G)
        .unwrap()
        .into_iter()
        .map(|e| (e.name, e.value, e.source))
        .collect();
    assert_eq!(
        described,
        [
            (
                "consumer.session.timeout.ms",
                "60000".to_string(),
                ConfigSource::GroupConfig
            ),
            (
                "consumer.heartbeat.interval.ms",
                "12000".to_string(),
                ConfigSource::GroupConfig
            ),
        ]
    );
    // Deleting one goes back to the broker's value.
    c.incremental_alter_group_configs(G, &[delete("consumer.heartbeat.interval.ms")], false)
        .unwrap();
    let heartbeat = &c.describe_group_configs(G).unwrap()[1];
    assert_eq!(
        (heartbeat.value.as_str(), heartbeat.source),
        ("5000", ConfigSource::Default)
    );
    c.check_invariants().unwrap();
}

#[test]
fn group_configs_are_validated_as_kafka_validates_them() {
    let mut c = Coordinator::default();
    let refused = |c: &mut Coordinator, ops: &[AlterableConfig]| {
        c.incremental_alter_group_configs(G, ops, false)
            .unwrap_err()
    };
    let invalid = |m: &str| (ErrorCode::InvalidConfig, m.to_string());
    assert_eq!(
        refused(&mut c, &[set("session.timeout.ms", "50000")]),
        invalid("Unknown group config name: session.timeout.ms")
    );
    assert_eq!(
        refused(&mut c, &[set("consumer.session.timeout.ms", "fifty")]),
        invalid(
            "Invalid value fifty for configuration consumer.session.timeout.ms: Not a number of type INT"
        )
    );
    assert_eq!(
        refused(&mut c, &[set("consumer.heartbeat.interval.ms", "0")]),
        invalid(
            "Invalid value 0 for configuration consumer.heartbeat.interval.ms: Value must be at least 1"
        )
    );
    assert_eq!(
        refused(&mut c, &[set("consumer.session.timeout.ms", "44999")]),
        invalid(
            "consumer.session.timeout.ms must be greater than or equal to group.consumer.min.session.timeout.ms"
        )
    );
    assert_eq!(
        refused(&mut c, &[set("consumer.session.timeout.ms", "60001")]),
        invalid(
            "consumer.session.timeout.ms must be less than or equal to group.consumer.max.session.timeout.ms"
        )
    );
    assert_eq!(
        refused(&mut c, &[set("consumer.heartbeat.interval.ms", "15001")]),
        invalid(
            "consumer.heartbeat.interval.ms must be less than or equal to group.consumer.max.heartbeat.interval.ms"
        )
    );
    // Within each bound, but not a session longer than the interval (with wider bounds).
    c.config_mut().group_consumer_max_heartbeat_interval_ms = 50_000;
    assert_eq!(
        refused(&mut c, &[set("consumer.heartbeat.interval.ms", "45000")]),
        invalid("consumer.session.timeout.ms must be greater than consumer.heartbeat.interval.ms")
    );
    assert_eq!(
        refused(
            &mut c,
            &[AlterableConfig {
                name: "consumer.session.timeout.ms".into(),
                op: AlterConfigOp::Append,
                value: Some("1".into()),
            }]
        ),
        invalid("Can't APPEND to key consumer.session.timeout.ms because its type is not LIST.")
    );
    assert_eq!(
        c.incremental_alter_group_configs("", &[], false)
            .unwrap_err()
            .0,
        ErrorCode::InvalidRequest
    );
    // A refused change, or one only validated, changes nothing.
    c.incremental_alter_group_configs(G, &[set("consumer.session.timeout.ms", "50000")], true)
        .unwrap();
    assert!(
        c.describe_group_configs(G)
            .unwrap()
            .iter()
            .all(|e| e.source == ConfigSource::Default)
    );
}
