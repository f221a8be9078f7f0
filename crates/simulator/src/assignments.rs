//! The assignment table's model: what each consumer got in each generation (what it added and
//! what it revoked), each generation's leader, and which consumer had which member id. Built
//! once as the trace grows and read for any prefix of it, like the timeline's.

use crate::consumer::Life;
use crate::consumer_row::ConsumerRow;
use crate::index::RowWindow;
use crate::simulation::Simulation;
use crate::trace::{Lang, Trace, TraceKind, tps};
use crate::vocabulary;
use alloc::collections::{BTreeMap, BTreeSet};
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;
use group_coordinator::ErrorCode;
use group_coordinator::ordered;
use group_coordinator::protocol::Response;
use serde::Serialize;

#[derive(Clone, Debug)]
struct Taken {
    index: usize,
    generation_id: i32,
    consumer: Rc<str>,
    /// It took other partitions than it took last time (its generation changed who owns
    /// what; an eager consumer that gets back what it revoked moved nothing).
    moved: bool,
    /// A consumer-protocol reconciliation: `generation_id` is a member epoch.
    epoch: bool,
}

/// The table's model for every trace entry indexed so far.
#[derive(Clone, Debug, Default)]
pub struct AssignmentIndex {
    /// Assignments taken (`Assigned` entries), by index.
    taken: Vec<Taken>,
    /// The leader of each generation as its JoinGroup response told it, by index.
    leaders: Vec<(usize, i32, Rc<str>)>,
    /// Member id -> the consumers that used it, with the entry that showed it.
    names: BTreeMap<Rc<str>, Vec<(usize, Rc<str>)>>,
    indexed: usize,
}

/// One generation's column.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct GenerationColumn {
    pub generation_id: i32,
    pub leader: Option<Rc<str>>,
}

/// What a consumer took in one generation (partitions written `topic-0,1 other-2`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Cell {
    pub assigned: String,
    /// How many partitions it took, and how many of them are new to it (what a large group's
    /// table shows instead of the lists).
    pub count: usize,
    pub added: usize,
    pub revoked: String,
    pub revoked_count: usize,
    /// The `Assigned` entry.
    pub index: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(
    feature = "schema",
    derive(schemars::JsonSchema),
    schemars(rename = "AssignmentRow")
)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    pub consumer: Rc<str>,
    /// One per column; `None` where the consumer took nothing in that generation.
    pub cells: Vec<Option<Cell>>,
    /// What it owns now, or its life when it is not running (`None`: it owns nothing).
    pub now: Option<String>,
    pub running: bool,
    /// How many partitions it owns now.
    pub owned_count: usize,
}

/// The table: the last generations as columns, the consumers (those of the world first, then
/// any that took something and left) as rows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct AssignmentTable {
    pub generations: Vec<GenerationColumn>,
    /// The columns are member epochs (a consumer-protocol run, KIP-848), not generations.
    #[serde(skip_serializing_if = "core::ops::Not::not")]
    pub epochs: bool,
    /// The rows (the request's `rows` of them).
    pub rows: Vec<Row>,
    /// How many rows there are in all: a consumer's, and a row for each consumer no longer in
    /// the run that took an assignment.
    pub total_rows: usize,
    /// Generations left out because nothing moved in them (every consumer took what it had
    /// taken before; the last generation is always shown), when they were asked to be left out.
    pub unchanged: Vec<i32>,
}

impl AssignmentIndex {
    /// About the bytes it holds (an assignment taken: one per consumer per rebalance).
    pub(crate) fn bytes(&self) -> usize {
        self.taken.capacity() * core::mem::size_of::<Taken>()
    }

    /// Indexes the trace's entries not indexed yet.
    pub fn catch_up(&mut self, trace: &Trace) {
        if trace.len() <= self.indexed {
            return;
        }
        for e in trace.iter_from(self.indexed) {
            match &e.kind {
                TraceKind::Assigned {
                    consumer,
                    generation_id,
                    assigned,
                    consumer_protocol,
                    ..
                } => {
                    let before = self
                        .taken
                        .iter()
                        .rev()
                        .find(|t| t.consumer == *consumer)
                        .and_then(|t| match trace.get(t.index)?.kind {
                            TraceKind::Assigned { assigned, .. } => Some(assigned),
                            _ => None,
                        });
                    let moved = before.map_or(!assigned.is_empty(), |b| b != *assigned);
                    self.taken.push(Taken {
                        index: e.index,
                        generation_id: *generation_id,
                        consumer: consumer.clone(),
                        moved,
                        epoch: *consumer_protocol,
                    })
                }
                TraceKind::ResponseSent {
                    consumer,
                    error_code: ErrorCode::None,
                    response: Some(response),
                    ..
                } => {
                    if let Response::JoinGroup(r) = &**response {
                        self.name(&r.member_id, e.index, consumer);
                        if r.leader == r.member_id {
                            self.leaders
                                .push((e.index, r.generation_id, consumer.clone()));
                        }
                    }
                }
                TraceKind::RequestSent {
                    consumer,
                    member_id,
                    ..
                } if !member_id.is_empty() => self.name(member_id, e.index, consumer),
                _ => {}
            }
        }
        self.indexed = trace.len();
    }

