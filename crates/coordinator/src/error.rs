//! Kafka's error codes, with Kafka's names and numbers (`org.apache.kafka.common.protocol.Errors`).

/// The subset of Kafka's `Errors` the group coordinator and its clients meet.
///
/// Unknown numbers received from outside (a hand-written request in the console) are kept as
/// [`ErrorCode::Other`] so nothing is lost in a round trip.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ErrorCode {
    #[default]
    None,
    UnknownServerError,
    InvalidFetchSize,
    UnknownTopicOrPartition,
    NotLeaderOrFollower,
    RequestTimedOut,
    MessageTooLarge,
    OffsetMetadataTooLarge,
    CoordinatorLoadInProgress,
    CoordinatorNotAvailable,
    NotCoordinator,
    RecordListTooLarge,
    NotEnoughReplicas,
    NotEnoughReplicasAfterAppend,
    IllegalGeneration,
    InconsistentGroupProtocol,
    InvalidGroupId,
    UnknownMemberId,
    InvalidSessionTimeout,
    RebalanceInProgress,
    InvalidCommitOffsetSize,
    GroupAuthorizationFailed,
    UnsupportedVersion,
    KafkaStorageError,
    NonEmptyGroup,
    GroupIdNotFound,
    MemberIdRequired,
    GroupMaxSizeReached,
    FencedInstanceId,
    GroupSubscribedToTopic,
    UnstableOffsetCommit,
    InvalidRequest,
    InvalidConfig,
    FencedMemberEpoch,
    UnreleasedInstanceId,
    UnsupportedAssignor,
    StaleMemberEpoch,
    /// A `SubscribedTopicRegex` that RE2/J does not compile (Kafka 4.0).
    InvalidRegularExpression,
    /// A code this model does not name.
    Other(i16),
}

impl ErrorCode {
    /// Every named code, for tables and pickers.
    pub const ALL: [ErrorCode; 38] = [
        ErrorCode::None,
        ErrorCode::UnknownServerError,
        ErrorCode::InvalidFetchSize,
        ErrorCode::UnknownTopicOrPartition,
        ErrorCode::NotLeaderOrFollower,
        ErrorCode::RequestTimedOut,
        ErrorCode::MessageTooLarge,
        ErrorCode::OffsetMetadataTooLarge,
        ErrorCode::CoordinatorLoadInProgress,
        ErrorCode::CoordinatorNotAvailable,
        ErrorCode::NotCoordinator,
        ErrorCode::RecordListTooLarge,
        ErrorCode::NotEnoughReplicas,
        ErrorCode::NotEnoughReplicasAfterAppend,
        ErrorCode::IllegalGeneration,
        ErrorCode::InconsistentGroupProtocol,
        ErrorCode::InvalidGroupId,
        ErrorCode::UnknownMemberId,
        ErrorCode::InvalidSessionTimeout,
        ErrorCode::RebalanceInProgress,
        ErrorCode::InvalidCommitOffsetSize,
        ErrorCode::GroupAuthorizationFailed,
        ErrorCode::UnsupportedVersion,
        ErrorCode::KafkaStorageError,
        ErrorCode::NonEmptyGroup,
        ErrorCode::GroupIdNotFound,
        ErrorCode::MemberIdRequired,
        ErrorCode::GroupMaxSizeReached,
        ErrorCode::FencedInstanceId,
        ErrorCode::GroupSubscribedToTopic,
        ErrorCode::UnstableOffsetCommit,
        ErrorCode::InvalidRequest,
        ErrorCode::InvalidConfig,
        ErrorCode::FencedMemberEpoch,
        ErrorCode::UnreleasedInstanceId,
        ErrorCode::UnsupportedAssignor,
        ErrorCode::StaleMemberEpoch,
        ErrorCode::InvalidRegularExpression,
    ];

