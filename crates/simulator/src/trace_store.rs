//! How the trace is stored: most entries packed in 32 bytes, names by number.
//!
//! An hour of 1,000 consumers records 12 million entries, and 10 million of them are the four
//! steps of a message (sent, delivered; answered, delivered) or a client's change of state. As
//! [`TraceEvent`]s they took 96 bytes each natively and 64 in wasm: 1.2 GB of the run's 1.9 GB,
//! and the time to fault that memory in was a third of the run's (measured natively: 6.3 s of
//! system time in a 14 s run). Packed, such an entry keeps its consumer and member id as
//! numbers into one table of the run's names, and its request or response as a number into a
//! list of the bodies kept. So are the coordinator's commonest events: with the consumer
//! protocol every heartbeat re-arms its member's session timer, and the event of it (a boxed
//! entry of three strings) was a ninth of the trace's entries; kept whole, 100 consumers' hour
//! took 0.30-0.37 s natively, packed 0.27-0.30. Every other kind of entry is kept whole, boxed. [`Trace::get`] and
//! [`Trace::iter_from`] unpack an entry into the same [`TraceEvent`] that was recorded: nothing a
//! reader sees changes.

use crate::chunked::Chunked;
use crate::trace::{MemberState, MessageApi, Tp, TraceEvent, TraceKind};
use alloc::boxed::Box;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;
use bodies::Bodies;
use core::mem::size_of;
use group_coordinator::consumer_group::reconcile::MemberState as ConsumerMemberState;
use group_coordinator::event::EventKind;
use group_coordinator::hashed::HashedMap;
use group_coordinator::{Api, ErrorCode, TimerKey, TimerKeyRef};

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
    /// A consumer's new assignment: its three lists of partitions kept in
    /// [`Bodies::partitions`] from `partitions` on.
    Assigned {
        consumer: NameId,
        generation_id: i32,
        partitions: u32,
        listener_ms: i64,
        consumer_protocol: bool,
    },
    RejoinRequested {
        consumer: NameId,
        reason: &'static str,
    },
    // The coordinator's commonest events: a timer armed (every consumer-protocol heartbeat
    // re-arms its member's session), a classic JoinGroup or SyncGroup response parked, a
    // consumer-protocol member's epoch or state moved.
    TimerScheduled {
        key: TimerKind,
        group: NameId,
        /// `NO_NAME` for a key with no member.
        member: NameId,
        deadline_ms: i64,
    },
    ResponseParked {
        member: NameId,
        correlation_id: i32,
        api: Api,
    },
    ConsumerMemberUpdated {
        member: NameId,
        member_epoch: i32,
        previous_member_epoch: i32,
        state: ConsumerMemberState,
    },
    Whole(Box<TraceKind>),
}

/// No name kept with the entry.
const NO_NAME: NameId = NameId::MAX;

/// Which [`TimerKey`] a packed [`Packed::TimerScheduled`] is (its names kept apart).
#[derive(Clone, Copy, Debug)]
enum TimerKind {
    Join,
    Sync,
    Heartbeat,
    OffsetsExpiration,
    ConsumerSession,
    ConsumerRebalance,
    ConsumerJoin,
    ConsumerSync,
    ConsumerRegexRefresh,
}

impl TimerKind {
    /// The key's kind, its group and its member (if it has one).
    fn of(key: &TimerKey) -> (TimerKind, &str, Option<&str>) {
        match key.borrowed() {
            TimerKeyRef::Join(g) => (TimerKind::Join, g, None),
            TimerKeyRef::Sync(g) => (TimerKind::Sync, g, None),
            TimerKeyRef::Heartbeat(g, m) => (TimerKind::Heartbeat, g, Some(m)),
            TimerKeyRef::OffsetsExpiration(g) => (TimerKind::OffsetsExpiration, g, None),
            TimerKeyRef::ConsumerSession(g, m) => (TimerKind::ConsumerSession, g, Some(m)),
            TimerKeyRef::ConsumerRebalance(g, m) => (TimerKind::ConsumerRebalance, g, Some(m)),
            TimerKeyRef::ConsumerJoin(g, m) => (TimerKind::ConsumerJoin, g, Some(m)),
            TimerKeyRef::ConsumerSync(g, m) => (TimerKind::ConsumerSync, g, Some(m)),
            TimerKeyRef::ConsumerRegexRefresh(g) => (TimerKind::ConsumerRegexRefresh, g, None),
        }
    }

