//! The checks a scenario passes before anything runs (`Scenario::check`), and those an action
//! passes when it is applied (`Scenario::check_action`).

use super::{
    Action, Application, ConsumerSpec, LinkSpec, MAX_CONSUMERS, MAX_NAME, MAX_PARTITIONS,
    MAX_SCRIPT_STEPS, MAX_TIME_MS, MAX_TOPICS, Scenario, ScenarioError, Settings, err,
};
use crate::config::ConsumerConfig;
use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

impl Scenario {
    /// Everything a run needs is sound: names, sizes, times, settings, and every consumer an
    /// action names exists by then.
    pub fn check(&self) -> Result<(), ScenarioError> {
        name(&self.name, "name")?;
        name(&self.group_id, "groupId")?;
        self.broker_config()?;
        self.group_configs()?;
        if self.topics.len() > MAX_TOPICS {
            return Err(err("topics", format!("more than {MAX_TOPICS} topics")));
        }
        let mut partitions = 0i64;
        for (topic, &count) in &self.topics {
            name(topic, &format!("topics.{topic}"))?;
            if !(1..=100_000).contains(&count) {
                return Err(err(
                    format!("topics.{topic}"),
                    format!("{count} partitions is outside 1..=100000"),
                ));
            }
            partitions += i64::from(count);
        }
        if partitions > MAX_PARTITIONS {
            return Err(err(
                "topics",
                format!("{partitions} partitions in all, more than {MAX_PARTITIONS}"),
            ));
        }
        check_link(&self.network, "network")?;
        if !(1..=MAX_TIME_MS).contains(&self.duration_ms) {
            return Err(err(
                "durationMs",
                format!("{} is outside 1..={MAX_TIME_MS}", self.duration_ms),
            ));
        }
        if self.live {
            // A live run's members are the broker's clients: the model around them is theirs.
            if !self.consumers.is_empty() {
                return Err(err(
                    "consumers",
                    "a live run has no consumers of its own (its clients come in as inject actions)",
                ));
            }
            if let Some(i) = self.script.iter().position(|s| s.action.is_some()) {
                return Err(err(
                    format!("script[{i}].action"),
                    "a live run's script only narrates (its inputs are the broker's)",
                ));
            }
        }
        let mut names = BTreeSet::new();
        let mut instances = BTreeSet::new();
        for (i, spec) in self.consumers.iter().enumerate() {
            let path = format!("consumers[{i}]");
            self.check_consumer(spec, &path, &mut names, &mut instances)?;
        }
        if self.script.len() > MAX_SCRIPT_STEPS {
            return Err(err("script", format!("more than {MAX_SCRIPT_STEPS} steps")));
        }
        if self.script.iter().filter(|s| s.key).count() > 1 {
            return Err(err("script", "at most one step can be the key moment"));
        }
        // Actions run in time order; a consumer must exist when an action names it.
        let mut order: Vec<usize> = (0..self.script.len()).collect();
        group_coordinator::ordered::sort_by_key(&mut order, |&i| self.script[i].at_ms);
        for i in order {
            let step = &self.script[i];
            let path = format!("script[{i}]");
            if !(0..=MAX_TIME_MS).contains(&step.at_ms) {
                return Err(err(
                    format!("{path}.atMs"),
                    format!("{} is outside 0..={MAX_TIME_MS}", step.at_ms),
                ));
            }
            if step.action.is_none() && step.narrate.is_none() {
                return Err(err(path, "a step needs an action, a narration or both"));
            }
            if step.key && step.narrate.is_none() {
                return Err(err(
                    format!("{path}.key"),
                    "the key moment needs a narration (it is what the moment says)",
                ));
            }
            if let Some(action) = &step.action {
                self.check_action(
                    action,
                    &format!("{path}.action"),
                    &mut names,
                    &mut instances,
                )?;
            }
        }
        if names.len() > MAX_CONSUMERS {
            return Err(err(
                "consumers",
                format!("more than {MAX_CONSUMERS} consumers"),
            ));
        }
        Ok(())
    }