    /// Kafka's wire number.
    pub const fn code(self) -> i16 {
        match self {
            ErrorCode::None => 0,
            ErrorCode::UnknownServerError => -1,
            ErrorCode::UnknownTopicOrPartition => 3,
            ErrorCode::InvalidFetchSize => 4,
            ErrorCode::NotLeaderOrFollower => 6,
            ErrorCode::RequestTimedOut => 7,
            ErrorCode::MessageTooLarge => 10,
            ErrorCode::OffsetMetadataTooLarge => 12,
            ErrorCode::CoordinatorLoadInProgress => 14,
            ErrorCode::CoordinatorNotAvailable => 15,
            ErrorCode::NotCoordinator => 16,
            ErrorCode::RecordListTooLarge => 18,
            ErrorCode::NotEnoughReplicas => 19,
            ErrorCode::NotEnoughReplicasAfterAppend => 20,
            ErrorCode::IllegalGeneration => 22,
            ErrorCode::InconsistentGroupProtocol => 23,
            ErrorCode::InvalidGroupId => 24,
            ErrorCode::UnknownMemberId => 25,
            ErrorCode::InvalidSessionTimeout => 26,
            ErrorCode::RebalanceInProgress => 27,
            ErrorCode::InvalidCommitOffsetSize => 28,
            ErrorCode::GroupAuthorizationFailed => 30,
            ErrorCode::UnsupportedVersion => 35,
            ErrorCode::KafkaStorageError => 56,
            ErrorCode::NonEmptyGroup => 68,
            ErrorCode::GroupIdNotFound => 69,
            ErrorCode::MemberIdRequired => 79,
            ErrorCode::GroupMaxSizeReached => 81,
            ErrorCode::FencedInstanceId => 82,
            ErrorCode::GroupSubscribedToTopic => 86,
            ErrorCode::UnstableOffsetCommit => 88,
            ErrorCode::InvalidRequest => 42,
            ErrorCode::InvalidConfig => 40,
            ErrorCode::FencedMemberEpoch => 110,
            ErrorCode::UnreleasedInstanceId => 111,
            ErrorCode::UnsupportedAssignor => 112,
            ErrorCode::StaleMemberEpoch => 113,
            ErrorCode::InvalidRegularExpression => 128,
            ErrorCode::Other(code) => code,
        }
    }

    /// The code for a wire number; numbers this model does not name become [`ErrorCode::Other`].
    pub fn from_code(code: i16) -> ErrorCode {
        ErrorCode::ALL
            .into_iter()
            .find(|e| e.code() == code)
            .unwrap_or(ErrorCode::Other(code))
    }

