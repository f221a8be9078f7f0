//! The protocol's names in English and Chinese, and the classic group's transition table with
//! what triggers each transition: one catalogue, read by the narration here and handed to the
//! page (which then keeps no copy of a protocol table or name). The Chinese follows the book's
//! terms (the seed's glossary).

use crate::consumer::Life;
use crate::consumer::states::{client_states, client_transitions};
use crate::scenario::{PauseKind, Text};
use crate::trace::MemberState;
use alloc::string::String;
use alloc::vec::Vec;
use group_coordinator::GroupState;
use group_coordinator::consumer_group::ConsumerGroupState;
use group_coordinator::consumer_group::reconcile::MemberState as ConsumerMemberState;
use serde::Serialize;

/// A name in both languages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Name {
    pub en: &'static str,
    pub zh: &'static str,
}

const fn name(en: &'static str, zh: &'static str) -> Name {
    Name { en, zh }
}

/// A group state's name: Kafka's (DescribeGroups') in English, the book's in Chinese.
pub const fn group_state(state: GroupState) -> Name {
    match state {
        GroupState::Empty => name("Empty", "空"),
        GroupState::PreparingRebalance => name("PreparingRebalance", "准备再平衡"),
        GroupState::CompletingRebalance => name("CompletingRebalance", "等待同步"),
        GroupState::Stable => name("Stable", "稳定"),
        GroupState::Dead => name("Dead", "死亡"),
    }
}

/// The Java client's member state (`MemberState` of `AbstractCoordinator` for the classic
/// protocol, of the KIP-848 membership manager for the consumer protocol).
pub const fn member_state(state: MemberState) -> Name {
    // The English is the engine's (`MemberState::name`); the Chinese is the book's.
    name(
        state.name(),
        match state {
            MemberState::Unjoined => "未加入",
            MemberState::PreparingRebalance => "准备再平衡",
            MemberState::CompletingRebalance => "等待同步",
            MemberState::Stable => "稳定",
            MemberState::Unsubscribed => "未订阅",
            MemberState::Joining => "加入中",
            MemberState::Reconciling => "协调分配中",
            MemberState::Acknowledging => "确认中",
            MemberState::Fenced => "被隔离",
            MemberState::PrepareLeaving => "准备离开",
            MemberState::Leaving => "离开中",
            MemberState::Stale => "已过期",
        },
    )
}

/// A consumer group's state (KIP-848): Kafka's name, and in Chinese the book's terms.
pub const fn consumer_group_state(state: ConsumerGroupState) -> Name {
    match state {
        ConsumerGroupState::Empty => name("Empty", "空"),
        ConsumerGroupState::Assigning => name("Assigning", "分配中"),
        ConsumerGroupState::Reconciling => name("Reconciling", "协调中"),
        ConsumerGroupState::Stable => name("Stable", "稳定"),
        ConsumerGroupState::Dead => name("Dead", "死亡"),
    }
}

/// A consumer group's state is not kept in a table: the coordinator derives it after every
/// change (no members: Empty; a group epoch past the target's: Assigning; a member not yet
/// STABLE at the target's epoch: Reconciling; else Stable). These are the changes that happen,
/// with what causes them (`docs/src/reference/consumer-group-protocol.md#states`).
pub const fn consumer_trigger(from: ConsumerGroupState, to: ConsumerGroupState) -> Option<Name> {
    use ConsumerGroupState::*;
    Some(match (from, to) {
        (Empty, Stable) => name("first member joins", "第一个成员加入"),
        (Stable, Reconciling) => name("new target", "新的目标分配"),
        (Reconciling, Stable) => name("all STABLE at its epoch", "全部在目标纪元稳定"),
        (Stable | Reconciling, Assigning) => name("leave / expiry", "离开/超时"),
        (Assigning, Reconciling) => name("target computed", "计算出目标分配"),
        (Assigning, Stable) => name("target: nothing moves", "目标分配无需移动"),
        (Stable | Reconciling | Assigning, Empty) => name("last member leaves", "最后一个成员离开"),
        (Empty, Dead) => name("deleted / replaced", "删除/被替换"),
        _ => return None,
    })
}