    fn check_consumer(
        &self,
        spec: &ConsumerSpec,
        path: &str,
        names: &mut BTreeSet<String>,
        instances: &mut BTreeSet<String>,
    ) -> Result<(), ScenarioError> {
        name(&spec.name, &format!("{path}.name"))?;
        if !names.insert(spec.name.clone()) {
            return Err(err(
                format!("{path}.name"),
                format!("a consumer named \"{}\" already exists", spec.name),
            ));
        }
        if names.len() > MAX_CONSUMERS {
            return Err(err(path, format!("more than {MAX_CONSUMERS} consumers")));
        }
        self.check_topics(&spec.topics, &format!("{path}.topics"))?;
        check_pattern(spec.pattern.as_deref(), &spec.topics, path)?;
        if !(0..=MAX_TIME_MS).contains(&spec.start_ms) {
            return Err(err(
                format!("{path}.startMs"),
                format!("{} is outside 0..={MAX_TIME_MS}", spec.start_ms),
            ));
        }
        if !(0..=MAX_TIME_MS).contains(&spec.processing_ms) {
            return Err(err(
                format!("{path}.processingMs"),
                format!("{} is outside 0..={MAX_TIME_MS}", spec.processing_ms),
            ));
        }
        if let Some(link) = &spec.network {
            check_link(link, &format!("{path}.network"))?;
        }
        check_application(
            spec.application.as_ref().unwrap_or(&self.application),
            spec.processing_ms,
            &if spec.application.is_some() {
                format!("{path}.application")
            } else {
                "application".to_string()
            },
        )?;
        let config = self.consumer_config(spec, path)?;
        if let Some(instance) = &config.group_instance_id
            && !instances.insert(instance.clone())
        {
            return Err(err(
                format!("{path}.config.group.instance.id"),
                format!("\"{instance}\" is used by another consumer"),
            ));
        }
        Ok(())
    }

    fn check_topics(&self, topics: &[String], path: &str) -> Result<(), ScenarioError> {
        if topics.len() > MAX_TOPICS {
            return Err(err(path, format!("more than {MAX_TOPICS} topics")));
        }
        for (i, t) in topics.iter().enumerate() {
            name(t, &format!("{path}[{i}]"))?;
        }
        Ok(())
    }

    /// Checks an action against the scenario (and, in `check`, the consumers known so far).
    pub fn check_action(
        &self,
        action: &Action,
        path: &str,
        names: &mut BTreeSet<String>,
        instances: &mut BTreeSet<String>,
    ) -> Result<(), ScenarioError> {
        match action {
            Action::AddConsumer(spec) => return self.check_consumer(spec, path, names, instances),
            Action::Restart { down_ms, .. } | Action::Failover { down_ms }
                if !(0..=MAX_TIME_MS).contains(down_ms) =>
            {
                return Err(err(
                    format!("{path}.downMs"),
                    format!("{down_ms} is outside 0..={MAX_TIME_MS}"),
                ));
            }
            Action::SetNetwork {
                latency_ms,
                jitter_ms,
                loss,
                ..
            } => {
                let link = LinkSpec {
                    latency_ms: latency_ms.unwrap_or(0),
                    jitter_ms: jitter_ms.unwrap_or(0),
                    loss: loss.unwrap_or(0.0),
                };
                check_link(&link, path)?
            }
            Action::Subscribe {
                topics, pattern, ..
            } => {
                self.check_topics(topics, &format!("{path}.topics"))?;
                check_pattern(pattern.as_deref(), topics, path)?;
            }
            Action::SetConfig { consumer, config } => {
                let spec = self
                    .consumers
                    .iter()
                    .find(|c| &c.name == consumer)
                    .cloned()
                    .unwrap_or(ConsumerSpec {
                        name: consumer.clone(),
                        topics: Vec::new(),
                        pattern: None,
                        config: Settings::new(),
                        start_ms: 0,
                        processing_ms: 0,
                        network: None,
                        application: None,
                    });
                let mut c = self.consumer_config(&spec, path)?;
                apply_settings(&mut c, config, &format!("{path}.config"))?;
            }
            Action::CreatePartitions { topic, count } => {
                if !self.topics.contains_key(topic) {
                    return Err(err(
                        format!("{path}.topic"),
                        format!("no topic named \"{topic}\""),
                    ));
                }
                if !(1..=MAX_PARTITIONS).contains(&i64::from(*count)) {
                    return Err(err(
                        format!("{path}.count"),
                        format!("{count} partitions is outside 1..={MAX_PARTITIONS}"),
                    ));
                }
            }
            Action::CreateTopic { topic, partitions } => {
                name(topic, &format!("{path}.topic"))?;
                group_coordinator::topic_name::validate(topic)
                    .map_err(|why| err(format!("{path}.topic"), why))?;
                if self.topics.contains_key(topic) {
                    return Err(err(
                        format!("{path}.topic"),
                        format!("a topic named \"{topic}\" already exists"),
                    ));
                }
                if !(1..=MAX_PARTITIONS).contains(&i64::from(*partitions)) {
                    return Err(err(
                        format!("{path}.partitions"),
                        format!("{partitions} partitions is outside 1..={MAX_PARTITIONS}"),
                    ));
                }
            }
            Action::Inject { .. }
            | Action::Advance { .. }
            | Action::Unload { .. }
            | Action::Load { .. }
                if !self.live =>
            {
                return Err(err(
                    path,
                    "only a live run takes a broker's inputs (inject, advance, unload, load)",
                ));
            }
            Action::Inject { at_ms, .. } | Action::Advance { at_ms }
                if !(0..=MAX_TIME_MS).contains(at_ms) =>
            {
                return Err(err(
                    format!("{path}.atMs"),
                    format!("{at_ms} is outside 0..={MAX_TIME_MS}"),
                ));
            }
            Action::Inject { client, .. } => name(client, &format!("{path}.client"))?,
            Action::Advance { .. } => {}
            Action::Unload { group_id } | Action::Load { group_id } => {
                name(group_id, &format!("{path}.groupId"))?
            }
            _ if self.live => {
                return Err(err(
                    path,
                    "a live run follows its broker: only the broker's inputs (inject, advance, unload, load) apply",
                ));
            }
            Action::FailNextPersist { error } if Action::persist_error(error).is_none() => {
                return Err(err(
                    format!("{path}.error"),
                    format!("\"{error}\" is not a Kafka error name (e.g. NOT_LEADER_OR_FOLLOWER)"),
                ));
            }
            _ => {}
        }
        if let Some(consumer) = action.consumer()
            && !names.contains(consumer)
        {
            return Err(err(
                format!("{path}.consumer"),
                format!("no consumer named \"{consumer}\""),
            ));
        }
        Ok(())
    }
}

