//! The group's bookkeeping against recounts from its members: partition epochs and classic
//! protocol counts, and the invariant check's answers.

use super::*;
use crate::consumer_group::assignor::MemberAssignment;
use alloc::format;
use alloc::string::ToString;

fn partitions(list: &[(u128, i32)]) -> MemberAssignment {
    let mut out = MemberAssignment::new();
    for &(t, p) in list {
        out.entry(Uuid::from_u128(t)).or_default().insert(p);
    }
    out
}

fn member(
    id: &str,
    epoch: i32,
    assigned: &[(u128, i32)],
    pending: &[(u128, i32)],
) -> ConsumerGroupMember {
    let mut m = ConsumerGroupMember {
        member_id: id.to_string(),
        ..Default::default()
    };
    m.progress.member_epoch = epoch;
    m.progress.assigned = partitions(assigned).into();
    m.progress.pending_revocation = partitions(pending).into();
    m
}

/// A small deterministic stream of numbers below `n` (a linear congruential generator).
fn stream(seed: u64) -> impl FnMut(u64) -> u64 {
    let mut state = seed;
    move |n| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % n
    }
}

/// Partition epochs, recomputed from the members.
fn epochs_of(group: &ConsumerGroup) -> BTreeMap<(Uuid, i32), i32> {
    let mut out = BTreeMap::new();
    for m in group.members.values() {
        for set in [&*m.progress.assigned, &*m.progress.pending_revocation] {
            for (t, ps) in set {
                for p in ps {
                    out.insert((*t, *p), m.progress.member_epoch);
                }
            }
        }
    }
    out
}

/// Members come, move partitions between them (kept, given up, pending revocation) at new
/// epochs, and go: the partition epochs follow, as a recount from the members gives them.
#[test]
fn partition_epochs_follow_the_members() {
    let mut group = ConsumerGroup::new("g");
    group.assignment_epoch = 100;
    group.group_epoch = 100;
    // 4 members share 2 topics of 6 partitions, each partition held by at most one of them.
    let mut next = stream(7);
    let ids = ["a", "b", "c", "d"];
    let mut holder: BTreeMap<(u128, i32), usize> = BTreeMap::new();
    for step in 0..2_000 {
        let who = next(4) as usize;
        if next(10) == 0 {
            group.remove_member(ids[who]);
            holder.retain(|_, h| *h != who);
        } else {
            // Each partition: kept, taken (if free), given up, or moved to pending.
            let (mut assigned, mut pending) = (Vec::new(), Vec::new());
            for t in 1..=2u128 {
                for p in 0..6 {
                    let free = holder.get(&(t, p)).is_none_or(|&h| h == who);
                    if free && next(3) != 0 {
                        holder.insert((t, p), who);
                        if next(4) == 0 {
                            pending.push((t, p));
                        } else {
                            assigned.push((t, p));
                        }
                    } else if free {
                        holder.remove(&(t, p));
                    }
                }
            }
            let epoch = i32::try_from(next(100)).expect("small");
            group.put_member(member(ids[who], epoch, &assigned, &pending));
        }
        let kept: BTreeMap<(Uuid, i32), i32> = group.partition_epochs.iter().collect();
        assert_eq!(kept, epochs_of(&group), "step {step}");
        assert_eq!(group.check_invariants(), Ok(()), "step {step}");
    }
}

/// `supportsClassicProtocols` as a walk over the members (what the counts replace).
fn supports_by_walking(group: &ConsumerGroup, names: &[&str]) -> bool {
    if group.members.is_empty() {
        return !names.is_empty();
    }
    names.iter().any(|name| {
        group
            .members
            .values()
            .filter_map(|m| m.classic.as_ref())
            .all(|c| c.supported_protocols.iter().any(|p| p.name == *name))
    })
}

/// Members of either protocol come (classic ones listing some of three protocols, a name
/// sometimes twice), change and go: which protocols a classic joiner may bring is what a
/// walk over the members says, and the counts pass the invariant check.
#[test]
fn classic_protocol_counts_follow_the_members() {
    use crate::protocol::JoinGroupRequestProtocol;
    let protocols = ["range", "roundrobin", "cooperative-sticky"];
    let mut group = ConsumerGroup::new("g");
    let mut next = stream(11);
    for step in 0..2_000 {
        let id = ["a", "b", "c", "d", "e"][next(5) as usize];
        if next(6) == 0 {
            group.remove_member(id);
        } else {
            let mut m = member(id, 0, &[], &[]);
            if next(3) != 0 {
                let listed = (0..next(4))
                    .map(|_| JoinGroupRequestProtocol {
                        name: protocols[next(3) as usize].to_string(),
                        ..Default::default()
                    })
                    .collect();
                m.classic = Some(ClassicMemberMetadata {
                    session_timeout_ms: 45_000,
                    supported_protocols: listed,
                });
            }
            group.put_member(m);
        }
        let classic = group
            .members
            .values()
            .filter(|m| m.classic.is_some())
            .count();
        assert_eq!(group.num_classic_members(), classic, "step {step}");
        for mask in 0..8 {
            let names: Vec<&str> = (0..3)
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| protocols[i])
                .collect();
            assert_eq!(
                group.supports_classic_protocols(crate::consumer_protocol::PROTOCOL_TYPE, &names),
                supports_by_walking(&group, &names),
                "step {step}, {names:?}"
            );
        }
        assert_eq!(group.check_invariants(), Ok(()), "step {step}");
    }
    // A miscount is found.
    group.classic_members += 1;
    assert!(
        group
            .check_invariants()
            .unwrap_err()
            .contains("classic members")
    );
}

