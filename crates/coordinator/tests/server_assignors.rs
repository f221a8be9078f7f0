//! The server-side assignors (`uniform`, `range`) against Kafka's tests of them (numbered S1–S24
//! here; `docs/src/reference/consumer-group-protocol.md#vectors`), each named after Kafka's test.
//! Where Kafka's result depends on Java hash-set order, the canonical-order result is asserted
//! and Kafka's is given beside it.

#![allow(clippy::unwrap_used)]
use group_coordinator::consumer_group::Uuid;
use group_coordinator::consumer_group::assignor::{
    GroupSpec, MemberAssignment, MemberSpec, ServerAssignor, topic_ids,
};
use std::collections::BTreeMap;

/// Kafka's test topic ids.
fn t(n: u8) -> Uuid {
    let text = match n {
        1 => "T1-A4s3VTwiI5CTbEp6POw",
        2 => "T2-B4s3VTwiI5YHbPp6YUe",
        3 => "T3-CU8fVTLCz5YMkLoDQsa",
        _ => "T4-Tw9fVTLCz5HbPp6YQsa",
    };
    Uuid::parse(text).unwrap()
}

/// `[(topic, [partitions])]` as an assignment.
fn a(parts: &[(u8, &[i32])]) -> MemberAssignment {
    parts
        .iter()
        .filter(|(_, ps)| !ps.is_empty())
        .map(|(n, ps)| (t(*n), ps.iter().copied().collect()))
        .collect()
}

struct Case {
    topics: Vec<(u8, i32)>,
    members: Vec<(&'static str, Vec<u8>, MemberAssignment)>,
}

impl Case {
    fn new(topics: &[(u8, i32)]) -> Case {
        Case {
            topics: topics.to_vec(),
            members: Vec::new(),
        }
    }
    fn member(mut self, id: &'static str, subscribed: &[u8], previous: MemberAssignment) -> Case {
        self.members.push((id, subscribed.to_vec(), previous));
        self
    }
    fn spec(&self) -> GroupSpec<'_> {
        GroupSpec {
            subscription_type: None,
            partitions: self.topics.iter().map(|(n, c)| (t(*n), *c)).collect(),
            members: self
                .members
                .iter()
                .map(|(id, subs, prev)| MemberSpec {
                    member_id: id.to_string().into(),
                    subscribed: topic_ids(subs.iter().map(|n| t(*n))).into(),
                    previous: std::borrow::Cow::Borrowed(prev),
                    ..MemberSpec::default()
                })
                .collect(),
        }
    }
    fn run(&self, assignor: ServerAssignor) -> BTreeMap<String, MemberAssignment> {
        assignor.assign_by_member_id(&self.spec()).unwrap()
    }
}

fn expect(got: &BTreeMap<String, MemberAssignment>, want: &[(&str, MemberAssignment)]) {
    let want: BTreeMap<String, MemberAssignment> = want
        .iter()
        .map(|(m, a)| (m.to_string(), a.clone()))
        .collect();
    assert_eq!(got, &want);
}

const ALL12: &[u8] = &[1, 2];
const NONE: &[(u8, &[i32])] = &[];

#[test]
fn s1_test_first_assignment_two_members_two_topics_no_member_racks() {
    // (H) Kafka iterates Set.of(T1, T3) as T3, T1: A: T1:{0}, T3:{0,1}; B: T1:{1,2}.
    let got = Case::new(&[(1, 3), (3, 2)])
        .member("A", &[1, 3], a(NONE))
        .member("B", &[1, 3], a(NONE))
        .run(ServerAssignor::Uniform);
    expect(
        &got,
        &[("A", a(&[(1, &[0, 1, 2])])), ("B", a(&[(3, &[0, 1])]))],
    );
}

#[test]
fn s2_test_first_assignment_num_members_greater_than_total_num_partitions() {
    let got = Case::new(&[(3, 2)])
        .member("A", &[3], a(NONE))
        .member("B", &[3], a(NONE))
        .member("C", &[3], a(NONE))
        .run(ServerAssignor::Uniform);
    expect(
        &got,
        &[
            ("A", a(&[(3, &[0])])),
            ("B", a(&[(3, &[1])])),
            ("C", a(NONE)),
        ],
    );
}

#[test]
fn s3_test_reassignment_for_two_members_two_topics_given_unbalanced_prev_assignment() {
    let got = Case::new(&[(1, 3), (2, 3)])
        .member("A", ALL12, a(&[(1, &[0, 1]), (2, &[0, 1])]))
        .member("B", ALL12, a(&[(1, &[2]), (2, &[2])]))
        .run(ServerAssignor::Uniform);
    expect(
        &got,
        &[
            ("A", a(&[(1, &[0, 1]), (2, &[0])])),
            ("B", a(&[(1, &[2]), (2, &[1, 2])])),
        ],
    );
}

