//! Between the wire (kafka-protocol's generated messages) and the model's own request and
//! response types: one function per api and direction, no logic beyond moving fields.

pub mod requests;
pub mod responses;

use group_coordinator::consumer_group::Uuid;
use group_coordinator::protocol::Bytes;
use kafka_protocol::protocol::StrBytes;

pub(crate) fn text(s: &StrBytes) -> String {
    s.as_str().to_owned()
}

pub(crate) fn opt_text(s: &Option<StrBytes>) -> Option<String> {
    s.as_ref().map(text)
}

pub(crate) fn str(s: &str) -> StrBytes {
    StrBytes::from_string(s.to_owned())
}

pub(crate) fn opt_str(s: &Option<String>) -> Option<StrBytes> {
    s.as_deref().map(str)
}

pub(crate) fn bytes_in(b: &bytes::Bytes) -> Bytes {
    Bytes::from(b.as_ref())
}

pub(crate) fn bytes_out(b: &Bytes) -> bytes::Bytes {
    bytes::Bytes::copy_from_slice(b.as_slice())
}

/// Kafka's `Uuid` is two longs, most significant first; the uuid crate's is the same 128 bits.
pub(crate) fn uuid_in(id: &uuid::Uuid) -> Uuid {
    Uuid::from_u128(id.as_u128())
}

pub(crate) fn uuid_out(id: Uuid) -> uuid::Uuid {
    uuid::Uuid::from_u128(id.to_u128())
}
