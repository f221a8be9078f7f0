//! The live feed: the trace, line by line, to every page that follows the broker over a
//! WebSocket (`--live ADDR:PORT`, the page's `?mode=console&live=ws://ADDR:PORT`). A follower
//! that connects late first gets every line so far, so that it rebuilds the same model from the
//! start; then each new line as the model produces it.

use std::net::TcpListener;
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;

use tungstenite::Message;

/// The lines kept for followers that connect late (a busy group writes thousands a minute; past
/// this the broker stops keeping them, and a late follower is told to use the `--trace` file).
const MAX_HISTORY: usize = 1_000_000;

#[derive(Debug, Default)]
struct State {
    lines: Vec<String>,
    /// Lines were dropped: a new follower cannot rebuild the run from its start.
    truncated: bool,
    followers: Vec<Sender<String>>,
}

/// The lines so far and who follows them.
#[derive(Debug, Default)]
pub struct Live {
    state: Mutex<State>,
}

impl Live {
    pub fn publish(&self, line: &str) {
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if s.lines.len() < MAX_HISTORY {
            s.lines.push(line.to_owned());
        } else if !s.truncated {
            s.truncated = true;
            s.lines = Vec::new();
        }
        // A follower whose page closed is dropped here.
        s.followers.retain(|f| f.send(line.to_owned()).is_ok());
    }

    /// Everything so far, and a channel for what follows (registered under the same lock, so
    /// that no line falls between the two); or, once the history was dropped, the one line that
    /// says so.
    fn follow(&self) -> Result<(Vec<String>, mpsc::Receiver<String>), String> {
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if s.truncated {
            return Err(format!(
                "{{\"truncated\":\"this run is longer than the {MAX_HISTORY} lines the live feed keeps for late followers: open its --trace file instead\"}}"
            ));
        }
        let (tx, rx) = mpsc::channel();
        s.followers.push(tx);
        Ok((s.lines.clone(), rx))
    }
}

/// Accepts followers until the process ends.
pub fn serve(listener: TcpListener, live: Arc<Live>) {
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let live = live.clone();
        let _ = thread::Builder::new()
            .name("live follower".into())
            .spawn(move || {
                let peer = stream
                    .peer_addr()
                    .map_or_else(|_| "unknown".to_owned(), |a| a.to_string());
                let mut ws = match tungstenite::accept(stream) {
                    Ok(ws) => ws,
                    Err(e) => {
                        eprintln!("group-broker: live {peer}: not a WebSocket handshake: {e}");
                        return;
                    }
                };
                let (past, next) = match live.follow() {
                    Ok(feed) => feed,
                    Err(line) => {
                        let _ = ws.send(Message::text(line));
                        let _ = ws.close(None);
                        return;
                    }
                };
                for line in past.into_iter().chain(next) {
                    if ws.send(Message::text(line)).is_err() {
                        return; // the page went away
                    }
                }
            });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_late_follower_of_a_run_too_long_to_keep_is_told_so() {
        let live = Live::default();
        live.publish("header");
        let (past, earlier) = live.follow().expect("kept");
        assert_eq!(past, ["header"]);
        for _ in 0..MAX_HISTORY {
            live.publish("{}");
        }
        let refused = live.follow().expect_err("dropped");
        assert!(refused.contains("--trace"), "{refused}");
        // A follower from before goes on receiving everything.
        live.publish("last");
        assert_eq!(
            earlier.iter().take(MAX_HISTORY + 1).last().as_deref(),
            Some("last")
        );
    }
}
