//! The consumer protocol's byte formats, byte-exact with Kafka (`ConsumerProtocolSubscription`
//! and `ConsumerProtocolAssignment`, versions 0–3, classic non-flexible encoding: big-endian,
//! INT16-length strings, INT32-count arrays, INT32-length nullable bytes), and the user data of
//! the sticky assignors (`StickyAssignor` v0/v1 struct, `CooperativeStickyAssignor` INT32).
//!
//! Decoding untrusted bytes never panics: errors say what was being read and at which byte.

use crate::protocol::Bytes;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use group_coordinator_json::json;

/// The protocol type of consumers in JoinGroup (`ConsumerProtocol.PROTOCOL_TYPE`).
pub const PROTOCOL_TYPE: &str = "consumer";

/// Partitions of one topic (`TopicPartition` lists grouped by topic, in Kafka's field order).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase", deny_unknown_fields)
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TopicPartitions {
    /// Shared: an assignment names each topic once per member, so the name is reference-counted
    /// instead of copied.
    pub topic: alloc::sync::Arc<str>,
    pub partitions: Vec<i32>,
}

/// `ConsumerProtocolSubscription`: what a consumer puts in its JoinGroup protocol metadata.
#[derive(Clone, Debug, PartialEq, Eq)]
#[json(in_out)]
pub struct Subscription {
    /// 0–3. v1 adds `ownedPartitions`, v2 `generationId`, v3 `rackId`.
    pub version: i16,
    #[cfg_attr(feature = "schema", schemars(extend("tsRequired" = true)))]
    pub topics: Vec<String>,
    pub user_data: Option<Bytes>,
    pub owned_partitions: Vec<TopicPartitions>,
    /// -1 when absent.
    pub generation_id: i32,
    pub rack_id: Option<String>,
}

impl Default for Subscription {
    fn default() -> Self {
        Subscription {
            version: 3,
            topics: Vec::new(),
            user_data: None,
            owned_partitions: Vec::new(),
            generation_id: -1,
            rack_id: None,
        }
    }
}

/// `ConsumerProtocolAssignment`: what the leader sends each member in SyncGroup.
#[derive(Clone, Debug, PartialEq, Eq)]
#[json(in_out)]
#[cfg_attr(feature = "schema", schemars(rename = "ConsumerAssignment"))]
pub struct Assignment {
    /// 0–3 (the fields are the same in every version).
    pub version: i16,
    #[cfg_attr(feature = "schema", schemars(extend("tsRequired" = true)))]
    pub assigned_partitions: Vec<TopicPartitions>,
    pub user_data: Option<Bytes>,
}

impl Default for Assignment {
    fn default() -> Self {
        Assignment {
            version: 3,
            assigned_partitions: Vec::new(),
            user_data: None,
        }
    }
}

/// Why bytes could not be decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// Byte offset where decoding failed.
    pub offset: usize,
    pub message: String,
}

impl core::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} (at byte {})", self.message, self.offset)
    }
}

/// The highest version this crate writes and reads; newer versions are read as this one
/// (their extra fields are appended and ignored), as Kafka's `ConsumerProtocol` does.
pub const HIGHEST_SUPPORTED_VERSION: i16 = 3;

// ---- writing --------------------------------------------------------------------------------

/// Writes a message into a buffer sized for it first ([`Writer::sized`]): grown from empty, a
/// member's subscription took five allocations and copies, and the leader writes a thousand
/// assignments at each rebalance of a thousand members.
struct Writer(Vec<u8>);

/// The bytes [`Writer::string`] writes for `s`.
fn string_len(s: &str) -> usize {
    2 + s.len()
}

/// The bytes [`Writer::nullable_bytes`] writes for `b`.
fn nullable_bytes_len(b: Option<&Bytes>) -> usize {
    4 + b.map_or(0, Bytes::len)
}

/// The bytes [`Writer::topic_partitions`] writes for `list`.
fn topic_partitions_len(list: &[TopicPartitions]) -> usize {
    4 + list
        .iter()
        .map(|tp| string_len(&tp.topic) + 4 + 4 * tp.partitions.len())
        .sum::<usize>()
}

