package check;

// Reads the cases `cargo run -p group-coordinator --example uniform_cases` writes and prints
// what Kafka's own UniformHeterogeneousAssignmentBuilder gives, in the example's format.

import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.group.api.assignor.*;
import org.apache.kafka.coordinator.group.assignor.UniformHeterogeneousAssignmentBuilder;
import org.apache.kafka.coordinator.group.modern.MemberAssignmentImpl;
import java.io.*;
import java.util.*;

/** Reads cases (C / T uuid n / M id subs prev / E) and prints Kafka's heterogeneous uniform result per case. */
public class UniformCheck {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        PrintStream out = new PrintStream(new BufferedOutputStream(System.out));
        Map<Uuid, Integer> topics = null;
        List<String> ids = null;
        Map<String, Set<Uuid>> subs = null;
        Map<String, Map<Uuid, Set<Integer>>> prev = null;
        String line;
        while ((line = in.readLine()) != null) {
            String[] f = line.split(" ");
            switch (f[0]) {
                case "C": topics = new HashMap<>(); ids = new ArrayList<>(); subs = new HashMap<>(); prev = new HashMap<>(); break;
                case "T": topics.put(Uuid.fromString(f[1]), Integer.parseInt(f[2])); break;
                case "M": {
                    ids.add(f[1]);
                    Set<Uuid> s = new HashSet<>();
                    if (!f[2].equals("-")) for (String t : f[2].split(",")) s.add(Uuid.fromString(t));
                    subs.put(f[1], s);
                    Map<Uuid, Set<Integer>> p = new HashMap<>();
                    if (!f[3].equals("-")) for (String tp : f[3].split("\\|")) {
                        String[] kv = tp.split("=");
                        Set<Integer> ps = new HashSet<>();
                        for (String x : kv[1].split("\\.")) ps.add(Integer.parseInt(x));
                        p.put(Uuid.fromString(kv[0]), Collections.unmodifiableSet(ps));
                    }
                    prev.put(f[1], Collections.unmodifiableMap(p));
                    break;
                }
                case "E": {
                    final Map<Uuid, Integer> tps = topics; final List<String> mids = ids;
                    final Map<String, Set<Uuid>> msubs = subs; final Map<String, Map<Uuid, Set<Integer>>> mprev = prev;
                    GroupSpec spec = new GroupSpec() {
                        public Collection<String> memberIds() { return mids; }
                        public SubscriptionType subscriptionType() { return SubscriptionType.HETEROGENEOUS; }
                        public boolean isPartitionAssigned(Uuid t, int p) { return false; }
                        public MemberSubscription memberSubscription(String m) {
                            return new MemberSubscription() {
                                public Optional<String> rackId() { return Optional.empty(); }
                                public Optional<String> instanceId() { return Optional.empty(); }
                                public Set<Uuid> subscribedTopicIds() { return msubs.get(m); }
                            };
                        }
                        public MemberAssignment memberAssignment(String m) { return new MemberAssignmentImpl(mprev.get(m)); }
                    };
                    SubscribedTopicDescriber d = new SubscribedTopicDescriber() {
                        public int numPartitions(Uuid t) { return tps.getOrDefault(t, -1); }
                        public Set<String> racksForPartition(Uuid t, int p) { return Collections.emptySet(); }
                    };
                    StringBuilder sb = new StringBuilder();
                    try {
                        GroupAssignment a = new UniformHeterogeneousAssignmentBuilder(spec, d).build();
                        for (String m : mids) {
                            sb.append(m).append(':');
                            MemberAssignment ma = a.members().get(m);
                            TreeMap<String, TreeSet<Integer>> sorted = new TreeMap<>();
                            if (ma != null) for (Map.Entry<Uuid, Set<Integer>> e : ma.partitions().entrySet())
                                if (!e.getValue().isEmpty()) sorted.put(e.getKey().toString(), new TreeSet<>(e.getValue()));
                            for (Map.Entry<String, TreeSet<Integer>> e : sorted.entrySet()) sb.append(e.getKey()).append(e.getValue().toString().replace(" ", "")).append(' ');
                            sb.append(';');
                        }
                    } catch (Exception e) { sb.append("ERR ").append(e.getClass().getSimpleName()); }
                    out.println(sb);
                    break;
                }
            }
        }
        out.flush();
    }
}
