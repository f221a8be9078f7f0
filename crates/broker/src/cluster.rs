//! The one-broker cluster around the coordinator: its topics and their records, and the answers
//! to the requests a consumer sends besides the group's (Metadata, FindCoordinator, ListOffsets,
//! Fetch, ApiVersions). None of this is the model: it is the least a real client needs to reach
//! the group coordinator and run its poll loop.

use std::sync::{PoisonError, RwLock};

use bytes::BytesMut;
use group_coordinator::consumer_group::Uuid;
use kafka_protocol::messages as wire;
use kafka_protocol::messages::{BrokerId, TopicName};
use kafka_protocol::records::{
    Compression, Record, RecordBatchEncoder, RecordEncodeOptions, TimestampType,
};

use crate::convert::{str, uuid_out};
use crate::served::served;

const NONE: i16 = 0;
const OFFSET_OUT_OF_RANGE: i16 = 1;
const UNKNOWN_TOPIC_OR_PARTITION: i16 = 3;
const UNSUPPORTED_VERSION: i16 = 35;
const UNKNOWN_TOPIC_ID: i16 = 100;
const INVALID_REQUEST: i16 = 42;
const INVALID_TOPIC_EXCEPTION: i16 = 17;
const TOPIC_ALREADY_EXISTS: i16 = 36;
const INVALID_PARTITIONS: i16 = 37;
const INVALID_REPLICATION_FACTOR: i16 = 38;
const INVALID_REPLICA_ASSIGNMENT: i16 = 39;
/// The most partitions a topic of this broker has (its `--topic` bound; not Kafka's).
pub const MAX_TOPIC_PARTITIONS: i32 = 10_000;
/// A fetch answers at most this many records per partition (clients ask again).
const RECORDS_PER_FETCH: i64 = 50;

/// A topic of the cluster: every partition holds the same generated records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Topic {
    pub name: String,
    pub partitions: i32,
}

impl Topic {
    /// The id the model's metadata image gives the topic (consumer groups name topics by id).
    pub fn id(&self) -> Uuid {
        Uuid::for_topic_name(&self.name)
    }
}

/// The broker as clients see it.
#[derive(Debug)]
pub struct Cluster {
    pub node_id: i32,
    pub host: String,
    pub port: i32,
    /// The command line's topics, then those CreateTopics made, in that order.
    pub topics: RwLock<Vec<Topic>>,
    /// Records in each partition (offsets 0 to this, exclusive).
    pub records_per_partition: i64,
    /// The records' timestamps start here (wall-clock ms when the broker started).
    pub first_timestamp_ms: i64,
}

