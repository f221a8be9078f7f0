//! The server assignors in the compact form of the client-side ones
//! ([`crate::assignor::CompactInput`]: names once, integer arrays for the rest), for large groups
//! handed across a boundary where every string and object costs (the wasm module's
//! `serverAssignCompact`). The JSON form's one object per member and one string per subscribed
//! topic took most of a large call's time in wasm.
//!
//! The fields mean what they mean for the client-side assignors, with these differences:
//! - a topic's partition count may be −1: a name some member subscribes to that has no metadata
//!   (as the coordinator counts such a name when it decides whether the subscriptions are all
//!   the same, and leaves it out of what it assigns);
//! - `owned` is each member's previous *target* assignment (what the assignors stay sticky to);
//! - `generations` must be empty (the server assignors have none).
//!
//! The members are assigned in member-id order, as the coordinator gives them; the result is
//! per member in input order: how many partitions, then (topic index, partition) pairs, by topic
//! name then partition. One function serves the JSON form too ([`server_assign_compact`] is what
//! `serverAssign` runs after reading its input).

use super::{
    AssignError, GroupSpec, MemberAssignment, MemberSpec, ServerAssignor, SubscriptionType,
    topic_ids,
};
use crate::assignor::{CompactInput, MAX_CLAIMS, MAX_MEMBERS, MAX_PARTITIONS};
use crate::consumer_group::Uuid;
use alloc::borrow::Cow;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

fn bad(message: String) -> AssignError {
    AssignError(message)
}

/// One member's run of a per-member array, and a topic index, read as the client-side
/// assignors' compact form reads them (their messages), as this module's error.
fn run<'v>(
    values: &'v [i32],
    at: &mut usize,
    width: usize,
    field: &str,
    member: &str,
) -> Result<&'v [i32], AssignError> {
    crate::assignor::compact::run(values, at, width, field, member).map_err(|e| AssignError(e.0))
}

fn topic(t: i32, topics: usize, field: &str, member: &str) -> Result<usize, AssignError> {
    crate::assignor::compact::topic(t, topics, field, member).map_err(|e| AssignError(e.0))
}

/// Whether two runs hold the same values. Word by word, without an early exit: slice `==`
/// becomes `memcmp`, which compiler-builtins does byte by byte in wasm, and that comparison was
/// half of a large call there.
fn same(a: &[i32], b: &[i32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0, |diff, (x, y)| diff | (x ^ y)) == 0
}

