package org.chainfilter.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * An independent implementation run by Node.js for a differential test, as a JUnit extension: one process for the
 * test class ({@code @RegisterExtension static final NodePeer PEER = new NodePeer("x-peer.properties")}), started
 * before its tests and stopped after them, driven a JSON request a line in and its answer a line out
 * ({@code build-tools/json-lines-peer.cjs}). The build's provisioning ({@code build-tools/provision-npm.sh}) writes the
 * properties resource that says where the peer script and its {@code node_modules} are. The peer runs with
 * {@code NODE_BACKEND=js}, as the provisioning builds no native code.
 */
public final class NodePeer implements BeforeAllCallback, AfterAllCallback {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String properties;
    private String script;
    private Process process;
    private BufferedWriter toPeer;
    private BufferedReader fromPeer;

    /** A peer described by the class-path resource {@code /<properties>}. */
    public NodePeer(String properties) {
        this.properties = properties;
    }

    /**
     * Starts {@code node <peer.script> <node.modules>}; its standard error goes to the test's.
     *
     * @throws IllegalStateException the properties resource is missing (the provisioning did not run)
     */
    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        Properties paths = new Properties();
        try (InputStream in = NodePeer.class.getResourceAsStream("/" + properties)) {
            if (in == null) {
                throw new IllegalStateException(properties + " is missing: the build's provisioning step"
                        + " (build-tools/provision-npm.sh) did not run; it needs Node.js and npm");
            }
            paths.load(in);
        }
        script = paths.getProperty("peer.script");
        ProcessBuilder builder = new ProcessBuilder("node", script, paths.getProperty("node.modules"));
        builder.environment().put("NODE_BACKEND", "js");
        builder.redirectError(ProcessBuilder.Redirect.INHERIT);
        process = builder.start();
        toPeer = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
        fromPeer = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    @Override
    public void afterAll(ExtensionContext context) throws InterruptedException {
        if (process != null) {
            process.destroy();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** A new request object with its {@code op}. */
    public static ObjectNode request(String op) {
        return JSON.createObjectNode().put("op", op);
    }

    /** One request, one answer; an answer with an "error" field is returned as it is. */
    public JsonNode ask(ObjectNode request) throws IOException {
        toPeer.write(JSON.writeValueAsString(request));
        toPeer.newLine();
        toPeer.flush();
        String line = fromPeer.readLine();
        if (line == null) {
            throw new IllegalStateException("the Node.js peer " + script + " ended (see its standard error above)");
        }
        return JSON.readTree(line);
    }
}
