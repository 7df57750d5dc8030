package org.chainfilter.ethbloom.index;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class SectionFormatTest {

    /**
     * Section file names use ASCII digits whatever the default locale: under Arabic (Egypt) or Thai (with Thai digits)
     * a locale-sensitive format would write other digits, and an index written under one locale would not be found
     * under another.
     */
    @Test
    void sectionFileNamesDoNotDependOnTheLocale() {
        Locale saved = Locale.getDefault();
        try {
            for (Locale locale : new Locale[] {new Locale("ar", "EG"), new Locale("th", "TH", "TH"), Locale.ROOT}) {
                Locale.setDefault(locale);
                assertEquals("section-0000001234.bits",
                        SectionFormat.sectionPath(Path.of("index"), 1234).getFileName().toString(), locale.toString());
            }
        } finally {
            Locale.setDefault(saved);
        }
    }
}
