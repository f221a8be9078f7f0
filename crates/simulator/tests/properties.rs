//! Random worlds (consumers, settings, network, faults and actions at random times) run for a
//! simulated hour: nothing panics, and no invariant breaks (among them: no partition is
//! processed by two members of the same generation or epoch, and the coordinator's own
//! bookkeeping holds). Once with classic consumers, once with consumer-protocol (KIP-848)
//! consumers, and once with both in one group, consumers switching protocol as they restart
//! (mixed groups and online migration). Fixed seeds: CI cannot fail by chance; a failure prints the scenario JSON to
//! replay.

use group_simulator::{Scenario, Simulation};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use std::sync::atomic::{AtomicUsize, Ordering};

const HOUR: i64 = 3_600_000;

#[derive(Clone, Debug)]
struct World {
    seed: u64,
    topics: Vec<i32>,
    consumers: Vec<(u8, bool, u8, i64, i64, i64)>,
    network: (i64, i64, u32),
    actions: Vec<(i64, u8, usize, i64)>,
    delay: i64,
}

fn world() -> impl Strategy<Value = World> {
    (
        any::<u64>(),
        prop::collection::vec(1i32..12, 1..4),
        prop::collection::vec(
            (
                0u8..4,
                any::<bool>(),
                0u8..8,
                6_000i64..40_000,
                5_000i64..120_000,
                0i64..500,
            ),
            1..7,
        ),
        (0i64..60, 0i64..60, 0u32..30_000),
        prop::collection::vec((0i64..HOUR, 0u8..14, 0usize..8, 0i64..60_000), 0..24),
        prop_oneof![Just(0i64), Just(3_000)],
    )
        .prop_map(|(seed, topics, consumers, network, actions, delay)| World {
            seed,
            topics,
            consumers,
            network,
            actions,
            delay,
        })
}

const STRATEGIES: [&str; 4] = ["range", "roundrobin", "sticky", "cooperative-sticky"];

/// The consumers' protocol: classic, or the consumer protocol with a server assignor per
/// consumer (the group's preferred one is the most asked for).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Protocol {
    Classic,
    Consumer,
    /// Each consumer starts with one protocol or the other, and the script may switch a
    /// consumer's `group.protocol` (it takes effect at its next start).
    Mixed,
}

const SERVER_ASSIGNORS: [&str; 2] = ["uniform", "range"];

