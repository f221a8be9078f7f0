//! The coordinator model on its own thread, driven by the wall clock.
//!
//! Connections hand it requests; it answers each when the model does (at once, or later for a
//! parked JoinGroup or SyncGroup, when another request or a timer releases it), and it fires the
//! model's timers at their deadlines. Every input the model sees, with the time it saw it, goes to
//! the trace, so a live run can be replayed exactly (`trace::replay`).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
// The broker is where the wall clock enters: it reads it and hands the model the time.
#[allow(clippy::disallowed_types)]
use std::time::{Duration, Instant};

use group_coordinator::{Coordinator, Request, Response};

use crate::cluster::Topic;
use crate::trace::Trace;

enum Input {
    Request {
        request: Request,
        peer: String,
        reply: Sender<Response>,
    },
    /// CreateTopics made a topic: the model's metadata image gets it (`reply` once it has).
    CreateTopic {
        topic: Topic,
        peer: String,
        reply: Sender<()>,
    },
    /// The operator's failover (`control`): the coordinator unloads or loads a group.
    Failover {
        step: Failover,
        group_id: String,
        reply: Sender<Result<(), String>>,
    },
}

/// A coordinator failover's two halves. Kafka's coordinator loses a group when its
/// `__consumer_offsets` partition moves away, and loads it when the partition comes back;
/// group-broker has one coordinator, so the operator plays both (`failover GROUP MS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failover {
    Unload,
    Load,
}

impl Failover {
    /// The trace's key for it.
    pub fn key(self) -> &'static str {
        match self {
            Failover::Unload => "unload",
            Failover::Load => "load",
        }
    }

    /// Does it to the model, at the model's current time. One function for the driver and the
    /// replay.
    pub fn apply(
        self,
        coordinator: &mut Coordinator,
        group_id: &str,
    ) -> Result<Vec<Response>, group_coordinator::CoordinatorError> {
        match self {
            Failover::Unload => coordinator.unload(group_id),
            Failover::Load => coordinator.load(group_id),
        }
    }
}

/// A handle on the model's thread. Cloned into every connection.
#[derive(Clone, Debug)]
pub struct Driver {
    inputs: Sender<Input>,
    next_id: Arc<AtomicI32>,
}

impl std::fmt::Debug for Input {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Input::Request { request, peer, .. } => {
                write!(f, "{} from {peer}", request.api().name())
            }
            Input::CreateTopic { topic, peer, .. } => {
                write!(f, "topic {} created by {peer}", topic.name)
            }
            Input::Failover { step, group_id, .. } => write!(f, "{} {group_id}", step.key()),
        }
    }
}

impl Driver {
    /// Starts the model's thread.
    pub fn start(coordinator: Coordinator, trace: Trace) -> Driver {
        let (inputs, rx) = mpsc::channel();
        thread::Builder::new()
            .name("coordinator".into())
            .spawn(move || run(coordinator, rx, trace))
            .expect("the coordinator thread starts");
        Driver {
            inputs,
            next_id: Arc::new(AtomicI32::new(1)),
        }
    }

    /// A fresh id for a request on its way to the model (the model answers by it).
    pub fn routing_id(&self) -> i32 {
        // Wraps after 2^31 requests; ids of requests that long answered may be reused.
        self.next_id.fetch_add(1, Ordering::Relaxed) & i32::MAX
    }

    /// Sends a request to the model and waits for its response, however long the model parks
    /// it (Kafka reads nothing more from a connection until it has answered its request).
    /// `None` if the model's thread is gone.
    pub fn call(&self, request: Request, peer: &str) -> Option<Response> {
        let (reply, answer) = mpsc::channel();
        self.inputs
            .send(Input::Request {
                request,
                peer: peer.to_owned(),
                reply,
            })
            .ok()?;
        answer.recv().ok()
    }

    /// Unloads or loads a group in the model, and waits until it has; the model's refusal
    /// (no such group, or it is already unloaded or loaded) comes back as text.
    pub fn failover(&self, step: Failover, group_id: &str) -> Result<(), String> {
        let (reply, done) = mpsc::channel();
        self.inputs
            .send(Input::Failover {
                step,
                group_id: group_id.to_owned(),
                reply,
            })
            .map_err(|_| "the model's thread is gone".to_owned())?;
        done.recv()
            .map_err(|_| "the model's thread is gone".to_owned())?
    }

