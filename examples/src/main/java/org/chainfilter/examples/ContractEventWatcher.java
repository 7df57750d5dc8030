package org.chainfilter.examples;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.chainfilter.common.Hex;
import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.scan.BlockScanner;
import org.chainfilter.ethbloom.scan.BoundedHttp;
import org.chainfilter.ethbloom.scan.CheckpointStore;
import org.chainfilter.ethbloom.scan.FileCheckpointStore;
import org.chainfilter.ethbloom.scan.ScanException;
import org.chainfilter.ethbloom.scan.ScanSummary;
import org.web3j.crypto.Hash;
import org.web3j.protocol.Web3j;
import org.web3j.protocol.core.methods.response.EthBlockNumber;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.exceptions.ClientConnectionException;
import org.web3j.protocol.http.HttpService;

/**
 * Watches one contract's events on an Ethereum JSON-RPC node: scans up to the confirmed head, prints every matching
 * log, waits, scans the new blocks, and so on. Blocks whose header {@code logsBloom} rules the contract out are never
 * fetched; after each pass a line on stderr says how much the blooms saved (busy mainnet blocks have blooms half full
 * or more, the bundled block 22263622 of 2025 50.7 %, and when the blooms saved little the line says so).
 *
 * <p>With {@code --checkpoint FILE} the watcher can be stopped (Ctrl-C) and started again without losing an event: the
 * scanner moves the checkpoint after each block's events are printed, so only a block whose events were being printed
 * at the moment of the stop is printed again (see {@link BlockScanner} for the delivery contract).
 *
 * <p>Run (after {@code mvn -q -pl examples -am install -DskipTests}):
 * <pre>
 * mvn -q -pl examples exec:java -Dexec.mainClass=org.chainfilter.examples.ContractEventWatcher \
 *   -Dexec.args="--rpc http://127.0.0.1:8545 --address 0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48 \
 *                --event Transfer(address,address,uint256) --from 21000000 --checkpoint usdc.checkpoint"
 * </pre>
 * <p>Every JSON-RPC call goes through {@link BoundedHttp#service(String)}: it ends within 120 s and its answer is cut
 * off past 64 MiB, so a stalled or runaway node ends the watch with a message instead of holding it or its heap.
 *
 * <p>Options: {@code --rpc URL} (required), {@code --address HEX} (required), {@code --event SIGNATURE} (topic 0 =
 * Keccak-256 of the signature; default: every event of the contract), {@code --from N} (default: the block after the
 * checkpoint when there is one, else the confirmed head, i.e. only new events; a checkpoint past {@code --from} wins),
 * {@code --confirmations N} (default 12), {@code --checkpoint FILE}, {@code --poll-seconds S}
 * (default 12, one mainnet slot), {@code --max-polls N} (default: watch until stopped).
 */
public final class ContractEventWatcher {
    /** The options the watcher takes; any other is refused, so a misspelt one cannot fall back to its default. */
    static final List<String> OPTIONS = List.of("--rpc", "--address", "--event", "--from", "--confirmations",
            "--checkpoint", "--poll-seconds", "--max-polls");
    /** What {@code --help} prints. */
    static final String USAGE = "usage: ContractEventWatcher --rpc URL --address HEX [--event SIGNATURE] [--from N]"
            + " [--confirmations N (default 12)] [--checkpoint FILE] [--poll-seconds S (default 12)] [--max-polls N]";

    private ContractEventWatcher() {
    }

    public static void main(String[] args) {
        int status = run(args, System.out, System.err);
        if (status != 0) {
            System.exit(status);
        }
    }

