//! What a request and a response say in one line, as the protocol console logs them (and as its
//! accessible text reads): the API, its version and correlation id, the member and epoch, and
//! for a response its outcome and what it carried. Member ids are shortened (`short_ids`).

use super::{Lang, outcome, short_ids};
use alloc::string::String;
use alloc::vec::Vec;
use group_coordinator::{ErrorCode, Request, Response};

/// A request in one line: `JoinGroup v9 #3 consumer-1-088712be…`, and the epoch of a
/// ConsumerGroupHeartbeat. The same in both languages (the API's names are Kafka's).
pub fn request_text(r: &Request) -> String {
    let member_id = match r {
        Request::JoinGroup(r) => r.member_id.as_str(),
        Request::SyncGroup(r) => r.member_id.as_str(),
        Request::Heartbeat(r) => r.member_id.as_str(),
        Request::LeaveGroup(r) => r.member_id.as_str(),
        Request::OffsetCommit(r) => r.member_id.as_str(),
        Request::ConsumerGroupHeartbeat(r) => r.member_id.as_str(),
        _ => "",
    };
    let mut text = alloc::format!(
        "{} v{} #{}",
        r.api().name(),
        r.api_version(),
        r.correlation_id()
    );
    if !member_id.is_empty() {
        text.push(' ');
        text.push_str(&short_ids(member_id));
    }
    if let Request::ConsumerGroupHeartbeat(r) = r {
        text.push_str(&alloc::format!(" epoch {}", r.member_epoch));
    }
    text
}

/// The error a response carries: its own, or (ConsumerGroupDescribe and the config APIs, which
/// have none) the first of its groups' or resources' that is not NONE.
pub fn response_error(r: &Response) -> ErrorCode {
    fn first(mut codes: impl Iterator<Item = ErrorCode>) -> ErrorCode {
        codes
            .find(|c| *c != ErrorCode::None)
            .unwrap_or(ErrorCode::None)
    }
    match r {
        Response::ConsumerGroupDescribe(r) => first(r.groups.iter().map(|g| g.error_code)),
        Response::DescribeConfigs(r) => first(r.results.iter().map(|x| x.error_code)),
        Response::IncrementalAlterConfigs(r) => first(r.responses.iter().map(|x| x.error_code)),
        _ => r.error_code(),
    }
}

