//! The trace: everything that happened in a run, in order, each with a narration line in
//! English and Chinese (made when asked for, so a long run stores no text).

use crate::scenario::{Action, Text};
use alloc::boxed::Box;
use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;
use group_coordinator::assignor::KafkaQuirk;
use group_coordinator::event::{Cause, EventKind, RemovalReason};
use group_coordinator::{ErrorCode, GroupState, Request, Response};
use serde::Serialize;

/// A partition, by topic and index.
pub type Tp = (Rc<str>, i32);

/// What travels between a consumer and the coordinator's broker: the group APIs of the core,
/// plus FindCoordinator, which any broker answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum MessageApi {
    FindCoordinator,
    JoinGroup,
    SyncGroup,
    Heartbeat,
    LeaveGroup,
    OffsetCommit,
}

impl MessageApi {
    pub fn of(api: group_coordinator::Api) -> MessageApi {
        use group_coordinator::Api;
        match api {
            Api::JoinGroup => MessageApi::JoinGroup,
            Api::SyncGroup => MessageApi::SyncGroup,
            Api::Heartbeat => MessageApi::Heartbeat,
            Api::LeaveGroup => MessageApi::LeaveGroup,
            // The simulated consumers send nothing else.
            _ => MessageApi::OffsetCommit,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            MessageApi::FindCoordinator => "FindCoordinator",
            MessageApi::JoinGroup => "JoinGroup",
            MessageApi::SyncGroup => "SyncGroup",
            MessageApi::Heartbeat => "Heartbeat",
            MessageApi::LeaveGroup => "LeaveGroup",
            MessageApi::OffsetCommit => "OffsetCommit",
        }
    }

    /// Whether the trace keeps the message itself (the group protocol's requests), or only
    /// its summary (heartbeats, commits, lookups: the bulk of a long run).
    pub fn keeps_body(self) -> bool {
        matches!(
            self,
            MessageApi::JoinGroup | MessageApi::SyncGroup | MessageApi::LeaveGroup
        )
    }

    fn zh(self) -> &'static str {
        match self {
            MessageApi::FindCoordinator => "查找协调者请求",
            MessageApi::JoinGroup => "加入组请求",
            MessageApi::SyncGroup => "同步组请求",
            MessageApi::Heartbeat => "心跳",
            MessageApi::LeaveGroup => "离开组请求",
            MessageApi::OffsetCommit => "提交偏移量请求",
        }
    }
}

/// The Java client's member state (spec §7.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum MemberState {
    Unjoined,
    PreparingRebalance,
    CompletingRebalance,
    Stable,
}

impl MemberState {
    /// The Java client's name (`UNJOINED`, ...).
    pub fn name(self) -> &'static str {
        crate::vocabulary::member_state(self).en
    }

    fn zh(self) -> &'static str {
        crate::vocabulary::member_state(self).zh
    }
}

/// Why a message never arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum LossReason {
    /// Dropped by the link's loss rate.
    Loss,
    /// The link is cut.
    Cut,
    /// The consumer process is gone (crashed).
    ConsumerDown,
}

/// A client-side timer that expired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ClientExpiry {
    /// No heartbeat response for `session.timeout.ms`: the coordinator is marked unknown.
    SessionTimeout,
    /// No `poll()` for `max.poll.interval.ms`: the member leaves the group.
    PollTimeout,
}

/// A consumer's life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Lifecycle {
    Started,
    Closed,
    Crashed,
    Paused,
    Resumed,
}

