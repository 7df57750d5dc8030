package org.chainfilter.ethbloom.scan.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.chainfilter.common.Hex;

/**
 * A real anvil (Foundry's local Ethereum node) for tests, listening on 127.0.0.1 only, on a free port.
 *
 * <p>The binary is the one {@code src/test/node/provision.sh} installed from npm ({@code @foundry-rs/anvil} 1.7.1) and
 * recorded in {@code anvil.properties} on the test classpath. Every started process is also registered with a JVM
 * shutdown hook, so a test run that dies still leaves no anvil behind. {@link #kill()} ends the process abruptly
 * (SIGKILL) for the restart tests; {@link #restart(Path)} starts a new process on the same port from a state file.
 */
public final class AnvilNode implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(30);

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(Process::destroyForcibly),
                "anvil-reaper"));
    }

    private final Path binary;
    private final Path logDirectory;
    private final int port;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private Process process;
    private long requestId;

    private AnvilNode(Path binary, Path logDirectory, int port) {
        this.binary = binary;
        this.logDirectory = logDirectory;
        this.port = port;
    }

    /** Starts an empty chain on a free port. */
    public static AnvilNode start() {
        return start(null);
    }

    /** Starts a chain loaded from {@code stateFile} (null: empty) on a free port. */
    public static AnvilNode start(Path stateFile) {
        IllegalStateException last = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            AnvilNode node = new AnvilNode(binary(), logDirectory(), freePort());
            try {
                node.launch(stateFile);
                return node;
            } catch (IllegalStateException e) {
                // Another process may have taken the port between probing and binding: try another one.
                node.close();
                last = e;
            }
        }
        throw last;
    }

    public int port() {
        return port;
    }

    public String url() {
        return "http://127.0.0.1:" + port;
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** Ends the process with SIGKILL (no state is dumped) and waits until it is gone. */
    public void kill() {
        if (process != null) {
            process.destroyForcibly();
            waitForExit();
        }
    }

    /** Starts a new anvil on the same port, loading {@code stateFile}; the old process must be gone. */
    public void restart(Path stateFile) {
        if (isAlive()) {
            throw new IllegalStateException("anvil on port " + port + " is still running");
        }
        launch(stateFile);
    }

    /** {@code anvil_dumpState}, decompressed, written to {@code file} in the form {@code --load-state} reads. */
    public Path dumpState(Path file) {
        String hex = rpc("anvil_dumpState").asText();
        try (InputStream gzip = new GZIPInputStream(new ByteArrayInputStream(Hex.decode(hex)))) {
            Files.write(file, gzip.readAllBytes());
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the anvil state to " + file, e);
        }
    }

    /** One JSON-RPC call; returns {@code result}, throws with the error object on an error. */
    public JsonNode rpc(String method, Object... params) {
        ObjectNode request = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", ++requestId).put("method", method);
        request.set("params", JSON.valueToTree(params));
        JsonNode answer = post(request);
        if (answer.has("error")) {
            throw new IllegalStateException(method + " failed: " + answer.get("error"));
        }
        return answer.get("result");
    }

    /** A JSON-RPC batch of calls of one method; returns the results in request order. */
    public List<JsonNode> rpcBatch(String method, List<Object[]> paramsList) {
        ArrayNode batch = JSON.createArrayNode();
        long firstId = requestId + 1;
        for (Object[] params : paramsList) {
            ObjectNode request = batch.addObject().put("jsonrpc", "2.0").put("id", ++requestId).put("method", method);
            request.set("params", JSON.valueToTree(params));
        }
        JsonNode answers = post(batch);
        JsonNode[] ordered = new JsonNode[paramsList.size()];
        for (JsonNode answer : answers) {
            if (answer.has("error")) {
                throw new IllegalStateException(method + " failed in a batch: " + answer.get("error"));
            }
            ordered[(int) (answer.get("id").asLong() - firstId)] = answer.get("result");
        }
        return List.of(ordered);
    }

    private JsonNode post(JsonNode body) {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create(url())).timeout(Duration.ofSeconds(60))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build();
            return JSON.readTree(http.send(request, HttpResponse.BodyHandlers.ofString()).body());
        } catch (IOException e) {
            throw new UncheckedIOException("anvil on port " + port + " did not answer", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private void launch(Path stateFile) {
        List<String> command = new ArrayList<>(List.of(binary.toString(), "--host", "127.0.0.1", "--port",
                Integer.toString(port), "--accounts", "10", "--chain-id", "31337"));
        if (stateFile != null) {
            command.add("--load-state");
            command.add(stateFile.toString());
        }
        Path log = logDirectory.resolve("anvil-" + port + ".log");
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + binary, e);
        }
        LIVE.add(process);
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("anvil exited with " + process.exitValue() + " on port " + port
                        + "; see " + log);
            }
            try {
                rpc("eth_chainId");
                return;
            } catch (UncheckedIOException notYet) {
                sleep(50);
            }
        }
        throw new IllegalStateException("anvil did not answer on port " + port + " within " + STARTUP_TIMEOUT
                + "; see " + log);
    }

    @Override
    public void close() {
        if (process != null) {
            process.destroy();
            try {
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
            waitForExit();
        }
    }

    private void waitForExit() {
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LIVE.remove(process);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on 127.0.0.1", e);
        }
    }

    private static Path binary() {
        Properties properties = new Properties();
        try (InputStream in = AnvilNode.class.getResourceAsStream("/anvil.properties")) {
            if (in == null) {
                throw new IllegalStateException("anvil.properties is not on the test classpath: run the build"
                        + " (mvn -pl ethbloom verify), whose generate-test-resources phase runs provision.sh");
            }
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Path binary = Path.of(properties.getProperty("anvil.binary"));
        if (!Files.isExecutable(binary)) {
            throw new IllegalStateException("anvil binary " + binary + " is missing; rerun provision.sh");
        }
        return binary;
    }

    private static Path logDirectory() {
        try {
            // target/anvil-logs beside target/test-classes; from a test jar (another module's tests), the temp dir.
            Path classes = Path.of(AnvilNode.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path dir = Files.isDirectory(classes) ? classes.getParent().resolve("anvil-logs")
                    : Path.of(System.getProperty("java.io.tmpdir"), "chainfilter-anvil-logs");
            return Files.createDirectories(dir);
        } catch (IOException | java.net.URISyntaxException e) {
            throw new IllegalStateException("cannot create the anvil log directory", e);
        }
    }
}
