//! The sticky family's constrained builder: every member subscribes to the same topics.

use super::{Built, Claims, Dense, Racks};
use crate::assignor::AssignError;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
/// The constrained builder (`docs/src/reference/assignors.md#sticky-constrained`, KAFKA-9987/12464/16277).
pub(super) fn constrained(d: &Dense, claims: &Claims, racks: &Racks) -> Result<Built, AssignError> {
    let m = d.members.len();
    let total = d.total;
    let min_quota = total / m;
    let max_quota = total.div_ceil(m);
    let expected_over = total % m;
    let mut current_over = 0;
    // Every member ends with min or max quota: one allocation each.
    let mut assignment: Vec<Vec<usize>> = (0..m).map(|_| Vec::with_capacity(max_quota)).collect();
    let mut assigned = vec![false; total];
    // Partitions a member owned but does not keep -> that member (Kafka's maybeRevokedPartitions).
    let mut revoked: Vec<usize> = vec![usize::MAX; total];
    let mut under_min: Vec<usize> = Vec::new();
    let mut at_min: Vec<usize> = Vec::new();
    // One buffer each for every member's kept claims, in turn (not two new lists per member at
    // every rebalance).
    let mut own: Vec<usize> = Vec::new();
    let mut keyed: Vec<(i32, usize, usize)> = Vec::new();
    for (i, owned) in claims.owned.iter().enumerate() {
        own.clear();
        for &gp in owned {
            if racks.mismatch(i, gp) {
                revoked[gp] = i;
            } else if !claims.multiple_owners.contains(&gp) {
                own.push(gp);
            }
        }
        // By partition number, then topic (KAFKA-16277: spread topics evenly); topic indices
        // follow name order.
        keyed.clear();
        keyed.extend(own.iter().map(|&gp| {
            let (t, p) = d.partition_of(gp);
            (p, t, gp)
        }));
        keyed.sort_unstable();
        own.clear();
        own.extend(keyed.iter().map(|&(_, _, gp)| gp));
        let keep = if own.len() < min_quota {
            under_min.push(i);
            own.len()
        } else if own.len() >= max_quota && current_over < expected_over {
            current_over += 1;
            if current_over == expected_over {
                at_min.clear();
            }
            max_quota
        } else {
            if current_over < expected_over {
                at_min.push(i);
            }
            min_quota
        };
        for &gp in &own[..keep] {
            assignment[i].push(gp);
            assigned[gp] = true;
        }
        for &gp in &own[keep..] {
            revoked[gp] = i;
        }
    }
    // Members are already in id order (dense order), so the sorts of Kafka are no-ops here.
    // `under_min` is walked by a cursor that restarts from the front (Kafka's LinkedList
    // iterator); removals are marked and compacted on restart, so each is O(1).
    let mut transferring: BTreeMap<usize, usize> = BTreeMap::new();
    let mut at_min: alloc::collections::VecDeque<usize> = at_min.into();
    let mut cursor = 0;
    let transfers = |gp: usize, member: usize| {
        (revoked[gp] != usize::MAX && revoked[gp] != member) || claims.multiple_owners.contains(&gp)
    };
    let mut unassigned: Vec<usize> = (0..total).filter(|&gp| !assigned[gp]).collect();
    if racks.in_use() {
        // Partitions with the fewest members on their racks first (stable).
        unassigned.sort_by_key(|&gp| racks.consumers_on_racks[gp]);
        let mut left = Vec::with_capacity(unassigned.len());
        let mut next = 0;
        for &gp in &unassigned {
            let mut member = None;
            if let Some(index) = racks.next_rack_consumer(gp, &under_min, next) {
                let m = under_min[index];
                let count = assignment[m].len() + 1;
                let mut next_index = index;
                if count >= min_quota {
                    under_min.remove(index);
                    if count < max_quota && current_over < expected_over {
                        at_min.push_back(m);
                    }
                } else {
                    next_index += 1;
                }
                next = if under_min.is_empty() {
                    0
                } else {
                    next_index % under_min.len()
                };
                member = Some(m);
            } else if !at_min.is_empty() {
                let list: Vec<usize> = at_min.iter().copied().collect();
                if let Some(index) = racks.next_rack_consumer(gp, &list, 0) {
                    let m = list[index];
                    if assignment[m].len() + 1 == max_quota {
                        at_min.remove(index);
                        current_over += 1;
                        if current_over == expected_over {
                            at_min.clear();
                        }
                    }
                    member = Some(m);
                }
            }
            match member {
                Some(m) => {
                    assignment[m].push(gp);
                    if transfers(gp, m) {
                        transferring.insert(gp, m);
                    }
                }
                None => left.push(gp),
            }
        }
        unassigned = left;
    }
    let mut alive = vec![true; under_min.len()];
    let mut alive_count = under_min.len();
    for (index, &gp) in unassigned.iter().enumerate() {
        while cursor < under_min.len() && !alive[cursor] {
            cursor += 1;
        }
        let (member, from_under) = if cursor < under_min.len() {
            cursor += 1;
            (under_min[cursor - 1], Some(cursor - 1))
        } else if alive_count == 0 && at_min.is_empty() {
            return Err(AssignError(format!(
                "no more unfilled consumers to assign partition {index} of {}",
                unassigned.len()
            )));
        } else if alive_count == 0 {
            let member = at_min
                .pop_front()
                .ok_or_else(|| AssignError(String::from("no unfilled consumer")))?;
            (member, None)
        } else {
            let mut k = 0;
            under_min.retain(|_| {
                k += 1;
                alive[k - 1]
            });
            alive = vec![true; under_min.len()];
            cursor = 1;
            (under_min[0], Some(0))
        };
        assignment[member].push(gp);
        if transfers(gp, member) {
            transferring.insert(gp, member);
        }
        let count = assignment[member].len();
        if count == min_quota {
            if let Some(slot) = from_under {
                alive[slot] = false;
                alive_count -= 1;
            }
            at_min.push_back(member);
        } else if count == max_quota {
            current_over += 1;
        }
    }
    let mut k = 0;
    under_min.retain(|_| {
        k += 1;
        alive[k - 1]
    });
    if !under_min.is_empty() {
        if current_over != expected_over {
            return Err(AssignError(format!(
                "{} members remain under the minimum quota {min_quota}, and {current_over} of {expected_over} are over it",
                under_min.len()
            )));
        }
        if let Some(&bad) = under_min
            .iter()
            .find(|&&i| assignment[i].len() != min_quota)
        {
            return Err(AssignError(format!(
                "member {bad} has {} partitions, not the minimum quota {min_quota}",
                assignment[bad].len()
            )));
        }
    }
    Ok(Built {
        assignment,
        transferring: Some(transferring),
        java_throws: None,
    })
}
