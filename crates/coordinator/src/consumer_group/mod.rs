//! The consumer group protocol of KIP-848 (Kafka 4.0): one RPC, `ConsumerGroupHeartbeat`; the
//! broker computes the target assignment with a server-side assignor, and every member moves
//! towards it on its own (`docs/src/reference/consumer-group-protocol.md`).

pub mod assignor;
mod classic_member;
pub(crate) use classic_member::cancel_timers;
mod describe;
mod expiration;
mod failover;
pub mod group;
mod groups;
pub mod heartbeat;
mod partition_epochs;
pub mod partitions;
pub mod reconcile;
mod regex;
pub mod uuid;
pub mod view;

pub use group::{
    ClassicMemberMetadata, ConsumerGroup, ConsumerGroupMember, ConsumerGroupState,
    ResolvedRegularExpression, SubscriptionCount, TopicImage,
};
pub use groups::ConsumerGroups;
pub use regex::REGEX_BATCH_REFRESH_INTERVAL_MS;
pub use uuid::Uuid;
pub use view::{ConsumerGroupView, ConsumerMemberView, TopicPartitionsView};
