//! The action interpreter: an action from the script, the page or a live trace, checked, then
//! applied now or refused with a typed [`Refusal`] that changes nothing.

use super::Simulation;
use crate::consumer::{Consumer, Life};
use crate::refusal::Refusal;
use crate::scenario::{Action, ConsumerSpec, ScenarioError, apply_settings};
use crate::trace::{LossReason, TraceKind};
use crate::world::Pending;
use alloc::boxed::Box;
use alloc::rc::Rc;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use group_coordinator::ordered;

/// An action's setting that is not valid, as a refusal.
fn setting(e: ScenarioError) -> Refusal {
    Refusal::Setting {
        message: e.to_string(),
    }
}

/// The coordinator's refusal of a step an action needs.
fn coordinator(e: impl core::fmt::Display) -> Refusal {
    Refusal::Coordinator {
        message: e.to_string(),
    }
}

impl Simulation {
    /// Applies an action now (from the page or a test). The action is checked first; on error
    /// nothing changes and the message names what is wrong.
    pub fn apply(&mut self, action: Action) -> Result<(), ScenarioError> {
        let mut names = ordered::set(self.consumers.iter().map(|c| c.spec.name.clone()));
        let mut instances = ordered::set(
            self.consumers
                .iter()
                .filter_map(|c| c.config.group_instance_id.clone()),
        );
        self.scenario
            .check_action(&action, "action", &mut names, &mut instances)?;
        self.apply_checked(action)
            .map_err(|refusal| ScenarioError {
                path: "action".to_string(),
                message: refusal.to_string(),
            })?;
        self.after_event();
        Ok(())
    }

    fn find(&self, name: &str) -> Result<usize, Refusal> {
        self.consumers
            .iter()
            .position(|c| &*c.name == name)
            .ok_or_else(|| Refusal::NoConsumer {
                name: name.to_string(),
            })
    }

