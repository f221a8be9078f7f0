//! Kafka's checks on an assignment, reusable by tests and the simulator: validity, balance
//! (the definition of `AbstractStickyAssignorTest`), the cooperative "nothing revoked and
//! assigned in the same round" rule, and `isSticky`.

use super::{AssignmentInput, AssignmentOutput, DenseAssignment, KafkaQuirk, Prepared, Strategy};
use crate::consumer_protocol::TopicPartitions;
use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

type Tp<'a> = (&'a str, i32);

/// A partition as the checks key it: its topic's rank among the names the input and output use,
/// and its number. Ranks sort as the names do, so keys sort as (topic, partition) would, and a
/// check compares two integers per partition rather than two names: a leader's step on 100,000
/// partitions once spent most of its time in these checks' string comparisons and per-partition
/// map nodes.
type Key = (usize, i32);

/// The names an input and its output use (topics, or members), sorted: a name's rank is its index.
struct Names<'a>(Vec<&'a str>);

impl<'a> Names<'a> {
    /// The topics: few names, each named thousands of times (by every member's subscription,
    /// owned partitions and assignment), so gathered in a set rather than sorted with their
    /// repeats.
    fn topics(input: &'a AssignmentInput, output: &'a AssignmentOutput) -> Self {
        // (Inserted one at a time: `collect()` into a set would sort every repeat first.)
        let names: BTreeSet<&str> = crate::ordered::set(
            input
                .topics
                .keys()
                .map(String::as_str)
                .chain(input.members.iter().flat_map(|m| {
                    m.topics
                        .iter()
                        .map(String::as_str)
                        .chain(m.owned_partitions.iter().map(|tp| &*tp.topic))
                }))
                .chain(output.values().flatten().map(|tp| &*tp.topic)),
        );
        Names(names.into_iter().collect())
    }

    /// The rank of a name this set was made from.
    fn rank(&self, name: &str) -> usize {
        self.0.binary_search(&name).unwrap_or_else(|at| at)
    }

    fn name(&self, rank: usize) -> &'a str {
        self.0[rank]
    }
}

/// The members of an input and its output, ranked, with each input member's and each output
/// entry's rank: the output's ids are sorted already (it is a map) and the input's are sorted
/// once, so one merge of the two ranks them all, where a binary search per member compared long
/// member ids over and over (most of a check at 1,000 members).
struct Members<'a> {
    names: Names<'a>,
    /// By input member, its rank.
    input: Vec<usize>,
    /// By rank, whether the output names it.
    in_output: Vec<bool>,
}

impl<'a> Members<'a> {
    fn of(input: &'a AssignmentInput, output: &'a AssignmentOutput) -> Self {
        let mut sorted: Vec<(&str, usize)> = input
            .members
            .iter()
            .enumerate()
            .map(|(i, m)| (m.member_id.as_str(), i))
            .collect();
        sorted.sort_unstable();
        let mut names: Vec<&str> = Vec::with_capacity(output.len().max(sorted.len()));
        let mut in_output = Vec::with_capacity(names.capacity());
        let mut ranks = alloc::vec![0; input.members.len()];
        let mut from_input = sorted.into_iter().peekable();
        let mut from_output = output.keys().map(String::as_str).peekable();
        loop {
            let next = match (from_input.peek(), from_output.peek()) {
                (None, None) => break,
                (Some(&(a, _)), Some(&b)) => a.min(b),
                (Some(&(a, _)), None) => a,
                (None, Some(&b)) => b,
            };
            let rank = names.len();
            // An id named twice in the input takes one rank.
            while let Some((_, i)) = from_input.next_if(|&(a, _)| a == next) {
                ranks[i] = rank;
            }
            in_output.push(from_output.next_if_eq(&next).is_some());
            names.push(next);
        }
        Members {
            names: Names(names),
            input: ranks,
            in_output,
        }
    }
}

/// The checks' view of an input and its output: topics and members by rank, every (partition,
/// member) the output assigns sorted by partition (a partition's members in the output's order),
/// and the members' owned partitions sorted (a partition two members claim goes to the later one).
struct Ranked<'a> {
    topics: Names<'a>,
    members: Members<'a>,
    assigned: Vec<(Key, usize)>,
    owned: Vec<(Key, usize)>,
}

