//! Broker configuration, by Kafka's own property names and with Kafka's defaults (`docs/src/reference/classic-protocol.md#settings-broker`).

use alloc::format;
use alloc::string::{String, ToString};

/// Which coordinator implementation to reproduce where Kafka's two disagree (`docs/src/reference/kafka-3x-and-4.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Flavour {
    /// The Java coordinator of `group-coordinator/` (Kafka 4.0, the default).
    #[default]
    #[cfg_attr(feature = "serde", serde(rename = "4.0"))]
    Kafka4,
    /// The Scala `GroupCoordinator` (Kafka up to 3.9): differences D1–D11 of `docs/src/reference/kafka-3x-and-4.md`.
    #[cfg_attr(feature = "serde", serde(rename = "3.x"))]
    Kafka3,
}

/// The broker settings the classic group coordinator reads.
///
/// Field names are Kafka's property names in snake case; [`BrokerConfig::set`] takes the dotted
/// names (`group.initial.rebalance.delay.ms`, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrokerConfig {
    /// `group.min.session.timeout.ms`
    pub group_min_session_timeout_ms: i32,
    /// `group.max.session.timeout.ms`
    pub group_max_session_timeout_ms: i32,
    /// `group.initial.rebalance.delay.ms`
    pub group_initial_rebalance_delay_ms: i32,
    /// `group.max.size`
    pub group_max_size: i32,
    /// `offsets.retention.minutes`
    pub offsets_retention_minutes: i32,
    /// `offsets.retention.check.interval.ms`
    pub offsets_retention_check_interval_ms: i64,
    /// `offset.metadata.max.bytes`
    pub offset_metadata_max_bytes: i32,
    /// `group.coordinator.new.enable` (true: the Java coordinator; false: the Scala one), also
    /// settable as `flavour` = `"4.0"` / `"3.x"`.
    pub flavour: Flavour,
    /// `group.consumer.session.timeout.ms` (KIP-848 groups).
    pub group_consumer_session_timeout_ms: i32,
    /// `group.consumer.min.session.timeout.ms`
    pub group_consumer_min_session_timeout_ms: i32,
    /// `group.consumer.max.session.timeout.ms`
    pub group_consumer_max_session_timeout_ms: i32,
    /// `group.consumer.heartbeat.interval.ms`
    pub group_consumer_heartbeat_interval_ms: i32,
    /// `group.consumer.min.heartbeat.interval.ms`
    pub group_consumer_min_heartbeat_interval_ms: i32,
    /// `group.consumer.max.heartbeat.interval.ms`
    pub group_consumer_max_heartbeat_interval_ms: i32,
    /// Whether `group.coordinator.rebalance.protocols` enables `consumer` (KIP-848); `classic`
    /// is always there.
    pub consumer_protocol_enabled: bool,
    /// `group.consumer.max.size`
    pub group_consumer_max_size: i32,
    /// `group.consumer.assignors`, in order of preference (the first is the default).
    pub group_consumer_assignors: alloc::vec::Vec<crate::consumer_group::assignor::ServerAssignor>,
    /// `group.consumer.migration.policy`: which online conversions between a classic group and
    /// a consumer group are allowed.
    pub group_consumer_migration_policy: MigrationPolicy,
}

/// The new-member join timeout: a constant in Kafka since 2.2 (KAFKA-7610), not a setting.
pub const NEW_MEMBER_JOIN_TIMEOUT_MS: i64 = 300_000;

impl Default for BrokerConfig {
    fn default() -> Self {
        BrokerConfig {
            group_min_session_timeout_ms: 6_000,
            group_max_session_timeout_ms: 1_800_000,
            group_initial_rebalance_delay_ms: 3_000,
            group_max_size: i32::MAX,
            offsets_retention_minutes: 10_080,
            offsets_retention_check_interval_ms: 600_000,
            offset_metadata_max_bytes: 4_096,
            flavour: Flavour::Kafka4,
            group_consumer_session_timeout_ms: 45_000,
            group_consumer_min_session_timeout_ms: 45_000,
            group_consumer_max_session_timeout_ms: 60_000,
            group_consumer_heartbeat_interval_ms: 5_000,
            group_consumer_min_heartbeat_interval_ms: 5_000,
            group_consumer_max_heartbeat_interval_ms: 15_000,
            consumer_protocol_enabled: true,
            group_consumer_max_size: i32::MAX,
            group_consumer_assignors: alloc::vec![
                crate::consumer_group::assignor::ServerAssignor::Uniform,
                crate::consumer_group::assignor::ServerAssignor::Range,
            ],
            group_consumer_migration_policy: MigrationPolicy::Bidirectional,
        }
    }
}