#[test]
fn s4_test_reassignment_when_partitions_are_added_for_two_members_two_topics() {
    // (H) Kafka iterates the topic set as T2, T1: A: T1:{0,2,3}, T2:{0,3,4}; B: T1:{1,4,5}, T2:{1,2}.
    // In canonical order (T1 first) A takes the extra slot's partitions from T1.
    let got = Case::new(&[(1, 6), (2, 5)])
        .member("A", ALL12, a(&[(1, &[0, 2]), (2, &[0])]))
        .member("B", ALL12, a(&[(1, &[1]), (2, &[1, 2])]))
        .run(ServerAssignor::Uniform);
    expect(
        &got,
        &[
            ("A", a(&[(1, &[0, 2, 3, 4, 5]), (2, &[0])])),
            ("B", a(&[(1, &[1]), (2, &[1, 2, 3, 4])])),
        ],
    );
}

#[test]
fn s5_test_reassignment_when_one_member_added_after_initial_assignment_with_two_members_two_topics()
{
    let got = Case::new(&[(1, 3), (2, 3)])
        .member("A", ALL12, a(&[(1, &[0, 2]), (2, &[0])]))
        .member("B", ALL12, a(&[(1, &[1]), (2, &[1, 2])]))
        .member("C", ALL12, a(NONE))
        .run(ServerAssignor::Uniform);
    expect(
        &got,
        &[
            ("A", a(&[(1, &[0, 2])])),
            ("B", a(&[(1, &[1]), (2, &[1])])),
            ("C", a(&[(2, &[0, 2])])),
        ],
    );
}

#[test]
fn s6_test_reassignment_when_one_member_removed_after_initial_assignment_with_three_members_two_topics()
 {
    // (H) Kafka: A: T1:{0}, T2:{0,2}; B: T1:{1,2}, T2:{1}. Canonical: A gets T1-2, B gets T2-2.
    let got = Case::new(&[(1, 3), (2, 3)])
        .member("A", ALL12, a(&[(1, &[0]), (2, &[0])]))
        .member("B", ALL12, a(&[(1, &[1]), (2, &[1])]))
        .run(ServerAssignor::Uniform);
    expect(
        &got,
        &[
            ("A", a(&[(1, &[0, 2]), (2, &[0])])),
            ("B", a(&[(1, &[1]), (2, &[1, 2])])),
        ],
    );
}

#[test]
fn s7_test_reassignment_when_one_subscription_removed_after_initial_assignment_with_two_members_two_topics()
 {
    let got = Case::new(&[(1, 2), (2, 2)])
        .member("A", &[2], a(&[(1, &[0]), (2, &[0])]))
        .member("B", &[2], a(&[(1, &[1]), (2, &[1])]))
        .run(ServerAssignor::Uniform);
    expect(&got, &[("A", a(&[(2, &[0])])), ("B", a(&[(2, &[1])]))]);
}

#[test]
fn s8_heterogeneous_test_first_assignment_two_members_two_topics() {
    let got = Case::new(&[(1, 3), (3, 6)])
        .member("A", &[1, 3], a(NONE))
        .member("B", &[3], a(NONE))
        .run(ServerAssignor::Uniform);
    expect(
        &got,
        &[
            ("A", a(&[(1, &[0, 1, 2]), (3, &[4])])),
            ("B", a(&[(3, &[0, 1, 2, 3, 5])])),
        ],
    );
}

#[test]
fn s9_heterogeneous_test_first_assignment_num_members_greater_than_total_num_partitions() {
    let got = Case::new(&[(3, 1), (1, 2)])
        .member("A", &[3], a(NONE))
        .member("B", &[3], a(NONE))
        .member("C", &[1], a(NONE))
        .run(ServerAssignor::Uniform);
    expect(
        &got,
        &[
            ("A", a(&[(3, &[0])])),
            ("B", a(NONE)),
            ("C", a(&[(1, &[0, 1])])),
        ],
    );
}

