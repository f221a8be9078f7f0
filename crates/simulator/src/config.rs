//! Consumer settings by Kafka's property names, with the Java client's defaults (`docs/src/reference/classic-protocol.md#settings-consumer`).

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use group_coordinator::assignor::Strategy;
use group_coordinator::{ConfigKey, ConfigValue};

/// The settings of one simulated consumer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConsumerConfig {
    /// `session.timeout.ms`
    pub session_timeout_ms: i64,
    /// `heartbeat.interval.ms`
    pub heartbeat_interval_ms: i64,
    /// `max.poll.interval.ms` (also the JoinGroup rebalance timeout)
    pub max_poll_interval_ms: i64,
    /// `partition.assignment.strategy`, in order of preference
    pub partition_assignment_strategy: Vec<Strategy>,
    /// `group.instance.id` (static membership)
    pub group_instance_id: Option<String>,
    /// `enable.auto.commit`
    pub enable_auto_commit: bool,
    /// `auto.commit.interval.ms`
    pub auto_commit_interval_ms: i64,
    /// `request.timeout.ms`
    pub request_timeout_ms: i64,
    /// `metadata.max.age.ms`: how old the consumer's topic metadata may get before `poll()`
    /// refreshes it (a classic group's leader notices a partition count change this way).
    pub metadata_max_age_ms: i64,
    /// `retry.backoff.ms`
    pub retry_backoff_ms: i64,
    /// `retry.backoff.max.ms`
    pub retry_backoff_max_ms: i64,
    /// `internal.leave.group.on.close`
    pub internal_leave_group_on_close: bool,
    /// `client.rack`
    pub client_rack: Option<String>,
    /// `group.protocol`: the classic protocol (JoinGroup/SyncGroup/Heartbeat) or the consumer
    /// protocol (KIP-848: ConsumerGroupHeartbeat, assignment computed by the coordinator).
    pub group_protocol: GroupProtocol,
    /// `group.remote.assignor`: the server assignor a consumer-protocol member asks for
    /// ("uniform" or "range"); unset, the coordinator's default.
    pub group_remote_assignor: Option<String>,
}

/// `group.protocol`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum GroupProtocol {
    #[default]
    Classic,
    Consumer,
}

impl GroupProtocol {
    pub fn name(self) -> &'static str {
        match self {
            GroupProtocol::Classic => "classic",
            GroupProtocol::Consumer => "consumer",
        }
    }
}

impl Default for ConsumerConfig {
    fn default() -> Self {
        ConsumerConfig {
            session_timeout_ms: 45_000,
            heartbeat_interval_ms: 3_000,
            max_poll_interval_ms: 300_000,
            partition_assignment_strategy: alloc::vec![
                Strategy::Range,
                Strategy::CooperativeSticky
            ],
            group_instance_id: None,
            enable_auto_commit: true,
            auto_commit_interval_ms: 5_000,
            request_timeout_ms: 30_000,
            metadata_max_age_ms: 300_000,
            retry_backoff_ms: 100,
            retry_backoff_max_ms: 1_000,
            internal_leave_group_on_close: true,
            client_rack: None,
            group_protocol: GroupProtocol::Classic,
            group_remote_assignor: None,
        }
    }
}

/// The rebalance protocol a consumer follows (KIP-429): the highest one every configured
/// assignor supports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum RebalanceProtocol {
    #[serde(rename = "eager")]
    Eager,
    #[serde(rename = "cooperative")]
    Cooperative,
}