impl<'a> Ranked<'a> {
    fn of(input: &'a AssignmentInput, output: &'a AssignmentOutput) -> Self {
        let topics = Names::topics(input, output);
        let members = Members::of(input, output);
        let pairs = |member: usize, list: &'a [TopicPartitions], into: &mut Vec<(Key, usize)>| {
            for tp in list {
                let t = topics.rank(&tp.topic);
                into.extend(tp.partitions.iter().map(|&p| ((t, p), member)));
            }
        };
        let mut assigned = Vec::new();
        // The output's entries in order, each by its rank (the ranks of the names it has).
        let output_ranks = (0..members.in_output.len()).filter(|&r| members.in_output[r]);
        for (member, list) in output_ranks.zip(output.values()) {
            pairs(member, list, &mut assigned);
        }
        // A partition's members stay in the output's order, which is their ranks' order.
        let assigned = crate::ordered::by_partition(assigned, topics.0.len(), |&(k, _)| k);
        let mut owned = Vec::new();
        for (m, &rank) in input.members.iter().zip(&members.input) {
            pairs(rank, &m.owned_partitions, &mut owned);
        }
        // The last claim of a partition wins, as a map's insert in the members' order would.
        let owned = crate::ordered::by_partition(owned, topics.0.len(), |&(k, _)| k)
            .chunk_by(|a, b| a.0 == b.0)
            .filter_map(|claims| claims.last().copied())
            .collect();
        Ranked {
            topics,
            members,
            assigned,
            owned,
        }
    }

    /// Each partition the output assigns, with its members (more than one is an error).
    fn by_partition(&self) -> impl Iterator<Item = &[(Key, usize)]> {
        self.assigned.chunk_by(|a, b| a.0 == b.0)
    }

    /// The member that owned `key` in the input.
    fn owner(&self, key: Key) -> Option<usize> {
        self.owned
            .binary_search_by_key(&key, |&(k, _)| k)
            .ok()
            .map(|i| self.owned[i].1)
    }

    /// The partitions that changed owner, as (partition, previous owner, new owner), in order:
    /// the assigned and the owned partitions walked side by side (both are sorted).
    fn moves(&self) -> impl Iterator<Item = (Key, usize, usize)> + '_ {
        let mut owned = self.owned.iter().peekable();
        self.by_partition().filter_map(move |who| {
            let (key, to) = who[0];
            while owned.next_if(|&&(k, _)| k < key).is_some() {}
            owned
                .next_if(|&&(k, _)| k == key)
                .map(|&(_, from)| from)
                .filter(|&from| from != to)
                .map(|from| (key, from, to))
        })
    }

    fn tp(&self, (t, p): Key) -> Tp<'a> {
        (self.topics.name(t), p)
    }
}

/// Valid and complete: every input member is present, each partition goes to at most one
/// member, only to a member subscribed to its topic, only partitions that exist, and every
/// partition of a topic some member subscribes to is assigned (an assignor that drops
/// partitions is not valid). For cooperative-sticky's first round use [`validate_cooperative`].
pub fn validate(input: &AssignmentInput, output: &AssignmentOutput) -> Result<(), String> {
    let ranked = Ranked::of(input, output);
    validate_except(input, &ranked, false, |_, _| false)
}

/// The check of a leader's assignment as Kafka's own assignor gives it: [`validate`] (or
/// [`validate_cooperative`] for cooperative-sticky), except that a partition `quirks` name as
/// Kafka's flaw ([`KafkaQuirk::PreviousOwnerNotSubscribed`]) may go to its member although the
/// member does not subscribe to its topic. Anything else wrong is still an error.
pub fn validate_as_kafka(
    strategy: Strategy,
    input: &AssignmentInput,
    output: &AssignmentOutput,
    quirks: &[KafkaQuirk],
) -> Result<(), String> {
    let ranked = Ranked::of(input, output);
    as_kafka(strategy, input, &ranked, quirks)
}

