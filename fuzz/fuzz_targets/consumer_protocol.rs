//! Untrusted consumer-protocol bytes: decoding never panics, and whatever decodes re-encodes to
//! bytes that decode to the same value.
#![no_main]

use group_coordinator::consumer_protocol::{Assignment, StickyUserData, Subscription, decode_cooperative_user_data};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = Subscription::decode(data) {
        assert_eq!(Subscription::decode(s.encode().as_slice()).as_ref(), Ok(&s));
    }
    if let Ok(a) = Assignment::decode(data) {
        assert_eq!(Assignment::decode(a.encode().as_slice()).as_ref(), Ok(&a));
    }
    if let Ok(u) = StickyUserData::decode(data) {
        assert_eq!(StickyUserData::decode(u.encode().as_slice()).as_ref(), Ok(&u));
    }
    let _ = decode_cooperative_user_data(data);
});