/// `group.consumer.migration.policy` (Kafka's `ConsumerGroupMigrationPolicy`; 4.0's default is
/// bidirectional).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MigrationPolicy {
    Disabled,
    Upgrade,
    Downgrade,
    Bidirectional,
}

impl MigrationPolicy {
    pub fn name(self) -> &'static str {
        match self {
            MigrationPolicy::Disabled => "disabled",
            MigrationPolicy::Upgrade => "upgrade",
            MigrationPolicy::Downgrade => "downgrade",
            MigrationPolicy::Bidirectional => "bidirectional",
        }
    }

    /// A classic group with members may become a consumer group.
    pub fn is_upgrade_enabled(self) -> bool {
        matches!(
            self,
            MigrationPolicy::Upgrade | MigrationPolicy::Bidirectional
        )
    }

    /// A consumer group left with only classic members may become a classic group.
    pub fn is_downgrade_enabled(self) -> bool {
        matches!(
            self,
            MigrationPolicy::Downgrade | MigrationPolicy::Bidirectional
        )
    }
}

/// A configuration value as it arrives from a properties file or JSON: a number or a string.
#[derive(Clone, Debug, PartialEq)]
pub enum ConfigValue {
    Number(f64),
    Text(String),
    Bool(bool),
}

/// Why a configuration was refused. The message names the key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    pub key: String,
    /// Whether the key is not a setting at all (rather than a setting with a bad value).
    pub unknown_key: bool,
    pub message: String,
}

impl core::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "config \"{}\": {}", self.key, self.message)
    }
}

/// One accepted key: its name, its default as text, and what it means (for the page's help).
#[derive(Clone, Copy, Debug)]
pub struct ConfigKey {
    pub name: &'static str,
    pub default: &'static str,
    pub doc: &'static str,
    /// The same in Chinese (the page's tooltips).
    pub doc_zh: &'static str,
}

impl BrokerConfig {
    /// Every key [`BrokerConfig::set`] accepts, in the order the page lists them.
    pub const KEYS: [ConfigKey; 19] = [
        ConfigKey {
            name: "group.initial.rebalance.delay.ms",
            default: "3000",
            doc: "how long the first rebalance of an empty group waits for more members",
            doc_zh: "空消费组的第一次再平衡等待更多成员加入的时间",
        },
        ConfigKey {
            name: "group.min.session.timeout.ms",
            default: "6000",
            doc: "smallest session timeout a JoinGroup may ask for",
            doc_zh: "加入组请求可申请的最小会话超时",
        },
        ConfigKey {
            name: "group.max.session.timeout.ms",
            default: "1800000",
            doc: "largest session timeout a JoinGroup may ask for",
            doc_zh: "加入组请求可申请的最大会话超时",
        },
        ConfigKey {
            name: "group.max.size",
            default: "2147483647",
            doc: "most members a group may have",
            doc_zh: "消费组最多可有的成员数",
        },
        ConfigKey {
            name: "offsets.retention.minutes",
            default: "10080",
            doc: "how long offsets of an empty group are kept",
            doc_zh: "空消费组的位移保留多久",
        },
        ConfigKey {
            name: "offsets.retention.check.interval.ms",
            default: "600000",
            doc: "how often expired offsets are removed",
            doc_zh: "多久清理一次过期位移",
        },
        ConfigKey {
            name: "offset.metadata.max.bytes",
            default: "4096",
            doc: "longest metadata string an offset commit may carry",
            doc_zh: "位移提交可携带的元数据字符串最大长度",
        },
        ConfigKey {
            name: "group.coordinator.new.enable",
            default: "true",
            doc: "true: Kafka 4.0's Java coordinator; false: the Scala coordinator of Kafka 3.x",
            doc_zh: "true：Kafka 4.0 的 Java 协调者；false：Kafka 3.x 的 Scala 协调者",
        },
        ConfigKey {
            name: "group.coordinator.rebalance.protocols",
            default: "classic,consumer",
            doc: "the group protocols the coordinator speaks: classic always; consumer for KIP-848 groups (ConsumerGroupHeartbeat)",
            doc_zh: "协调者支持的组协议：classic 总是支持；consumer 用于 KIP-848 消费组（ConsumerGroupHeartbeat）",
        },
        ConfigKey {
            name: "group.consumer.session.timeout.ms",
            default: "45000",
            doc: "KIP-848 groups: how long a member may go without a heartbeat before it is fenced (the broker sets it, not the client)",
            doc_zh: "KIP-848 消费组：成员多久没有心跳就被隔离（由 broker 设置，而非客户端）",
        },
        ConfigKey {
            name: "group.consumer.min.session.timeout.ms",
            default: "45000",
            doc: "KIP-848 groups: the smallest session timeout allowed",
            doc_zh: "KIP-848 消费组：允许的最小会话超时",
        },
        ConfigKey {
            name: "group.consumer.max.session.timeout.ms",
            default: "60000",
            doc: "KIP-848 groups: the largest session timeout allowed",
            doc_zh: "KIP-848 消费组：允许的最大会话超时",
        },
        ConfigKey {
            name: "group.consumer.heartbeat.interval.ms",
            default: "5000",
            doc: "KIP-848 groups: how often members heartbeat (told in every response)",
            doc_zh: "KIP-848 消费组：成员发送心跳的间隔（每个响应都会告知）",
        },
        ConfigKey {
            name: "group.consumer.min.heartbeat.interval.ms",
            default: "5000",
            doc: "KIP-848 groups: the smallest heartbeat interval allowed",
            doc_zh: "KIP-848 消费组：允许的最小心跳间隔",
        },
        ConfigKey {
            name: "group.consumer.max.heartbeat.interval.ms",
            default: "15000",
            doc: "KIP-848 groups: the largest heartbeat interval allowed",
            doc_zh: "KIP-848 消费组：允许的最大心跳间隔",
        },
        ConfigKey {
            name: "group.consumer.max.size",
            default: "2147483647",
            doc: "KIP-848 groups: most members a consumer group may have",
            doc_zh: "KIP-848 消费组：消费组最多可有的成员数",
        },
        ConfigKey {
            name: "group.consumer.assignors",
            default: "uniform,range",
            doc: "KIP-848 groups: the server assignors, in order of preference (the first is the default)",
            doc_zh: "KIP-848 消费组：服务端分配器，按偏好排列（第一个为默认）",
        },
        ConfigKey {
            name: "group.consumer.migration.policy",
            default: "bidirectional",
            doc: "which online conversions between a classic group and a consumer group are allowed: disabled, upgrade, downgrade or bidirectional",
            doc_zh: "允许的经典组与消费组之间的在线转换：disabled、upgrade、downgrade 或 bidirectional",
        },
        ConfigKey {
            name: "flavour",
            default: "4.0",
            doc: "playground shorthand for group.coordinator.new.enable: \"4.0\" or \"3.x\"",
            doc_zh: "group.coordinator.new.enable 的简写：\"4.0\" 或 \"3.x\"",
        },
    ];

