//! Frames in and out: a request header and body decoded by kafka-protocol and sorted into what
//! the model answers and what the cluster answers; a response encoded with its header.

use bytes::{Buf, BufMut, Bytes, BytesMut};
use group_coordinator::Request;
use kafka_protocol::messages as wire;
use kafka_protocol::messages::{ApiKey, RequestHeader, ResponseHeader};
use kafka_protocol::protocol::{
    Decodable, Encodable, HeaderVersion, StrBytes, decode_request_header_from_buffer,
    encode_request_header_into_buffer,
};

use crate::convert::requests::{self as to_model, Head};
use crate::convert::responses::WireResponse;
use crate::served;

/// A decoded request.
#[derive(Debug)]
pub enum Incoming {
    /// For the coordinator model.
    Group(Request),
    ApiVersions,
    /// An ApiVersions request of a version this broker does not know.
    ApiVersionsUnsupported,
    Metadata(wire::MetadataRequest),
    FindCoordinator(wire::FindCoordinatorRequest),
    ListOffsets(wire::ListOffsetsRequest),
    Fetch(wire::FetchRequest),
    Produce(wire::ProduceRequest),
    CreateTopics(wire::CreateTopicsRequest),
}

#[derive(Debug)]
pub struct Decoded {
    pub key: ApiKey,
    pub version: i16,
    pub correlation_id: i32,
    pub client_id: String,
    pub body: Incoming,
}

/// Why a frame cannot be answered; the connection is closed with this as its log line.
#[derive(Debug)]
pub struct Refused(pub String);

fn refuse<T>(message: String) -> Result<T, Refused> {
    Err(Refused(message))
}

/// Decodes one frame (without its size prefix). `routing_id` becomes the model request's
/// correlation id.
pub fn decode(frame: Bytes, routing_id: i32) -> Result<Decoded, Refused> {
    if frame.len() < 8 {
        return refuse(format!(
            "a {}-byte frame is shorter than any request header",
            frame.len()
        ));
    }
    let raw_key = i16::from_be_bytes([frame[0], frame[1]]);
    let version = i16::from_be_bytes([frame[2], frame[3]]);
    let Ok(key) = ApiKey::try_from(raw_key) else {
        return refuse(format!("api key {raw_key} is not a Kafka api"));
    };
    let mut buf = frame;
    let header = decode_header(&mut buf, key, version)?;
    let correlation_id = header.correlation_id;
    let client_id = header
        .client_id
        .as_ref()
        .map_or_else(String::new, |c| c.as_str().to_owned());
    let decoded = |body| {
        Ok(Decoded {
            key,
            version,
            correlation_id,
            client_id: client_id.clone(),
            body,
        })
    };
    let Some((min, max)) = served::range(key) else {
        return refuse(format!(
            "{key:?} (api key {raw_key}) is not served here: this broker answers what a consumer \
             needs (see ApiVersions)"
        ));
    };
    if key == ApiKey::ApiVersions && version > max {
        return decoded(Incoming::ApiVersionsUnsupported);
    }
    if !(min..=max).contains(&version) {
        return refuse(format!(
            "{key:?} v{version} is not served (v{min}-v{max} are, as ApiVersions said)"
        ));
    }
    let head = Head {
        api_version: version,
        routing_id,
        client_id: client_id.clone(),
    };
    let body = match key {
        ApiKey::ApiVersions => {
            body::<wire::ApiVersionsRequest>(&mut buf, key, version)?;
            Incoming::ApiVersions
        }
        ApiKey::Metadata => Incoming::Metadata(body(&mut buf, key, version)?),
        ApiKey::FindCoordinator => Incoming::FindCoordinator(body(&mut buf, key, version)?),
        ApiKey::ListOffsets => Incoming::ListOffsets(body(&mut buf, key, version)?),
        ApiKey::Fetch => Incoming::Fetch(body(&mut buf, key, version)?),
        ApiKey::Produce => Incoming::Produce(body(&mut buf, key, version)?),
        ApiKey::CreateTopics => Incoming::CreateTopics(body(&mut buf, key, version)?),
        ApiKey::JoinGroup => {
            Incoming::Group(to_model::join_group(body(&mut buf, key, version)?, &head))
        }
        ApiKey::SyncGroup => {
            Incoming::Group(to_model::sync_group(body(&mut buf, key, version)?, &head))
        }
        ApiKey::Heartbeat => {
            Incoming::Group(to_model::heartbeat(body(&mut buf, key, version)?, &head))
        }
        ApiKey::LeaveGroup => {
            Incoming::Group(to_model::leave_group(body(&mut buf, key, version)?, &head))
        }
        ApiKey::OffsetCommit => Incoming::Group(to_model::offset_commit(
            body(&mut buf, key, version)?,
            &head,
        )),
        ApiKey::OffsetFetch => {
            Incoming::Group(to_model::offset_fetch(body(&mut buf, key, version)?, &head))
        }
        ApiKey::DescribeGroups => Incoming::Group(to_model::describe_groups(
            body(&mut buf, key, version)?,
            &head,
        )),
        ApiKey::ListGroups => {
            Incoming::Group(to_model::list_groups(body(&mut buf, key, version)?, &head))
        }
        ApiKey::DeleteGroups => Incoming::Group(to_model::delete_groups(
            body(&mut buf, key, version)?,
            &head,
        )),
        ApiKey::ConsumerGroupHeartbeat => Incoming::Group(to_model::consumer_group_heartbeat(
            body(&mut buf, key, version)?,
            &head,
        )),
        ApiKey::DescribeConfigs => Incoming::Group(to_model::describe_configs(
            body(&mut buf, key, version)?,
            &head,
        )),
        ApiKey::IncrementalAlterConfigs => Incoming::Group(to_model::incremental_alter_configs(
            body(&mut buf, key, version)?,
            &head,
        )),
        ApiKey::ConsumerGroupDescribe => Incoming::Group(to_model::consumer_group_describe(
            body(&mut buf, key, version)?,
            &head,
        )),
        _ => return refuse(format!("{key:?} is not served here")),
    };
    decoded(body)
}

