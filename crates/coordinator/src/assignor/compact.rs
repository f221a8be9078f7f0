//! The assignors' compact form: names once, everything else as integer arrays. What a caller
//! with a large group passes across a boundary where every string and object costs (the wasm
//! module's `assignCompact`): the JSON form of [`super::AssignmentInput`] walks one object per
//! member and one string per subscribed topic; this form is a handful of arrays.
//!
//! - `topics`, `partitions`: the topic table (name, partition count); topics are named by their
//!   index in it.
//! - `members`: member ids; `instance_ids`, when given, one per member (`None`: dynamic).
//! - `subscriptions`: per member in turn, how many topics, then their indices.
//! - `owned`: per member in turn, how many claims, then (topic index, partition) pairs; empty
//!   for no claims at all.
//! - `generations`: per member its subscription's generation (−1: absent); empty for none.
//!
//! The result is per member (input order), how many partitions, then (topic index,
//! partition) pairs, by topic name then partition: the same assignment the JSON form gives.
//! Racks are not carried: rack-aware assignment takes the JSON form.

use super::prepared::{Prepared, Subscriptions, finish, with_partitions};
use super::{AssignError, AssignmentInput, MemberSubscription, Strategy};
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

/// An assignor's input in the compact form (see the module doc).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CompactInput {
    pub topics: Vec<String>,
    pub partitions: Vec<i32>,
    pub members: Vec<String>,
    pub instance_ids: Option<Vec<Option<String>>>,
    pub subscriptions: Vec<i32>,
    pub owned: Vec<i32>,
    pub generations: Vec<i32>,
}

impl CompactInput {
    /// The compact form of a JSON-form input: every topic named anywhere (subscribed, claimed
    /// or with metadata) in name order, one without metadata with 0 partitions; no racks.
    pub fn of(input: &AssignmentInput) -> CompactInput {
        let mut table: BTreeMap<&str, i32> =
            input.topics.iter().map(|(t, &n)| (t.as_str(), n)).collect();
        for m in &input.members {
            let claimed = m.owned_partitions.iter().map(|tp| &*tp.topic);
            for t in m.topics.iter().map(String::as_str).chain(claimed) {
                table.entry(t).or_insert(0);
            }
        }
        let index: BTreeMap<&str, i32> = table
            .keys()
            .enumerate()
            .map(|(i, t)| (*t, i as i32))
            .collect();
        let mut c = CompactInput {
            topics: table.keys().map(|t| String::from(*t)).collect(),
            partitions: table.values().copied().collect(),
            members: input.members.iter().map(|m| m.member_id.clone()).collect(),
            instance_ids: input
                .members
                .iter()
                .any(|m| m.group_instance_id.is_some())
                .then(|| {
                    input
                        .members
                        .iter()
                        .map(|m| m.group_instance_id.clone())
                        .collect()
                }),
            generations: input
                .members
                .iter()
                .map(|m| m.generation_id.unwrap_or(-1))
                .collect(),
            ..CompactInput::default()
        };
        for m in &input.members {
            c.subscriptions.push(m.topics.len() as i32);
            c.subscriptions
                .extend(m.topics.iter().map(|t| index[t.as_str()]));
            let claims: usize = m
                .owned_partitions
                .iter()
                .map(|tp| tp.partitions.len())
                .sum();
            c.owned.push(claims as i32);
            for tp in &m.owned_partitions {
                for &p in &tp.partitions {
                    c.owned.extend([index[&*tp.topic], p]);
                }
            }
        }
        c
    }
}

fn bad(message: String) -> AssignError {
    AssignError(message)
}

/// Reads one member's run of a per-member array: its count, then `width` values per item.
/// (The server assignors' compact form reads its arrays with it too.)
pub(crate) fn run<'a>(
    array: &'a [i32],
    at: &mut usize,
    width: usize,
    what: &str,
    member: &str,
) -> Result<&'a [i32], AssignError> {
    let count = array
        .get(*at)
        .copied()
        .ok_or_else(|| bad(alloc::format!("{what}: no count for member \"{member}\"")))?;
    let count = usize::try_from(count).map_err(|_| {
        bad(alloc::format!(
            "{what}: negative count for member \"{member}\""
        ))
    })?;
    let start = *at + 1;
    let end = count
        .checked_mul(width)
        .and_then(|n| start.checked_add(n))
        .filter(|&end| end <= array.len())
        .ok_or_else(|| {
            bad(alloc::format!(
                "{what}: member \"{member}\" has {count} entries, past the array's end"
            ))
        })?;
    *at = end;
    Ok(&array[start..end])
}

