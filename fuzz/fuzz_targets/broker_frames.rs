//! Arbitrary frames, as a client could send them, through group-broker's decoder and on to the
//! model: decoding never panics (a frame it cannot read is refused, which closes only its own
//! connection), and every answer, the model's included, encodes at the request's version.
#![no_main]

use bytes::Bytes;
use group_broker::cluster::{Cluster, Topic};
use group_broker::server::answer;
use group_broker::wire::decode;
use group_coordinator::{BrokerConfig, Coordinator};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let cluster = Cluster {
        node_id: 0,
        host: "127.0.0.1".into(),
        port: 9092,
        topics: vec![Topic { name: "orders".into(), partitions: 3 }],
        records_per_partition: 5,
        first_timestamp_ms: 0,
    };
    let mut model = Coordinator::new(BrokerConfig::default());
    let _ = model.update_metadata(0, &[("orders".into(), None, 3)]);
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
        let answered = answer(decoded, &cluster, |request| {
            // A parked request has no answer yet: the broker would wait; nothing to encode.
            model.handle(now, request).ok()?.into_iter().find(|r| r.correlation_id() == 1)
        });
        if let Err(e) = answered {
            assert_eq!(e.0, "the model did not answer", "{e:?}");
        }
    }
});
