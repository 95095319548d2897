package io.profilestore.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ProfileGeneratorTest {

    @Test
    void theSameSeedGivesTheSameProfiles() {
        var a = new ProfileGenerator(42, 0.1);
        var b = new ProfileGenerator(42, 0.1);
        for (int i = 0; i < 100; i++) {
            assertThat(a.next()).isEqualTo(b.next());
        }
        assertThat(new ProfileGenerator(43, 0.1).next()).isNotEqualTo(new ProfileGenerator(42, 0.1).next());
    }

    @Test
    void profilesLookReal() {
        var generator = new ProfileGenerator(7, 0.2);
        var profiles = IntStream.range(0, 2000).mapToObj(i -> generator.next()).toList();
        var surnames = new HashSet<String>();
        long latin = 0;
        for (var data : profiles) {
            surnames.add(data.path("surname").asText());
            assertThat(data.path("phones").get(0).asText()).matches("\\+7 \\(9\\d\\d\\) \\d{3}-\\d{2}-\\d{2}");
            assertThat(data.path("birthDate").asText()).matches("(19[4-9]\\d|200[0-4])-\\d\\d-\\d\\d");
            String surname = data.path("surname").asText();
            if (surname.matches("[A-Za-z].*")) {
                latin++;
            } else if (data.path("gender").asText().equals("F") && surname.matches(".*(ов|ев|ин)")) {
                throw new AssertionError("a woman with a man's surname: " + surname);
            }
        }
        assertThat(surnames).hasSizeGreaterThan(150);
        assertThat(latin).isBetween(300L, 500L);
        long ivanov = profiles.stream().filter(p -> p.path("surname").asText().startsWith("Иванов")).count();
        long rare = profiles.stream().filter(p -> p.path("surname").asText().startsWith("Римск")).count();
        assertThat(ivanov).as("the most common surname is common").isGreaterThan(rare);
    }
}