/// Applies settings over a configuration and checks the result.
pub fn apply_settings(
    config: &mut ConsumerConfig,
    settings: &Settings,
    path: &str,
) -> Result<(), ScenarioError> {
    for (key, value) in settings {
        config
            .set(key, &value.to_config_value())
            .map_err(|m| err(format!("{path}.{key}"), m))?;
    }
    config
        .validate()
        .map_err(|(key, m)| err(format!("{path}.{key}"), m))
}

/// A subscription by pattern: one RE2/J compiles, and no topic names beside it.
fn check_pattern(
    pattern: Option<&str>,
    topics: &[String],
    path: &str,
) -> Result<(), ScenarioError> {
    let Some(pattern) = pattern else {
        return Ok(());
    };
    if pattern.len() > MAX_NAME {
        return Err(err(
            format!("{path}.pattern"),
            format!("must be at most {MAX_NAME} characters"),
        ));
    }
    if let Err(e) = group_coordinator::topic_regex::TopicRegex::new(pattern) {
        return Err(err(
            format!("{path}.pattern"),
            format!(
                "{} is not a valid regular expression (RE2/J): {e}",
                group_coordinator::quote::quote(pattern)
            ),
        ));
    }
    if !topics.is_empty() {
        return Err(err(
            format!("{path}.topics"),
            "a consumer subscribes by topics or by pattern, not both",
        ));
    }
    Ok(())
}

fn name(value: &str, path: &str) -> Result<(), ScenarioError> {
    if value.is_empty() || value.len() > MAX_NAME {
        return Err(err(path, format!("must be 1 to {MAX_NAME} characters")));
    }
    if value.chars().any(char::is_control) {
        return Err(err(path, "must not contain control characters"));
    }
    Ok(())
}

/// The application's timing: each time in `0..=MAX_TIME_MS`, and the jitter below the
/// consumer's `processingMs` (polls keep their order).
fn check_application(
    app: &Application,
    processing_ms: i64,
    path: &str,
) -> Result<(), ScenarioError> {
    for (field, value) in [
        ("revokeMsPerPartition", app.revoke_ms_per_partition),
        ("assignMsPerPartition", app.assign_ms_per_partition),
        ("lostMsPerPartition", app.lost_ms_per_partition),
        ("processingJitterMs", app.processing_jitter_ms),
    ] {
        if !(0..=MAX_TIME_MS).contains(&value) {
            return Err(err(
                format!("{path}.{field}"),
                format!("{value} is outside 0..={MAX_TIME_MS}"),
            ));
        }
    }
    if app.processing_jitter_ms > 0 && app.processing_jitter_ms >= processing_ms {
        return Err(err(
            format!("{path}.processingJitterMs"),
            format!(
                "{} must be below the consumer's processingMs ({processing_ms})",
                app.processing_jitter_ms
            ),
        ));
    }
    Ok(())
}

fn check_link(link: &LinkSpec, path: &str) -> Result<(), ScenarioError> {
    if !(0..=3_600_000).contains(&link.latency_ms) {
        return Err(err(
            format!("{path}.latencyMs"),
            format!("{} is outside 0..=3600000", link.latency_ms),
        ));
    }
    if !(0..=3_600_000).contains(&link.jitter_ms) {
        return Err(err(
            format!("{path}.jitterMs"),
            format!("{} is outside 0..=3600000", link.jitter_ms),
        ));
    }
    if !(0.0..=1.0).contains(&link.loss) {
        return Err(err(
            format!("{path}.loss"),
            format!("{} is outside 0..=1", link.loss),
        ));
    }
    Ok(())
}
