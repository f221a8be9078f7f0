//! The leader's assignment: running the assignor over the members' subscriptions in SyncGroup.

use super::*;

impl Consumer {
    /// The leader runs the group's assignor on the members' subscriptions (`docs/src/reference/classic-protocol.md#client-join-loop` step 4).
    pub(super) fn assign(
        &mut self,
        w: &mut World,
        r: &JoinGroupResponse,
    ) -> Vec<SyncGroupRequestAssignment> {
        let protocol = r.protocol_name.clone().unwrap_or_default();
        use group_coordinator::ordered;
        let Some(strategy) = Strategy::from_name(&protocol) else {
            w.violation(format!(
                "the group chose an unknown assignor \"{protocol}\""
            ));
            return Vec::new();
        };
        // The leader assigns from its own metadata, which may lag the cluster's by up to
        // `metadata.max.age.ms`.
        let mut input = AssignmentInput {
            topics: self.metadata.clone(),
            ..AssignmentInput::default()
        };
        for m in &r.members {
            let subscription = match Subscription::decode(&m.metadata) {
                Ok(s) => s,
                Err(e) => {
                    w.violation(format!(
                        "the leader cannot decode {}'s subscription: {e}",
                        m.member_id
                    ));
                    continue;
                }
            };
            let (owned_partitions, generation_id) = match strategy {
                Strategy::Sticky => match subscription
                    .user_data
                    .as_ref()
                    .map(|u| StickyUserData::decode(u))
                {
                    Some(Ok(u)) => (u.previous_assignment, u.generation),
                    _ => (Vec::new(), None),
                },
                Strategy::CooperativeSticky => {
                    let generation = if subscription.version >= 2 {
                        subscription.generation_id
                    } else {
                        subscription
                            .user_data
                            .as_ref()
                            .and_then(|u| decode_cooperative_user_data(u).ok())
                            .unwrap_or(-1)
                    };
                    (
                        subscription.owned_partitions,
                        (generation >= 0).then_some(generation),
                    )
                }
                _ => (subscription.owned_partitions, None),
            };
            input.members.push(MemberSubscription {
                member_id: m.member_id.clone(),
                group_instance_id: m.group_instance_id.clone(),
                topics: subscription.topics,
                owned_partitions,
                generation_id,
                rack_id: subscription.rack_id,
            });
        }
        // `assignmentSnapshot`: what the group's subscription looked like to the leader.
        let subscribed = ordered::set(input.members.iter().flat_map(|m| &m.topics));
        self.assignment_snapshot = Some(ordered::map(
            self.metadata
                .iter()
                .filter(|(t, _)| subscribed.contains(t))
                .map(|(t, n)| (t.clone(), *n)),
        ));
        let assignor::Checked {
            output,
            quirks,
            valid,
            moved_at_once,
        } = match assignor::assign_checked(strategy, &input) {
            Ok(checked) => checked,
            Err(e) => {
                w.violation(format!("the {protocol} assignor refused its input: {e}"));
                return Vec::new();
            }
        };
        // Kafka's own flaws on this input are shown, not flagged: they are Kafka's behaviour.
        for quirk in quirks {
            w.record(TraceKind::AssignorQuirk {
                consumer: self.name.clone(),
                quirk,
            });
        }
        if let Err(e) = valid {
            w.violation(format!("the {protocol} assignment is invalid: {e}"));
        }
        if moved_at_once > 0 {
            w.violation(format!(
                "cooperative-sticky revoked and assigned {moved_at_once} partitions in one round"
            ));
        }
        output
            .into_iter()
            .map(|(member_id, partitions)| SyncGroupRequestAssignment {
                member_id,
                assignment: Assignment {
                    version: 3,
                    assigned_partitions: partitions,
                    user_data: None,
                }
                .encode(),
            })
            .collect()
    }
}