fn decode_header(buf: &mut Bytes, key: ApiKey, version: i16) -> Result<RequestHeader, Refused> {
    decode_request_header_from_buffer(buf).map_err(|e| {
        Refused(format!(
            "{key:?} v{version}: the request header does not decode: {e}"
        ))
    })
}

fn body<T: Decodable>(buf: &mut Bytes, key: ApiKey, version: i16) -> Result<T, Refused> {
    let message = T::decode(buf, version)
        .map_err(|e| Refused(format!("{key:?} v{version} does not decode: {e}")))?;
    // Bytes after the request's last field are ignored, as Kafka's `RequestContext.parseRequest`
    // ignores them (it reads the fields and never looks at what is left): librdkafka 2.16
    // sends Metadata v12 with three more, and closing the connection for them broke its
    // `list_topics()` and its pattern subscriptions.
    Ok(message)
}

/// Encodes a response frame: size, header, body.
pub fn encode<M: Encodable + HeaderVersion>(
    key: ApiKey,
    version: i16,
    correlation_id: i32,
    body: &M,
) -> Result<Bytes, Refused> {
    let mut header = ResponseHeader::default();
    header.correlation_id = correlation_id;
    let mut buf = BytesMut::new();
    buf.put_i32(0);
    header
        .encode(&mut buf, M::header_version(version))
        .and_then(|()| body.encode(&mut buf, version))
        .map_err(|e| {
            Refused(format!(
                "{key:?} v{version}: the response does not encode: {e}"
            ))
        })?;
    let size = (buf.len() - 4) as i32;
    buf[..4].copy_from_slice(&size.to_be_bytes());
    Ok(buf.freeze())
}

/// Encodes a model response for the wire.
pub fn encode_group(
    response: &WireResponse,
    key: ApiKey,
    version: i16,
    correlation_id: i32,
) -> Result<Bytes, Refused> {
    match response {
        WireResponse::JoinGroup(r) => encode(key, version, correlation_id, r),
        WireResponse::SyncGroup(r) => encode(key, version, correlation_id, r),
        WireResponse::Heartbeat(r) => encode(key, version, correlation_id, r),
        WireResponse::LeaveGroup(r) => encode(key, version, correlation_id, r),
        WireResponse::OffsetCommit(r) => encode(key, version, correlation_id, r),
        WireResponse::OffsetFetch(r) => encode(key, version, correlation_id, r),
        WireResponse::DescribeGroups(r) => encode(key, version, correlation_id, r),
        WireResponse::ListGroups(r) => encode(key, version, correlation_id, r),
        WireResponse::DeleteGroups(r) => encode(key, version, correlation_id, r),
        WireResponse::ConsumerGroupHeartbeat(r) => encode(key, version, correlation_id, r),
        WireResponse::ConsumerGroupDescribe(r) => encode(key, version, correlation_id, r),
        WireResponse::DescribeConfigs(r) => encode(key, version, correlation_id, r),
        WireResponse::IncrementalAlterConfigs(r) => encode(key, version, correlation_id, r),
    }
}

// ---- the client's side (the tests and benchmarks speak to the broker as a Kafka client) ----

/// A client's request frame without its size prefix: header (`client_id`, `correlation_id`,
/// `R`'s key at `version`) and body.
pub fn request_body<R: kafka_protocol::protocol::Request>(
    version: i16,
    correlation_id: i32,
    client_id: &'static str,
    request: &R,
) -> Result<BytesMut, String> {
    let mut header = RequestHeader::default();
    header.request_api_key = R::KEY;
    header.request_api_version = version;
    header.correlation_id = correlation_id;
    header.client_id = Some(StrBytes::from_static_str(client_id));
    let mut body = BytesMut::new();
    encode_request_header_into_buffer(&mut body, &header)
        .and_then(|()| request.encode(&mut body, version))
        .map_err(|e| format!("the request does not encode: {e}"))?;
    Ok(body)
}

/// A response frame (without its size prefix) to `R` at `version`: its correlation id, the
/// response, and how many bytes were left after it (none, from a sound broker).
pub fn decode_response<R: kafka_protocol::protocol::Request>(
    mut frame: Bytes,
    version: i16,
) -> Result<(i32, R::Response, usize), String> {
    let header = ResponseHeader::decode(&mut frame, R::Response::header_version(version))
        .map_err(|e| format!("the response header does not decode: {e}"))?;
    let response = R::Response::decode(&mut frame, version)
        .map_err(|e| format!("the response does not decode: {e}"))?;
    Ok((header.correlation_id, response, frame.remaining()))
}