impl ConsumerConfig {
    /// Every key [`ConsumerConfig::set`] accepts, in the order the page lists them.
    pub const KEYS: [ConfigKey; 15] = [
        ConfigKey {
            name: "session.timeout.ms",
            default: "45000",
            doc: "how long the coordinator waits for a heartbeat before removing the member",
            doc_zh: "协调者在移除成员前等待心跳的时间",
        },
        ConfigKey {
            name: "heartbeat.interval.ms",
            default: "3000",
            doc: "how often the heartbeat thread sends a Heartbeat (must be below session.timeout.ms)",
            doc_zh: "心跳线程发送心跳请求的间隔（须小于 session.timeout.ms）",
        },
        ConfigKey {
            name: "max.poll.interval.ms",
            default: "300000",
            doc: "longest time between two poll() calls before the consumer leaves; also the rebalance timeout",
            doc_zh: "两次调用 poll() 之间的最长时间，超过则消费者离开消费组；也是再平衡超时",
        },
        ConfigKey {
            name: "partition.assignment.strategy",
            default: "range,cooperative-sticky",
            doc: "assignors in order of preference: range, roundrobin, sticky, cooperative-sticky",
            doc_zh: "按偏好排列的分配器：range、roundrobin、sticky、cooperative-sticky",
        },
        ConfigKey {
            name: "group.instance.id",
            default: "",
            doc: "set for static membership: no LeaveGroup on close, a restart within the session causes no rebalance",
            doc_zh: "设置后成为静态成员：关闭时不发送离开组请求，会话内重启不会引起再平衡",
        },
        ConfigKey {
            name: "enable.auto.commit",
            default: "true",
            doc: "commit offsets in the background (and before partitions are revoked)",
            doc_zh: "在后台自动提交位移（撤销分区前也会提交）",
        },
        ConfigKey {
            name: "auto.commit.interval.ms",
            default: "5000",
            doc: "how often offsets are committed when auto commit is on",
            doc_zh: "开启自动提交时提交位移的间隔",
        },
        ConfigKey {
            name: "request.timeout.ms",
            default: "30000",
            doc: "how long the client waits for a response (JoinGroup: max of this and the rebalance timeout + 5 s)",
            doc_zh: "客户端等待响应的时间（加入组请求：取它与再平衡超时 + 5 秒中的较大者）",
        },
        ConfigKey {
            name: "metadata.max.age.ms",
            default: "300000",
            doc: "how old the topic metadata may get before poll() refreshes it: a classic group's leader rejoins when a subscribed topic's partition count changed",
            doc_zh: "主题元数据最长多久刷新一次（由 poll() 刷新）：经典组的领导者发现订阅主题的分区数变化后会重新加入",
        },
        ConfigKey {
            name: "retry.backoff.ms",
            default: "100",
            doc: "first wait before retrying after a retriable error",
            doc_zh: "可重试错误后第一次重试前的等待时间",
        },
        ConfigKey {
            name: "retry.backoff.max.ms",
            default: "1000",
            doc: "the retry wait grows exponentially up to this",
            doc_zh: "重试等待按指数增长，最多到此值",
        },
        ConfigKey {
            name: "internal.leave.group.on.close",
            default: "true",
            doc: "a dynamic member sends LeaveGroup when it is closed",
            doc_zh: "动态成员关闭时发送离开组请求",
        },
        ConfigKey {
            name: "client.rack",
            default: "",
            doc: "the consumer's rack, for rack-aware assignment",
            doc_zh: "消费者所在机架，用于机架感知分配",
        },
        ConfigKey {
            name: "group.protocol",
            default: "classic",
            doc: "classic (JoinGroup/SyncGroup, the leader assigns) or consumer (KIP-848: ConsumerGroupHeartbeat, the coordinator assigns; session and heartbeat timing come from the broker's group.consumer.* settings)",
            doc_zh: "classic（加入组/同步组请求，由领导者分配）或 consumer（KIP-848：消费组心跳请求，由协调者分配；会话与心跳时间取自 broker 的 group.consumer.* 配置）",
        },
        ConfigKey {
            name: "group.remote.assignor",
            default: "",
            doc: "consumer protocol only: the server assignor to ask for (uniform or range); empty: the broker's default",
            doc_zh: "仅用于 consumer 协议：请求使用的服务端分配器（uniform 或 range）；为空则用 broker 的默认值",
        },
    ];

