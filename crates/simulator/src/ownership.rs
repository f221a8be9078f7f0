//! Who owned which partition, and when: one segment per stretch a consumer held a partition,
//! read from the trace (assignments taken, partitions revoked or lost, crashes). What the
//! ownership-over-time view draws; two segments overlapping is a zombie still holding what
//! another consumer got.

use crate::trace::{Lifecycle, Tp, Trace, TraceKind};
use alloc::collections::{BTreeMap, BTreeSet};
use alloc::rc::Rc;
use alloc::vec::Vec;
use serde::Serialize;

/// A consumer held the partition from `from` until `to` (`None`: it still does).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Segment {
    pub owner: Rc<str>,
    pub from: i64,
    pub to: Option<i64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PartitionOwnership {
    pub topic: Rc<str>,
    pub partition: i32,
    /// In the order they began.
    pub segments: Vec<Segment>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Ownership {
    /// Partitions ever owned, by topic then partition.
    pub partitions: Vec<PartitionOwnership>,
    /// Consumers in the order they first owned something (the view's colours).
    pub owners: Vec<Rc<str>>,
}

/// The ownership segments of the whole trace.
pub fn ownership(trace: &Trace) -> Ownership {
    let mut b = Builder::default();
    for e in trace.iter() {
        match &e.kind {
            TraceKind::Assigned {
                consumer,
                assigned,
                revoked,
                ..
            } => {
                for tp in revoked.iter() {
                    b.release(consumer, tp, e.at_ms);
                }
                for tp in assigned.iter() {
                    b.acquire(consumer, tp, e.at_ms);
                }
            }
            TraceKind::Revoked {
                consumer,
                partitions,
                ..
            } => {
                for tp in partitions.iter() {
                    b.release(consumer, tp, e.at_ms);
                }
            }
            TraceKind::Lifecycle {
                consumer,
                what: Lifecycle::Crashed,
            } => {
                let held: Vec<Tp> = b
                    .held
                    .get(consumer)
                    .into_iter()
                    .flatten()
                    .cloned()
                    .collect();
                for tp in &held {
                    b.release(consumer, tp, e.at_ms);
                }
            }
            _ => {}
        }
    }
    Ownership {
        partitions: b
            .partitions
            .into_iter()
            .map(|((topic, partition), segments)| PartitionOwnership {
                topic,
                partition,
                segments,
            })
            .collect(),
        owners: b.owners,
    }
}

#[derive(Default)]
struct Builder {
    partitions: BTreeMap<Tp, Vec<Segment>>,
    owners: Vec<Rc<str>>,
    held: BTreeMap<Rc<str>, BTreeSet<Tp>>,
}

impl Builder {
    fn acquire(&mut self, owner: &Rc<str>, tp: &Tp, at: i64) {
        if !self.owners.contains(owner) {
            self.owners.push(owner.clone());
        }
        if self
            .held
            .entry(owner.clone())
            .or_default()
            .insert(tp.clone())
        {
            self.partitions
                .entry(tp.clone())
                .or_default()
                .push(Segment {
                    owner: owner.clone(),
                    from: at,
                    to: None,
                });
        }
    }

    fn release(&mut self, owner: &Rc<str>, tp: &Tp, at: i64) {
        if let Some(held) = self.held.get_mut(owner) {
            held.remove(tp);
        }
        if let Some(open) = self
            .partitions
            .get_mut(tp)
            .and_then(|s| s.iter_mut().find(|s| &s.owner == owner && s.to.is_none()))
        {
            open.to = Some(at);
        }
    }
}
