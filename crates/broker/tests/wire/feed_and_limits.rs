//! The live feed, the connection limit, replays checking refusals.

use super::*;

#[test]
fn the_live_feed_sends_the_trace_from_its_start() {
    let mut o = Options {
        listen: "127.0.0.1:0".parse().unwrap(),
        live: Some("127.0.0.1:0".parse().unwrap()),
        topics: vec![Topic {
            name: "orders".into(),
            partitions: 3,
        }],
        ..Options::default()
    };
    o.model.settings = vec!["group.initial.rebalance.delay.ms=0".into()];
    let running = start(o).unwrap();
    let mut c = Client::connect(running.addr);
    assert_eq!(c.call(9, &join("")).error_code, 79);
    // A follower that connects after the first request still sees it, after the header.
    let url = format!("ws://{}", running.live.unwrap());
    let (mut ws, _) = tungstenite::connect(url).unwrap();
    let mut next = || -> serde_json::Value {
        let message = ws.read().unwrap();
        serde_json::from_str(message.to_text().unwrap()).unwrap()
    };
    let header = next();
    assert_eq!(
        header["broker"]["config"]["group.initial.rebalance.delay.ms"],
        0
    );
    assert_eq!(header["broker"]["topics"][0][0], "orders");
    let first = next();
    assert_eq!(first["request"]["api"], "JoinGroup");
    // And then what follows, as it happens.
    assert_eq!(c.call(9, &join("")).error_code, 79);
    let mut apis = Vec::new();
    while apis.len() < 2 {
        let line = next();
        if let Some(r) = line.get("request").or(line.get("response")) {
            apis.push(r["api"].as_str().unwrap().to_owned());
        }
    }
    assert_eq!(apis, ["JoinGroup", "JoinGroup"]);
}

#[test]
fn connections_beyond_max_connections_are_closed() {
    let mut o = Options {
        listen: "127.0.0.1:0".parse().unwrap(),
        ..Options::default()
    };
    o.limits.max_connections = 1;
    let addr = start(o).unwrap().addr;
    let mut first = Client::connect(addr);
    assert_eq!(first.call(3, &ApiVersionsRequest::default()).error_code, 0);
    let mut second = Client::connect(addr);
    assert!(second.closed(), "a second connection is refused");
    // The first still works, and once it is closed its place is free again.
    assert_eq!(first.call(3, &ApiVersionsRequest::default()).error_code, 0);
    drop(first);
    let mut third = None;
    for _ in 0..50 {
        let mut c = Client::connect(addr);
        c.correlation_id = 0;
        c.send(3, &ApiVersionsRequest::default());
        let mut size = [0u8; 4];
        if c.stream.read_exact(&mut size).is_ok() {
            third = Some(c);
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        third.is_some(),
        "the freed place was not given to a new connection"
    );
}

#[test]
fn a_replay_checks_refusals_too() {
    let dir = std::env::temp_dir().join(format!("group-broker-refusal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let header = r#"{"broker":{"seed":0,"settings":[],"topics":[]}}"#;
    let refused = r#"{"at":1,"request":{"api":"Heartbeat","groupId":"g"}}"#;
    let note = r#"{"at":1,"note":"the model refused a request: Heartbeat request: apiVersion is required"}"#;
    let write = |name: &str, lines: &[&str]| {
        let path = dir.join(name);
        std::fs::write(&path, lines.join("\n")).unwrap();
        path
    };
    let with_note = write("with-note.jsonl", &[header, refused, note]);
    assert_eq!(trace::replay(&with_note).unwrap().outputs, 1);
    let without = write("without.jsonl", &[header, refused]);
    assert!(trace::replay(&without).unwrap_err().contains("refused"));
    let only_note = write("only-note.jsonl", &[header, note]);
    assert!(trace::replay(&only_note).is_err());
}
