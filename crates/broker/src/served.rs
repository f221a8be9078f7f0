//! The apis and versions this front end serves, as ApiVersions advertises them.
//!
//! The group apis come from the model (the versions it answers, within those kafka-protocol
//! decodes; Kafka 4.0 removed OffsetCommit v0-v1 and OffsetFetch v0, and so does the decoder).
//! The rest is what a consumer needs around a group: ApiVersions, Metadata, FindCoordinator,
//! ListOffsets and Fetch, at versions whose records are the v2 batch format, Produce, which
//! only refuses, and CreateTopics.

use group_coordinator::Api;
use kafka_protocol::messages::ApiKey;

/// (api key, lowest version, highest version).
pub fn served() -> Vec<(ApiKey, i16, i16)> {
    let mut apis = vec![
        (ApiKey::ApiVersions, 0, 4),
        // Answered with an error per partition (see Cluster::produce): advertised because
        // clients infer the record format they can read from it.
        (ApiKey::Produce, 3, 9),
        (ApiKey::Metadata, 0, 12),
        (ApiKey::FindCoordinator, 0, 4),
        (ApiKey::ListOffsets, 1, 7),
        // v4 is the first with v2 record batches; from v13 on, topics are named by id.
        (ApiKey::Fetch, 4, 12),
        // Kafka 4.0's range: an admin creates a topic that a pattern subscription then matches.
        (ApiKey::CreateTopics, 2, 7),
    ];
    for api in Api::ALL {
        let Ok(key) = ApiKey::try_from(api.key()) else {
            continue;
        };
        let decoded = key.valid_versions();
        let (min, max) = (decoded.min.max(0), decoded.max.min(api.max_version()));
        if min <= max {
            apis.push((key, min, max));
        }
    }
    apis.sort_by_key(|(key, _, _)| *key as i16);
    apis
}

/// The served range of an api, if it is served.
pub fn range(key: ApiKey) -> Option<(i16, i16)> {
    served()
        .into_iter()
        .find(|(k, _, _)| *k == key)
        .map(|(_, min, max)| (min, max))
}
