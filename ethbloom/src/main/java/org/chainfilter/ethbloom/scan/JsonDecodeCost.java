package org.chainfilter.ethbloom.scan;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;

/**
 * An upper estimate of the heap that decoding a JSON-RPC answer takes, read from its tokens without building anything.
 *
 * <p>web3j decodes an answer with Jackson into its response objects, and a batch answer first into a Jackson tree
 * (which {@link RpcSession} then decodes per call): both live at once. What that holds depends on the answer's shape
 * more than on its length. Measured on web3j 4.13 and Jackson 2.18 (the batch path, live heap after a full collection):
 * real {@code eth_getLogs} answers hold about 2 times their bytes, empty objects ({@code [{},{},…]}) 54 times as logs
 * and 76 times as a block's transactions, one-letter strings ({@code ["a","a",…]}) 22 times. The estimate charges every
 * token a cost that covers both copies, its text included:
 * <ul>
 *   <li>an object {@value #OBJECT} bytes (tree node, map, and the decoded object: a transaction has some 30 fields);</li>
 *   <li>an array {@value #ARRAY} bytes;</li>
 *   <li>a field {@value #FIELD} bytes and three per character of its name (map entry, the name, its interned copy);</li>
 *   <li>a string or number {@value #SCALAR} bytes and two per character (the tree's text and the decoded one);</li>
 *   <li>{@code true}, {@code false} or {@code null} {@value #LITERAL} bytes.</li>
 * </ul>
 * {@code JsonDecodeCostTest} measures the live heap of each shape above, decoded as web3j and {@link RpcSession} do,
 * and checks that the estimate is above it (and not far above, or real answers would be refused for nothing).
 *
 * <p>No text of the answer is kept and field names are not interned, so the estimate's own memory does not grow with
 * the answer; it stops reading as soon as the estimate passes the limit it is given.
 */
final class JsonDecodeCost {
    static final int OBJECT = 320;
    static final int ARRAY = 80;
    static final int FIELD = 64;
    static final int SCALAR = 128;
    static final int LITERAL = 64;
    /**
     * No answer costs more than this per byte: the costliest token per byte is an empty object, {@code {}}, two bytes.
     * Answers with {@code bytes · MAX_PER_BYTE} within the limit need no estimate.
     */
    static final int MAX_PER_BYTE = OBJECT / 2;

    /** Jackson's own limits (nesting depth, token lengths) apply as they do to web3j's mapper; names not interned. */
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .disable(JsonFactory.Feature.CANONICALIZE_FIELD_NAMES).build();

    private JsonDecodeCost() {
    }

    /**
     * The estimated heap, in bytes, that decoding the JSON in {@code json} takes; once the running estimate passes
     * {@code stopAbove}, the estimate so far, with the rest of the answer unread. For an answer that is not well-formed
     * JSON, the estimate up to the point where it breaks, as far as decoding it would get before failing (the failure
     * is web3j's to report).
     */
    static long estimate(InputStream json, long stopAbove) throws IOException {
        long cost = 0;
        try (JsonParser parser = FACTORY.createParser(json)) {
            JsonToken token;
            while ((token = parser.nextToken()) != null && cost <= stopAbove) {
                switch (token) {
                    case START_OBJECT:
                        cost += OBJECT;
                        break;
                    case START_ARRAY:
                        cost += ARRAY;
                        break;
                    case FIELD_NAME:
                        cost += FIELD + 3L * parser.getTextLength();
                        break;
                    case VALUE_STRING:
                    case VALUE_NUMBER_INT:
                    case VALUE_NUMBER_FLOAT:
                    case VALUE_EMBEDDED_OBJECT:
                        cost += SCALAR + 2L * parser.getTextLength();
                        break;
                    case VALUE_TRUE:
                    case VALUE_FALSE:
                    case VALUE_NULL:
                        cost += LITERAL;
                        break;
                    default:
                        break;
                }
            }
        } catch (JsonProcessingException malformed) {
            // Decoding stops here too, having built what the estimate has counted.
        }
        return cost;
    }
}
