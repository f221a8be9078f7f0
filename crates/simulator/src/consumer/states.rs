//! The consumer's own state machine, for each protocol: the states a member goes through and
//! every transition the Java client allows. A protocol rule the consumer checks itself by
//! (`poll.rs`); the page draws the same tables through the vocabulary.

use crate::trace::MemberState;

/// The classic client's transitions (`AbstractCoordinator`: join, sync, and back to UNJOINED on
/// a reset).
const CLASSIC_CLIENT: [(MemberState, MemberState); 8] = {
    use MemberState::*;
    [
        (Unjoined, PreparingRebalance),
        (PreparingRebalance, CompletingRebalance),
        (CompletingRebalance, Stable),
        (Stable, PreparingRebalance),
        (CompletingRebalance, PreparingRebalance),
        (PreparingRebalance, Unjoined),
        (CompletingRebalance, Unjoined),
        (Stable, Unjoined),
    ]
};

/// The consumer protocol's client transitions: `MemberState.previousValidStates` of the Java
/// client's new consumer, as (from, to); FATAL is the consumer's `failed` life here.
const CONSUMER_CLIENT: [(MemberState, MemberState); 27] = {
    use MemberState::*;
    [
        (Joining, Stable),
        (Acknowledging, Stable),
        (Reconciling, Stable),
        (Stable, Reconciling),
        (Joining, Reconciling),
        (Acknowledging, Reconciling),
        (Reconciling, Acknowledging),
        (Joining, Fenced),
        (Stable, Fenced),
        (Reconciling, Fenced),
        (Acknowledging, Fenced),
        (PrepareLeaving, Fenced),
        (Leaving, Fenced),
        (Fenced, Joining),
        (Unsubscribed, Joining),
        (Stale, Joining),
        (Joining, PrepareLeaving),
        (Stable, PrepareLeaving),
        (Reconciling, PrepareLeaving),
        (Acknowledging, PrepareLeaving),
        (Unsubscribed, PrepareLeaving),
        (PrepareLeaving, Leaving),
        (PrepareLeaving, Unsubscribed),
        (Leaving, Unsubscribed),
        (Fenced, Unsubscribed),
        (Leaving, Stale),
        (Reconciling, Reconciling),
    ]
};

/// The client's states of one protocol, in the order a member goes through them.
pub fn client_states(consumer_protocol: bool) -> &'static [MemberState] {
    use MemberState::*;
    if consumer_protocol {
        &[
            Unsubscribed,
            Joining,
            Reconciling,
            Acknowledging,
            Stable,
            Fenced,
            PrepareLeaving,
            Leaving,
            Stale,
        ]
    } else {
        &[Unjoined, PreparingRebalance, CompletingRebalance, Stable]
    }
}

/// The client's own state machine, for one protocol: every transition a consumer may make.
pub fn client_transitions(consumer_protocol: bool) -> &'static [(MemberState, MemberState)] {
    if consumer_protocol {
        &CONSUMER_CLIENT[..CONSUMER_CLIENT.len() - 1]
    } else {
        &CLASSIC_CLIENT
    }
}

/// Whether a consumer of that protocol may go from `from` to `to` (the Java client throws
/// IllegalStateException otherwise).
pub fn is_client_transition(consumer_protocol: bool, from: MemberState, to: MemberState) -> bool {
    let table: &[(MemberState, MemberState)] = if consumer_protocol {
        &CONSUMER_CLIENT
    } else {
        &CLASSIC_CLIENT
    };
    table.contains(&(from, to))
}
