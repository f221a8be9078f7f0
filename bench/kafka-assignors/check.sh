#!/usr/bin/env bash
# The `uniform` assignor's heterogeneous builder against Kafka's own Java class, side by side.
#
#   bash bench/kafka-assignors/check.sh <kafka source checkout> [groups] [seed]
#
# Needs a JDK (17+) and a checkout of apache/kafka (its group coordinator's assignor classes and
# `Uuid` are compiled with the stubs here; nothing is downloaded). Prints how many results differ.
set -euo pipefail
kafka=${1:?usage: check.sh <kafka source checkout> [groups] [seed]}
groups=${2:-2000}
seed=${3:-12345}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
api=group-coordinator/group-coordinator-api/src/main/java
main=group-coordinator/src/main/java
files=(
  clients/src/main/java/org/apache/kafka/common/Uuid.java
  $api/org/apache/kafka/coordinator/group/api/assignor/{GroupAssignment,GroupSpec,MemberAssignment,MemberSubscription,PartitionAssignorException,SubscribedTopicDescriber,SubscriptionType}.java
  $main/org/apache/kafka/coordinator/group/assignor/{AssignorHelpers,UniformHeterogeneousAssignmentBuilder}.java
  $main/org/apache/kafka/coordinator/group/modern/MemberAssignmentImpl.java
)
for f in "${files[@]}"; do cp "$kafka/$f" "$work/"; done
cp -r "$here/stubs/." "$work/"
cp "$here/UniformCheck.java" "$work/"
(cd "$work" && find . -name '*.java' > files.txt && javac -nowarn -d classes @files.txt)
(cd "$root" && cargo run -q --release -p group-coordinator --example uniform_cases -- "$groups" "$work/cases.txt" "$work/model.txt" "$seed")
java -cp "$work/classes" check.UniformCheck < "$work/cases.txt" > "$work/kafka.txt"
total=$(wc -l < "$work/model.txt")
differ=$(diff "$work/model.txt" "$work/kafka.txt" | grep -c '^<' || true)
echo "uniform (heterogeneous): $total results, $differ differ from Kafka's UniformHeterogeneousAssignmentBuilder"
[ "$differ" = 0 ]
