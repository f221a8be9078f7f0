//! The server-side assignors (KIP-848 `uniform` and `range`) over Kafka's
//! `ServerSideAssignorBenchmark` grid (`docs/src/reference/assignors.md#jmh-grid`): members 100/1,000/10,000, 10 partitions per
//! member, 10/100/1,000 topics, homogeneous and heterogeneous (5 buckets) subscriptions, FULL
//! (no previous target) and INCREMENTAL (`M − 1` members with their previous target, and a new
//! member with member `M − 2`'s topics). Prints `BENCH server-<assignor>,M,T,subs,mode,ms`
//! lines (median; the assignor alone), `COMPACT` lines (the whole `server_assign_compact` call
//! on the same group, as the wasm module's `serverAssignCompact` makes it) with Kafka's Java figures measured in `docs/src/reference/assignors.md#java-figures` for `scripts/bench.sh`.
//! `cargo bench -p group-coordinator --bench server_assignors [-- filter]`.
#![allow(clippy::disallowed_types, clippy::unwrap_used)]

use group_coordinator::assignor::CompactInput;
use group_coordinator::consumer_group::Uuid;
use group_coordinator::consumer_group::assignor::{
    GroupSpec, MemberSpec, ServerAssignor, SubscriptionType, server_assign_compact, topic_ids,
};
use std::time::{Duration, Instant};

fn spec(members: usize, topics: usize, heterogeneous: bool) -> GroupSpec<'static> {
    let ids: Vec<Uuid> = (0..topics)
        .map(|t| Uuid::for_topic_name(&format!("topic-{t}")))
        .collect();
    let per_topic = (members * 10 / topics).max(1) as i32;
    let bucket = topics.div_ceil(5);
    GroupSpec {
        // As Kafka's benchmark gives it.
        subscription_type: Some(if heterogeneous {
            SubscriptionType::Heterogeneous
        } else {
            SubscriptionType::Homogeneous
        }),
        partitions: ids.iter().map(|t| (*t, per_topic)).collect(),
        members: (0..members)
            .map(|m| MemberSpec {
                member_id: format!("member-{m:05}").into(),
                subscribed: if heterogeneous {
                    topic_ids(ids.iter().skip((m % 5) * bucket).take(bucket).copied()).into()
                } else {
                    topic_ids(ids.iter().copied()).into()
                },
                ..MemberSpec::default()
            })
            .collect(),
    }
}

/// `M − 1` members holding their previous target, and a new one (member `M − 2`'s topics).
fn incremental(
    assignor: ServerAssignor,
    members: usize,
    topics: usize,
    heterogeneous: bool,
) -> GroupSpec<'static> {
    let mut s = spec(members, topics, heterogeneous);
    let newcomer = s.members.pop().unwrap();
    let previous = assignor.assign(&s).unwrap();
    for (i, m) in s.members.iter_mut().enumerate() {
        m.previous = std::borrow::Cow::Owned(previous.member_assignment(i));
    }
    let topics_of = s.members.last().unwrap().subscribed.clone();
    s.members.push(MemberSpec {
        member_id: "member-new".into(),
        subscribed: topics_of,
        ..newcomer
    });
    s
}

/// The same group in the compact form (`serverAssignCompact`'s input: the whole call, names
/// and arrays in, arrays out), topics `topic-t` in table order.
fn compact(s: &GroupSpec, topics: usize) -> CompactInput {
    let ids: Vec<Uuid> = (0..topics)
        .map(|t| Uuid::for_topic_name(&format!("topic-{t}")))
        .collect();
    let index = |id: &Uuid| ids.iter().position(|x| x == id).unwrap() as i32;
    let mut c = CompactInput {
        topics: (0..topics).map(|t| format!("topic-{t}")).collect(),
        partitions: ids.iter().map(|id| s.partitions[id]).collect(),
        members: s.members.iter().map(|m| m.member_id.to_string()).collect(),
        ..CompactInput::default()
    };
    for m in &s.members {
        c.subscriptions.push(m.subscribed.len() as i32);
        c.subscriptions.extend(m.subscribed.iter().map(index));
        let held: Vec<(i32, i32)> = m
            .previous
            .iter()
            .flat_map(|(t, ps)| ps.iter().map(move |p| (index(t), *p)))
            .collect();
        c.owned.push(held.len() as i32);
        c.owned.extend(held.iter().flat_map(|(t, p)| [*t, *p]));
    }
    c
}

