package org.chainfilter.ethbloom.scan.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.bouncycastle.jcajce.provider.digest.Keccak;
import org.chainfilter.common.Hex;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A chain on a real anvil with several hundred blocks of logs: three {@code EventSource} and two {@code Registry}
 * contracts (src/test/solidity, compiled by solc-js at build time), then blocks with one to four transactions each
 * drawn from a seeded random source (every event kind: LOG0 to LOG4, indexed addresses and bytes32 values from small
 * pools so that random filters hit, now and then a burst of 150–400 logs that fills a bloom), and runs of empty blocks.
 * The same seed gives the same logs; block hashes differ between runs (timestamps).
 *
 * <p>Shared by all tests of one run through {@link #shared(ExtensionContext)} (JUnit's root store closes it, and the
 * node, when the run ends).
 */
public final class TestChain implements ExtensionContext.Store.CloseableResource {
    /** Addresses used as indexed event arguments (20 bytes). */
    public static final List<String> PARTIES = List.of("0x1111111111111111111111111111111111111111",
            "0x2222222222222222222222222222222222222222", "0x00000000000000000000000000000000000000aa",
            "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", "0x0000000000000000000000000000000000000000");
    /** bytes32 values used as indexed event arguments. */
    public static final List<String> WORDS = List.of(word(1), word(2), word(0xbeef), word(0), "0x" + "ff".repeat(32));
    /** The event signatures of the test contracts, for topic 0. */
    public static final List<String> EVENT_SIGNATURES = List.of("Transfer(address,address,uint256)",
            "Approval(address,address,uint256)", "Note(uint256)", "Quad(bytes32,bytes32,address,uint256)",
            "Registered(bytes32,address)", "Touched()", "Renamed(bytes32,bytes32)");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String GAS = "0x4c4b40"; // 5,000,000: a burst of 400 logs fits
    private static final long TARGET_BLOCKS = 420;

    private final AnvilNode node;
    private final List<String> eventSources = new ArrayList<>();
    private final List<String> registries = new ArrayList<>();
    private final long head;

    private TestChain(AnvilNode node, long seed) {
        this.node = node;
        List<String> accounts = new ArrayList<>();
        node.rpc("eth_accounts").forEach(a -> accounts.add(a.asText()));
        Map<String, String> eventSourceMethods = methods("EventSource");
        Map<String, String> registryMethods = methods("Registry");
        for (int i = 0; i < 3; i++) {
            eventSources.add(deploy("EventSource", accounts.get(0)));
        }
        for (int i = 0; i < 2; i++) {
            registries.add(deploy("Registry", accounts.get(0)));
        }
        node.rpc("evm_setAutomine", false);
        Random random = new Random(seed);
        while (blockNumber() < TARGET_BLOCKS) {
            if (random.nextInt(5) == 0) {
                node.rpc("anvil_mine", "0x" + Long.toHexString(1 + random.nextInt(6)));
                continue;
            }
            int transactions = 1 + random.nextInt(4);
            List<Object[]> sends = new ArrayList<>();
            for (int t = 0; t < transactions; t++) {
                Map<String, String> tx = new LinkedHashMap<>();
                tx.put("from", accounts.get(random.nextInt(4)));
                tx.put("gas", GAS);
                int choice = random.nextInt(100);
                if (choice < 3) {
                    tx.put("to", pick(random, eventSources));
                    tx.put("data", eventSourceMethods.get("burst(uint256,uint256)") + uint(random.nextInt(1 << 30))
                            + uint(150 + random.nextInt(251)));
                } else if (choice < 75) {
                    tx.put("to", pick(random, eventSources));
                    tx.put("data", eventSourceMethods.get("fire(uint8,address,address,bytes32,bytes32,uint256)")
                            + uint(random.nextInt(6)) + pad(pick(random, PARTIES)) + pad(pick(random, PARTIES))
                            + pick(random, WORDS).substring(2) + pick(random, WORDS).substring(2)
                            + uint(random.nextInt(1000)));
                } else if (choice < 90) {
                    tx.put("to", pick(random, registries));
                    tx.put("data", registryMethods.get("register(bytes32,address)") + pick(random, WORDS).substring(2)
                            + pad(pick(random, PARTIES)));
                } else {
                    tx.put("to", pick(random, registries));
                    tx.put("data", registryMethods.get("rename(bytes32,bytes32)") + pick(random, WORDS).substring(2)
                            + pick(random, WORDS).substring(2));
                }
                sends.add(new Object[] {tx});
            }
            node.rpcBatch("eth_sendTransaction", sends);
            node.rpc("evm_mine");
        }
        this.head = blockNumber();
    }