    fn key(self, group: String, member: String) -> TimerKey {
        match self {
            TimerKind::Join => TimerKey::Join(group),
            TimerKind::Sync => TimerKey::Sync(group),
            TimerKind::Heartbeat => TimerKey::Heartbeat(group, member),
            TimerKind::OffsetsExpiration => TimerKey::OffsetsExpiration(group),
            TimerKind::ConsumerSession => TimerKey::ConsumerSession(group, member),
            TimerKind::ConsumerRebalance => TimerKey::ConsumerRebalance(group, member),
            TimerKind::ConsumerJoin => TimerKey::ConsumerJoin(group, member),
            TimerKind::ConsumerSync => TimerKey::ConsumerSync(group, member),
            TimerKind::ConsumerRegexRefresh => TimerKey::ConsumerRegexRefresh(group),
        }
    }
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
#[derive(Clone, Debug, Default)]
struct Names {
    list: Vec<Rc<str>>,
    by_name: HashedMap<Rc<str>, NameId>,
    /// (address, number) of recently seen names, by a few bits of the address. Which slot a
    /// name takes depends on where the allocator put it, but only how fast a name is found
    /// does: the number found is the same. Empty until the first lookup: a trace made and
    /// dropped (a checkpoint takes the world's trace out and puts it back) allocates nothing.
    recent: Vec<(usize, NameId)>,
}

/// Room for every consumer's name and member id in a large world (1,000 consumers, two names
/// each, and a member id more at each restart), about 8 slots a name: a slot holds one name,
/// so names whose slots collide miss each other's. Measured over an hour of 1,000 classic
/// consumers (14 million lookups): 256 slots, most missed; 4,096 slots, 21% missed; 16,384
/// (256 KB), 5.4% (and 6.8-7.1 -> 6.3-6.6 s of user time natively).
const RECENT: usize = 1 << RECENT_BITS;
const RECENT_BITS: u32 = 14;

impl Names {
    fn id(&mut self, name: &Rc<str>) -> NameId {
        let address = Rc::as_ptr(name) as *const u8 as usize;
        // The slot: the address's bits mixed (Fibonacci hashing), so that no run of them (low
        // bits the allocator's alignment fixes, high bits all names share) decides it alone.
        let slot =
            ((address as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - RECENT_BITS)) as usize;
        if self.recent.is_empty() {
            self.recent = alloc::vec![(0, 0); RECENT];
        }
        let (seen, id) = self.recent[slot];
        // (An `Rc` is never at address 0, so an empty slot matches no name.)
        if seen == address {
            return id;
        }
        let id = match self.by_name.get(&**name) {
            Some(&id) => id,
            None => self.insert(name.clone()),
        };
        if Rc::ptr_eq(&self.list[id as usize], name) {
            self.recent[slot] = (address, id);
        }
        id
    }

    /// The number of a name given as text (a coordinator event's: its own copy, never seen
    /// before by address, so found by its hash).
    fn id_of(&mut self, name: &str) -> NameId {
        match self.by_name.get(name) {
            Some(&id) => id,
            None => self.insert(Rc::from(name)),
        }
    }

    /// [`Names::id_of`] of a name that is likely one of `guesses` (names already numbered):
    /// compared with each first, it is found without hashing it.
    fn id_among(&mut self, name: &str, guesses: [NameId; 3]) -> NameId {
        let known = |id: NameId| self.list.get(id as usize).is_some_and(|n| **n == *name);
        match guesses.into_iter().find(|&id| known(id)) {
            Some(id) => id,
            None => self.id_of(name),
        }
    }

    /// Adds a name not in the table yet.
    fn insert(&mut self, name: Rc<str>) -> NameId {
        let id = self.list.len() as NameId;
        self.list.push(name.clone());
        self.by_name.insert(name, id);
        id
    }

    fn get(&self, id: NameId) -> Rc<str> {
        self.list[id as usize].clone()
    }

