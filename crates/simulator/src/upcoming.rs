//! What is about to happen: the next events in the world's queue (messages in flight, the
//! consumers' timers, the script) and the coordinator's timers, in the order they will happen.
//! The page lists them (timers that would fire as no-ops left out), and a message that is first on its link can be made to arrive now or be
//! dropped (`Action::DeliverNow`, `Action::Drop`): the book's cases are races, and this plays
//! the other order.

use crate::simulation::Simulation;
use crate::trace::{Lang, MessageApi};
use crate::world::{Pending, Timer};
use alloc::collections::BTreeSet;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;
use serde::Serialize;

/// One thing about to happen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Upcoming {
    pub at_ms: i64,
    /// What it is, in the asked language.
    pub text: String,
    /// The consumer it happens to or for (its timeline lane); `None`: the coordinator's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub consumer: Option<Rc<str>>,
    /// A message in flight: who, which, which way, and whether it can be chosen (the first in
    /// flight on its link that way).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<InFlight>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct InFlight {
    pub consumer: Rc<str>,
    pub api: MessageApi,
    pub correlation_id: i32,
    /// The coordinator's answer (else the consumer's request).
    pub response: bool,
    pub first_on_link: bool,
}

impl Simulation {
    /// The next `limit` things to happen, in order (the coordinator's timers due at a time come
    /// before the queue's events of that time, as they fire).
    pub fn upcoming(&self, limit: usize, lang: Lang) -> Vec<Upcoming> {
        let zh = lang == Lang::Zh;
        let mut out: Vec<(i64, u8, Upcoming)> = Vec::new();
        if let Some(group) = self.coordinator().describe(&self.scenario().group_id) {
            for t in group.timers.iter().take(limit) {
                let key = crate::narration::short_ids(&t.key);
                let text = if zh {
                    alloc::format!("协调者定时器 {key} 到期")
                } else {
                    alloc::format!("the coordinator's timer {key} fires")
                };
                out.push((
                    t.deadline_ms,
                    0,
                    Upcoming {
                        at_ms: t.deadline_ms,
                        text,
                        consumer: None,
                        message: None,
                    },
                ));
            }
        }
        let mut seen: BTreeSet<(usize, bool)> = BTreeSet::new();
        // Timers that will fire as no-ops (a newer one replaced them, or their consumer restarted
        // or stopped) are left out: nothing will happen then.
        let live = |pending: &Pending| match pending {
            Pending::Timer {
                consumer,
                incarnation,
                timer,
            } => self.consumers().get(*consumer).is_some_and(|c| {
                c.incarnation == *incarnation && c.is_running() && c.timer_is_current(*timer)
            }),
            _ => true,
        };
        for ((at, _), pending) in self.w.queue.iter().filter(|(_, p)| live(p)).take(limit) {
            let names = &self.w.names;
            let name = |c: usize| names.get(c).cloned().unwrap_or_else(|| Rc::from("?"));
            let (text, message) = match pending {
                Pending::ToBroker { consumer, message } => {
                    let (api, id) = message.describe();
                    let who = name(*consumer);
                    let first = seen.insert((*consumer, false));
                    let text = if zh {
                        alloc::format!("{who} 的{} #{id} 到达协调者", api.zh())
                    } else {
                        alloc::format!("{who}'s {} #{id} reaches the coordinator", api.name())
                    };
                    (
                        text,
                        Some(InFlight {
                            consumer: who,
                            api,
                            correlation_id: id,
                            response: false,
                            first_on_link: first,
                        }),
                    )
                }
                Pending::ToConsumer {
                    consumer, message, ..
                } => {
                    let (api, id, _) = message.describe();
                    let who = name(*consumer);
                    let first = seen.insert((*consumer, true));
                    let text = if zh {
                        alloc::format!("对 {who} 的{} #{id} 的响应到达", api.zh())
                    } else {
                        alloc::format!("the answer to {who}'s {} #{id} reaches {who}", api.name())
                    };
                    (
                        text,
                        Some(InFlight {
                            consumer: who,
                            api,
                            correlation_id: id,
                            response: true,
                            first_on_link: first,
                        }),
                    )
                }
                Pending::Timer {
                    consumer, timer, ..
                } => {
                    let who = name(*consumer);
                    let what = match (timer, zh) {
                        (Timer::Poll(_), false) => "poll() runs",
                        (Timer::Heartbeat(_), false) => "the heartbeat thread wakes",
                        (Timer::Backoff(_), false) => "a retry backoff ends",
                        (Timer::RequestTimeout(_), false) => "a request times out",
                        (Timer::Listener(_), false) => "onPartitionsAssigned returns",
                        (Timer::Callback(_), false) => "the rebalance listener returns",
                        (Timer::Poll(_), true) => "调用 poll()",
                        (Timer::Heartbeat(_), true) => "心跳线程唤醒",
                        (Timer::Backoff(_), true) => "重试退避结束",
                        (Timer::RequestTimeout(_), true) => "请求超时",
                        (Timer::Listener(_), true) => "onPartitionsAssigned 返回",
                        (Timer::Callback(_), true) => "再平衡监听器返回",
                    };
                    (alloc::format!("{who}: {what}"), None)
                }
                Pending::Script(_) => (
                    String::from(if zh {
                        "场景的下一步"
                    } else {
                        "the scenario's next step"
                    }),
                    None,
                ),
                Pending::Start(c) => {
                    let who = name(*c);
                    (
                        if zh {
                            alloc::format!("{who} 启动")
                        } else {
                            alloc::format!("{who} starts")
                        },
                        None,
                    )
                }
                Pending::LoadGroup => (
                    String::from(if zh {
                        "协调者加载消费组"
                    } else {
                        "a coordinator loads the group"
                    }),
                    None,
                ),
                Pending::Inject { consumer, request } => {
                    let who = name(*consumer);
                    let api = crate::trace::MessageApi::of(request.api()).name();
                    (
                        if zh {
                            alloc::format!("{who} 发送 {api}")
                        } else {
                            alloc::format!("{who} sends {api}")
                        },
                        None,
                    )
                }
                Pending::Advance => (
                    String::from(if zh {
                        "broker 触发到期的定时器"
                    } else {
                        "the broker fires the due timers"
                    }),
                    None,
                ),
            };
            let consumer = match pending {
                Pending::ToBroker { consumer, .. }
                | Pending::ToConsumer { consumer, .. }
                | Pending::Timer { consumer, .. }
                | Pending::Inject { consumer, .. }
                | Pending::Start(consumer) => Some(name(*consumer)),
                _ => None,
            };
            out.push((
                at,
                1,
                Upcoming {
                    at_ms: at,
                    text,
                    consumer,
                    message,
                },
            ));
        }
        // Stable: equal times keep the queue's order, the coordinator's timers first.
        group_coordinator::ordered::sort_by_key(&mut out, |(at, kind, _)| (*at, *kind));
        out.into_iter().take(limit).map(|(_, _, u)| u).collect()
    }
}
