//! Regular-expression subscriptions (`SubscribedTopicRegex`, Kafka 4.0;
//! `docs/src/reference/consumer-group-protocol.md#regex`): Kafka's
//! `GroupMetadataManager.maybeUpdateRegularExpressions` and `handleRegularExpressionsResult`.
//!
//! A member's pattern is compiled (RE2/J's syntax, `crate::topic_regex`) when the group first
//! sees it, and refused with INVALID_REGULAR_EXPRESSION if it is not one. The group resolves all
//! its patterns together, off the request path: Kafka hands the work to an executor and applies
//! the result as a later write. The model computes the result when the resolution is scheduled
//! (against that metadata image, as Kafka's task does) and applies it when a zero-delay timer,
//! `<group>-regex`, fires: after the heartbeat that asked for it, before anything later. A
//! resolution that changes what a pattern matches bumps the group epoch; the next heartbeat
//! computes the target with the new topics.
//!
//! A heartbeat asks for a resolution only when the group subscribes to a pattern, none is under
//! way, the last one is more than 10 s old (`REGEX_BATCH_REFRESH_INTERVAL_MS`), and either a
//! pattern is not resolved yet or a topic was created since. A topic created later thus joins
//! the subscription at the first heartbeat at least 10 s after the previous resolution.

use super::group::{ConsumerGroup, ConsumerGroupMember, ResolvedRegularExpression};
use super::groups::{ConsumerGroups, Failure, fail};
use crate::ErrorCode;
use crate::ctx::Ctx;
use crate::timer::TimerKey;

use crate::event::{EventKind, ResolvedRegex};
use crate::topic_regex::TopicRegex;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

/// Kafka's `REGEX_BATCH_REFRESH_INTERVAL_MS`: a group's patterns are resolved at most once in
/// this time.
pub const REGEX_BATCH_REFRESH_INTERVAL_MS: i64 = 10_000;

/// The metadata image a resolution reads: the topics, its version, and the version of the last
/// change that created a topic.
pub(super) struct Image<'a> {
    pub topics: &'a BTreeMap<String, super::TopicImage>,
    pub version: u64,
    pub version_with_new_topics: u64,
}

/// Kafka's `maybeUpdateRegularExpressions`, for a member whose pattern was `old` becoming
/// `updated` (not put yet): whether the group epoch must move (the member took up a pattern
/// already resolved), after scheduling a resolution if one is due. A new pattern that does not
/// compile is refused.
pub(super) fn maybe_update_regular_expressions(
    ctx: &mut Ctx,
    group: &mut ConsumerGroup,
    image: &Image<'_>,
    old: &str,
    updated: &ConsumerGroupMember,
) -> Result<bool, Failure> {
    let new = updated.subscribed_topic_regex.as_str();
    let mut bump = false;
    let mut require_refresh = false;
    if old != new && !new.is_empty() {
        if group.num_subscribed_members(new) == 0 {
            if let Err(e) = TopicRegex::new(new) {
                return fail(
                    ErrorCode::InvalidRegularExpression,
                    alloc::format!(
                        "SubscribedTopicRegex `{new}` is not a valid regular expression: {}.",
                        e.description
                    ),
                );
            }
            require_refresh = true;
        } else {
            bump = group.resolved_regular_expressions.contains_key(new);
        }
    }
    // 0. The group subscribes to a pattern (counting the one this member may bring).
    if !require_refresh && group.num_subscribed_regular_expressions() == 0 {
        return Ok(bump);
    }
    // 1. No resolution is under way.
    let key = TimerKey::ConsumerRegexRefresh(group.group_id.clone());
    if ctx.timers.deadline(&key).is_some() {
        return Ok(bump);
    }
    // 2. The last one is more than 10 s old.
    let last = group.last_regex_refresh_ms();
    if ctx.now <= last.saturating_add(REGEX_BATCH_REFRESH_INTERVAL_MS) {
        return Ok(bump);
    }
    // 3. A pattern is not resolved yet; 4. or a topic was created since.
    let regexes = group.subscribed_regular_expressions(None, Some(updated));
    require_refresh |= regexes.len() != group.resolved_regular_expressions.len();
    require_refresh |= group.last_regex_version() < image.version_with_new_topics;
    if require_refresh && !regexes.is_empty() {
        group.regex_refresh = Some(resolve(regexes.keys(), image, ctx.now));
        ctx.schedule(key, 0);
    }
    Ok(bump)
}

/// Kafka's `refreshRegularExpressions`: every pattern against every topic name. A pattern that
/// does not compile resolves to nothing (it cannot be here: it was checked when it came).
fn resolve<'a>(
    regexes: impl Iterator<Item = &'a String>,
    image: &Image<'_>,
    now: i64,
) -> BTreeMap<String, ResolvedRegularExpression> {
    regexes
        .map(|regex| {
            let topics = TopicRegex::new(regex).map_or_else(
                |_| Vec::new(),
                |re| {
                    image
                        .topics
                        .keys()
                        .filter(|name| re.matches(name))
                        .cloned()
                        .collect()
                },
            );
            let resolved = ResolvedRegularExpression {
                topics,
                version: image.version,
                timestamp: now,
            };
            (regex.clone(), resolved)
        })
        .collect()
}

impl ConsumerGroups {
    /// Kafka's `handleRegularExpressionsResult`: the resolution's timer fired. Each pattern
    /// still subscribed to takes its new topics; if any changed, or the subscribed topics'
    /// metadata did, the group epoch moves on.
    pub(super) fn on_regex_refresh(&mut self, ctx: &mut Ctx, group_id: &str) {
        let version = self.topics_version;
        let Some(group) = self.groups.get_mut(group_id) else {
            return;
        };
        let Some(result) = group.regex_refresh.take() else {
            return;
        };
        let before = group.state();
        let mut bump = false;
        let mut told = Vec::new();
        for (regex, resolved) in result {
            if group.num_subscribed_members(&regex) == 0 {
                continue;
            }
            let old = group.resolved_regular_expressions.get(&regex);
            bump |= old.map_or(&[][..], |o| o.topics.as_slice()) != resolved.topics.as_slice();
            told.push(ResolvedRegex {
                regex: regex.clone(),
                topics: resolved.topics.clone(),
            });
            group.resolved_regular_expressions.insert(regex, resolved);
        }
        ctx.emit(
            group_id,
            EventKind::RegularExpressionsResolved { resolved: told },
        );
        let metadata = super::groups::subscription_metadata(group, &self.topics, None, None);
        if metadata != group.subscription_metadata {
            group.subscription_metadata = metadata;
            bump = true;
        }
        if bump {
            group.group_epoch += 1;
            group.topics_version = version;
            ctx.emit(
                group_id,
                EventKind::GroupEpochBumped {
                    group_epoch: group.group_epoch,
                },
            );
        }
        self.note_state(ctx, group_id, Some(before));
    }
}
