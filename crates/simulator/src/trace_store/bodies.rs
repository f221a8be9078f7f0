//! The requests and responses the trace keeps, and the partitions of its `Assigned` entries.
//!
//! Most bodies are kept as they were sent: the `Rc` the message travelled in. A consumer-group
//! heartbeat that carries no subscription, no pattern and no owned partitions (all a member
//! sends once it is steady), and its answer without an assignment or an error message, are
//! kept packed instead: their numbers, and their ids as numbers into the trace's names. An
//! hour of 1,000 consumer-protocol consumers keeps some 700,000 pairs; whole (the request's
//! 232-byte enum and its client, group and member ids; the answer and its member id) they were
//! a third of the run's memory (measured in wasm: 564 MB resident, 385 MB packed), and holding
//! the request made its consumer copy it to write the next one. Reading one back makes the same
//! request or response again: nothing a reader sees changes.

use super::{NO_BODY, NO_NAME, NameId, Names, weight};
use alloc::rc::Rc;
use alloc::vec::Vec;
use core::mem::size_of;
use group_coordinator::protocol::{ConsumerGroupHeartbeatRequest, ConsumerGroupHeartbeatResponse};
use group_coordinator::{ErrorCode, Request, Response};

#[derive(Clone, Debug)]
pub(super) struct Bodies {
    pub(super) requests: Vec<KeptRequest>,
    pub(super) responses: Vec<KeptResponse>,
    /// Each `Assigned` entry's lists: a header of their lengths, `(assigned, added)` and
    /// `(revoked, 0)`, then their partitions as (topic's name, partition). Boxed whole, an
    /// eager rebalance's entry (ten partitions in each list) took about 800 bytes natively;
    /// here 256.
    pub(super) partitions: Vec<(NameId, i32)>,
    /// The group id of the last steady heartbeat kept (the next one's, most likely).
    group: NameId,
    /// About the bytes the bodies kept whole hold ([`super::weight`]).
    pub(super) whole_bytes: usize,
}

impl Default for Bodies {
    fn default() -> Self {
        Bodies {
            requests: Vec::new(),
            responses: Vec::new(),
            partitions: Vec::new(),
            group: NO_NAME,
            whole_bytes: 0,
        }
    }
}

#[derive(Clone, Debug)]
pub(super) enum KeptRequest {
    Whole(Rc<Request>),
    Heartbeat(SteadyHeartbeat),
}

#[derive(Clone, Debug)]
pub(super) enum KeptResponse {
    Whole(Rc<Response>),
    Heartbeat(SteadyAnswer),
}

/// A [`ConsumerGroupHeartbeatRequest`] without a subscription, a pattern or partitions.
#[derive(Clone, Copy, Debug)]
pub(super) struct SteadyHeartbeat {
    api_version: i16,
    correlation_id: i32,
    client_id: NameId,
    group_id: NameId,
    member_id: NameId,
    member_epoch: i32,
    rebalance_timeout_ms: i32,
    instance_id: Option<NameId>,
    rack_id: Option<NameId>,
    server_assignor: Option<NameId>,
}

/// A [`ConsumerGroupHeartbeatResponse`] without an error message or an assignment.
#[derive(Clone, Copy, Debug)]
pub(super) struct SteadyAnswer {
    api_version: i16,
    correlation_id: i32,
    throttle_time_ms: i32,
    error_code: ErrorCode,
    member_id: Option<NameId>,
    member_epoch: i32,
    heartbeat_interval_ms: i32,
}

impl KeptRequest {
    /// `guesses`: the names its ids most likely are (its entry's consumer and member id, the
    /// last heartbeat's group), compared before any is looked up by its hash.
    fn of(request: Rc<Request>, names: &mut Names, guesses: [NameId; 3]) -> KeptRequest {
        match &*request {
            Request::ConsumerGroupHeartbeat(r)
                if r.subscribed_topic_names.is_none()
                    && r.subscribed_topic_regex.is_none()
                    && r.topic_partitions.is_none() =>
            {
                let mut id =
                    |s: &Option<alloc::string::String>| s.as_deref().map(|s| names.id_of(s));
                let (instance_id, rack_id, server_assignor) =
                    (id(&r.instance_id), id(&r.rack_id), id(&r.server_assignor));
                KeptRequest::Heartbeat(SteadyHeartbeat {
                    api_version: r.api_version,
                    correlation_id: r.correlation_id,
                    client_id: names.id_among(&r.client_id, guesses),
                    group_id: names.id_among(&r.group_id, guesses),
                    member_id: names.id_among(&r.member_id, guesses),
                    member_epoch: r.member_epoch,
                    rebalance_timeout_ms: r.rebalance_timeout_ms,
                    instance_id,
                    rack_id,
                    server_assignor,
                })
            }
            _ => KeptRequest::Whole(request),
        }
    }

    fn read(&self, names: &Names) -> Rc<Request> {
        let h = match self {
            KeptRequest::Whole(r) => return r.clone(),
            KeptRequest::Heartbeat(h) => h,
        };
        let text = |id: Option<NameId>| id.map(|id| names.text(id));
        Rc::new(Request::ConsumerGroupHeartbeat(
            ConsumerGroupHeartbeatRequest {
                api_version: h.api_version,
                correlation_id: h.correlation_id,
                client_id: names.text(h.client_id),
                group_id: names.text(h.group_id),
                member_id: names.text(h.member_id),
                member_epoch: h.member_epoch,
                instance_id: text(h.instance_id),
                rack_id: text(h.rack_id),
                rebalance_timeout_ms: h.rebalance_timeout_ms,
                subscribed_topic_names: None,
                subscribed_topic_regex: None,
                server_assignor: text(h.server_assignor),
                topic_partitions: None,
            },
        ))
    }
}