    /// Puts a topic CreateTopics made into the model's metadata image, and waits until it is
    /// there (so that the CreateTopics response follows it, as Kafka answers once the
    /// controller has the topic).
    pub fn create_topic(&self, topic: &Topic, peer: &str) {
        let (reply, done) = mpsc::channel();
        let sent = self.inputs.send(Input::CreateTopic {
            topic: topic.clone(),
            peer: peer.to_owned(),
            reply,
        });
        if sent.is_ok() {
            let _ = done.recv();
        }
    }
}

#[allow(clippy::disallowed_types)] // the wall clock, see the imports
fn run(mut coordinator: Coordinator, inputs: Receiver<Input>, mut trace: Trace) {
    let start = Instant::now();
    let now = || i64::try_from(start.elapsed().as_millis()).unwrap_or(i64::MAX);
    let mut waiting: BTreeMap<i32, Sender<Response>> = BTreeMap::new();
    loop {
        let timeout = match coordinator.next_deadline() {
            // The model's timers run on whole milliseconds; a timer due now (one re-armed with
            // a zero delay) waits for the next one, as Kafka's timer wheel ticks.
            Some(deadline) => Duration::from_millis((deadline - now()).max(1) as u64),
            None => Duration::from_secs(3600),
        };
        let (at, responses) = match inputs.recv_timeout(timeout) {
            Ok(Input::Request {
                request,
                peer,
                reply,
            }) => {
                let at = now();
                let id = request.correlation_id();
                trace.request(at, &peer, &request);
                match coordinator.handle(at, request) {
                    Ok(responses) => {
                        waiting.insert(id, reply);
                        (at, responses)
                    }
                    Err(e) => {
                        // The decoder only builds requests their version can carry, so this
                        // is a broker bug; the connection's reply channel drops and it closes.
                        trace.note(at, &crate::trace::refused(&e));
                        eprintln!("group-broker: the model refused a request from {peer}: {e}");
                        continue;
                    }
                }
            }
            Ok(Input::CreateTopic { topic, peer, reply }) => {
                let at = now();
                // Timers due by now fire first, then the image changes: the order a replay
                // and the page's follower take too (the simulator's createTopic action).
                trace.create_topic(at, &peer, &topic.name, topic.partitions);
                let responses = match create_topic(&mut coordinator, at, &topic) {
                    Ok(responses) => responses,
                    Err(e) => {
                        trace.note(at, &crate::trace::refused(&e));
                        eprintln!("group-broker: the model refused topic {}: {e}", topic.name);
                        Vec::new()
                    }
                };
                let _ = reply.send(());
                (at, responses)
            }
            Ok(Input::Failover {
                step,
                group_id,
                reply,
            }) => {
                let at = now();
                // Timers due by now fire first, as a plain advance (an input of its own, so that
                // a refused failover leaves only that in the record); then the group goes or
                // comes back, at the model's time.
                let mut responses = match coordinator.advance(at) {
                    Ok(responses) => {
                        trace.advance(at);
                        responses
                    }
                    Err(_) => Vec::new(),
                };
                match step.apply(&mut coordinator, &group_id) {
                    Ok(more) => {
                        trace.failover(at, step, &group_id);
                        let _ = reply.send(Ok(()));
                        responses.extend(more);
                    }
                    // The model changed nothing: nothing more to record.
                    Err(e) => {
                        let _ = reply.send(Err(e.to_string()));
                    }
                }
                (at, responses)
            }
            Err(RecvTimeoutError::Timeout) => {
                let at = now();
                match coordinator.advance(at) {
                    Ok(responses) => {
                        // Every advance is an input: a replay fires the timers at this time.
                        trace.advance(at);
                        (at, responses)
                    }
                    Err(_) => continue,
                }
            }
            Err(RecvTimeoutError::Disconnected) => return,
        };
        for event in coordinator.drain_events() {
            trace.event(&event);
        }
        for response in responses {
            trace.response(at, &response);
            if let Some(reply) = waiting.remove(&response.correlation_id()) {
                // The connection may have closed meanwhile; its answer goes nowhere, as in Kafka.
                let _ = reply.send(response);
            }
        }
    }
}

/// What a new topic does to the model, at `at`: its due timers fire, then the topic enters the
/// metadata image (a pattern that matches it is resolved again). One function for the driver
/// and the replay.
pub fn create_topic(
    coordinator: &mut Coordinator,
    at: i64,
    topic: &Topic,
) -> Result<Vec<Response>, group_coordinator::CoordinatorError> {
    let responses = coordinator.advance(at)?;
    coordinator.update_metadata(at, &[(topic.name.clone(), None, topic.partitions)])?;
    Ok(responses)
}