/// The topic index `t` of the table, checked.
pub(crate) fn topic(t: i32, table: usize, what: &str, member: &str) -> Result<usize, AssignError> {
    usize::try_from(t)
        .ok()
        .filter(|&t| t < table)
        .ok_or_else(|| {
            bad(alloc::format!(
                "{what}: member \"{member}\" names topic {t}, outside the {table} topics"
            ))
        })
}

/// Runs an assignor on the compact form; the result in the compact form.
pub fn assign_compact(strategy: Strategy, c: &CompactInput) -> Result<Vec<i32>, AssignError> {
    assign_compact_with(strategy, c, c.members.clone())
}

/// [`assign_compact`] on an input the caller gives up: its member ids move into the assignor's
/// input instead of being copied (with 10,000 members, in wasm, the copies cost a sixth of the
/// call).
pub fn assign_compact_owned(
    strategy: Strategy,
    mut c: CompactInput,
) -> Result<Vec<i32>, AssignError> {
    let members = core::mem::take(&mut c.members);
    assign_compact_with(strategy, &c, members)
}

/// [`assign_compact`] with the member ids given apart (`c.members` is not read).
fn assign_compact_with(
    strategy: Strategy,
    c: &CompactInput,
    members: Vec<String>,
) -> Result<Vec<i32>, AssignError> {
    let n = members.len();
    if c.partitions.len() != c.topics.len() {
        return Err(bad(alloc::format!(
            "partitions: {} counts for {} topics",
            c.partitions.len(),
            c.topics.len()
        )));
    }
    if let Some(ids) = &c.instance_ids
        && ids.len() != n
    {
        return Err(bad(alloc::format!(
            "instanceIds: {} entries for {n} members",
            ids.len()
        )));
    }
    if !c.generations.is_empty() && c.generations.len() != n {
        return Err(bad(alloc::format!(
            "generations: {} entries for {n} members",
            c.generations.len()
        )));
    }
    // The table in name order, sorted once: name order is dense order, and the places of the
    // table's topics among those with partitions (`place`) and back (`table_of`) follow from it
    // without searching by name.
    let order = crate::compare::by_name(c.topics.len(), |k| &c.topics[k])
        .map_err(|k| bad(alloc::format!("topic \"{}\" appears twice", c.topics[k])))?;
    // Sorted and distinct: the map is built in one pass, without comparisons.
    let topics: BTreeMap<String, i32> = order
        .iter()
        .map(|&k| (c.topics[k].clone(), c.partitions[k]))
        .collect();
    // The members without their topics and claims: those stay indices.
    let input = AssignmentInput {
        topics,
        racks: BTreeMap::new(),
        members: members
            .into_iter()
            .enumerate()
            .map(|(i, member_id)| MemberSubscription {
                member_id,
                group_instance_id: c.instance_ids.as_ref().and_then(|ids| ids[i].clone()),
                generation_id: c.generations.get(i).copied().filter(|&g| g >= 0),
                ..MemberSubscription::default()
            })
            .collect(),
    };
    let by_id = super::members_by_id(&input)?;
    super::check_topics(&input)?;
    // The table's topics with partitions, in name order (`with_partitions`' list), each table
    // index's place there, and each place's table index.
    let all = with_partitions(&input);
    let mut place: Vec<Option<usize>> = alloc::vec![None; c.topics.len()];
    let mut table_of: Vec<i32> = Vec::with_capacity(all.len());
    for &k in &order {
        if c.partitions[k] > 0 {
            place[k] = Some(table_of.len());
            table_of.push(k as i32);
        }
    }
    debug_assert_eq!(table_of.len(), all.len());
    let mut subscriptions = Subscriptions::with_capacity(n);
    // The first raw subscription as a set of table indices (topics without partitions
    // included, as Kafka compares them), and whether every distinct one equals it.
    let mut first_raw: Option<Vec<usize>> = None;
    let mut all_equal = true;
    let mut at = 0;
    for m in input.members.iter().map(|m| &m.member_id) {
        let list = run(&c.subscriptions, &mut at, 1, "subscriptions", m)?;
        subscriptions.push(list, || {
            let mut raw: Vec<usize> = list
                .iter()
                .map(|&t| topic(t, c.topics.len(), "subscriptions", m))
                .collect::<Result<_, _>>()?;
            raw.sort_unstable();
            raw.dedup();
            let mut ts: Vec<usize> = raw.iter().filter_map(|&t| place[t]).collect();
            ts.sort_unstable();
            match &first_raw {
                None => first_raw = Some(raw),
                Some(first) => all_equal &= *first == raw,
            }
            Ok(ts)
        })?;
    }
    if at != c.subscriptions.len() {
        return Err(bad(alloc::format!(
            "subscriptions: {} values left over after the last member",
            c.subscriptions.len() - at
        )));
    }
    // Range and round robin never read the claims: they are checked, not kept.
    let keep = matches!(strategy, Strategy::Sticky | Strategy::CooperativeSticky);
    let mut owned: Vec<Vec<(usize, usize)>> = Vec::with_capacity(if keep { n } else { 0 });
    let mut claims = 0usize;
    let mut at = 0;
    for m in input.members.iter().map(|m| &m.member_id) {
        if c.owned.is_empty() {
            if keep {
                owned.push(Vec::new());
            }
            continue;
        }
        let pairs = run(&c.owned, &mut at, 2, "owned", m)?;
        claims += pairs.len() / 2;
        if !keep {
            // Only checked: every topic index in the table, in one pass without branches (a
            // negative index is a large `u32`). The loop below names a bad one.
            let (pairs, _) = pairs.as_chunks::<2>();
            let table = c.topics.len() as u64;
            if pairs
                .iter()
                .fold(true, |ok, [t, _]| ok & (u64::from(*t as u32) < table))
            {
                continue;
            }
        }
        let mut mine = Vec::with_capacity(if keep { pairs.len() / 2 } else { 0 });
        for pair in pairs.chunks_exact(2) {
            let t = topic(pair[0], c.topics.len(), "owned", m)?;
            // A claim on a topic without metadata, or past its partitions, cannot be held.
            if keep && let (Some(t), Ok(p)) = (place[t], usize::try_from(pair[1])) {
                mine.push((t, p));
            }
        }
        if keep {
            owned.push(mine);
        }
    }
    if at != c.owned.len() {
        return Err(bad(alloc::format!(
            "owned: {} values left over after the last member",
            c.owned.len() - at
        )));
    }
    if claims > super::MAX_CLAIMS {
        return Err(bad(alloc::format!(
            "{claims} owned partitions claimed in all, more than {}",
            super::MAX_CLAIMS
        )));
    }
    let prepared = finish(
        &input,
        by_id,
        &all,
        subscriptions,
        all_equal,
        keep.then_some(owned),
    );
    let assignment = prepared.assign(strategy)?;
    Ok(output(&prepared, &all, &table_of, assignment))
}

