//! The text `kafka-consumer-groups.sh --describe` prints, read as Kafka's `ConsumerGroupCommand`
//! writes it: a header line naming the columns, then one row per member (`--members`), per
//! partition (`--offsets`, the default) or per group (`--state`), each block ended by a blank
//! line. Several blocks may be pasted together (members and offsets of the same group, say).
//!
//! The tool pads every column to its widest value, so a row's fields start where the header's
//! names start: that is how a row is read first, which keeps an empty field (a member without a
//! `GROUP-INSTANCE-ID` in a group where others have one) and a field with spaces (Kafka 3's
//! `ASSIGNMENT`) in their columns. A row whose spacing was lost in copying is read by its words
//! instead, when their count says which is which.
//!
//! The layouts read, by the columns their header names:
//! - `--members --verbose`, Kafka 4: `GROUP CONSUMER-ID [GROUP-INSTANCE-ID] HOST CLIENT-ID
//!   #PARTITIONS CURRENT-EPOCH CURRENT-ASSIGNMENT TARGET-EPOCH TARGET-ASSIGNMENT [UPGRADED]`,
//!   an assignment written `orders:0,1,2;payments:3`;
//! - `--members --verbose`, Kafka 3: `... #PARTITIONS ASSIGNMENT`, written `orders(0,1,2),
//!   payments(3)` (Kafka 3.7 to 3.9 leave the topic out: `(0,1,2), (3)`);
//! - `--members` without `--verbose`, which counts partitions without naming them;
//! - `--offsets`: `GROUP TOPIC PARTITION [LEADER-EPOCH] CURRENT-OFFSET LOG-END-OFFSET LAG
//!   CONSUMER-ID HOST CLIENT-ID`;
//! - `--state`: `GROUP COORDINATOR (ID) ASSIGNMENT-STRATEGY STATE [GROUP-EPOCH
//!   TARGET-ASSIGNMENT-EPOCH] #MEMBERS`;
//! - and Kafka 1's layouts, the same without the `GROUP` column.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::{Described, ImportError, Member, Protocol, fault, state_name};

/// Every column a describe header may name.
const COLUMNS: &[&str] = &[
    "GROUP",
    "CONSUMER-ID",
    "GROUP-INSTANCE-ID",
    "HOST",
    "CLIENT-ID",
    "#PARTITIONS",
    "ASSIGNMENT",
    "CURRENT-EPOCH",
    "CURRENT-ASSIGNMENT",
    "TARGET-EPOCH",
    "TARGET-ASSIGNMENT",
    "UPGRADED",
    "TOPIC",
    "PARTITION",
    "LEADER-EPOCH",
    "CURRENT-OFFSET",
    "LOG-END-OFFSET",
    "LAG",
    "COORDINATOR (ID)",
    "ASSIGNMENT-STRATEGY",
    "STATE",
    "GROUP-EPOCH",
    "TARGET-ASSIGNMENT-EPOCH",
    "#MEMBERS",
];

/// Columns that hold a whole number, or `-` for none.
const NUMBERS: &[&str] = &[
    "#PARTITIONS",
    "CURRENT-EPOCH",
    "TARGET-EPOCH",
    "PARTITION",
    "LEADER-EPOCH",
    "CURRENT-OFFSET",
    "LOG-END-OFFSET",
    "LAG",
    "GROUP-EPOCH",
    "TARGET-ASSIGNMENT-EPOCH",
    "#MEMBERS",
];

/// The tool's "none" (`MISSING_COLUMN_VALUE`).
const MISSING: &str = "-";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Members,
    Offsets,
    State,
}

struct Header {
    kind: Kind,
    columns: Vec<&'static str>,
    /// Where each column's name starts, in characters.
    starts: Vec<usize>,
    line: usize,
}

impl Header {
    fn has(&self, column: &str) -> bool {
        self.columns.contains(&column)
    }
}