    fn name(&mut self, member_id: &str, index: usize, consumer: &Rc<str>) {
        let seen = self.names.entry(Rc::from(member_id)).or_default();
        if seen.last().is_none_or(|(_, c)| c != consumer) {
            seen.push((index, consumer.clone()));
        }
    }

    /// Forgets entries from `len` on (a fork dropped them).
    pub fn truncate(&mut self, len: usize) {
        if len >= self.indexed {
            return;
        }
        self.taken
            .truncate(self.taken.partition_point(|t| t.index < len));
        self.taken.shrink_to_fit();
        self.leaders
            .truncate(self.leaders.partition_point(|l| l.0 < len));
        self.names.retain(|_, seen| {
            seen.truncate(seen.partition_point(|s| s.0 < len));
            !seen.is_empty()
        });
        self.indexed = len;
    }

    /// The consumer known by `member_id` within the first `len` entries (the member id itself
    /// when none is).
    pub fn name_of(&self, member_id: &str, len: usize) -> Rc<str> {
        self.names
            .get(member_id)
            .and_then(|seen| seen[..seen.partition_point(|s| s.0 < len)].last())
            .map_or_else(|| Rc::from(member_id), |(_, c)| c.clone())
    }

    /// The table of the run up to now: its last `columns` generations (with `changed_only`, of
    /// those in which something moved), the consumers as they are now, `window`'s rows of it.
    pub fn table(
        &self,
        columns: usize,
        changed_only: bool,
        sim: &Simulation,
        window: Option<RowWindow>,
        lang: Lang,
    ) -> AssignmentTable {
        let consumers = sim.consumers();
        // (The index may hold a known future past the run's now: it is read up to now.)
        let trace = sim.trace();
        let len = trace.len();
        let taken = &self.taken[..self.taken.partition_point(|t| t.index < len)];
        let all = ordered::set(taken.iter().map(|t| t.generation_id));
        let latest = all.last().copied();
        let moved = ordered::set(taken.iter().filter(|t| t.moved).map(|t| t.generation_id));
        let keep = |g: &i32| !changed_only || moved.contains(g) || Some(*g) == latest;
        let unchanged: Vec<i32> = all.iter().filter(|g| !keep(g)).copied().collect();
        let mut shown: Vec<i32> = all
            .iter()
            .rev()
            .filter(|g| keep(g))
            .take(columns)
            .copied()
            .collect();
        shown.reverse();
        // The last assignment a consumer took in each shown generation.
        let mut last: BTreeMap<(i32, &str), usize> = BTreeMap::new();
        let mut names: Vec<Rc<str>> = consumers.iter().map(|c| c.name.clone()).collect();
        let mut named: BTreeSet<Rc<str>> = ordered::set(names.iter().cloned());
        for t in taken {
            if named.insert(t.consumer.clone()) {
                names.push(t.consumer.clone());
            }
            if shown.binary_search(&t.generation_id).is_ok() {
                last.insert((t.generation_id, &t.consumer), t.index);
            }
        }
        let leaders = &self.leaders[..self.leaders.partition_point(|l| l.0 < len)];
        let generations = shown
            .iter()
            .map(|&g| GenerationColumn {
                generation_id: g,
                leader: leaders.iter().rev().find(|l| l.1 == g).map(|l| l.2.clone()),
            })
            .collect();
        let total_rows = names.len();
        let rows = RowWindow::of(window, &names)
            .iter()
            .cloned()
            .map(|name| {
                let cells = shown
                    .iter()
                    .map(|&g| {
                        let index = *last.get(&(g, &*name))?;
                        match &trace.get(index)?.kind {
                            TraceKind::Assigned {
                                assigned,
                                added,
                                revoked,
                                ..
                            } => Some(Cell {
                                assigned: tps(assigned),
                                count: assigned.len(),
                                added: added.len(),
                                revoked: tps(revoked),
                                revoked_count: revoked.len(),
                                index,
                            }),
                            _ => None,
                        }
                    })
                    .collect();
                let c = consumers
                    .iter()
                    .find(|c| *c.name == *name)
                    .map(|c| ConsumerRow::of(sim, c));
                let running = c.as_ref().is_some_and(|c| c.life == Life::Running);
                let now = c.as_ref().and_then(|c| {
                    if !running {
                        return Some(String::from(vocabulary::life(c.life).pick(lang)));
                    }
                    (!c.owned.is_empty()).then(|| c.owned.clone())
                });
                Row {
                    consumer: name,
                    cells,
                    now,
                    running,
                    owned_count: c.map_or(0, |c| c.owned_count),
                }
            })
            .collect();
        AssignmentTable {
            epochs: taken.iter().any(|t| t.epoch),
            generations,
            rows,
            total_rows,
            unchanged,
        }
    }
}