impl Writer {
    fn sized(len: usize) -> Writer {
        Writer(Vec::with_capacity(len))
    }
    fn i16(&mut self, v: i16) {
        self.0.extend_from_slice(&v.to_be_bytes());
    }
    fn i32(&mut self, v: i32) {
        self.0.extend_from_slice(&v.to_be_bytes());
    }
    fn len(&mut self, n: usize) {
        self.i32(i32::try_from(n).unwrap_or(i32::MAX));
    }
    fn string(&mut self, s: &str) {
        self.i16(i16::try_from(s.len()).unwrap_or(i16::MAX));
        self.0.extend_from_slice(s.as_bytes());
    }
    fn nullable_string(&mut self, s: Option<&str>) {
        match s {
            Some(s) => self.string(s),
            None => self.i16(-1),
        }
    }
    fn nullable_bytes(&mut self, b: Option<&Bytes>) {
        match b {
            Some(b) => {
                self.len(b.len());
                self.0.extend_from_slice(b.as_slice());
            }
            None => self.i32(-1),
        }
    }
    fn topic_partitions(&mut self, list: &[TopicPartitions]) {
        self.len(list.len());
        for tp in list {
            self.string(&tp.topic);
            self.len(tp.partitions.len());
            for p in &tp.partitions {
                self.i32(*p);
            }
        }
    }
}

impl Subscription {
    /// Kafka's `ConsumerProtocol.serializeSubscription(subscription, version)`: the version
    /// header, then the fields that version has.
    pub fn encode(&self) -> Bytes {
        let version = self.version.clamp(0, HIGHEST_SUPPORTED_VERSION);
        let mut w = Writer::sized(
            2 + 4
                + self.topics.iter().map(|t| string_len(t)).sum::<usize>()
                + nullable_bytes_len(self.user_data.as_ref())
                + topic_partitions_len(&self.owned_partitions)
                + 4
                + 2
                + self.rack_id.as_deref().map_or(0, str::len),
        );
        w.i16(version);
        w.len(self.topics.len());
        for t in &self.topics {
            w.string(t);
        }
        w.nullable_bytes(self.user_data.as_ref());
        if version >= 1 {
            w.topic_partitions(&self.owned_partitions);
        }
        if version >= 2 {
            w.i32(self.generation_id);
        }
        if version >= 3 {
            w.nullable_string(self.rack_id.as_deref());
        }
        Bytes::from(w.0)
    }

    /// Kafka's `ConsumerProtocol.deserializeSubscription`.
    pub fn decode(bytes: &[u8]) -> Result<Subscription, DecodeError> {
        let mut r = Reader { bytes, at: 0 };
        let version = r.version("subscription")?;
        let mut s = Subscription {
            version,
            ..Subscription::default()
        };
        let n = r.count("topics")?;
        // (`count` has checked that `n` topics fit in the bytes left.)
        s.topics.reserve(n);
        for i in 0..n {
            s.topics.push(r.string(format_args!("topics[{i}]"))?);
        }
        s.user_data = r.nullable_bytes("userData")?;
        if version >= 1 {
            s.owned_partitions = r.topic_partitions("ownedPartitions")?;
        }
        if version >= 2 {
            s.generation_id = r.i32("generationId")?;
        }
        if version >= 3 {
            s.rack_id = r.nullable_string("rackId")?;
        }
        Ok(s)
    }
}

impl Assignment {
    /// Kafka's `ConsumerProtocol.serializeAssignment(assignment, version)`.
    pub fn encode(&self) -> Bytes {
        let mut w = Writer::sized(
            2 + topic_partitions_len(&self.assigned_partitions)
                + nullable_bytes_len(self.user_data.as_ref()),
        );
        w.i16(self.version.clamp(0, HIGHEST_SUPPORTED_VERSION));
        w.topic_partitions(&self.assigned_partitions);
        w.nullable_bytes(self.user_data.as_ref());
        Bytes::from(w.0)
    }

    /// Kafka's `ConsumerProtocol.deserializeAssignment`.
    pub fn decode(bytes: &[u8]) -> Result<Assignment, DecodeError> {
        let mut r = Reader { bytes, at: 0 };
        let version = r.version("assignment")?;
        Ok(Assignment {
            version,
            assigned_partitions: r.topic_partitions("assignedPartitions")?,
            user_data: r.nullable_bytes("userData")?,
        })
    }
}

/// The `StickyAssignor`'s user data: the member's previous assignment and (v1) generation.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase", deny_unknown_fields)
)]
pub struct StickyUserData {
    pub previous_assignment: Vec<TopicPartitions>,
    /// v1 only; `None` encodes the v0 schema.
    pub generation: Option<i32>,
}

impl StickyUserData {
    /// The struct, without a version header (Kafka's `STICKY_ASSIGNOR_USER_DATA_V0/V1`).
    pub fn encode(&self) -> Bytes {
        let mut w = Writer::sized(topic_partitions_len(&self.previous_assignment) + 4);
        w.topic_partitions(&self.previous_assignment);
        if let Some(g) = self.generation {
            w.i32(g);
        }
        Bytes::from(w.0)
    }

