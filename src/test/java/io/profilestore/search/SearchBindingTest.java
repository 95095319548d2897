package io.profilestore.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.profilestore.testing.ChildClasspath;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A cursor is sealed to its search as a text, and the next page may be asked of another API instance: the text
 * must be the same in every JVM (a JVM's own hash salt, say, must not show in it).
 */
class SearchBindingTest {

    static final String TYPED = "Щербакова О. 02.02.1980 +7 912 345-67-89 0b7f6c1e-3a5d-4c1e-9f0a-2b3c4d5e6f70 olga@example.test";

    /**
     * Prints the binding of {@link #TYPED}, as another instance would make it: in UTF-8 whatever the locale (under
     * LANG=C the platform's encoding would print the Cyrillic as question marks).
     */
    public static void main(String[] args) {
        var out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        out.print(binding());
        out.flush();
    }

    static String binding() {
        return new SearchCriteria(null, null, null, null, null, null,
                TypedQuery.parse(TYPED, NameNormalizer.standard())).toString();
    }

    @Test
    void theSameSearchIsBoundTheSameInEveryJvm() throws Exception {
        String here = binding();
        for (int i = 0; i < 4; i++) {
            var process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", ChildClasspath.current(), SearchBindingTest.class.getName()).redirectErrorStream(true).start();
            String there = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(there).as("the binding in JVM %d", i).isEqualTo(here);
        }
    }
}