    /// Name `id` as text (empty for [`NO_NAME`]).
    fn text(&self, id: NameId) -> String {
        match self.list.get(id as usize) {
            Some(name) => String::from(&**name),
            None => String::new(),
        }
    }
}

fn coordinator(event: EventKind) -> TraceKind {
    TraceKind::Coordinator { event }
}

impl Packed {
    /// Where the entry keeps its body or partitions, if it keeps any.
    fn kept_at(&self) -> Option<u32> {
        match *self {
            Packed::RequestSent { request: at, .. }
            | Packed::ResponseSent { response: at, .. }
            | Packed::Assigned { partitions: at, .. } => Some(at),
            _ => None,
        }
    }
}

/// Keeps an `Assigned` entry's three lists at `at` (an entry recorded again in a replay: the
/// same lists in the same place) or at the end; returns where.
fn put_partitions(
    kept: &mut Vec<(NameId, i32)>,
    names: &mut Names,
    lists: [&[Tp]; 3],
    at: Option<u32>,
) -> u32 {
    let header = [
        (lists[0].len() as NameId, lists[1].len() as i32),
        (lists[2].len() as NameId, 0),
    ];
    let len = 2 + lists.iter().map(|l| l.len()).sum::<usize>();
    let entries = header.into_iter().chain(
        lists
            .into_iter()
            .flatten()
            .map(|(topic, p)| (names.id(topic), *p)),
    );
    match at.map(|a| a as usize) {
        Some(a) if a + len <= kept.len() && kept[a..a + 2] == header => {
            for (slot, entry) in kept[a..a + len].iter_mut().zip(entries) {
                *slot = entry;
            }
            a as u32
        }
        _ => {
            let a = kept.len();
            kept.extend(entries);
            a as u32
        }
    }
}

/// The lengths of the three lists an `Assigned` entry keeps at `at` (its header).
fn list_lengths(kept: &[(NameId, i32)], at: u32) -> [usize; 3] {
    let header = &kept[at as usize..];
    [
        header[0].0 as usize,
        header[0].1 as usize,
        header[1].0 as usize,
    ]
}

/// The three lists an `Assigned` entry keeps at `at`.
fn read_partitions(kept: &[(NameId, i32)], names: &Names, at: u32) -> [Box<[Tp]>; 3] {
    let lens = list_lengths(kept, at);
    let kept = &kept[at as usize..];
    let mut from = 2;
    lens.map(|n| {
        let list = kept[from..from + n]
            .iter()
            .map(|&(topic, p)| (names.get(topic), p))
            .collect();
        from += n;
        list
    })
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
    chunks: Chunked<Stored, CHUNK>,
    names: Names,
    bodies: Bodies,
    /// Entries recorded so far (what the trace is).
    len: usize,
    /// Entries stored: `len` plus the known future.
    stored: usize,
    /// Entries are counted, not kept (`Simulation::keep_trace(false)`): a run wanted for its
    /// metrics only, whose millions of entries would otherwise fill the memory.
    counted_only: bool,
    /// Entries stored boxed whole ([`Packed::Whole`]).
    whole: usize,
}

const CHUNK: usize = 1 << 14;

/// About the bytes of an entry boxed whole: its [`TraceKind`] and the strings it names.
const WHOLE_BYTES: usize = size_of::<TraceKind>() + 96;
/// About the bytes of a name in the trace's table: its text, its `Rc`, its place in the map.
const NAME_BYTES: usize = 96;

impl Trace {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// [`Trace::push`] of an entry made only if it is kept: a run that only counts its entries
    /// (a comparison's, metrics only) does not make the ones it would drop (each message's
    /// entries, four per request and its response: measured in wasm, "Your group"'s static
    /// option of 300 consumers, 0.66-0.67 -> 0.62-0.65 s).
    pub fn push_with(&mut self, at_ms: i64, make: impl FnOnce() -> TraceKind) {
        if self.counted_only {
            self.count_one();
        } else {
            self.push(at_ms, make());
        }
    }

    /// One more entry, counted only.
    fn count_one(&mut self) {
        self.count_more(1);
    }