/// A response in one line, in `lang`: `JoinGroup #3 · ok · member c-0887… · generation 1 ·
/// leader c-0887… · 2 members listed`.
pub fn response_text(r: &Response, lang: Lang) -> String {
    let head = alloc::format!("{} #{}", r.api().name(), r.correlation_id());
    let failed = |code: ErrorCode, message: &Option<String>| match message {
        Some(m) => alloc::format!("{} ({m})", code.name()),
        None => String::from(code.name()),
    };
    let mut parts: Vec<String> = Vec::from([head]);
    match r {
        Response::ConsumerGroupDescribe(r) => {
            for g in &r.groups {
                let group_id = &g.group_id;
                parts.push(if g.error_code == ErrorCode::None {
                    let (state, epoch, members) = (&g.group_state, g.group_epoch, g.members.len());
                    say!(
                        lang,
                        "{group_id}: {state}, group epoch {epoch}, {members} members",
                        "{group_id}: {state}, 组纪元 {epoch}, {members} 个成员"
                    )
                } else {
                    alloc::format!("{group_id}: {}", g.error_code.name())
                });
            }
            return parts.join(" · ");
        }
        Response::DescribeConfigs(r) => {
            for x in &r.results {
                let name = &x.resource_name;
                parts.push(if x.error_code == ErrorCode::None {
                    let configs: Vec<String> = x
                        .configs
                        .iter()
                        .map(|c| {
                            let (key, value) = (&c.name, c.value.as_deref().unwrap_or(""));
                            // 8 is GROUP_CONFIG: set for the group; anything else is the default.
                            let default = if c.config_source == 8 {
                                String::new()
                            } else {
                                say!(lang, " (default)", "（默认）")
                            };
                            alloc::format!("{key}={value}{default}")
                        })
                        .collect();
                    alloc::format!("{name}: {}", configs.join(", "))
                } else {
                    alloc::format!("{name}: {}", failed(x.error_code, &x.error_message))
                });
            }
            return parts.join(" · ");
        }
        Response::IncrementalAlterConfigs(r) => {
            for x in &r.responses {
                parts.push(alloc::format!(
                    "{}: {}",
                    x.resource_name,
                    if x.error_code == ErrorCode::None {
                        say!(lang, "ok", "成功")
                    } else {
                        failed(x.error_code, &x.error_message)
                    }
                ));
            }
            return parts.join(" · ");
        }
        _ => {}
    }
    let code = r.error_code();
    parts.push(outcome(code, code.name(), lang));
    match r {
        Response::JoinGroup(r) => {
            if !r.member_id.is_empty() {
                let member = short_ids(&r.member_id);
                parts.push(say!(lang, "member {member}", "成员 {member}"));
            }
            if r.generation_id >= 0 {
                let generation = r.generation_id;
                parts.push(say!(lang, "generation {generation}", "第 {generation} 代"));
            }
            if !r.leader.is_empty() {
                let leader = short_ids(&r.leader);
                parts.push(say!(lang, "leader {leader}", "主消费者 {leader}"));
            }
            if !r.members.is_empty() {
                let n = r.members.len();
                parts.push(say!(lang, "{n} members listed", "列出 {n} 个成员"));
            }
            if r.skip_assignment {
                parts.push(say!(lang, "skip assignment", "跳过分配"));
            }
        }
        Response::SyncGroup(r) if r.error_code == ErrorCode::None => {
            let bytes = if r.assignment.is_empty() {
                say!(lang, "(empty)", "（空）")
            } else {
                r.assignment.to_base64()
            };
            parts.push(say!(lang, "assignment {bytes}", "分配 {bytes}"));
        }
        Response::ConsumerGroupHeartbeat(r) => {
            if let Some(message) = &r.error_message {
                parts.push(message.clone());
            }
            let epoch = r.member_epoch;
            parts.push(say!(lang, "epoch {epoch}", "纪元 {epoch}"));
            if let Some(a) = &r.assignment {
                let n: usize = a.topic_partitions.iter().map(|t| t.partitions.len()).sum();
                parts.push(say!(
                    lang,
                    "assignment of {n} partitions",
                    "分配 {n} 个分区"
                ));
            }
        }
        Response::LeaveGroup(r) => {
            for m in &r.members {
                let who = if !m.member_id.is_empty() {
                    m.member_id.as_str()
                } else {
                    m.group_instance_id.as_deref().unwrap_or("?")
                };
                parts.push(alloc::format!(
                    "{}: {}",
                    short_ids(who),
                    outcome(m.error_code, m.error_code.name(), lang)
                ));
            }
        }
        _ => {}
    }
    parts.join(" · ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use group_coordinator::protocol::{
        ConsumerGroupHeartbeatRequest, JoinGroupResponse, JoinGroupResponseMember,
        LeaveGroupResponse, MemberResponse,
    };

    #[test]
    fn a_request_names_its_api_version_member_and_epoch() {
        let r = Request::ConsumerGroupHeartbeat(ConsumerGroupHeartbeatRequest {
            api_version: 1,
            correlation_id: 7,
            member_id: String::from("c-088712be-8a58-4fca-bbff-7c596e26ce46"),
            member_epoch: 3,
            ..Default::default()
        });
        assert_eq!(
            request_text(&r),
            "ConsumerGroupHeartbeat v1 #7 c-088712be… epoch 3"
        );
    }

    #[test]
    fn a_join_response_tells_member_generation_leader_and_members_in_each_language() {
        let id = String::from("A-088712be-8a58-4fca-bbff-7c596e26ce46");
        let r = Response::JoinGroup(JoinGroupResponse {
            correlation_id: 2,
            member_id: id.clone(),
            generation_id: 1,
            leader: id.clone(),
            members: Vec::from([JoinGroupResponseMember {
                member_id: id,
                ..Default::default()
            }]),
            ..Default::default()
        });
        assert_eq!(
            response_text(&r, Lang::En),
            "JoinGroup #2 · ok · member A-088712be… · generation 1 · leader A-088712be… · 1 members listed"
        );
        assert_eq!(
            response_text(&r, Lang::Zh),
            "JoinGroup #2 · 成功 · 成员 A-088712be… · 第 1 代 · 主消费者 A-088712be… · 列出 1 个成员"
        );
        assert_eq!(response_error(&r), ErrorCode::None);
    }

    #[test]
    fn a_leave_response_names_each_members_outcome() {
        let r = Response::LeaveGroup(LeaveGroupResponse {
            correlation_id: 4,
            members: Vec::from([
                MemberResponse {
                    member_id: String::from("B"),
                    error_code: ErrorCode::None,
                    ..Default::default()
                },
                MemberResponse {
                    group_instance_id: Some(String::from("i-1")),
                    error_code: ErrorCode::UnknownMemberId,
                    ..Default::default()
                },
            ]),
            ..Default::default()
        });
        assert_eq!(
            response_text(&r, Lang::En),
            "LeaveGroup #4 · ok · B: ok · i-1: UNKNOWN_MEMBER_ID"
        );
    }
}
