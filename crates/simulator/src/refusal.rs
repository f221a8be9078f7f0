//! Why the simulator did not apply an action now: a typed refusal with its fields, not a
//! sentence. The narration tells it in each language (`narration::refusal_text`); the live
//! follower matches on [`Refusal::CoordinatorRefused`] to know that the model refused a real
//! client's request. Its English text (`Display`) is what the trace and an action's error
//! carry, as before it was typed.

use alloc::string::String;
use core::fmt;
use serde::{Serialize, Serializer};

#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// No consumer has that name.
    NoConsumer {
        name: String,
    },
    NotRunning {
        consumer: String,
    },
    ConsumerExists {
        name: String,
    },
    AlreadyClosing {
        consumer: String,
    },
    AlreadyRunning {
        consumer: String,
    },
    AlreadyPaused {
        consumer: String,
    },
    NotPaused {
        consumer: String,
    },
    /// Cutting a cut link, or healing one that is up.
    LinkAlready {
        consumer: String,
        cut: bool,
    },
    InstanceIdInUse {
        instance: String,
    },
    NoTopic {
        topic: String,
    },
    /// Kafka only adds partitions.
    PartitionsOnlyAdded {
        topic: String,
        current: i32,
    },
    TooManyPartitions {
        total: i64,
        max: i64,
    },
    TopicExists {
        topic: String,
    },
    FailoverUnderWay,
    NotAKafkaError {
        error: String,
    },
    /// Deliver or drop: no such message on the link, that way.
    NotInFlight {
        correlation_id: i32,
        response: bool,
    },
    /// Deliver or drop: a connection delivers in order.
    OutOfOrder,
    NotAMessage,
    /// A live input whose time is before the run's.
    BackInTime {
        at_ms: i64,
        now_ms: i64,
    },
    TooManyClients {
        max: usize,
    },
    /// A setting the action carries is not valid (the scenario's own message).
    Setting {
        message: String,
    },
    /// The model's coordinator refused a step the action needs (advance, metadata, unload,
    /// load), with its message.
    Coordinator {
        message: String,
    },
    /// The model's coordinator refused a real client's request (a live run).
    CoordinatorRefused {
        message: String,
    },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Refusal::*;
        match self {
            NoConsumer { name } => write!(f, "no consumer named \"{name}\""),
            NotRunning { consumer } => write!(f, "{consumer} is not running"),
            ConsumerExists { name } => write!(f, "a consumer named \"{name}\" already exists"),
            AlreadyClosing { consumer } => write!(f, "{consumer} is already closing"),
            AlreadyRunning { consumer } => write!(f, "{consumer} is already running"),
            AlreadyPaused { consumer } => write!(f, "{consumer} is already paused"),
            NotPaused { consumer } => write!(f, "{consumer} is not paused"),
            LinkAlready { consumer, cut } => write!(
                f,
                "the link of {consumer} is already {}",
                if *cut { "cut" } else { "up" }
            ),
            InstanceIdInUse { instance } => write!(
                f,
                "group.instance.id \"{instance}\" is used by another consumer"
            ),
            NoTopic { topic } => write!(f, "no topic named \"{topic}\""),
            PartitionsOnlyAdded { topic, current } => write!(
                f,
                "{topic} has {current} partitions: partitions can only be added"
            ),
            TooManyPartitions { total, max } => {
                write!(f, "{total} partitions in all, more than {max}")
            }
            TopicExists { topic } => write!(f, "a topic named \"{topic}\" already exists"),
            FailoverUnderWay => f.write_str("a failover is already under way"),
            NotAKafkaError { error } => write!(f, "\"{error}\" is not a Kafka error name"),
            NotInFlight {
                correlation_id,
                response,
            } => write!(
                f,
                "no {} #{correlation_id} is in flight",
                if *response { "answer to" } else { "request" }
            ),
            OutOfOrder => f.write_str(
                "a connection delivers in order: an earlier message on the same link must arrive first",
            ),
            NotAMessage => f.write_str("not a message"),
            BackInTime { at_ms, now_ms } => write!(
                f,
                "at {at_ms} ms, before the run's time ({now_ms} ms): a live input cannot go back"
            ),
            TooManyClients { max } => write!(f, "more than {max} clients"),
            Setting { message } | Coordinator { message } => f.write_str(message),
            CoordinatorRefused { message } => {
                write!(f, "the coordinator refused a request: {message}")
            }
        }
    }
}

/// In a trace, a refusal is its English text, as it was before it was typed (the golden traces
/// and the run files keep their bytes).
impl Serialize for Refusal {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for Refusal {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> alloc::borrow::Cow<'static, str> {
        "Refusal".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "string" })
    }
}