/// The dense assignment in the compact form, topics named by their table index: `all` are the
/// topics with partitions in name order and `table_of` their table indices.
fn output(
    prepared: &Prepared<'_>,
    all: &[(&str, usize)],
    table_of: &[i32],
    mut assignment: super::DenseAssignment,
) -> Vec<i32> {
    // The prepared topics are those of `all` someone subscribes to, in the same order: one walk
    // pairs them.
    let mut rest = all.iter().zip(table_of);
    let index: Vec<i32> = prepared
        .topics
        .iter()
        .map(|t| {
            rest.by_ref()
                .find(|((name, _), _)| name == t)
                .map_or(-1, |(_, &k)| k)
        })
        .collect();
    // Sized once, then written run by run: per member its count, then per run of partitions of
    // one topic (dense order is (topic, partition) order) the pairs.
    let members = prepared.input.members.len();
    let mut out = alloc::vec![0i32; members + 2 * assignment.assigned()];
    let mut w = 0;
    for m in 0..members {
        let gps = assignment.member_mut(m);
        gps.sort_unstable();
        out[w] = gps.len() as i32;
        w += 1;
        for (t, run) in prepared.runs(gps) {
            let base = prepared.offsets[t];
            for (pair, &gp) in out[w..w + 2 * run.len()].chunks_exact_mut(2).zip(run) {
                pair[0] = index[t];
                pair[1] = (gp - base) as i32;
            }
            w += 2 * run.len();
        }
    }
    out
}
