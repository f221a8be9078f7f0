//! Group configs (KIP-848): per-group overrides of the consumer group's session timeout and
//! heartbeat interval (`docs/src/reference/consumer-group-protocol.md#group-configs`).
//!
//! In Kafka they are a config resource of type GROUP, changed by IncrementalAlterConfigs and
//! read by DescribeConfigs, validated by `GroupConfig` against the broker's bounds; the group
//! coordinator reads them where it would read the broker settings
//! (`consumerGroupSessionTimeoutMs(groupId)`, `consumerGroupHeartbeatIntervalMs(groupId)`): at
//! a member's next heartbeat, not before. They belong to the group id, not to a group: they are
//! kept while no group of that id exists.

use crate::ErrorCode;
use crate::config::BrokerConfig;
use crate::protocol::{
    AlterConfigsResource, AlterConfigsResourceResponse, DescribeConfigsRequest,
    DescribeConfigsResourceResult, DescribeConfigsResponse, DescribeConfigsResult, GROUP_RESOURCE,
    IncrementalAlterConfigsRequest, IncrementalAlterConfigsResponse,
};
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

pub const CONSUMER_SESSION_TIMEOUT_MS: &str = "consumer.session.timeout.ms";
pub const CONSUMER_HEARTBEAT_INTERVAL_MS: &str = "consumer.heartbeat.interval.ms";
/// The names the model takes, in Kafka's order (the share group's settings are not modelled).
pub const NAMES: [&str; 2] = [CONSUMER_SESSION_TIMEOUT_MS, CONSUMER_HEARTBEAT_INTERVAL_MS];

/// IncrementalAlterConfigs' operation on one setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub enum AlterConfigOp {
    Set,
    Delete,
    Append,
    Subtract,
}

impl AlterConfigOp {
    /// From the wire's `ConfigOperation` byte.
    pub fn from_id(id: i8) -> Option<AlterConfigOp> {
        Some(match id {
            0 => AlterConfigOp::Set,
            1 => AlterConfigOp::Delete,
            2 => AlterConfigOp::Append,
            3 => AlterConfigOp::Subtract,
            _ => return None,
        })
    }
}

/// One setting to change.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct AlterableConfig {
    pub name: String,
    pub op: AlterConfigOp,
    pub value: Option<String>,
}

/// Where a described value comes from (Kafka's `ConfigSource` ids).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum ConfigSource {
    /// Set for this group (id 8).
    GroupConfig,
    /// The broker's setting (id 5).
    Default,
}

impl ConfigSource {
    pub const fn id(self) -> i8 {
        match self {
            ConfigSource::GroupConfig => 8,
            ConfigSource::Default => 5,
        }
    }
}

/// One described setting.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct ConfigEntry {
    pub name: &'static str,
    pub value: String,
    pub source: ConfigSource,
}

/// Each group id's settings (name -> value).
pub type GroupConfigs = BTreeMap<String, BTreeMap<&'static str, i32>>;

fn invalid_config<T>(message: String) -> Result<T, (ErrorCode, String)> {
    Err((ErrorCode::InvalidConfig, message))
}

/// A GROUP resource must name its group (Kafka: INVALID_REQUEST, for both APIs).
fn named(group_id: &str) -> Result<(), (ErrorCode, String)> {
    if group_id.is_empty() {
        return Err((
            ErrorCode::InvalidRequest,
            String::from("Group name must not be empty"),
        ));
    }
    Ok(())
}

fn known(name: &str) -> Option<&'static str> {
    NAMES.iter().copied().find(|n| *n == name)
}

