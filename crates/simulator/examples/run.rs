//! Runs a scenario file and prints its narrated trace and metrics:
//! `cargo run -p group-simulator --example run -- path/to/scenario.json`.

use group_simulator::{Scenario, Simulation};

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: run <scenario.json>");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2);
    });
    let scenario: Scenario = match serde_json::from_str(&text) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let duration = scenario.duration_ms;
    let mut sim = match Simulation::new(scenario) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    sim.run_until(duration);
    println!("{}", sim.render());
    println!("{:#?}", sim.metrics());
}
