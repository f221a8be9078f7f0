//! A live run's client lane: a real client (kafka-python, librdkafka, KafkaJS, a Java consumer)
//! that `group-broker` served. Nothing of it is simulated. Its requests come in as the broker
//! recorded them (`Action::Inject`), on a link without latency or loss, and what its lane shows
//! (member id, generation or member epoch, state, the partitions it holds) is read off those
//! requests and the coordinator's answers, as a packet capture would show them.
//!
//! What a client does between two requests (when it really stops processing a revoked
//! partition) is not on the wire, so a lane takes no part in the ownership ledger or the
//! agreement checks: "holds" here means "was last given by the coordinator and not yet given
//! up on the wire" (a LeaveGroup, a leave heartbeat, or an error that fences the member).

use super::{Consumer, Generation};
use crate::config::{ConsumerConfig, GroupProtocol};
use crate::consumer::Life;
use crate::scenario::{Application, ConsumerSpec};
use crate::trace::{MemberState, Tp, TraceKind};
use crate::world::{Incoming, Outgoing, World};
use alloc::collections::BTreeSet;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;
use group_coordinator::consumer_group::Uuid;
use group_coordinator::consumer_protocol::{Assignment, Subscription};
use group_coordinator::{ErrorCode, Request, Response};

impl Consumer {
    /// The lane of a real client named `name` (its connection, as the broker names it).
    pub(crate) fn external(index: usize, name: Rc<str>, config: ConsumerConfig) -> Consumer {
        let spec = ConsumerSpec {
            name: String::from(&*name),
            topics: Vec::new(),
            pattern: None,
            config: Default::default(),
            start_ms: 0,
            processing_ms: 0,
            network: None,
            application: None,
        };
        let mut c = Consumer::new(index, name, spec, config, Application::default());
        c.external = true;
        // It is running as far as the run can tell: its requests arrive.
        c.life = Life::Running;
        c
    }

    /// A real client's lane in a live run (see the module's text).
    pub fn is_external(&self) -> bool {
        self.external
    }

    /// The client sends `request` now: what it says about the client (its subscription, that it
    /// joins or leaves) is taken in, and it goes out on the lane's link.
    pub(crate) fn inject(&mut self, w: &mut World, request: Rc<Request>) {
        let mut epoch = self.generation.generation_id;
        match &*request {
            Request::JoinGroup(r) => {
                self.protocol = GroupProtocol::Classic;
                if let Some(topics) = r
                    .protocols
                    .first()
                    .and_then(|p| Subscription::decode(p.metadata.as_slice()).ok())
                    .map(|s| s.topics)
                {
                    self.set_topics(topics);
                }
                self.observe_state(w, MemberState::PreparingRebalance);
            }
            Request::SyncGroup(r) => epoch = r.generation_id,
            Request::Heartbeat(r) => epoch = r.generation_id,
            Request::OffsetCommit(r) => epoch = r.generation_id_or_member_epoch,
            Request::LeaveGroup(_) => {
                // The client gave its partitions up (onPartitionsRevoked) before it said so.
                self.let_go(w, false);
                self.observe_state(w, MemberState::Unjoined);
            }
            Request::ConsumerGroupHeartbeat(r) => {
                self.protocol = GroupProtocol::Consumer;
                epoch = r.member_epoch;
                if let Some(topics) = &r.subscribed_topic_names {
                    self.set_topics(topics.clone());
                }
                if r.member_epoch == 0 {
                    self.observe_state(w, MemberState::Joining);
                } else if r.member_epoch < 0 {
                    self.let_go(w, false);
                    self.observe_state(w, MemberState::Leaving);
                }
            }
            _ => {}
        }
        let consumer_protocol = self.uses_consumer_protocol();
        let member_id = self.member_id.clone();
        w.send(
            self.index,
            self.incarnation,
            (epoch, consumer_protocol),
            &member_id,
            Outgoing::Request(request),
        );
    }