#[test]
fn s10_heterogeneous_test_reassignment_for_two_members_three_topics_given_unbalanced_prev_assignment()
 {
    let got = Case::new(&[(1, 6), (2, 4), (3, 4)])
        .member("A", &[1], a(&[(1, &[0, 1, 2])]))
        .member("B", &[1, 2], a(&[(1, &[3]), (2, &[0])]))
        .member(
            "C",
            &[1, 2, 3],
            a(&[(1, &[4, 5]), (2, &[1, 2, 3]), (3, &[0, 1, 2, 3])]),
        )
        .run(ServerAssignor::Uniform);
    expect(
        &got,
        &[
            ("A", a(&[(1, &[0, 1, 2, 5])])),
            ("B", a(&[(1, &[3]), (2, &[0, 1, 2, 3])])),
            ("C", a(&[(1, &[4]), (3, &[0, 1, 2, 3])])),
        ],
    );
}

#[test]
fn s11_heterogeneous_test_reassignment_when_partitions_are_added_for_two_members() {
    let got = Case::new(&[(1, 6), (2, 5), (3, 3), (4, 3)])
        .member("A", &[1, 3], a(&[(1, &[0, 1, 2, 3]), (3, &[0, 1])]))
        .member("B", &[1, 2, 3, 4], a(&[(2, &[0, 1, 2]), (4, &[0, 1, 2])]))
        .run(ServerAssignor::Uniform);
    expect(
        &got,
        &[
            ("A", a(&[(1, &[0, 1, 2, 3, 4, 5]), (3, &[0, 1, 2])])),
            ("B", a(&[(2, &[0, 1, 2, 3, 4]), (4, &[0, 1, 2])])),
        ],
    );
}

#[test]
fn s12_heterogeneous_test_reassignment_when_one_member_added_and_partitions_added_two_members_two_topics()
 {
    let got = Case::new(&[(1, 6), (2, 7)])
        .member("A", &[1], a(&[(1, &[0, 2]), (2, &[0])]))
        .member("B", ALL12, a(&[(1, &[1]), (2, &[1, 2])]))
        .member("C", ALL12, a(NONE))
        .run(ServerAssignor::Uniform);
    expect(
        &got,
        &[
            ("A", a(&[(1, &[0, 2, 3, 4, 5])])),
            ("B", a(&[(1, &[1]), (2, &[1, 2, 6])])),
            ("C", a(&[(2, &[0, 3, 4, 5])])),
        ],
    );
}

#[test]
fn s13_heterogeneous_test_reassignment_when_one_member_removed_after_initial_assignment_with_three_members_three_topics()
 {
    let got = Case::new(&[(1, 3), (2, 8), (3, 3)])
        .member("A", &[1, 3], a(&[(1, &[0, 1, 2]), (3, &[0, 1])]))
        .member("B", &[2], a(&[(2, &[3, 4, 5, 6])]))
        .run(ServerAssignor::Uniform);
    expect(
        &got,
        &[
            ("A", a(&[(1, &[0, 1, 2]), (3, &[0, 1, 2])])),
            ("B", a(&[(2, &[0, 1, 2, 3, 4, 5, 6, 7])])),
        ],
    );
}

#[test]
fn s14_heterogeneous_test_reassignment_when_one_subscription_removed_after_initial_assignment_with_two_members_two_topics()
 {
    let got = Case::new(&[(1, 3), (2, 5)])
        .member("A", &[1], a(&[(1, &[0, 2]), (2, &[1, 3])]))
        .member("B", ALL12, a(&[(1, &[1]), (2, &[0, 2, 4])]))
        .run(ServerAssignor::Uniform);
    expect(
        &got,
        &[
            ("A", a(&[(1, &[0, 1, 2])])),
            ("B", a(&[(2, &[0, 1, 2, 3, 4])])),
        ],
    );
}

#[test]
fn s15_heterogeneous_test_reassignment_when_topic_partitions_run_out_and_members_have_no_partitions()
 {
    // Homogeneous subscriptions in Kafka's heterogeneous test class: the heterogeneous builder
    // is called directly there.
    let case = Case::new(&[(1, 2), (2, 2), (3, 2)])
        .member(
            "A",
            &[1, 2, 3],
            a(&[(1, &[0, 1]), (2, &[0, 1]), (3, &[0, 1])]),
        )
        .member("B", &[1, 2, 3], a(NONE));
    let got: BTreeMap<String, MemberAssignment> = case
        .spec()
        .members
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let target =
                group_coordinator::consumer_group::assignor::heterogeneous_for_tests(&case.spec())
                    .unwrap();
            (m.member_id.to_string(), target.member_assignment(i))
        })
        .collect();
    expect(
        &got,
        &[
            ("A", a(&[(2, &[0]), (3, &[0, 1])])),
            ("B", a(&[(1, &[0, 1]), (2, &[1])])),
        ],
    );
}