    /// Every property by its Kafka name with its current value, in [`ConsumerConfig::KEYS`]
    /// order (what the views show; `set` reads the same text back).
    pub fn values(&self) -> [(&'static str, String); 15] {
        let strategies: Vec<&str> = self
            .partition_assignment_strategy
            .iter()
            .map(|s| s.name())
            .collect();
        [
            ("session.timeout.ms", self.session_timeout_ms.to_string()),
            (
                "heartbeat.interval.ms",
                self.heartbeat_interval_ms.to_string(),
            ),
            (
                "max.poll.interval.ms",
                self.max_poll_interval_ms.to_string(),
            ),
            ("partition.assignment.strategy", strategies.join(",")),
            (
                "group.instance.id",
                self.group_instance_id.clone().unwrap_or_default(),
            ),
            ("enable.auto.commit", self.enable_auto_commit.to_string()),
            (
                "auto.commit.interval.ms",
                self.auto_commit_interval_ms.to_string(),
            ),
            ("request.timeout.ms", self.request_timeout_ms.to_string()),
            ("metadata.max.age.ms", self.metadata_max_age_ms.to_string()),
            ("retry.backoff.ms", self.retry_backoff_ms.to_string()),
            (
                "retry.backoff.max.ms",
                self.retry_backoff_max_ms.to_string(),
            ),
            (
                "internal.leave.group.on.close",
                self.internal_leave_group_on_close.to_string(),
            ),
            ("client.rack", self.client_rack.clone().unwrap_or_default()),
            ("group.protocol", self.group_protocol.name().to_string()),
            (
                "group.remote.assignor",
                self.group_remote_assignor.clone().unwrap_or_default(),
            ),
        ]
    }

    /// Sets one property by its Kafka name; on error nothing changes and the error names the key.
    pub fn set(&mut self, key: &str, value: &ConfigValue) -> Result<(), String> {
        match key {
            "session.timeout.ms" => self.session_timeout_ms = ms(value, 1)?,
            "heartbeat.interval.ms" => self.heartbeat_interval_ms = ms(value, 1)?,
            "max.poll.interval.ms" => self.max_poll_interval_ms = ms(value, 1)?,
            "auto.commit.interval.ms" => self.auto_commit_interval_ms = ms(value, 1)?,
            "request.timeout.ms" => self.request_timeout_ms = ms(value, 1)?,
            "metadata.max.age.ms" => self.metadata_max_age_ms = ms(value, 0)?,
            "retry.backoff.ms" => self.retry_backoff_ms = ms(value, 0)?,
            "retry.backoff.max.ms" => self.retry_backoff_max_ms = ms(value, 0)?,
            "enable.auto.commit" => self.enable_auto_commit = boolean(value)?,
            "internal.leave.group.on.close" => self.internal_leave_group_on_close = boolean(value)?,
            "group.instance.id" => self.group_instance_id = optional_text(value)?,
            "client.rack" => self.client_rack = optional_text(value)?,
            "partition.assignment.strategy" => {
                self.partition_assignment_strategy = strategies(value)?
            }
            "group.protocol" => {
                self.group_protocol = match value {
                    ConfigValue::Text(t) if t.eq_ignore_ascii_case("classic") => {
                        GroupProtocol::Classic
                    }
                    ConfigValue::Text(t) if t.eq_ignore_ascii_case("consumer") => {
                        GroupProtocol::Consumer
                    }
                    _ => return Err("expected \"classic\" or \"consumer\"".to_string()),
                }
            }
            "group.remote.assignor" => {
                let name = optional_text(value)?;
                if let Some(n) = &name
                    && group_coordinator::consumer_group::assignor::ServerAssignor::from_name(n)
                        .is_none()
                {
                    return Err(format!("unknown server assignor \"{n}\" (uniform, range)"));
                }
                self.group_remote_assignor = name;
            }
            _ => {
                return Err("unknown key (consumer settings use Kafka's property names, e.g. session.timeout.ms)".to_string());
            }
        }
        Ok(())
    }

    /// The Java client's constructor checks.
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        if self.group_protocol == GroupProtocol::Classic && self.group_remote_assignor.is_some() {
            // ConsumerConfig's own message.
            return Err((
                "group.remote.assignor",
                "cannot be set when group.protocol=CLASSIC".to_string(),
            ));
        }
        if self.heartbeat_interval_ms >= self.session_timeout_ms {
            return Err((
                "heartbeat.interval.ms",
                format!(
                    "{} must be below session.timeout.ms ({})",
                    self.heartbeat_interval_ms, self.session_timeout_ms
                ),
            ));
        }
        if self.max_poll_interval_ms > i64::from(i32::MAX) {
            return Err((
                "max.poll.interval.ms",
                "must fit in an INT32 (it is sent as the rebalance timeout)".to_string(),
            ));
        }
        if self.session_timeout_ms > i64::from(i32::MAX) {
            return Err((
                "session.timeout.ms",
                "must fit in an INT32 (it is sent in JoinGroup)".to_string(),
            ));
        }
        if self.retry_backoff_max_ms < self.retry_backoff_ms {
            return Err((
                "retry.backoff.max.ms",
                format!(
                    "{} is below retry.backoff.ms ({})",
                    self.retry_backoff_max_ms, self.retry_backoff_ms
                ),
            ));
        }
        Ok(())
    }

