//! The world's shared machinery: the event queue ordered by (time, sequence), the network
//! links, correlation ids, the ownership ledger and the trace. Consumers act on it; the
//! [`crate::Simulation`] drives it.

use crate::by_correlation::ByCorrelation;
use crate::event_queue::{EventQueue, QueueKey};
use crate::ledger::{GroupGeneration, Ledger};
use crate::refusal::Refusal;
use crate::scenario::LinkSpec;
use crate::trace::{LossReason, MessageApi, Tp, Trace, TraceKind};
use alloc::collections::BTreeMap;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;
use group_coordinator::ordered;
use group_coordinator::rng::Rng;
use group_coordinator::{ErrorCode, Request, Response};

/// What a consumer sends to the coordinator's broker.
#[derive(Clone, Debug)]
pub enum Outgoing {
    Request(Rc<Request>),
    FindCoordinator { correlation_id: i32 },
}

/// What the broker sends back.
#[derive(Clone, Debug)]
pub enum Incoming {
    Response(Rc<Response>),
    FindCoordinator {
        correlation_id: i32,
        error_code: ErrorCode,
    },
}

impl Incoming {
    /// The api, correlation id and error code the trace names it by.
    pub fn describe(&self) -> (MessageApi, i32, ErrorCode) {
        match self {
            Incoming::Response(r) => (MessageApi::of(r.api()), r.correlation_id(), r.error_code()),
            Incoming::FindCoordinator {
                correlation_id,
                error_code,
            } => (MessageApi::FindCoordinator, *correlation_id, *error_code),
        }
    }
}

impl Outgoing {
    /// The api and correlation id the trace names it by.
    pub fn describe(&self) -> (MessageApi, i32) {
        match self {
            Outgoing::Request(r) => (MessageApi::of(r.api()), r.correlation_id()),
            Outgoing::FindCoordinator { correlation_id } => {
                (MessageApi::FindCoordinator, *correlation_id)
            }
        }
    }
}

/// A consumer's timers; stale ones (an older token) are ignored when they fire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timer {
    Poll(u64),
    Heartbeat(u64),
    Backoff(u64),
    RequestTimeout(i32),
    /// `onPartitionsAssigned` returns: the partitions it was given are processed from now.
    Listener(u64),
    /// Consumer protocol: a rebalance-listener call on the application thread returns, and the
    /// background thread goes on.
    Callback(u64),
}

/// Something due at a time.
#[derive(Clone, Debug)]
pub enum Pending {
    ToBroker {
        consumer: usize,
        message: Outgoing,
    },
    ToConsumer {
        consumer: usize,
        incarnation: u32,
        message: Incoming,
    },
    Timer {
        consumer: usize,
        incarnation: u32,
        timer: Timer,
    },
    /// The scenario's script step.
    Script(usize),
    /// A consumer (re)starts.
    Start(usize),
    /// A coordinator loads the group after a failover.
    LoadGroup,
    /// A live run's input: a real client's request, sent on its lane now.
    Inject {
        consumer: usize,
        request: Rc<Request>,
    },
    /// A live run's input: the broker fired the coordinator's due timers now.
    Advance,
}

/// One consumer's link to the coordinator, both directions.
#[derive(Clone, Debug)]
pub struct Link {
    pub spec: LinkSpec,
    pub cut: bool,
    /// The last delivery time each way: a TCP connection delivers in order.
    last_up: i64,
    last_down: i64,
}

impl Link {
    pub fn new(spec: LinkSpec) -> Link {
        Link {
            spec,
            cut: false,
            last_up: 0,
            last_down: 0,
        }
    }
}

/// Run counters (the rest of the metrics come from the ledger and the coordinator's events).
#[derive(Clone, Debug, Default)]
pub struct Counters {
    pub messages_sent: u64,
    pub messages_lost: u64,
    pub requests_timed_out: u64,
    pub heartbeats: u64,
    pub rebalances: u64,
    pub generations: u64,
    pub invariant_violations: u64,
    pub consumer_failures: u64,
}

/// Where normally scheduled events' sequence numbers start (see [`World::schedule_first`]).
const SEQ_BASE: u64 = 1 << 40;

#[derive(Clone, Debug)]
pub struct World {
    pub now: i64,
    /// Queue order within a time: events scheduled normally count up from [`SEQ_BASE`]; events
    /// the user moves to the front count up from 0, so they come first.
    seq: u64,
    front: u64,
    pub queue: EventQueue,
    pub rng: Rng,
    pub trace: Trace,
    pub group_id: String,
    pub topics: BTreeMap<String, i32>,
    topic_names: BTreeMap<String, Rc<str>>,
    pub links: Vec<Link>,
    pub names: Vec<Rc<str>>,
    /// Each consumer's current generation (its client-side view), for the ownership check.
    pub client_generations: Vec<GroupGeneration>,
    /// Bumped when the group is deleted: a recreated group counts generations from 0 again.
    pub group_incarnation: u32,
    next_correlation: i32,
    /// Who to send the coordinator's answer to, by correlation id.
    pub routes: ByCorrelation<(usize, u32)>,
    /// When each request now in flight was sent, by correlation id.
    pub sent_at: ByCorrelation<i64>,
    pub ledger: Ledger,
    pub counters: Counters,
    /// Something that can change "settled" happened since the last check.
    pub dirty: bool,
    /// Consumers that just took an assignment: their view is compared with the coordinator's.
    pub agreement_checks: Vec<usize>,
    /// Every response's body is kept in the trace (a live run: each is checked against the
    /// one the broker sent).
    pub keep_bodies: bool,
}

