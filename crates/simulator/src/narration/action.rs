//! What the scenario's actions say.

use super::Lang;
use crate::scenario::Action;
use alloc::string::String;
use alloc::vec::Vec;

/// What an action does, in `lang`.
pub fn action_text(action: &Action, lang: Lang) -> String {
    match action {
        Action::AddConsumer(spec) => {
            let name = &spec.name;
            say!(lang, "add consumer {name}", "添加消费者 {name}")
        }
        Action::Close { consumer } => say!(lang, "close {consumer}", "关闭 {consumer}"),
        Action::Crash { consumer } => say!(lang, "crash {consumer}", "使 {consumer} 崩溃"),
        Action::Restart { consumer, down_ms } => say!(
            lang,
            "restart {consumer} (down for {down_ms} ms)",
            "重启 {consumer}（停机 {down_ms} ms）"
        ),
        Action::Start { consumer } => say!(lang, "start {consumer}", "启动 {consumer}"),
        Action::Pause { consumer, kind } => {
            say!(
                lang,
                "pause {consumer} ({kind:?})",
                "暂停 {consumer}（{kind:?}）"
            )
        }
        Action::Resume { consumer } => say!(lang, "resume {consumer}", "恢复 {consumer}"),
        Action::Cut { consumer } => {
            say!(lang, "cut the link of {consumer}", "断开 {consumer} 的网络")
        }
        Action::Heal { consumer } => {
            say!(
                lang,
                "heal the link of {consumer}",
                "恢复 {consumer} 的网络"
            )
        }
        Action::SetNetwork { consumer, .. } => {
            let links = consumer
                .clone()
                .unwrap_or_else(|| say!(lang, "every link", "所有链路"));
            say!(lang, "change the network of {links}", "修改 {links} 的网络")
        }
        Action::Subscribe {
            consumer,
            topics,
            pattern: Some(pattern),
        } if topics.is_empty() => say!(
            lang,
            "{consumer} subscribes to the topics matching {pattern}",
            "{consumer} 订阅与 {pattern} 匹配的主题"
        ),
        Action::Subscribe {
            consumer, topics, ..
        } => {
            let (en, zh) = (topics.join(", "), topics.join("、"));
            say!(
                lang,
                "{consumer} subscribes to {en}",
                "{consumer} 订阅 {zh}"
            )
        }
        Action::SetConfig { consumer, config } => {
            let keys: Vec<&str> = config.keys().map(|k| k.as_str()).collect();
            let (en, zh) = (keys.join(", "), keys.join("、"));
            say!(lang, "{consumer}: set {en}", "{consumer}：修改 {zh}")
        }
        Action::CreatePartitions { topic, count } => say!(
            lang,
            "an admin adds partitions to {topic}: {count} in all",
            "管理员为 {topic} 增加分区：共 {count} 个"
        ),
        Action::CreateTopic { topic, partitions } => say!(
            lang,
            "an admin creates the topic {topic} ({partitions} partitions)",
            "管理员创建主题 {topic}（{partitions} 个分区）"
        ),
        Action::Failover { down_ms } => say!(
            lang,
            "coordinator failover (the group is away for {down_ms} ms)",
            "协调者故障转移（消费组 {down_ms} ms 不可用）"
        ),
        Action::DeliverNow {
            consumer,
            correlation_id,
            response,
        } => match response {
            false => say!(
                lang,
                "{consumer}'s request #{correlation_id} arrives now (you chose the order)",
                "{consumer} 的请求 #{correlation_id} 现在到达（顺序由你选择）"
            ),
            true => say!(
                lang,
                "the answer to {consumer}'s #{correlation_id} arrives now (you chose the order)",
                "对 {consumer} 的 #{correlation_id} 的响应现在到达（顺序由你选择）"
            ),
        },
        Action::Drop {
            consumer,
            correlation_id,
            response,
        } => match response {
            false => say!(
                lang,
                "drop {consumer}'s request #{correlation_id}",
                "丢弃 {consumer} 的请求 #{correlation_id}"
            ),
            true => say!(
                lang,
                "drop the answer to {consumer}'s #{correlation_id}",
                "丢弃对 {consumer} 的 #{correlation_id} 的响应"
            ),
        },
        Action::FailNextPersist { error } => say!(
            lang,
            "the next group-record write will fail with {error}",
            "下一次消费组记录写入将以 {error} 失败"
        ),
        Action::Inject {
            client, request, ..
        } => {
            let api = crate::trace::MessageApi::of(request.api()).name();
            let id = request.correlation_id();
            say!(
                lang,
                "{client} sends {api} #{id} (a real client, through the broker)",
                "{client} 发送 {api} #{id}（真实客户端，经由 broker）"
            )
        }
        Action::Advance { at_ms } => say!(
            lang,
            "the broker fires the coordinator's due timers at {at_ms} ms",
            "broker 在 {at_ms} ms 触发协调者到期的定时器"
        ),
        Action::Unload { group_id } => say!(
            lang,
            "the broker's coordinator loses group {group_id}'s partition (failover): its requests get NOT_COORDINATOR until it is loaded",
            "broker 的协调者失去消费组 {group_id} 所在的分区（故障转移）：在重新加载之前，它的请求都得到 NOT_COORDINATOR"
        ),
        Action::Load { group_id } => say!(
            lang,
            "the broker's coordinator loads group {group_id} again from its records",
            "broker 的协调者从记录重新加载消费组 {group_id}"
        ),
    }
}
