//! The listener and its connections: a thread per connection, one request at a time on each
//! (Kafka reads a connection's next request only after answering the last), frames bounded by
//! `socket.request.max.bytes`, connections by `max.connections`.

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::Duration;

use bytes::Bytes;
use kafka_protocol::messages::ApiKey;

use crate::cluster::{Cluster, Topic};
use crate::convert::responses::to_wire;
use crate::driver::Driver;
use crate::wire::{self, Decoded, Incoming, Refused};

/// Kafka's defaults.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// `socket.request.max.bytes`: the largest request frame (100 MiB).
    pub max_request_bytes: usize,
    /// `max.connections`: open connections at once (Kafka's default is `Integer.MAX_VALUE`).
    pub max_connections: usize,
    /// The longest a fetch that found nothing is held (its own `max_wait_ms`, at most this).
    pub max_fetch_wait: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_request_bytes: 104_857_600,
            max_connections: i32::MAX as usize,
            max_fetch_wait: Duration::from_secs(30),
        }
    }
}

/// Accepts connections until the process ends.
pub fn serve(listener: TcpListener, cluster: Arc<Cluster>, driver: Driver, limits: Limits) {
    let open = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let peer = stream
            .peer_addr()
            .map_or_else(|_| "unknown".to_owned(), |a| a.to_string());
        if open.load(Ordering::SeqCst) >= limits.max_connections {
            eprintln!(
                "group-broker: {peer}: refused, {} connections are open (max.connections)",
                limits.max_connections
            );
            continue;
        }
        open.fetch_add(1, Ordering::SeqCst);
        let (cluster, driver, open) = (cluster.clone(), driver.clone(), open.clone());
        let spawned = thread::Builder::new()
            .name(format!("connection {peer}"))
            .spawn(move || {
                if let Err(why) = connection(stream, &peer, &cluster, &driver, limits) {
                    eprintln!("group-broker: {peer}: closed: {why}");
                }
                open.fetch_sub(1, Ordering::SeqCst);
            });
        if spawned.is_err() {
            eprintln!("group-broker: no thread for a new connection; it is closed");
        }
    }
}

/// Serves one connection until the client closes it (`Ok`) or a frame cannot be answered
/// (`Err`, the reason logged).
fn connection(
    mut stream: TcpStream,
    peer: &str,
    cluster: &Cluster,
    driver: &Driver,
    limits: Limits,
) -> Result<(), String> {
    let _ = stream.set_nodelay(true);
    loop {
        let Some(frame) = read_frame(&mut stream, limits.max_request_bytes)? else {
            return Ok(());
        };
        let routing_id = driver.routing_id();
        let decoded = catch_unwind(AssertUnwindSafe(|| wire::decode(frame, routing_id)))
            .map_err(|_| "the frame made the decoder panic".to_owned())?
            .map_err(|Refused(why)| why)?;
        let from = format!("{} {peer}", decoded.client_id);
        let (out, hold) = answer(
            decoded,
            cluster,
            |request| driver.call(request, &from),
            |topic| driver.create_topic(topic, &from),
        )
        .map_err(|Refused(why)| why)?;
        if let Some(hold) = hold {
            thread::sleep(hold.min(limits.max_fetch_wait));
        }
        if out.is_empty() {
            continue;
        }
        match write_frame(&mut stream, &out) {
            Ok(()) => {}
            // The client went away while its answer was on the way (a held fetch outlives a
            // consumer that closed): its close, not a refusal.
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::BrokenPipe | io::ErrorKind::ConnectionReset
                ) =>
            {
                return Ok(());
            }
            Err(e) => return Err(format!("writing a response: {e}")),
        }
    }
}

/// The response frame to a decoded request, and how long to hold it first (a fetch that found
/// nothing waits its `max_wait_ms`, as Kafka's delayed fetch does when no record arrives).
/// `model` answers the group requests; `created` tells the model of a topic CreateTopics made.
pub fn answer(
    decoded: Decoded,
    cluster: &Cluster,
    model: impl FnOnce(group_coordinator::Request) -> Option<group_coordinator::Response>,
    created: impl FnMut(&Topic),
) -> Result<(Bytes, Option<Duration>), Refused> {
    let (key, version, correlation_id) = (decoded.key, decoded.version, decoded.correlation_id);
    let out = match decoded.body {
        Incoming::Group(group_coordinator::Request::OffsetCommit(r))
            if commits_unknown_partitions(&r, cluster) =>
        {
            let response = commit_known_partitions(r, cluster, model)?;
            wire::encode_group(&to_wire(&response), key, version, correlation_id)
        }
        Incoming::Group(request) => {
            let Some(response) = model(request) else {
                return Err(Refused("the model did not answer".into()));
            };
            wire::encode_group(&to_wire(&response), key, version, correlation_id)
        }
        Incoming::ApiVersions => {
            wire::encode(key, version, correlation_id, &cluster.api_versions(0))
        }
        Incoming::ApiVersionsUnsupported => {
            wire::encode(key, 0, correlation_id, &cluster.unsupported_api_versions())
        }
        Incoming::Metadata(r) => {
            wire::encode(key, version, correlation_id, &cluster.metadata(&r, version))
        }
        Incoming::FindCoordinator(r) => wire::encode(
            key,
            version,
            correlation_id,
            &cluster.find_coordinator(&r, version),
        ),
        Incoming::ListOffsets(r) => wire::encode(
            key,
            version,
            correlation_id,
            &cluster.list_offsets(&r, version),
        ),
        // acks=0: Kafka sends no response at all.
        Incoming::Produce(r) if r.acks == 0 => return Ok((Bytes::new(), None)),
        Incoming::Produce(r) => {
            wire::encode(key, version, correlation_id, &cluster.produce(&r, version))
        }
        Incoming::CreateTopics(r) => wire::encode(
            key,
            version,
            correlation_id,
            &cluster.create_topics(&r, version, created),
        ),
        Incoming::Fetch(r) => {
            let (response, found) = cluster.fetch(&r, version);
            let out = wire::encode(ApiKey::Fetch, version, correlation_id, &response)?;
            let hold = (!found).then(|| Duration::from_millis(r.max_wait_ms.max(0) as u64));
            return Ok((out, hold));
        }
    }?;
    Ok((out, None))
}