    /**
     * {@link #watch}, with a refused option or a failing node reported as one line on {@code err} (no stack trace).
     *
     * @return the exit status: 0, or 1 after such a failure
     */
    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            out.println(USAGE);
            return 0;
        }
        try {
            watch(args, out, err);
            return 0;
        } catch (IllegalArgumentException | ScanException e) {
            err.println("ContractEventWatcher: " + e.getMessage());
        } catch (UncheckedIOException e) {
            err.println("ContractEventWatcher: " + e.getMessage() + ": " + e.getCause().getMessage());
        }
        return 1;
    }

    /**
     * Runs the watcher; returns the number of events printed.
     *
     * @throws IllegalArgumentException on a missing or malformed option
     * @throws ScanException            when the node fails beyond the scanner's retries
     */
    static long watch(String[] args, PrintStream out, PrintStream err) {
        Map<String, String> options = parse(args);
        String rpc = required(options, "--rpc");
        HttpService node;
        try {
            node = BoundedHttp.service(rpc);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--rpc: " + e.getMessage(), e);
        }
        byte[] address = Hex.decode(required(options, "--address"), 20, "--address");
        String event = options.get("--event");
        if (event != null) {
            checkEventSignature(event);
        }
        int confirmations = (int) number(options, "--confirmations", "12", 0, Integer.MAX_VALUE);
        double pollSeconds = options.containsKey("--poll-seconds") ? seconds(options, "--poll-seconds") : 12;
        long pollMillis = (long) (1000 * pollSeconds);
        long maxPolls = options.containsKey("--max-polls")
                ? number(options, "--max-polls", null, 1, Long.MAX_VALUE) : Long.MAX_VALUE;

        LogFilter.Builder filter = LogFilter.builder().address(address);
        String topic0 = null;
        if (event != null) {
            topic0 = Hash.sha3String(event);
            filter.topic(0, Hex.decode(topic0));
        }
        CheckpointStore checkpoints = options.containsKey("--checkpoint")
                ? new FileCheckpointStore(Path.of(options.get("--checkpoint"))) : CheckpointStore.none();
        BlockScanner watcher = BlockScanner.builder(node).confirmations(confirmations)
                .checkpoints(checkpoints).build();
        long next;
        if (options.containsKey("--from")) {
            next = number(options, "--from", null, 0, Long.MAX_VALUE);
        } else if (checkpoints.load().isPresent()) {
            // A restart: from the confirmed head, the blocks that came while the watcher was stopped were skipped.
            next = 0;
        } else {
            next = Math.max(0, head(node, rpc) - confirmations + 1);
        }
        next = watcher.startBlock(filter.build(), next);
        err.printf(Locale.ROOT, "watching %s%s from block %d, %d confirmations%n", "0x" + Hex.encode(address),
                event == null ? "" : " " + event, next, confirmations);
        long printed = 0;
        String eventTopic = topic0;
        for (long poll = 0; poll < maxPolls; poll++) {
            if (poll > 0) {
                pause(pollMillis);
            }
            long[] count = {0};
            ScanSummary pass = watcher.scanToSafeHead(filter.build(), next, log -> {
                out.println(describe(log, eventTopic, event));
                count[0]++;
            });
            printed += count[0];
            if (pass.blocksScanned() > 0) {
                err.printf(Locale.ROOT, "blocks %d..%d: %d events. %s%n", pass.firstBlock(), pass.lastBlock(),
                        count[0], pass.verdict());
            }
            next = Math.max(next, pass.lastBlock() + 1);
        }
        return printed;
    }

    /** The canonical elementary types (as the ABI writes them in a signature), beside tuples and arrays of them. */
    private static final java.util.regex.Pattern CANONICAL_TYPE = java.util.regex.Pattern.compile(
            "address|bool|string|bytes|function|u?int(8|16|24|32|40|48|56|64|72|80|88|96|104|112|120|128|136|144"
                    + "|152|160|168|176|184|192|200|208|216|224|232|240|248|256)|bytes([1-9]|[12][0-9]|3[0-2])"
                    + "|u?fixed\\d+x\\d+");

    /**
     * Refuses text whose Keccak-256 is not an event's topic 0: that is the hash of the canonical signature, the name
     * and the parameter types only, without spaces, names or {@code indexed}, with aliases spelt out
     * ({@code uint256}, not {@code uint}). Any other text would give a topic no log carries, and the watch would
     * print nothing, forever.
     */
    static void checkEventSignature(String event) {
        if (!event.matches("[A-Za-z_$][A-Za-z0-9_$]*\\(.*\\)")) {
            throw new IllegalArgumentException("--event '" + event
                    + "' is not an event signature such as Transfer(address,address,uint256)");
        }
        String parameters = event.substring(event.indexOf('(') + 1, event.length() - 1);
        if (parameters.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("--event '" + event + "' holds white space: topic 0 is the Keccak-256 of"
                    + " the canonical signature, the parameter types alone, e.g. Transfer(address,address,uint256)");
        }
        // Tuples and arrays: the pieces between the brackets, commas and parentheses are types or array lengths.
        for (String piece : parameters.split("[(),\\[\\]]", -1)) {
            if (!piece.isEmpty() && !piece.matches("[0-9]+") && !CANONICAL_TYPE.matcher(piece).matches()) {
                throw new IllegalArgumentException("--event '" + event + "': '" + piece + "' is not a canonical type"
                        + " (uint256, int256, address, bool, bytes32, bytes, string, ...); topic 0 is the Keccak-256 of"
                        + " the canonical signature, e.g. Transfer(address,address,uint256)");
            }
        }
    }

    /** One line per event: where it is, then its indexed topics and data. */
    static String describe(Log log, String eventTopic, String event) {
        StringBuilder line = new StringBuilder().append("block ").append(log.getBlockNumber()).append(" log ")
                .append(log.getLogIndex()).append(" tx ").append(log.getTransactionHash()).append(": ");
        int firstArgument = 0;
        if (eventTopic != null && !log.getTopics().isEmpty() && log.getTopics().get(0).equalsIgnoreCase(eventTopic)) {
            line.append(event.substring(0, event.indexOf('(')));
            firstArgument = 1;
        } else {
            line.append(log.getTopics().isEmpty() ? "anonymous" : "topic0 " + log.getTopics().get(0));
        }
        line.append(" indexed ").append(log.getTopics().subList(firstArgument, log.getTopics().size()));
        return line.append(" data ").append(log.getData()).toString();
    }

    private static long head(HttpService node, String rpc) {
        EthBlockNumber answer;
        try {
            answer = Web3j.build(node).ethBlockNumber().send();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the head of " + rpc, e);
        } catch (ClientConnectionException e) {
            // An HTTP error status (a rate limit's 429, a 503): web3j's exception, not an IOException.
            throw new ScanException("cannot read the head of " + rpc + ": " + e.getMessage(), e);
        }
        if (answer.hasError()) {
            throw new ScanException("cannot read the head of " + rpc + ": the node answered error "
                    + answer.getError().getCode() + ": " + answer.getError().getMessage());
        }
        String result = answer.getResult();
        if (result != null && result.length() > 66) {
            // Before decoding: BigInteger's parse takes time quadratic in the digits.
            throw new ScanException("cannot read the head of " + rpc + ": the node answered " + result.length()
                    + " characters; a quantity has at most 66 (0x and 64 hex digits)");
        }
        try {
            // Read as the scanner reads quantities (web3j's decoding, leading zeros tolerated).
            return org.web3j.utils.Numeric.decodeQuantity(result).longValueExact();
        } catch (RuntimeException notANumber) {
            throw new ScanException("cannot read the head of " + rpc + ": the node answered '" + result
                    + "', not a block number", notANumber);
        }
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || i + 1 == args.length) {
                throw new IllegalArgumentException("expected '--option value' pairs; got '" + args[i] + "'"
                        + (i + 1 == args.length ? " without a value" : ""));
            }
            if (!OPTIONS.contains(args[i])) {
                throw new IllegalArgumentException("unknown option '" + args[i] + "'; the options are "
                        + String.join(", ", OPTIONS) + " (--help alone prints the usage)");
            }
            if (options.put(args[i], args[i + 1]) != null) {
                throw new IllegalArgumentException(args[i] + " is given twice");
            }
        }
        return options;
    }

    /** The whole-number option {@code name} (or {@code fallback} when absent), refused outside [min, max]. */
    private static long number(Map<String, String> options, String name, String fallback, long min, long max) {
        String text = options.getOrDefault(name, fallback);
        long value;
        try {
            value = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " '" + text + "' is not a whole number");
        }
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " is " + value + "; it must be " + min + " to " + max);
        }
        return value;
    }

    /** The seconds option {@code name}: a finite number, at least 0. */
    private static double seconds(Map<String, String> options, String name) {
        String text = options.get(name);
        double value;
        try {
            value = Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " '" + text + "' is not a number");
        }
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(name + " is " + text + "; it must be a finite number, at least 0");
        }
        return value;
    }

    private static String required(Map<String, String> options, String name) {
        String value = options.get(name);
        if (value == null) {
            throw new IllegalArgumentException(name + " is required (--help alone prints the usage)");
        }
        return value;
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
