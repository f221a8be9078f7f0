//! RE2/J's syntax and whole-name matching (`topic_regex`), with answers taken from RE2/J 1.7
//! itself (`bench/re2j/check.sh` compares the two on tens of thousands of patterns).

use group_coordinator::topic_regex::TopicRegex;

fn refusal(pattern: &str) -> Option<&'static str> {
    TopicRegex::new(pattern).err().map(|e| e.description)
}

fn matching<'a>(pattern: &str, names: &[&'a str]) -> Vec<&'a str> {
    let re = TopicRegex::new(pattern).expect(pattern);
    names.iter().copied().filter(|n| re.matches(n)).collect()
}

#[test]
fn a_pattern_matches_whole_names() {
    let names = [
        "orders",
        "orders-eu",
        "ord",
        "xorders",
        "Orders",
        "payments",
    ];
    assert_eq!(matching("orders", &names), ["orders"]);
    assert_eq!(matching("ord.*", &names), ["orders", "orders-eu", "ord"]);
    assert_eq!(matching("^ord.*$", &names), ["orders", "orders-eu", "ord"]);
    assert_eq!(matching("(?i)orders", &names), ["orders", "Orders"]);
    assert_eq!(matching("orders|pay.*", &names), ["orders", "payments"]);
    assert_eq!(matching("[a-z]+-[a-z]{2}", &names), ["orders-eu"]);
    assert_eq!(matching("", &["", "a"]), [""]);
}

#[test]
fn refusals_carry_re2j_descriptions() {
    assert_eq!(refusal("a**"), Some("invalid nested repetition operator"));
    assert_eq!(refusal("{{2}"), Some("invalid nested repetition operator"));
    assert_eq!(
        refusal("*a"),
        Some("missing argument to repetition operator")
    );
    assert_eq!(refusal("a{1001}"), Some("invalid repeat count"));
    assert_eq!(refusal("(a"), Some("missing closing )"));
    assert_eq!(refusal("a)"), Some("regexp/syntax: internal error"));
    assert_eq!(refusal("[a"), Some("missing closing ]"));
    assert_eq!(refusal("[b-a]"), Some("invalid character class range"));
    assert_eq!(refusal("\\p{greek}"), Some("invalid character class range"));
    assert_eq!(refusal("\\1"), Some("invalid escape sequence"));
    assert_eq!(refusal("(?=a)"), Some("invalid or unsupported Perl syntax"));
    assert_eq!(
        refusal("(?<n>a)"),
        Some("invalid or unsupported Perl syntax")
    );
    assert_eq!(refusal("(?P<>a)"), Some("invalid named capture"));
    assert_eq!(
        refusal("(?P<n>a)(?P<n>b)"),
        Some("duplicate capture group name")
    );
    assert_eq!(
        refusal("a\\"),
        Some("trailing backslash at end of expression")
    );
    // What RE2/J reads as literals.
    for ok in ["a{", "a{,5}", "a{01}", "\\Q.*\\E", "[]a]", "^*", "\\_"] {
        assert_eq!(refusal(ok), None, "{ok}");
    }
}

#[test]
fn case_folding_follows_re2j_tables() {
    // The Kelvin sign and the long s fold to ASCII letters.
    assert_eq!(matching("(?i)\\x{212A}", &["k", "K", "x"]), ["k", "K"]);
    assert_eq!(matching("(?i)[^s]", &["s", "S", "x"]), ["x"]);
    // A Unicode class folds by its own table: `Ll`'s adds only K and S.
    assert_eq!(
        matching("(?i)\\p{Ll}", &["a", "A", "K", "S"]),
        ["a", "K", "S"]
    );
    assert_eq!(matching("(?i)\\p{Lu}", &["a", "A"]), ["a", "A"]);
}

#[test]
fn the_models_bounds_refuse_instead_of_working_without_end() {
    assert_eq!(refusal("(a{1000}){1000}"), Some("expression too large"));
    let deep = format!("{}a{}", "(".repeat(1001), ")".repeat(1001));
    assert_eq!(refusal(&deep), Some("expression nests too deeply"));
    let fine = format!("{}a{}", "(".repeat(999), ")".repeat(999));
    assert_eq!(refusal(&fine), None);
    // Non-ASCII text is no topic name: it matches nothing.
    assert!(!TopicRegex::new(".*").unwrap().matches("é"));
}
