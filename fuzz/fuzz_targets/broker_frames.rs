//! Arbitrary frames, as a client could send them, through group-broker's decoder and on to the
//! model: decoding never panics (a frame it cannot read is refused, which closes only its own
//! connection), every answer, the model's included, encodes at the request's version, and every
//! topic CreateTopics makes is one the model's metadata image takes.
#![no_main]

use bytes::Bytes;
use group_broker::cluster::{Cluster, Topic};
use group_broker::driver::create_topic;
use group_broker::server::answer;
use group_broker::wire::decode;
use group_coordinator::{BrokerConfig, Coordinator};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let cluster = Cluster {
        node_id: 0,
        host: "127.0.0.1".into(),
        port: 9092,
        topics: vec![Topic { name: "orders".into(), partitions: 3 }].into(),
        records_per_partition: 5,
        first_timestamp_ms: 0,
    };
    let mut model = Coordinator::new(BrokerConfig::default());
    let _ = model.update_metadata(0, &[("orders".into(), None, 3)]);
    // Both callbacks reach the model (a request, a topic CreateTopics made), one at a time.
    let model = std::cell::RefCell::new(model);
    // The input is a run of frames, each prefixed by a one-byte length.
    let mut rest = data;
    let mut now = 0;
    while let Some((&len, tail)) = rest.split_first() {
        let len = (len as usize).min(tail.len());
        let (frame, tail) = tail.split_at(len);
        rest = tail;
        now += 100;
        let Ok(decoded) = decode(Bytes::copy_from_slice(frame), 1) else {
            continue;
        };
        let answered = answer(
            decoded,
            &cluster,
            |request| {
                // A parked request has no answer yet: the broker would wait; nothing to encode.
                let answers = model.borrow_mut().handle(now, request).ok()?;
                answers.into_iter().find(|r| r.correlation_id() == 1)
            },
            |topic| {
                let made = create_topic(&mut model.borrow_mut(), now, topic);
                assert!(made.is_ok(), "a topic CreateTopics made is one the model takes: {made:?}");
            },
        );
        if let Err(e) = answered {
            assert_eq!(e.0, "the model did not answer", "{e:?}");
        }
    }
});