impl World {
    pub fn new(seed: u64, group_id: String, topics: BTreeMap<String, i32>) -> World {
        let topic_names = ordered::map(topics.keys().map(|t| (t.clone(), Rc::from(t.as_str()))));
        World {
            now: 0,
            seq: SEQ_BASE,
            front: 0,
            queue: EventQueue::default(),
            rng: Rng::new(seed),
            trace: Trace::default(),
            group_id,
            topics,
            topic_names,
            links: Vec::new(),
            names: Vec::new(),
            client_generations: Vec::new(),
            group_incarnation: 0,
            next_correlation: 0,
            routes: ByCorrelation::default(),
            sent_at: ByCorrelation::default(),
            ledger: Ledger::default(),
            counters: Counters::default(),
            dirty: true,
            agreement_checks: Vec::new(),
            keep_bodies: false,
        }
    }

    /// Takes the message in flight to or from `consumer` with `correlation_id` (`response`: the
    /// coordinator's answer) off the queue, if it is the first in flight on its link that way
    /// (a connection delivers in order). `Err` says why not.
    pub fn take_in_flight(
        &mut self,
        consumer: usize,
        correlation_id: i32,
        response: bool,
    ) -> Result<Pending, Refusal> {
        let mut first_on_link: Option<QueueKey> = None;
        let mut found: Option<QueueKey> = None;
        for (key, pending) in self.queue.iter() {
            let id = match pending {
                Pending::ToBroker {
                    consumer: c,
                    message,
                } if !response && *c == consumer => message.describe().1,
                Pending::ToConsumer {
                    consumer: c,
                    message,
                    ..
                } if response && *c == consumer => message.describe().1,
                _ => continue,
            };
            first_on_link.get_or_insert(key);
            if id == correlation_id {
                found = Some(key);
                break;
            }
        }
        let Some(key) = found else {
            return Err(Refusal::NotInFlight {
                correlation_id,
                response,
            });
        };
        if first_on_link != Some(key) {
            return Err(Refusal::OutOfOrder);
        }
        self.queue.remove(key).ok_or(Refusal::NotInFlight {
            correlation_id,
            response,
        })
    }

    /// Queues `pending` to happen now, before everything else due now (after any queued the
    /// same way before it).
    pub fn schedule_first(&mut self, pending: Pending) {
        self.front += 1;
        self.queue.insert((self.now, self.front), pending);
    }

    /// The key of an event queued normally at `at` (never before now: time only moves
    /// forward).
    fn next_key(&mut self, at: i64) -> QueueKey {
        self.seq += 1;
        (at.max(self.now), self.seq)
    }

    /// Queues `pending` at `at`.
    pub fn schedule(&mut self, at: i64, pending: Pending) {
        let key = self.next_key(at);
        self.queue.insert(key, pending);
    }

    pub fn schedule_timer(&mut self, at: i64, consumer: usize, incarnation: u32, timer: Timer) {
        let pending = Pending::Timer {
            consumer,
            incarnation,
            timer,
        };
        match timer {
            // A request's time-out: a fixed delay from now, and almost never fires (see
            // `EventQueue`'s lanes). Same key, so the same order, as `schedule`.
            Timer::RequestTimeout(_) => {
                let key = self.next_key(at);
                self.queue.insert_after(key.0 - self.now, key, pending);
            }
            _ => self.schedule(at, pending),
        }
    }

    pub fn record(&mut self, kind: TraceKind) {
        self.trace.push(self.now, kind);
    }

    /// [`World::record`] of an entry made only if the trace keeps it (see
    /// [`crate::trace_store::Trace::push_with`]): for the entries every message makes.
    pub fn record_with(&mut self, make: impl FnOnce() -> TraceKind) {
        self.trace.push_with(self.now, make);
    }

    pub fn violation(&mut self, message: String) {
        self.counters.invariant_violations += 1;
        self.record(TraceKind::InvariantViolated { message });
    }

    pub fn mark_dirty(&mut self) {
        self.dirty = true;
    }

    pub fn next_correlation_id(&mut self) -> i32 {
        self.next_correlation = self.next_correlation.wrapping_add(1) & i32::MAX;
        self.next_correlation
    }

