//! Untrusted compact assignor input (`assign_compact`, and the server assignors'
//! `server_assign_compact`: integer arrays a caller fills by hand): every assignor either refuses
//! it with a message or returns a well-formed result, one run per member, every topic index in
//! the table, every partition within its topic, no partition twice.
#![no_main]

use group_coordinator::assignor::{CompactInput, Strategy, assign_compact};
use group_coordinator::consumer_group::assignor::{ServerAssignor, server_assign_compact};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Small numbers from the bytes: a few topics and members, arrays of any shape.
    let mut bytes = data.iter().copied();
    let mut next = || bytes.next().map_or(0, |b| i32::from(b as i8));
    let topics = (next().unsigned_abs() % 5) as usize;
    let members = (next().unsigned_abs() % 6) as usize;
    let c = CompactInput {
        topics: (0..topics).map(|t| format!("t{}", t % 4)).collect(),
        partitions: (0..topics).map(|_| next() % 9).collect(),
        members: (0..members).map(|m| format!("m{}", m % 5)).collect(),
        instance_ids: (next() % 2 == 0)
            .then(|| (0..members).map(|m| (m % 2 == 0).then(|| format!("i{m}"))).collect()),
        subscriptions: (0..(next().unsigned_abs() % 24)).map(|_| next() % 6).collect(),
        owned: (0..(next().unsigned_abs() % 24)).map(|_| next() % 10).collect(),
        generations: (0..(next().unsigned_abs() % 7)).map(|_| next() % 4).collect(),
    };
    // The server assignors take no generations: fuzzed without them too.
    let mut server = c.clone();
    server.generations.clear();
    let results = [
        Strategy::Range,
        Strategy::RoundRobin,
        Strategy::Sticky,
        Strategy::CooperativeSticky,
    ]
    .map(|strategy| assign_compact(strategy, &c).map_err(|e| e.0))
    .into_iter()
    .chain(
        [ServerAssignor::Uniform, ServerAssignor::Range]
            .map(|a| server_assign_compact(a, &server).map_err(|e| e.0)),
    );
    for out in results {
        let Ok(out) = out else {
            continue;
        };
        let mut at = 0;
        let mut seen = std::collections::BTreeSet::new();
        for _ in &c.members {
            let n = usize::try_from(out[at]).unwrap();
            for k in 0..n {
                let (t, p) = (out[at + 1 + 2 * k], out[at + 2 + 2 * k]);
                let t = usize::try_from(t).unwrap();
                assert!(t < c.topics.len() && p >= 0 && p < c.partitions[t].max(0));
                assert!(seen.insert((t, p)), "{t}-{p} twice");
            }
            at += 1 + 2 * n;
        }
        assert_eq!(at, out.len());
    }
});
