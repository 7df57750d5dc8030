package org.chainfilter.ethbloom.web3j;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.chainfilter.common.Hex;
import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.LogsBloom;
import org.web3j.protocol.core.DefaultBlockParameter;
import org.web3j.protocol.core.methods.request.EthFilter;
import org.web3j.protocol.core.methods.response.EthBlock;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.core.methods.response.TransactionReceipt;

/**
 * Bridges web3j's JSON-RPC types and this module: blooms of web3j {@link Log}s, {@link TransactionReceipt}s and
 * {@link EthBlock.Block} headers, exact matching of web3j logs with a {@link LogFilter}, and the filter as a web3j
 * {@link EthFilter} for {@code eth_getLogs}.
 *
 * <p>web3j hands these fields over as raw strings. They are parsed strictly here: an address must be exactly 20 bytes
 * of hex, a topic exactly 32, a logsBloom exactly 256 ({@code 0x} optional, either case); anything else is refused
 * with an {@link IllegalArgumentException} naming the field and its length. A header whose logsBloom is absent or
 * malformed is not an empty bloom: callers that skip blocks must treat it as "cannot skip".
 */
public final class Web3jLogs {

    private Web3jLogs() {
    }

    /** The bloom of one log: M3:2048 of its address and of each topic. */
    public static LogsBloom bloomOf(Log log) {
        return LogsBloom.builder().addLog(address(log), topics(log)).build();
    }

    /** The bloom recomputed from a receipt's logs (what its {@code logsBloom} must equal). */
    public static LogsBloom bloomOf(TransactionReceipt receipt) {
        Objects.requireNonNull(receipt, "receipt");
        return bloomOfLogs(receipt.getLogs() == null ? List.of() : receipt.getLogs());
    }

    /** The bloom of any list of logs, e.g. all the logs of a block: equal to the block's header bloom. */
    public static LogsBloom bloomOfLogs(List<Log> logs) {
        LogsBloom.Builder builder = LogsBloom.builder();
        for (Log log : logs) {
            builder.addLog(address(log), topics(log));
        }
        return builder.build();
    }

    /**
     * The receipt's published {@code logsBloom}, parsed strictly.
     *
     * @throws IllegalArgumentException when it is absent or not 256 bytes of hex
     */
    public static LogsBloom publishedBloom(TransactionReceipt receipt) {
        Objects.requireNonNull(receipt, "receipt");
        return parseBloom(receipt.getLogsBloom(), "receipt " + receipt.getTransactionHash());
    }

    /**
     * The header {@code logsBloom} of a block, parsed strictly.
     *
     * @throws IllegalArgumentException when it is absent or not 256 bytes of hex
     */
    public static LogsBloom headerBloom(EthBlock.Block block) {
        Objects.requireNonNull(block, "block");
        return parseBloom(block.getLogsBloom(), "block " + block.getNumberRaw());
    }

    private static LogsBloom parseBloom(String hex, String where) {
        if (hex == null) {
            throw new IllegalArgumentException(where + " has no logsBloom");
        }
        try {
            return LogsBloom.fromHex(hex);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    /** Whether the log passes the filter's exact test (go-ethereum {@code filterLogs}). */
    public static boolean matches(LogFilter filter, Log log) {
        return filter.matches(address(log), topics(log));
    }

    /** The logs that pass the filter's exact test, in their order, as the same web3j objects. */
    public static List<Log> filterLogs(LogFilter filter, List<Log> logs) {
        List<Log> out = new ArrayList<>();
        for (Log log : logs) {
            if (matches(filter, log)) {
                out.add(log);
            }
        }
        return out;
    }

    /**
     * A web3j {@code eth_getLogs} request for the filter over a block range: addresses as a list, each topic position
     * as {@code null} (wildcard) or a list of alternatives.
     */
    public static EthFilter toEthFilter(LogFilter filter, DefaultBlockParameter fromBlock,
                                        DefaultBlockParameter toBlock) {
        List<String> addresses = new ArrayList<>();
        for (byte[] address : filter.addresses()) {
            addresses.add("0x" + Hex.encode(address));
        }
        EthFilter request = new EthFilter(fromBlock, toBlock, addresses);
        for (List<byte[]> position : filter.topics()) {
            if (position == null) {
                request.addNullTopic();
            } else {
                request.addOptionalTopics(position.stream().map(t -> "0x" + Hex.encode(t)).toArray(String[]::new));
            }
        }
        return request;
    }

    /**
     * The log's address as 20 bytes.
     *
     * @throws IllegalArgumentException when it is absent or not 20 bytes of hex
     */
    public static byte[] address(Log log) {
        Objects.requireNonNull(log, "log");
        if (log.getAddress() == null) {
            throw new IllegalArgumentException("log has no address");
        }
        return Hex.decode(log.getAddress(), 20, "log address");
    }

    /**
     * The log's topics as 32-byte arrays (an absent list is no topic).
     *
     * @throws IllegalArgumentException when a topic is absent or not 32 bytes of hex
     */
    public static List<byte[]> topics(Log log) {
        Objects.requireNonNull(log, "log");
        List<String> raw = log.getTopics() == null ? List.of() : log.getTopics();
        List<byte[]> topics = new ArrayList<>(raw.size());
        for (int i = 0; i < raw.size(); i++) {
            if (raw.get(i) == null) {
                throw new IllegalArgumentException("log topic " + i + " is null");
            }
            topics.add(Hex.decode(raw.get(i), 32, "log topic " + i));
        }
        return topics;
    }
}