impl Cluster {
    /// The topics as they are now (a connection's request reads one snapshot).
    pub fn topics(&self) -> Vec<Topic> {
        // A connection thread that panicked holding the lock left the list whole: it is only
        // ever pushed to.
        self.topics
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn topic(&self, name: &str) -> Option<Topic> {
        self.topics
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .find(|t| t.name == name)
            .cloned()
    }

    /// Whether the cluster has topic `name` and its partition `partition`.
    pub fn has_partition(&self, name: &str, partition: i32) -> bool {
        self.topic(name)
            .is_some_and(|t| (0..t.partitions).contains(&partition))
    }

    pub fn api_versions(&self, error_code: i16) -> wire::ApiVersionsResponse {
        let mut r = wire::ApiVersionsResponse::default();
        r.error_code = error_code;
        r.api_keys = served()
            .into_iter()
            .map(|(key, min, max)| {
                let mut v = wire::api_versions_response::ApiVersion::default();
                v.api_key = key as i16;
                v.min_version = min;
                v.max_version = max;
                v
            })
            .collect();
        r
    }

    /// Kafka answers an ApiVersions request of a version it does not know with
    /// UNSUPPORTED_VERSION, in v0, listing what it serves, so that the client can retry lower.
    pub fn unsupported_api_versions(&self) -> wire::ApiVersionsResponse {
        self.api_versions(UNSUPPORTED_VERSION)
    }

    pub fn metadata(&self, r: &wire::MetadataRequest, version: i16) -> wire::MetadataResponse {
        let mut broker = wire::metadata_response::MetadataResponseBroker::default();
        broker.node_id = BrokerId(self.node_id);
        broker.host = str(&self.host);
        broker.port = self.port;
        let mut m = wire::MetadataResponse::default();
        m.brokers = vec![broker];
        if version >= 2 {
            m.cluster_id = Some(str("kafka-group-playground"));
        }
        if version >= 1 {
            m.controller_id = BrokerId(self.node_id);
        }
        // v0: an empty list asks for every topic; v1+: null does.
        let all = match &r.topics {
            None => true,
            Some(topics) => version == 0 && topics.is_empty(),
        };
        m.topics = if all {
            self.topics()
                .iter()
                .map(|t| self.topic_metadata(&t.name, version))
                .collect()
        } else {
            r.topics
                .iter()
                .flatten()
                .map(|t| match &t.name {
                    Some(name) => self.topic_metadata(name.0.as_str(), version),
                    // v10+: a topic asked for by id (the consumer group protocol assigns by
                    // id; its members resolve the names this way).
                    None => self.topic_by_id(t.topic_id, version),
                })
                .collect()
        };
        m
    }

    fn topic_by_id(
        &self,
        id: uuid::Uuid,
        version: i16,
    ) -> wire::metadata_response::MetadataResponseTopic {
        match self.topics().iter().find(|t| uuid_out(t.id()) == id) {
            Some(topic) => self.topic_metadata(&topic.name, version),
            None => {
                let mut t = wire::metadata_response::MetadataResponseTopic::default();
                t.topic_id = id;
                t.error_code = UNKNOWN_TOPIC_ID;
                t
            }
        }
    }

    fn topic_metadata(
        &self,
        name: &str,
        version: i16,
    ) -> wire::metadata_response::MetadataResponseTopic {
        let mut t = wire::metadata_response::MetadataResponseTopic::default();
        t.name = Some(TopicName(str(name)));
        let Some(topic) = self.topic(name) else {
            // No auto-creation: the topics are the command line's and CreateTopics'.
            t.error_code = UNKNOWN_TOPIC_OR_PARTITION;
            return t;
        };
        if version >= 10 {
            t.topic_id = uuid_out(topic.id());
        }
        t.partitions = (0..topic.partitions)
            .map(|p| {
                let mut part = wire::metadata_response::MetadataResponsePartition::default();
                part.partition_index = p;
                part.leader_id = BrokerId(self.node_id);
                if version >= 7 {
                    part.leader_epoch = 0;
                }
                part.replica_nodes = vec![BrokerId(self.node_id)];
                part.isr_nodes = vec![BrokerId(self.node_id)];
                part
            })
            .collect();
        t
    }

    /// Produce is advertised because clients infer the v2 record format from it (librdkafka's
    /// "MsgVer2" needs Produce v3 beside Fetch v4), but nothing is appended: the partitions hold
    /// generated records. Each partition is answered INVALID_REQUEST, with the reason from v8.
    pub fn produce(&self, r: &wire::ProduceRequest, version: i16) -> wire::ProduceResponse {
        use wire::produce_response as pr;
        let mut out = wire::ProduceResponse::default();
        out.responses = r
            .topic_data
            .iter()
            .map(|t| {
                let mut rt = pr::TopicProduceResponse::default();
                rt.name = t.name.clone();
                rt.partition_responses = t
                    .partition_data
                    .iter()
                    .map(|p| {
                        let mut rp = pr::PartitionProduceResponse::default();
                        rp.index = p.index;
                        rp.error_code = INVALID_REQUEST;
                        rp.base_offset = -1;
                        if version >= 8 {
                            rp.error_message = Some(str(
                                "group-broker keeps no log: its records are generated (--records)",
                            ));
                        }
                        rp
                    })
                    .collect();
                rt
            })
            .collect();
        out
    }

    /// CreateTopics, as Kafka's controller answers it (`ControllerApis.createTopics`,
    /// `ReplicationControlManager.createTopics`): each topic checked on its own, with Kafka's
    /// errors and messages; `num.partitions` and `default.replication.factor` are 1, and one
    /// broker can hold one replica. Each topic made is pushed to the list under its lock (so
    /// that two requests cannot both make one name), then handed to `created`, which tells the
    /// model; `validate_only` answers as if made and makes nothing.
    pub fn create_topics(
        &self,
        r: &wire::CreateTopicsRequest,
        version: i16,
        mut created: impl FnMut(&Topic),
    ) -> wire::CreateTopicsResponse {
        use wire::create_topics_response::CreatableTopicResult;
        let mut out = wire::CreateTopicsResponse::default();
        for t in &r.topics {
            let mut result = CreatableTopicResult::default();
            result.name = t.name.clone();
            // The schema's defaults, for a topic not made.
            result.num_partitions = -1;
            result.replication_factor = -1;
            let duplicate = r.topics.iter().filter(|o| o.name == t.name).count() > 1;
            let made = if duplicate {
                Err((INVALID_REQUEST, String::from("Duplicate topic name.")))
            } else {
                self.create_topic(t, r.validate_only)
            };
            match made {
                Ok(topic) => {
                    if version >= 5 {
                        result.num_partitions = topic.partitions;
                        result.replication_factor = 1;
                        result.configs = Some(Vec::new());
                    }
                    if version >= 7 {
                        result.topic_id = uuid_out(topic.id());
                    }
                    if !r.validate_only {
                        created(&topic);
                    }
                }
                Err((code, message)) => {
                    result.error_code = code;
                    result.error_message = Some(str(&message));
                }
            }
            out.topics.push(result);
        }
        out
    }

    fn create_topic(
        &self,
        t: &wire::create_topics_request::CreatableTopic,
        validate_only: bool,
    ) -> Result<Topic, (i16, String)> {
        let name = t.name.0.as_str();
        group_coordinator::topic_name::validate(name).map_err(|m| (INVALID_TOPIC_EXCEPTION, m))?;
        let partitions = if t.assignments.is_empty() {
            if t.num_partitions == 0 || t.num_partitions < -1 {
                return Err((
                    INVALID_PARTITIONS,
                    "Number of partitions was set to an invalid non-positive value.".into(),
                ));
            }
            if t.replication_factor == 0 || t.replication_factor < -1 {
                return Err((
                    INVALID_REPLICATION_FACTOR,
                    "Replication factor must be larger than 0, or -1 to use the default value."
                        .into(),
                ));
            }
            if t.replication_factor > 1 {
                return Err((
                    INVALID_REPLICATION_FACTOR,
                    format!(
                        "Unable to replicate the partition {rf} time(s): The target replication factor of {rf} cannot be reached because only 1 broker(s) are registered.",
                        rf = t.replication_factor
                    ),
                ));
            }
            // -1: the broker's num.partitions, 1 by default.
            t.num_partitions.max(1)
        } else {
            self.manual_assignment(t)?
        };
        if partitions > MAX_TOPIC_PARTITIONS {
            return Err((
                INVALID_PARTITIONS,
                format!(
                    "group-broker holds at most {MAX_TOPIC_PARTITIONS} partitions a topic, not {partitions}"
                ),
            ));
        }
        let mut topics = self.topics.write().unwrap_or_else(PoisonError::into_inner);
        if topics.iter().any(|o| o.name == name) {
            return Err((
                TOPIC_ALREADY_EXISTS,
                format!("Topic '{name}' already exists."),
            ));
        }
        if let Some(other) = topics
            .iter()
            .find(|o| group_coordinator::topic_name::collides(&o.name, name))
        {
            return Err((
                INVALID_TOPIC_EXCEPTION,
                format!(
                    "Topic '{name}' collides with existing topic: {}",
                    other.name
                ),
            ));
        }
        let topic = Topic {
            name: name.to_owned(),
            partitions,
        };
        if !validate_only {
            topics.push(topic.clone());
        }
        Ok(topic)
    }

    /// A topic created with its partitions' replicas listed: numPartitions and
    /// replicationFactor must then be -1, the partitions 0, 1, ... in order, and every
    /// replica this broker.
    fn manual_assignment(
        &self,
        t: &wire::create_topics_request::CreatableTopic,
    ) -> Result<i32, (i16, String)> {
        if t.num_partitions != -1 {
            return Err((
                INVALID_REQUEST,
                "A manual partition assignment was specified, but numPartitions was not set to -1."
                    .into(),
            ));
        }
        if t.replication_factor != -1 {
            return Err((
                INVALID_REQUEST,
                "A manual partition assignment was specified, but replicationFactor was not set to -1."
                    .into(),
            ));
        }
        for (i, a) in t.assignments.iter().enumerate() {
            if usize::try_from(a.partition_index) != Ok(i) {
                return Err((
                    INVALID_REPLICA_ASSIGNMENT,
                    "partitions should be a consecutive 0-based integer sequence".into(),
                ));
            }
            if a.broker_ids.is_empty() {
                return Err((
                    INVALID_REPLICA_ASSIGNMENT,
                    "The manual partition assignment includes an empty replica list.".into(),
                ));
            }
            if let Some(b) = a.broker_ids.iter().find(|b| b.0 != self.node_id) {
                return Err((
                    INVALID_REPLICA_ASSIGNMENT,
                    format!(
                        "The manual partition assignment includes broker {}, but no such broker is registered.",
                        b.0
                    ),
                ));
            }
            if a.broker_ids.len() > 1 {
                return Err((
                    INVALID_REPLICA_ASSIGNMENT,
                    "The manual partition assignment includes the partition with duplicate replicas."
                        .into(),
                ));
            }
        }
        i32::try_from(t.assignments.len()).map_err(|_| {
            (
                INVALID_PARTITIONS,
                "too many partitions in the manual assignment".into(),
            )
        })
    }

    /// This broker coordinates every group (and would every transaction).
    pub fn find_coordinator(
        &self,
        r: &wire::FindCoordinatorRequest,
        version: i16,
    ) -> wire::FindCoordinatorResponse {
        let mut f = wire::FindCoordinatorResponse::default();
        if version >= 4 {
            f.coordinators = r
                .coordinator_keys
                .iter()
                .map(|key| {
                    let mut c = wire::find_coordinator_response::Coordinator::default();
                    c.key = key.clone();
                    c.node_id = BrokerId(self.node_id);
                    c.host = str(&self.host);
                    c.port = self.port;
                    c
                })
                .collect();
        } else {
            f.node_id = BrokerId(self.node_id);
            f.host = str(&self.host);
            f.port = self.port;
        }
        f
    }

    pub fn list_offsets(
        &self,
        r: &wire::ListOffsetsRequest,
        version: i16,
    ) -> wire::ListOffsetsResponse {
        use wire::list_offsets_response as lo;
        let end = self.records_per_partition;
        let mut out = wire::ListOffsetsResponse::default();
        out.topics = r
            .topics
            .iter()
            .map(|t| {
                let mut rt = lo::ListOffsetsTopicResponse::default();
                rt.name = t.name.clone();
                rt.partitions = t
                    .partitions
                    .iter()
                    .map(|p| {
                        let mut rp = lo::ListOffsetsPartitionResponse::default();
                        rp.partition_index = p.partition_index;
                        if !self.has_partition(t.name.0.as_str(), p.partition_index) {
                            rp.error_code = UNKNOWN_TOPIC_OR_PARTITION;
                            return rp;
                        }
                        if version >= 4 {
                            rp.leader_epoch = 0;
                        }
                        let (offset, timestamp) = match p.timestamp {
                            -2 => (0, -1),                            // EARLIEST_TIMESTAMP
                            -1 => (end, -1),                          // LATEST_TIMESTAMP
                            -3 => (end - 1, self.timestamp(end - 1)), // MAX_TIMESTAMP
                            t => {
                                // The first record at or after the time, or none.
                                let first = (t - self.first_timestamp_ms).clamp(0, end);
                                if first < end {
                                    (first, self.timestamp(first))
                                } else {
                                    (-1, -1)
                                }
                            }
                        };
                        rp.offset = offset;
                        rp.timestamp = timestamp;
                        rp
                    })
                    .collect();
                rt
            })
            .collect();
        out
    }

    fn timestamp(&self, offset: i64) -> i64 {
        self.first_timestamp_ms + offset
    }

    /// The records from `offset` on, as one v2 batch (empty at the end of the partition).
    fn records(&self, topic: &str, partition: i32, offset: i64) -> Option<bytes::Bytes> {
        let last = (offset + RECORDS_PER_FETCH).min(self.records_per_partition);
        if offset >= last {
            return None;
        }
        let records: Vec<Record> = (offset..last)
            .map(|o| Record {
                transactional: false,
                control: false,
                delete_horizon: false,
                partition_leader_epoch: 0,
                producer_id: -1,
                producer_epoch: -1,
                timestamp_type: TimestampType::Creation,
                offset: o,
                sequence: -1,
                timestamp: self.timestamp(o),
                key: Some(bytes::Bytes::from(format!("{topic}-{partition}-{o}"))),
                value: Some(bytes::Bytes::from(format!(
                    "record {o} of {topic}-{partition}"
                ))),
                headers: Default::default(),
            })
            .collect();
        let mut buf = BytesMut::new();
        let options = RecordEncodeOptions {
            version: 2,
            compression: Compression::None,
        };
        RecordBatchEncoder::encode(&mut buf, &records, &options).ok()?;
        Some(buf.freeze())
    }

    /// A fetch, and whether it found any record (one that found none is held for the request's
    /// max wait, as Kafka's delayed fetch is when nothing new arrives).
    pub fn fetch(&self, r: &wire::FetchRequest, version: i16) -> (wire::FetchResponse, bool) {
        use wire::fetch_response as fr;
        let end = self.records_per_partition;
        let mut any = false;
        let mut out = wire::FetchResponse::default();
        if version >= 7 && r.session_id != 0 {
            // No fetch sessions are kept; a client that names one starts over (KIP-227).
            out.error_code = 70; // FETCH_SESSION_ID_NOT_FOUND
            return (out, true);
        }
        out.responses = r
            .topics
            .iter()
            .map(|t| {
                let mut rt = fr::FetchableTopicResponse::default();
                rt.topic = t.topic.clone();
                rt.partitions = t
                    .partitions
                    .iter()
                    .map(|p| {
                        let mut rp = fr::PartitionData::default();
                        rp.partition_index = p.partition;
                        if !self.has_partition(t.topic.0.as_str(), p.partition) {
                            rp.error_code = UNKNOWN_TOPIC_OR_PARTITION;
                            return rp;
                        }
                        rp.high_watermark = end;
                        rp.last_stable_offset = end;
                        rp.log_start_offset = 0;
                        if !(0..=end).contains(&p.fetch_offset) {
                            rp.error_code = OFFSET_OUT_OF_RANGE;
                            return rp;
                        }
                        rp.error_code = NONE;
                        let records = self.records(t.topic.0.as_str(), p.partition, p.fetch_offset);
                        any |= records.is_some();
                        // No records is an empty set, not a null one (clients read its length).
                        rp.records = Some(records.unwrap_or_default());
                        if version >= 4 {
                            rp.aborted_transactions = Some(Vec::new());
                        }
                        rp
                    })
                    .collect();
                rt
            })
            .collect();
        (out, any)
    }
}
