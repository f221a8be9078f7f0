//! The message catalogue: what each trace entry, coordinator event, cause and action says, in
//! English and Chinese side by side (one arm per message, both languages in it). Only the
//! language asked for is formatted; the Chinese follows the book's terms (the seed's glossary).

use crate::refusal::Refusal;
use crate::scenario::Text;
use crate::trace::{
    ClientExpiry, Lang, Lifecycle, LossReason, NarratedEvent, Tp, TraceEvent, TraceKind,
};
use crate::vocabulary;
use alloc::string::String;
use group_coordinator::assignor::KafkaQuirk;
use group_coordinator::{ErrorCode, GroupState, Response};

/// One message in English and in Chinese; only `lang`'s is formatted. The format strings name
/// the variables they use (`{consumer}`), so both languages read the same values.
macro_rules! say {
    ($lang:expr, $en:literal, $zh:literal $(,)?) => {
        match $lang {
            Lang::En => alloc::format!($en),
            Lang::Zh => alloc::format!($zh),
        }
    };
}

mod action;
mod coordinator;
mod message;

pub use action::action_text;
use coordinator::coordinator_text;
pub use coordinator::{cause_text, event_text};
pub use message::{request_text, response_error, response_text};

/// Why an action was not applied, in `lang`. A setting's or the coordinator's own message is
/// told as it is (those are English wherever they come from).
pub fn refusal_text(refusal: &Refusal, lang: Lang) -> String {
    use Refusal::*;
    if lang == Lang::En {
        return alloc::format!("{refusal}");
    }
    match refusal {
        NoConsumer { name } => alloc::format!("没有名为“{name}”的消费者"),
        NotRunning { consumer } => alloc::format!("{consumer} 没有在运行"),
        ConsumerExists { name } => alloc::format!("名为“{name}”的消费者已经存在"),
        AlreadyClosing { consumer } => alloc::format!("{consumer} 已经在关闭"),
        AlreadyRunning { consumer } => alloc::format!("{consumer} 已经在运行"),
        AlreadyPaused { consumer } => alloc::format!("{consumer} 已经暂停"),
        NotPaused { consumer } => alloc::format!("{consumer} 没有暂停"),
        LinkAlready { consumer, cut } => alloc::format!(
            "{consumer} 的链路已经{}",
            if *cut { "断开" } else { "连通" }
        ),
        InstanceIdInUse { instance } => {
            alloc::format!("group.instance.id “{instance}”已被另一个消费者使用")
        }
        NoTopic { topic } => alloc::format!("没有名为“{topic}”的主题"),
        PartitionsOnlyAdded { topic, current } => {
            alloc::format!("{topic} 有 {current} 个分区：分区只能增加")
        }
        TooManyPartitions { total, max } => {
            alloc::format!("分区总数 {total}，超过上限 {max}")
        }
        TopicExists { topic } => alloc::format!("名为“{topic}”的主题已经存在"),
        FailoverUnderWay => String::from("故障转移已在进行中"),
        NotAKafkaError { error } => alloc::format!("“{error}”不是 Kafka 的错误名"),
        NotInFlight {
            correlation_id,
            response,
        } => alloc::format!(
            "没有在途的{} #{correlation_id}",
            if *response { "响应" } else { "请求" }
        ),
        OutOfOrder => String::from("连接按顺序送达：同一链路上更早的消息必须先到"),
        NotAMessage => String::from("不是一条消息"),
        BackInTime { at_ms, now_ms } => {
            alloc::format!("{at_ms} ms 早于运行的当前时间（{now_ms} ms）：实时输入不能回到过去")
        }
        TooManyClients { max } => alloc::format!("客户端超过 {max} 个"),
        Setting { message } | Coordinator { message } => message.clone(),
        CoordinatorRefused { message } => alloc::format!("协调者拒绝了请求：{message}"),
    }
}