/// One thing that happened.
#[derive(Clone, Debug, Serialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum TraceKind {
    /// A narration checkpoint of the scenario.
    Narration {
        note: Text,
    },
    /// An action of the script or the user.
    Action {
        action: Box<Action>,
    },
    /// An action that could not be applied (e.g. closing a consumer that is not running).
    ActionIgnored {
        action: Box<Action>,
        why: String,
    },
    Lifecycle {
        consumer: Rc<str>,
        what: Lifecycle,
    },
    RequestSent {
        consumer: Rc<str>,
        api: MessageApi,
        correlation_id: i32,
        generation_id: i32,
        member_id: Rc<str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        request: Option<Rc<Request>>,
    },
    RequestDelivered {
        consumer: Rc<str>,
        api: MessageApi,
        correlation_id: i32,
    },
    ResponseSent {
        consumer: Rc<str>,
        api: MessageApi,
        correlation_id: i32,
        error_code: ErrorCode,
        error: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        response: Option<Rc<Response>>,
    },
    ResponseDelivered {
        consumer: Rc<str>,
        api: MessageApi,
        correlation_id: i32,
        error_code: ErrorCode,
        error: &'static str,
    },
    MessageLost {
        consumer: Rc<str>,
        api: MessageApi,
        correlation_id: i32,
        response: bool,
        reason: LossReason,
    },
    RequestTimedOut {
        consumer: Rc<str>,
        api: MessageApi,
        correlation_id: i32,
    },
    /// What the coordinator did (the core's own event).
    Coordinator {
        event: EventKind,
    },
    ClientState {
        consumer: Rc<str>,
        from: MemberState,
        to: MemberState,
    },
    /// `onJoinComplete`: the consumer's new assignment.
    Assigned {
        consumer: Rc<str>,
        generation_id: i32,
        assigned: Box<[Tp]>,
        added: Box<[Tp]>,
        revoked: Box<[Tp]>,
    },
    /// Partitions given up (`onPartitionsRevoked`), or lost (`onPartitionsLost`).
    Revoked {
        consumer: Rc<str>,
        partitions: Box<[Tp]>,
        lost: bool,
    },
    ClientExpired {
        consumer: Rc<str>,
        expiry: ClientExpiry,
    },
    /// The client asks to rejoin (`requestRejoin`), with Kafka's reason.
    RejoinRequested {
        consumer: Rc<str>,
        reason: &'static str,
    },
    /// The leader's assignor met one of Kafka's own flaws (see `assignor::KafkaQuirk`): the
    /// model reproduces Kafka's invalid result, or returns a valid one where Kafka's Java throws.
    AssignorQuirk {
        consumer: Rc<str>,
        quirk: KafkaQuirk,
    },
    /// A non-retriable error was thrown to the application, which stops the consumer.
    ConsumerFailed {
        consumer: Rc<str>,
        error_code: ErrorCode,
        error: &'static str,
    },
    /// A broken invariant: a bug in the model, or a fault that Kafka itself allows.
    InvariantViolated {
        message: String,
    },
}

/// A trace entry: when, and what.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TraceEvent {
    pub index: usize,
    pub at_ms: i64,
    #[serde(flatten)]
    pub kind: TraceKind,
}

/// The languages of the interface.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    #[default]
    En,
    Zh,
}

/// A narrated trace entry, as the views and the JS API get it.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NarratedEvent<'a> {
    #[serde(flatten)]
    pub event: &'a TraceEvent,
    pub text: Text,
}

