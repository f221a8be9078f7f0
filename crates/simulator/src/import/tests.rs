//! Each format from real output (`tests/import/`, written from Kafka's `ConsumerGroupCommand`),
//! and a malformed input per format.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::*;
use crate::scenario::Setting;

macro_rules! fixture {
    ($name:literal) => {
        include_str!(concat!("../../tests/import/", $name))
    };
}

fn imported(s: &Scenario) -> &Imported {
    s.imported.as_ref().expect("an imported scenario says so")
}

fn names(s: &Scenario) -> Vec<&str> {
    s.consumers.iter().map(|c| c.name.as_str()).collect()
}

fn text(s: &Settings, key: &str) -> Option<String> {
    match s.get(key)? {
        Setting::Text(t) => Some(t.clone()),
        other => Some(other.to_text()),
    }
}

#[test]
fn kafka4_members_verbose_of_a_consumer_group() {
    let s = import_group(fixture!("kafka4-members-verbose-consumer.txt")).unwrap();
    assert_eq!(s.group_id, "orders-app");
    assert_eq!(names(&s), ["c1", "c2", "c3"]);
    assert_eq!(s.topics.get("orders"), Some(&6));
    assert_eq!(s.topics.get("payments"), Some(&3));
    assert_eq!(
        text(&s.consumer, "group.protocol").as_deref(),
        Some("consumer")
    );
    let i = imported(&s);
    assert_eq!(i.protocol, "consumer");
    assert_eq!(i.assignment["c2"], ["orders-2", "orders-3", "payments-1"]);
    assert_eq!(
        i.sources,
        ["kafka-consumer-groups.sh --describe --members --verbose"]
    );
    // What the text does not say is assumed, and listed.
    assert!(
        i.assumed
            .contains(&"broker.group.consumer.session.timeout.ms".to_string())
    );
    assert!(i.assumed.contains(&"processingMs".to_string()));
    assert!(
        s.consumers
            .iter()
            .all(|c| c.topics == ["orders", "payments"])
    );
}

#[test]
fn kafka4_static_members_keep_their_instance_ids_and_an_empty_column_stays_empty() {
    let s = import_group(fixture!("kafka4-members-verbose-classic-static.txt")).unwrap();
    assert_eq!(s.group_id, "billing");
    let ids: Vec<Option<String>> = s
        .consumers
        .iter()
        .map(|c| text(&c.config, "group.instance.id"))
        .collect();
    assert_eq!(
        ids,
        [Some("app-host-1".into()), None, Some("app-host-3".into())]
    );
    // The classic group's epochs are "-": the classic protocol, said by the tool itself.
    assert_eq!(imported(&s).protocol, "classic");
    assert_eq!(text(&s.consumer, "group.protocol"), None);
    assert!(imported(&s).assignment["app-3"].is_empty());
    assert_eq!(s.topics.get("orders"), Some(&6));
}

#[test]
fn a_migrating_group_starts_its_classic_members_on_the_classic_protocol() {
    let s = import_group(fixture!("kafka4-members-verbose-migrating.txt")).unwrap();
    let protocols: Vec<Option<String>> = s
        .consumers
        .iter()
        .map(|c| text(&c.config, "group.protocol"))
        .collect();
    assert_eq!(
        protocols,
        [None, Some("classic".into()), Some("classic".into())]
    );
    assert_eq!(
        text(&s.consumer, "group.protocol").as_deref(),
        Some("consumer")
    );
}

#[test]
fn kafka3_members_verbose_names_topics_in_parentheses() {
    let s = import_group(fixture!("kafka3-members-verbose.txt")).unwrap();
    assert_eq!(s.group_id, "legacy-app");
    assert_eq!(
        imported(&s).assignment["c1"],
        ["orders-0", "orders-1", "payments-0"]
    );
    assert_eq!(imported(&s).protocol, "classic");
}

#[test]
fn kafka39_members_without_topics_are_refused_alone_and_read_with_offsets() {
    let alone = import_group(fixture!("kafka39-members-verbose.txt")).unwrap_err();
    assert!(alone.message.contains("--offsets"), "{alone}");
    let text = [
        fixture!("kafka39-members-verbose.txt"),
        fixture!("kafka-offsets.txt"),
        fixture!("kafka4-state-classic.txt"),
    ]
    .concat();
    let s = import_group(&text).unwrap();
    assert_eq!(
        imported(&s).assignment["c3"],
        ["orders-4", "orders-5", "payments-2"]
    );
    // The offsets name a seventh partition that no one owns.
    assert_eq!(s.topics.get("orders"), Some(&7));
    assert_eq!(imported(&s).state.as_deref(), Some("Stable"));
    assert_eq!(
        text_of(&s.consumer, "partition.assignment.strategy").as_deref(),
        Some("cooperative-sticky")
    );
    assert_eq!(imported(&s).sources.len(), 3);
}

fn text_of(s: &Settings, key: &str) -> Option<String> {
    text(s, key)
}

