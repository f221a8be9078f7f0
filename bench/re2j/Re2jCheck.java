// RE2/J itself (the library Kafka 4.0 resolves SubscribedTopicRegex with) on the patterns of
// stdin, one per line, against the topic names given as arguments. For each pattern: its
// refusal's description, or the indexes of the names it matches whole (Kafka's
// `matcher(name).matches()`). The model's example `topic_regex_cases` prints the same.
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

public class Re2jCheck {
    public static void main(String[] names) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        StringBuilder out = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null) {
            try {
                Pattern p = Pattern.compile(line);
                out.append("OK");
                for (int i = 0; i < names.length; i++) {
                    if (p.matcher(names[i]).matches()) out.append(' ').append(i);
                }
            } catch (PatternSyntaxException e) {
                out.append("ERR ").append(e.getDescription());
            }
            out.append('\n');
        }
        System.out.print(out);
    }
}