    /// Sets one property by its Kafka name. Unknown keys and out-of-range values are errors that
    /// name the key; on error the configuration is unchanged.
    pub fn set(&mut self, key: &str, value: &ConfigValue) -> Result<(), ConfigError> {
        let err = |message: String| ConfigError {
            key: key.to_string(),
            unknown_key: false,
            message,
        };
        match key {
            "group.initial.rebalance.delay.ms" => {
                self.group_initial_rebalance_delay_ms = int(value, 0, i32::MAX).map_err(err)?
            }
            "group.min.session.timeout.ms" => {
                self.group_min_session_timeout_ms = int(value, 0, i32::MAX).map_err(err)?
            }
            "group.max.session.timeout.ms" => {
                self.group_max_session_timeout_ms = int(value, 0, i32::MAX).map_err(err)?
            }
            "group.max.size" => self.group_max_size = int(value, 1, i32::MAX).map_err(err)?,
            "offsets.retention.minutes" => {
                self.offsets_retention_minutes = int(value, 1, i32::MAX).map_err(err)?
            }
            "offsets.retention.check.interval.ms" => {
                self.offsets_retention_check_interval_ms =
                    i64::from(int(value, 1, i32::MAX).map_err(err)?)
            }
            "offset.metadata.max.bytes" => {
                self.offset_metadata_max_bytes = int(value, 0, i32::MAX).map_err(err)?
            }
            "group.coordinator.new.enable" => {
                self.flavour = match value {
                    ConfigValue::Bool(true) => Flavour::Kafka4,
                    ConfigValue::Bool(false) => Flavour::Kafka3,
                    ConfigValue::Text(t) if t == "true" => Flavour::Kafka4,
                    ConfigValue::Text(t) if t == "false" => Flavour::Kafka3,
                    _ => return Err(err("expected true or false".to_string())),
                }
            }
            "group.consumer.session.timeout.ms" => {
                self.group_consumer_session_timeout_ms = int(value, 1, i32::MAX).map_err(err)?
            }
            "group.consumer.min.session.timeout.ms" => {
                self.group_consumer_min_session_timeout_ms = int(value, 1, i32::MAX).map_err(err)?
            }
            "group.consumer.max.session.timeout.ms" => {
                self.group_consumer_max_session_timeout_ms = int(value, 1, i32::MAX).map_err(err)?
            }
            "group.consumer.heartbeat.interval.ms" => {
                self.group_consumer_heartbeat_interval_ms = int(value, 1, i32::MAX).map_err(err)?
            }
            "group.consumer.min.heartbeat.interval.ms" => {
                self.group_consumer_min_heartbeat_interval_ms =
                    int(value, 1, i32::MAX).map_err(err)?
            }
            "group.consumer.max.heartbeat.interval.ms" => {
                self.group_consumer_max_heartbeat_interval_ms =
                    int(value, 1, i32::MAX).map_err(err)?
            }
            "group.consumer.max.size" => {
                self.group_consumer_max_size = int(value, 1, i32::MAX).map_err(err)?
            }
            "group.consumer.assignors" => {
                let ConfigValue::Text(list) = value else {
                    return Err(err(
                        "expected a comma-separated list: uniform, range".to_string()
                    ));
                };
                let mut assignors = alloc::vec::Vec::new();
                for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                    let a = crate::consumer_group::assignor::ServerAssignor::from_name(name)
                        .ok_or_else(|| {
                            err(format!(
                                "\"{name}\" is not a server assignor (uniform, range)"
                            ))
                        })?;
                    if !assignors.contains(&a) {
                        assignors.push(a);
                    }
                }
                if assignors.is_empty() {
                    return Err(err("at least one assignor: uniform, range".to_string()));
                }
                self.group_consumer_assignors = assignors;
            }
            "group.coordinator.rebalance.protocols" => {
                let ConfigValue::Text(list) = value else {
                    return Err(err(
                        "expected a comma-separated list: classic, consumer".to_string()
                    ));
                };
                let names: alloc::vec::Vec<&str> = list
                    .split(',')
                    .map(str::trim)
                    .filter(|n| !n.is_empty())
                    .collect();
                if let Some(bad) = names
                    .iter()
                    .find(|n| !["classic", "consumer", "share", "streams"].contains(n))
                {
                    return Err(err(format!(
                        "\"{bad}\" is not a group protocol (classic, consumer)"
                    )));
                }
                if !names.contains(&"classic") {
                    return Err(err("the classic protocol is required".to_string()));
                }
                self.consumer_protocol_enabled = names.contains(&"consumer");
            }
            "group.consumer.migration.policy" => {
                let policies = [
                    MigrationPolicy::Disabled,
                    MigrationPolicy::Upgrade,
                    MigrationPolicy::Downgrade,
                    MigrationPolicy::Bidirectional,
                ];
                // Kafka's validator takes the name in any case.
                self.group_consumer_migration_policy = match value {
                    ConfigValue::Text(t) => policies
                        .into_iter()
                        .find(|p| p.name().eq_ignore_ascii_case(t.trim())),
                    _ => None,
                }
                .ok_or_else(|| {
                    err("expected disabled, upgrade, downgrade or bidirectional".to_string())
                })?;
            }
            "flavour" => {
                self.flavour = match value {
                    ConfigValue::Text(t) if t == "4.0" => Flavour::Kafka4,
                    ConfigValue::Text(t) if t == "3.x" => Flavour::Kafka3,
                    _ => return Err(err("expected \"4.0\" or \"3.x\"".to_string())),
                }
            }
            _ => {
                return Err(ConfigError {
                    unknown_key: true,
                    ..err(
                        "unknown key (broker settings use Kafka's property names, e.g. group.initial.rebalance.delay.ms)"
                            .to_string(),
                    )
                });
            }
        }
        Ok(())
    }

    /// Checks the relations between settings (Kafka's `GroupCoordinatorConfig` requirements).
    pub fn validate(&self) -> Result<(), ConfigError> {
        let fail = |key: &str, message: String| {
            Err(ConfigError {
                key: key.to_string(),
                unknown_key: false,
                message,
            })
        };
        let (min, v, max) = (
            self.group_consumer_min_session_timeout_ms,
            self.group_consumer_session_timeout_ms,
            self.group_consumer_max_session_timeout_ms,
        );
        if !(min..=max).contains(&v) {
            return fail(
                "group.consumer.session.timeout.ms",
                format!("{v} is outside group.consumer.min/max.session.timeout.ms ({min}..={max})"),
            );
        }
        let (min, v, max) = (
            self.group_consumer_min_heartbeat_interval_ms,
            self.group_consumer_heartbeat_interval_ms,
            self.group_consumer_max_heartbeat_interval_ms,
        );
        if !(min..=max).contains(&v) {
            return fail(
                "group.consumer.heartbeat.interval.ms",
                format!(
                    "{v} is outside group.consumer.min/max.heartbeat.interval.ms ({min}..={max})"
                ),
            );
        }
        if self.group_consumer_heartbeat_interval_ms >= self.group_consumer_session_timeout_ms {
            return fail(
                "group.consumer.heartbeat.interval.ms",
                format!(
                    "{} must be below group.consumer.session.timeout.ms ({})",
                    self.group_consumer_heartbeat_interval_ms,
                    self.group_consumer_session_timeout_ms
                ),
            );
        }
        if self.group_max_session_timeout_ms < self.group_min_session_timeout_ms {
            return Err(ConfigError {
                key: "group.max.session.timeout.ms".to_string(),
                unknown_key: false,
                message: format!(
                    "{} is below group.min.session.timeout.ms ({})",
                    self.group_max_session_timeout_ms, self.group_min_session_timeout_ms
                ),
            });
        }
        Ok(())
    }

    /// Builds a configuration from `(key, value)` pairs over the defaults.
    pub fn from_pairs<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a ConfigValue)>,
    ) -> Result<BrokerConfig, ConfigError> {
        let mut config = BrokerConfig::default();
        for (key, value) in pairs {
            config.set(key, value)?;
        }
        config.validate()?;
        Ok(config)
    }
}