#[test]
fn offsets_alone_give_members_and_partitions() {
    let s = import_group(fixture!("kafka-offsets.txt")).unwrap();
    assert_eq!(names(&s), ["c1", "c2", "c3"]);
    assert_eq!(
        imported(&s).assignment["c1"],
        ["orders-0", "orders-1", "payments-0"]
    );
    assert!(
        imported(&s)
            .notes
            .iter()
            .any(|n| n.en.contains("group.instance.id"))
    );
}

#[test]
fn state_verbose_says_the_protocol_and_the_server_assignor() {
    let text = [
        fixture!("kafka4-members-verbose-consumer.txt"),
        fixture!("kafka4-state-verbose-consumer.txt"),
    ]
    .concat();
    let s = import_group(&text).unwrap();
    assert_eq!(
        text_of(&s.consumer, "group.remote.assignor").as_deref(),
        Some("uniform")
    );
    assert_eq!(imported(&s).state.as_deref(), Some("Stable"));
}

#[test]
fn state_alone_has_no_members() {
    let e = import_group(fixture!("kafka4-state-verbose-consumer.txt")).unwrap_err();
    assert!(e.message.contains("no member"), "{e}");
}

#[test]
fn java_admin_json() {
    let s = import_group(fixture!("java-describe.json")).unwrap();
    assert_eq!(s.group_id, "orders-app");
    // Both members have the client id "orders-consumer": their hosts tell them apart.
    assert_eq!(
        names(&s),
        ["orders-consumer@10.0.0.7", "orders-consumer@10.0.0.8"]
    );
    assert_eq!(
        text_of(&s.consumers[1].config, "group.instance.id").as_deref(),
        Some("orders-host-2")
    );
    assert_eq!(
        text_of(&s.consumer, "group.remote.assignor").as_deref(),
        Some("range")
    );
    assert_eq!(s.topics.get("orders"), Some(&4));
}

#[test]
fn confluent_kafka_json() {
    let s = import_group(fixture!("confluent-describe.json")).unwrap();
    assert_eq!(s.group_id, "payments-app");
    assert_eq!(imported(&s).protocol, "classic");
    assert_eq!(imported(&s).state.as_deref(), Some("Stable"));
    assert_eq!(names(&s), ["rdkafka@127.0.0.1", "rdkafka@127.0.0.2"]);
    assert_eq!(s.topics.get("payments"), Some(&4));
}

#[test]
fn json_says_which_field_is_wrong() {
    let e = import_group(r#"{"groupId":"g","members":[{"memberId":"m","assignment":{"topicPartitions":[{"topic":"t"}]}}]}"#)
        .unwrap_err();
    assert_eq!(e.line, 0);
    assert!(
        e.message
            .starts_with("members[0].assignment.topicPartitions[0]"),
        "{e}"
    );
    let e = import_group("{\n  \"groupId\": \"g\",\n  \"members\": [\n}").unwrap_err();
    assert_eq!(e.line, 4, "{e}");
    let e = import_group(r#"{"groupId":"g","state":"SLEEPING","members":[]}"#).unwrap_err();
    assert!(e.message.contains("SLEEPING"), "{e}");
    let e = import_group(r#"{"groups":[1,2]}"#).unwrap_err();
    assert!(e.message.contains("members"), "{e}");
}

#[test]
fn text_faults_name_their_line() {
    // A row whose assignment disagrees with its count.
    let bad = fixture!("kafka4-members-verbose-consumer.txt").replacen(
        "orders:0,1;payments:0 ",
        "orders:0;payments:0   ",
        1,
    );
    let e = import_group(&bad).unwrap_err();
    assert_eq!(e.line, 3, "{e}");
    assert!(e.message.contains("#PARTITIONS says 3"), "{e}");
    // Words before any header.
    let e = import_group("hello\nGROUP CONSUMER-ID HOST CLIENT-ID #PARTITIONS\n").unwrap_err();
    assert_eq!(e.line, 1);
    assert!(e.message.contains("expected a header"), "{e}");
    // A share group's table.
    let e = import_group("GROUP TOPIC PARTITION START-OFFSET\n").unwrap_err();
    assert!(e.message.contains("START-OFFSET"), "{e}");
    // A row with a word too many, its spacing lost.
    let e = import_group("GROUP CONSUMER-ID HOST CLIENT-ID #PARTITIONS\ng m h c 0 extra\n")
        .unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.message.contains("expected the 5 columns"), "{e}");
    // The tool's own error.
    let e = import_group("\nError: Consumer group 'nope' does not exist.\n").unwrap_err();
    assert_eq!(e.line, 2);
    // A bad topic name inside an assignment.
    let e = import_group(
        "GROUP CONSUMER-ID HOST CLIENT-ID #PARTITIONS CURRENT-EPOCH CURRENT-ASSIGNMENT TARGET-EPOCH TARGET-ASSIGNMENT\ng m h c 1 3 or/ders:0 3 -\n",
    )
    .unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.message.contains("topic"), "{e}");
}

#[test]
fn rows_whose_spacing_was_lost_are_read_by_their_words() {
    let collapsed: String = fixture!("kafka3-members-verbose.txt")
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" ") + "\n")
        .collect();
    let s = import_group(&collapsed).unwrap();
    assert_eq!(
        imported(&s).assignment["c2"],
        ["orders-2", "orders-3", "payments-1"]
    );
}