/// A line's words with the character each starts at.
fn words(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    let mut byte_start = 0;
    for (chars, (byte, c)) in line.char_indices().enumerate() {
        match (c.is_whitespace(), start) {
            (false, None) => {
                start = Some(chars);
                byte_start = byte;
            }
            (true, Some(at)) => {
                out.push((at, &line[byte_start..byte]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(at) = start {
        out.push((at, &line[byte_start..]));
    }
    out
}

/// A header line, or `None` when the line is not one. A line that starts like a header but
/// names a column no layout has is refused: it is some other tool's table.
fn header(line: &str, number: usize) -> Result<Option<Header>, ImportError> {
    let words = words(line);
    if !matches!(
        words.first().map(|w| w.1),
        Some("GROUP" | "CONSUMER-ID" | "TOPIC")
    ) {
        return Ok(None);
    }
    let mut columns = Vec::new();
    let mut starts = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let (at, word) = words[i];
        let name = if word == "COORDINATOR" && words.get(i + 1).map(|w| w.1) == Some("(ID)") {
            i += 1;
            "COORDINATOR (ID)"
        } else {
            word
        };
        match COLUMNS.iter().find(|c| **c == name) {
            Some(known) => columns.push(*known),
            None => {
                return Err(fault(
                    number,
                    format!(
                        "the header names a column \"{name}\" that kafka-consumer-groups.sh --describe does not print (a share or streams group's table?)"
                    ),
                ));
            }
        }
        starts.push(at);
        i += 1;
    }
    let kind = if columns.contains(&"#PARTITIONS") && columns.contains(&"CONSUMER-ID") {
        Kind::Members
    } else if columns.contains(&"CURRENT-OFFSET") && columns.contains(&"PARTITION") {
        Kind::Offsets
    } else if columns.contains(&"#MEMBERS") && columns.contains(&"STATE") {
        Kind::State
    } else {
        return Err(fault(
            number,
            "a header that is none of --members, --offsets and --state's: expected #PARTITIONS, CURRENT-OFFSET or #MEMBERS among its columns",
        ));
    };
    Ok(Some(Header {
        kind,
        columns,
        starts,
        line: number,
    }))
}

fn is_number_or_missing(value: &str) -> bool {
    value == MISSING || value.parse::<i64>().is_ok()
}

/// A row's fields by the header's positions, or `None` when the row is not aligned with it.
fn by_position(line: &str, h: &Header) -> Option<Vec<String>> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = Vec::with_capacity(h.columns.len());
    for (i, column) in h.columns.iter().enumerate() {
        let start = h.starts[i];
        let end = h
            .starts
            .get(i + 1)
            .copied()
            .unwrap_or(chars.len())
            .max(start);
        if i > 0 && start <= chars.len() && !chars[start - 1].is_whitespace() {
            return None;
        }
        let value: String = chars[start.min(chars.len())..end.min(chars.len())]
            .iter()
            .collect::<String>()
            .trim()
            .to_string();
        let spaces_allowed = matches!(*column, "ASSIGNMENT" | "COORDINATOR (ID)");
        if (!spaces_allowed && value.contains(char::is_whitespace))
            || (value.is_empty() && *column != "GROUP-INSTANCE-ID")
            || (NUMBERS.contains(column) && !is_number_or_missing(&value))
        {
            return None;
        }
        out.push(value);
    }
    Some(out)
}

/// A row's fields by its words: each column one word, but the coordinator's two (`host:port
/// (id)`) and Kafka 3's assignment, the last column, the rest of the line.
fn by_words(line: &str, h: &Header, number: usize) -> Result<Vec<String>, ImportError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut out = Vec::with_capacity(h.columns.len());
    let mut at = 0;
    for (i, column) in h.columns.iter().enumerate() {
        let last = i + 1 == h.columns.len();
        let value = match *column {
            "ASSIGNMENT" if last && at < words.len() => {
                let rest = words[at..].join(" ");
                at = words.len();
                rest
            }
            "COORDINATOR (ID)" if words.get(at + 1).is_some_and(|w| w.starts_with('(')) => {
                at += 2;
                format!("{} {}", words[at - 2], words[at - 1])
            }
            _ => {
                let Some(word) = words.get(at) else { break };
                at += 1;
                (*word).to_string()
            }
        };
        out.push(value);
    }
    if out.len() != h.columns.len() || at != words.len() {
        let hint = if h.has("GROUP-INSTANCE-ID") && words.len() + 1 == h.columns.len() {
            " (a member without a group.instance.id among static ones leaves its column empty, which only the tool's own spacing shows: paste the output as printed)"
        } else {
            ""
        };
        return Err(fault(
            number,
            format!(
                "expected the {} columns the header on line {} names ({}), found {} words{hint}",
                h.columns.len(),
                h.line,
                h.columns.join(" "),
                words.len()
            ),
        ));
    }
    for (column, value) in h.columns.iter().zip(&out) {
        if NUMBERS.contains(column) && !is_number_or_missing(value) {
            return Err(fault(
                number,
                format!("{column} should be a whole number or -, found \"{value}\""),
            ));
        }
    }
    Ok(out)
}

fn topic(name: &str, number: usize) -> Result<String, ImportError> {
    group_coordinator::topic_name::validate(name)
        .map_err(|e| fault(number, format!("\"{name}\" is not a topic's name: {e}")))?;
    Ok(name.to_string())
}

fn partition(text: &str, number: usize) -> Result<i32, ImportError> {
    text.parse::<i32>()
        .ok()
        .filter(|p| *p >= 0)
        .ok_or_else(|| fault(number, format!("\"{text}\" is not a partition number")))
}

/// An assignment as the tool writes it: Kafka 4's `orders:0,1;payments:3`, Kafka 3's
/// `orders(0,1), payments(3)`, or `-`. `None` when it numbers partitions without their topics
/// (Kafka 3.7 to 3.9 print `(0,1), (3)`).
fn assignment(text: &str, number: usize) -> Result<Option<Vec<(String, i32)>>, ImportError> {
    let mut out = Vec::new();
    if text == MISSING {
        return Ok(Some(out));
    }
    let expected = "an assignment written orders:0,1;payments:3 (Kafka 4), orders(0,1), payments(3) (Kafka 3) or -";
    let list = |topic: &str, list: &str, out: &mut Vec<(String, i32)>| -> Result<(), ImportError> {
        for p in list.split(',') {
            out.push((topic.to_string(), partition(p.trim(), number)?));
        }
        Ok(())
    };
    if text.contains('(') {
        let mut unnamed = false;
        for part in text.split(')') {
            let part = part.trim_start_matches([',', ' ']);
            if part.is_empty() {
                continue;
            }
            let Some((name, partitions)) = part.split_once('(') else {
                return Err(fault(
                    number,
                    format!("expected {expected}, found \"{text}\""),
                ));
            };
            if name.is_empty() {
                unnamed = true;
                list("", partitions, &mut out)?;
            } else {
                list(&topic(name, number)?, partitions, &mut out)?;
            }
        }
        return Ok(if unnamed { None } else { Some(out) });
    }
    for part in text.split(';') {
        let Some((name, partitions)) = part.split_once(':') else {
            return Err(fault(
                number,
                format!("expected {expected}, found \"{text}\""),
            ));
        };
        list(&topic(name, number)?, partitions, &mut out)?;
    }
    Ok(Some(out))
}

/// The tool's own messages between its tables, and what they say.
fn message(d: &mut Described, line: &str, number: usize) -> Result<bool, ImportError> {
    let quoted = |line: &str| line.split('\'').nth(1).map(str::to_string);
    if line.starts_with("Error:") {
        return Err(fault(
            number,
            format!("the tool reports an error, not a group: \"{line}\""),
        ));
    }
    if line.contains("has no active members") {
        if d.group_id.is_none() || d.group_id == quoted(line) {
            d.state = Some("Empty".into());
        }
        return Ok(true);
    }
    if line.starts_with("Warning:") {
        if line.contains("is rebalancing") {
            d.note(
                "The tool warned that the group was rebalancing when it was described: the assignments may be part-way.".into(),
                "工具提示描述时消费组正在再均衡：分配可能处于中途。".into(),
            );
        }
        return Ok(true);
    }
    Ok(false)
}

/// What a block of rows says, gathered before the members are put together.
#[derive(Default)]
struct Read {
    /// Rows of `--members`, in order.
    members: Vec<Member>,
    /// Whether a `--members` block named no topics (no `--verbose`, or Kafka 3.7 to 3.9).
    unnamed: bool,
    /// Members by consumer id from `--offsets`, in the order first seen.
    offsets: Vec<Member>,
    saw_offsets: bool,
    member_count: Option<usize>,
    other_groups: BTreeSet<String>,
}

pub(super) fn read(text: &str) -> Result<Described, ImportError> {
    let mut d = Described::default();
    let mut r = Read::default();
    let mut h: Option<Header> = None;
    let mut sources = BTreeSet::new();
    for (i, raw) in text.lines().enumerate() {
        let number = i + 1;
        let line = raw.trim_end();
        let trimmed = line.trim_start();
        if trimmed.is_empty() {
            h = None;
            continue;
        }
        // A shell prompt and the command, copied with what it printed.
        if trimmed.starts_with('$') || trimmed.contains("kafka-consumer-groups") {
            continue;
        }
        if message(&mut d, trimmed, number)? {
            h = None;
            continue;
        }
        if let Some(found) = header(line, number)? {
            sources.insert(match found.kind {
                Kind::Members if found.has("ASSIGNMENT") || found.has("CURRENT-ASSIGNMENT") => {
                    "kafka-consumer-groups.sh --describe --members --verbose"
                }
                Kind::Members => "kafka-consumer-groups.sh --describe --members",
                Kind::Offsets => "kafka-consumer-groups.sh --describe --offsets",
                Kind::State => "kafka-consumer-groups.sh --describe --state",
            });
            h = Some(found);
            continue;
        }
        let Some(header) = &h else {
            let shown: String = trimmed.chars().take(60).collect();
            return Err(fault(
                number,
                format!(
                    "expected a header (GROUP CONSUMER-ID ... #PARTITIONS, GROUP TOPIC PARTITION ... or GROUP COORDINATOR (ID) ... #MEMBERS), a row under one, or a blank line; found \"{shown}\""
                ),
            ));
        };
        let fields = match by_position(line, header) {
            Some(fields) => fields,
            None => by_words(line, header, number)?,
        };
        let get = |column: &str| -> Option<&str> {
            header
                .columns
                .iter()
                .position(|c| *c == column)
                .map(|i| fields[i].as_str())
        };
        if let Some(group) = get("GROUP") {
            match &d.group_id {
                None => d.group_id = Some(group.to_string()),
                Some(id) if id != group => {
                    r.other_groups.insert(group.to_string());
                    continue;
                }
                Some(_) => {}
            }
        }
        match header.kind {
            Kind::Members => members_row(&mut d, &mut r, header, &get, number)?,
            Kind::Offsets => offsets_row(&mut d, &mut r, &get, number)?,
            Kind::State => state_row(&mut d, &mut r, &get, number)?,
        }
    }
    d.sources = sources.into_iter().map(String::from).collect();
    finish(&mut d, r)?;
    Ok(d)
}

fn members_row<'a>(
    d: &mut Described,
    r: &mut Read,
    h: &Header,
    get: &dyn Fn(&str) -> Option<&'a str>,
    number: usize,
) -> Result<(), ImportError> {
    let count: usize = get("#PARTITIONS")
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| fault(number, "#PARTITIONS should be a whole number"))?;
    let owned = match get("CURRENT-ASSIGNMENT").or(get("ASSIGNMENT")) {
        Some(text) => assignment(text, number)?,
        None => None,
    };
    match &owned {
        Some(list) if list.len() != count => {
            return Err(fault(
                number,
                format!(
                    "#PARTITIONS says {count} but the assignment lists {}",
                    list.len()
                ),
            ));
        }
        Some(list) => {
            for (t, p) in list {
                d.saw_partition(t, *p);
            }
        }
        None => r.unnamed = true,
    }
    // Kafka 4 prints the members' epochs: a consumer group's are numbers, a classic group's `-`.
    if let Some(epoch) = get("CURRENT-EPOCH") {
        let consumer = epoch != MISSING;
        if d.protocol.is_none() || consumer {
            d.protocol = Some(if consumer {
                Protocol::Consumer
            } else {
                Protocol::Classic
            });
        }
    }
    let upgraded = match get("UPGRADED") {
        Some("true") => Some(true),
        Some("false") => Some(false),
        Some(MISSING) | None => None,
        Some(other) => {
            return Err(fault(
                number,
                format!("UPGRADED should be true, false or -, found \"{other}\""),
            ));
        }
    };
    if h.has("UPGRADED") {
        d.protocol = Some(Protocol::Consumer);
    }
    r.members.push(Member {
        member_id: get("CONSUMER-ID").unwrap_or_default().to_string(),
        instance_id: get("GROUP-INSTANCE-ID")
            .filter(|v| !v.is_empty() && *v != MISSING)
            .map(str::to_string),
        client_id: get("CLIENT-ID").unwrap_or_default().to_string(),
        host: get("HOST").unwrap_or_default().to_string(),
        assignment: owned,
        upgraded,
    });
    Ok(())
}