/// One change of a consumer group's state, with its cause.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ConsumerTransition {
    pub from: ConsumerGroupState,
    pub to: ConsumerGroupState,
    pub trigger: Name,
}

const CONSUMER_GROUP_STATES: [ConsumerGroupState; 5] = [
    ConsumerGroupState::Empty,
    ConsumerGroupState::Assigning,
    ConsumerGroupState::Reconciling,
    ConsumerGroupState::Stable,
    ConsumerGroupState::Dead,
];

/// The consumer group's changes, in state order.
pub fn consumer_transitions() -> Vec<ConsumerTransition> {
    let mut out = Vec::new();
    for to in CONSUMER_GROUP_STATES {
        for from in CONSUMER_GROUP_STATES {
            if let Some(trigger) = consumer_trigger(from, to) {
                out.push(ConsumerTransition { from, to, trigger });
            }
        }
    }
    out
}

/// A consumer group member's state as the coordinator sees it (KIP-848).
pub const fn consumer_member_state(state: ConsumerMemberState) -> Name {
    match state {
        ConsumerMemberState::Stable => name("STABLE", "稳定（STABLE）"),
        ConsumerMemberState::UnrevokedPartitions => name(
            "UNREVOKED_PARTITIONS (must revoke first)",
            "待撤销分区（UNREVOKED_PARTITIONS）",
        ),
        ConsumerMemberState::UnreleasedPartitions => name(
            "UNRELEASED_PARTITIONS (waits for partitions others hold)",
            "待释放分区（UNRELEASED_PARTITIONS）",
        ),
        ConsumerMemberState::Unknown => name("UNKNOWN", "未知（UNKNOWN）"),
    }
}

/// A consumer process's life.
pub const fn life(life: Life) -> Name {
    match life {
        Life::NotStarted => name("not started", "未启动"),
        Life::Running => name("running", "运行中"),
        Life::Closing => name("closing", "关闭中"),
        Life::Closed => name("closed", "已关闭"),
        Life::Crashed => name("crashed", "已崩溃"),
        Life::Failed => name("failed", "已失败"),
    }
}

/// What a pause stops.
pub const fn pause(kind: PauseKind) -> Name {
    match kind {
        PauseKind::Processing => name("processing", "处理中"),
        PauseKind::Gc => name("GC pause", "GC 停顿"),
    }
}

/// What triggers a transition of the classic group's table
/// (`GroupState::valid_previous_states`), or `None` for a pair that is not in it.
pub const fn trigger(from: GroupState, to: GroupState) -> Option<Name> {
    use GroupState::*;
    Some(match (from, to) {
        (Empty, PreparingRebalance) => name("a member joins", "成员加入"),
        (PreparingRebalance, CompletingRebalance) => name("join completes", "加入完成"),
        (CompletingRebalance, Stable) => {
            name("leader's SyncGroup persisted", "主消费者同步已持久化")
        }
        (Stable, PreparingRebalance) => name(
            "join / leave / expiry / leader rejoins",
            "加入/离开/超时/主消费者重新加入",
        ),
        (CompletingRebalance, PreparingRebalance) => {
            name("join / leave / expiry", "加入/离开/超时")
        }
        (PreparingRebalance, Empty) => name("everyone gone", "成员全部离开"),
        (Empty, Dead) => name("unload / delete / offsets expired", "卸载/删除/偏移量过期"),
        (Stable | PreparingRebalance | CompletingRebalance, Dead) => name("unload", "卸载"),
        (Dead, Dead) => name("unload again", "再次卸载"),
        _ => return None,
    })
}

/// One transition of the table, with its trigger.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Transition {
    pub from: GroupState,
    pub to: GroupState,
    pub trigger: Name,
}