fn int(value: &ConfigValue, min: i32, max: i32) -> Result<i32, String> {
    let n = value.whole_number(i64::from(min), i64::from(max))?;
    Ok(n as i32)
}

impl ConfigValue {
    /// The value as a whole number in `min..=max` (numbers, or text holding one); the error says
    /// what is wrong with it. Shared with the simulator's consumer settings.
    pub fn whole_number(&self, min: i64, max: i64) -> Result<i64, String> {
        let n = match self {
            ConfigValue::Number(n) => *n,
            ConfigValue::Text(t) => t
                .trim()
                .parse::<f64>()
                .map_err(|_| format!("\"{t}\" is not a number"))?,
            ConfigValue::Bool(b) => return Err(format!("{b} is not a number")),
        };
        // `n != n` is the NaN test without std's float methods.
        #[allow(clippy::eq_op)]
        let is_integer = n == n && n == (n as i64) as f64;
        if !is_integer {
            return Err(format!("{n} is not an integer"));
        }
        if n < min as f64 || n > max as f64 {
            return Err(format!("{n} is outside {min}..={max}"));
        }
        Ok(n as i64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_kafkas() {
        let c = BrokerConfig::default();
        assert_eq!(c.group_initial_rebalance_delay_ms, 3000);
        assert_eq!(c.group_min_session_timeout_ms, 6000);
        assert_eq!(c.group_max_session_timeout_ms, 1_800_000);
        assert_eq!(c.group_max_size, i32::MAX);
        assert_eq!(c.offsets_retention_minutes, 10_080);
        assert_eq!(c.flavour, Flavour::Kafka4);
        for key in BrokerConfig::KEYS {
            let mut c = BrokerConfig::default();
            let value = match key.default {
                "true" => ConfigValue::Bool(true),
                d => ConfigValue::Text(d.to_string()),
            };
            c.set(key.name, &value).unwrap();
            assert_eq!(c, BrokerConfig::default(), "{}", key.name);
        }
    }

    #[test]
    fn bad_values_name_the_key_and_change_nothing() {
        let mut c = BrokerConfig::default();
        let e = c
            .set("group.max.size", &ConfigValue::Number(0.0))
            .unwrap_err();
        assert_eq!(e.key, "group.max.size");
        assert!(c.set("group.max.size", &ConfigValue::Number(1.5)).is_err());
        assert!(
            c.set("group.max.size", &ConfigValue::Number(f64::NAN))
                .is_err()
        );
        assert!(
            c.set("group.max.size", &ConfigValue::Text("x".into()))
                .is_err()
        );
        assert!(
            c.set("session.timeout.ms", &ConfigValue::Number(1.0))
                .is_err()
        );
        assert_eq!(c, BrokerConfig::default());
        let e = BrokerConfig::from_pairs([
            ("group.min.session.timeout.ms", &ConfigValue::Number(10.0)),
            ("group.max.session.timeout.ms", &ConfigValue::Number(5.0)),
        ])
        .unwrap_err();
        assert_eq!(e.key, "group.max.session.timeout.ms");
    }
}