impl TraceEvent {
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
        let en = lang == Lang::En;
        match &self.kind {
            TraceKind::Narration { note } => {
                if en {
                    note.en.clone()
                } else {
                    note.zh.clone()
                }
            }
            TraceKind::Action { action } => action_text(action, lang),
            TraceKind::ActionIgnored { action, why } => {
                if en {
                    format!("ignored: {} ({why})", action_text(action, lang))
                } else {
                    format!("已忽略：{}（{why}）", action_text(action, lang))
                }
            }
            TraceKind::Lifecycle { consumer, what } => match (what, en) {
                (Lifecycle::Started, true) => format!("{consumer} starts and subscribes"),
                (Lifecycle::Started, false) => format!("消费者 {consumer} 启动并订阅"),
                (Lifecycle::Closed, true) => format!("{consumer} is closed"),
                (Lifecycle::Closed, false) => format!("消费者 {consumer} 已关闭"),
                (Lifecycle::Crashed, true) => format!("{consumer} crashes (no LeaveGroup)"),
                (Lifecycle::Crashed, false) => {
                    format!("消费者 {consumer} 崩溃（不发送离开组请求）")
                }
                (Lifecycle::Paused, true) => format!("{consumer} pauses"),
                (Lifecycle::Paused, false) => format!("消费者 {consumer} 暂停"),
                (Lifecycle::Resumed, true) => format!("{consumer} resumes"),
                (Lifecycle::Resumed, false) => format!("消费者 {consumer} 恢复"),
            },
            TraceKind::RequestSent {
                consumer,
                api,
                correlation_id,
                generation_id,
                member_id,
                ..
            } => {
                let who = if member_id.is_empty() {
                    String::new()
                } else if en {
                    format!(" as {member_id}")
                } else {
                    format!("（成员 {member_id}）")
                };
                let generation = if *generation_id >= 0 && *api != MessageApi::FindCoordinator {
                    if en {
                        format!(", generation {generation_id}")
                    } else {
                        format!("，第 {generation_id} 代")
                    }
                } else {
                    String::new()
                };
                if en {
                    format!(
                        "{consumer} sends {} #{correlation_id}{who}{generation}",
                        api.name()
                    )
                } else {
                    format!(
                        "{consumer} 发送{} #{correlation_id}{who}{generation}",
                        api.zh()
                    )
                }
            }
            TraceKind::RequestDelivered {
                consumer,
                api,
                correlation_id,
            } => {
                if en {
                    format!(
                        "the coordinator receives {} #{correlation_id} from {consumer}",
                        api.name()
                    )
                } else {
                    format!("协调者收到 {consumer} 的{} #{correlation_id}", api.zh())
                }
            }
            TraceKind::ResponseSent {
                consumer,
                api,
                correlation_id,
                error,
                response,
                ..
            } => {
                let extra = response_detail(response.as_deref(), lang);
                if en {
                    format!(
                        "the coordinator answers {} #{correlation_id} of {consumer}: {error}{extra}",
                        api.name()
                    )
                } else {
                    format!(
                        "协调者响应 {consumer} 的{} #{correlation_id}：{error}{extra}",
                        api.zh()
                    )
                }
            }
            TraceKind::ResponseDelivered {
                consumer,
                api,
                correlation_id,
                error,
                ..
            } => {
                if en {
                    format!(
                        "{consumer} receives the {} #{correlation_id} response: {error}",
                        api.name()
                    )
                } else {
                    format!(
                        "{consumer} 收到{} #{correlation_id} 的响应：{error}",
                        api.zh()
                    )
                }
            }
            TraceKind::MessageLost {
                consumer,
                api,
                correlation_id,
                response,
                reason,
            } => {
                let what = match (response, en) {
                    (true, true) => "response",
                    (false, true) => "request",
                    (true, false) => "响应",
                    (false, false) => "请求",
                };
                let why = match (reason, en) {
                    (LossReason::Loss, true) => "lost by the network",
                    (LossReason::Cut, true) => "the link is cut",
                    (LossReason::ConsumerDown, true) => "the consumer is down",
                    (LossReason::Loss, false) => "网络丢包",
                    (LossReason::Cut, false) => "链路已断开",
                    (LossReason::ConsumerDown, false) => "消费者已停止",
                };
                if en {
                    format!(
                        "{} #{correlation_id} {what} of {consumer} is lost: {why}",
                        api.name()
                    )
                } else {
                    format!(
                        "{consumer} 的{} #{correlation_id} {what}丢失：{why}",
                        api.zh()
                    )
                }
            }
            TraceKind::RequestTimedOut {
                consumer,
                api,
                correlation_id,
            } => {
                if en {
                    format!(
                        "{consumer}: {} #{correlation_id} timed out (request.timeout.ms)",
                        api.name()
                    )
                } else {
                    format!(
                        "{consumer}：{} #{correlation_id} 超时（request.timeout.ms）",
                        api.zh()
                    )
                }
            }
            TraceKind::Coordinator { event } => coordinator_text(event, lang),
            TraceKind::ClientState { consumer, from, to } => {
                if en {
                    format!("{consumer}: {} → {}", from.name(), to.name())
                } else {
                    format!("{consumer}：{} → {}", from.zh(), to.zh())
                }
            }
            TraceKind::Assigned {
                consumer,
                generation_id,
                assigned,
                added,
                revoked,
            } => {
                let list = tps(assigned);
                let mut changes = String::new();
                if !added.is_empty() {
                    changes += &if en {
                        format!(", added {}", tps(added))
                    } else {
                        format!("，新增 {}", tps(added))
                    };
                }
                if !revoked.is_empty() {
                    changes += &if en {
                        format!(", revoking {}", tps(revoked))
                    } else {
                        format!("，撤销 {}", tps(revoked))
                    };
                }
                if en {
                    format!("{consumer} is assigned {list} in generation {generation_id}{changes}")
                } else {
                    format!("{consumer} 在第 {generation_id} 代分配到 {list}{changes}")
                }
            }
            TraceKind::Revoked {
                consumer,
                partitions,
                lost,
            } => match (lost, en) {
                (false, true) => format!("{consumer} revokes {}", tps(partitions)),
                (true, true) => format!("{consumer} has lost {}", tps(partitions)),
                (false, false) => format!("{consumer} 撤销 {}", tps(partitions)),
                (true, false) => format!("{consumer} 丢失 {}", tps(partitions)),
            },
            TraceKind::ClientExpired { consumer, expiry } => match (expiry, en) {
                (ClientExpiry::SessionTimeout, true) => format!(
                    "{consumer}: no heartbeat response for session.timeout.ms, the coordinator is marked unknown"
                ),
                (ClientExpiry::SessionTimeout, false) => {
                    format!("{consumer}：超过 session.timeout.ms 未收到心跳响应，标记协调者未知")
                }
                (ClientExpiry::PollTimeout, true) => {
                    format!("{consumer}: no poll() for max.poll.interval.ms, it leaves the group")
                }
                (ClientExpiry::PollTimeout, false) => {
                    format!("{consumer}：超过 max.poll.interval.ms 未调用 poll()，主动离开消费组")
                }
            },
            TraceKind::RejoinRequested { consumer, reason } => {
                if en {
                    format!("{consumer} will rejoin: {reason}")
                } else {
                    format!("{consumer} 需要重新加入：{reason}")
                }
            }
            TraceKind::AssignorQuirk { consumer, quirk } => match (quirk, en) {
                (
                    KafkaQuirk::PreviousOwnerNotSubscribed {
                        member,
                        topic,
                        partition,
                    },
                    true,
                ) => format!(
                    "Kafka's own flaw, reproduced: {consumer}'s sticky assignor gives {topic}-{partition} back to its previous owner {member}, which no longer subscribes to {topic} (performReassignments does not check); {member} will find its assignment does not match its subscription and rejoin"
                ),
                (
                    KafkaQuirk::PreviousOwnerNotSubscribed {
                        member,
                        topic,
                        partition,
                    },
                    false,
                ) => format!(
                    "Kafka 自身的缺陷（如实重现）：{consumer} 的 sticky 分配器把 {topic}-{partition} 还给它之前的所有者 {member}，但 {member} 已不再订阅 {topic}（performReassignments 未检查）；{member} 会发现分配与订阅不符而重新加入"
                ),
                (
                    KafkaQuirk::JavaThrowsNullPointer {
                        previous_owner,
                        topic,
                        partition,
                    },
                    true,
                ) => format!(
                    "here Kafka's Java sticky assignor throws a NullPointerException from {consumer}'s poll() (the previous owner {previous_owner} of {topic}-{partition} cannot take part in reassignment); this model deliberately returns a valid assignment instead"
                ),
                (
                    KafkaQuirk::JavaThrowsNullPointer {
                        previous_owner,
                        topic,
                        partition,
                    },
                    false,
                ) => format!(
                    "此处 Kafka 的 Java sticky 分配器会在 {consumer} 的 poll() 中抛出 NullPointerException（{topic}-{partition} 之前的所有者 {previous_owner} 不能参与重新分配）；本模型有意改为返回一个有效的分配"
                ),
            },
            TraceKind::ConsumerFailed {
                consumer, error, ..
            } => {
                if en {
                    format!("{consumer} fails with {error} and stops")
                } else {
                    format!("{consumer} 因 {error} 失败并停止")
                }
            }
            TraceKind::InvariantViolated { message } => {
                if en {
                    format!("INVARIANT VIOLATED: {message}")
                } else {
                    format!("违反不变式：{message}")
                }
            }
        }
    }
}

