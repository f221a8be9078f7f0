//! The seed's cases in the KIP-848 protocol, through the JS API: ConsumerGroupHeartbeat
//! requests as JS objects, responses and `describe` read back as JSON.

use super::{js, rust};
use group_coordinator_wasm::Coordinator;
use serde_json::{Value, json};

struct Group {
    c: Coordinator,
    orders: String,
}

impl Group {
    /// A coordinator with topic `orders` (6 partitions) and members a, b, c Stable on it.
    fn stable_three() -> Group {
        let mut c = Coordinator::new(None).unwrap();
        c.update_metadata(
            0.0.into(),
            js(&json!({ "topics": [{ "name": "orders", "partitions": 6 }] })),
        )
        .unwrap();
        let topics = rust(&c.topics().unwrap());
        let orders = topics[0]["topicId"].as_str().unwrap().to_string();
        let mut g = Group { c, orders };
        for m in ["a", "b", "c"] {
            let r = g.beat(json!({ "memberId": m, "memberEpoch": 0, "rebalanceTimeoutMs": 30000,
                "subscribedTopicNames": ["orders"], "serverAssignor": "range", "topicPartitions": [] }));
            assert_eq!(r["errorCode"], 0, "{r}");
        }
        g.settle();
        assert_eq!(g.view()["state"], "Stable", "{}", g.view());
        g
    }

    fn beat(&mut self, fields: Value) -> Value {
        let mut request =
            json!({ "api": "ConsumerGroupHeartbeat", "apiVersion": 0, "groupId": "g" });
        for (k, v) in fields.as_object().unwrap() {
            request[k] = v.clone();
        }
        let out = rust(&self.c.handle(0.0.into(), js(&request)).unwrap());
        out.as_array().unwrap().last().unwrap().clone()
    }

    fn view(&self) -> Value {
        rust(&self.c.describe("g".into()).unwrap())
    }

    fn member(&self, id: &str) -> Value {
        self.view()["members"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["memberId"] == id)
            .cloned()
            .unwrap_or(Value::Null)
    }

    /// A heartbeat from `id` as a well-behaved client: its epoch, owning what it is assigned.
    fn ack(&mut self, id: &str) -> Value {
        let m = self.member(id);
        let owned: Vec<Value> = m["assigned"]
            .as_array()
            .unwrap()
            .iter()
            .map(|tp| json!({ "topicId": self.orders, "partitions": tp["partitions"] }))
            .collect();
        self.beat(
            json!({ "memberId": id, "memberEpoch": m["memberEpoch"], "topicPartitions": owned }),
        )
    }

    fn settle(&mut self) {
        for _ in 0..6 {
            let ids: Vec<String> = self.view()["members"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["memberId"].as_str().unwrap().to_string())
                .collect();
            for id in ids {
                self.ack(&id);
            }
        }
    }
}

/// A member leaves while the others are still revoking: the group epoch moves on again and the
/// others reconcile to the newest target.
pub fn leave_while_others_revoke() {
    let mut g = Group::stable_three();
    let epoch = g.view()["groupEpoch"].as_i64().unwrap();
    // d joins: with range, c must give up orders-5 for d.
    g.beat(
        json!({ "memberId": "d", "memberEpoch": 0, "rebalanceTimeoutMs": 30000,
        "subscribedTopicNames": ["orders"], "topicPartitions": [] }),
    );
    let c_epoch = g.member("c")["memberEpoch"].clone();
    g.beat(json!({ "memberId": "c", "memberEpoch": c_epoch }));
    assert_eq!(
        g.member("c")["state"],
        "UNREVOKED_PARTITIONS",
        "{}",
        g.view()
    );
    assert_eq!(
        g.member("c")["pendingRevocation"][0]["partitions"],
        json!([5])
    );
    // b leaves (−1) while c still revokes.
    let r = g.beat(json!({ "memberId": "b", "memberEpoch": -1 }));
    assert_eq!(
        (r["errorCode"].clone(), r["memberEpoch"].clone()),
        (json!(0), json!(-1))
    );
    assert_eq!(
        g.view()["groupEpoch"].as_i64().unwrap(),
        epoch + 2,
        "d joined, b left"
    );
    // The leave bumped the group epoch; the next heartbeat recomputes the target.
    assert_eq!(g.view()["state"], "Assigning");
    g.settle();
    let v = g.view();
    assert_eq!(v["state"], "Stable", "{v}");
    let members = v["members"].as_array().unwrap();
    assert_eq!(members.len(), 3);
    assert!(
        members
            .iter()
            .all(|m| m["memberEpoch"] == v["assignmentEpoch"])
    );
    let total: usize = members
        .iter()
        .map(|m| {
            m["assigned"][0]["partitions"]
                .as_array()
                .map_or(0, Vec::len)
        })
        .sum();
    assert_eq!(total, 6, "every partition assigned once: {v}");
}