fn to_json(w: &World, protocol: Protocol) -> String {
    let topics: Vec<String> = w
        .topics
        .iter()
        .enumerate()
        .map(|(i, n)| format!(r#""t{i}": {n}"#))
        .collect();
    let consumers: Vec<String> = w
        .consumers
        .iter()
        .enumerate()
        .map(|(i, (strategy, is_static, subs, session, poll, start))| {
            let subscribed: Vec<String> = (0..w.topics.len())
                .filter(|t| subs & (1 << t) != 0 || *t == 0)
                .map(|t| format!(r#""t{t}""#))
                .collect();
            let mut instance = if *is_static {
                format!(r#", "group.instance.id": "i{i}""#)
            } else {
                String::new()
            };
            if protocol == Protocol::Consumer {
                instance += &format!(
                    r#", "group.remote.assignor": "{}""#,
                    SERVER_ASSIGNORS[*strategy as usize % 2]
                );
            }
            if protocol == Protocol::Mixed {
                let own = if start % 2 == 0 { "classic" } else { "consumer" };
                instance += &format!(r#", "group.protocol": "{own}""#);
            }
            format!(
                r#"{{ "name": "c{i}", "topics": [{}], "startMs": {start},
                     "config": {{ "partition.assignment.strategy": "{}", "session.timeout.ms": {session},
                                  "heartbeat.interval.ms": {}, "max.poll.interval.ms": {poll} {instance} }} }}"#,
                subscribed.join(","),
                STRATEGIES[*strategy as usize],
                session / 3
            )
        })
        .collect();
    let n = w.consumers.len();
    let script: Vec<String> = w
        .actions
        .iter()
        .enumerate()
        .map(|(k, (at, kind, who, arg))| {
            let c = format!("c{}", who % n);
            let action = match kind {
                0 => format!(r#"{{ "type": "crash", "consumer": "{c}" }}"#),
                1 => format!(r#"{{ "type": "close", "consumer": "{c}" }}"#),
                2 => format!(r#"{{ "type": "start", "consumer": "{c}" }}"#),
                3 => format!(r#"{{ "type": "restart", "consumer": "{c}", "downMs": {arg} }}"#),
                4 => format!(r#"{{ "type": "pause", "consumer": "{c}", "kind": "gc" }}"#),
                5 => format!(r#"{{ "type": "pause", "consumer": "{c}", "kind": "processing" }}"#),
                6 => format!(r#"{{ "type": "resume", "consumer": "{c}" }}"#),
                7 => format!(r#"{{ "type": "cut", "consumer": "{c}" }}"#),
                8 => format!(r#"{{ "type": "heal", "consumer": "{c}" }}"#),
                9 => format!(
                    r#"{{ "type": "subscribe", "consumer": "{c}", "topics": ["t{}"] }}"#,
                    arg % w.topics.len() as i64
                ),
                10 => format!(r#"{{ "type": "failover", "downMs": {} }}"#, arg % 5_000),
                11 => r#"{ "type": "failNextPersist", "error": "NOT_LEADER_OR_FOLLOWER" }"#.to_string(),
                12 => format!(r#"{{ "type": "addConsumer", "name": "x{k}", "topics": ["t0"] }}"#),
                13 if arg % 3 == 0 => {
                    // An admin adds partitions (refused, by name, when the topic already has
                    // as many: the run goes on).
                    let t = (arg / 3) as usize % w.topics.len();
                    format!(
                        r#"{{ "type": "createPartitions", "topic": "t{t}", "count": {} }}"#,
                        w.topics[t] + 1 + (arg % 5) as i32
                    )
                }
                13 if protocol == Protocol::Mixed => {
                    let to = if arg % 2 == 0 { "classic" } else { "consumer" };
                    format!(
                        r#"{{ "type": "setConfig", "consumer": "{c}", "config": {{ "group.protocol": "{to}" }} }}"#
                    )
                }
                _ => format!(
                    r#"{{ "type": "setNetwork", "consumer": "{c}", "latencyMs": {}, "loss": 0.01 }}"#,
                    arg % 200
                ),
            };
            format!(r#"{{ "atMs": {at}, "action": {action} }}"#)
        })
        .collect();
    let (latency, jitter, loss_ppm) = w.network;
    // Every consumer, those added by the script too.
    let group_protocol = match protocol {
        Protocol::Classic | Protocol::Mixed => "classic",
        Protocol::Consumer => "consumer",
    };
    format!(
        r#"{{ "name": "random", "title": {{ "en": "random", "zh": "随机" }}, "seed": {},
             "broker": {{ "group.initial.rebalance.delay.ms": {} }},
             "consumer": {{ "group.protocol": "{group_protocol}" }},
             "topics": {{ {} }},
             "network": {{ "latencyMs": {latency}, "jitterMs": {jitter}, "loss": {} }},
             "consumers": [{}], "script": [{}], "durationMs": {HOUR} }}"#,
        w.seed,
        w.delay,
        topics.join(","),
        f64::from(loss_ppm) / 1_000_000.0,
        consumers.join(","),
        script.join(",")
    )
}

#[test]
fn random_worlds_run_an_hour_without_breaking_an_invariant() {
    run_worlds(Protocol::Classic, &CLASSIC_RUN);
}

#[test]
fn random_consumer_protocol_worlds_run_an_hour_without_breaking_an_invariant() {
    run_worlds(Protocol::Consumer, &CONSUMER_RUN);
}

#[test]
fn random_mixed_protocol_worlds_run_an_hour_without_breaking_an_invariant() {
    run_worlds(Protocol::Mixed, &MIXED_RUN);
}

fn run_worlds(protocol: Protocol, run: &AtomicUsize) {
    let mut runner = TestRunner::new_with_rng(
        Config {
            cases: 48,
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]),
    );
    runner
        .run(&world(), |w| {
            let json = to_json(&w, protocol);
            let scenario = match Scenario::from_json(&json) {
                Ok(s) => s,
                Err(e) => {
                    // Two static consumers may draw the same instance id: refused, by name.
                    prop_assert!(e.to_string().contains("group.instance.id"), "{e}\n{json}");
                    return Ok(());
                }
            };
            run.fetch_add(1, Ordering::Relaxed);
            let mut sim = Simulation::new(scenario).expect("checked");
            sim.run_until(HOUR);
            let m = sim.metrics();
            // The world speaks the protocol it was given (an hour always sees a join).
            let text = sim.render();
            match protocol {
                Protocol::Classic => prop_assert!(
                    text.contains("sends JoinGroup") && !text.contains("ConsumerGroupHeartbeat"),
                    "{json}"
                ),
                Protocol::Consumer => prop_assert!(
                    text.contains("sends ConsumerGroupHeartbeat") && !text.contains("JoinGroup"),
                    "{json}"
                ),
                Protocol::Mixed => {
                    if text.contains("online upgrade") || text.contains("online downgrade") {
                        MIGRATED.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
            let violations: Vec<String> = sim
                .render()
                .lines()
                .filter(|l| l.contains("INVARIANT"))
                .take(5)
                .map(String::from)
                .collect();
            prop_assert_eq!(
                m.invariant_violations,
                0,
                "{}\n{}",
                violations.join("\n"),
                json
            );
            Ok(())
        })
        .expect("no invariant violated");
    assert!(run.load(Ordering::Relaxed) >= 40, "too few worlds ran");
    if protocol == Protocol::Mixed {
        // The mixed worlds do exercise the conversions, not only mixed groups.
        assert!(
            MIGRATED.load(Ordering::Relaxed) >= 10,
            "only {} worlds migrated",
            MIGRATED.load(Ordering::Relaxed)
        );
    }
}

static CLASSIC_RUN: AtomicUsize = AtomicUsize::new(0);
static CONSUMER_RUN: AtomicUsize = AtomicUsize::new(0);
static MIXED_RUN: AtomicUsize = AtomicUsize::new(0);
/// Mixed worlds in which the group changed type at least once.
static MIGRATED: AtomicUsize = AtomicUsize::new(0);
