//! What the views share: the indexes the player keeps over its trace (so a frame reads only
//! what it draws), a window of a table's rows, and how a view names a member.

use crate::assignments::AssignmentIndex;
use crate::timeline::TimelineIndex;
use crate::trace::{Trace, TraceKind};
use alloc::string::String;
use alloc::vec::Vec;
use group_coordinator::event::EventKind;
use serde::Deserialize;

/// Rows `from` (0-based) to `from + count` of a table.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RowWindow {
    pub from: usize,
    pub count: usize,
}

impl RowWindow {
    /// The rows of `all` in the window (all of them without one).
    pub fn of<T>(window: Option<RowWindow>, all: &[T]) -> &[T] {
        match window {
            Some(w) => {
                let from = w.from.min(all.len());
                &all[from..from.saturating_add(w.count).min(all.len())]
            }
            None => all,
        }
    }
}

/// The views' indexes over the trace: the timeline's, the assignment table's, and where the
/// scenario's notes are.
#[derive(Clone, Debug, Default)]
pub struct ViewIndex {
    pub timeline: TimelineIndex,
    pub assignments: AssignmentIndex,
    notes: Vec<usize>,
    /// Where a consumer group's state changed.
    pub(crate) consumer_transitions: Vec<usize>,
    indexed: usize,
}

impl ViewIndex {
    /// About the bytes the indexes hold.
    pub fn bytes(&self) -> usize {
        self.timeline.bytes()
            + self.assignments.bytes()
            + (self.notes.capacity() + self.consumer_transitions.capacity())
                * core::mem::size_of::<usize>()
    }

    /// Indexes the trace's entries not indexed yet.
    pub fn catch_up(&mut self, trace: &Trace) {
        self.timeline.catch_up(trace);
        self.assignments.catch_up(trace);
        if trace.len() > self.indexed {
            for e in trace.iter_from(self.indexed) {
                match &e.kind {
                    TraceKind::Narration { .. } => self.notes.push(e.index),
                    TraceKind::Coordinator {
                        event: EventKind::ConsumerGroupStateChanged { .. },
                    } => self.consumer_transitions.push(e.index),
                    _ => {}
                }
            }
            self.indexed = trace.len();
        }
    }

    /// Forgets entries from `len` on (a fork dropped them).
    pub fn truncate(&mut self, len: usize) {
        self.timeline.truncate(len);
        self.assignments.truncate(len);
        self.notes
            .truncate(self.notes.partition_point(|&i| i < len));
        self.consumer_transitions
            .truncate(self.consumer_transitions.partition_point(|&i| i < len));
        self.indexed = self.indexed.min(len);
    }

    /// The last note within the first `len` entries.
    pub(crate) fn note(&self, len: usize) -> Option<usize> {
        self.notes[..self.notes.partition_point(|&i| i < len)]
            .last()
            .copied()
    }
}

/// The client id of member `id` among `members` (member id, client id), or the id itself when it
/// is not among them: how the views name a member (classic or consumer group alike).
pub(crate) fn client_of<'a>(
    mut members: impl Iterator<Item = (&'a str, &'a str)>,
    id: &str,
) -> String {
    members
        .find(|(member, _)| *member == id)
        .map_or_else(|| String::from(id), |(_, client)| String::from(client))
}
