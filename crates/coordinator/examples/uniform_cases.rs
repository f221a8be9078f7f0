//! Writes random heterogeneous groups for the `uniform` assignor, with the model's results, so
//! they can be checked against Kafka's own `UniformHeterogeneousAssignmentBuilder`
//! (`bench/kafka-assignors/check.sh`). Each group is assigned over several rounds, each round's
//! result being the next one's previous target, one subscription changing between rounds.
//!
//! `cargo run --release -p group-coordinator --example uniform_cases -- <groups> <cases file> <results file> [seed]`

#![allow(clippy::unwrap_used)]

use group_coordinator::consumer_group::Uuid;
use group_coordinator::consumer_group::assignor::{
    GroupSpec, MemberAssignment, MemberSpec, ServerAssignor, SubscriptionType, topic_ids,
};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::Write as _;

#[path = "../tests/common/xorshift.rs"]
mod xorshift;
use xorshift::Rng;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let groups: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let mut cases = std::io::BufWriter::new(
        std::fs::File::create(args.get(1).map_or("cases.txt", String::as_str)).unwrap(),
    );
    let mut results = std::io::BufWriter::new(
        std::fs::File::create(args.get(2).map_or("model.txt", String::as_str)).unwrap(),
    );
    let seed = args
        .get(3)
        .and_then(|a| a.parse().ok())
        .unwrap_or(0x5DEE_CE66_D1CE_4E5B);
    let mut r = Rng(seed);
    for _ in 0..groups {
        let big = r.below(4) == 0;
        let n_topics = 2 + r.below(if big { 10 } else { 5 });
        let topics: BTreeMap<Uuid, i32> = (0..n_topics)
            .map(|t| {
                (
                    Uuid::for_topic_name(&format!("t{t}")),
                    1 + r.below(if big { 60 } else { 12 }) as i32,
                )
            })
            .collect();
        let ids: Vec<Uuid> = topics.keys().copied().collect();
        let count = 2 + r.below(if big { 60 } else { 12 });
        let mut members: Vec<(String, BTreeSet<Uuid>, MemberAssignment)> = (0..count)
            .map(|i| {
                let mut subs: BTreeSet<Uuid> =
                    ids.iter().copied().filter(|_| r.below(2) == 0).collect();
                if subs.is_empty() {
                    subs.insert(ids[r.below(ids.len() as u64) as usize]);
                }
                (format!("m{i:03}"), subs, MemberAssignment::new())
            })
            .collect();
        let rounds = 3 + r.below(3);
        for _ in 0..rounds {
            let spec = GroupSpec {
                subscription_type: Some(SubscriptionType::Heterogeneous),
                partitions: topics.clone(),
                members: members
                    .iter()
                    .map(|(id, subs, prev)| MemberSpec {
                        member_id: Cow::Borrowed(id),
                        instance_id: None,
                        rack_id: None,
                        subscribed: topic_ids(subs.iter().copied()).into(),
                        previous: Cow::Borrowed(prev),
                    })
                    .collect(),
            };
            writeln!(cases, "C").unwrap();
            for (t, n) in &topics {
                writeln!(cases, "T {t} {n}").unwrap();
            }
            for (id, subs, prev) in &members {
                let subs: Vec<String> = subs.iter().map(|t| t.to_string()).collect();
                let prev: Vec<String> = prev
                    .iter()
                    .filter(|(_, ps)| !ps.is_empty())
                    .map(|(t, ps)| {
                        format!(
                            "{t}={}",
                            ps.iter()
                                .map(|p| p.to_string())
                                .collect::<Vec<_>>()
                                .join(".")
                        )
                    })
                    .collect();
                let or_dash = |v: Vec<String>, sep: &str| {
                    if v.is_empty() {
                        "-".to_string()
                    } else {
                        v.join(sep)
                    }
                };
                writeln!(
                    cases,
                    "M {id} {} {}",
                    or_dash(subs, ","),
                    or_dash(prev, "|")
                )
                .unwrap();
            }
            writeln!(cases, "E").unwrap();
            let out = ServerAssignor::Uniform.assign_by_member_id(&spec).unwrap();
            let mut line = String::new();
            for (id, _, _) in &members {
                line.push_str(id);
                line.push(':');
                let mut sorted: BTreeMap<String, Vec<i32>> = BTreeMap::new();
                for (t, ps) in out.get(id).into_iter().flatten() {
                    if !ps.is_empty() {
                        sorted.insert(t.to_string(), ps.iter().copied().collect());
                    }
                }
                for (t, ps) in sorted {
                    let ps: Vec<String> = ps.iter().map(|p| p.to_string()).collect();
                    write!(line, "{t}[{}] ", ps.join(",")).unwrap();
                }
                line.push(';');
            }
            writeln!(results, "{line}").unwrap();
            for m in &mut members {
                m.2 = out.get(&m.0).cloned().unwrap_or_default();
            }
            let i = r.below(members.len() as u64) as usize;
            let t = ids[r.below(ids.len() as u64) as usize];
            if !members[i].1.remove(&t) {
                members[i].1.insert(t);
            }
            if members[i].1.is_empty() {
                members[i].1.insert(t);
            }
        }
    }
}
