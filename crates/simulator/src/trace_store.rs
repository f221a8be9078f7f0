//! How the trace is stored: most entries packed in 32 bytes, names by number.
//!
//! An hour of 1,000 consumers records 12 million entries, and 10 million of them are the four
//! steps of a message (sent, delivered; answered, delivered) or a client's change of state. As
//! [`TraceEvent`]s they took 96 bytes each natively and 64 in wasm: 1.2 GB of the run's 1.9 GB,
//! and the time to fault that memory in was a third of the run's (measured natively: 6.3 s of
//! system time in a 14 s run). Packed, such an entry keeps its consumer and member id as
//! numbers into one table of the run's names, and its request or response as a number into a
//! list of the bodies kept; every other kind of entry is kept whole, boxed. [`Trace::get`] and
//! [`Trace::iter_from`] unpack an entry into the same [`TraceEvent`] that was recorded: nothing a
//! reader sees changes.

use crate::trace::{MemberState, MessageApi, TraceEvent, TraceKind};
use alloc::boxed::Box;
use alloc::rc::Rc;
use alloc::vec::Vec;
use group_coordinator::hashed::HashedMap;
use group_coordinator::{ErrorCode, Request, Response};

/// A name of the run (a consumer's, a member id), by its place in [`Names::list`].
type NameId = u32;

/// No request or response kept with the entry.
const NO_BODY: u32 = u32::MAX;

/// An entry as stored: the common kinds packed, the others boxed.
#[derive(Clone, Debug)]
enum Packed {
    RequestSent {
        consumer: NameId,
        member_id: NameId,
        correlation_id: i32,
        generation_id: i32,
        request: u32,
        api: MessageApi,
        consumer_protocol: bool,
    },
    RequestDelivered {
        consumer: NameId,
        correlation_id: i32,
        api: MessageApi,
    },
    ResponseSent {
        consumer: NameId,
        correlation_id: i32,
        response: u32,
        error_code: ErrorCode,
        api: MessageApi,
    },
    ResponseDelivered {
        consumer: NameId,
        correlation_id: i32,
        error_code: ErrorCode,
        api: MessageApi,
    },
    ClientState {
        consumer: NameId,
        from: MemberState,
        to: MemberState,
    },
    Whole(Box<TraceKind>),
}

#[derive(Clone, Debug)]
struct Stored {
    at_ms: i64,
    entry: Packed,
}

// What the packing is for: keep it so.
const _: () = assert!(core::mem::size_of::<Stored>() <= 32);

/// The run's names, each kept once. Recording looks a name up at almost every entry, so the
/// last names seen are found by their address first ([`Names::recent`]); an address is only
/// trusted when it is the table's own copy of the name, which the table keeps alive, so it can
/// never be another string's later.
#[derive(Clone, Debug)]
struct Names {
    list: Vec<Rc<str>>,
    by_name: HashedMap<Rc<str>, NameId>,
    /// (address, number) of recently seen names, by a few bits of the address. Which slot a
    /// name takes depends on where the allocator put it, but only how fast a name is found
    /// does: the number found is the same.
    recent: Box<[(usize, NameId)]>,
}

/// Room for every consumer's name and member id in a large world (1,000 consumers, two names
/// each): with 256 slots most lookups of such a run missed and hashed the name instead (in
/// Node's profile of an hour of 1,000 consumers, `Names::id` went from 3.9% to 2.4%).
const RECENT: usize = 4096;

impl Default for Names {
    fn default() -> Self {
        Names {
            list: Vec::new(),
            by_name: HashedMap::default(),
            recent: alloc::vec![(0, 0); RECENT].into_boxed_slice(),
        }
    }
}

impl Names {
    fn id(&mut self, name: &Rc<str>) -> NameId {
        let address = Rc::as_ptr(name) as *const u8 as usize;
        let slot = (address >> 4) % RECENT;
        let (seen, id) = self.recent[slot];
        // (An `Rc` is never at address 0, so an empty slot matches no name.)
        if seen == address {
            return id;
        }
        let id = match self.by_name.get(&**name) {
            Some(&id) => id,
            None => {
                let id = self.list.len() as NameId;
                self.list.push(name.clone());
                self.by_name.insert(name.clone(), id);
                id
            }
        };
        if Rc::ptr_eq(&self.list[id as usize], name) {
            self.recent[slot] = (address, id);
        }
        id
    }