#[test]
fn s16_heterogeneous_test_first_assignment_with_two_members_including_one_without_subscriptions() {
    let got = Case::new(&[(1, 3)])
        .member("A", &[1], a(NONE))
        .member("B", &[], a(NONE))
        .run(ServerAssignor::Uniform);
    expect(&got, &[("A", a(&[(1, &[0, 1, 2])])), ("B", a(NONE))]);
}

#[test]
fn s17_range_test_first_assignment_three_members_three_topics_different_subscriptions() {
    let got = Case::new(&[(1, 3), (2, 3), (3, 2)])
        .member("A", &[1, 2], a(NONE))
        .member("B", &[3], a(NONE))
        .member("C", &[2, 3], a(NONE))
        .run(ServerAssignor::Range);
    expect(
        &got,
        &[
            ("A", a(&[(1, &[0, 1, 2]), (2, &[0, 1])])),
            ("B", a(&[(3, &[0])])),
            ("C", a(&[(2, &[2]), (3, &[1])])),
        ],
    );
}

#[test]
fn s18_range_test_first_assignment_num_members_greater_than_num_partitions() {
    let got = Case::new(&[(1, 3), (3, 2)])
        .member("A", &[1, 3], a(NONE))
        .member("B", &[1, 3], a(NONE))
        .member("C", &[1, 3], a(NONE))
        .run(ServerAssignor::Range);
    expect(
        &got,
        &[
            ("A", a(&[(1, &[0]), (3, &[0])])),
            ("B", a(&[(1, &[1]), (3, &[1])])),
            ("C", a(&[(1, &[2])])),
        ],
    );
}

#[test]
fn s19_range_test_reassignment_num_members_greater_than_num_partitions_when_one_member_added() {
    let got = Case::new(&[(1, 2), (2, 2)])
        .member("A", ALL12, a(&[(1, &[0]), (2, &[0])]))
        .member("B", ALL12, a(&[(1, &[1]), (2, &[1])]))
        .member("C", ALL12, a(NONE))
        .run(ServerAssignor::Range);
    expect(
        &got,
        &[
            ("A", a(&[(1, &[0]), (2, &[0])])),
            ("B", a(&[(1, &[1]), (2, &[1])])),
            ("C", a(NONE)),
        ],
    );
}

#[test]
fn s20_range_test_reassignment_when_one_partition_added_for_two_members_two_topics() {
    let got = Case::new(&[(1, 4), (2, 4)])
        .member("A", ALL12, a(&[(1, &[0, 1]), (2, &[0, 1])]))
        .member("B", ALL12, a(&[(1, &[2]), (2, &[2])]))
        .run(ServerAssignor::Range);
    expect(
        &got,
        &[
            ("A", a(&[(1, &[0, 1]), (2, &[0, 1])])),
            ("B", a(&[(1, &[2, 3]), (2, &[2, 3])])),
        ],
    );
}

#[test]
fn s21_range_test_reassignment_when_one_member_added_after_initial_assignment_with_two_members_two_topics()
 {
    let got = Case::new(&[(1, 3), (2, 3)])
        .member("A", ALL12, a(&[(1, &[0, 1]), (2, &[0, 1])]))
        .member("B", ALL12, a(&[(1, &[2]), (2, &[2])]))
        .member("C", ALL12, a(NONE))
        .run(ServerAssignor::Range);
    expect(
        &got,
        &[
            ("A", a(&[(1, &[0]), (2, &[0])])),
            ("B", a(&[(1, &[1]), (2, &[1])])),
            ("C", a(&[(1, &[2]), (2, &[2])])),
        ],
    );
}

#[test]
fn s22_range_test_reassignment_when_one_member_added_and_one_partition_after_initial_assignment_with_two_members_two_topics()
 {
    let got = Case::new(&[(1, 4), (2, 3)])
        .member("A", ALL12, a(NONE))
        .member("B", ALL12, a(NONE))
        .member("C", &[1], a(NONE))
        .run(ServerAssignor::Range);
    expect(
        &got,
        &[
            ("A", a(&[(1, &[0, 1]), (2, &[0, 1])])),
            ("B", a(&[(1, &[2]), (2, &[2])])),
            ("C", a(&[(1, &[3])])),
        ],
    );
}