/// What a leader's assignment is checked for at every rebalance, from one ranking of its input
/// and output (built once: at 1,000 members each check building its own was 8% of a run):
/// [`validate_as_kafka`]'s answer, and for cooperative-sticky how many partitions
/// [`revoked_and_assigned`] finds (0 for the other strategies).
pub fn check_as_kafka(
    strategy: Strategy,
    input: &AssignmentInput,
    output: &AssignmentOutput,
    quirks: &[KafkaQuirk],
) -> (Result<(), String>, usize) {
    let ranked = Ranked::of(input, output);
    let valid = as_kafka(strategy, input, &ranked, quirks);
    let moved_at_once = match strategy {
        Strategy::CooperativeSticky => ranked.moves().count(),
        _ => 0,
    };
    (valid, moved_at_once)
}

/// [`check_as_kafka`] on an assignment still in dense form, for the usual case of one that
/// passes: `Some` with the count of partitions moved at once (cooperative-sticky; 0 for the
/// others) when each partition goes to one member, subscribed to its topic, and every
/// partition is assigned (or, cooperative, withheld from a new owner). `None` when anything is
/// not so: the caller then checks the named output, which finds the first error in order and
/// excuses Kafka's own flaws. (The named check ranks every member id and topic name again; a
/// dense assignment's partitions exist and every input member has a list, by construction.)
pub(crate) fn check_dense(
    strategy: Strategy,
    p: &Prepared,
    assignment: &DenseAssignment,
) -> Option<usize> {
    const NONE: u32 = u32::MAX;
    let mut assignee = alloc::vec![NONE; p.total];
    for m in 0..p.input.members.len() {
        let topics = p.member_topics(m);
        for &gp in assignment.member(m) {
            let to = assignee.get_mut(gp)?;
            if *to != NONE || topics.binary_search(&p.topic_of(gp)).is_err() {
                return None;
            }
            *to = m as u32;
        }
    }
    if strategy != Strategy::CooperativeSticky {
        return (!assignee.contains(&NONE)).then_some(0);
    }
    // Who owned each partition in the input (the last claim wins, as in the named check).
    let mut owner = alloc::vec![NONE; p.total];
    for (m, claims) in p.owned().iter().enumerate() {
        for &gp in claims {
            owner[gp] = m as u32;
        }
    }
    let mut moved = 0;
    for (&to, &from) in assignee.iter().zip(&owner) {
        match (to, from) {
            (NONE, NONE) => return None,
            (NONE, _) | (_, NONE) => {}
            (to, from) => moved += usize::from(to != from),
        }
    }
    Some(moved)
}

fn as_kafka(
    strategy: Strategy,
    input: &AssignmentInput,
    ranked: &Ranked,
    quirks: &[KafkaQuirk],
) -> Result<(), String> {
    let flawed: BTreeSet<(&str, Tp)> = quirks
        .iter()
        .filter_map(|q| match q {
            KafkaQuirk::PreviousOwnerNotSubscribed {
                member,
                topic,
                partition,
            } => Some((member.as_str(), (topic.as_str(), *partition))),
            KafkaQuirk::JavaThrowsNullPointer { .. } => None,
        })
        .collect();
    validate_except(
        input,
        ranked,
        strategy == Strategy::CooperativeSticky,
        |member, tp| flawed.contains(&(member, tp)),
    )
}

/// [`validate`] for cooperative-sticky: a partition may be left unassigned when a member owned it
/// in the input, as the cooperative protocol withholds a partition that changes owner until its
/// owner has revoked it (it is assigned in the follow-up rebalance).
pub fn validate_cooperative(
    input: &AssignmentInput,
    output: &AssignmentOutput,
) -> Result<(), String> {
    let ranked = Ranked::of(input, output);
    validate_except(input, &ranked, true, |_, _| false)
}