    /// The shared name of a topic (topics outside the metadata get one too).
    pub fn topic_name(&mut self, topic: &str) -> Rc<str> {
        if let Some(name) = self.topic_names.get(topic) {
            return name.clone();
        }
        let name: Rc<str> = Rc::from(topic);
        self.topic_names.insert(String::from(topic), name.clone());
        name
    }

    /// The time a message sent now over `consumer`'s link arrives, or why it never does.
    fn transit(&mut self, consumer: usize, up: bool) -> Result<i64, LossReason> {
        let now = self.now;
        let link = &self.links[consumer];
        if link.cut {
            return Err(LossReason::Cut);
        }
        let (latency, jitter, loss) = (
            link.spec.latency_ms,
            link.spec.jitter_ms,
            link.spec.loss_ppm(),
        );
        if self.rng.chance_ppm(loss) {
            return Err(LossReason::Loss);
        }
        let delay = latency + self.rng.upto(jitter);
        let link = &mut self.links[consumer];
        let last = if up {
            &mut link.last_up
        } else {
            &mut link.last_down
        };
        let at = (now + delay).max(*last);
        *last = at;
        Ok(at)
    }

    /// A consumer sends a request to the coordinator's broker. `generation_id` is a member
    /// epoch when the consumer speaks the consumer protocol (`consumer_protocol`).
    pub fn send(
        &mut self,
        consumer: usize,
        incarnation: u32,
        (generation_id, consumer_protocol): (i32, bool),
        member_id: &Rc<str>,
        message: Outgoing,
    ) {
        let (api, correlation_id) = message.describe();
        let name = self.names[consumer].clone();
        self.counters.messages_sent += 1;
        if api == MessageApi::Heartbeat {
            self.counters.heartbeats += 1;
        }
        self.record_with(|| TraceKind::RequestSent {
            consumer: name.clone(),
            api,
            correlation_id,
            generation_id,
            member_id: member_id.clone(),
            request: match &message {
                // Heartbeats and commits are described by the summary; their bodies (most of
                // a long run's messages) are not kept.
                Outgoing::Request(r) if api.keeps_body() => Some(r.clone()),
                _ => None,
            },
            consumer_protocol,
        });
        self.routes.insert(correlation_id, (consumer, incarnation));
        self.sent_at.insert(correlation_id, self.now);
        match self.transit(consumer, true) {
            Ok(at) => self.schedule(at, Pending::ToBroker { consumer, message }),
            Err(reason) => self.lost(name, api, correlation_id, false, reason),
        }
    }

    /// The broker answers a consumer.
    pub fn respond(&mut self, consumer: usize, incarnation: u32, message: Incoming) {
        let (api, correlation_id, error_code) = message.describe();
        let name = self.names[consumer].clone();
        let keep_body = api.keeps_body() || self.keep_bodies;
        self.counters.messages_sent += 1;
        self.record_with(|| TraceKind::ResponseSent {
            consumer: name.clone(),
            api,
            correlation_id,
            error_code,
            error: error_code.name(),
            response: match &message {
                Incoming::Response(r) if keep_body => Some(r.clone()),
                _ => None,
            },
        });
        match self.transit(consumer, false) {
            Ok(at) => self.schedule(
                at,
                Pending::ToConsumer {
                    consumer,
                    incarnation,
                    message,
                },
            ),
            Err(reason) => self.lost(name, api, correlation_id, true, reason),
        }
    }

    pub fn lost(
        &mut self,
        consumer: Rc<str>,
        api: MessageApi,
        correlation_id: i32,
        response: bool,
        reason: LossReason,
    ) {
        self.counters.messages_lost += 1;
        if response || reason != LossReason::ConsumerDown {
            self.sent_at.remove(correlation_id);
        }
        self.record(TraceKind::MessageLost {
            consumer,
            api,
            correlation_id,
            response,
            reason,
        });
    }

    pub fn acquire(&mut self, consumer: usize, generation: GroupGeneration, tp: &Tp) {
        let (names, generations) = (&self.names, &self.client_generations);
        let describe = |c: usize| (String::from(&*names[c]), generations[c]);
        if let Some(v) = self
            .ledger
            .acquire(self.now, consumer, generation, tp, describe)
        {
            self.violation(v);
        }
        self.dirty = true;
    }

    /// Registers a consumer's link and name; returns the name, for the consumer to share (the
    /// trace finds a name it has seen by its address first).
    pub fn add_consumer(&mut self, name: &str, link: LinkSpec) -> Rc<str> {
        let name: Rc<str> = Rc::from(name);
        self.links.push(Link::new(link));
        self.names.push(name.clone());
        self.client_generations.push((self.group_incarnation, -1));
        name
    }

    pub fn release(&mut self, consumer: usize, tp: &Tp) {
        self.ledger.release(self.now, consumer, tp);
        self.dirty = true;
    }
}
