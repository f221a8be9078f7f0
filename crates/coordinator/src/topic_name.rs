//! Kafka's rules for a topic's name (`org.apache.kafka.common.internals.Topic`): what
//! CreateTopics accepts, with Kafka's messages. The coordinator's metadata image takes any name
//! (a scenario's topics are only names, so that runs with hostile names can be written and
//! replayed); the simulator's createTopic action and the broker's CreateTopics check these.

use alloc::format;
use alloc::string::String;

use crate::quote::QUOTE_MAX;

/// The longest legal name (`Topic.MAX_NAME_LENGTH`).
pub const MAX_NAME_LENGTH: usize = 249;

/// `Topic.validate`: not empty, not `.` or `..`, at most 249 characters, and only ASCII
/// alphanumerics, `.`, `_` and `-`. The messages are Kafka's, the name quoted to 100 characters.
pub fn validate(topic: &str) -> Result<(), String> {
    if topic.is_empty() {
        return Err(String::from("Topic name is illegal, it can't be empty"));
    }
    if topic == "." || topic == ".." {
        return Err(String::from("Topic name cannot be \".\" or \"..\""));
    }
    if topic.len() > MAX_NAME_LENGTH {
        return Err(format!(
            "Topic name is illegal, it can't be longer than {MAX_NAME_LENGTH} characters, topic name: {}",
            clipped(topic)
        ));
    }
    if !topic
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
    {
        return Err(format!(
            "Topic name \"{}\" is illegal, it contains a character other than ASCII alphanumerics, '.', '_' and '-'",
            clipped(topic)
        ));
    }
    Ok(())
}

/// `Topic.hasCollision`: two names that differ only where one has `.` and the other `_` collide
/// (metrics replace `.` with `_`), and Kafka refuses to create the second.
pub fn collides(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .all(|(x, y)| x == y || matches!((x, y), (b'.', b'_') | (b'_', b'.')))
}

/// At most [`QUOTE_MAX`] characters of a name, `…` after a longer one.
fn clipped(topic: &str) -> String {
    let mut chars = topic.chars();
    let mut out: String = chars.by_ref().take(QUOTE_MAX).collect();
    if chars.next().is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    // Kafka's TopicTest.shouldAcceptValidTopicNames / shouldThrowOnInvalidTopicNames.
    #[test]
    fn names_as_kafka_validates_them() {
        for ok in [
            "valid",
            "TOPIC",
            "nAmEs",
            "ar6",
            "VaL1d",
            "_0-9_.",
            "...",
            "a".repeat(249).as_str(),
        ] {
            assert_eq!(validate(ok), Ok(()), "{ok}");
        }
        for bad in [
            "",
            "foo:bar",
            "foo=bar",
            ".",
            "..",
            "\u{e9}",
            "a b",
            &"a".repeat(250),
        ] {
            assert!(validate(bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            validate("bad name!").unwrap_err(),
            "Topic name \"bad name!\" is illegal, it contains a character other than ASCII alphanumerics, '.', '_' and '-'"
        );
        let long = format!("{}!", "y".repeat(200));
        assert!(
            validate(&long)
                .unwrap_err()
                .contains(&format!("\"{}…\"", "y".repeat(100)))
        );
    }

    // Kafka's TopicTest.shouldRecognizeCollisions.
    #[test]
    fn dots_and_underscores_collide() {
        assert!(collides("a.b_c", "a_b.c"));
        assert!(collides("a.b", "a.b"));
        assert!(!collides("a.b", "a.bc"));
        assert!(!collides("a-b", "a_b"));
    }
}
