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
 * <p>web3j decodes an answer with Jackson into its response objects. A batch answer takes the most: web3j's
 * {@code Service.sendBatch} reads it as a tree, then each call's answer from that tree into a second tree (a
 * {@link RpcSession.RawAnswer}), and {@link RpcSession} decodes the call's type from that; all three live at once
 * (strings are shared between them, nodes are not). What they hold depends on the answer's shape more than on its
 * length. Measured on web3j 4.13 and Jackson 2.18 (live heap after a full collection): real {@code eth_getLogs}
 * answers hold 4.4 times their bytes, empty objects ({@code [{},{},…]}) 87 times as logs and 108 times as a block's
 * transactions, arrays nested 20 deep 99 times, one-letter strings 27 times. The estimate charges every token a cost
 * that covers all of it:
 * <ul>
 *   <li>an object {@value #OBJECT} bytes (two tree nodes with their maps, and the decoded object: a transaction has
 *       some 30 fields);</li>
 *   <li>an array {@value #ARRAY} bytes (two tree nodes with their lists, and the decoded list);</li>
 *   <li>a field {@value #FIELD} bytes and three per character of its name (the maps' entries, the name, its interned
 *       copy);</li>
 *   <li>a string {@value #SCALAR} bytes and two per character it spans in the answer (its nodes, and its text as
 *       UTF-16, the most a Java string takes: a string is never decoded here, so one of millions of characters costs
 *       the estimate nothing); a number {@value #SCALAR} bytes and two per digit;</li>
 *   <li>{@code true}, {@code false} or {@code null} {@value #LITERAL} bytes.</li>
 * </ul>
 * {@code JsonDecodeCostTest} measures the live heap of each shape above and more (real logs, strings with a character
 * beyond Latin-1, objects 20 deep, long distinct names, literals, numbers), decoded as a batch answer is, and checks
 * that the estimate is above it (the shapes hold 13 to 96 % of it, real logs 66 %) and not far above for real logs.
 * An answer this parser cannot read (with web3j's parser features: unquoted names are read) has its unread bytes
 * charged at {@link #MAX_PER_BYTE}.
 *
 * <p>No text of the answer is kept and field names are not interned, so the estimate's own memory does not grow with
 * the answer; it stops reading as soon as the estimate passes the limit it is given.
 */
final class JsonDecodeCost {
    static final int OBJECT = 400;
    static final int ARRAY = 240;
    static final int FIELD = 96;
    static final int SCALAR = 128;
    static final int LITERAL = 64;
    /**
     * No answer costs more than this per byte: the costliest token per byte is an empty object, {@code {}}, two bytes.
     * Answers with {@code bytes · MAX_PER_BYTE} within the limit need no estimate.
     */
    static final int MAX_PER_BYTE = OBJECT / 2;

    /**
     * web3j's mapper's factory with its features (unquoted field names among them: an answer that only web3j could
     * read would otherwise end the estimate early) and Jackson's limits, but names not interned.
     */
    private static final JsonFactory FACTORY = org.web3j.protocol.ObjectMapperFactory.getObjectMapper().getFactory()
            .rebuild().disable(JsonFactory.Feature.CANONICALIZE_FIELD_NAMES).build();

    private JsonDecodeCost() {
    }

    /**
     * The estimated heap, in bytes, that decoding the {@code bytes} bytes of JSON in {@code json} takes; once the
     * running estimate passes {@code stopAbove}, the estimate so far, with the rest of the answer unread. A string is
     * charged by the bytes it spans in the answer, never decoded here (a string of millions of characters costs the
     * estimate nothing). Should the answer not parse, its unread bytes are charged at {@link #MAX_PER_BYTE}: a
     * decoder more lenient than this parser could read on.
     */
    static long estimate(InputStream json, long bytes, long stopAbove) throws IOException {
        long cost = 0;
        long stringStart = -1;
        JsonParser parser = FACTORY.createParser(json);
        try (parser) {
            JsonToken token;
            while ((token = parser.nextToken()) != null) {
                // Character offsets: with names not interned, Jackson reads through a character decoder.
                long at = parser.currentTokenLocation().getCharOffset();
                if (stringStart >= 0) {
                    // The string, its quotes and what follows it up to this token: two bytes a character (UTF-16 text,
                    // the most a Java string takes), stored once however many nodes share it.
                    cost += 2 * (at - stringStart);
                    stringStart = -1;
                }
                if (cost > stopAbove) {
                    return cost;
                }
                switch (token) {
                    case START_OBJECT:
                        cost += OBJECT;
                        break;
                    case START_ARRAY:
                        cost += ARRAY;
                        break;
                    case FIELD_NAME:
                        // Names are short (Jackson refuses names over 50,000 characters) and decoded by the parser.
                        cost += FIELD + 3L * parser.getTextLength();
                        break;
                    case VALUE_STRING:
                        cost += SCALAR;
                        stringStart = at;
                        break;
                    case VALUE_NUMBER_INT:
                    case VALUE_NUMBER_FLOAT:
                    case VALUE_EMBEDDED_OBJECT:
                        // Numbers are short (Jackson refuses numbers over 1,000 digits).
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
            if (stringStart >= 0) {
                cost += 2 * (parser.currentLocation().getCharOffset() - stringStart);
            }
        } catch (JsonProcessingException malformed) {
            // Characters read stand for at least as many bytes: the unread bytes are at most this many. (The
            // exception's location: a closed parser's says it read everything.)
            long read = malformed.getLocation() == null ? 0 : Math.max(0, malformed.getLocation().getCharOffset());
            cost += Math.max(0, bytes - read) * MAX_PER_BYTE;
        }
        return cost;
    }
}
