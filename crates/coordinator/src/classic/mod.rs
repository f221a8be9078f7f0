//! The classic group protocol: the group state machine and the request handlers
//! (`docs/src/reference/classic-protocol.md`), driven by [`crate::Coordinator`].

mod group;
pub(crate) mod heartbeat;
mod invariants;
pub(crate) mod join_group;
pub(crate) mod leave_group;
mod member;
mod members;
pub(crate) mod rebalance;
mod record;
mod state;
pub(crate) mod sync_group;
mod view;

pub use group::ClassicGroup;
pub use member::ClassicGroupMember;
pub use record::{GroupRecord, GroupRecordMember};
pub use state::GroupState;
pub use view::{GroupView, MemberView};

pub(crate) use group::JoinTimer;
