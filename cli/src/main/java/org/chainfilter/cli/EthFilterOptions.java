package org.chainfilter.cli;

import java.util.ArrayList;
import java.util.List;

import org.chainfilter.ethbloom.LogFilter;
import picocli.CommandLine.Option;

/**
 * The log filter options shared by the eth commands ({@code @Mixin}): {@code --address} (repeatable, or
 * comma-separated: any of them) and {@code --topic} (repeatable: the first occurrence is topic position 0, the next
 * position 1, and so on; comma-separated alternatives; {@code *} or {@code null} for a wildcard position), with
 * go-ethereum's eth_getLogs semantics.
 */
final class EthFilterOptions {
    @Option(names = "--address", paramLabel = "HEX[,HEX...]",
            description = "A contract address (20 bytes); repeat or comma-separate for any of several.")
    List<String> addresses = new ArrayList<>();

    @Option(names = "--topic", paramLabel = "HEX[,HEX...]|*",
            description = "The next topic position (0, 1, 2, 3 in order): comma-separated alternatives (32 bytes"
                    + " each), or '*' (or 'null') for any topic (the log must still have a topic there).")
    List<String> topics = new ArrayList<>();

    /**
     * The filter.
     *
     * @throws IllegalArgumentException on a malformed address or topic, or more than four positions
     */
    LogFilter filter() {
        if (topics.size() > LogFilter.MAX_TOPICS) {
            throw new IllegalArgumentException(
                    topics.size() + " --topic positions given; at most " + LogFilter.MAX_TOPICS + " are allowed");
        }
        LogFilter.Builder builder = LogFilter.builder();
        for (String list : addresses) {
            // Split here, keeping empty pieces: picocli's split drops them, so '--address ,' (an unset shell
            // variable between commas) left no address at all, a filter of any address.
            for (String address : list.split(",", -1)) {
                builder.address(CliInputs.hex("--address", address, 20, "address"));
            }
        }
        for (int position = 0; position < topics.size(); position++) {
            String spec = topics.get(position).strip();
            if (spec.isEmpty()) {
                // An unset shell variable (--topic "$T") would otherwise widen the filter without a word.
                throw new IllegalArgumentException("--topic '' is empty (position " + position + "); give '*' (or"
                        + " 'null', as in JSON-RPC) for any topic");
            }
            if (spec.equals("*") || spec.equalsIgnoreCase("null")) {
                builder.anyTopic(position);
                continue;
            }
            for (String topic : spec.split(",", -1)) {
                builder.topic(position, CliInputs.hex("--topic", topic, 32, "topic"));
            }
        }
        return builder.build();
    }
}