impl KeptResponse {
    fn of(response: Rc<Response>, names: &mut Names) -> KeptResponse {
        match &*response {
            Response::ConsumerGroupHeartbeat(r)
                if r.error_message.is_none() && r.assignment.is_none() =>
            {
                KeptResponse::Heartbeat(SteadyAnswer {
                    api_version: r.api_version,
                    correlation_id: r.correlation_id,
                    throttle_time_ms: r.throttle_time_ms,
                    error_code: r.error_code,
                    member_id: r.member_id.as_deref().map(|m| names.id_of(m)),
                    member_epoch: r.member_epoch,
                    heartbeat_interval_ms: r.heartbeat_interval_ms,
                })
            }
            _ => KeptResponse::Whole(response),
        }
    }

    fn read(&self, names: &Names) -> Rc<Response> {
        let a = match self {
            KeptResponse::Whole(r) => return r.clone(),
            KeptResponse::Heartbeat(a) => a,
        };
        Rc::new(Response::ConsumerGroupHeartbeat(
            ConsumerGroupHeartbeatResponse {
                api_version: a.api_version,
                correlation_id: a.correlation_id,
                throttle_time_ms: a.throttle_time_ms,
                error_code: a.error_code,
                error_message: None,
                member_id: a.member_id.map(|m| names.text(m)),
                member_epoch: a.member_epoch,
                heartbeat_interval_ms: a.heartbeat_interval_ms,
                assignment: None,
            },
        ))
    }
}

impl Bodies {
    /// Keeps `request`, sent in an entry naming `entry` (its consumer and member id), at `at`
    /// (an entry recorded again in a replay keeps its place) or at the end; returns where.
    pub(super) fn keep_request(
        &mut self,
        request: Option<Rc<Request>>,
        names: &mut Names,
        entry: [NameId; 2],
        at: Option<u32>,
    ) -> u32 {
        let kept = request.map(|r| KeptRequest::of(r, names, [entry[0], entry[1], self.group]));
        match &kept {
            Some(KeptRequest::Heartbeat(h)) => self.group = h.group_id,
            Some(KeptRequest::Whole(r)) if is_new(at, self.requests.len()) => {
                self.whole_bytes += weight::request(r);
            }
            _ => {}
        }
        put(&mut self.requests, kept, at)
    }

    /// Keeps `response` as [`Bodies::keep_request`] keeps a request.
    pub(super) fn keep_response(
        &mut self,
        response: Option<Rc<Response>>,
        names: &mut Names,
        at: Option<u32>,
    ) -> u32 {
        let kept = response.map(|r| KeptResponse::of(r, names));
        if let Some(KeptResponse::Whole(r)) = &kept
            && is_new(at, self.responses.len())
        {
            self.whole_bytes += weight::response(r);
        }
        put(&mut self.responses, kept, at)
    }

    /// The request kept at `at`, if any, as it was sent.
    pub(super) fn request(&self, at: u32, names: &Names) -> Option<Rc<Request>> {
        kept(&self.requests, at).map(|r| r.read(names))
    }

    /// The response kept at `at`, if any, as it was sent.
    pub(super) fn response(&self, at: u32, names: &Names) -> Option<Rc<Response>> {
        kept(&self.responses, at).map(|r| r.read(names))
    }

    /// About the bytes the bodies hold: their lists, and what those kept whole hold.
    pub(super) fn bytes(&self) -> usize {
        self.requests.capacity() * size_of::<KeptRequest>()
            + self.responses.capacity() * size_of::<KeptResponse>()
            + self.partitions.capacity() * size_of::<(NameId, i32)>()
            + self.whole_bytes
    }

    /// Counts [`Bodies::whole_bytes`] again, and gives back the lists' room (the known future's
    /// bodies were dropped).
    pub(super) fn recount(&mut self) {
        self.requests.shrink_to_fit();
        self.responses.shrink_to_fit();
        self.partitions.shrink_to_fit();
        let requests = self.requests.iter().map(|r| match r {
            KeptRequest::Whole(r) => weight::request(r),
            KeptRequest::Heartbeat(_) => 0,
        });
        let responses = self.responses.iter().map(|r| match r {
            KeptResponse::Whole(r) => weight::response(r),
            KeptResponse::Heartbeat(_) => 0,
        });
        self.whole_bytes = requests.chain(responses).sum();
    }
}

/// Whether a body put at `at` is a new one (not one of a replay, recorded over itself).
fn is_new(at: Option<u32>, len: usize) -> bool {
    at.is_none_or(|i| i == NO_BODY || i as usize >= len)
}

/// Puts `body` at `at` (an entry recorded again in a replay keeps its place) or at the end.
fn put<T>(list: &mut Vec<T>, body: Option<T>, at: Option<u32>) -> u32 {
    let Some(body) = body else {
        return NO_BODY;
    };
    match at.filter(|&i| i != NO_BODY && (i as usize) < list.len()) {
        Some(i) => {
            list[i as usize] = body;
            i
        }
        None => {
            list.push(body);
            (list.len() - 1) as u32
        }
    }
}

/// The body kept at `at`, if any.
fn kept<T>(list: &[T], at: u32) -> Option<&T> {
    (at != NO_BODY).then(|| &list[at as usize])
}