/// Runs `assignor` on `c` (see the module doc).
pub fn server_assign_compact(
    assignor: ServerAssignor,
    c: &CompactInput,
) -> Result<Vec<i32>, AssignError> {
    let n = c.members.len();
    let t = c.topics.len();
    if c.partitions.len() != t {
        return Err(bad(format!(
            "partitions: {} counts for {t} topics",
            c.partitions.len()
        )));
    }
    if n > MAX_MEMBERS {
        return Err(bad(format!(
            "members: {n} members, more than the {MAX_MEMBERS} this model assigns"
        )));
    }
    if let Some(ids) = &c.instance_ids
        && ids.len() != n
    {
        return Err(bad(format!(
            "instanceIds: {} entries for {n} members",
            ids.len()
        )));
    }
    if !c.generations.is_empty() {
        return Err(bad(String::from(
            "generations: the server assignors take none (a member's previous target is its owned)",
        )));
    }
    // The table: names distinct, counts in -1..=1000000, at most MAX_PARTITIONS in all.
    let mut by_name: Vec<usize> = (0..t).collect();
    by_name.sort_unstable_by(|&a, &b| c.topics[a].cmp(&c.topics[b]));
    if let Some(w) = by_name
        .windows(2)
        .find(|w| c.topics[w[0]] == c.topics[w[1]])
    {
        return Err(bad(format!("topic \"{}\" appears twice", c.topics[w[0]])));
    }
    let mut rank = alloc::vec![0u32; t];
    for (r, &k) in by_name.iter().enumerate() {
        rank[k] = r as u32;
    }
    let mut total = 0i64;
    for (k, &count) in c.partitions.iter().enumerate() {
        if !(-1..=1_000_000).contains(&count) {
            return Err(bad(format!(
                "partitions: topic \"{}\" has {count}, outside -1..=1000000 (-1: no metadata)",
                c.topics[k]
            )));
        }
        total += i64::from(count.max(0));
    }
    if total > MAX_PARTITIONS {
        return Err(bad(format!(
            "topics: {total} partitions in all, more than the {MAX_PARTITIONS} this model assigns"
        )));
    }
    let ids: Vec<Uuid> = c
        .topics
        .iter()
        .map(|name| Uuid::for_topic_name(name))
        .collect();
    let index_of: BTreeMap<Uuid, usize> = ids.iter().enumerate().map(|(k, id)| (*id, k)).collect();
    if index_of.len() != t {
        return Err(bad(String::from("two topic names have the same topic id")));
    }
    // Members: their subscriptions (known topics as ids; every name counted) and previous
    // targets. Members with the same subscription share one list of ids (a large group has a
    // few distinct subscriptions; sorting each member's ids anew was most of a call).
    let mut distinct: BTreeMap<Vec<usize>, usize> = BTreeMap::new();
    let mut lists: Vec<Vec<Uuid>> = Vec::new();
    let mut members_of: Vec<usize> = Vec::new();
    let mut list_of: Vec<usize> = Vec::with_capacity(n);
    let mut previous: Vec<MemberAssignment> = Vec::with_capacity(n);
    let (mut at_sub, mut at_owned, mut claims) = (0, 0, 0usize);
    let mut names: Vec<usize> = Vec::new();
    // The last member's run as given: a member whose run is the same values (the common case)
    // is the same subscription, without reading it again.
    let mut last: Option<(&[i32], usize)> = None;
    for member in &c.members {
        let raw = run(&c.subscriptions, &mut at_sub, 1, "subscriptions", member)?;
        let slot = match last {
            Some((seen, slot)) if same(seen, raw) => slot,
            _ => {
                names.clear();
                for &k in raw {
                    names.push(topic(k, t, "subscriptions", member)?);
                }
                names.sort_unstable();
                names.dedup();
                match distinct.get(&names) {
                    Some(&slot) => slot,
                    None => {
                        // Topics without metadata are left out, as the coordinator resolves
                        // names.
                        lists.push(topic_ids(
                            names
                                .iter()
                                .filter(|&&k| c.partitions[k] >= 0)
                                .map(|&k| ids[k]),
                        ));
                        members_of.push(0);
                        distinct.insert(names.clone(), lists.len() - 1);
                        lists.len() - 1
                    }
                }
            }
        };
        last = Some((raw, slot));
        members_of[slot] += 1;
        list_of.push(slot);
        let mut held = MemberAssignment::new();
        if !c.owned.is_empty() {
            let pairs = run(&c.owned, &mut at_owned, 2, "owned", member)?;
            claims += pairs.len() / 2;
            for pair in pairs.chunks_exact(2) {
                let k = topic(pair[0], t, "owned", member)?;
                held.entry(ids[k]).or_default().insert(pair[1]);
            }
        }
        previous.push(held);
    }
    for (field, at, values) in [
        ("subscriptions", at_sub, &c.subscriptions),
        ("owned", at_owned, &c.owned),
    ] {
        if at != values.len() {
            return Err(bad(format!(
                "{field}: {} values left over after the last member",
                values.len() - at
            )));
        }
    }
    if claims > MAX_CLAIMS {
        return Err(bad(format!(
            "owned: {claims} partitions in all, more than {MAX_CLAIMS}"
        )));
    }
    // Every name's subscribers (each distinct subscription's names, times its members).
    let mut subscribers = alloc::vec![0usize; t];
    for (names, &slot) in &distinct {
        for &k in names {
            subscribers[k] += members_of[slot];
        }
    }
    // Member-id order, as the coordinator gives its members; `order[j]` is the input index of
    // the j-th.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_unstable_by(|&a, &b| c.members[a].cmp(&c.members[b]));
    if let Some(w) = order
        .windows(2)
        .find(|w| c.members[w[0]] == c.members[w[1]])
    {
        return Err(bad(format!(
            "members: \"{}\" is given twice",
            c.members[w[0]]
        )));
    }
    let members: Vec<MemberSpec<'_>> = order
        .iter()
        .map(|&i| MemberSpec {
            member_id: Cow::Borrowed(c.members[i].as_str()),
            instance_id: c
                .instance_ids
                .as_ref()
                .and_then(|v| v[i].as_deref())
                .map(Cow::Borrowed),
            rack_id: None,
            subscribed: Cow::Borrowed(lists[list_of[i]].as_slice()),
            previous: Cow::Owned(core::mem::take(&mut previous[i])),
        })
        .collect();
    let spec = GroupSpec {
        members,
        partitions: ids
            .iter()
            .zip(&c.partitions)
            .filter(|(_, n)| **n >= 0)
            .map(|(id, n)| (*id, *n))
            .collect(),
        subscription_type: Some(SubscriptionType::of_counts(
            subscribers.into_iter().filter(|&s| s > 0),
            n,
        )),
    };
    let out = assignor.assign(&spec)?;
    // Back in input order, each member's pairs by topic name then partition. The assignment's
    // topic indices are mapped to (name rank, input index) once, not looked up per partition
    // (a map lookup per partition was the largest part of a large call in wasm), and one
    // buffer serves every member's sort.
    let to_input: Vec<(u32, i32)> = out
        .topics()
        .iter()
        .map(|id| {
            let k = index_of[id];
            (rank[k], k as i32)
        })
        .collect();
    let mut at = alloc::vec![0usize; n + 1];
    for (j, &i) in order.iter().enumerate() {
        at[i + 1] = 1 + 2 * out.count(j);
    }
    for i in 0..n {
        at[i + 1] += at[i];
    }
    let mut result = alloc::vec![0i32; at[n]];
    let mut pairs: Vec<(u32, i32, i32)> = Vec::new();
    for (j, &i) in order.iter().enumerate() {
        pairs.clear();
        pairs.extend(out.indexed(j).iter().map(|&(t, p)| {
            let (r, k) = to_input[t as usize];
            (r, k, p)
        }));
        if !pairs.is_sorted() {
            pairs.sort_unstable();
        }
        let slot = &mut result[at[i]..at[i + 1]];
        slot[0] = pairs.len() as i32;
        for (pair, &(_, k, p)) in slot[1..].chunks_exact_mut(2).zip(&pairs) {
            pair[0] = k;
            pair[1] = p;
        }
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec;

    /// The compact form gives what the assignor gives on the group the coordinator would build:
    /// members by id, names without metadata counted in the subscription type (a group where
    /// only one member names a missing topic is heterogeneous), previous targets kept.
    #[test]
    fn as_the_coordinator_builds_the_group() {
        let c = CompactInput {
            topics: vec!["b".into(), "a".into(), "gone".into()],
            partitions: vec![4, 3, -1],
            members: vec!["m2".into(), "m1".into(), "m3".into()],
            instance_ids: None,
            // m2: a, b; m1: a, b, gone; m3: b, a.
            subscriptions: vec![2, 1, 0, 3, 1, 0, 2, 2, 0, 1],
            // m2 held b-0 and a-2 in the previous target.
            owned: vec![2, 0, 0, 1, 2, 0, 0],
            generations: Vec::new(),
        };
        let id = |t: &str| Uuid::for_topic_name(t);
        let member = |m: &str, previous: MemberAssignment| MemberSpec {
            member_id: m.to_string().into(),
            subscribed: topic_ids([id("a"), id("b")]).into(),
            previous: Cow::Owned(previous),
            ..MemberSpec::default()
        };
        let mut held = MemberAssignment::new();
        held.entry(id("b")).or_default().insert(0);
        held.entry(id("a")).or_default().insert(2);
        let spec = GroupSpec {
            members: vec![
                member("m1", MemberAssignment::new()),
                member("m2", held),
                member("m3", MemberAssignment::new()),
            ],
            partitions: [(id("a"), 3), (id("b"), 4)].into_iter().collect(),
            subscription_type: Some(SubscriptionType::Heterogeneous),
        };
        for assignor in [ServerAssignor::Uniform, ServerAssignor::Range] {
            let expected = assignor.assign(&spec).unwrap();
            let out = server_assign_compact(assignor, &c).unwrap();
            // Input order m2, m1, m3 is spec order 1, 0, 2; pairs by name (a before b).
            let mut at = 0;
            for j in [1, 0, 2] {
                let mut pairs: Vec<(String, i32)> = expected
                    .member(j)
                    .map(|(t, p)| (if t == id("a") { "a" } else { "b" }.to_string(), p))
                    .collect();
                pairs.sort();
                let n = out[at] as usize;
                let got: Vec<(String, i32)> = out[at + 1..at + 1 + 2 * n]
                    .chunks_exact(2)
                    .map(|p| (c.topics[p[0] as usize].clone(), p[1]))
                    .collect();
                assert_eq!(got, pairs, "{assignor:?} member {j}");
                at += 1 + 2 * n;
            }
            assert_eq!(at, out.len());
        }
        // Sticky to m2's previous target: uniform keeps b-0 and a-2 with it.
        let out = server_assign_compact(ServerAssignor::Uniform, &c).unwrap();
        let m2: Vec<i32> = out[1..1 + 2 * out[0] as usize].to_vec();
        assert!(
            m2.chunks_exact(2).any(|p| p == [0, 0]) && m2.chunks_exact(2).any(|p| p == [1, 2]),
            "{m2:?}"
        );
    }

    #[test]
    fn bad_input_is_named() {
        let good = CompactInput {
            topics: vec!["t".into()],
            partitions: vec![2],
            members: vec!["m".into()],
            subscriptions: vec![1, 0],
            ..CompactInput::default()
        };
        let refused = |f: &dyn Fn(&mut CompactInput)| {
            let mut c = good.clone();
            f(&mut c);
            server_assign_compact(ServerAssignor::Range, &c)
                .unwrap_err()
                .0
        };
        assert!(refused(&|c| c.partitions = vec![-2]).contains("outside -1..=1000000"));
        assert!(refused(&|c| c.subscriptions = vec![1, 1]).contains("names topic 1"));
        assert!(refused(&|c| c.subscriptions = vec![2, 0]).contains("past the array's end"));
        assert!(refused(&|c| c.subscriptions = vec![1, 0, 7]).contains("left over"));
        assert!(refused(&|c| c.generations = vec![1]).contains("generations"));
        assert!(refused(&|c| c.members = vec!["m".into(), "m".into()]).contains("no count"));
        assert!(
            refused(&|c| {
                c.members = vec!["m".into(), "m".into()];
                c.subscriptions = vec![1, 0, 1, 0];
            })
            .contains("\"m\" is given twice")
        );
        assert!(
            refused(&|c| c.topics = vec!["t".into(), "t".into()]).contains("partitions: 1 counts")
        );
        assert_eq!(
            server_assign_compact(ServerAssignor::Range, &good).unwrap(),
            vec![2, 0, 0, 0, 1]
        );
    }
}