impl TraceEvent {
    /// The entry with its narration in both languages.
    pub fn narrated(&self) -> NarratedEvent<'_> {
        NarratedEvent {
            event: self,
            text: Text {
                en: self.narrate(Lang::En),
                zh: self.narrate(Lang::Zh),
            },
        }
    }

    /// One line saying what happened.
    pub fn narrate(&self, lang: Lang) -> String {
        match &self.kind {
            TraceKind::Narration { note, .. } => match lang {
                Lang::En => note.en.clone(),
                Lang::Zh => note.zh.clone(),
            },
            TraceKind::Action { action } => action_text(action, lang),
            TraceKind::ActionIgnored { action, why } => {
                let action = action_text(action, lang);
                let why = refusal_text(why, lang);
                say!(
                    lang,
                    "ignored: {action} ({why})",
                    "已忽略：{action}（{why}）"
                )
            }
            TraceKind::Lifecycle { consumer, what } => match what {
                Lifecycle::Started => say!(
                    lang,
                    "{consumer} starts and subscribes",
                    "消费者 {consumer} 启动并订阅"
                ),
                Lifecycle::Closed => say!(lang, "{consumer} is closed", "消费者 {consumer} 已关闭"),
                Lifecycle::Crashed => say!(
                    lang,
                    "{consumer} crashes (no LeaveGroup)",
                    "消费者 {consumer} 崩溃（不发送离开组请求）"
                ),
                Lifecycle::Paused => say!(lang, "{consumer} pauses", "消费者 {consumer} 暂停"),
                Lifecycle::Resumed => say!(lang, "{consumer} resumes", "消费者 {consumer} 恢复"),
            },
            TraceKind::RequestSent {
                consumer,
                api,
                correlation_id,
                generation_id,
                member_id,
                consumer_protocol,
                ..
            } => {
                let who = if member_id.is_empty() {
                    String::new()
                } else {
                    say!(lang, " as {member_id}", "（成员 {member_id}）")
                };
                // Only the requests that carry a generation id say one (JoinGroup, LeaveGroup
                // and FindCoordinator carry none).
                let generation = if *api == crate::trace::MessageApi::ConsumerGroupHeartbeat {
                    match *generation_id {
                        -1 => say!(lang, ", epoch -1 (leaving)", "，纪元 -1（离开）"),
                        -2 => say!(
                            lang,
                            ", epoch -2 (a static member leaving for a while)",
                            "，纪元 -2（静态成员暂时离开）"
                        ),
                        e => say!(lang, ", epoch {e}", "，纪元 {e}"),
                    }
                } else if *consumer_protocol && api.carries_generation() {
                    say!(lang, ", epoch {generation_id}", "，纪元 {generation_id}")
                } else if *generation_id >= 0 && api.carries_generation() {
                    say!(
                        lang,
                        ", generation {generation_id}",
                        "，第 {generation_id} 代"
                    )
                } else {
                    String::new()
                };
                let (name, zh) = (api.name(), api.zh());
                say!(
                    lang,
                    "{consumer} sends {name} #{correlation_id}{who}{generation}",
                    "{consumer} 发送{zh} #{correlation_id}{who}{generation}"
                )
            }
            TraceKind::RequestDelivered {
                consumer,
                api,
                correlation_id,
            } => {
                let (name, zh) = (api.name(), api.zh());
                say!(
                    lang,
                    "the coordinator receives {name} #{correlation_id} from {consumer}",
                    "协调者收到 {consumer} 的{zh} #{correlation_id}"
                )
            }
            TraceKind::ResponseSent {
                consumer,
                api,
                correlation_id,
                error_code,
                error,
                response,
                ..
            } => {
                let extra = response_detail(response.as_deref(), lang);
                let error = outcome(*error_code, error, lang);
                let (name, zh) = (api.name(), api.zh());
                say!(
                    lang,
                    "the coordinator answers {name} #{correlation_id} of {consumer}: {error}{extra}",
                    "协调者响应 {consumer} 的{zh} #{correlation_id}：{error}{extra}"
                )
            }
            TraceKind::ResponseDelivered {
                consumer,
                api,
                correlation_id,
                error_code,
                error,
            } => {
                let error = outcome(*error_code, error, lang);
                let (name, zh) = (api.name(), api.zh());
                say!(
                    lang,
                    "{consumer} receives the {name} #{correlation_id} response: {error}",
                    "{consumer} 收到{zh} #{correlation_id} 的响应：{error}"
                )
            }
            TraceKind::MessageLost {
                consumer,
                api,
                correlation_id,
                response,
                reason,
            } => {
                let what = match response {
                    true => say!(lang, "response", "响应"),
                    false => say!(lang, "request", "请求"),
                };
                let why = match reason {
                    LossReason::Loss => say!(lang, "lost by the network", "网络丢包"),
                    LossReason::Cut => say!(lang, "the link is cut", "链路已断开"),
                    LossReason::ConsumerDown => say!(lang, "the consumer is down", "消费者已停止"),
                    LossReason::Dropped => say!(lang, "you dropped it", "由你丢弃"),
                };
                let (name, zh) = (api.name(), api.zh());
                say!(
                    lang,
                    "{name} #{correlation_id} {what} of {consumer} is lost: {why}",
                    "{consumer} 的{zh} #{correlation_id} {what}丢失：{why}"
                )
            }
            TraceKind::RequestTimedOut {
                consumer,
                api,
                correlation_id,
            } => {
                let (name, zh) = (api.name(), api.zh());
                say!(
                    lang,
                    "{consumer}: {name} #{correlation_id} timed out (request.timeout.ms)",
                    "{consumer}：{zh} #{correlation_id} 超时（request.timeout.ms）"
                )
            }
            TraceKind::Coordinator { event } => coordinator_text(event, lang),
            TraceKind::ClientState { consumer, from, to } => {
                let (from_en, from_zh) = (from.name(), vocabulary::member_state(*from).zh);
                let (to_en, to_zh) = (to.name(), vocabulary::member_state(*to).zh);
                say!(
                    lang,
                    "{consumer}: {from_en} → {to_en}",
                    "{consumer}：{from_zh} → {to_zh}"
                )
            }
            TraceKind::Assigned {
                consumer,
                generation_id,
                assigned,
                added,
                revoked,
                listener_ms,
                consumer_protocol,
            } => {
                let list = tps(assigned);
                let mut changes = String::new();
                if !added.is_empty() {
                    let added = tps(added);
                    changes += &say!(lang, ", added {added}", "，新增 {added}");
                }
                if !revoked.is_empty() {
                    let revoked = tps(revoked);
                    changes += &say!(lang, ", revoking {revoked}", "，撤销 {revoked}");
                }
                let listener = listener_text(*listener_ms, lang);
                if *consumer_protocol {
                    say!(
                        lang,
                        "{consumer} reconciles to {list} at epoch {generation_id}{changes}{listener}",
                        "{consumer} 在纪元 {generation_id} 协调到 {list}{changes}{listener}"
                    )
                } else {
                    say!(
                        lang,
                        "{consumer} is assigned {list} in generation {generation_id}{changes}{listener}",
                        "{consumer} 在第 {generation_id} 代分配到 {list}{changes}{listener}"
                    )
                }
            }
            TraceKind::Revoked {
                consumer,
                partitions,
                lost,
                listener_ms,
            } => {
                let list = tps(partitions);
                let listener = listener_text(*listener_ms, lang);
                match lost {
                    false => say!(
                        lang,
                        "{consumer} revokes {list}{listener}",
                        "{consumer} 撤销 {list}{listener}"
                    ),
                    true => say!(
                        lang,
                        "{consumer} has lost {list}{listener}",
                        "{consumer} 丢失 {list}{listener}"
                    ),
                }
            }
            TraceKind::ClientExpired { consumer, expiry } => match expiry {
                ClientExpiry::SessionTimeout => say!(
                    lang,
                    "{consumer}: no heartbeat response for session.timeout.ms, the coordinator is marked unknown",
                    "{consumer}：超过 session.timeout.ms 未收到心跳响应，标记协调者未知"
                ),
                ClientExpiry::PollTimeout => say!(
                    lang,
                    "{consumer}: no poll() for max.poll.interval.ms, it leaves the group",
                    "{consumer}：超过 max.poll.interval.ms 未调用 poll()，主动离开消费组"
                ),
            },
            TraceKind::MetadataRefreshed { consumer } => say!(
                lang,
                "{consumer} refreshes its metadata (older than metadata.max.age.ms): the topics changed (a new topic or new partitions)",
                "{consumer} 刷新元数据（超过 metadata.max.age.ms）：主题有变化（新主题或新分区）"
            ),
            TraceKind::RejoinRequested { consumer, reason } => say!(
                lang,
                "{consumer} will rejoin: {reason}",
                "{consumer} 需要重新加入：{reason}"
            ),
            TraceKind::AssignorQuirk { consumer, quirk } => match quirk {
                KafkaQuirk::PreviousOwnerNotSubscribed {
                    member,
                    topic,
                    partition,
                } => say!(
                    lang,
                    "Kafka's own flaw, reproduced: {consumer}'s sticky assignor gives {topic}-{partition} back to its previous owner {member}, which no longer subscribes to {topic} (performReassignments does not check); {member} will find its assignment does not match its subscription and rejoin",
                    "Kafka 自身的缺陷（如实重现）：{consumer} 的 sticky 分配器把 {topic}-{partition} 还给它之前的所有者 {member}，但 {member} 已不再订阅 {topic}（performReassignments 未检查）；{member} 会发现分配与订阅不符而重新加入"
                ),
                KafkaQuirk::JavaThrowsNullPointer {
                    previous_owner,
                    topic,
                    partition,
                } => say!(
                    lang,
                    "here Kafka's Java sticky assignor throws a NullPointerException from {consumer}'s poll() (the previous owner {previous_owner} of {topic}-{partition} cannot take part in reassignment); this model deliberately returns a valid assignment instead",
                    "此处 Kafka 的 Java sticky 分配器会在 {consumer} 的 poll() 中抛出 NullPointerException（{topic}-{partition} 之前的所有者 {previous_owner} 不能参与重新分配）；本模型有意改为返回一个有效的分配"
                ),
            },
            TraceKind::ConsumerFailed {
                consumer, error, ..
            } => say!(
                lang,
                "{consumer} fails with {error} and stops",
                "{consumer} 因 {error} 失败并停止"
            ),
            TraceKind::InvariantViolated { message } => {
                say!(
                    lang,
                    "INVARIANT VIOLATED: {message}",
                    "违反不变式：{message}"
                )
            }
        }
    }
}