fn tps(list: &[Tp]) -> String {
    if list.is_empty() {
        return String::from("[]");
    }
    let mut out = String::from("[");
    let mut previous: Option<&str> = None;
    for (topic, p) in list {
        if previous == Some(&**topic) {
            out += &format!(",{p}");
        } else {
            if previous.is_some() {
                out += " ";
            }
            out += &format!("{topic}-{p}");
            previous = Some(topic);
        }
    }
    out + "]"
}

fn response_detail(response: Option<&Response>, lang: Lang) -> String {
    let en = lang == Lang::En;
    match response {
        Some(Response::JoinGroup(r)) if r.error_code == ErrorCode::None => {
            let leader = if r.leader == r.member_id {
                if en {
                    ", as leader"
                } else {
                    "，为主消费者"
                }
            } else {
                ""
            };
            if en {
                format!(" generation {}{leader}", r.generation_id)
            } else {
                format!(" 第 {} 代{leader}", r.generation_id)
            }
        }
        Some(Response::JoinGroup(r)) if r.error_code == ErrorCode::MemberIdRequired => {
            if en {
                format!(" (member id {})", r.member_id)
            } else {
                format!("（成员 id {}）", r.member_id)
            }
        }
        _ => String::new(),
    }
}

fn state_zh(state: GroupState) -> &'static str {
    crate::vocabulary::group_state(state).zh
}