/// The checks of [`validate`], the first error in (topic, partition) order; with
/// `withheld_may_be_unassigned`, completeness excuses the partitions a member owned in the input,
/// and `may_hold_unsubscribed` names the (member, partition) pairs the subscription check excuses.
fn validate_except(
    input: &AssignmentInput,
    ranked: &Ranked,
    withheld_may_be_unassigned: bool,
    may_hold_unsubscribed: impl Fn(&str, Tp) -> bool,
) -> Result<(), String> {
    for (m, &rank) in input.members.iter().zip(&ranked.members.input) {
        if !ranked.members.in_output[rank] {
            return Err(format!(
                "member {} is missing from the assignment",
                m.member_id
            ));
        }
    }
    // Each member's subscribed topics by rank, sorted (`None`: not a member of the input).
    let mut subscribed: Vec<Option<Vec<usize>>> = alloc::vec![None; ranked.members.names.0.len()];
    for (m, &rank) in input.members.iter().zip(&ranked.members.input) {
        let mut topics: Vec<usize> = m.topics.iter().map(|t| ranked.topics.rank(t)).collect();
        topics.sort_unstable();
        subscribed[rank] = Some(topics);
    }
    // Each topic's partition count by rank (0: not in the metadata).
    let partitions: Vec<i32> = ranked
        .topics
        .0
        .iter()
        .map(|t| input.topics.get(*t).copied().unwrap_or(0))
        .collect();
    for who in ranked.by_partition() {
        let (key, first) = who[0];
        let (topic, p) = ranked.tp(key);
        let member = ranked.members.names.name(first);
        if who.len() > 1 {
            let names: Vec<&str> = who
                .iter()
                .map(|&(_, m)| ranked.members.names.name(m))
                .collect();
            return Err(format!(
                "{topic}-{p} is assigned to {}",
                names.join(" and ")
            ));
        }
        let n = partitions[key.0];
        if p < 0 || p >= n {
            return Err(format!("{topic}-{p} does not exist"));
        }
        match &subscribed[first] {
            Some(topics) if topics.binary_search(&key.0).is_ok() => {}
            Some(_) if may_hold_unsubscribed(member, (topic, p)) => {}
            Some(_) => {
                return Err(format!(
                    "{topic}-{p} went to {member}, which does not subscribe to {topic}"
                ));
            }
            None => {
                return Err(format!(
                    "{topic}-{p} went to {member}, which is not a member"
                ));
            }
        }
    }
    let mut topics: Vec<usize> = subscribed.iter().flatten().flatten().copied().collect();
    topics.sort_unstable();
    topics.dedup();
    for t in topics {
        let topic = ranked.topics.name(t);
        // The topic's assigned partitions, ascending (each at most once: checked above), walked
        // beside its partition numbers.
        let from = ranked.assigned.partition_point(|&((u, _), _)| u < t);
        let mut assigned = ranked.assigned[from..]
            .iter()
            .take_while(|&&((u, _), _)| u == t)
            .map(|&((_, p), _)| p)
            .peekable();
        for p in 0..partitions[t] {
            let assigned = assigned.next_if_eq(&p).is_some();
            // (Looked up only for a partition nobody got: that is rare.)
            let withheld = || withheld_may_be_unassigned && ranked.owner((t, p)).is_some();
            if !assigned && !withheld() {
                return Err(format!(
                    "{topic}-{p} is assigned to no one, although a member subscribes to {topic}"
                ));
            }
        }
    }
    Ok(())
}

/// Balanced: member counts differ by at most one, or no member with at least two fewer
/// partitions than another could take any of that member's partitions.
pub fn is_balanced(input: &AssignmentInput, output: &AssignmentOutput) -> bool {
    let count = |m: &str| {
        output
            .get(m)
            .map_or(0, |l| l.iter().map(|t| t.partitions.len()).sum::<usize>())
    };
    let counts: Vec<usize> = input.members.iter().map(|m| count(&m.member_id)).collect();
    let (Some(&min), Some(&max)) = (counts.iter().min(), counts.iter().max()) else {
        return true;
    };
    if max <= min + 1 {
        return true;
    }
    for a in &input.members {
        for b in &input.members {
            if count(&a.member_id) + 1 < count(&b.member_id) {
                let takes = output
                    .get(&b.member_id)
                    .into_iter()
                    .flatten()
                    .any(|tp| a.topics.iter().any(|t| **t == *tp.topic));
                if takes {
                    return false;
                }
            }
        }
    }
    true
}

/// Partitions that changed owner between the members' `ownedPartitions` and `output`.
pub fn moved_partitions(input: &AssignmentInput, output: &AssignmentOutput) -> usize {
    Ranked::of(input, output).moves().count()
}

