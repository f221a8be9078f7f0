//! The live feed: the trace, line by line, to every page that follows the broker over a
//! WebSocket (`--live ADDR:PORT`, the page's `?mode=console&live=ws://ADDR:PORT`). A follower
//! that connects late first gets every line so far, so that it rebuilds the same model from the
//! start; then each new line as the model produces it.

use std::net::TcpListener;
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;

use tungstenite::Message;

#[derive(Debug, Default)]
struct State {
    lines: Vec<String>,
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
        s.lines.push(line.to_owned());
        // A follower whose page closed is dropped here.
        s.followers.retain(|f| f.send(line.to_owned()).is_ok());
    }

    /// Everything so far, and a channel for what follows (registered under the same lock, so
    /// that no line falls between the two).
    fn follow(&self) -> (Vec<String>, mpsc::Receiver<String>) {
        let (tx, rx) = mpsc::channel();
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        s.followers.push(tx);
        (s.lines.clone(), rx)
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
                let (past, next) = live.follow();
                for line in past.into_iter().chain(next) {
                    if ws.send(Message::text(line)).is_err() {
                        return; // the page went away
                    }
                }
            });
    }
}
