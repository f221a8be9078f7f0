//! A Kafka broker front end for the coordinator model: real Kafka clients (the Java client,
//! kafka-python, librdkafka, KafkaJS) connect over Kafka's wire protocol on loopback, and their
//! group requests go to the same `group-coordinator` model the playground runs, driven by the
//! wall clock. Around the model it answers the least a consumer needs (ApiVersions, Metadata,
//! FindCoordinator, ListOffsets, Fetch of generated records) and records a trace that
//! `group-broker replay` checks against a fresh model.
//!
//! The wire format is kafka-protocol's (Kafka's message schemas, generated); the crate's own
//! code only moves fields between those messages and the model's.

pub mod alloc_guard;
pub mod cluster;
pub mod control;
pub mod convert;
pub mod driver;
pub mod live;
pub mod served;
pub mod server;
pub mod trace;
pub mod wire;

use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::sync::Arc;
use std::thread;

use cluster::{Cluster, Topic};
use driver::Driver;
use server::Limits;
use trace::{Header, Trace};

// See alloc_guard.rs: a malformed frame must not abort the process.
#[global_allocator]
static ALLOCATOR: alloc_guard::Guard = alloc_guard::Guard;

/// How to run the broker.
#[derive(Clone, Debug)]
pub struct Options {
    pub listen: SocketAddr,
    pub node_id: i32,
    pub topics: Vec<Topic>,
    pub records_per_partition: i64,
    /// The model: seed and broker settings.
    pub model: Header,
    pub trace: Option<PathBuf>,
    /// Where the live feed listens (`--live`), if anywhere.
    pub live: Option<SocketAddr>,
    pub limits: Limits,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            listen: SocketAddr::from(([127, 0, 0, 1], 9092)),
            node_id: 0,
            topics: Vec::new(),
            records_per_partition: 100,
            model: Header::default(),
            trace: None,
            live: None,
            limits: Limits::default(),
        }
    }
}

/// A running broker.
#[derive(Debug)]
pub struct Running {
    pub addr: SocketAddr,
    /// Where the live feed listens.
    pub live: Option<SocketAddr>,
    pub acceptor: thread::JoinHandle<()>,
    /// The model's thread, for the operator's commands (`control`).
    pub driver: Driver,
}

/// Binds, builds the model and starts serving on background threads.
#[allow(clippy::disallowed_types)] // the records' timestamps are wall-clock time
pub fn start(options: Options) -> Result<Running, String> {
    let listener = TcpListener::bind(options.listen)
        .map_err(|e| format!("cannot listen on {}: {e}", options.listen))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let mut model = options.model.clone();
    model.topics = options
        .topics
        .iter()
        .map(|t| (t.name.clone(), t.partitions))
        .collect();
    let coordinator = model.coordinator()?;
    let (live, live_addr) = match options.live {
        Some(at) => {
            let listener = TcpListener::bind(at)
                .map_err(|e| format!("cannot listen for the live feed on {at}: {e}"))?;
            let bound = listener.local_addr().map_err(|e| e.to_string())?;
            let live = Arc::new(live::Live::default());
            let feed = live.clone();
            thread::Builder::new()
                .name("live feed".into())
                .spawn(move || live::serve(listener, feed))
                .map_err(|e| e.to_string())?;
            (Some(live), Some(bound))
        }
        None => (None, None),
    };
    let trace = match (&options.trace, live) {
        (None, None) => Trace::none(),
        (path, live) => Trace::new(path.as_deref(), live, &model).map_err(|e| {
            format!(
                "cannot write the trace {}: {e}",
                path.as_deref()
                    .map_or_else(String::new, |p| p.display().to_string())
            )
        })?,
    };
    let cluster = Arc::new(Cluster {
        node_id: options.node_id,
        host: addr.ip().to_string(),
        port: i32::from(addr.port()),
        topics: options.topics.clone().into(),
        records_per_partition: options.records_per_partition,
        first_timestamp_ms: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64),
    });
    let driver = Driver::start(coordinator, trace);
    let limits = options.limits;
    let serving = driver.clone();
    let acceptor = thread::Builder::new()
        .name("acceptor".into())
        .spawn(move || server::serve(listener, cluster, serving, limits))
        .map_err(|e| e.to_string())?;
    Ok(Running {
        addr,
        live: live_addr,
        acceptor,
        driver,
    })
}