/// How long the application's rebalance listener runs, when it takes any time.
fn listener_text(ms: i64, lang: Lang) -> String {
    if ms <= 0 {
        return String::new();
    }
    say!(
        lang,
        " (the listener runs for {ms} ms)",
        "（监听器运行 {ms} 毫秒）"
    )
}

/// `text` with every member id (`client-` and a UUID, as the Java client makes them) shortened
/// to the client id and the UUID's first block (`A-088712be…`): what the page shows, where a
/// line of 36-character ids does not read. The trace and its golden files keep them whole.
pub fn short_ids(text: &str) -> String {
    const BLOCKS: [usize; 5] = [8, 4, 4, 4, 12];
    let bytes = text.as_bytes();
    let uuid_at = |i: usize| -> bool {
        let mut at = i;
        for (k, &n) in BLOCKS.iter().enumerate() {
            if k > 0 {
                if bytes.get(at) != Some(&b'-') {
                    return false;
                }
                at += 1;
            }
            let Some(block) = bytes.get(at..at + n) else {
                return false;
            };
            if !block.iter().all(|b| b.is_ascii_hexdigit()) {
                return false;
            }
            at += n;
        }
        // Not the start of a longer run of hex digits.
        !bytes.get(at).is_some_and(|b| b.is_ascii_alphanumeric())
    };
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        if bytes[i] == b'-' && i > 0 && bytes[i - 1].is_ascii_alphanumeric() && uuid_at(i + 1) {
            out.push('-');
            out.push_str(&text[i + 1..i + 9]);
            out.push('…');
            i += 1 + 36;
        } else {
            let ch = text[i..].chars().next().unwrap_or(' ');
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// A response's outcome: success said as success, an error by Kafka's name for it.
fn outcome(code: ErrorCode, name: &str, lang: Lang) -> String {
    if code == ErrorCode::None {
        say!(lang, "ok", "成功")
    } else {
        String::from(name)
    }
}

/// Partitions as the trace writes them: `[t-0,1 u-2]`.
fn tps(list: &[Tp]) -> String {
    alloc::format!("[{}]", crate::trace::tps(list))
}

fn response_detail(response: Option<&Response>, lang: Lang) -> String {
    match response {
        Some(Response::JoinGroup(r)) if r.error_code == ErrorCode::None => {
            let leader = if r.leader == r.member_id {
                say!(lang, ", as leader", "，为主消费者")
            } else {
                String::new()
            };
            let generation_id = r.generation_id;
            say!(
                lang,
                " generation {generation_id}{leader}",
                " 第 {generation_id} 代{leader}"
            )
        }
        Some(Response::JoinGroup(r)) if r.error_code == ErrorCode::MemberIdRequired => {
            let member_id = &r.member_id;
            say!(lang, " (member id {member_id})", "（成员 id {member_id}）")
        }
        _ => String::new(),
    }
}

fn state(state: GroupState, lang: Lang) -> &'static str {
    vocabulary::group_state(state).pick(lang)
}

#[cfg(test)]
mod tests {
    use super::short_ids;

    #[test]
    fn member_ids_are_shortened_and_nothing_else_is() {
        assert_eq!(
            short_ids(
                "A sends JoinGroup #33 as A-088712be-8a58-4fca-bbff-7c596e26ce46, then B-21876e7a-2aec-4a3d-977e-91a249eb9308 left"
            ),
            "A sends JoinGroup #33 as A-088712be…, then B-21876e7a… left"
        );
        assert_eq!(
            short_ids("消费者 c10-088712be-8a58-4fca-bbff-7c596e26ce46 加入"),
            "消费者 c10-088712be… 加入"
        );
        for kept in [
            "no ids here: orders-0,1",
            "-088712be-8a58-4fca-bbff-7c596e26ce46 alone",
            "A-088712be-8a58-4fca-bbff-7c596e26ce4",
            "A-088712be-8a58-4fca-bbff-7c596e26ce46ff",
            "",
        ] {
            assert_eq!(short_ids(kept), kept);
        }
    }
}
