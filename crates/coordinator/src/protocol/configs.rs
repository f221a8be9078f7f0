//! DescribeConfigs (API key 32, v0–v4) and IncrementalAlterConfigs (44, v0–v1), for config
//! resources of type GROUP (32): the group configs of KIP-848 (`crate::group_config`). In Kafka
//! the broker's config handler answers them, not the group coordinator; the model answers the
//! GROUP resources and refuses the others by name. Kafka's JSON field names.

use alloc::string::String;
use alloc::vec::Vec;
use group_coordinator_json::json;

/// `ConfigResource.Type.GROUP`.
pub const GROUP_RESOURCE: i8 = 32;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[json(in_out)]
pub struct DescribeConfigsResource {
    pub resource_type: i8,
    pub resource_name: String,
    /// The settings to describe; None: all of them.
    pub configuration_keys: Option<Vec<String>>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[json(in_out)]
pub struct DescribeConfigsRequest {
    #[cfg_attr(feature = "serde", serde(default = "super::missing_version"))]
    // Declared required: a request without its version is refused.
    #[cfg_attr(feature = "schema", schemars(extend("tsRequired" = true)))]
    pub api_version: i16,
    pub correlation_id: i32,
    pub client_id: String,
    pub resources: Vec<DescribeConfigsResource>,
    /// v1+.
    pub include_synonyms: bool,
    /// v3+.
    pub include_documentation: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[json(out)]
pub struct DescribeConfigsResourceResult {
    pub name: String,
    pub value: Option<String>,
    pub read_only: bool,
    /// `ConfigSource` id: 8 GROUP_CONFIG, 5 DEFAULT_CONFIG.
    pub config_source: i8,
    pub is_sensitive: bool,
    /// `ConfigType` id (v3+): 3 INT.
    pub config_type: i8,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[json(out)]
pub struct DescribeConfigsResult {
    pub error_code: crate::ErrorCode,
    pub error_message: Option<String>,
    pub resource_type: i8,
    pub resource_name: String,
    pub configs: Vec<DescribeConfigsResourceResult>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[json(out)]
pub struct DescribeConfigsResponse {
    pub api_version: i16,
    pub correlation_id: i32,
    pub throttle_time_ms: i32,
    pub results: Vec<DescribeConfigsResult>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[json(in_out)]
pub struct AlterableConfigEntry {
    pub name: String,
    /// 0 SET, 1 DELETE, 2 APPEND, 3 SUBTRACT.
    pub config_operation: i8,
    pub value: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[json(in_out)]
pub struct AlterConfigsResource {
    pub resource_type: i8,
    pub resource_name: String,
    pub configs: Vec<AlterableConfigEntry>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[json(in_out)]
pub struct IncrementalAlterConfigsRequest {
    #[cfg_attr(feature = "serde", serde(default = "super::missing_version"))]
    // Declared required: a request without its version is refused.
    #[cfg_attr(feature = "schema", schemars(extend("tsRequired" = true)))]
    pub api_version: i16,
    pub correlation_id: i32,
    pub client_id: String,
    pub resources: Vec<AlterConfigsResource>,
    pub validate_only: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[json(out)]
pub struct AlterConfigsResourceResponse {
    pub error_code: crate::ErrorCode,
    pub error_message: Option<String>,
    pub resource_type: i8,
    pub resource_name: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[json(out)]
pub struct IncrementalAlterConfigsResponse {
    pub api_version: i16,
    pub correlation_id: i32,
    pub throttle_time_ms: i32,
    pub responses: Vec<AlterConfigsResourceResponse>,
}