    /// Applies an action whose fields are sound; `Err` says why it does not apply now.
    pub(super) fn apply_checked(&mut self, action: Action) -> Result<(), Refusal> {
        let running = |c: &Consumer| -> Result<(), Refusal> {
            if c.is_running() {
                Ok(())
            } else {
                Err(Refusal::NotRunning {
                    consumer: c.name.to_string(),
                })
            }
        };
        match &action {
            Action::AddConsumer(spec) => {
                if self.consumers.iter().any(|c| c.spec.name == spec.name) {
                    return Err(Refusal::ConsumerExists {
                        name: spec.name.clone(),
                    });
                }
                let config = self
                    .scenario
                    .consumer_config(spec, "action")
                    .map_err(setting)?;
                let i = self.consumers.len();
                let link = spec
                    .network
                    .clone()
                    .unwrap_or(self.scenario.network.clone());
                let name = self.w.add_consumer(&spec.name, link);
                let spec = ConsumerSpec {
                    start_ms: self.w.now,
                    ..spec.clone()
                };
                let app = spec
                    .application
                    .clone()
                    .unwrap_or(self.scenario.application.clone());
                self.consumers
                    .push(Consumer::new(i, name, spec, config, app));
                self.record_action(action);
                self.consumers[i].start(&mut self.w);
            }
            Action::Close { consumer } => {
                let i = self.find(consumer)?;
                running(&self.consumers[i])?;
                if self.consumers[i].life == Life::Closing {
                    return Err(Refusal::AlreadyClosing {
                        consumer: consumer.clone(),
                    });
                }
                self.record_action(action);
                self.consumers[i].close(&mut self.w);
            }
            Action::Crash { consumer } => {
                let i = self.find(consumer)?;
                running(&self.consumers[i])?;
                self.record_action(action);
                self.consumers[i].crash(&mut self.w);
            }
            Action::Restart { consumer, down_ms } => {
                let i = self.find(consumer)?;
                running(&self.consumers[i])?;
                let at = self.w.now + down_ms;
                self.record_action(action);
                self.consumers[i].close(&mut self.w);
                self.w.schedule(at, Pending::Start(i));
            }
            Action::Start { consumer } => {
                let i = self.find(consumer)?;
                if self.consumers[i].is_running() {
                    return Err(Refusal::AlreadyRunning {
                        consumer: consumer.clone(),
                    });
                }
                self.record_action(action);
                self.consumers[i].start(&mut self.w);
            }
            Action::Pause { consumer, kind } => {
                let i = self.find(consumer)?;
                running(&self.consumers[i])?;
                if self.consumers[i].paused.is_some() {
                    return Err(Refusal::AlreadyPaused {
                        consumer: consumer.clone(),
                    });
                }
                self.record_action(action.clone());
                self.consumers[i].pause(&mut self.w, *kind);
            }
            Action::Resume { consumer } => {
                let i = self.find(consumer)?;
                if self.consumers[i].paused.is_none() {
                    return Err(Refusal::NotPaused {
                        consumer: consumer.clone(),
                    });
                }
                self.record_action(action);
                let deferred = self.consumers[i].resume(&mut self.w);
                let now = self.w.now;
                for pending in deferred {
                    self.w.schedule(now, pending);
                }
            }
            Action::Cut { consumer } | Action::Heal { consumer } => {
                let i = self.find(consumer)?;
                let cut = matches!(action, Action::Cut { .. });
                if self.w.links[i].cut == cut {
                    return Err(Refusal::LinkAlready {
                        consumer: consumer.clone(),
                        cut,
                    });
                }
                self.w.links[i].cut = cut;
                self.record_action(action);
            }
            Action::SetNetwork {
                consumer,
                latency_ms,
                jitter_ms,
                loss,
            } => {
                let targets: Vec<usize> = match consumer {
                    Some(name) => alloc::vec![self.find(name)?],
                    None => (0..self.consumers.len()).collect(),
                };
                for i in targets {
                    let spec = &mut self.w.links[i].spec;
                    spec.latency_ms = latency_ms.unwrap_or(spec.latency_ms);
                    spec.jitter_ms = jitter_ms.unwrap_or(spec.jitter_ms);
                    spec.loss = loss.unwrap_or(spec.loss);
                }
                if consumer.is_none() {
                    let spec = &mut Rc::make_mut(&mut self.scenario).network;
                    spec.latency_ms = latency_ms.unwrap_or(spec.latency_ms);
                    spec.jitter_ms = jitter_ms.unwrap_or(spec.jitter_ms);
                    spec.loss = loss.unwrap_or(spec.loss);
                }
                self.record_action(action);
            }
            Action::Subscribe {
                consumer,
                topics,
                pattern,
            } => {
                let i = self.find(consumer)?;
                self.record_action(action.clone());
                self.consumers[i].subscribe(&mut self.w, topics, pattern.as_deref());
            }
            Action::SetConfig { consumer, config } => {
                let i = self.find(consumer)?;
                let mut c = self.consumers[i].config.clone();
                apply_settings(&mut c, config, "config").map_err(setting)?;
                if let Some(instance) = &c.group_instance_id
                    && self.consumers.iter().any(|o| {
                        o.index != i && o.config.group_instance_id.as_ref() == Some(instance)
                    })
                {
                    return Err(Refusal::InstanceIdInUse {
                        instance: instance.clone(),
                    });
                }
                self.consumers[i].config = c;
                self.record_action(action);
            }
            Action::CreatePartitions { topic, count } => {
                let current = *self.w.topics.get(topic).ok_or_else(|| Refusal::NoTopic {
                    topic: topic.clone(),
                })?;
                if *count <= current {
                    return Err(Refusal::PartitionsOnlyAdded {
                        topic: topic.clone(),
                        current,
                    });
                }
                self.set_partitions(topic, *count, current)?;
                self.record_action(action.clone());
            }
            Action::CreateTopic { topic, partitions } => {
                if self.w.topics.contains_key(topic) {
                    return Err(Refusal::TopicExists {
                        topic: topic.clone(),
                    });
                }
                self.set_partitions(topic, *partitions, 0)?;
                self.record_action(action.clone());
            }
            Action::Failover { down_ms } => {
                if !self.coordinator_available {
                    return Err(Refusal::FailoverUnderWay);
                }
                let group_id = self.w.group_id.clone();
                let mut responses = self.coordinator.unload(&group_id).map_err(coordinator)?;
                self.record_action(action.clone());
                self.coordinator_available = false;
                self.after_coordinator(&mut responses);
                let at = self.w.now + down_ms;
                self.w.schedule(at, Pending::LoadGroup);
                self.w.mark_dirty();
            }
            Action::FailNextPersist { error } => {
                let code = Action::persist_error(error).ok_or_else(|| Refusal::NotAKafkaError {
                    error: error.clone(),
                })?;
                self.coordinator.fail_next_persist(code);
                self.record_action(action);
            }
            Action::DeliverNow {
                consumer,
                correlation_id,
                response,
            } => {
                let c = self.find(consumer)?;
                let pending = self.w.take_in_flight(c, *correlation_id, *response)?;
                self.record_action(action.clone());
                self.w.schedule_first(pending);
            }
            Action::Inject {
                client,
                at_ms,
                request,
            } => {
                self.not_before(*at_ms)?;
                let i = match self.find(client) {
                    Ok(i) => i,
                    Err(_) => self.open_lane(client)?,
                };
                // Kept for a fork's replay, not told in the trace: the request is, when sent.
                self.actions.push(self.w.now, action.clone());
                let request = Rc::new(request.clone());
                self.w.schedule(
                    *at_ms,
                    Pending::Inject {
                        consumer: i,
                        request,
                    },
                );
            }
            Action::Advance { at_ms } => {
                self.not_before(*at_ms)?;
                self.actions.push(self.w.now, action.clone());
                self.w.schedule(*at_ms, Pending::Advance);
            }
            // The broker's failover, in two inputs at the broker's times (each after an advance
            // to its time, so the model's clock is already there).
            Action::Unload { group_id } => {
                let mut responses = self.coordinator.unload(group_id).map_err(coordinator)?;
                self.record_action(action.clone());
                if *group_id == self.w.group_id {
                    self.coordinator_available = false;
                }
                self.after_coordinator(&mut responses);
                self.w.mark_dirty();
            }
            Action::Load { group_id } => {
                let mut responses = self.coordinator.load(group_id).map_err(coordinator)?;
                self.record_action(action.clone());
                if *group_id == self.w.group_id {
                    self.coordinator_available = true;
                }
                self.after_coordinator(&mut responses);
                self.w.mark_dirty();
            }
            Action::Drop {
                consumer,
                correlation_id,
                response,
            } => {
                let c = self.find(consumer)?;
                let pending = self.w.take_in_flight(c, *correlation_id, *response)?;
                let api = match &pending {
                    Pending::ToBroker { message, .. } => message.describe().0,
                    Pending::ToConsumer { message, .. } => message.describe().0,
                    _ => return Err(Refusal::NotAMessage),
                };
                self.record_action(action.clone());
                let name = self.w.names[c].clone();
                self.w
                    .lost(name, api, *correlation_id, *response, LossReason::Dropped);
            }
        }
        Ok(())
    }

