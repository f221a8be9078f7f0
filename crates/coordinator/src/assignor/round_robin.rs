//! `RoundRobinAssignor` ("roundrobin", `docs/src/reference/assignors.md#roundrobin`).

use super::prepared::Lists;
use super::{DenseAssignment, Prepared};
use alloc::vec::Vec;

/// Every partition of every subscribed topic (topics by name, partitions ascending) goes to the
/// next member, in member order, that subscribes to its topic.
pub(crate) fn round_robin_dense(p: &Prepared) -> DenseAssignment {
    round_robin_with(p, Walk::Cheaper)
}

/// How to find a topic's next subscriber after the cursor. Both give the same assignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Walk {
    /// Pass over members in order, asking each whether it subscribes (Kafka's own loop).
    #[cfg_attr(
        not(test),
        expect(dead_code, reason = "chosen by the tests, to pin each walk")
    )]
    Members,
    /// Per topic, the positions of its subscribers in member order, built once: a partition
    /// costs one step instead of one question per member passed over.
    #[cfg_attr(
        not(test),
        expect(dead_code, reason = "chosen by the tests, to pin each walk")
    )]
    Subscribers,
    /// Whichever costs less on this input (see [`subscribers_cost_less`]); with identical
    /// subscriptions neither: each partition's member follows from its position.
    Cheaper,
}

pub(crate) fn round_robin_with(p: &Prepared, walk: Walk) -> DenseAssignment {
    let order = &p.kafka_order;
    if order.is_empty() {
        return DenseAssignment::from_owners(&[], 0);
    }
    if p.uniform && walk == Walk::Cheaper {
        // Everyone subscribes to every topic: the cursor goes round once per partition, so
        // partition `gp` (topics by name, partitions ascending) is the member at position
        // `gp % members`'s. Each member's list is written straight, without a table of owners
        // to sort out (10,000 members, 100,000 partitions: 9% less natively, 16% in wasm).
        let m = order.len();
        let mut lengths = alloc::vec![0; m];
        for (at, &member) in order.iter().enumerate() {
            lengths[member] = p.total / m + usize::from(at < p.total % m);
        }
        return DenseAssignment::build(lengths, |put| {
            for (at, &member) in order.iter().enumerate() {
                for gp in (at..p.total).step_by(m) {
                    put(member, gp);
                }
            }
        });
    }
    // Per topic, its subscribers in member order, when walking them is chosen.
    let counts = p.subscriber_counts();
    let chosen = match walk {
        Walk::Members => false,
        Walk::Subscribers => true,
        Walk::Cheaper => subscribers_cost_less(p, &counts),
    };
    if chosen {
        return by_subscribers(p, &p.subscribers(order, &counts));
    }
    // Each partition's member, then the members' partitions in one array.
    let mut owners: Vec<u32> = alloc::vec![0; p.total];
    let mut cursor = 0;
    // Each position's topics at hand: the loop asks about members one after another.
    let topics: Vec<&[usize]> = order.iter().map(|&m| p.member_topics(m)).collect();
    for (t, &n) in p.counts.iter().enumerate() {
        let first = p.offsets[t];
        for owner in &mut owners[first..first + n] {
            // Some member subscribes to `t`, so this ends.
            while topics[cursor].binary_search(&t).is_err() {
                cursor = (cursor + 1) % order.len();
            }
            *owner = order[cursor] as u32;
            cursor = (cursor + 1) % order.len();
        }
    }
    DenseAssignment::from_owners(&owners, order.len())
}