fn offsets_row<'a>(
    d: &mut Described,
    r: &mut Read,
    get: &dyn Fn(&str) -> Option<&'a str>,
    number: usize,
) -> Result<(), ImportError> {
    r.saw_offsets = true;
    let name = get("TOPIC").unwrap_or(MISSING);
    let at = get("PARTITION").unwrap_or(MISSING);
    let tp = if name == MISSING || at == MISSING {
        None
    } else {
        let tp = (topic(name, number)?, partition(at, number)?);
        d.saw_partition(&tp.0, tp.1);
        Some(tp)
    };
    let consumer = get("CONSUMER-ID").unwrap_or(MISSING);
    if consumer == MISSING {
        return Ok(());
    }
    let index = match r.offsets.iter().position(|m| m.member_id == consumer) {
        Some(i) => i,
        None => {
            r.offsets.push(Member {
                member_id: consumer.to_string(),
                instance_id: None,
                client_id: get("CLIENT-ID")
                    .filter(|v| *v != MISSING)
                    .unwrap_or_default()
                    .to_string(),
                host: get("HOST")
                    .filter(|v| *v != MISSING)
                    .unwrap_or_default()
                    .to_string(),
                assignment: Some(Vec::new()),
                upgraded: None,
            });
            r.offsets.len() - 1
        }
    };
    if let (Some(tp), Some(list)) = (tp, r.offsets[index].assignment.as_mut()) {
        list.push(tp);
    }
    Ok(())
}

