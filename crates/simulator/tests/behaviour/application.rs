//! The application around the consumer: the rebalance listener's time and processing jitter.

use super::*;

fn with_application(name: &str, app: group_simulator::scenario::Application) -> Simulation {
    let mut s = scenario(name).expect("built in");
    s.application = app;
    let end = s.duration_ms;
    let mut sim = Simulation::new(s).expect("valid");
    sim.run_until(end);
    assert_eq!(sim.metrics().invariant_violations, 0, "{name}");
    sim
}

/// The application's rebalance listener takes time: an eager consumer's JoinGroup goes only
/// once `onPartitionsRevoked` has returned (its time per partition given up), and partitions
/// assigned are processed only once `onPartitionsAssigned` has returned. Eager pays the revoke
/// for every partition in every rebalance, cooperative only for those that move: with a real
/// listener, the rolling restart leaves partitions unprocessed far longer with eager.
#[test]
fn the_rebalance_listener_delays_the_rejoin_and_the_processing() {
    use group_simulator::scenario::Application;
    let app = Application {
        revoke_ms_per_partition: 200,
        assign_ms_per_partition: 200,
        ..Application::default()
    };
    let eager = with_application("rolling-restart-eager", app.clone());
    // Each eager revoke of n partitions is followed by that consumer's JoinGroup 200·n ms later.
    let trace = eager.trace();
    let mut checked = 0;
    for (i, e) in trace.iter().enumerate() {
        let TraceKind::Revoked {
            consumer,
            partitions,
            lost: false,
            listener_ms,
        } = &e.kind
        else {
            continue;
        };
        assert_eq!(*listener_ms, 200 * partitions.len() as i64);
        let closing =
            trace.iter().skip(i + 1).take(3).any(
                |n| matches!(&n.kind, TraceKind::Lifecycle { consumer: c, .. } if c == consumer),
            );
        if closing {
            continue; // a close does not wait for its listener
        }
        let join = trace
            .iter()
            .skip(i + 1)
            .find(|n| {
                matches!(&n.kind, TraceKind::RequestSent { consumer: c, api: MessageApi::JoinGroup, .. } if c == consumer)
            })
            .expect("it rejoins");
        assert_eq!(
            join.at_ms,
            e.at_ms + listener_ms,
            "{consumer}'s JoinGroup after its listener"
        );
        checked += 1;
    }
    assert!(checked >= 4, "eager revokes before rejoining ({checked})");
    let cooperative = with_application("rolling-restart-cooperative", app.clone());
    let (e, c) = (eager.metrics(), cooperative.metrics());
    assert!(
        e.unowned_partition_ms > 2 * c.unowned_partition_ms,
        "eager {} vs cooperative {}",
        e.unowned_partition_ms,
        c.unowned_partition_ms
    );
    // Without a listener's time, the same scenario leaves partitions unprocessed for less.
    let quick = run("rolling-restart-eager").metrics();
    assert!(quick.unowned_partition_ms < e.unowned_partition_ms);
    // A partition assigned is processed only once onPartitionsAssigned returns: with only an
    // assign time, unprocessed time grows by at least that per partition handed over.
    let assigning = with_application(
        "rolling-restart-eager",
        Application {
            assign_ms_per_partition: 100,
            ..Application::default()
        },
    );
    assert!(
        assigning.metrics().unowned_partition_ms
            >= quick.unowned_partition_ms + 100 * quick.partitions_moved as i64
    );
}

/// Processing jitter moves each poll by its own amount from the seed: the run differs from a
/// steady one, is the same again from the same seed, and a jitter not below `processingMs` is
/// refused naming the field.
#[test]
fn processing_jitter_is_seeded_and_checked() {
    use group_simulator::scenario::Application;
    let jittery = Application {
        processing_jitter_ms: 60,
        ..Application::default()
    };
    let a = with_application("rolling-restart-cooperative", jittery.clone());
    let b = with_application("rolling-restart-cooperative", jittery);
    assert_eq!(a.trace_hash(), b.trace_hash());
    assert_ne!(
        a.trace_hash(),
        run("rolling-restart-cooperative").trace_hash()
    );
    let mut s = scenario("normal-join").unwrap();
    s.application.processing_jitter_ms = 100; // processingMs is 100
    let err = Simulation::new(s).unwrap_err();
    assert_eq!(err.path, "application.processingJitterMs");
    let mut s = scenario("normal-join").unwrap();
    s.consumers[1].application = Some(Application {
        revoke_ms_per_partition: -1,
        ..Application::default()
    });
    let err = Simulation::new(s).unwrap_err();
    assert_eq!(err.path, "consumers[1].application.revokeMsPerPartition");
}
