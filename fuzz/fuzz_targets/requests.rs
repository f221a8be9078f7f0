//! Arbitrary request objects (any api, version, ids, timeouts, assignments), clock moves and
//! faults, in any order, against one coordinator: it must never panic, every input must leave
//! its invariants intact, and misuse must be an `Err` that changes nothing.
#![no_main]

use arbitrary::Arbitrary;
use group_coordinator::{BrokerConfig, Coordinator, ErrorCode, Flavour, Request};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
enum Op {
    Handle { dt: u16, request: Request },
    Advance { dt: u32 },
    AdvanceToDeadline,
    Unload { second: bool },
    Load { second: bool },
    FailPersist { code: i16 },
}

#[derive(Arbitrary, Debug)]
struct Input {
    kafka3: bool,
    delay: u16,
    max_size: u8,
    min_session: u16,
    ops: Vec<Op>,
}

fuzz_target!(|input: Input| {
    let config = BrokerConfig {
        group_initial_rebalance_delay_ms: i32::from(input.delay),
        group_max_size: i32::from(input.max_size).max(1),
        group_min_session_timeout_ms: i32::from(input.min_session),
        flavour: if input.kafka3 { Flavour::Kafka3 } else { Flavour::Kafka4 },
        ..BrokerConfig::default()
    };
    let mut c = Coordinator::new(config);
    let mut now: i64 = 0;
    for op in input.ops.into_iter().take(200) {
        let group = |second: bool| if second { "b" } else { "a" };
        match op {
            Op::Handle { dt, request } => {
                now = now.saturating_add(i64::from(dt));
                let before = c.group(request.group_id().unwrap_or("")).map(|g| (g.state(), g.generation_id()));
                if c.handle(now, request.clone()).is_err() {
                    // Misuse changes nothing.
                    let after = c.group(request.group_id().unwrap_or("")).map(|g| (g.state(), g.generation_id()));
                    assert_eq!(before, after);
                }
            }
            Op::Advance { dt } => {
                now = now.saturating_add(i64::from(dt % 1_000_000));
                c.advance(now).expect("time moves forward");
            }
            Op::AdvanceToDeadline => {
                now = c.next_deadline().unwrap_or(now).max(now);
                c.advance(now).expect("time moves forward");
            }
            Op::Unload { second } => drop(c.unload(group(second))),
            Op::Load { second } => drop(c.load(group(second))),
            Op::FailPersist { code } => c.fail_next_persist(ErrorCode::from_code(code)),
        }
        if let Err(e) = c.check_invariants() {
            panic!("invariant broken: {e}");
        }
        c.drain_events();
    }
});
