//! Arbitrary bytes as the JSON a page or a test would send: parsing must fail cleanly or give a
//! request the coordinator handles (or refuses as misuse) without panicking.
#![no_main]

use group_coordinator::{Coordinator, Request};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut c = Coordinator::default();
    for (i, chunk) in data.split(|b| *b == b'\n').take(50).enumerate() {
        if let Ok(request) = serde_json::from_slice::<Request>(chunk) {
            let _ = c.handle(i as i64 * 1000, request);
            if let Err(e) = c.check_invariants() {
                panic!("invariant broken: {e}");
            }
        }
    }
});
