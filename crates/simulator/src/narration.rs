//! The message catalogue: what each trace entry, coordinator event, cause and action says, in
//! English and Chinese side by side (one arm per message, both languages in it). Only the
//! language asked for is formatted; the Chinese follows the book's terms (the seed's glossary).

use crate::refusal::Refusal;
use crate::scenario::{Action, Text};
use crate::trace::{
    ClientExpiry, Lang, Lifecycle, LossReason, NarratedEvent, Tp, TraceEvent, TraceKind,
};
use crate::vocabulary;
use alloc::string::String;
use alloc::vec::Vec;
use group_coordinator::assignor::KafkaQuirk;
use group_coordinator::event::{Cause, EventKind, RemovalReason};
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

/// Why the group's state changed, in `lang`.
pub fn cause_text(cause: &Cause, lang: Lang) -> String {
    match cause {
        Cause::MemberAdded { member_id } => say!(lang, "{member_id} joined", "{member_id} 加入"),
        Cause::LeaderRejoined { member_id } => say!(
            lang,
            "the leader {member_id} rejoined",
            "主消费者 {member_id} 重新加入"
        ),
        Cause::MetadataChanged { member_id } => say!(
            lang,
            "{member_id} rejoined with new metadata",
            "{member_id} 以新的元数据重新加入"
        ),
        Cause::StaticMemberReplaced { member_id } => say!(
            lang,
            "static member replaced by {member_id}",
            "静态成员被 {member_id} 替换"
        ),
        Cause::MembersLeft { member_ids } => {
            let (en, zh) = (member_ids.join(", "), member_ids.join("、"));
            say!(lang, "{en} left", "{zh} 离开")
        }
        Cause::SessionExpired { member_id } => {
            say!(
                lang,
                "{member_id}'s session expired",
                "{member_id} 会话超时"
            )
        }
        Cause::SyncTimeout { member_ids } => {
            let (en, zh) = (member_ids.join(", "), member_ids.join("、"));
            say!(lang, "{en} did not sync in time", "{zh} 未及时同步")
        }
        Cause::JoinPhaseCompleted => say!(lang, "the join phase completed", "加入阶段完成"),
        Cause::AssignmentPersisted => say!(
            lang,
            "the leader's assignment was persisted",
            "主消费者的分配方案已持久化"
        ),
        Cause::AssignmentPersistFailed => {
            say!(
                lang,
                "persisting the assignment failed",
                "分配方案持久化失败"
            )
        }
        Cause::GroupMaxSizeReached => say!(lang, "group.max.size reached", "达到 group.max.size"),
        Cause::LoadedOverCapacity => say!(
            lang,
            "loaded with more members than group.max.size",
            "加载时成员数超过 group.max.size"
        ),
        Cause::Unloaded => say!(
            lang,
            "the coordinator unloaded the group",
            "协调者卸载了消费组"
        ),
        Cause::Deleted => say!(lang, "deleted", "已删除"),
        Cause::OffsetsExpired => say!(lang, "its offsets expired", "偏移量已过期"),
        Cause::ReplacedByOtherType => say!(
            lang,
            "a consumer group (KIP-848) took its id",
            "一个新协议（KIP-848）消费组接管了它的 ID"
        ),
        Cause::ConvertedToConsumerGroup => say!(
            lang,
            "a member speaking the consumer protocol joined: the group becomes a consumer group with its members",
            "一个使用 consumer 协议的成员加入：消费组连同其成员转为新协议消费组"
        ),
        Cause::ConvertedFromConsumerGroup => say!(
            lang,
            "the group came back to the classic protocol: its members rejoin",
            "消费组回到经典协议：成员重新加入"
        ),
    }
}

fn removal_text(reason: RemovalReason, lang: Lang) -> String {
    match reason {
        RemovalReason::LeaveGroup => say!(lang, "it left", "主动离开"),
        RemovalReason::SessionTimeout => say!(lang, "its session timed out", "会话超时"),
        RemovalReason::NotRejoined => say!(lang, "it did not rejoin in time", "未及时重新加入"),
        RemovalReason::SyncTimeout => say!(lang, "it did not sync in time", "未及时同步"),
        RemovalReason::GroupMaxSize => say!(lang, "group.max.size", "达到 group.max.size"),
        RemovalReason::Joined => say!(lang, "it joined", "已加入"),
    }
}

/// A coordinator event in both languages: what the trace says of it (and the protocol console
/// shows for the coordinator driven by hand).
pub fn event_text(event: &EventKind) -> Text {
    Text {
        en: coordinator_text(event, Lang::En),
        zh: coordinator_text(event, Lang::Zh),
    }
}