    /// Tries the v1 schema, then v0, as Kafka does.
    pub fn decode(bytes: &[u8]) -> Result<StickyUserData, DecodeError> {
        let mut r = Reader { bytes, at: 0 };
        let previous_assignment = r.topic_partitions("previous_assignment")?;
        let generation = if r.remaining() >= 4 {
            Some(r.i32("generation")?)
        } else {
            None
        };
        Ok(StickyUserData {
            previous_assignment,
            generation,
        })
    }
}

/// The `CooperativeStickyAssignor`'s user data: the generation as one INT32.
pub fn encode_cooperative_user_data(generation: i32) -> Bytes {
    Bytes::from(&generation.to_be_bytes())
}

/// Decodes the 4-byte generation.
pub fn decode_cooperative_user_data(bytes: &[u8]) -> Result<i32, DecodeError> {
    Reader { bytes, at: 0 }.i32("generation")
}

// ---- reading --------------------------------------------------------------------------------

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn remaining(&self) -> usize {
        self.bytes.len() - self.at
    }

    fn fail<T>(&self, message: String) -> Result<T, DecodeError> {
        Err(DecodeError {
            offset: self.at,
            message,
        })
    }

    fn take<const N: usize>(
        &mut self,
        what: impl core::fmt::Display,
    ) -> Result<[u8; N], DecodeError> {
        match self.bytes.get(self.at..self.at + N) {
            Some(slice) => {
                let mut out = [0; N];
                out.copy_from_slice(slice);
                self.at += N;
                Ok(out)
            }
            None => self.fail(format!(
                "truncated: {what} needs {N} bytes, {} left",
                self.remaining()
            )),
        }
    }

    fn i16(&mut self, what: impl core::fmt::Display) -> Result<i16, DecodeError> {
        self.take::<2>(what).map(i16::from_be_bytes)
    }

    fn i32(&mut self, what: impl core::fmt::Display) -> Result<i32, DecodeError> {
        self.take::<4>(what).map(i32::from_be_bytes)
    }

    fn version(&mut self, what: impl core::fmt::Display) -> Result<i16, DecodeError> {
        let version = self.i16(format_args!("the {what} version"))?;
        if version < 0 {
            return self.fail(format!("unsupported {what} version {version}"));
        }
        Ok(version.min(HIGHEST_SUPPORTED_VERSION))
    }

    /// An array length: non-negative and no larger than the bytes left could hold (each element
    /// takes at least `min` bytes), so a hostile count cannot make us allocate.
    fn count_of(
        &mut self,
        what: impl core::fmt::Display,
        min: usize,
    ) -> Result<usize, DecodeError> {
        let n = self.i32(format_args!("{what} count"))?;
        if n < 0 {
            return self.fail(format!("{what}: negative count {n}"));
        }
        let n = n as usize;
        if n.saturating_mul(min) > self.remaining() {
            return self.fail(format!(
                "{what}: count {n} does not fit in the {} bytes left",
                self.remaining()
            ));
        }
        Ok(n)
    }

    fn count(&mut self, what: impl core::fmt::Display) -> Result<usize, DecodeError> {
        self.count_of(what, 2)
    }

    fn string(&mut self, what: impl core::fmt::Display) -> Result<String, DecodeError> {
        self.str(what).map(String::from)
    }

    /// A string that may not be null, borrowed from the bytes read.
    fn str(&mut self, what: impl core::fmt::Display) -> Result<&'a str, DecodeError> {
        match self.nullable_str(&what)? {
            Some(s) => Ok(s),
            None => self.fail(format!("{what}: null where a string is required")),
        }
    }

    fn nullable_string(
        &mut self,
        what: impl core::fmt::Display,
    ) -> Result<Option<String>, DecodeError> {
        Ok(self.nullable_str(what)?.map(String::from))
    }

    fn nullable_str(
        &mut self,
        what: impl core::fmt::Display,
    ) -> Result<Option<&'a str>, DecodeError> {
        let n = self.i16(format_args!("{what} length"))?;
        if n < 0 {
            return Ok(None);
        }
        let n = n as usize;
        let Some(raw) = self.bytes.get(self.at..self.at + n) else {
            return self.fail(format!(
                "truncated: {what} needs {n} bytes, {} left",
                self.remaining()
            ));
        };
        match core::str::from_utf8(raw) {
            Ok(s) => {
                self.at += n;
                Ok(Some(s))
            }
            Err(_) => self.fail(format!("{what}: not UTF-8")),
        }
    }

    fn nullable_bytes(
        &mut self,
        what: impl core::fmt::Display,
    ) -> Result<Option<Bytes>, DecodeError> {
        let n = self.i32(format_args!("{what} length"))?;
        if n < 0 {
            return Ok(None);
        }
        let n = n as usize;
        match self.bytes.get(self.at..self.at + n) {
            Some(raw) => {
                self.at += n;
                Ok(Some(Bytes::from(raw)))
            }
            None => self.fail(format!(
                "truncated: {what} needs {n} bytes, {} left",
                self.remaining()
            )),
        }
    }

    fn topic_partitions(
        &mut self,
        what: impl core::fmt::Display,
    ) -> Result<Vec<TopicPartitions>, DecodeError> {
        let n = self.count_of(&what, 6)?;
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            // Straight into the shared name (through a `String` it was two allocations).
            let topic = alloc::sync::Arc::from(self.str(format_args!("{what}[{i}].topic"))?);
            let m = self.count_of(format_args!("{what}[{i}].partitions"), 4)?;
            // (The count fits in the bytes left: read in one piece, not number by number.)
            let Some(raw) = self.bytes.get(self.at..self.at + 4 * m) else {
                return self.fail(format!("truncated: {what}[{i}].partitions"));
            };
            self.at += 4 * m;
            let partitions = raw
                .chunks_exact(4)
                .map(|b| i32::from_be_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            out.push(TopicPartitions { topic, partitions });
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn hex(b: &Bytes) -> String {
        b.as_slice().iter().map(|x| format!("{x:02x}")).collect()
    }

    #[test]
    fn sticky_user_data_matches_the_spec_example() {
        // previous assignment {t0:[0,1]}, generation 3 (`docs/src/reference/assignors.md#sticky-user-data`)
        let data = StickyUserData {
            previous_assignment: vec![TopicPartitions {
                topic: "t0".into(),
                partitions: vec![0, 1],
            }],
            generation: Some(3),
        };
        assert_eq!(
            hex(&data.encode()),
            "000000010002743000000002000000000000000100000003"
        );
        assert_eq!(
            StickyUserData::decode(data.encode().as_slice()).unwrap(),
            data
        );
        let v0 = StickyUserData {
            generation: None,
            ..data
        };
        assert_eq!(StickyUserData::decode(v0.encode().as_slice()).unwrap(), v0);
    }

    #[test]
    fn subscription_versions_round_trip_and_drop_fields_they_lack() {
        let full = Subscription {
            version: 3,
            topics: vec!["a".into(), "b".into()],
            user_data: Some(Bytes::from(&[1, 2])),
            owned_partitions: vec![TopicPartitions {
                topic: "a".into(),
                partitions: vec![0, 2],
            }],
            generation_id: 7,
            rack_id: Some("rack-1".into()),
        };
        for version in 0..=3 {
            let s = Subscription {
                version,
                ..full.clone()
            };
            let back = Subscription::decode(s.encode().as_slice()).unwrap();
            assert_eq!(back.version, version);
            assert_eq!(back.topics, full.topics);
            assert_eq!(back.owned_partitions.is_empty(), version < 1);
            assert_eq!(back.generation_id, if version >= 2 { 7 } else { -1 });
            assert_eq!(back.rack_id.is_some(), version >= 3);
        }
        // v0: version, topics [a, b], userData 0102
        let v0 = Subscription {
            version: 0,
            ..full.clone()
        };
        assert_eq!(hex(&v0.encode()), "000000000002000161000162000000020102");
    }

    #[test]
    fn hostile_bytes_are_errors_not_panics() {
        assert!(Subscription::decode(&[]).is_err());
        assert!(
            Subscription::decode(&[0xff, 0xff])
                .unwrap_err()
                .message
                .contains("unsupported")
        );
        let e = Subscription::decode(&[0, 0, 0x7f, 0xff, 0xff, 0xff]).unwrap_err();
        assert!(e.message.contains("does not fit"), "{e}");
        let e = Assignment::decode(&[0, 1, 0, 0, 0, 1, 0, 5, b'a']).unwrap_err();
        assert!(e.message.contains("does not fit"), "{e}");
        assert_eq!(e.offset, 6);
        let e = Assignment::decode(&[0, 1, 0, 0, 0, 1, 0, 9, b'a', 0, 0, 0, 0, 0]).unwrap_err();
        assert!(
            e.message
                .contains("truncated: assignedPartitions[0].topic needs 9 bytes"),
            "{e}"
        );
        assert_eq!(e.offset, 8);
        // A newer version is read as v3 and trailing fields are ignored.
        let mut bytes = Subscription::default().encode().to_vec();
        bytes[1] = 9;
        bytes.extend_from_slice(&[1, 2, 3]);
        assert_eq!(Subscription::decode(&bytes).unwrap().version, 3);
    }
}