    /// Kafka's name (`Errors.name()`), e.g. `REBALANCE_IN_PROGRESS`.
    pub const fn name(self) -> &'static str {
        match self {
            ErrorCode::None => "NONE",
            ErrorCode::UnknownServerError => "UNKNOWN_SERVER_ERROR",
            ErrorCode::InvalidFetchSize => "INVALID_FETCH_SIZE",
            ErrorCode::UnknownTopicOrPartition => "UNKNOWN_TOPIC_OR_PARTITION",
            ErrorCode::NotLeaderOrFollower => "NOT_LEADER_OR_FOLLOWER",
            ErrorCode::RequestTimedOut => "REQUEST_TIMED_OUT",
            ErrorCode::MessageTooLarge => "MESSAGE_TOO_LARGE",
            ErrorCode::OffsetMetadataTooLarge => "OFFSET_METADATA_TOO_LARGE",
            ErrorCode::CoordinatorLoadInProgress => "COORDINATOR_LOAD_IN_PROGRESS",
            ErrorCode::CoordinatorNotAvailable => "COORDINATOR_NOT_AVAILABLE",
            ErrorCode::NotCoordinator => "NOT_COORDINATOR",
            ErrorCode::RecordListTooLarge => "RECORD_LIST_TOO_LARGE",
            ErrorCode::NotEnoughReplicas => "NOT_ENOUGH_REPLICAS",
            ErrorCode::NotEnoughReplicasAfterAppend => "NOT_ENOUGH_REPLICAS_AFTER_APPEND",
            ErrorCode::IllegalGeneration => "ILLEGAL_GENERATION",
            ErrorCode::InconsistentGroupProtocol => "INCONSISTENT_GROUP_PROTOCOL",
            ErrorCode::InvalidGroupId => "INVALID_GROUP_ID",
            ErrorCode::UnknownMemberId => "UNKNOWN_MEMBER_ID",
            ErrorCode::InvalidSessionTimeout => "INVALID_SESSION_TIMEOUT",
            ErrorCode::RebalanceInProgress => "REBALANCE_IN_PROGRESS",
            ErrorCode::InvalidCommitOffsetSize => "INVALID_COMMIT_OFFSET_SIZE",
            ErrorCode::GroupAuthorizationFailed => "GROUP_AUTHORIZATION_FAILED",
            ErrorCode::UnsupportedVersion => "UNSUPPORTED_VERSION",
            ErrorCode::KafkaStorageError => "KAFKA_STORAGE_ERROR",
            ErrorCode::NonEmptyGroup => "NON_EMPTY_GROUP",
            ErrorCode::GroupIdNotFound => "GROUP_ID_NOT_FOUND",
            ErrorCode::MemberIdRequired => "MEMBER_ID_REQUIRED",
            ErrorCode::GroupMaxSizeReached => "GROUP_MAX_SIZE_REACHED",
            ErrorCode::FencedInstanceId => "FENCED_INSTANCE_ID",
            ErrorCode::GroupSubscribedToTopic => "GROUP_SUBSCRIBED_TO_TOPIC",
            ErrorCode::UnstableOffsetCommit => "UNSTABLE_OFFSET_COMMIT",
            ErrorCode::InvalidRequest => "INVALID_REQUEST",
            ErrorCode::InvalidConfig => "INVALID_CONFIG",
            ErrorCode::FencedMemberEpoch => "FENCED_MEMBER_EPOCH",
            ErrorCode::UnreleasedInstanceId => "UNRELEASED_INSTANCE_ID",
            ErrorCode::UnsupportedAssignor => "UNSUPPORTED_ASSIGNOR",
            ErrorCode::StaleMemberEpoch => "STALE_MEMBER_EPOCH",
            ErrorCode::InvalidRegularExpression => "INVALID_REGULAR_EXPRESSION",
            ErrorCode::Other(_) => "UNKNOWN",
        }
    }

    /// How a failed group-record write is reported to the client (both coordinators map the
    /// storage layer's errors the same way; `docs/src/reference/classic-protocol.md#persist-errors`).
    pub fn persist_failure_mapping(self) -> ErrorCode {
        match self {
            ErrorCode::UnknownTopicOrPartition
            | ErrorCode::NotEnoughReplicas
            | ErrorCode::NotEnoughReplicasAfterAppend
            | ErrorCode::RequestTimedOut => ErrorCode::CoordinatorNotAvailable,
            ErrorCode::NotLeaderOrFollower | ErrorCode::KafkaStorageError => {
                ErrorCode::NotCoordinator
            }
            ErrorCode::MessageTooLarge
            | ErrorCode::RecordListTooLarge
            | ErrorCode::InvalidFetchSize => ErrorCode::UnknownServerError,
            other => other,
        }
    }
}

impl core::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} ({})", self.name(), self.code())
    }
}

// On the wire (and in Kafka's JSON converters) an error code is its number.
#[cfg(feature = "serde")]
impl serde::Serialize for ErrorCode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i16(self.code())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for ErrorCode {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        i16::deserialize(d).map(ErrorCode::from_code)
    }
}

#[cfg(feature = "schema")]
scalar_schema!(ErrorCode, { "type": "integer", "description": "Kafka's error code; 0 = NONE." });

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_are_unique() {
        for e in ErrorCode::ALL {
            assert_eq!(ErrorCode::from_code(e.code()), e, "{e}");
        }
        assert_eq!(ErrorCode::from_code(1234), ErrorCode::Other(1234));
        assert_eq!(ErrorCode::RebalanceInProgress.code(), 27);
        assert_eq!(ErrorCode::MemberIdRequired.name(), "MEMBER_ID_REQUIRED");
    }

    #[test]
    fn persist_failures_map_as_kafka_does() {
        assert_eq!(
            ErrorCode::RequestTimedOut.persist_failure_mapping(),
            ErrorCode::CoordinatorNotAvailable
        );
        assert_eq!(
            ErrorCode::KafkaStorageError.persist_failure_mapping(),
            ErrorCode::NotCoordinator
        );
        assert_eq!(
            ErrorCode::RecordListTooLarge.persist_failure_mapping(),
            ErrorCode::UnknownServerError
        );
        assert_eq!(
            ErrorCode::InvalidGroupId.persist_failure_mapping(),
            ErrorCode::InvalidGroupId
        );
    }
}