fn coordinator_text(event: &EventKind, lang: Lang) -> String {
    match event {
        EventKind::GroupCreated => say!(
            lang,
            "the coordinator creates the group",
            "协调者创建消费组"
        ),
        EventKind::StateChanged { from, to, cause } => {
            let (from, to, cause) = (
                state(*from, lang),
                state(*to, lang),
                cause_text(cause, lang),
            );
            say!(
                lang,
                "group: {from} → {to} ({cause})",
                "消费组：{from} → {to}（{cause}）"
            )
        }
        EventKind::GenerationBumped {
            generation_id,
            protocol_name,
        } => {
            let protocol = protocol_name
                .clone()
                .unwrap_or_else(|| say!(lang, "none", "无"));
            say!(
                lang,
                "generation {generation_id} begins (protocol {protocol})",
                "第 {generation_id} 代开始（协议 {protocol}）"
            )
        }
        EventKind::MemberAdded { member_id, .. } => {
            say!(lang, "member {member_id} added", "成员 {member_id} 加入")
        }
        EventKind::MemberReplaced {
            old_member_id,
            new_member_id,
            group_instance_id,
        } => say!(
            lang,
            "static member {group_instance_id}: {old_member_id} replaced by {new_member_id}",
            "静态成员 {group_instance_id}：{old_member_id} 被 {new_member_id} 替换"
        ),
        EventKind::MemberReplacementReverted { new_member_id, .. } => say!(
            lang,
            "replacement by {new_member_id} rolled back",
            "{new_member_id} 的替换已回滚"
        ),
        EventKind::MemberRemoved { member_id, reason } => {
            let why = removal_text(*reason, lang);
            say!(
                lang,
                "member {member_id} removed: {why}",
                "成员 {member_id} 被移除：{why}"
            )
        }
        EventKind::PendingMemberAdded { member_id } => say!(
            lang,
            "pending member {member_id} (MEMBER_ID_REQUIRED)",
            "待定成员 {member_id}（MEMBER_ID_REQUIRED）"
        ),
        EventKind::PendingMemberRemoved { member_id, reason } => {
            let why = removal_text(*reason, lang);
            say!(
                lang,
                "pending member {member_id} removed: {why}",
                "待定成员 {member_id} 被移除：{why}"
            )
        }
        EventKind::LeaderChanged { to, .. } => {
            let to = to.clone().unwrap_or_else(|| say!(lang, "none", "无"));
            say!(lang, "leader: {to}", "主消费者：{to}")
        }
        EventKind::ResponseParked { member_id, api, .. } => say!(
            lang,
            "{member_id}'s {api:?} is parked (delayed operation)",
            "{member_id} 的 {api:?} 进入延迟缓存"
        ),
        EventKind::ResponseDropped { member_id, api, .. } => say!(
            lang,
            "{member_id}'s parked {api:?} will never be answered",
            "{member_id} 被挂起的 {api:?} 不会再得到响应"
        ),
        EventKind::TimerScheduled { key, deadline_ms } => say!(
            lang,
            "timer {key} set for {deadline_ms} ms",
            "定时器 {key} 设为 {deadline_ms} ms"
        ),
        EventKind::TimerCancelled { key } => {
            say!(lang, "timer {key} cancelled", "定时器 {key} 取消")
        }
        EventKind::TimerFired { key } => say!(lang, "timer {key} fires", "定时器 {key} 到期"),
        EventKind::GroupRecordPersisted {
            generation_id,
            members,
        } => say!(
            lang,
            "group record written (generation {generation_id}, {members} members)",
            "写入消费组记录（第 {generation_id} 代，{members} 个成员）"
        ),
        EventKind::PersistFailed { error } => {
            let error = error.name();
            say!(
                lang,
                "group record write failed: {error}",
                "消费组记录写入失败：{error}"
            )
        }
        EventKind::Unloaded => say!(
            lang,
            "the coordinator unloads the group (failover)",
            "协调者卸载消费组（故障转移）"
        ),
        EventKind::Loaded { members, state: s } => {
            let s = state(*s, lang);
            say!(
                lang,
                "a coordinator loads the group from its record ({members} members): {s}",
                "协调者从记录加载消费组（{members} 个成员）：{s}"
            )
        }
        EventKind::ConsumerGroupLoaded { members, state: s } => {
            let s = crate::vocabulary::consumer_group_state(*s).pick(lang);
            say!(
                lang,
                "a coordinator loads the consumer group from its records ({members} members): {s}, as it was; every session timer restarts",
                "协调者从记录加载消费组（{members} 个成员）：{s}，与卸载前相同；每个会话定时器重新开始"
            )
        }
        EventKind::Deleted => say!(lang, "the group is deleted", "消费组被删除"),
        EventKind::OffsetsExpired { partitions } => say!(
            lang,
            "{partitions} committed offsets expired",
            "{partitions} 个已提交偏移量过期"
        ),
        EventKind::ConsumerGroupStateChanged { from, to } => {
            let (from, to) = (
                crate::vocabulary::consumer_group_state(*from).pick(lang),
                crate::vocabulary::consumer_group_state(*to).pick(lang),
            );
            say!(
                lang,
                "consumer group: {from} → {to}",
                "消费组：{from} → {to}"
            )
        }
        EventKind::RegularExpressionsResolved { resolved } => {
            let list = resolved
                .iter()
                .map(|r| {
                    let topics = if r.topics.is_empty() {
                        String::from("∅")
                    } else {
                        r.topics.join(", ")
                    };
                    alloc::format!("{} → {topics}", r.regex)
                })
                .collect::<Vec<_>>()
                .join("; ");
            say!(
                lang,
                "the group's regular expressions are resolved against the topics: {list}",
                "消费组的正则表达式按主题解析：{list}"
            )
        }
        EventKind::GroupEpochBumped { group_epoch } => say!(
            lang,
            "the group epoch becomes {group_epoch}",
            "组纪元变为 {group_epoch}"
        ),
        EventKind::TargetAssignmentComputed {
            assignment_epoch,
            assignor,
        } => say!(
            lang,
            "a new target assignment for epoch {assignment_epoch} ({assignor} assignor)",
            "为纪元 {assignment_epoch} 计算新的目标分配（{assignor} 分配器）"
        ),
        EventKind::ConsumerMemberJoined { member_id } => say!(
            lang,
            "member {member_id} joins the consumer group",
            "成员 {member_id} 加入消费组"
        ),
        EventKind::ConsumerMemberUpdated {
            member_id,
            state,
            member_epoch,
            previous_member_epoch,
        } => {
            let state = vocabulary::consumer_member_state(*state).pick(lang);
            say!(
                lang,
                "member {member_id}: {state} at epoch {member_epoch} (was {previous_member_epoch})",
                "成员 {member_id}：{state}，纪元 {member_epoch}（之前 {previous_member_epoch}）"
            )
        }
        EventKind::GroupConverted { to, members } => match to {
            group_coordinator::event::GroupType::Consumer => say!(
                lang,
                "online upgrade: the classic group becomes a consumer group; its {members} members stay, speaking the classic protocol, each at the generation as its epoch",
                "在线升级：经典组转为新协议消费组；{members} 个成员保留，继续使用经典协议，纪元即原来的代"
            ),
            group_coordinator::event::GroupType::Classic => say!(
                lang,
                "online downgrade: the last member speaking the consumer protocol is gone; the group becomes a classic group of its {members} members, each with its target as its assignment",
                "在线降级：最后一个使用 consumer 协议的成员离开；消费组转为由 {members} 个成员组成的经典组，各自以目标分配为当前分配"
            ),
        },
        EventKind::ConsumerMemberRemoved { member_id, reason } => {
            use group_coordinator::event::ConsumerRemoval;
            let why = match (reason, lang) {
                (ConsumerRemoval::Left, Lang::En) => "it left",
                (ConsumerRemoval::Left, Lang::Zh) => "主动离开",
                (ConsumerRemoval::SessionExpired, Lang::En) => "its session expired",
                (ConsumerRemoval::SessionExpired, Lang::Zh) => "会话超时",
                (ConsumerRemoval::RebalanceTimeout, Lang::En) => {
                    "it did not revoke within its rebalance timeout"
                }
                (ConsumerRemoval::RebalanceTimeout, Lang::Zh) => "未在再平衡超时内完成撤销",
                (ConsumerRemoval::Replaced, Lang::En) => "a static member rejoined in its place",
                (ConsumerRemoval::Replaced, Lang::Zh) => "静态成员以新 id 重新加入取代了它",
                (ConsumerRemoval::JoinTimeout, Lang::En) => {
                    "told to rejoin, it did not send JoinGroup within its rebalance timeout"
                }
                (ConsumerRemoval::JoinTimeout, Lang::Zh) => {
                    "被要求重新加入后，未在再平衡超时内发送 JoinGroup"
                }
                (ConsumerRemoval::SyncTimeout, Lang::En) => {
                    "it did not send SyncGroup within its rebalance timeout after joining"
                }
                (ConsumerRemoval::SyncTimeout, Lang::Zh) => "加入后未在再平衡超时内发送 SyncGroup",
            };
            say!(
                lang,
                "member {member_id} is removed: {why}",
                "成员 {member_id} 被移除：{why}"
            )
        }
    }
}

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
