//! The JSON Schemas of the binding's own shapes: what its functions take and return beyond the
//! model's requests, responses and views. `tests/typescript.rs` generates the package's
//! TypeScript declarations from them and from the model's types. Host only (cargo feature
//! `schema`, which the crate's own tests turn on).

use schemars::{JsonSchema, SchemaGenerator};
use std::collections::BTreeMap;

/// Member id -> its partitions (topics ascending, partitions ascending); every member is
/// present. What `assign` and `serverAssign` return.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct Assignment(group_coordinator::assignor::AssignmentOutput);

/// Kafka property name -> value (number, string or boolean): a scenario's settings, or a
/// coordinator's (`new Coordinator(config)`).
#[derive(JsonSchema)]
#[allow(dead_code)]
struct Settings(BTreeMap<String, group_simulator::scenario::Setting>);

/// Adds the binding's shapes to the generators: to `read` what its functions take, to
/// `written` what they return.
pub fn declare(read: &mut SchemaGenerator, written: &mut SchemaGenerator) {
    use group_coordinator::consumer_protocol;
    read.subschema_for::<Settings>();
    read.subschema_for::<consumer_protocol::Subscription>();
    read.subschema_for::<consumer_protocol::Assignment>();
    written.subschema_for::<crate::simulation::TimedAction<'_>>();
    written.subschema_for::<group_simulator::TimedAction>();
    written.subschema_for::<group_simulator::trace::NarratedEvent<'_>>();
    written.subschema_for::<crate::player::MomentAt<'_>>();
    written.subschema_for::<crate::player::Checkpoints>();
    written.subschema_for::<crate::ConfigKeyInfo>();
    #[cfg(feature = "assign")]
    {
        read.subschema_for::<group_coordinator::assignor::AssignmentInput>();
        read.subschema_for::<crate::assign::ServerAssignInput>();
        written.subschema_for::<Assignment>();
    }
    #[cfg(feature = "console")]
    {
        read.subschema_for::<crate::coordinator::MetadataUpdate>();
        written.subschema_for::<crate::coordinator::ResponseText>();
        written.subschema_for::<crate::coordinator::ApiInfo>();
        written.subschema_for::<crate::coordinator::TopicInfo<'_>>();
        written.subschema_for::<crate::coordinator::NarratedCoordinatorEvent<'_>>();
    }
}
