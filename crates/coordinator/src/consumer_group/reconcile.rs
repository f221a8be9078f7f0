//! Reconciliation (`CurrentAssignmentBuilder`, `docs/src/reference/consumer-group-protocol.md#reconciliation`): one step of a member towards its
//! target assignment. A partition moves between members in two steps: its old owner is asked to
//! revoke it (UNREVOKED_PARTITIONS, the member's epoch held back until it reports the partition
//! gone), and only then, once its partition epoch is free, may the new owner get it
//! (UNRELEASED_PARTITIONS until then). So no partition is ever in two members'
//! assigned ∪ pending-revocation sets.

use super::assignor::MemberAssignment;
use super::uuid::Uuid;
use alloc::sync::Arc;

/// The coordinator's view of a member's progress (`MemberState`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "SCREAMING_SNAKE_CASE")
)]
// Declared as ConsumerMemberState: the simulator's `MemberState` is the client's.
#[cfg_attr(
    feature = "schema",
    derive(schemars::JsonSchema),
    schemars(rename = "ConsumerMemberState")
)]
pub enum MemberState {
    /// Its assigned partitions are its target's at its epoch.
    #[default]
    Stable,
    /// It must stop owning `pending_revocation` before it can move on.
    UnrevokedPartitions,
    /// It is at the target epoch, but some target partitions are still owned by others.
    UnreleasedPartitions,
    /// A state from a newer broker: the member is fenced unless it reports owning nothing.
    Unknown,
}

/// What reconciliation reads and writes of a member.
///
/// The partitions are shared: a heartbeat copies its member to build the updated one and
/// compares the two (as Kafka's `ConsumerGroupMember.Builder` and `equals`), and most
/// heartbeats change nothing. Copying and comparing the maps themselves was a tenth of an hour
/// of 100 consumer-protocol consumers in wasm; shared, a copy is a count and equal copies
/// compare by address. (An `Arc`, not an `Rc`: the broker runs the model on its own thread.)
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Progress {
    pub state: MemberState,
    pub member_epoch: i32,
    pub previous_member_epoch: i32,
    pub assigned: Arc<MemberAssignment>,
    pub pending_revocation: Arc<MemberAssignment>,
}

/// The member is in a state this coordinator does not know and still owns partitions (or did
/// not say): FENCED_MEMBER_EPOCH.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fenced;

/// Whether the member may still own any of `pending`: it did not report what it owns (`None`),
/// or it reports one of them.
fn owns_any_of(owned: Option<&MemberAssignment>, pending: &MemberAssignment) -> bool {
    let Some(owned) = owned else { return true };
    owned.iter().any(|(t, ps)| {
        pending
            .get(t)
            .is_some_and(|pending| ps.iter().any(|p| pending.contains(p)))
    })
}

impl Progress {
    fn with_epoch(
        &self,
        state: MemberState,
        epoch: i32,
        assigned: MemberAssignment,
        pending: MemberAssignment,
    ) -> Progress {
        // Partitions that did not change stay shared with the member as it was.
        let share = |was: &Arc<MemberAssignment>, now: MemberAssignment| {
            if **was == now {
                was.clone()
            } else {
                Arc::new(now)
            }
        };
        Progress {
            state,
            // Setting an epoch always records the one before, even when it is the same.
            previous_member_epoch: self.member_epoch,
            member_epoch: epoch,
            assigned: share(&self.assigned, assigned),
            pending_revocation: share(&self.pending_revocation, pending),
        }
    }

    /// The member's next step towards `target` at `target_epoch`. `partition_epoch(t, p)` is
    /// the epoch of the partition's current owner (−1: free); `owned` is what this heartbeat
    /// reported the member owns (`None`: not reported).
    pub fn reconcile(
        &self,
        target_epoch: i32,
        target: &MemberAssignment,
        partition_epoch: impl Fn(&Uuid, i32) -> i32,
        owned: Option<&MemberAssignment>,
    ) -> Result<Progress, Fenced> {
        let next = |epoch_if_revoking: i32| {
            self.next(
                epoch_if_revoking,
                target_epoch,
                target,
                &partition_epoch,
                owned,
            )
        };
        Ok(match self.state {
            MemberState::Stable if self.member_epoch != target_epoch => next(self.member_epoch),
            MemberState::Stable => self.clone(),
            MemberState::UnrevokedPartitions if owns_any_of(owned, &self.pending_revocation) => {
                self.clone()
            }
            // Revoked: one epoch on (even if the target moved further: a second revocation
            // then happens at that epoch).
            MemberState::UnrevokedPartitions => next(self.member_epoch + 1),
            MemberState::UnreleasedPartitions => next(self.member_epoch),
            MemberState::Unknown if owned.is_none_or(|o| !o.is_empty()) => return Err(Fenced),
            MemberState::Unknown => next(target_epoch),
        })
    }

    fn next(
        &self,
        epoch_if_revoking: i32,
        target_epoch: i32,
        target: &MemberAssignment,
        partition_epoch: &impl Fn(&Uuid, i32) -> i32,
        owned: Option<&MemberAssignment>,
    ) -> Progress {
        let mut keep = MemberAssignment::new();
        let mut revoke = MemberAssignment::new();
        let mut add = MemberAssignment::new();
        let mut unreleased = false;
        let topics: alloc::collections::BTreeSet<&Uuid> =
            target.keys().chain(self.assigned.keys()).collect();
        let empty = Default::default();
        for t in topics {
            let wanted = target.get(t).unwrap_or(&empty);
            let had = self.assigned.get(t).unwrap_or(&empty);
            let kept: super::assignor::Partitions = had.intersection(wanted).copied().collect();
            let gone: super::assignor::Partitions = had.difference(&kept).copied().collect();
            let mut new: super::assignor::Partitions = wanted.difference(&kept).copied().collect();
            let before = new.len();
            new.retain(|&p| partition_epoch(t, p) == -1);
            unreleased |= new.len() != before;
            for (set, map) in [(kept, &mut keep), (gone, &mut revoke), (new, &mut add)] {
                if !set.is_empty() {
                    map.insert(*t, set);
                }
            }
        }
        if !revoke.is_empty() && owns_any_of(owned, &revoke) {
            return self.with_epoch(
                MemberState::UnrevokedPartitions,
                epoch_if_revoking,
                keep,
                revoke,
            );
        }
        let state = if unreleased {
            MemberState::UnreleasedPartitions
        } else {
            MemberState::Stable
        };
        for (t, ps) in add {
            keep.entry(t).or_default().extend(ps);
        }
        self.with_epoch(state, target_epoch, keep, MemberAssignment::new())
    }
}