fn state_en(state: GroupState) -> &'static str {
    crate::vocabulary::group_state(state).en
}

fn cause_text(cause: &Cause, lang: Lang) -> String {
    let en = lang == Lang::En;
    match cause {
        Cause::MemberAdded { member_id } if en => format!("{member_id} joined"),
        Cause::MemberAdded { member_id } => format!("{member_id} 加入"),
        Cause::LeaderRejoined { member_id } if en => format!("the leader {member_id} rejoined"),
        Cause::LeaderRejoined { member_id } => format!("主消费者 {member_id} 重新加入"),
        Cause::MetadataChanged { member_id } if en => {
            format!("{member_id} rejoined with new metadata")
        }
        Cause::MetadataChanged { member_id } => format!("{member_id} 以新的元数据重新加入"),
        Cause::StaticMemberReplaced { member_id } if en => {
            format!("static member replaced by {member_id}")
        }
        Cause::StaticMemberReplaced { member_id } => format!("静态成员被 {member_id} 替换"),
        Cause::MembersLeft { member_ids } if en => format!("{} left", member_ids.join(", ")),
        Cause::MembersLeft { member_ids } => format!("{} 离开", member_ids.join("、")),
        Cause::SessionExpired { member_id } if en => format!("{member_id}'s session expired"),
        Cause::SessionExpired { member_id } => format!("{member_id} 会话超时"),
        Cause::SyncTimeout { member_ids } if en => {
            format!("{} did not sync in time", member_ids.join(", "))
        }
        Cause::SyncTimeout { member_ids } => format!("{} 未及时同步", member_ids.join("、")),
        Cause::JoinPhaseCompleted if en => "the join phase completed".into(),
        Cause::JoinPhaseCompleted => "加入阶段完成".into(),
        Cause::AssignmentPersisted if en => "the leader's assignment was persisted".into(),
        Cause::AssignmentPersisted => "主消费者的分配方案已持久化".into(),
        Cause::AssignmentPersistFailed if en => "persisting the assignment failed".into(),
        Cause::AssignmentPersistFailed => "分配方案持久化失败".into(),
        Cause::GroupMaxSizeReached if en => "group.max.size reached".into(),
        Cause::GroupMaxSizeReached => "达到 group.max.size".into(),
        Cause::LoadedOverCapacity if en => "loaded with more members than group.max.size".into(),
        Cause::LoadedOverCapacity => "加载时成员数超过 group.max.size".into(),
        Cause::Unloaded if en => "the coordinator unloaded the group".into(),
        Cause::Unloaded => "协调者卸载了消费组".into(),
        Cause::Deleted if en => "deleted".into(),
        Cause::Deleted => "已删除".into(),
        Cause::OffsetsExpired if en => "its offsets expired".into(),
        Cause::OffsetsExpired => "偏移量已过期".into(),
    }
}