/// A member leaves while Stable: a new group epoch, its partitions go to the others.
pub fn leave_while_stable() {
    let mut g = Group::stable_three();
    let before = g.view();
    let r = g.beat(json!({ "memberId": "b", "memberEpoch": g.member("b")["memberEpoch"].clone() }));
    assert_eq!(r["errorCode"], 0);
    let r = g.beat(json!({ "memberId": "b", "memberEpoch": -1 }));
    assert_eq!(r["memberEpoch"], -1);
    let v = g.view();
    assert_eq!(
        v["groupEpoch"].as_i64().unwrap(),
        before["groupEpoch"].as_i64().unwrap() + 1
    );
    assert_eq!(v["members"].as_array().unwrap().len(), 2);
    g.settle();
    assert_eq!(g.view()["state"], "Stable");
    let a = g.member("a")["assigned"][0]["partitions"]
        .as_array()
        .unwrap()
        .len();
    let c = g.member("c")["assigned"][0]["partitions"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(a + c, 6);
}

/// The last member leaves: the group is Empty, and the group epoch still moves on.
pub fn last_member_leaves() {
    let mut g = Group::stable_three();
    for m in ["a", "b"] {
        g.beat(json!({ "memberId": m, "memberEpoch": -1 }));
    }
    g.settle();
    let before = g.view()["groupEpoch"].as_i64().unwrap();
    let r = g.beat(json!({ "memberId": "c", "memberEpoch": -1 }));
    assert_eq!(
        (r["errorCode"].clone(), r["memberEpoch"].clone()),
        (json!(0), json!(-1))
    );
    let v = g.view();
    assert_eq!(v["state"], "Empty");
    assert_eq!(v["type"], "consumer");
    assert_eq!(v["groupEpoch"].as_i64().unwrap(), before + 1);
    // Only the offsets cleanup is left: its next run removes an Empty group without offsets.
    let timers: Vec<&str> = v["timers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["kind"].as_str().unwrap())
        .collect();
    assert_eq!(timers, ["expiration"], "{v}");
    // serverAssign, the same assignors as a pure function.
    let out = rust(
        &group_coordinator_wasm::server_assign(
            "range".into(),
            js(&json!({ "topics": { "orders": 3 }, "members": [
                { "memberId": "y", "subscribedTopics": ["orders"] },
                { "memberId": "x", "subscribedTopics": ["orders"] }] })),
        )
        .unwrap(),
    );
    assert_eq!(
        out,
        json!({ "x": [{ "topic": "orders", "partitions": [0, 1] }], "y": [{ "topic": "orders", "partitions": [2] }] })
    );
    assert!(
        group_coordinator_wasm::server_assign(
            "sticky".into(),
            js(&json!({ "topics": {}, "members": [] }))
        )
        .is_err()
    );
    assert!(
        g.c.update_metadata(
            0.0.into(),
            js(&json!({ "topics": [{ "name": "orders", "partitions": 2 }] }))
        )
        .is_err(),
        "partitions only grow"
    );
}

/// One id, one group, through the JS API: the classic APIs meet the consumer group by its id.
/// DescribeGroups v6 says it is not a classic group (v5: Dead), a classic JoinGroup is taken by
/// the consumer group (a mixed group), a classic Heartbeat finds no classic member; once the
/// group is empty, DeleteGroups deletes it.
pub fn classic_requests_meet_a_consumer_group() {
    let mut g = Group::stable_three();
    let send = |g: &mut Group, request: Value| -> Value {
        let out = rust(&g.c.handle(0.0.into(), js(&request)).unwrap());
        out.as_array().unwrap().last().unwrap().clone()
    };
    let d = send(
        &mut g,
        json!({ "api": "DescribeGroups", "apiVersion": 6, "groups": ["g"] }),
    );
    assert_eq!(d["groups"][0]["errorCode"], 69, "{d}");
    assert_eq!(
        d["groups"][0]["errorMessage"],
        "Group g is not a classic group."
    );
    let d = send(
        &mut g,
        json!({ "api": "DescribeGroups", "apiVersion": 5, "groups": ["g"] }),
    );
    assert_eq!(d["groups"][0]["groupState"], "Dead", "{d}");
    // A classic JoinGroup is the consumer group's to answer (a mixed group): another protocol
    // type is refused; a consumer's first JoinGroup gets a member id (a Kafka Uuid).
    let j = send(
        &mut g,
        json!({ "api": "JoinGroup", "apiVersion": 9, "groupId": "g", "memberId": "",
            "sessionTimeoutMs": 10000, "rebalanceTimeoutMs": 10000, "protocolType": "connect",
            "protocols": [{ "name": "range", "metadata": "" }] }),
    );
    assert_eq!(j["errorCode"], 23, "INCONSISTENT_GROUP_PROTOCOL: {j}");
    let j = send(
        &mut g,
        json!({ "api": "JoinGroup", "apiVersion": 9, "groupId": "g", "memberId": "",
            "sessionTimeoutMs": 10000, "rebalanceTimeoutMs": 10000, "protocolType": "consumer",
            "protocols": [{ "name": "range", "metadata": "" }] }),
    );
    assert_eq!(j["errorCode"], 79, "MEMBER_ID_REQUIRED: {j}");
    assert_eq!(j["memberId"].as_str().map(str::len), Some(22), "{j}");
    let h = send(
        &mut g,
        json!({ "api": "Heartbeat", "apiVersion": 4, "groupId": "g", "generationId": 1,
            "memberId": "a" }),
    );
    assert_eq!(h["errorCode"], 25, "UNKNOWN_MEMBER_ID: {h}");
    let delete = json!({ "api": "DeleteGroups", "apiVersion": 2, "groupsNames": ["g"] });
    assert_eq!(send(&mut g, delete.clone())["results"][0]["errorCode"], 68);
    for m in ["a", "b", "c"] {
        g.beat(json!({ "memberId": m, "memberEpoch": -1 }));
    }
    assert_eq!(send(&mut g, delete)["results"][0]["errorCode"], 0);
    assert!(g.c.describe("g".into()).unwrap().is_null());
}

/// Group configs (KIP-848) through the JS API's `handle`: IncrementalAlterConfigs and
/// DescribeConfigs of a GROUP resource, a refused value with Kafka's message, and the next
/// heartbeat answered with the group's interval.
pub fn group_configs_through_handle() {
    let mut g = Group::stable_three();
    let send = |g: &mut Group, request: Value| -> Value {
        let out = rust(&g.c.handle(0.0.into(), js(&request)).unwrap());
        out.as_array().unwrap().last().unwrap().clone()
    };
    let alter = |name: &str, value: &str| {
        json!({ "api": "IncrementalAlterConfigs", "apiVersion": 1, "resources": [{
            "resourceType": 32, "resourceName": "g",
            "configs": [{ "name": name, "configOperation": 0, "value": value }] }] })
    };
    let a = send(&mut g, alter("consumer.heartbeat.interval.ms", "7000"));
    assert_eq!(a["responses"][0]["errorCode"], 0, "{a}");
    let a = send(&mut g, alter("consumer.heartbeat.interval.ms", "20000"));
    assert_eq!(a["responses"][0]["errorCode"], 40, "INVALID_CONFIG: {a}");
    assert_eq!(
        a["responses"][0]["errorMessage"],
        "consumer.heartbeat.interval.ms must be less than or equal to group.consumer.max.heartbeat.interval.ms"
    );
    let d = send(
        &mut g,
        json!({ "api": "DescribeConfigs", "apiVersion": 4,
            "resources": [{ "resourceType": 32, "resourceName": "g" }] }),
    );
    let configs = &d["results"][0]["configs"];
    assert_eq!(configs[1]["name"], "consumer.heartbeat.interval.ms", "{d}");
    assert_eq!(configs[1]["value"], "7000");
    assert_eq!(configs[1]["configSource"], 8);
    assert_eq!(configs[0]["value"], "45000");
    assert_eq!(configs[0]["configSource"], 5);
    let epoch = g.view()["members"][0]["memberEpoch"].clone();
    let r = g.beat(json!({ "memberId": "a", "memberEpoch": epoch }));
    assert_eq!(r["heartbeatIntervalMs"], 7000, "{r}");
}