    fn get(&self, id: NameId) -> Rc<str> {
        self.list[id as usize].clone()
    }
}

/// The requests and responses the trace keeps (JoinGroup, SyncGroup, LeaveGroup and the
/// consumer protocol's heartbeats), in the order recorded.
#[derive(Clone, Debug, Default)]
struct Bodies {
    requests: Vec<Rc<Request>>,
    responses: Vec<Rc<Response>>,
}

/// Puts `body` at `at` (an entry recorded again in a replay keeps its place) or at the end.
fn put<T>(list: &mut Vec<Rc<T>>, body: Option<Rc<T>>, at: Option<u32>) -> u32 {
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

fn body<T>(list: &[Rc<T>], at: u32) -> Option<Rc<T>> {
    (at != NO_BODY).then(|| list[at as usize].clone())
}

/// The recorded trace: appended to, never changed. Stored in fixed-size chunks so a long run
/// never copies (or doubles) one huge buffer as it grows — what keeps an hour of 1,000
/// consumers within wasm's 4 GiB.
///
/// A run that goes back in time ([`crate::Player`]) rewinds the trace to an earlier length and
/// records the same entries again (the run is deterministic); the entries past the length are
/// kept meanwhile (the run's known future), so going forward again can jump to a later
/// checkpoint without losing them. Only [`Trace::forget_future`] (a fork) drops them.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    chunks: Vec<Vec<Stored>>,
    names: Names,
    bodies: Bodies,
    /// Entries recorded so far (what the trace is).
    len: usize,
    /// Entries stored: `len` plus the known future.
    stored: usize,
    /// Entries are counted, not kept (`Simulation::keep_trace(false)`): a run wanted for its
    /// metrics only, whose millions of entries would otherwise fill the memory.
    counted_only: bool,
}

const CHUNK: usize = 1 << 14;

impl Trace {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Records `kind` at `at_ms`, as entry [`Trace::len`].
    pub fn push(&mut self, at_ms: i64, kind: TraceKind) {
        if self.counted_only {
            drop(kind);
            self.len += 1;
            self.stored = self.len;
            return;
        }
        if self.len < self.stored {
            // Recording the known future again: the same entry, written over itself, its body
            // in the same place.
            let (chunk, i) = (self.len / CHUNK, self.len % CHUNK);
            let (request, response) = match &self.chunks[chunk][i].entry {
                Packed::RequestSent { request, .. } => (Some(*request), None),
                Packed::ResponseSent { response, .. } => (None, Some(*response)),
                _ => (None, None),
            };
            let entry = self.pack(kind, request, response);
            self.chunks[chunk][i] = Stored { at_ms, entry };
            self.len += 1;
            return;
        }
        let entry = self.pack(kind, None, None);
        if self.chunks.last().is_none_or(|c| c.len() == CHUNK) {
            self.chunks.push(Vec::with_capacity(CHUNK));
        }
        if let Some(chunk) = self.chunks.last_mut() {
            chunk.push(Stored { at_ms, entry });
            self.len += 1;
            self.stored += 1;
        }
    }

    fn pack(
        &mut self,
        kind: TraceKind,
        request_at: Option<u32>,
        response_at: Option<u32>,
    ) -> Packed {
        match kind {
            TraceKind::RequestSent {
                consumer,
                api,
                correlation_id,
                generation_id,
                member_id,
                request,
                consumer_protocol,
            } => Packed::RequestSent {
                consumer: self.names.id(&consumer),
                member_id: self.names.id(&member_id),
                correlation_id,
                generation_id,
                request: put(&mut self.bodies.requests, request, request_at),
                api,
                consumer_protocol,
            },
            TraceKind::RequestDelivered {
                consumer,
                api,
                correlation_id,
            } => Packed::RequestDelivered {
                consumer: self.names.id(&consumer),
                correlation_id,
                api,
            },
            // The error's name is always its code's; an entry where it is not is kept whole.
            TraceKind::ResponseSent {
                consumer,
                api,
                correlation_id,
                error_code,
                error,
                response,
            } if error == error_code.name() => Packed::ResponseSent {
                consumer: self.names.id(&consumer),
                correlation_id,
                response: put(&mut self.bodies.responses, response, response_at),
                error_code,
                api,
            },
            TraceKind::ResponseDelivered {
                consumer,
                api,
                correlation_id,
                error_code,
                error,
            } if error == error_code.name() => Packed::ResponseDelivered {
                consumer: self.names.id(&consumer),
                correlation_id,
                error_code,
                api,
            },
            TraceKind::ClientState { consumer, from, to } => Packed::ClientState {
                consumer: self.names.id(&consumer),
                from,
                to,
            },
            other => Packed::Whole(Box::new(other)),
        }
    }