fn removal_text(reason: RemovalReason, lang: Lang) -> &'static str {
    match (reason, lang) {
        (RemovalReason::LeaveGroup, Lang::En) => "it left",
        (RemovalReason::SessionTimeout, Lang::En) => "its session timed out",
        (RemovalReason::NotRejoined, Lang::En) => "it did not rejoin in time",
        (RemovalReason::SyncTimeout, Lang::En) => "it did not sync in time",
        (RemovalReason::GroupMaxSize, Lang::En) => "group.max.size",
        (RemovalReason::Joined, Lang::En) => "it joined",
        (RemovalReason::LeaveGroup, Lang::Zh) => "主动离开",
        (RemovalReason::SessionTimeout, Lang::Zh) => "会话超时",
        (RemovalReason::NotRejoined, Lang::Zh) => "未及时重新加入",
        (RemovalReason::SyncTimeout, Lang::Zh) => "未及时同步",
        (RemovalReason::GroupMaxSize, Lang::Zh) => "达到 group.max.size",
        (RemovalReason::Joined, Lang::Zh) => "已加入",
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
    let en = lang == Lang::En;
    match event {
        EventKind::GroupCreated if en => "the coordinator creates the group".into(),
        EventKind::GroupCreated => "协调者创建消费组".into(),
        EventKind::StateChanged { from, to, cause } if en => format!(
            "group: {} → {} ({})",
            state_en(*from),
            state_en(*to),
            cause_text(cause, lang)
        ),
        EventKind::StateChanged { from, to, cause } => format!(
            "消费组：{} → {}（{}）",
            state_zh(*from),
            state_zh(*to),
            cause_text(cause, lang)
        ),
        EventKind::GenerationBumped {
            generation_id,
            protocol_name,
        } if en => format!(
            "generation {generation_id} begins (protocol {})",
            protocol_name.as_deref().unwrap_or("none")
        ),
        EventKind::GenerationBumped {
            generation_id,
            protocol_name,
        } => format!(
            "第 {generation_id} 代开始（协议 {}）",
            protocol_name.as_deref().unwrap_or("无")
        ),
        EventKind::MemberAdded { member_id, .. } if en => format!("member {member_id} added"),
        EventKind::MemberAdded { member_id, .. } => format!("成员 {member_id} 加入"),
        EventKind::MemberReplaced {
            old_member_id,
            new_member_id,
            group_instance_id,
        } if en => format!(
            "static member {group_instance_id}: {old_member_id} replaced by {new_member_id}"
        ),
        EventKind::MemberReplaced {
            old_member_id,
            new_member_id,
            group_instance_id,
        } => format!("静态成员 {group_instance_id}：{old_member_id} 被 {new_member_id} 替换"),
        EventKind::MemberReplacementReverted { new_member_id, .. } if en => {
            format!("replacement by {new_member_id} rolled back")
        }
        EventKind::MemberReplacementReverted { new_member_id, .. } => {
            format!("{new_member_id} 的替换已回滚")
        }
        EventKind::MemberRemoved { member_id, reason } if en => format!(
            "member {member_id} removed: {}",
            removal_text(*reason, lang)
        ),
        EventKind::MemberRemoved { member_id, reason } => {
            format!("成员 {member_id} 被移除：{}", removal_text(*reason, lang))
        }
        EventKind::PendingMemberAdded { member_id } if en => {
            format!("pending member {member_id} (MEMBER_ID_REQUIRED)")
        }
        EventKind::PendingMemberAdded { member_id } => {
            format!("待定成员 {member_id}（MEMBER_ID_REQUIRED）")
        }
        EventKind::PendingMemberRemoved { member_id, reason } if en => format!(
            "pending member {member_id} removed: {}",
            removal_text(*reason, lang)
        ),
        EventKind::PendingMemberRemoved { member_id, reason } => format!(
            "待定成员 {member_id} 被移除：{}",
            removal_text(*reason, lang)
        ),
        EventKind::LeaderChanged { to, .. } if en => {
            format!("leader: {}", to.as_deref().unwrap_or("none"))
        }
        EventKind::LeaderChanged { to, .. } => {
            format!("主消费者：{}", to.as_deref().unwrap_or("无"))
        }
        EventKind::ResponseParked { member_id, api, .. } if en => {
            format!("{}'s {api:?} is parked (delayed operation)", member_id)
        }
        EventKind::ResponseParked { member_id, api, .. } => {
            format!("{member_id} 的 {api:?} 进入延迟缓存")
        }
        EventKind::ResponseDropped { member_id, api, .. } if en => {
            format!("{member_id}'s parked {api:?} will never be answered")
        }
        EventKind::ResponseDropped { member_id, api, .. } => {
            format!("{member_id} 被挂起的 {api:?} 不会再得到响应")
        }
        EventKind::TimerScheduled { key, deadline_ms } if en => {
            format!("timer {key} set for {deadline_ms} ms")
        }
        EventKind::TimerScheduled { key, deadline_ms } => {
            format!("定时器 {key} 设为 {deadline_ms} ms")
        }
        EventKind::TimerCancelled { key } if en => format!("timer {key} cancelled"),
        EventKind::TimerCancelled { key } => format!("定时器 {key} 取消"),
        EventKind::TimerFired { key } if en => format!("timer {key} fires"),
        EventKind::TimerFired { key } => format!("定时器 {key} 到期"),
        EventKind::GroupRecordPersisted {
            generation_id,
            members,
        } if en => format!("group record written (generation {generation_id}, {members} members)"),
        EventKind::GroupRecordPersisted {
            generation_id,
            members,
        } => format!("写入消费组记录（第 {generation_id} 代，{members} 个成员）"),
        EventKind::PersistFailed { error } if en => {
            format!("group record write failed: {}", error.name())
        }
        EventKind::PersistFailed { error } => format!("消费组记录写入失败：{}", error.name()),
        EventKind::Unloaded if en => "the coordinator unloads the group (failover)".into(),
        EventKind::Unloaded => "协调者卸载消费组（故障转移）".into(),
        EventKind::Loaded { members, state } if en => format!(
            "a coordinator loads the group from its record ({members} members): {}",
            state_en(*state)
        ),
        EventKind::Loaded { members, state } => format!(
            "协调者从记录加载消费组（{members} 个成员）：{}",
            state_zh(*state)
        ),
        EventKind::Deleted if en => "the group is deleted".into(),
        EventKind::Deleted => "消费组被删除".into(),
        EventKind::OffsetsExpired { partitions } if en => {
            format!("{partitions} committed offsets expired")
        }
        EventKind::OffsetsExpired { partitions } => format!("{partitions} 个已提交偏移量过期"),
    }
}