/// The walk over each topic's subscribers (`subscribers`, in member order). A topic's partitions
/// are dealt to its subscribers in turn from the first at or after the cursor, so how many each
/// gets follows from where the deal starts: the lists are sized first and then written
/// straight, without a table of owners to sort out (10,000 members on 10 topics in five
/// disjoint groups: 18% less natively, 11% in wasm).
fn by_subscribers(p: &Prepared, subscribers: &Lists) -> DenseAssignment {
    let order = &p.kafka_order;
    // Each member's position in member order (the cursor is one).
    let mut position = alloc::vec![0; order.len()];
    for (at, &m) in order.iter().enumerate() {
        position[m] = at;
    }
    // Per topic, the subscriber its deal starts at; per member, how many it is dealt.
    let mut starts = Vec::with_capacity(p.counts.len());
    let mut lengths = alloc::vec![0; order.len()];
    let mut cursor = 0;
    for (t, &n) in p.counts.iter().enumerate() {
        // Some member subscribes to `t` (only subscribed topics are interned).
        let subs = subscribers.of(t);
        let s = subs.len();
        // The first subscriber at or after the cursor, wrapping round.
        let k = subs.partition_point(|&m| position[m] < cursor) % s;
        starts.push(k);
        // Everyone gets n / s; the n % s subscribers from the start on get one more.
        for (j, &m) in subs.iter().enumerate() {
            lengths[m] += n / s + usize::from((j + s - k) % s < n % s);
        }
        if n > 0 {
            // After the subscriber dealt the last partition.
            cursor = (position[subs[(k + n - 1) % s]] + 1) % order.len();
        }
    }
    DenseAssignment::build(lengths, |put| {
        for (t, &n) in p.counts.iter().enumerate() {
            let subs = subscribers.of(t);
            let mut k = starts[t];
            for gp in p.offsets[t]..p.offsets[t] + n {
                put(subs[k], gp);
                k = if k + 1 == subs.len() { 0 } else { k + 1 };
            }
        }
    })
}

/// Whether building the per-topic subscriber positions costs less than passing over members:
/// building costs two steps per (member, subscribed topic); passing over costs about
/// `members / subscribers` questions per partition, each a binary search. `subscribers` are
/// the per-topic counts ([`Prepared::subscriber_counts`]).
fn subscribers_cost_less(p: &Prepared, subscribers: &[usize]) -> bool {
    let m = p.list_of.len();
    let build: usize = 2 * subscribers.iter().sum::<usize>();
    let pass: usize = p
        .counts
        .iter()
        .zip(subscribers)
        .map(|(&n, &s)| n.saturating_mul(m / s.max(1)).saturating_mul(3))
        .fold(0, usize::saturating_add);
    build < pass
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assignor::{AssignmentInput, MemberSubscription, prepare};
    use alloc::format;
    use alloc::string::String;
    use proptest::prelude::*;

    /// Members (instance id or not, a subset of topics each, some subscribing to a topic
    /// without metadata) over topics with 0 to 6 partitions.
    fn input() -> impl Strategy<Value = AssignmentInput> {
        (
            proptest::collection::vec(0i32..7, 1..9),
            proptest::collection::vec((any::<u16>(), any::<bool>(), any::<u16>()), 0..40),
        )
            .prop_map(|(counts, members)| AssignmentInput {
                topics: counts
                    .iter()
                    .enumerate()
                    .map(|(t, &n)| (format!("t{t}"), n))
                    .collect(),
                members: members
                    .iter()
                    .enumerate()
                    .map(|(i, &(subs, is_static, instance))| MemberSubscription {
                        member_id: format!("m{:03}", (i * 37) % 101),
                        group_instance_id: is_static.then(|| format!("i{}", instance % 13)),
                        // Bit t: topic t; the last bit, a topic nobody describes.
                        topics: (0..=counts.len())
                            .filter(|t| subs >> (t % 16) & 1 == 1)
                            .map(|t| format!("t{t}"))
                            .collect::<Vec<String>>(),
                        ..MemberSubscription::default()
                    })
                    .collect(),
                ..AssignmentInput::default()
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2_000))]
        #[test]
        fn both_walks_give_the_same_assignment(i in input()) {
            let Ok(p) = prepare(&i) else {
                // Repeated ids or instance ids: refused before any walk.
                return Ok(());
            };
            let members = round_robin_with(&p, Walk::Members);
            prop_assert_eq!(&members, &round_robin_with(&p, Walk::Subscribers));
            prop_assert_eq!(&members, &round_robin_with(&p, Walk::Cheaper));
        }

        #[test]
        fn identical_subscriptions_go_by_position(mut i in input(), members in 1usize..40) {
            // 1 to 39 members, all with the first generated member's topics.
            let topics = i.members.first().map(|m| m.topics.clone()).unwrap_or_default();
            let template = i.members.first().cloned().unwrap_or_default();
            i.members = (0..members)
                .map(|k| MemberSubscription {
                    member_id: format!("m{:03}", (k * 37) % 101),
                    group_instance_id: i.members.get(k).and_then(|m| m.group_instance_id.clone()),
                    topics: topics.clone(),
                    ..template.clone()
                })
                .collect();
            let Ok(p) = prepare(&i) else {
                return Ok(());
            };
            prop_assert!(p.uniform);
            prop_assert_eq!(round_robin_with(&p, Walk::Cheaper), round_robin_with(&p, Walk::Members));
        }
    }
}