    pub fn rebalance_protocol(&self) -> RebalanceProtocol {
        if self
            .partition_assignment_strategy
            .iter()
            .all(|s| *s == Strategy::CooperativeSticky)
        {
            RebalanceProtocol::Cooperative
        } else {
            RebalanceProtocol::Eager
        }
    }

    /// The JoinGroup request timeout: max(request.timeout.ms, rebalance timeout + 5 s).
    pub fn join_request_timeout_ms(&self) -> i64 {
        self.request_timeout_ms
            .max(self.max_poll_interval_ms + 5_000)
    }
}

/// A duration in ms: a whole number from `min` up to 1,000 days (absurd sizes are refused).
fn ms(value: &ConfigValue, min: i64) -> Result<i64, String> {
    const MAX: i64 = 86_400_000_000;
    value.whole_number(min, MAX)
}

fn boolean(value: &ConfigValue) -> Result<bool, String> {
    match value {
        ConfigValue::Bool(b) => Ok(*b),
        ConfigValue::Text(t) if t == "true" => Ok(true),
        ConfigValue::Text(t) if t == "false" => Ok(false),
        _ => Err("expected true or false".to_string()),
    }
}

fn optional_text(value: &ConfigValue) -> Result<Option<String>, String> {
    match value {
        ConfigValue::Text(t) if t.is_empty() => Ok(None),
        ConfigValue::Text(t) if t.len() > 249 => Err("longer than 249 characters".to_string()),
        ConfigValue::Text(t) => Ok(Some(t.clone())),
        _ => Err("expected a string".to_string()),
    }
}

/// A comma-separated list of assignor names or Kafka class names.
fn strategies(value: &ConfigValue) -> Result<Vec<Strategy>, String> {
    let ConfigValue::Text(t) = value else {
        return Err("expected a comma-separated list of assignors".to_string());
    };
    let mut out = Vec::new();
    for name in t.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let short = match name.rsplit('.').next().unwrap_or(name) {
            "RangeAssignor" => "range",
            "RoundRobinAssignor" => "roundrobin",
            "StickyAssignor" => "sticky",
            "CooperativeStickyAssignor" => "cooperative-sticky",
            _ => name,
        };
        let s = Strategy::from_name(short).ok_or_else(|| {
            format!("unknown assignor \"{name}\" (range, roundrobin, sticky, cooperative-sticky)")
        })?;
        if !out.contains(&s) {
            out.push(s);
        }
    }
    if out.is_empty() {
        return Err("at least one assignor is needed".to_string());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn values_name_every_key_and_read_back() {
        let config = ConsumerConfig::default();
        let values = config.values();
        for (key, (name, value)) in ConsumerConfig::KEYS.iter().zip(values.iter()) {
            assert_eq!(key.name, *name);
            assert_eq!(key.default, value.as_str(), "{name}");
            let mut again = ConsumerConfig::default();
            again
                .set(name, &ConfigValue::Text(value.to_string()))
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(again, config, "{name}");
        }
    }
}