fn action_text(action: &Action, lang: Lang) -> String {
    let en = lang == Lang::En;
    match action {
        Action::AddConsumer(spec) if en => format!("add consumer {}", spec.name),
        Action::AddConsumer(spec) => format!("添加消费者 {}", spec.name),
        Action::Close { consumer } if en => format!("close {consumer}"),
        Action::Close { consumer } => format!("关闭 {consumer}"),
        Action::Crash { consumer } if en => format!("crash {consumer}"),
        Action::Crash { consumer } => format!("使 {consumer} 崩溃"),
        Action::Restart { consumer, down_ms } if en => {
            format!("restart {consumer} (down for {down_ms} ms)")
        }
        Action::Restart { consumer, down_ms } => format!("重启 {consumer}（停机 {down_ms} ms）"),
        Action::Start { consumer } if en => format!("start {consumer}"),
        Action::Start { consumer } => format!("启动 {consumer}"),
        Action::Pause { consumer, kind } if en => format!("pause {consumer} ({kind:?})"),
        Action::Pause { consumer, kind } => format!("暂停 {consumer}（{kind:?}）"),
        Action::Resume { consumer } if en => format!("resume {consumer}"),
        Action::Resume { consumer } => format!("恢复 {consumer}"),
        Action::Cut { consumer } if en => format!("cut the link of {consumer}"),
        Action::Cut { consumer } => format!("断开 {consumer} 的网络"),
        Action::Heal { consumer } if en => format!("heal the link of {consumer}"),
        Action::Heal { consumer } => format!("恢复 {consumer} 的网络"),
        Action::SetNetwork { consumer, .. } if en => format!(
            "change the network of {}",
            consumer.as_deref().unwrap_or("every link")
        ),
        Action::SetNetwork { consumer, .. } => {
            format!("修改 {} 的网络", consumer.as_deref().unwrap_or("所有链路"))
        }
        Action::Subscribe { consumer, topics } if en => {
            format!("{consumer} subscribes to {}", topics.join(", "))
        }
        Action::Subscribe { consumer, topics } => {
            format!("{consumer} 订阅 {}", topics.join("、"))
        }
        Action::SetConfig { consumer, config } => {
            let keys: Vec<&str> = config.keys().map(|k| k.as_str()).collect();
            if en {
                format!("{consumer}: set {}", keys.join(", "))
            } else {
                format!("{consumer}：修改 {}", keys.join("、"))
            }
        }
        Action::Failover { down_ms } if en => {
            format!("coordinator failover (the group is away for {down_ms} ms)")
        }
        Action::Failover { down_ms } => format!("协调者故障转移（消费组 {down_ms} ms 不可用）"),
        Action::FailNextPersist { error } if en => {
            format!("the next group-record write will fail with {error}")
        }
        Action::FailNextPersist { error } => format!("下一次消费组记录写入将以 {error} 失败"),
    }
}

