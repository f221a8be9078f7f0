//! The five states of a classic group and the transition table (`docs/src/reference/classic-protocol.md#states`).

/// Kafka's `ClassicGroupState`, named as DescribeGroups names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum GroupState {
    /// No members; offsets may remain. A new group starts here.
    Empty,
    /// Members (re)join; JoinGroup responses are parked until the join phase completes.
    PreparingRebalance,
    /// The new generation is out; waiting for the leader's SyncGroup (older name: AwaitingSync).
    CompletingRebalance,
    /// Everyone has its assignment; heartbeats keep the members alive.
    Stable,
    /// The group is gone from this coordinator (deleted or unloaded).
    Dead,
}

impl GroupState {
    pub const ALL: [GroupState; 5] = [
        GroupState::Empty,
        GroupState::PreparingRebalance,
        GroupState::CompletingRebalance,
        GroupState::Stable,
        GroupState::Dead,
    ];

    /// The name DescribeGroups and ListGroups use.
    pub const fn name(self) -> &'static str {
        match self {
            GroupState::Empty => "Empty",
            GroupState::PreparingRebalance => "PreparingRebalance",
            GroupState::CompletingRebalance => "CompletingRebalance",
            GroupState::Stable => "Stable",
            GroupState::Dead => "Dead",
        }
    }

    /// The states a group may be in just before entering `self` (Kafka's `validPreviousStates`).
    pub const fn valid_previous_states(self) -> &'static [GroupState] {
        use GroupState::*;
        match self {
            Empty => &[PreparingRebalance],
            PreparingRebalance => &[Empty, Stable, CompletingRebalance],
            CompletingRebalance => &[PreparingRebalance],
            Stable => &[CompletingRebalance],
            Dead => &[Empty, PreparingRebalance, CompletingRebalance, Stable, Dead],
        }
    }

    /// Whether `from -> to` is in the transition table.
    pub fn can_transition(from: GroupState, to: GroupState) -> bool {
        to.valid_previous_states().contains(&from)
    }

    /// `canRebalance`: the valid predecessors of PreparingRebalance.
    pub fn can_rebalance(self) -> bool {
        GroupState::can_transition(self, GroupState::PreparingRebalance)
    }
}

impl core::fmt::Display for GroupState {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}