fn median(mut run: impl FnMut()) -> Duration {
    let mut times = Vec::new();
    let started = Instant::now();
    while times.len() < 5 || (started.elapsed() < Duration::from_millis(400) && times.len() < 500) {
        let t = Instant::now();
        run();
        times.push(t.elapsed());
    }
    times.sort();
    times[times.len() / 2]
}

/// Kafka's Java on the same cell (`docs/src/reference/assignors.md#java-figures`, ms), where it was measured.
fn java(assignor: &str, members: usize, topics: usize, subs: &str, mode: &str) -> Option<f64> {
    let row: [f64; 7] = match (assignor, subs, mode) {
        ("uniform", "homogeneous", "full") => [0.02, 0.02, 0.05, 0.21, 0.21, 0.24, 2.6],
        ("uniform", "homogeneous", "incremental") => [0.02, 0.04, 0.11, 0.13, 0.17, 0.20, 5.3],
        ("uniform", "heterogeneous", "full") => [0.07, 0.14, 1.5, 0.54, 1.3, 16.0, 50.0],
        ("uniform", "heterogeneous", "incremental") => [0.11, 0.17, 0.95, 0.43, 1.3, 10.0, 41.0],
        ("range", "homogeneous", "full") => [0.05, 0.06, 0.18, 0.14, 0.26, 2.5, 5.1],
        ("range", "homogeneous", "incremental") => [0.04, 0.04, 0.19, 0.15, 0.34, 1.4, 6.2],
        ("range", "heterogeneous", "full") => [0.03, 0.04, 0.32, 0.14, 0.40, 4.3, 11.0],
        ("range", "heterogeneous", "incremental") => [0.04, 0.04, 0.33, 0.15, 0.41, 3.7, 11.0],
        _ => return None,
    };
    let i = match (members, topics) {
        (100, 10) => 0,
        (100, 100) => 1,
        (100, 1000) => 2,
        (1000, 10) => 3,
        (1000, 100) => 4,
        (1000, 1000) => 5,
        (10000, 100) => 6,
        _ => return None,
    };
    Some(row[i])
}

fn main() {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let cells = [
        (100, 10),
        (100, 100),
        (100, 1000),
        (1000, 10),
        (1000, 100),
        (1000, 1000),
        (10000, 100),
    ];
    for assignor in [ServerAssignor::Uniform, ServerAssignor::Range] {
        for (members, topics) in cells {
            for heterogeneous in [false, true] {
                for incremental_mode in [false, true] {
                    let subs = if heterogeneous {
                        "heterogeneous"
                    } else {
                        "homogeneous"
                    };
                    let mode = if incremental_mode {
                        "incremental"
                    } else {
                        "full"
                    };
                    let key = format!(
                        "server-{},{members},{topics},{subs},{mode}",
                        assignor.name()
                    );
                    if !filters.is_empty() && !filters.iter().any(|f| key.contains(f.as_str())) {
                        continue;
                    }
                    let s = if incremental_mode {
                        incremental(assignor, members, topics, heterogeneous)
                    } else {
                        spec(members, topics, heterogeneous)
                    };
                    let ms = median(|| {
                        std::hint::black_box(assignor.assign(&s).unwrap());
                    })
                    .as_secs_f64()
                        * 1e3;
                    let java = java(assignor.name(), members, topics, subs, mode)
                        .map_or(String::new(), |j| format!("{j}"));
                    let c = compact(&s, topics);
                    let compact_ms = median(|| {
                        std::hint::black_box(server_assign_compact(assignor, &c).unwrap());
                    })
                    .as_secs_f64()
                        * 1e3;
                    println!("BENCH {key},{ms:.4}");
                    println!("COMPACT {key},{compact_ms:.4}");
                    println!("JAVA {key},{java}");
                }
            }
        }
    }
}