#[test]
fn s23_range_test_reassignment_when_multiple_subscriptions_removed_after_initial_assignment_with_three_members_two_topics()
 {
    let got = Case::new(&[(1, 3), (2, 3), (3, 2)])
        .member("A", &[1], a(NONE))
        .member("B", &[1, 2, 3], a(NONE))
        .member("C", &[2], a(NONE))
        .run(ServerAssignor::Range);
    expect(
        &got,
        &[
            ("A", a(&[(1, &[0, 1])])),
            ("B", a(&[(1, &[2]), (2, &[0, 1]), (3, &[0, 1])])),
            ("C", a(&[(2, &[2])])),
        ],
    );
}

#[test]
fn s24_range_test_static_membership() {
    // Replacing A by a new member id with the same instance id leaves every assignment as it was:
    // static members sort by instance id, so they keep their place.
    let spec = |a_id: &str| GroupSpec {
        subscription_type: None,
        partitions: [(t(1), 5)].into_iter().collect(),
        members: [
            (a_id, Some("instanceA")),
            ("B", None),
            ("C", Some("instanceC")),
        ]
        .iter()
        .map(|(id, instance)| MemberSpec {
            member_id: id.to_string().into(),
            instance_id: instance.map(Into::into),
            subscribed: topic_ids([t(1)]).into(),
            ..MemberSpec::default()
        })
        .collect(),
    };
    let before = ServerAssignor::Range
        .assign_by_member_id(&spec("A"))
        .unwrap();
    let after = ServerAssignor::Range
        .assign_by_member_id(&spec("memberA1"))
        .unwrap();
    assert_eq!(before["A"], after["memberA1"]);
    assert_eq!(before["B"], after["B"]);
    assert_eq!(before["C"], after["C"]);
    // Static first, by instance id: instanceA, instanceC, then dynamic B.
    assert_eq!(before["A"], a(&[(1, &[0, 1])]));
    assert_eq!(before["C"], a(&[(1, &[2, 3])]));
    assert_eq!(before["B"], a(&[(1, &[4])]));
}

#[test]
fn a_topic_without_metadata_is_kafkas_error() {
    let err = Case::new(&[(1, 3)])
        .member("A", &[1, 2], a(NONE))
        .run_err(ServerAssignor::Uniform);
    assert!(err.contains("which doesn't exist"), "{err}");
}

impl Case {
    fn run_err(&self, assignor: ServerAssignor) -> String {
        assignor.assign_by_member_id(&self.spec()).unwrap_err().0
    }
}

#[test]
fn topic_ids_read_and_write_kafkas_text_and_order_as_signed_halves() {
    for text in [
        "T1-A4s3VTwiI5CTbEp6POw",
        "AAAAAAAAAAAAAAAAAAAAAA",
        "_____________________w",
    ] {
        assert_eq!(Uuid::parse(text).unwrap().to_string(), text);
    }
    assert!(Uuid::parse("T1-A4s3VTwiI5CTbEp6PO").is_err());
    assert!(Uuid::parse("T1-A4s3VTwiI5CTbEp6PO!").is_err());
    // The last character's 4 unused bits are ignored, as Java's decoder does.
    assert_eq!(
        Uuid::parse("T2-B4s3VTwiI5YHbPp6YUe").unwrap().to_string(),
        "T2-B4s3VTwiI5YHbPp6YUQ"
    );
    // A set top bit sorts first (negative), as Kafka's Uuid.compareTo.
    let high = Uuid::from_u128(1 << 127);
    let low = Uuid::from_u128(1);
    assert!(high < low);
    // Ids derived from names: stable, version 4 and variant bits set.
    let id = Uuid::for_topic_name("orders");
    assert_eq!(id, Uuid::for_topic_name("orders"));
    assert_ne!(id, Uuid::for_topic_name("orders2"));
    assert_eq!((id.most >> 12) & 0xf, 4);
    assert_eq!((id.least as u64) >> 62, 0b10);
}

/// Homogeneous or not as Kafka reads it off the subscribed-topic counts: a topic named by only
/// some members makes the group heterogeneous even when it has no metadata (the members'
/// resolved topic ids then agree, and reading those gave the homogeneous builder: 84 of 8,022
/// cases against Kafka's classes). `serverAssign` and the coordinator both decide through this.
#[test]
fn the_subscription_type_counts_topic_names_without_metadata() {
    use group_coordinator::consumer_group::assignor::SubscriptionType;
    // m1: orders, nope (no metadata); m2: orders.
    assert_eq!(
        SubscriptionType::of_counts([2, 1], 2),
        SubscriptionType::Heterogeneous
    );
    assert_eq!(
        SubscriptionType::of_counts([2, 2], 2),
        SubscriptionType::Homogeneous
    );
    assert_eq!(
        SubscriptionType::of_counts([], 0),
        SubscriptionType::Homogeneous
    );
}