fn commits_unknown_partitions(
    r: &group_coordinator::protocol::OffsetCommitRequest,
    cluster: &Cluster,
) -> bool {
    r.topics.iter().any(|t| {
        t.partitions
            .iter()
            .any(|p| !cluster.has_partition(&t.name, p.partition_index))
    })
}

/// An OffsetCommit naming partitions the cluster does not have: Kafka's request handler
/// (`KafkaApis.handleOffsetCommitRequest`) answers those UNKNOWN_TOPIC_OR_PARTITION itself and
/// hands the coordinator only the rest (nothing at all when nothing is left); the answers are
/// put together in the request's order.
fn commit_known_partitions(
    r: group_coordinator::protocol::OffsetCommitRequest,
    cluster: &Cluster,
    model: impl FnOnce(group_coordinator::Request) -> Option<group_coordinator::Response>,
) -> Result<group_coordinator::Response, Refused> {
    use group_coordinator::ErrorCode;
    use group_coordinator::protocol::{
        OffsetCommitResponse, OffsetCommitResponsePartition, OffsetCommitResponseTopic,
    };
    let mut known = r.clone();
    for t in &mut known.topics {
        t.partitions
            .retain(|p| cluster.has_partition(&t.name, p.partition_index));
    }
    known.topics.retain(|t| !t.partitions.is_empty());
    let answered = if known.topics.is_empty() {
        None
    } else {
        match model(group_coordinator::Request::OffsetCommit(known)) {
            Some(group_coordinator::Response::OffsetCommit(a)) => Some(a),
            _ => return Err(Refused("the model did not answer the OffsetCommit".into())),
        }
    };
    let error_of = |topic: &str, partition: i32| {
        if !cluster.has_partition(topic, partition) {
            return ErrorCode::UnknownTopicOrPartition;
        }
        answered
            .as_ref()
            .and_then(|a| a.topics.iter().find(|t| t.name == topic))
            .and_then(|t| t.partitions.iter().find(|p| p.partition_index == partition))
            .map_or(ErrorCode::UnknownServerError, |p| p.error_code)
    };
    let topics: Vec<OffsetCommitResponseTopic> = r
        .topics
        .iter()
        .map(|t| OffsetCommitResponseTopic {
            name: t.name.clone(),
            partitions: t
                .partitions
                .iter()
                .map(|p| OffsetCommitResponsePartition {
                    partition_index: p.partition_index,
                    error_code: error_of(&t.name, p.partition_index),
                })
                .collect(),
        })
        .collect();
    let error_code = topics
        .iter()
        .flat_map(|t| &t.partitions)
        .map(|p| p.error_code)
        .find(|&e| e != ErrorCode::None)
        .unwrap_or(ErrorCode::None);
    Ok(group_coordinator::Response::OffsetCommit(
        OffsetCommitResponse {
            api_version: r.api_version,
            correlation_id: r.correlation_id,
            throttle_time_ms: answered.as_ref().map_or(0, |a| a.throttle_time_ms),
            error_code,
            topics,
        },
    ))
}

/// One size-prefixed frame, or `None` at a clean end of the stream.
fn read_frame(stream: &mut TcpStream, max: usize) -> Result<Option<Bytes>, String> {
    let mut size = [0u8; 4];
    match stream.read_exact(&mut size) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) if e.kind() == io::ErrorKind::ConnectionReset => return Ok(None),
        Err(e) => return Err(format!("reading a frame: {e}")),
    }
    let size = i32::from_be_bytes(size);
    if size < 0 || size as usize > max {
        return Err(format!(
            "a frame of {size} bytes (socket.request.max.bytes is {max})"
        ));
    }
    let mut frame = vec![0u8; size as usize];
    stream
        .read_exact(&mut frame)
        .map_err(|e| format!("reading a {size}-byte frame: {e}"))?;
    Ok(Some(Bytes::from(frame)))
}

fn write_frame(stream: &mut TcpStream, frame: &[u8]) -> io::Result<()> {
    stream.write_all(frame)?;
    stream.flush()
}

/// The address a listener is bound to, for logs and Metadata.
pub fn bound(listener: &TcpListener) -> io::Result<SocketAddr> {
    listener.local_addr()
}