    fn unpack(&self, index: usize, stored: &Stored) -> TraceEvent {
        let names = &self.names;
        let kind = match &stored.entry {
            &Packed::RequestSent {
                consumer,
                member_id,
                correlation_id,
                generation_id,
                request,
                api,
                consumer_protocol,
            } => TraceKind::RequestSent {
                consumer: names.get(consumer),
                api,
                correlation_id,
                generation_id,
                member_id: names.get(member_id),
                request: body(&self.bodies.requests, request),
                consumer_protocol,
            },
            &Packed::RequestDelivered {
                consumer,
                correlation_id,
                api,
            } => TraceKind::RequestDelivered {
                consumer: names.get(consumer),
                api,
                correlation_id,
            },
            &Packed::ResponseSent {
                consumer,
                correlation_id,
                response,
                error_code,
                api,
            } => TraceKind::ResponseSent {
                consumer: names.get(consumer),
                api,
                correlation_id,
                error_code,
                error: error_code.name(),
                response: body(&self.bodies.responses, response),
            },
            &Packed::ResponseDelivered {
                consumer,
                correlation_id,
                error_code,
                api,
            } => TraceKind::ResponseDelivered {
                consumer: names.get(consumer),
                api,
                correlation_id,
                error_code,
                error: error_code.name(),
            },
            &Packed::ClientState { consumer, from, to } => TraceKind::ClientState {
                consumer: names.get(consumer),
                from,
                to,
            },
            Packed::Whole(kind) => (**kind).clone(),
        };
        TraceEvent {
            index,
            at_ms: stored.at_ms,
            kind,
        }
    }

    /// Entry `index` as stored, when it is one of the trace's (not of its known future).
    fn stored(&self, index: usize) -> Option<&Stored> {
        if index >= self.len {
            return None;
        }
        self.chunks.get(index / CHUNK)?.get(index % CHUNK)
    }

    /// Entry `index`, as it was recorded.
    pub fn get(&self, index: usize) -> Option<TraceEvent> {
        Some(self.unpack(index, self.stored(index)?))
    }

    /// When entry `index` happened (without unpacking it).
    pub fn at_ms(&self, index: usize) -> Option<i64> {
        Some(self.stored(index)?.at_ms)
    }

    /// To the first `len` entries (at most what is stored): back, keeping the rest as the
    /// known future, or forward into it (a run restored to a later checkpoint).
    pub fn rewind(&mut self, len: usize) {
        self.len = len.min(self.stored);
    }

    /// Keeps no entry from now on, and drops the ones kept: [`Trace::len`] still counts them.
    pub fn count_only(&mut self) {
        self.chunks = Vec::new();
        self.bodies = Bodies::default();
        self.names = Names::default();
        self.stored = self.len;
        self.counted_only = true;
    }

    /// Whether entries are counted only ([`Trace::count_only`]).
    pub fn is_counted_only(&self) -> bool {
        self.counted_only
    }

