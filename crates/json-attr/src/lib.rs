//! `#[json(out)]` and `#[json(in_out)]`: what the coordinator's protocol messages, events and
//! views need to travel as JSON, written once instead of on every type. Both apply only when the
//! using crate's `serde` feature is on (the core builds without it).
//!
//! - `#[json(out)]`: serialised (responses, events, views), fields in camelCase as Kafka's JSON
//!   converter names them.
//! - `#[json(in_out)]`: serialised and deserialised (requests, their parts, configs), camelCase,
//!   absent fields at their default, and unknown fields refused (a typo is an error, never
//!   silently ignored).
//!
//! With the using crate's `schema` feature, both also derive `schemars::JsonSchema`, from which
//! the TypeScript declarations of the wasm package are generated.
//!
//! No dependencies: the attribute only puts `cfg_attr`s in front of the item.

use proc_macro::TokenStream;

#[proc_macro_attribute]
pub fn json(attr: TokenStream, item: TokenStream) -> TokenStream {
    let derive = match attr.to_string().trim() {
        "out" => {
            r#"#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "camelCase"))] #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]"#
        }
        "in_out" => {
            r#"#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "camelCase", default, deny_unknown_fields))] #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]"#
        }
        _ => r#"compile_error!("use #[json(out)] or #[json(in_out)]");"#,
    };
    match derive.parse::<TokenStream>() {
        Ok(mut out) => {
            out.extend(item);
            out
        }
        Err(_) => item,
    }
}
