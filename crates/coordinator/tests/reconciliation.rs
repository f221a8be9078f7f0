//! Reconciliation (`CurrentAssignmentBuilder`) against Kafka's `CurrentAssignmentBuilderTest`:
//! vectors C1–C14 of `docs/src/reference/consumer-group-protocol.md#vectors`, each named after Kafka's test.

#![allow(clippy::unwrap_used)]
use group_coordinator::consumer_group::Uuid;
use group_coordinator::consumer_group::assignor::MemberAssignment;
use group_coordinator::consumer_group::reconcile::{Fenced, MemberState, Progress};

fn t1() -> Uuid {
    Uuid::for_topic_name("t1")
}
fn t2() -> Uuid {
    Uuid::for_topic_name("t2")
}

/// `t1:{..}, t2:{..}`
fn a(one: &[i32], two: &[i32]) -> MemberAssignment {
    let mut m = MemberAssignment::new();
    if !one.is_empty() {
        m.insert(t1(), one.iter().copied().collect());
    }
    if !two.is_empty() {
        m.insert(t2(), two.iter().copied().collect());
    }
    m
}

fn member(
    state: MemberState,
    epoch: i32,
    previous: i32,
    assigned: MemberAssignment,
    pending: MemberAssignment,
) -> Progress {
    Progress {
        state,
        member_epoch: epoch,
        previous_member_epoch: previous,
        assigned: assigned.into(),
        pending_revocation: pending.into(),
    }
}

fn free(_: &Uuid, _: i32) -> i32 {
    -1
}

fn c1_member() -> Progress {
    member(
        MemberState::Stable,
        10,
        10,
        a(&[1, 2, 3], &[4, 5, 6]),
        a(&[], &[]),
    )
}

#[test]
fn c1_test_stable_to_stable() {
    let after = c1_member()
        .reconcile(11, &a(&[1, 2, 3], &[4, 5, 6]), |_, _| 10, None)
        .unwrap();
    assert_eq!(
        after,
        member(
            MemberState::Stable,
            11,
            10,
            a(&[1, 2, 3], &[4, 5, 6]),
            a(&[], &[])
        )
    );
}

#[test]
fn c2_test_stable_to_stable_with_new_partitions() {
    let after = c1_member()
        .reconcile(11, &a(&[1, 2, 3, 4], &[4, 5, 6, 7]), free, None)
        .unwrap();
    assert_eq!(
        after,
        member(
            MemberState::Stable,
            11,
            10,
            a(&[1, 2, 3, 4], &[4, 5, 6, 7]),
            a(&[], &[])
        )
    );
}

#[test]
fn c3_test_stable_to_unrevoked_partitions() {
    let after = c1_member()
        .reconcile(11, &a(&[2, 3, 4], &[5, 6, 7]), free, None)
        .unwrap();
    assert_eq!(
        after,
        member(
            MemberState::UnrevokedPartitions,
            10,
            10,
            a(&[2, 3], &[5, 6]),
            a(&[1], &[4])
        )
    );
}

#[test]
fn c4_test_stable_to_unreleased_partitions() {
    let after = c1_member()
        .reconcile(11, &a(&[1, 2, 3, 4], &[4, 5, 6, 7]), |_, _| 10, None)
        .unwrap();
    assert_eq!(
        after,
        member(
            MemberState::UnreleasedPartitions,
            11,
            10,
            a(&[1, 2, 3], &[4, 5, 6]),
            a(&[], &[])
        )
    );
}

#[test]
fn c5_test_stable_to_unreleased_partitions_with_owned_partitions_not_having_revoked_partitions() {
    // t2-7 is still owned at epoch 10; t2-6 was already dropped (owned reported empty).
    let epoch = |t: &Uuid, _: i32| if *t == t2() { 10 } else { -1 };
    let after = c1_member()
        .reconcile(
            11,
            &a(&[1, 2, 3], &[4, 5, 7]),
            epoch,
            Some(&MemberAssignment::new()),
        )
        .unwrap();
    assert_eq!(
        after,
        member(
            MemberState::UnreleasedPartitions,
            11,
            10,
            a(&[1, 2, 3], &[4, 5]),
            a(&[], &[])
        )
    );
}

fn c6_member() -> Progress {
    member(
        MemberState::UnrevokedPartitions,
        10,
        10,
        a(&[2, 3], &[5, 6]),
        a(&[1], &[4]),
    )
}