fn state_row<'a>(
    d: &mut Described,
    r: &mut Read,
    get: &dyn Fn(&str) -> Option<&'a str>,
    number: usize,
) -> Result<(), ImportError> {
    let state = get("STATE").unwrap_or_default();
    let name = state_name(state).ok_or_else(|| {
        fault(
            number,
            format!("\"{state}\" is not a group state (Stable, Empty, PreparingRebalance, CompletingRebalance, Assigning, Reconciling, Dead)"),
        )
    })?;
    if name == "Dead" {
        return Err(fault(number, "the group is Dead: it does not exist"));
    }
    if matches!(name, "Assigning" | "Reconciling") {
        d.protocol = Some(Protocol::Consumer);
    }
    d.state = Some(name.into());
    if let Some(epoch) = get("GROUP-EPOCH") {
        if epoch != MISSING {
            d.protocol = Some(Protocol::Consumer);
        } else if d.protocol.is_none() {
            d.protocol = Some(Protocol::Classic);
        }
    }
    d.assignor = get("ASSIGNMENT-STRATEGY")
        .filter(|v| !v.is_empty() && *v != MISSING)
        .map(str::to_string);
    r.member_count = get("#MEMBERS").and_then(|v| v.parse().ok());
    Ok(())
}

/// The members put together: `--members` rows where there are some (their assignments from
/// `--offsets` when they do not name topics), else the consumers `--offsets` names.
fn finish(d: &mut Described, r: Read) -> Result<(), ImportError> {
    let from_offsets: BTreeMap<String, Option<Vec<(String, i32)>>> = r
        .offsets
        .iter()
        .map(|m| (m.member_id.clone(), m.assignment.clone()))
        .collect();
    if r.members.is_empty() {
        if !r.offsets.is_empty() {
            d.note(
                "The --offsets output does not show group.instance.id: paste --members --verbose too for a group of static members.".into(),
                "--offsets 输出不显示 group.instance.id：静态成员组请一并粘贴 --members --verbose 的输出。".into(),
            );
        }
        d.members = r.offsets;
    } else {
        d.members = r.members;
        if r.unnamed && r.saw_offsets {
            for m in &mut d.members {
                if m.assignment.is_none() {
                    m.assignment = Some(
                        from_offsets
                            .get(&m.member_id)
                            .cloned()
                            .flatten()
                            .unwrap_or_default(),
                    );
                }
            }
        }
    }
    if let Some(count) = r.member_count
        && count != d.members.len()
        && !d.members.is_empty()
    {
        d.note(
            format!("--state counts {count} members, the rows list {}: the outputs were taken at different times.", d.members.len()),
            format!("--state 统计到 {count} 个成员，而各行列出 {} 个：这些输出取自不同时刻。", d.members.len()),
        );
    }
    if !r.other_groups.is_empty() {
        let others: Vec<&str> = r.other_groups.iter().map(String::as_str).collect();
        let group = d.group_id.clone().unwrap_or_default();
        d.note(
            format!(
                "The text describes other groups too ({}); only {group} was read.",
                others.join(", ")
            ),
            format!(
                "文本还描述了其他消费组（{}）；只读取了 {group}。",
                others.join("、")
            ),
        );
    }
    Ok(())
}