    /// Counts `n` entries made and dropped elsewhere (a metrics-only run's coordinator timer
    /// events: see `Simulation::keep_trace`). Only while entries are counted only.
    pub fn count_more(&mut self, n: u64) {
        if self.counted_only && n > 0 {
            self.len = self
                .len
                .saturating_add(usize::try_from(n).unwrap_or(usize::MAX));
            self.stored = self.len;
        }
    }

    /// Records `kind` at `at_ms`, as entry [`Trace::len`].
    pub fn push(&mut self, at_ms: i64, kind: TraceKind) {
        if self.counted_only {
            drop(kind);
            self.count_one();
            return;
        }
        if self.len < self.stored {
            // Recording the known future again: the same entry, written over itself, its body
            // in the same place.
            let kept_at = self.chunks.get(self.len).and_then(|s| s.entry.kept_at());
            let entry = self.pack(kind, kept_at);
            if let Some(stored) = self.chunks.get_mut(self.len) {
                *stored = Stored { at_ms, entry };
            }
            self.len += 1;
            return;
        }
        let entry = self.pack(kind, None);
        if let Packed::Whole(_) = entry {
            self.whole += 1;
        }
        self.chunks.push(Stored { at_ms, entry });
        self.len += 1;
        self.stored += 1;
    }

