//! Assignor benchmarks over Kafka's JMH grid (`docs/src/reference/assignors.md#jmh-grid`): members 100/1,000/10,000, about 10
//! partitions per member, 10/100/1,000 topics, homogeneous and heterogeneous subscriptions
//! (5 buckets), fresh and "one member joins" (the others report what they own, generation 1).
//! `cargo bench -p group-coordinator --bench assignors [-- filter]`; prints one line per cell
//! (`BENCH assignor,...,ms`) for `scripts/bench.sh`.
#![allow(clippy::disallowed_types, clippy::unwrap_used)]

use group_coordinator::assignor::{
    AssignmentInput, CompactInput, MemberSubscription, Strategy, assign, assign_compact, prepare,
    validate, validate_cooperative,
};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Subscriptions {
    Homogeneous,
    Heterogeneous,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Fresh,
    Join,
}

/// The JMH setup: `partitionsPerTopic = members * 10 / topics`; heterogeneous = 5 buckets of
/// members, bucket k subscribing to bucket k's topics.
fn input(members: usize, topics: usize, subs: Subscriptions) -> AssignmentInput {
    input_with(members, topics, subs, (members * 10 / topics).max(1) as i32)
}

fn input_with(
    members: usize,
    topics: usize,
    subs: Subscriptions,
    per_topic: i32,
) -> AssignmentInput {
    let names: Vec<String> = (0..topics).map(|t| format!("topic-{t}")).collect();
    let buckets = 5;
    let bucket_topics = topics.div_ceil(buckets);
    let ms = (0..members)
        .map(|m| {
            let topics = match subs {
                Subscriptions::Homogeneous => names.clone(),
                Subscriptions::Heterogeneous => {
                    let b = m % buckets;
                    names
                        .iter()
                        .skip(b * bucket_topics)
                        .take(bucket_topics)
                        .cloned()
                        .collect()
                }
            };
            MemberSubscription {
                member_id: format!("member-{m:05}"),
                topics,
                ..Default::default()
            }
        })
        .collect();
    AssignmentInput {
        topics: names.into_iter().map(|n| (n, per_topic)).collect(),
        members: ms,
        ..Default::default()
    }
}

/// `members - 1` members own what a fresh assignment gave them; a new member (with the topics
/// of member `members - 2`) joins.
fn join_input(
    strategy: Strategy,
    members: usize,
    topics: usize,
    subs: Subscriptions,
) -> AssignmentInput {
    let mut i = input_with(
        members - 1,
        topics,
        subs,
        (members * 10 / topics).max(1) as i32,
    );
    let base = match strategy {
        Strategy::CooperativeSticky => Strategy::Sticky,
        s => s,
    };
    let out = assign(base, &i).unwrap();
    for m in &mut i.members {
        m.owned_partitions = out[&m.member_id].clone();
        m.generation_id = Some(1);
    }
    let topics_of_neighbour = i.members[i.members.len().saturating_sub(1)].topics.clone();
    i.members.push(MemberSubscription {
        member_id: "member-new".into(),
        topics: topics_of_neighbour,
        ..Default::default()
    });
    i
}

/// Median time of repeated runs of `run` (after one warm-up run), within a time budget. Each
/// result is dropped after its clock stops.
fn median<T>(mut run: impl FnMut() -> T) -> Duration {
    drop(run());
    let budget = Duration::from_millis(1500);
    let started = Instant::now();
    let mut samples = Vec::new();
    while samples.len() < 3 || (started.elapsed() < budget && samples.len() < 200) {
        let t = Instant::now();
        let out = run();
        samples.push(t.elapsed());
        drop(std::hint::black_box(out));
    }
    samples.sort();
    samples[samples.len() / 2]
}

/// The phases of one assignment: the whole `assign` (names in, names out); `prepare` alone
/// (interning); the assignor alone on the interned input (what
/// `docs/src/reference/assignors.md#targets`'s targets measure); and the whole call in the
/// compact form (`assign_compact`, the input already in arrays). What is left of the whole
/// after preparing and assigning is naming the output.
struct Phases {
    whole: Duration,
    prepare: Duration,
    interned: Duration,
    compact: Duration,
}

fn time(strategy: Strategy, i: &AssignmentInput) -> Phases {
    let out = assign(strategy, i).unwrap();
    // Complete, except what cooperative-sticky withholds while it changes owner.
    match strategy {
        Strategy::CooperativeSticky => validate_cooperative(i, &out).unwrap(),
        _ => validate(i, &out).unwrap(),
    }
    let whole = median(|| assign(strategy, i).unwrap());
    let prepare_only = median(|| prepare(i).map(|p| p.partitions()).unwrap());
    let prepared = prepare(i).unwrap();
    assert_eq!(prepared.output(prepared.assign(strategy).unwrap()), out);
    let interned = median(|| prepared.assign(strategy).unwrap());
    let c = CompactInput::of(i);
    let compact = median(|| assign_compact(strategy, &c).unwrap());
    Phases {
        whole,
        prepare: prepare_only,
        interned,
        compact,
    }
}

fn main() {
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    println!(
        "{:<20} {:>7} {:>6} {:>8} {:>13} {:>6} {:>12} {:>12}",
        "assignor",
        "members",
        "topics",
        "parts",
        "subscriptions",
        "mode",
        "median ms",
        "interned ms"
    );
    for members in [100, 1_000, 10_000] {
        for topics in [10, 100, 1_000] {
            for subs in [Subscriptions::Homogeneous, Subscriptions::Heterogeneous] {
                for mode in [Mode::Fresh, Mode::Join] {
                    for strategy in [
                        Strategy::Range,
                        Strategy::RoundRobin,
                        Strategy::Sticky,
                        Strategy::CooperativeSticky,
                    ] {
                        let sub_name = if subs == Subscriptions::Homogeneous {
                            "homogeneous"
                        } else {
                            "heterogeneous"
                        };
                        let mode_name = if mode == Mode::Fresh { "fresh" } else { "join" };
                        let key = format!(
                            "{},{members},{topics},{sub_name},{mode_name}",
                            strategy.name()
                        );
                        if !filter.is_empty() && !filter.iter().any(|f| key.contains(f.as_str())) {
                            continue;
                        }
                        let i = match mode {
                            Mode::Fresh => input(members, topics, subs),
                            Mode::Join => join_input(strategy, members, topics, subs),
                        };
                        let partitions: i32 = i.topics.values().sum();
                        let phases = time(strategy, &i);
                        let ms = phases.whole.as_secs_f64() * 1e3;
                        let interned_ms = phases.interned.as_secs_f64() * 1e3;
                        println!(
                            "{:<20} {members:>7} {topics:>6} {partitions:>8} {sub_name:>13} {mode_name:>6} {ms:>12.3} {interned_ms:>12.3}",
                            strategy.name()
                        );
                        println!("BENCH {key},{ms:.4}");
                        println!("INTERNED {key},{interned_ms:.4}");
                        println!("PREPARE {key},{:.4}", phases.prepare.as_secs_f64() * 1e3);
                        println!("COMPACT {key},{:.4}", phases.compact.as_secs_f64() * 1e3);
                    }
                }
            }
        }
    }
}