/// Applies `ops` to a group's settings as Kafka's controller does, then validates the result
/// as `GroupConfig.validate` does (names, integer values of at least 1, the broker's bounds,
/// a session longer than the heartbeat interval). Returns the group's new settings.
pub fn altered(
    config: &BrokerConfig,
    current: &BTreeMap<&'static str, i32>,
    group_id: &str,
    ops: &[AlterableConfig],
) -> Result<BTreeMap<&'static str, i32>, (ErrorCode, String)> {
    named(group_id)?;
    let mut raw: BTreeMap<String, String> = current
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    for op in ops {
        match op.op {
            AlterConfigOp::Set => {
                raw.insert(op.name.clone(), op.value.clone().unwrap_or_default());
            }
            AlterConfigOp::Delete => {
                raw.remove(&op.name);
            }
            AlterConfigOp::Append | AlterConfigOp::Subtract => {
                let verb = if op.op == AlterConfigOp::Append {
                    "APPEND"
                } else {
                    "SUBTRACT"
                };
                return invalid_config(format!(
                    "Can't {verb} to key {} because its type is not LIST.",
                    op.name
                ));
            }
        }
    }
    // Every name is checked before any value (`validateNames`, then the parse).
    if let Some(name) = raw.keys().find(|n| known(n).is_none()) {
        return invalid_config(format!("Unknown group config name: {name}"));
    }
    let mut parsed = BTreeMap::new();
    for (name, value) in &raw {
        let Some(name) = known(name) else {
            continue;
        };
        let Ok(v) = value.trim().parse::<i32>() else {
            return invalid_config(format!(
                "Invalid value {value} for configuration {name}: Not a number of type INT"
            ));
        };
        if v < 1 {
            return invalid_config(format!(
                "Invalid value {v} for configuration {name}: Value must be at least 1"
            ));
        }
        parsed.insert(name, v);
    }
    let heartbeat = value(config, Some(&parsed), CONSUMER_HEARTBEAT_INTERVAL_MS).0;
    let session = value(config, Some(&parsed), CONSUMER_SESSION_TIMEOUT_MS).0;
    let bound = |value: i32, low: i32, high: i32, name: &str, setting: &str| {
        if value < low {
            invalid_config(format!(
                "{name} must be greater than or equal to group.consumer.min.{setting}"
            ))
        } else if value > high {
            invalid_config(format!(
                "{name} must be less than or equal to group.consumer.max.{setting}"
            ))
        } else {
            Ok(())
        }
    };
    bound(
        heartbeat,
        config.group_consumer_min_heartbeat_interval_ms,
        config.group_consumer_max_heartbeat_interval_ms,
        CONSUMER_HEARTBEAT_INTERVAL_MS,
        "heartbeat.interval.ms",
    )?;
    bound(
        session,
        config.group_consumer_min_session_timeout_ms,
        config.group_consumer_max_session_timeout_ms,
        CONSUMER_SESSION_TIMEOUT_MS,
        "session.timeout.ms",
    )?;
    if session <= heartbeat {
        return invalid_config(format!(
            "{CONSUMER_SESSION_TIMEOUT_MS} must be greater than {CONSUMER_HEARTBEAT_INTERVAL_MS}"
        ));
    }
    Ok(parsed)
}

/// DescribeConfigs of a group: every setting, from the group's own value or the broker's.
pub fn described(
    config: &BrokerConfig,
    configs: &GroupConfigs,
    group_id: &str,
) -> Result<Vec<ConfigEntry>, (ErrorCode, String)> {
    named(group_id)?;
    let own = configs.get(group_id);
    Ok(NAMES
        .iter()
        .map(|&name| {
            let (value, source) = value(config, own, name);
            ConfigEntry {
                name,
                value: value.to_string(),
                source,
            }
        })
        .collect())
}

/// A setting's value among a group's own (`own`), else the broker's, with where it came from.
fn value(
    config: &BrokerConfig,
    own: Option<&BTreeMap<&'static str, i32>>,
    name: &str,
) -> (i32, ConfigSource) {
    match own.and_then(|c| c.get(name)) {
        Some(&v) => (v, ConfigSource::GroupConfig),
        None if name == CONSUMER_SESSION_TIMEOUT_MS => (
            config.group_consumer_session_timeout_ms,
            ConfigSource::Default,
        ),
        None => (
            config.group_consumer_heartbeat_interval_ms,
            ConfigSource::Default,
        ),
    }
}

impl crate::ctx::Ctx {
    /// `consumerGroupSessionTimeoutMs(groupId)`: the group's config, else the broker's.
    pub fn consumer_session_timeout_ms(&self, group_id: &str) -> i64 {
        let own = self.group_configs.get(group_id);
        i64::from(value(&self.config, own, CONSUMER_SESSION_TIMEOUT_MS).0)
    }

    /// `consumerGroupHeartbeatIntervalMs(groupId)`: the group's config, else the broker's.
    pub fn consumer_heartbeat_interval_ms(&self, group_id: &str) -> i32 {
        let own = self.group_configs.get(group_id);
        value(&self.config, own, CONSUMER_HEARTBEAT_INTERVAL_MS).0
    }
}

/// A resource the model does not serve: its answer names why.
fn unmodelled(resource_type: i8) -> (ErrorCode, String) {
    (
        ErrorCode::InvalidRequest,
        format!(
            "Unsupported resource type: {resource_type} (the model serves config resources of type GROUP, 32, only)"
        ),
    )
}