#[test]
fn c6_test_unrevoked_partitions_to_stable() {
    let after = c6_member()
        .reconcile(11, &a(&[2, 3], &[5, 6]), free, Some(&a(&[2, 3], &[5, 6])))
        .unwrap();
    assert_eq!(
        after,
        member(
            MemberState::Stable,
            11,
            10,
            a(&[2, 3], &[5, 6]),
            a(&[], &[])
        )
    );
}

#[test]
fn c7_test_remains_in_unrevoked_partitions() {
    for owned in [
        None,
        Some(a(&[1, 2, 3], &[5, 6])),
        Some(a(&[2, 3], &[4, 5, 6])),
    ] {
        let after = c6_member()
            .reconcile(12, &a(&[3], &[6]), free, owned.as_ref())
            .unwrap();
        assert_eq!(after, c6_member(), "owned {owned:?}");
    }
}

#[test]
fn c8_test_unrevoked_partitions_to_unrevoked_partitions() {
    let after = c6_member()
        .reconcile(12, &a(&[3], &[6]), free, Some(&a(&[2, 3], &[5, 6])))
        .unwrap();
    assert_eq!(
        after,
        member(
            MemberState::UnrevokedPartitions,
            11,
            10,
            a(&[3], &[6]),
            a(&[2], &[5])
        )
    );
}

#[test]
fn c9_test_unrevoked_partitions_to_unreleased_partitions() {
    let before = member(
        MemberState::UnrevokedPartitions,
        11,
        10,
        a(&[2, 3], &[5, 6]),
        a(&[], &[]),
    );
    let after = before
        .reconcile(
            11,
            &a(&[2, 3, 4], &[5, 6, 7]),
            |_, _| 10,
            Some(&a(&[2, 3], &[5, 6])),
        )
        .unwrap();
    assert_eq!(
        after,
        member(
            MemberState::UnreleasedPartitions,
            11,
            11,
            a(&[2, 3], &[5, 6]),
            a(&[], &[])
        )
    );
}

fn c10_member() -> Progress {
    member(
        MemberState::UnreleasedPartitions,
        11,
        11,
        a(&[2, 3], &[5, 6]),
        a(&[], &[]),
    )
}

#[test]
fn c10_test_unreleased_partitions_to_stable() {
    let after = c10_member()
        .reconcile(12, &a(&[2, 3], &[5, 6]), |_, _| 10, None)
        .unwrap();
    assert_eq!(
        after,
        member(
            MemberState::Stable,
            12,
            11,
            a(&[2, 3], &[5, 6]),
            a(&[], &[])
        )
    );
}

#[test]
fn c11_test_unreleased_partitions_to_stable_with_new_partitions() {
    let after = c10_member()
        .reconcile(11, &a(&[2, 3, 4], &[5, 6, 7]), free, None)
        .unwrap();
    assert_eq!(
        after,
        member(
            MemberState::Stable,
            11,
            11,
            a(&[2, 3, 4], &[5, 6, 7]),
            a(&[], &[])
        )
    );
}

#[test]
fn c12_test_unreleased_partitions_to_unreleased_partitions() {
    let after = c10_member()
        .reconcile(11, &a(&[2, 3, 4], &[5, 6, 7]), |_, _| 10, None)
        .unwrap();
    assert_eq!(after, c10_member());
}

#[test]
fn c13_test_unreleased_partitions_to_unrevoked_partitions() {
    let after = c10_member()
        .reconcile(12, &a(&[3], &[6]), |_, _| 10, None)
        .unwrap();
    assert_eq!(
        after,
        member(
            MemberState::UnrevokedPartitions,
            11,
            11,
            a(&[3], &[6]),
            a(&[2], &[5])
        )
    );
}

#[test]
fn c14_test_unknown_state() {
    let before = member(MemberState::Unknown, 11, 11, a(&[3], &[6]), a(&[2], &[5]));
    assert_eq!(
        before.reconcile(12, &a(&[3], &[6]), |_, _| 11, None),
        Err(Fenced)
    );
    assert_eq!(
        before.reconcile(12, &a(&[3], &[6]), |_, _| 11, Some(&a(&[3], &[]))),
        Err(Fenced),
        "still owning partitions"
    );
    let after = before
        .reconcile(
            12,
            &a(&[3], &[6]),
            |_, _| 11,
            Some(&MemberAssignment::new()),
        )
        .unwrap();
    assert_eq!(
        after,
        member(MemberState::Stable, 12, 11, a(&[3], &[6]), a(&[], &[]))
    );
}