    /// `kind` packed; `kept_at`: where the entry it is recorded over (a replay's) kept its body
    /// or partitions, to keep them there.
    fn pack(&mut self, kind: TraceKind, kept_at: Option<u32>) -> Packed {
        match kind {
            TraceKind::RequestSent {
                consumer,
                api,
                correlation_id,
                generation_id,
                member_id,
                request,
                consumer_protocol,
            } => {
                let (consumer, member_id) = (self.names.id(&consumer), self.names.id(&member_id));
                let request = self.bodies.keep_request(
                    request,
                    &mut self.names,
                    [consumer, member_id],
                    kept_at,
                );
                Packed::RequestSent {
                    consumer,
                    member_id,
                    correlation_id,
                    generation_id,
                    request,
                    api,
                    consumer_protocol,
                }
            }
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
                response: self
                    .bodies
                    .keep_response(response, &mut self.names, kept_at),
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
            TraceKind::Assigned {
                consumer,
                generation_id,
                assigned,
                added,
                revoked,
                listener_ms,
                consumer_protocol,
            } => Packed::Assigned {
                consumer: self.names.id(&consumer),
                generation_id,
                partitions: put_partitions(
                    &mut self.bodies.partitions,
                    &mut self.names,
                    [&assigned, &added, &revoked],
                    kept_at,
                ),
                listener_ms,
                consumer_protocol,
            },
            TraceKind::RejoinRequested { consumer, reason } => Packed::RejoinRequested {
                consumer: self.names.id(&consumer),
                reason,
            },
            TraceKind::Coordinator {
                event: EventKind::TimerScheduled { key, deadline_ms },
            } => {
                let (kind, group, member) = TimerKind::of(&key);
                Packed::TimerScheduled {
                    key: kind,
                    group: self.names.id_of(group),
                    member: member.map_or(NO_NAME, |m| self.names.id_of(m)),
                    deadline_ms,
                }
            }
            TraceKind::Coordinator {
                event:
                    EventKind::ResponseParked {
                        member_id,
                        api,
                        correlation_id,
                    },
            } => Packed::ResponseParked {
                member: self.names.id_of(&member_id),
                correlation_id,
                api,
            },
            TraceKind::Coordinator {
                event:
                    EventKind::ConsumerMemberUpdated {
                        member_id,
                        state,
                        member_epoch,
                        previous_member_epoch,
                    },
            } => Packed::ConsumerMemberUpdated {
                member: self.names.id_of(&member_id),
                member_epoch,
                previous_member_epoch,
                state,
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
                request: self.bodies.request(request, names),
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
                response: self.bodies.response(response, names),
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
            &Packed::Assigned {
                consumer,
                generation_id,
                partitions,
                listener_ms,
                consumer_protocol,
            } => {
                let [assigned, added, revoked] =
                    read_partitions(&self.bodies.partitions, names, partitions);
                TraceKind::Assigned {
                    consumer: names.get(consumer),
                    generation_id,
                    assigned,
                    added,
                    revoked,
                    listener_ms,
                    consumer_protocol,
                }
            }
            &Packed::RejoinRequested { consumer, reason } => TraceKind::RejoinRequested {
                consumer: names.get(consumer),
                reason,
            },
            &Packed::TimerScheduled {
                key,
                group,
                member,
                deadline_ms,
            } => coordinator(EventKind::TimerScheduled {
                key: key.key(names.text(group), names.text(member)),
                deadline_ms,
            }),
            &Packed::ResponseParked {
                member,
                correlation_id,
                api,
            } => coordinator(EventKind::ResponseParked {
                member_id: names.text(member),
                api,
                correlation_id,
            }),
            &Packed::ConsumerMemberUpdated {
                member,
                member_epoch,
                previous_member_epoch,
                state,
            } => coordinator(EventKind::ConsumerMemberUpdated {
                member_id: names.text(member),
                state,
                member_epoch,
                previous_member_epoch,
            }),
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
        self.chunks.get(index)
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
        self.chunks = Chunked::default();
        self.bodies = Bodies::default();
        self.names = Names::default();
        self.stored = self.len;
        self.whole = 0;
        self.counted_only = true;
    }

    /// Whether entries are counted only ([`Trace::count_only`]).
    pub fn is_counted_only(&self) -> bool {
        self.counted_only
    }

    /// About the bytes the trace holds: its entries (whole chunks: they are allocated whole),
    /// the entries boxed whole, the names and the bodies (`trace_store/weight.rs`). What a run
    /// may keep is bounded by this (`crate::player::RECORD_BUDGET_BYTES`): a module's memory is
    /// 4 GiB at most, and an hour of 1,000 consumers restarting one by one keeps about a
    /// gigabyte.
    pub fn kept_bytes(&self) -> usize {
        self.chunks.bytes()
            + self.whole * WHOLE_BYTES
            + self.names.list.len() * NAME_BYTES
            + self.bodies.bytes()
    }

    /// Drops the known future (the run forked: it will not happen), and the bodies only it
    /// kept (bodies are kept in the order of their entries).
    pub fn forget_future(&mut self) {
        if self.stored == self.len {
            return;
        }
        self.chunks.truncate(self.len);
        self.stored = self.len;
        // Nothing to look for in a list that is empty.
        let mut requests = self.bodies.requests.is_empty().then_some(0);
        let mut responses = self.bodies.responses.is_empty().then_some(0);
        let mut partitions = self.bodies.partitions.is_empty().then_some(0);
        for i in (0..self.len).rev() {
            match self.stored(i).map(|s| &s.entry) {
                Some(Packed::RequestSent { request, .. }) if *request != NO_BODY => {
                    requests = requests.or(Some(*request as usize + 1));
                }
                Some(Packed::ResponseSent { response, .. }) if *response != NO_BODY => {
                    responses = responses.or(Some(*response as usize + 1));
                }
                Some(&Packed::Assigned { partitions: at, .. }) => {
                    let lists: usize = list_lengths(&self.bodies.partitions, at).iter().sum();
                    partitions = partitions.or(Some(at as usize + 2 + lists));
                }
                _ => {}
            }
            if requests.is_some() && responses.is_some() && partitions.is_some() {
                break;
            }
        }
        self.bodies.requests.truncate(requests.unwrap_or(0));
        self.bodies.responses.truncate(responses.unwrap_or(0));
        self.bodies.partitions.truncate(partitions.unwrap_or(0));
        // What is left is counted again (a fork, at a reader's action: rare), and the lists
        // give back their room.
        self.bodies.recount();
        self.whole = self
            .chunks
            .range(0..self.len)
            .filter(|s| matches!(s.entry, Packed::Whole(_)))
            .count();
    }

    /// Entries from `from` on, in order.
    pub fn iter_from(&self, from: usize) -> impl Iterator<Item = TraceEvent> + '_ {
        self.chunks
            .range(from..self.len)
            .enumerate()
            .map(move |(i, stored)| self.unpack(from + i, stored))
    }

    pub fn iter(&self) -> impl Iterator<Item = TraceEvent> + '_ {
        self.iter_from(0)
    }
}

mod bodies;
#[cfg(test)]
mod tests;
mod weight;