/// Every transition of the classic group's table, in state order.
pub fn transitions() -> Vec<Transition> {
    let mut out = Vec::new();
    for to in GroupState::ALL {
        for &from in to.valid_previous_states() {
            if let Some(trigger) = trigger(from, to) {
                out.push(Transition { from, to, trigger });
            }
        }
    }
    out
}

/// Everything the page names, in one value.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Vocabulary {
    /// By Kafka's state name.
    pub group_states: Vec<(GroupState, Name)>,
    pub transitions: Vec<Transition>,
    /// The consumer group's (KIP-848) states and the changes between them.
    pub consumer_group_states: Vec<(ConsumerGroupState, Name)>,
    pub consumer_transitions: Vec<ConsumerTransition>,
    /// The coordinator's view of a consumer group member.
    pub consumer_member_states: Vec<(ConsumerMemberState, Name)>,
    /// The client's own states in the order a member goes through them, and its transitions:
    /// classic protocol, then consumer protocol.
    pub client_states: &'static [MemberState],
    pub client_transitions: &'static [(MemberState, MemberState)],
    pub client_states_consumer: &'static [MemberState],
    pub client_transitions_consumer: &'static [(MemberState, MemberState)],
    /// By the names the snapshot uses for them (`ConsumerView.state`, `.life`, `.paused`).
    pub member_states: Vec<(MemberState, Name)>,
    pub lives: Vec<(Life, Name)>,
    pub pauses: Vec<(PauseKind, Name)>,
}

pub fn vocabulary() -> Vocabulary {
    use MemberState as M;
    Vocabulary {
        group_states: GroupState::ALL
            .iter()
            .map(|&s| (s, group_state(s)))
            .collect(),
        transitions: transitions(),
        consumer_group_states: CONSUMER_GROUP_STATES
            .iter()
            .map(|&s| (s, consumer_group_state(s)))
            .collect(),
        consumer_transitions: consumer_transitions(),
        client_states: client_states(false),
        client_transitions: client_transitions(false),
        client_states_consumer: client_states(true),
        client_transitions_consumer: client_transitions(true),
        consumer_member_states: [
            ConsumerMemberState::Stable,
            ConsumerMemberState::UnrevokedPartitions,
            ConsumerMemberState::UnreleasedPartitions,
            ConsumerMemberState::Unknown,
        ]
        .iter()
        .map(|&s| (s, consumer_member_state(s)))
        .collect(),
        member_states: [
            M::Unjoined,
            M::PreparingRebalance,
            M::CompletingRebalance,
            M::Stable,
            M::Unsubscribed,
            M::Joining,
            M::Reconciling,
            M::Acknowledging,
            M::Fenced,
            M::PrepareLeaving,
            M::Leaving,
            M::Stale,
        ]
        .iter()
        .map(|&s| (s, member_state(s)))
        .collect(),
        lives: [
            Life::NotStarted,
            Life::Running,
            Life::Closing,
            Life::Closed,
            Life::Crashed,
            Life::Failed,
        ]
        .iter()
        .map(|&l| (l, life(l)))
        .collect(),
        pauses: [PauseKind::Processing, PauseKind::Gc]
            .iter()
            .map(|&k| (k, pause(k)))
            .collect(),
    }
}

impl Name {
    /// The name in `lang`.
    pub fn pick(self, lang: crate::trace::Lang) -> &'static str {
        match lang {
            crate::trace::Lang::En => self.en,
            crate::trace::Lang::Zh => self.zh,
        }
    }

    pub fn text(self) -> Text {
        Text {
            en: String::from(self.en),
            zh: String::from(self.zh),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_transition_of_the_table_has_a_trigger_and_no_other_pair_does() {
        for from in GroupState::ALL {
            for to in GroupState::ALL {
                assert_eq!(
                    trigger(from, to).is_some(),
                    GroupState::can_transition(from, to),
                    "{from} -> {to}"
                );
            }
        }
        assert_eq!(transitions().len(), 11);
    }
}