#[test]
fn an_empty_group_and_other_groups() {
    let e = import_group("\nConsumer group 'quiet' has no active members.\n").unwrap_err();
    assert!(e.message.contains("Empty"), "{e}");
    let two = [
        fixture!("kafka4-members-verbose-consumer.txt"),
        &fixture!("kafka4-members-verbose-consumer.txt").replace("orders-app", "other-app "),
    ]
    .concat();
    let s = import_group(&two).unwrap();
    assert_eq!(s.consumers.len(), 3);
    assert!(
        imported(&s)
            .notes
            .iter()
            .any(|n| n.en.contains("other-app"))
    );
}

#[test]
fn an_imported_scenario_runs_and_round_trips() {
    let s = import_group(fixture!("kafka4-members-verbose-consumer.txt")).unwrap();
    let back = Scenario::from_json(&s.to_json()).unwrap();
    assert_eq!(back, s);
    let mut sim = crate::Simulation::new(s).unwrap();
    sim.run_until(30_000);
    let m = sim.metrics();
    assert_eq!(m.invariant_violations, 0);
    assert!(sim.snapshot().consumers.iter().all(|c| !c.owned.is_empty()));
}

#[test]
fn the_pages_example_is_thirty_processes_told_apart_by_their_hosts() {
    let s = import_group(fixture!("kafka4-example.txt")).unwrap();
    assert_eq!(s.consumers.len(), 30);
    assert_eq!(s.consumers[0].name, "consumer-orders-app-1@10.0.1.11");
    assert_eq!(s.topics.get("orders"), Some(&48));
    assert_eq!(s.topics.get("payments"), Some(&12));
    assert_eq!(
        text_of(&s.consumer, "partition.assignment.strategy").as_deref(),
        Some("cooperative-sticky")
    );
    let i = imported(&s);
    assert_eq!(i.protocol, "classic");
    assert_eq!(i.state.as_deref(), Some("Stable"));
    assert_eq!(i.assignor.as_deref(), Some("cooperative-sticky"));
    assert_eq!(i.assignment.values().map(Vec::len).sum::<usize>(), 60);
}

#[test]
fn a_live_group_is_read_from_the_coordinator_as_its_description_would_be() {
    for (name, protocol, assignor) in [
        (
            "rolling-restart-cooperative",
            "classic",
            "cooperative-sticky",
        ),
        ("consumer-protocol-rolling-restart", "consumer", "uniform"),
    ] {
        let base = crate::builtin::scenario(name).unwrap();
        let mut sim = crate::Simulation::new(base.clone()).unwrap();
        sim.run_until(15_000);
        let s = import_live(sim.coordinator(), &base.group_id).unwrap();
        assert_eq!(s.group_id, base.group_id);
        assert_eq!(s.consumers.len(), base.consumers.len(), "{name}");
        assert_eq!(
            s.topics, base.topics,
            "{name}: the metadata's partition counts"
        );
        let i = imported(&s);
        assert_eq!(i.protocol, protocol, "{name}");
        assert_eq!(i.assignor.as_deref(), Some(assignor), "{name}");
        assert_eq!(i.state.as_deref(), Some("Stable"), "{name}");
        let owned: usize = i.assignment.values().map(Vec::len).sum();
        assert_eq!(
            owned as i32,
            base.topics.values().sum::<i32>(),
            "{name}: every partition owned"
        );
    }
    let sim =
        crate::Simulation::new(crate::builtin::scenario("rolling-restart-cooperative").unwrap())
            .unwrap();
    assert!(import_live(sim.coordinator(), "nobody").is_err());
}

#[test]
fn each_layout_refuses_its_own_malformed_rows() {
    // --offsets: a partition that is not a number.
    let offsets =
        fixture!("kafka-offsets.txt").replacen("orders          1 ", "orders          x ", 1);
    let e = import_group(&offsets).unwrap_err();
    assert_eq!(e.line, 4, "{e}");
    assert!(
        e.message.contains("PARTITION") || e.message.contains("partition"),
        "{e}"
    );
    // --state: a state no group has.
    let state = [
        fixture!("kafka4-members-verbose-consumer.txt"),
        &fixture!("kafka4-state-verbose-consumer.txt").replace("Stable  ", "Sleepy  "),
    ]
    .concat();
    let e = import_group(&state).unwrap_err();
    assert!(e.message.contains("\"Sleepy\" is not a group state"), "{e}");
    // Kafka 3's --members --verbose: an assignment without its closing parenthesis's partner.
    let kafka3 = fixture!("kafka3-members-verbose.txt").replacen("orders(0,1)", "orders0,1)", 1);
    let e = import_group(&kafka3).unwrap_err();
    assert_eq!(e.line, 3, "{e}");
    // JSON: a member without its id.
    let e = import_group(r#"[{"group_id":"g","members":[{"client_id":"c"}]}]"#).unwrap_err();
    assert!(e.message.contains("members[0]: no memberId"), "{e}");
}
