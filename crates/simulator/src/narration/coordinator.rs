//! What the coordinator's events and their causes say.

use super::{Lang, state};
use crate::scenario::Text;
use crate::vocabulary;
use alloc::string::String;
use alloc::vec::Vec;
use group_coordinator::event::{Cause, EventKind, RemovalReason};

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

pub(super) fn coordinator_text(event: &EventKind, lang: Lang) -> String {
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
