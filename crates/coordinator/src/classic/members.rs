//! A classic group's member records: listed in the order they were added, found by id.
//!
//! Kafka keeps them in a hash map; the model lists them in the order they joined (the
//! canonical order, `docs/src/reference/classic-protocol.md#determinism`), and finds one by
//! its id's hash ([`HashedMap`]) at every Heartbeat, OffsetCommit, JoinGroup and SyncGroup.
//! The records sit in one vector in that order, and the hash gives a record's place in it. An
//! ordered map from each member's place to its record, before, went down a B-tree for every
//! lookup, after the hash (measured: an hour of 1,000 classic consumers in wasm, see
//! `bench/README.md`). A member that leaves leaves a hole; the holes are closed up (the places
//! renumbered, in the same order) once they outnumber the members.

use super::member::ClassicGroupMember;
use crate::hashed::{ByBytes, HashedMap};
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

#[derive(Clone, Default)]
pub(crate) struct Members {
    /// The records in the order they were added; `None` where a member left.
    records: Vec<Option<ClassicGroupMember>>,
    /// Each member's place in `records`, by id.
    places: HashedMap<String, u32>,
    len: usize,
}

// The members in order: the holes are not part of what the group is.
impl fmt::Debug for Members {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Members {
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn contains(&self, member_id: &str) -> bool {
        self.places.contains_key(&ByBytes(member_id))
    }

    pub(crate) fn get(&self, member_id: &str) -> Option<&ClassicGroupMember> {
        let &place = self.places.get(&ByBytes(member_id))?;
        self.records.get(place as usize)?.as_ref()
    }

    pub(crate) fn get_mut(&mut self, member_id: &str) -> Option<&mut ClassicGroupMember> {
        let &place = self.places.get(&ByBytes(member_id))?;
        self.records.get_mut(place as usize)?.as_mut()
    }

    /// In the order they were added. The iterator knows how many there are, so a list made
    /// from it is allocated once at its size (walking past the holes, it could not tell: the
    /// JoinGroup answers and the group record of 300 members grew through nine reallocations).
    pub(crate) fn iter(&self) -> impl ExactSizeIterator<Item = &ClassicGroupMember> {
        Counted {
            inner: self.records.iter().flatten(),
            left: self.len,
        }
    }

    pub(crate) fn iter_mut(&mut self) -> impl ExactSizeIterator<Item = &mut ClassicGroupMember> {
        Counted {
            inner: self.records.iter_mut().flatten(),
            left: self.len,
        }
    }

    /// Adds `member` at the end of the order (its id is not a member's: the callers check).
    pub(crate) fn push(&mut self, member: ClassicGroupMember) {
        let place = self.records.len() as u32;
        self.places.insert(member.member_id.clone(), place);
        self.records.push(Some(member));
        self.len += 1;
    }

    pub(crate) fn remove(&mut self, member_id: &str) -> Option<ClassicGroupMember> {
        let place = self.places.remove(&ByBytes(member_id))?;
        let member = self.records.get_mut(place as usize)?.take()?;
        self.len -= 1;
        if self.records.len() > 2 * self.len + 16 {
            self.close_up();
        }
        Some(member)
    }

    /// Drops the holes and renumbers the places, the order unchanged.
    fn close_up(&mut self) {
        self.records.retain(Option::is_some);
        for (place, member) in self.records.iter().flatten().enumerate() {
            if let Some(p) = self.places.get_mut(&ByBytes(&member.member_id)) {
                *p = place as u32;
            }
        }
    }
}

/// The records past the holes, with their number known ([`Members::len`]).
struct Counted<I> {
    inner: I,
    left: usize,
}

impl<I: Iterator> Iterator for Counted<I> {
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        let item = self.inner.next()?;
        self.left = self.left.saturating_sub(1);
        Some(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl<I: Iterator> ExactSizeIterator for Counted<I> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use alloc::format;

    fn member(id: &str) -> ClassicGroupMember {
        ClassicGroupMember::converted(id, None, "client", 300_000, 45_000, Vec::new())
    }

    /// Random additions and removals (long runs of leaving members, so the holes are closed
    /// up many times) against a list in order: the same members, in the same order, each
    /// found by its id, and no other id found.
    #[test]
    fn agrees_with_a_list_in_order() {
        let mut rng = Rng::new(11);
        let mut members = Members::default();
        let mut model: Vec<String> = Vec::new();
        let mut next = 0;
        for step in 0..20_000 {
            let leaving_phase = step / 1_000 % 2 == 1;
            if model.is_empty() || rng.upto(9) >= if leaving_phase { 8 } else { 4 } {
                let id = format!("consumer-{next}-0f3a");
                next += 1;
                members.push(member(&id));
                model.push(id);
            } else {
                let gone = model.remove(rng.upto(model.len() as i64 - 1) as usize);
                assert_eq!(
                    members.remove(&gone).map(|m| m.member_id),
                    Some(gone.clone())
                );
                assert!(members.get(&gone).is_none() && members.remove(&gone).is_none());
            }
            assert_eq!(members.len(), model.len());
            assert!(members.records.len() <= 2 * members.len() + 16);
            if step % 97 == 0 {
                let listed: Vec<&str> = members.iter().map(|m| &*m.member_id).collect();
                assert_eq!(listed, model);
                // The walk past the holes knows its length, at every point of it.
                let mut walk = members.iter_mut();
                for left in (0..=model.len()).rev() {
                    assert_eq!(walk.len(), left);
                    walk.next();
                }
                drop(walk);
                for id in &model {
                    assert_eq!(members.get(id).map(|m| &*m.member_id), Some(&**id));
                    assert!(members.contains(id));
                }
                assert!(!members.contains("consumer-x"));
            }
        }
    }
}