/// DescribeConfigs: each GROUP resource's settings (all, or the keys asked for).
pub(crate) fn handle_describe(
    ctx: &crate::ctx::Ctx,
    r: &DescribeConfigsRequest,
) -> DescribeConfigsResponse {
    let results = r
        .resources
        .iter()
        .map(|resource| {
            let described = if resource.resource_type == GROUP_RESOURCE {
                described(&ctx.config, &ctx.group_configs, &resource.resource_name)
            } else {
                Err(unmodelled(resource.resource_type))
            };
            match described {
                Ok(entries) => DescribeConfigsResult {
                    error_code: ErrorCode::None,
                    error_message: None,
                    resource_type: resource.resource_type,
                    resource_name: resource.resource_name.clone(),
                    configs: entries
                        .into_iter()
                        .filter(|e| {
                            resource
                                .configuration_keys
                                .as_ref()
                                .is_none_or(|keys| keys.iter().any(|k| k == e.name))
                        })
                        .map(|e| DescribeConfigsResourceResult {
                            name: String::from(e.name),
                            value: Some(e.value),
                            read_only: false,
                            config_source: e.source.id(),
                            is_sensitive: false,
                            // INT, in the versions that carry a type.
                            config_type: if r.api_version >= 3 { 3 } else { 0 },
                        })
                        .collect(),
                },
                Err((code, message)) => DescribeConfigsResult {
                    error_code: code,
                    error_message: Some(message),
                    resource_type: resource.resource_type,
                    resource_name: resource.resource_name.clone(),
                    configs: Vec::new(),
                },
            }
        })
        .collect();
    DescribeConfigsResponse {
        api_version: r.api_version,
        correlation_id: r.correlation_id,
        throttle_time_ms: 0,
        results,
    }
}

/// IncrementalAlterConfigs: each GROUP resource's settings changed (or, with `validate_only`,
/// only checked), each resource on its own.
pub(crate) fn handle_alter(
    ctx: &mut crate::ctx::Ctx,
    r: &IncrementalAlterConfigsRequest,
) -> IncrementalAlterConfigsResponse {
    let responses = r
        .resources
        .iter()
        .map(|resource| {
            let result = alter_one(ctx, resource, r.validate_only);
            let (error_code, error_message) = match result {
                Ok(()) => (ErrorCode::None, None),
                Err((code, message)) => (code, Some(message)),
            };
            AlterConfigsResourceResponse {
                error_code,
                error_message,
                resource_type: resource.resource_type,
                resource_name: resource.resource_name.clone(),
            }
        })
        .collect();
    IncrementalAlterConfigsResponse {
        api_version: r.api_version,
        correlation_id: r.correlation_id,
        throttle_time_ms: 0,
        responses,
    }
}

fn alter_one(
    ctx: &mut crate::ctx::Ctx,
    resource: &AlterConfigsResource,
    validate_only: bool,
) -> Result<(), (ErrorCode, String)> {
    if resource.resource_type != GROUP_RESOURCE {
        return Err(unmodelled(resource.resource_type));
    }
    let mut names: Vec<&str> = resource.configs.iter().map(|c| c.name.as_str()).collect();
    names.sort_unstable();
    if names.windows(2).any(|w| w[0] == w[1]) {
        return Err((
            ErrorCode::InvalidRequest,
            String::from("Error due to duplicate config keys"),
        ));
    }
    let mut ops = Vec::new();
    for c in &resource.configs {
        let Some(op) = AlterConfigOp::from_id(c.config_operation) else {
            return Err((
                ErrorCode::InvalidRequest,
                format!("Unknown alter config operation type {}", c.config_operation),
            ));
        };
        ops.push(AlterableConfig {
            name: c.name.clone(),
            op,
            value: c.value.clone(),
        });
    }
    alter(ctx, &resource.resource_name, &ops, validate_only)
}

/// Applies (unless `validate_only`) a change to one group's settings.
pub(crate) fn alter(
    ctx: &mut crate::ctx::Ctx,
    group_id: &str,
    ops: &[AlterableConfig],
    validate_only: bool,
) -> Result<(), (ErrorCode, String)> {
    let empty = BTreeMap::new();
    let current = ctx.group_configs.get(group_id).unwrap_or(&empty);
    let updated = altered(&ctx.config, current, group_id, ops)?;
    if !validate_only {
        if updated.is_empty() {
            ctx.group_configs.remove(group_id);
        } else {
            ctx.group_configs.insert(String::from(group_id), updated);
        }
    }
    Ok(())
}