    /** Builds a new chain on a new anvil (about 420 blocks; a few seconds). */
    public static TestChain build(long seed) {
        AnvilNode node = AnvilNode.start();
        try {
            return new TestChain(node, seed);
        } catch (RuntimeException e) {
            node.close();
            throw e;
        }
    }

    /** The chain of this test run, built on first use and closed when the run ends. */
    public static TestChain shared(ExtensionContext context) {
        return context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                .getOrComputeIfAbsent(TestChain.class, k -> build(4), TestChain.class);
    }

    public AnvilNode node() {
        return node;
    }

    /** The head block when the chain was built; no block is added afterwards. */
    public long head() {
        return head;
    }

    public List<String> eventSources() {
        return eventSources;
    }

    public List<String> registries() {
        return registries;
    }

    /** All contract addresses that emit logs. */
    public List<String> emitters() {
        List<String> all = new ArrayList<>(eventSources);
        all.addAll(registries);
        return all;
    }

    /** Keccak-256 of an event signature: its topic 0. */
    public static String topic0(String signature) {
        return "0x" + Hex.encode(new Keccak.Digest256().digest(signature.getBytes(StandardCharsets.US_ASCII)));
    }

    /** An address as an indexed event argument: left-padded to 32 bytes. */
    public static String addressTopic(String address) {
        return "0x" + pad(address);
    }

    /** Writes the chain's state (blocks, receipts, accounts) to {@code file} for {@code --load-state}. */
    public Path dumpState(Path file) {
        return node.dumpState(file);
    }

    @Override
    public void close() {
        node.close();
    }

    private long blockNumber() {
        return Long.decode(node.rpc("eth_blockNumber").asText());
    }

    private String deploy(String contract, String from) {
        String hash = node.rpc("eth_sendTransaction", Map.of("from", from, "data", artifact(contract)
                .get("bytecode").asText(), "gas", GAS)).asText();
        // Automine seals the block asynchronously: the receipt may lag the hash by a moment.
        JsonNode receipt = node.rpc("eth_getTransactionReceipt", hash);
        for (int wait = 0; receipt.isNull() && wait < 100; wait++) {
            pause();
            receipt = node.rpc("eth_getTransactionReceipt", hash);
        }
        if (receipt.isNull() || !"0x1".equals(receipt.get("status").asText())) {
            throw new IllegalStateException("deploying " + contract + " failed: " + receipt);
        }
        return receipt.get("contractAddress").asText();
    }

    private static void pause() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static Map<String, String> methods(String contract) {
        Map<String, String> selectors = new LinkedHashMap<>();
        artifact(contract).get("methods").fields()
                .forEachRemaining(e -> selectors.put(e.getKey(), "0x" + e.getValue().asText()));
        return selectors;
    }

    private static JsonNode artifact(String contract) {
        try (InputStream in = TestChain.class.getResourceAsStream("/contracts/" + contract + ".json")) {
            if (in == null) {
                throw new IllegalStateException("contracts/" + contract + ".json is not on the test classpath:"
                        + " provision.sh compiles src/test/solidity in the generate-test-resources phase");
            }
            return JSON.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static <T> T pick(Random random, List<T> values) {
        return values.get(random.nextInt(values.size()));
    }

    private static String uint(long value) {
        return String.format("%064x", value);
    }

    private static String pad(String address) {
        return "0".repeat(24) + address.substring(2).toLowerCase();
    }

    private static String word(long value) {
        return "0x" + uint(value);
    }
}