/// The recorded trace: appended to, never changed. Stored in fixed-size chunks so a long run
/// never copies (or doubles) one huge buffer as it grows — what keeps an hour of 1,000
/// consumers within wasm's 4 GiB.
///
/// A run that goes back in time ([`crate::Player`]) rewinds the trace to an earlier length and
/// records the same entries again (the run is deterministic); the entries past the length are
/// kept meanwhile (the run's known future), so going forward again can jump to a later
/// checkpoint without losing them. Only [`Trace::forget_future`] (a fork) drops them.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    chunks: Vec<Vec<TraceEvent>>,
    /// Entries recorded so far (what the trace is).
    len: usize,
    /// Entries stored: `len` plus the known future.
    stored: usize,
}

const CHUNK: usize = 1 << 14;

impl Trace {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn push(&mut self, event: TraceEvent) {
        if self.len < self.stored {
            // Recording the known future again: the same entry, written over itself.
            self.chunks[self.len / CHUNK][self.len % CHUNK] = event;
            self.len += 1;
            return;
        }
        if self.chunks.last().is_none_or(|c| c.len() == CHUNK) {
            self.chunks.push(Vec::with_capacity(CHUNK));
        }
        if let Some(chunk) = self.chunks.last_mut() {
            chunk.push(event);
            self.len += 1;
            self.stored += 1;
        }
    }

    pub fn get(&self, index: usize) -> Option<&TraceEvent> {
        if index >= self.len {
            return None;
        }
        self.chunks.get(index / CHUNK)?.get(index % CHUNK)
    }

    /// To the first `len` entries (at most what is stored): back, keeping the rest as the
    /// known future, or forward into it (a run restored to a later checkpoint).
    pub fn rewind(&mut self, len: usize) {
        self.len = len.min(self.stored);
    }

    /// Drops the known future (the run forked: it will not happen).
    pub fn forget_future(&mut self) {
        self.chunks.truncate(self.len.div_ceil(CHUNK));
        if let Some(last) = self.chunks.last_mut() {
            last.truncate(self.len - (self.len - 1) / CHUNK * CHUNK);
        }
        self.stored = self.len;
    }

    /// Entries from `from` on, in order.
    pub fn iter_from(&self, from: usize) -> impl Iterator<Item = &TraceEvent> {
        let (chunk, offset) = (from / CHUNK, from % CHUNK);
        self.chunks
            .iter()
            .skip(chunk)
            .enumerate()
            .flat_map(move |(i, c)| c.iter().skip(if i == 0 { offset } else { 0 }))
            .take(self.len.saturating_sub(from))
    }

    pub fn iter(&self) -> impl Iterator<Item = &TraceEvent> {
        self.iter_from(0)
    }
}

impl core::ops::Index<usize> for Trace {
    type Output = TraceEvent;

    fn index(&self, index: usize) -> &TraceEvent {
        assert!(
            index < self.len,
            "trace index {index} past its length {}",
            self.len
        );
        &self.chunks[index / CHUNK][index % CHUNK]
    }
}
