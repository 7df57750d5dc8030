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
 *   <li>{@code true}, {@code false} or {@code null} {@value #LITERAL} bytes;</li>
 *   <li>and beyond the tokens: the longest string four bytes a character more (Jackson's buffers while it decodes
 *       it), an error's {@code data} six more (web3j keeps it as JSON text, written out from a tree), and the answer's
 *       own bytes twice (OkHttp's buffer and web3j's copy).</li>
 * </ul>
 * {@code JsonDecodeCostTest} measures the live heap of each shape above and more (real logs, strings with a character
 * beyond Latin-1, objects 20 deep, long distinct names, literals, numbers), decoded as a batch answer is, and checks
 * that the estimate is above it (the shapes hold 11 to 83 % of it, real logs about half) and not far above for real
 * logs; {@code SmallHeapAnswersTest} sends the hostile answers to a 64 MiB JVM, where none may run the heap out.
 * An answer this parser cannot read (with web3j's parser features: unquoted names are read) has its unread bytes
 * charged at {@link #MAX_PER_BYTE}.
 *
 * <p>No text of the answer is kept and field names are not interned, so the estimate's own memory does not grow with
 * the answer; it stops reading as soon as the estimate passes the limit it is given.
 */
final class JsonDecodeCost {
    static final int OBJECT = 480;
    static final int ARRAY = 240;
    static final int FIELD = 96;
    static final int SCALAR = 128;
    static final int LITERAL = 64;
    /**
     * No answer costs more than this per byte: the costliest token per byte is an empty object, {@code {}}, two bytes,
     * and at most eight more a byte when it is in an error's data (six) and for the answer's own bytes (two). Answers
     * with {@code bytes · MAX_PER_BYTE} within the limit need no estimate.
     */
    static final int MAX_PER_BYTE = OBJECT / 2 + 8;

    /**
     * web3j's mapper's factory with its features (unquoted field names among them: an answer that only web3j could
     * read would otherwise end the estimate early) and Jackson's limits, but names not interned.
     */
    private static final JsonFactory FACTORY = org.web3j.protocol.ObjectMapperFactory.getObjectMapper().getFactory()
            .rebuild().disable(JsonFactory.Feature.CANONICALIZE_FIELD_NAMES).build();

    private JsonDecodeCost() {
    }

    /**
     * The longest quantity web3j's {@code Transaction.setV} converts as it decodes (in time quadratic in its length: a
     * million digits took 21 s): 0x and 64 hex digits, with room. Longer is refused outright.
     */
    static final int MAX_V_CHARS = 130;

    /**
     * The estimated heap, in bytes, that decoding the {@code bytes} bytes of JSON in {@code json} takes, the answer's
     * own bytes included (OkHttp's buffer and web3j's copy of it); once the running estimate passes {@code stopAbove},
     * the estimate so far, with the rest of the answer unread. A string is charged by the characters it spans in the
     * answer, never decoded here (a string of millions of characters costs the estimate nothing): two bytes a character
     * for its text, and for the longest string four more, the buffers Jackson fills while decoding it. The value of an
     * error's {@code data}, which web3j keeps as JSON text, is charged six bytes a character more (that text and the
     * buffers that write it). Should the answer not parse, its unread bytes are charged at {@link #MAX_PER_BYTE} (a
     * decoder more lenient than this parser could read on), and the string or error data it broke in up to the fault.
     *
     * @throws ResponseTooLargeException for a transaction's {@code v} longer than {@value #MAX_V_CHARS} characters,
     *     which web3j would take minutes or hours to convert
     */
    static long estimate(InputStream json, long bytes, long stopAbove) throws IOException {
        Tally tally = new Tally(2 * bytes);
        JsonParser parser = FACTORY.createParser(json);
        try (parser) {
            JsonToken token;
            while ((token = parser.nextToken()) != null) {
                // Character offsets: with names not interned, Jackson reads through a character decoder.
                long at = parser.currentTokenLocation().getCharOffset();
                tally.closeString(at);
                if (tally.errorDataStart >= 0 && tally.errorDataStart < at
                        && endsErrorData(parser, token, tally.errorDataDepth)) {
                    tally.closeErrorData(at);
                }
                if (tally.total() > stopAbove) {
                    return tally.total();
                }
                switch (token) {
                    case FIELD_NAME:
                        // Names are short (Jackson refuses names over 50,000 characters) and decoded by the parser.
                        tally.cost += FIELD + 3L * parser.getTextLength();
                        if (tally.errorDataStart < 0 && "data".equals(parser.currentName())
                                && parser.getParsingContext().getParent() != null
                                && "error".equals(parser.getParsingContext().getParent().getCurrentName())) {
                            tally.errorDataDepth = parser.getParsingContext().getNestingDepth();
                            tally.errorDataStart = at;
                        }
                        break;
                    case VALUE_STRING:
                        tally.cost += SCALAR;
                        tally.stringStart = at;
                        tally.stringIsV = "v".equals(parser.currentName());
                        break;
                    default:
                        tally.cost += tokenCost(parser, token);
                        break;
                }
            }
            long end = parser.currentLocation().getCharOffset();
            tally.closeString(end);
            tally.closeErrorData(end);
        } catch (JsonProcessingException malformed) {
            // Characters read stand for at least as many bytes: the unread bytes are at most this many. (The
            // exception's location: a closed parser's says it read everything.)
            long read = malformed.getLocation() == null ? 0 : Math.max(0, malformed.getLocation().getCharOffset());
            tally.cost += Math.max(0, bytes - read) * MAX_PER_BYTE;
            // What web3j has decoded by the time it fails there: the string the parse broke after (Jackson skips a
            // string whole before it finds the fault) and an error's data still open.
            tally.closeString(read);
            tally.closeErrorData(read);
        }
        return tally.total();
    }

    /** The running estimate, with the string and the error data whose ends are not yet known. */
    private static final class Tally {
        long cost;
        long longestString;
        /** Where the string being read began, or -1. */
        long stringStart = -1;
        boolean stringIsV;
        /** Where an error's data value began, or -1; the error object's nesting depth. */
        long errorDataStart = -1;
        int errorDataDepth;

        Tally(long cost) {
            this.cost = cost;
        }

        /** Charges the string being read, if any, as ending at {@code offset}. */
        void closeString(long offset) throws ResponseTooLargeException {
            if (stringStart >= 0 && offset > stringStart) {
                cost += stringCost(offset - stringStart, stringIsV);
                longestString = Math.max(longestString, offset - stringStart);
            }
            stringStart = -1;
        }

        /** Charges the error data being read, if any, as ending at {@code offset}: six bytes a character more. */
        void closeErrorData(long offset) {
            if (errorDataStart >= 0 && offset > errorDataStart) {
                cost += 6 * (offset - errorDataStart);
            }
            errorDataStart = -1;
        }

        /** The estimate, with the longest string's decoding buffers: four bytes a character. */
        long total() {
            return cost + 4 * longestString;
        }
    }

    /**
     * Whether {@code token} is the first after the value of an error's {@code data} field, in the error object at
     * nesting depth {@code depth}: its next field, or its end (whose context is the parent's).
     */
    private static boolean endsErrorData(JsonParser parser, JsonToken token, int depth) {
        int here = parser.getParsingContext().getNestingDepth();
        return token == JsonToken.FIELD_NAME && here == depth || token == JsonToken.END_OBJECT && here == depth - 1;
    }

    /** A string of {@code span} characters: two bytes a character (UTF-16 text, the most a Java string takes). */
    private static long stringCost(long span, boolean isV) throws ResponseTooLargeException {
        if (isV && span > MAX_V_CHARS + 3) {
            throw new ResponseTooLargeException("the JSON-RPC answer holds a transaction's v of about " + span
                    + " characters; a quantity has at most 66, and web3j's conversion of a longer one takes time"
                    + " quadratic in its length", MAX_V_CHARS);
        }
        return 2 * span;
    }

    /** The cost of a token other than a string or a field name. */
    private static long tokenCost(JsonParser parser, JsonToken token) throws IOException {
        switch (token) {
            case START_OBJECT:
                return OBJECT;
            case START_ARRAY:
                return ARRAY;
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
            case VALUE_EMBEDDED_OBJECT:
                // Numbers are short (Jackson refuses numbers over 1,000 digits).
                return SCALAR + 2L * parser.getTextLength();
            case VALUE_TRUE:
            case VALUE_FALSE:
            case VALUE_NULL:
                return LITERAL;
            default:
                return 0;
        }
    }
}
