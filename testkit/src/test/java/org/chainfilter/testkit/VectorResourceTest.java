package org.chainfilter.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VectorResourceTest {
    @Test
    void fieldsInFileOrderWithCommentsAndBlankLinesSkipped() {
        Map<String, String> fields = VectorResource.load(VectorResourceTest.class, "fields");
        assertEquals(List.of("raw", "expr"), List.copyOf(fields.keySet()));
        assertEquals("00ff", fields.get("raw"));
        assertEquals("a=b", fields.get("expr"), "a value runs to the end of the line");
    }

    @Test
    void theMapIsUnmodifiable() {
        Map<String, String> fields = VectorResource.load(VectorResourceTest.class, "fields");
        assertThrows(UnsupportedOperationException.class, () -> fields.put("raw", "01"));
    }

    @Test
    void oneField() {
        assertEquals("00ff", VectorResource.field(VectorResourceTest.class, "fields", "raw"));
    }

    @Test
    void aMissingFieldIsRefusedWithTheKeysThereAre() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> VectorResource.field(VectorResourceTest.class, "fields", "hash"));
        assertEquals("fields.txt has no key hash; its keys are [raw, expr]", e.getMessage());
    }

    @Test
    void aMissingResourceIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> VectorResource.load(VectorResourceTest.class, "absent"));
        assertEquals("no vector resource absent.txt next to org.chainfilter.testkit.VectorResourceTest",
                e.getMessage());
    }

    @Test
    void aLineWithoutEqualsIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> VectorResource.load(VectorResourceTest.class, "no-equals"));
        assertEquals("no-equals.txt line 2 is neither a # comment nor key=value", e.getMessage());
    }

    @Test
    void anEmptyKeyIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> VectorResource.load(VectorResourceTest.class, "empty-key"));
        assertEquals("empty-key.txt line 2 is neither a # comment nor key=value", e.getMessage());
    }

    @Test
    void aRepeatedKeyIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> VectorResource.load(VectorResourceTest.class, "repeated"));
        assertEquals("repeated.txt line 3 repeats the key raw", e.getMessage());
    }
}
