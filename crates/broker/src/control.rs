//! The operator's commands, one per line on the broker's standard input: what a real cluster's
//! operator does to a coordinator and what a test of real clients needs to do to one, with the
//! clients none the wiser.
//!
//! ```text
//! failover GROUP [MS]   the coordinator loses GROUP's partition, and loads it again MS later
//!                       (default 0); meanwhile its members' requests get NOT_COORDINATOR
//! unload GROUP          the first half alone
//! load GROUP            the second half alone
//! ```
//!
//! Each command is an input of the model, recorded in the trace (`unload` and `load` lines,
//! after an `advance` to their time), so a replay and the page's follower do the same.

use std::io::BufRead;
use std::thread;
use std::time::Duration;

use crate::driver::{Driver, Failover};

/// One command, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Unload, then load again after `down_ms`.
    Failover { group_id: String, down_ms: u64 },
    /// One half.
    Step { step: Failover, group_id: String },
}

pub const HELP: &str = "commands: failover GROUP [MS] | unload GROUP | load GROUP";

/// Reads a command line; `Ok(None)` for a blank one.
pub fn parse(line: &str) -> Result<Option<Command>, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let command = match words.as_slice() {
        [] => return Ok(None),
        ["failover", group] => Command::Failover {
            group_id: (*group).to_owned(),
            down_ms: 0,
        },
        ["failover", group, ms] => Command::Failover {
            group_id: (*group).to_owned(),
            down_ms: ms
                .parse()
                .ok()
                .filter(|ms| *ms <= 3_600_000)
                .ok_or_else(|| format!("failover {group} {ms}: MS must be 0 to 3600000"))?,
        },
        ["unload", group] => Command::Step {
            step: Failover::Unload,
            group_id: (*group).to_owned(),
        },
        ["load", group] => Command::Step {
            step: Failover::Load,
            group_id: (*group).to_owned(),
        },
        _ => return Err(format!("\"{}\" is not a command; {HELP}", line.trim())),
    };
    Ok(Some(command))
}

/// Carries out a command; what happened (or why the model refused) comes back as text.
pub fn run(driver: &Driver, command: Command) -> Result<String, String> {
    match command {
        Command::Step { step, group_id } => {
            driver.failover(step, &group_id)?;
            Ok(format!("{group_id}: {}ed", step.key()))
        }
        Command::Failover { group_id, down_ms } => {
            driver.failover(Failover::Unload, &group_id)?;
            let later = driver.clone();
            let group = group_id.clone();
            // The load comes later on its own thread, so that commands go on being read.
            thread::Builder::new()
                .name("failover".into())
                .spawn(move || {
                    thread::sleep(Duration::from_millis(down_ms));
                    match later.failover(Failover::Load, &group) {
                        Ok(()) => println!("group-broker: {group}: loaded"),
                        Err(e) => eprintln!("group-broker: load {group}: {e}"),
                    }
                })
                .map_err(|e| e.to_string())?;
            Ok(format!("{group_id}: unloaded; it loads in {down_ms} ms"))
        }
    }
}

/// Reads commands from `input` until it ends (a broker started without a terminal or pipe
/// reads nothing and serves on).
pub fn serve(input: impl BufRead, driver: &Driver) {
    for line in input.lines() {
        let Ok(line) = line else { return };
        match parse(&line).and_then(|c| c.map(|c| run(driver, c)).transpose()) {
            Ok(Some(done)) => println!("group-broker: {done}"),
            Ok(None) => {}
            Err(e) => eprintln!("group-broker: {e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_read_and_mistakes_named() {
        assert_eq!(
            parse("failover g 3000"),
            Ok(Some(Command::Failover {
                group_id: "g".into(),
                down_ms: 3000
            }))
        );
        assert_eq!(
            parse("  load g "),
            Ok(Some(Command::Step {
                step: Failover::Load,
                group_id: "g".into()
            }))
        );
        assert_eq!(parse(""), Ok(None));
        assert!(parse("failover g soon").unwrap_err().contains("MS must be"));
        assert!(parse("restart").unwrap_err().contains("is not a command"));
    }
}
