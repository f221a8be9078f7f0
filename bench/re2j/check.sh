#!/usr/bin/env bash
# The model's RE2/J syntax and matching (crates/coordinator/src/topic_regex) against RE2/J 1.7
# itself, the library Kafka 4.0 resolves SubscribedTopicRegex with, side by side.
#
#   bash bench/re2j/check.sh [random patterns] [seed]
#
# Needs a JDK and Debian's libre2j-java (RE2/J 1.7, as Kafka 4.0 ships). The patterns are
# patterns.txt (written by hand: every rule of the syntax) and random ones from the seed; each
# is compiled by both and, when both accept it, matched against the topic names below.
set -euo pipefail
count=${1:-20000}
seed=${2:-2024}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
jar=/usr/share/java/re2j.jar
[ -f "$jar" ] || { echo "re2j: $jar is missing (apt-get install libre2j-java)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
names=(orders orders-eu orders.v2 Orders ORDERS ord order_s payments pay-2024 a b ab aab s S k K
  ks sk kS x_y x-y x.y 0 09 123 a.b.c __consumer_offsets _internal topic-with-a-long-name.v10
  abc-ABC_123.x q)
javac -nowarn -d "$work" -cp "$jar" "$here/Re2jCheck.java"
(cd "$root" && cargo run -q --release -p group-coordinator --example topic_regex_cases -- \
  generate "$count" "$seed") > "$work/random.txt"
cat "$here/patterns.txt" "$work/random.txt" > "$work/patterns.txt"
java -cp "$work:$jar" Re2jCheck "${names[@]}" < "$work/patterns.txt" > "$work/re2j.txt"
(cd "$root" && cargo run -q --release -p group-coordinator --example topic_regex_cases -- \
  match "${names[@]}") < "$work/patterns.txt" > "$work/model.txt"
total=$(wc -l < "$work/patterns.txt")
refused=$(grep -c '^ERR' "$work/re2j.txt" || true)
differ=$(paste -d '\t' "$work/patterns.txt" "$work/re2j.txt" "$work/model.txt" \
  | awk -F '\t' '$2 != $3' | tee "$work/differ.txt" | wc -l)
if [ "$differ" != 0 ]; then
  echo "pattern	re2j	model"
  head -20 "$work/differ.txt"
fi
echo "re2j: $total patterns ($refused refused by RE2/J) x ${#names[@]} topic names, $differ differ from RE2/J 1.7"
[ "$differ" = 0 ]