    /// Drops the known future (the run forked: it will not happen), and the bodies only it
    /// kept (bodies are kept in the order of their entries).
    pub fn forget_future(&mut self) {
        self.chunks.truncate(self.len.div_ceil(CHUNK));
        if let Some(last) = self.chunks.last_mut() {
            last.truncate(self.len - (self.len - 1) / CHUNK * CHUNK);
        }
        self.stored = self.len;
        // Nothing to look for in a list that is empty.
        let mut requests = self.bodies.requests.is_empty().then_some(0);
        let mut responses = self.bodies.responses.is_empty().then_some(0);
        for i in (0..self.len).rev() {
            match self.stored(i).map(|s| &s.entry) {
                Some(Packed::RequestSent { request, .. }) if *request != NO_BODY => {
                    requests = requests.or(Some(*request as usize + 1));
                }
                Some(Packed::ResponseSent { response, .. }) if *response != NO_BODY => {
                    responses = responses.or(Some(*response as usize + 1));
                }
                _ => {}
            }
            if requests.is_some() && responses.is_some() {
                break;
            }
        }
        self.bodies.requests.truncate(requests.unwrap_or(0));
        self.bodies.responses.truncate(responses.unwrap_or(0));
    }

    /// Entries from `from` on, in order.
    pub fn iter_from(&self, from: usize) -> impl Iterator<Item = TraceEvent> + '_ {
        let (chunk, offset) = (from / CHUNK, from % CHUNK);
        self.chunks
            .iter()
            .skip(chunk)
            .enumerate()
            .flat_map(move |(i, c)| c.iter().skip(if i == 0 { offset } else { 0 }))
            .take(self.len.saturating_sub(from))
            .enumerate()
            .map(move |(i, stored)| self.unpack(from + i, stored))
    }

    pub fn iter(&self) -> impl Iterator<Item = TraceEvent> + '_ {
        self.iter_from(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{Lifecycle, MemberState};
    use alloc::format;
    use alloc::string::String;
    use group_coordinator::protocol::{HeartbeatRequest, HeartbeatResponse};

    fn name(s: &str) -> Rc<str> {
        Rc::from(s)
    }

    /// An entry as a reader sees it: its JSON (entries have no `PartialEq`).
    fn seen(e: &TraceEvent) -> String {
        serde_json::to_string(e).unwrap()
    }

    /// Entries of every packed kind, and some kept whole, with bodies of `tag`.
    fn entries(tag: i32) -> Vec<TraceKind> {
        let (a, b) = (name("consumer-a"), name("consumer-b"));
        let request = Rc::new(Request::Heartbeat(HeartbeatRequest {
            correlation_id: tag,
            member_id: "m-1".into(),
            ..Default::default()
        }));
        let response = Rc::new(Response::Heartbeat(HeartbeatResponse {
            correlation_id: tag,
            error_code: ErrorCode::RebalanceInProgress,
            ..Default::default()
        }));
        alloc::vec![
            TraceKind::Lifecycle {
                consumer: a.clone(),
                what: Lifecycle::Started,
            },
            TraceKind::RequestSent {
                consumer: a.clone(),
                api: MessageApi::JoinGroup,
                correlation_id: tag,
                generation_id: -1,
                member_id: name("m-1"),
                request: Some(request),
                consumer_protocol: false,
            },
            TraceKind::RequestSent {
                consumer: b.clone(),
                api: MessageApi::Heartbeat,
                correlation_id: tag + 1,
                generation_id: 7,
                member_id: name(""),
                request: None,
                consumer_protocol: true,
            },
            TraceKind::RequestDelivered {
                consumer: a.clone(),
                api: MessageApi::JoinGroup,
                correlation_id: tag,
            },
            TraceKind::ResponseSent {
                consumer: a.clone(),
                api: MessageApi::JoinGroup,
                correlation_id: tag,
                error_code: ErrorCode::RebalanceInProgress,
                error: ErrorCode::RebalanceInProgress.name(),
                response: Some(response),
            },
            TraceKind::ResponseSent {
                consumer: b.clone(),
                api: MessageApi::Heartbeat,
                correlation_id: tag + 1,
                error_code: ErrorCode::Other(-7),
                error: ErrorCode::Other(-7).name(),
                response: None,
            },
            // An error text that is not its code's name: kept whole, so kept as it was.
            TraceKind::ResponseDelivered {
                consumer: a.clone(),
                api: MessageApi::JoinGroup,
                correlation_id: tag,
                error_code: ErrorCode::None,
                error: "something else",
            },
            TraceKind::ResponseDelivered {
                consumer: b.clone(),
                api: MessageApi::Heartbeat,
                correlation_id: tag + 1,
                error_code: ErrorCode::UnknownMemberId,
                error: ErrorCode::UnknownMemberId.name(),
            },
            TraceKind::ClientState {
                consumer: b,
                from: MemberState::Stable,
                to: MemberState::PreparingRebalance,
            },
        ]
    }

    fn record(trace: &mut Trace, kinds: Vec<TraceKind>) -> Vec<String> {
        kinds
            .into_iter()
            .map(|kind| {
                let at_ms = 1_000 * trace.len() as i64;
                let index = trace.len();
                let event = TraceEvent {
                    index,
                    at_ms,
                    kind: kind.clone(),
                };
                trace.push(at_ms, kind);
                seen(&event)
            })
            .collect()
    }

    fn read(trace: &Trace) -> Vec<String> {
        trace.iter().map(|e| seen(&e)).collect()
    }

    #[test]
    fn every_entry_reads_back_as_it_was_recorded() {
        let mut trace = Trace::default();
        let mut expected = record(&mut trace, entries(10));
        expected.extend(record(&mut trace, entries(20)));
        assert_eq!(read(&trace), expected);
        for (i, e) in expected.iter().enumerate() {
            assert_eq!(&seen(&trace.get(i).unwrap()), e);
            assert_eq!(trace.at_ms(i), Some(1_000 * i as i64));
        }
        assert!(trace.get(expected.len()).is_none());
        assert_eq!(read_from(&trace, 5), expected[5..]);
        // Each name once, whichever allocation it came in.
        assert_eq!(trace.names.list.len(), 4);
        assert_eq!(trace.bodies.requests.len(), 2);
        assert_eq!(trace.bodies.responses.len(), 2);
    }

    fn read_from(trace: &Trace, from: usize) -> Vec<String> {
        trace.iter_from(from).map(|e| seen(&e)).collect()
    }

    /// A name's address is trusted only when it is the table's own copy: a name freed and
    /// another allocated in its place must not be taken for it.
    #[test]
    fn a_freed_names_address_is_not_taken_for_the_next_name() {
        let mut trace = Trace::default();
        let mut expected = Vec::new();
        for i in 0..2_000 {
            // A fresh allocation each time, dropped after the entry: the allocator hands the
            // same addresses out again.
            let consumer: Rc<str> = Rc::from(format!("consumer-{}", i % 37).as_str());
            expected.extend(record(
                &mut trace,
                alloc::vec![TraceKind::RequestDelivered {
                    consumer,
                    api: MessageApi::Heartbeat,
                    correlation_id: i,
                }],
            ));
        }
        assert_eq!(read(&trace), expected);
        assert_eq!(trace.names.list.len(), 37);
    }

    #[test]
    fn a_replay_writes_over_its_entries_and_their_bodies_and_a_fork_drops_the_future() {
        let mut trace = Trace::default();
        let first = record(&mut trace, entries(10));
        let second = record(&mut trace, entries(20));
        let all: Vec<String> = first.iter().chain(&second).cloned().collect();
        // Back to the end of the first half, and the second recorded again: same entries, no
        // new bodies.
        trace.rewind(first.len());
        assert_eq!(read(&trace), first);
        assert_eq!(record(&mut trace, entries(20)), second);
        assert_eq!(read(&trace), all);
        assert_eq!(trace.bodies.requests.len(), 2);
        // Back again, and a different future: the fork drops the old one and its bodies.
        trace.rewind(first.len());
        trace.forget_future();
        assert_eq!(read(&trace), first);
        assert_eq!(trace.bodies.requests.len(), 1);
        assert_eq!(trace.bodies.responses.len(), 1);
        let third = record(&mut trace, entries(30));
        assert_eq!(read(&trace)[first.len()..], third);
        assert!(
            read(&trace)
                .iter()
                .any(|e| e.contains("\"correlationId\":30"))
        );
    }

    #[test]
    fn a_counted_trace_keeps_nothing() {
        let mut trace = Trace::default();
        record(&mut trace, entries(10));
        trace.count_only();
        record(&mut trace, entries(20));
        assert_eq!(trace.len(), 18);
        assert!(trace.get(0).is_none() && trace.iter().next().is_none());
        assert!(trace.names.list.is_empty() && trace.bodies.requests.is_empty());
    }
}
