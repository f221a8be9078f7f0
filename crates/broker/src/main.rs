//! `group-broker`: serve the coordinator model to real Kafka clients on loopback.
//!
//! ```text
//! group-broker [--listen 127.0.0.1:9092] [--topic NAME:PARTITIONS]... [--records N]
//!              [--set KEY=VALUE]... [--seed N] [--trace FILE] [--live ADDR:PORT] [--node-id N]
//!              [--max-connections N] [--max-request-bytes N]
//! group-broker replay FILE
//! ```
//!
//! While it serves, it reads the operator's commands on standard input (`control`):
//! `failover GROUP [MS]`, `unload GROUP`, `load GROUP`.

use std::process::ExitCode;

use group_broker::cluster::Topic;
use group_broker::{Options, start, trace};

const USAGE: &str = "usage: group-broker [--listen ADDR:PORT] [--topic NAME:PARTITIONS]... \
[--records N] [--set KEY=VALUE]... [--seed N] [--trace FILE] [--live ADDR:PORT] \
[--node-id N] [--max-connections N] [--max-request-bytes N]
       group-broker replay FILE

Serves Kafka's consumer-group apis from the coordinator model on loopback (default
127.0.0.1:9092). --topic defines a topic (repeat it); --records sets the generated records in
each partition (default 100); --set changes a broker setting of the model, as the playground's
scenarios do (for example group.initial.rebalance.delay.ms=0); --trace records every request,
response and event as JSON lines, which `group-broker replay FILE` checks against a fresh model;
--live serves the same lines over a WebSocket, for the page's console to follow
(?mode=console&live=ws://ADDR:PORT).

While it serves, it reads commands on standard input: `failover GROUP [MS]` (the coordinator
loses the group's partition and loads it again MS later: its members get NOT_COORDINATOR
meanwhile), `unload GROUP` and `load GROUP` (the two halves).";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("replay") {
        let Some(path) = args.get(1) else {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        };
        return match trace::replay(std::path::Path::new(path)) {
            Ok(r) => {
                let failovers = if r.failovers > 0 {
                    format!(", {} unloads and loads", r.failovers)
                } else {
                    String::new()
                };
                println!(
                    "replayed {} requests and {} timer advances{failovers}: all {} outputs match",
                    r.requests, r.advances, r.outputs
                );
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("replay: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let options = match parse(&args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("group-broker: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match start(options) {
        Ok(running) => {
            println!("group-broker: listening on {}", running.addr);
            if let Some(live) = running.live {
                println!(
                    "group-broker: live feed on ws://{live} (open the page with ?mode=console&live=ws://{live})"
                );
            }
            let driver = running.driver.clone();
            let _ = std::thread::Builder::new()
                .name("control".into())
                .spawn(move || group_broker::control::serve(std::io::stdin().lock(), &driver));
            let _ = running.acceptor.join();
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("group-broker: {e}");
            ExitCode::FAILURE
        }
    }
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options::default();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        if flag == "--help" || flag == "-h" {
            println!("{USAGE}");
            std::process::exit(0);
        }
        let mut value = || {
            it.next()
                .map(String::as_str)
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        let number = |v: &str| {
            v.parse::<i64>()
                .map_err(|_| format!("{flag}: \"{v}\" is not a whole number"))
        };
        match flag.as_str() {
            "--listen" => {
                let v = value()?;
                o.listen = v
                    .parse()
                    .map_err(|_| format!("--listen: \"{v}\" is not ADDRESS:PORT"))?;
            }
            "--topic" => {
                let v = value()?;
                let (name, partitions) = v
                    .rsplit_once(':')
                    .ok_or_else(|| format!("--topic: \"{v}\" is not NAME:PARTITIONS"))?;
                let partitions = partitions
                    .parse::<i32>()
                    .ok()
                    .filter(|p| (1..=10_000).contains(p))
                    .ok_or_else(|| format!("--topic {v}: partitions must be 1 to 10000"))?;
                if o.topics.iter().any(|t| t.name == name) {
                    return Err(format!("--topic {name} is given twice"));
                }
                o.topics.push(Topic {
                    name: name.to_owned(),
                    partitions,
                });
            }
            "--records" => {
                o.records_per_partition = number(value()?)?.clamp(0, 1_000_000);
            }
            "--set" => {
                let v = value()?;
                trace::setting(v)?;
                o.model.settings.push(v.to_owned());
            }
            "--seed" => {
                let v = value()?;
                o.model.seed = v
                    .parse()
                    .map_err(|_| format!("--seed: \"{v}\" is not a whole number"))?;
            }
            "--trace" => o.trace = Some(value()?.into()),
            "--live" => {
                let v = value()?;
                o.live = Some(
                    v.parse()
                        .map_err(|_| format!("--live: \"{v}\" is not ADDRESS:PORT"))?,
                );
            }
            "--node-id" => {
                o.node_id = i32::try_from(number(value()?)?)
                    .map_err(|_| format!("{flag} is out of range"))?;
            }
            "--max-connections" => {
                o.limits.max_connections = usize::try_from(number(value()?)?)
                    .map_err(|_| format!("{flag} is out of range"))?;
            }
            "--max-request-bytes" => {
                o.limits.max_request_bytes = usize::try_from(number(value()?)?)
                    .map_err(|_| format!("{flag} is out of range"))?;
            }
            other => return Err(format!("unknown argument \"{other}\"")),
        }
    }
    Ok(o)
}