    /// The coordinator's answer reached the client: what it tells the client is taken in.
    pub(crate) fn observe(&mut self, w: &mut World, message: Incoming) {
        let Incoming::Response(response) = message else {
            return;
        };
        match &*response {
            Response::JoinGroup(r) => {
                if !r.member_id.is_empty() {
                    self.observe_generation(w, self.generation.generation_id, &r.member_id);
                }
                if r.error_code == ErrorCode::None {
                    self.observe_generation(w, r.generation_id, &r.member_id);
                    Rc::make_mut(&mut self.generation).protocol_name = r.protocol_name.clone();
                    self.is_leader = r.leader == r.member_id;
                    self.observe_state(w, MemberState::CompletingRebalance);
                } else {
                    self.observe_error(w, r.error_code);
                }
            }
            Response::SyncGroup(r) if r.error_code == ErrorCode::None => {
                match Assignment::decode(r.assignment.as_slice()) {
                    Ok(a) => {
                        let held = super::partitions_of(w, &a);
                        self.take(w, held, false);
                    }
                    // A real client may carry its own assignment format (a custom protocol):
                    // the lane then shows no partitions for it.
                    Err(_) => self.take(w, BTreeSet::new(), false),
                }
                self.observe_state(w, MemberState::Stable);
            }
            Response::SyncGroup(r) => self.observe_error(w, r.error_code),
            Response::Heartbeat(r) => self.observe_error(w, r.error_code),
            Response::OffsetCommit(_) => {}
            Response::LeaveGroup(_) => {
                self.observe_generation(w, -1, "");
                self.is_leader = false;
            }
            Response::ConsumerGroupHeartbeat(r) => {
                if r.error_code != ErrorCode::None {
                    if matches!(
                        r.error_code,
                        ErrorCode::FencedMemberEpoch | ErrorCode::UnknownMemberId
                    ) {
                        self.let_go(w, true);
                        self.observe_state(w, MemberState::Fenced);
                    }
                    return;
                }
                if r.member_epoch < 0 {
                    self.observe_generation(w, r.member_epoch, "");
                    self.observe_state(w, MemberState::Unsubscribed);
                    return;
                }
                let member_id = r
                    .member_id
                    .clone()
                    .unwrap_or_else(|| self.generation.member_id.clone());
                self.observe_generation(w, r.member_epoch, &member_id);
                if let Some(assignment) = &r.assignment {
                    let mut held = BTreeSet::new();
                    for t in &assignment.topic_partitions {
                        // Topic ids are derived from the names (as the broker's metadata gives
                        // them); an id no topic has is left out.
                        let Some(name) = w
                            .topics
                            .keys()
                            .find(|n| Uuid::for_topic_name(n) == t.topic_id)
                            .cloned()
                        else {
                            continue;
                        };
                        let topic = w.topic_name(&name);
                        held.extend(t.partitions.iter().map(|p| (topic.clone(), *p)));
                    }
                    self.take(w, held, true);
                }
                self.observe_state(w, MemberState::Stable);
            }
            _ => {}
        }
    }

    /// An error that tells the client its membership or generation is gone (Kafka's client
    /// gives up its partitions as lost and resets); REBALANCE_IN_PROGRESS only asks it to
    /// rejoin, which its next JoinGroup shows.
    fn observe_error(&mut self, w: &mut World, error: ErrorCode) {
        match error {
            ErrorCode::UnknownMemberId | ErrorCode::FencedInstanceId => {
                self.let_go(w, true);
                self.observe_generation(w, -1, "");
                self.observe_state(w, MemberState::Unjoined);
            }
            ErrorCode::IllegalGeneration => {
                self.let_go(w, true);
                let member_id = self.generation.member_id.clone();
                self.observe_generation(w, -1, &member_id);
                self.observe_state(w, MemberState::Unjoined);
            }
            _ => {}
        }
    }

    fn set_topics(&mut self, mut topics: Vec<String>) {
        group_coordinator::ordered::sort(&mut topics);
        topics.dedup();
        self.topics = topics;
    }

    fn observe_generation(&mut self, w: &mut World, generation_id: i32, member_id: &str) {
        let protocol_name = self.generation.protocol_name.clone();
        self.set_generation(
            w,
            Generation {
                generation_id,
                member_id: String::from(member_id),
                protocol_name,
            },
        );
    }

    /// A state as the wire shows it: recorded like a simulated consumer's, without the Java
    /// client's transition check (a lane infers its states, and real clients differ).
    fn observe_state(&mut self, w: &mut World, to: MemberState) {
        self.record_state(w, to);
    }

    /// The coordinator gave the client `held`: recorded as an assignment (what was added and
    /// what went, from what it held before).
    fn take(&mut self, w: &mut World, held: BTreeSet<Tp>, consumer_protocol: bool) {
        let revoked: Vec<Tp> = self.owned.difference(&held).cloned().collect();
        let added: Vec<Tp> = held.difference(&self.owned).cloned().collect();
        w.record(TraceKind::Assigned {
            consumer: self.name.clone(),
            generation_id: self.generation.generation_id,
            assigned: held.iter().cloned().collect(),
            added: added.into(),
            revoked: revoked.into(),
            listener_ms: 0,
            consumer_protocol,
        });
        self.owned = held;
        self.owned_generation = self.generation.generation_id;
        w.mark_dirty();
    }

    /// The client no longer holds its partitions: given up (`lost: false`, it said so) or lost
    /// (the coordinator fenced it).
    fn let_go(&mut self, w: &mut World, lost: bool) {
        if self.owned.is_empty() {
            return;
        }
        let partitions: Vec<Tp> = core::mem::take(&mut self.owned).into_iter().collect();
        w.record(TraceKind::Revoked {
            consumer: self.name.clone(),
            partitions: partitions.into(),
            lost,
            listener_ms: 0,
        });
        w.mark_dirty();
    }
}