/// The cooperative rule: partitions that one member owned and another is now assigned (they
/// must be revoked first and assigned in the follow-up rebalance). Empty = the rule holds.
pub fn revoked_and_assigned(
    input: &AssignmentInput,
    output: &AssignmentOutput,
) -> Vec<(String, i32)> {
    let ranked = Ranked::of(input, output);
    ranked
        .moves()
        .map(|(key, _, _)| {
            let (topic, p) = ranked.tp(key);
            (String::from(topic), p)
        })
        .collect()
}

/// Kafka's `isSticky` (tests): no topic has partitions moving both ways between the same two
/// members from `input`'s owned partitions to `output`.
pub fn is_sticky(input: &AssignmentInput, output: &AssignmentOutput) -> bool {
    let ranked = Ranked::of(input, output);
    let moves: BTreeSet<(usize, usize, usize)> = ranked
        .moves()
        .map(|((t, _), from, to)| (t, from, to))
        .collect();
    !moves.iter().any(|&(t, a, b)| moves.contains(&(t, b, a)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assignor::{MemberSubscription, prepare};
    use alloc::string::ToString;
    use alloc::vec;

    /// Topics t (4 partitions) and u (2); A and B subscribe to t, C to u. A owned t-2.
    fn input() -> AssignmentInput {
        let member = |id: &str, topic: &str| MemberSubscription {
            member_id: id.to_string(),
            topics: vec![topic.to_string()],
            ..MemberSubscription::default()
        };
        let mut a = member("A", "t");
        a.owned_partitions = vec![TopicPartitions {
            topic: "t".into(),
            partitions: vec![2],
        }];
        AssignmentInput {
            topics: [("t".to_string(), 4), ("u".to_string(), 2)].into(),
            members: vec![a, member("B", "t"), member("C", "u")],
            ..AssignmentInput::default()
        }
    }

    /// The dense check's verdict on `lists` (dense partitions: t-0..3 are 0..3, u-0..1 are 4, 5),
    /// and the named check's on the same assignment named.
    fn verdicts(strategy: Strategy, lists: &[&[usize]]) -> (Option<usize>, (bool, usize)) {
        let input = input();
        let p = prepare(&input).expect("valid input");
        let dense = DenseAssignment::from_lists(lists.iter().map(|l| l.to_vec()).collect(), None);
        let fast = check_dense(strategy, &p, &dense);
        let output = p.output(dense);
        let (valid, moved) = check_as_kafka(strategy, &input, &output, &[]);
        (fast, (valid.is_ok(), moved))
    }

    #[test]
    fn the_dense_check_passes_only_what_the_named_check_passes() {
        use Strategy::{CooperativeSticky, Range};
        // Valid: the same verdict and count.
        assert_eq!(
            verdicts(Range, &[&[0, 1], &[2, 3], &[4, 5]]),
            (Some(0), (true, 0))
        );
        // t-2 moves from A to B at once: counted.
        assert_eq!(
            verdicts(CooperativeSticky, &[&[0, 1], &[2, 3], &[4, 5]]),
            (Some(1), (true, 1))
        );
        // t-2 withheld (A owned it): complete for cooperative-sticky, not for range.
        assert_eq!(
            verdicts(CooperativeSticky, &[&[0, 1], &[3], &[4, 5]]),
            (Some(0), (true, 0))
        );
        assert_eq!(
            verdicts(Range, &[&[0, 1], &[3], &[4, 5]]),
            (None, (false, 0))
        );
        // t-3 nobody's, and nobody owned it: incomplete for both.
        for strategy in [Range, CooperativeSticky] {
            assert_eq!(verdicts(strategy, &[&[0, 1], &[2], &[4, 5]]).0, None);
            assert!(!verdicts(strategy, &[&[0, 1], &[2], &[4, 5]]).1.0);
        }
        // t-1 twice, and t-0 to C (which subscribes to u only): refused, and the named check
        // says why.
        assert_eq!(
            verdicts(Range, &[&[0, 1], &[1, 2, 3], &[4, 5]]),
            (None, (false, 0))
        );
        assert_eq!(
            verdicts(Range, &[&[1], &[2, 3], &[0, 4, 5]]),
            (None, (false, 0))
        );
    }
}
