package org.chainfilter.ethbloom.scan.node;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.web3j.protocol.core.methods.response.Log;

/**
 * One line per log, the same whether the log came as a web3j {@link Log} (the scanner's output) or as the node's raw
 * JSON (its own {@code eth_getLogs}): block number and log index in decimal, then address, topics, data, transaction
 * and block hash in lower-case hex. Comparing lists of these lines compares logs field for field, in order.
 */
public final class LogText {
    private LogText() {
    }

    public static String of(Log log) {
        return line(log.getBlockNumber().longValueExact(), log.getLogIndex().longValueExact(), log.getAddress(),
                log.getTopics(), log.getData(), log.getTransactionHash(), log.getBlockHash());
    }

    public static String of(JsonNode log) {
        List<String> topics = new ArrayList<>();
        log.get("topics").forEach(t -> topics.add(t.asText()));
        return line(Long.decode(log.get("blockNumber").asText()), Long.decode(log.get("logIndex").asText()),
                log.get("address").asText(), topics, log.get("data").asText(), log.get("transactionHash").asText(),
                log.get("blockHash").asText());
    }

    /** The number of topics of a raw JSON log. */
    public static int topicCount(JsonNode log) {
        return log.get("topics").size();
    }

    private static String line(long block, long index, String address, List<String> topics, String data,
                               String transaction, String blockHash) {
        return (block + " " + index + " " + address + " " + String.join(",", topics) + " " + data + " " + transaction
                + " " + blockHash).toLowerCase(Locale.ROOT);
    }
}