    /// A topic's partition count goes from `current` (0: a new topic) to `count`, within the
    /// model's bound on all partitions: timers due now fire first (their answers go out), then
    /// the coordinator's image and the world's topics change.
    fn set_partitions(&mut self, topic: &str, count: i32, current: i32) -> Result<(), Refusal> {
        let total: i64 =
            self.w.topics.values().map(|n| i64::from(*n)).sum::<i64>() + i64::from(count - current);
        if total > crate::scenario::MAX_PARTITIONS {
            return Err(Refusal::TooManyPartitions {
                total,
                max: crate::scenario::MAX_PARTITIONS,
            });
        }
        let mut responses = self.coordinator.advance(self.w.now).map_err(coordinator)?;
        self.after_coordinator(&mut responses);
        self.coordinator
            .update_metadata(self.w.now, &[(String::from(topic), None, count)])
            .map_err(coordinator)?;
        self.w.topics.insert(String::from(topic), count);
        self.w.mark_dirty();
        Ok(())
    }

    /// A live input's time: the run's clock only moves forward.
    fn not_before(&self, at_ms: i64) -> Result<(), Refusal> {
        if at_ms < self.w.now {
            return Err(Refusal::BackInTime {
                at_ms,
                now_ms: self.w.now,
            });
        }
        Ok(())
    }

    /// A lane for a real client that sends its first request (a live run).
    fn open_lane(&mut self, client: &str) -> Result<usize, Refusal> {
        if self.consumers.len() >= crate::scenario::MAX_CONSUMERS {
            return Err(Refusal::TooManyClients {
                max: crate::scenario::MAX_CONSUMERS,
            });
        }
        let spec = ConsumerSpec {
            name: String::from(client),
            topics: Vec::new(),
            pattern: None,
            config: Default::default(),
            start_ms: self.w.now,
            processing_ms: 0,
            network: None,
            application: None,
        };
        let config = self
            .scenario
            .consumer_config(&spec, "action")
            .map_err(setting)?;
        let i = self.consumers.len();
        // The broker recorded each request when the model took it: no latency, no loss.
        let name = self.w.add_consumer(
            client,
            crate::scenario::LinkSpec {
                latency_ms: 0,
                jitter_ms: 0,
                loss: 0.0,
            },
        );
        self.consumers.push(Consumer::external(i, name, config));
        Ok(i)
    }

    fn record_action(&mut self, action: Action) {
        self.actions.push(self.w.now, action.clone());
        self.w.record(TraceKind::Action {
            action: Box::new(action),
        });
    }
}
