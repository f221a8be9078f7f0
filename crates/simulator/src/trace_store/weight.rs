//! About how many bytes a request or response kept whole holds: what the trace counts against
//! the memory a run may fill ([`super::Trace::kept_bytes`]).
//!
//! The large bodies are lists: an OffsetCommit of a consumer's partitions (about 40 bytes
//! each, every auto-commit), a JoinGroup response of every member's subscription, a leader's
//! SyncGroup of every member's assignment. An hour of 1,000 consumers on 100,000 partitions keeps
//! some 700,000 commits of 100 partitions: about 3 GB, more than the entries themselves. So the
//! estimate follows the lists (their elements' sizes, the bytes of their metadata and
//! assignments) and counts every string at [`STRING`] bytes; it is an estimate, not an
//! allocator's count: it errs on the large side where a body shares bytes with others.

use core::mem::size_of;
use group_coordinator::protocol::{
    DescribedTopicPartitions, OffsetCommitRequestPartition, OffsetCommitResponsePartition,
    OffsetFetchResponseTopic, TopicIdPartitions,
};
use group_coordinator::{Request, Response};

/// A string's bytes and its allocation, about (ids are some 40 characters).
const STRING: usize = 48;

/// `items`, each with `strings` strings of its own and the `bytes` it holds beyond them.
fn list<T>(items: &[T], strings: usize, bytes: impl Fn(&T) -> usize) -> usize {
    items
        .iter()
        .map(|i| size_of::<T>() + strings * STRING + bytes(i))
        .sum()
}

/// `n` elements of `T`, nothing held beyond them.
fn plain<T>(n: usize) -> usize {
    n * size_of::<T>()
}

fn topic_ids(topics: &[TopicIdPartitions]) -> usize {
    list(topics, 1, |t| plain::<i32>(t.partitions.len()))
}

/// About the bytes `request` holds, its own included.
pub(super) fn request(request: &Request) -> usize {
    size_of::<Request>()
        + STRING * 3
        + match request {
            Request::JoinGroup(r) => list(&r.protocols, 1, |p| p.metadata.len()),
            Request::SyncGroup(r) => list(&r.assignments, 1, |a| a.assignment.len()),
            Request::OffsetCommit(r) => list(&r.topics, 1, |t| {
                plain::<OffsetCommitRequestPartition>(t.partitions.len())
            }),
            Request::LeaveGroup(r) => list(&r.members, 2, |_| 0),
            Request::ConsumerGroupHeartbeat(r) => {
                r.subscribed_topic_names
                    .as_ref()
                    .map_or(0, |n| n.len() * STRING)
                    + r.topic_partitions.as_deref().map_or(0, topic_ids)
            }
            // The rest are a few names each, or are sent only at a reader's request.
            _ => 0,
        }
}

/// About the bytes `response` holds, its own included.
pub(super) fn response(response: &Response) -> usize {
    size_of::<Response>()
        + STRING * 2
        + match response {
            Response::JoinGroup(r) => list(&r.members, 2, |m| m.metadata.len()),
            Response::SyncGroup(r) => r.assignment.len(),
            Response::OffsetCommit(r) => list(&r.topics, 1, |t| {
                plain::<OffsetCommitResponsePartition>(t.partitions.len())
            }),
            Response::OffsetFetch(r) => {
                let topic = |t: &OffsetFetchResponseTopic| list(&t.partitions, 1, |_| 0) + STRING;
                r.topics.iter().map(topic).sum::<usize>()
                    + list(&r.groups, 1, |g| g.topics.iter().map(topic).sum())
            }
            Response::LeaveGroup(r) => list(&r.members, 2, |_| 0),
            Response::ConsumerGroupHeartbeat(r) => r
                .assignment
                .as_ref()
                .map_or(0, |a| topic_ids(&a.topic_partitions)),
            Response::DescribeGroups(r) => list(&r.groups, 3, |g| {
                list(&g.members, 4, |m| {
                    m.member_metadata.len() + m.member_assignment.len()
                })
            }),
            Response::ConsumerGroupDescribe(r) => list(&r.groups, 4, |g| {
                list(&g.members, 6, |m| {
                    m.subscribed_topic_names.len() * STRING
                        + described(&m.assignment.topic_partitions)
                        + described(&m.target_assignment.topic_partitions)
                })
            }),
            _ => 0,
        }
}

fn described(topics: &[DescribedTopicPartitions]) -> usize {
    list(topics, 2, |t| plain::<i32>(t.partitions.len()))
}