#[test]
fn the_invariant_check_finds_a_partition_held_twice_and_epochs_out_of_step() {
    let mut group = ConsumerGroup::new("g");
    group.assignment_epoch = 5;
    group.group_epoch = 5;
    group.put_member(member("a", 3, &[(1, 0), (1, 1)], &[]));
    group.put_member(member("b", 4, &[(1, 2)], &[(2, 0)]));
    assert_eq!(group.check_invariants(), Ok(()));

    let t1 = Uuid::from_u128(1);
    // A partition held twice, on each topic: named by its own topic.
    for (member, (topic, p)) in [("b", (1, 1)), ("a", (2, 0))] {
        let mut twice = group.clone();
        if let Some(m) = twice.members.get_mut(member) {
            m.progress.pending_revocation = partitions(&[(topic, p)]).into();
        }
        let t = Uuid::from_u128(topic);
        assert_eq!(
            twice.check_invariants(),
            Err(format!("g: partition {t}-{p} held by a and b"))
        );
    }

    // A member past the assignment epoch (its partitions' epochs following it).
    let mut ahead = group.clone();
    ahead.put_member(member("b", 6, &[(1, 2)], &[(2, 0)]));
    assert_eq!(
        ahead.check_invariants(),
        Err(String::from("g: member b at epoch 6 > assignment epoch 5"))
    );

    let out_of_step = "g: partition epochs out of step with the members";
    let mut wrong_epoch = group.clone();
    wrong_epoch.partition_epochs.insert((t1, 2), 3);
    assert_eq!(wrong_epoch.check_invariants().unwrap_err(), out_of_step);
    let mut missing = group.clone();
    missing.partition_epochs.remove(&(t1, 0));
    assert_eq!(missing.check_invariants().unwrap_err(), out_of_step);
    let mut extra = group.clone();
    extra.partition_epochs.insert((t1, 9), 4);
    assert_eq!(extra.check_invariants().unwrap_err(), out_of_step);
    // After every partition the members hold.
    let mut extra_last = group.clone();
    extra_last
        .partition_epochs
        .insert((Uuid::from_u128(3), 0), 4);
    assert_eq!(extra_last.check_invariants().unwrap_err(), out_of_step);
}

/// `subscribed_topic_counts` as a walk over the members (what the kept counts replace):
/// every member but `replacing` and `updated`'s previous version, then `updated`.
fn counts_by_walking(
    group: &ConsumerGroup,
    replacing: Option<&str>,
    updated: Option<&ConsumerGroupMember>,
) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    let others = group
        .members
        .values()
        .filter(|m| Some(m.member_id.as_str()) != replacing)
        .filter(|m| updated.is_none_or(|u| u.member_id != m.member_id));
    for m in others.chain(updated) {
        for t in &m.subscribed_topic_names {
            *counts.entry(t.clone()).or_insert(0) += 1;
        }
    }
    counts
}

/// Members come, change their subscriptions (a name sometimes twice, sometimes none) and go:
/// the subscribed topics by name, as the group keeps them and with a member replaced or
/// updated, are what a walk over the members says, and the kept counts pass the invariant
/// check, which finds a miscount.
#[test]
fn subscribed_topic_counts_follow_the_members() {
    let topics = ["t0", "t1", "t2"];
    let ids = ["a", "b", "c", "d", "e"];
    let mut group = ConsumerGroup::new("g");
    let mut next = stream(23);
    let subscriber = |next: &mut dyn FnMut(u64) -> u64, id: &str| {
        let mut m = member(id, 0, &[], &[]);
        m.subscribed_topic_names = (0..next(4))
            .map(|_| topics[next(3) as usize].to_string())
            .collect();
        m
    };
    for step in 0..2_000 {
        let id = ids[next(5) as usize];
        if next(6) == 0 {
            group.remove_member(id);
        } else {
            let m = subscriber(&mut next, id);
            group.put_member(m);
        }
        let by_name = |counts: BTreeMap<String, SubscriptionCount>| -> BTreeMap<String, usize> {
            counts.into_iter().map(|(t, c)| (t, c.by_name)).collect()
        };
        assert_eq!(
            by_name(group.subscribed_topic_counts(None, None)),
            counts_by_walking(&group, None, None),
            "step {step}"
        );
        let replacing = ids[next(5) as usize];
        let updated_id = ids[next(5) as usize];
        let updated = subscriber(&mut next, updated_id);
        for (r, u) in [
            (Some(replacing), None),
            (None, Some(&updated)),
            (Some(replacing), Some(&updated)),
            (Some(updated.member_id.as_str()), Some(&updated)),
        ] {
            assert_eq!(
                by_name(group.subscribed_topic_counts(r, u)),
                counts_by_walking(&group, r, u),
                "step {step}, replacing {r:?}, updated {:?}",
                u.map(|u| &u.member_id)
            );
        }
        assert_eq!(group.check_invariants(), Ok(()), "step {step}");
    }
    // A miscount is found.
    group.subscribed_topic_names.insert("t9".to_string(), 1);
    assert!(
        group
            .check_invariants()
            .unwrap_err()
            .contains("subscribed topic names")
    );
}
