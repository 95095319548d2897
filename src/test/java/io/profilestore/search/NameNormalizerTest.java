package io.profilestore.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.ibm.icu.text.Transliterator;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import io.profilestore.demo.ProfileGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The name normalizer against a table of real spellings (src/test/resources/normalizer/spellings.tsv: every
 * scheme, ё, hyphens, apostrophes, the wrong keyboard layout, prefixes) and against properties checked on
 * every name of the demo data.
 */
class NameNormalizerTest {

    static final NameNormalizer NORMALIZER = NameNormalizer.standard();

    /** What the search does: some reading of the query has every word begin one of the name's keys. */
    static boolean finds(String query, String name) {
        var keys = NORMALIZER.indexKeys(name);
        return NORMALIZER.queryReadings(query).stream().anyMatch(reading -> reading.words().stream()
                .allMatch(word -> word.stream().anyMatch(prefix -> keys.stream().anyMatch(key -> key.startsWith(prefix)))));
    }

    static Stream<Arguments> spellings() throws IOException {
        return lines("/normalizer/spellings.tsv").stream().map(row -> row.split("\t"))
                .map(cells -> Arguments.of(cells[2], cells[0], cells[1]));
    }

    @ParameterizedTest(name = "{0}: {1} finds {2}")
    @MethodSource("spellings")
    void aRealSpellingFindsTheName(String kind, String input, String name) {
        assertThat(finds(input, name))
                .as("%s (%s) should find %s; query readings %s, name keys %s", input, kind, name,
                        NORMALIZER.queryReadings(input), NORMALIZER.indexKeys(name))
                .isTrue();
    }

    @Test
    void theAcceptanceExamplesOfTheIssue() {
        for (String query : List.of("shcherb", "Щерб", "ЩЕРБАКОВА")) {
            assertThat(finds(query, "Щербакова")).as(query).isTrue();
        }
        for (String query : List.of("iakovl", "yakovl", "Яковл")) {
            assertThat(finds(query, "Яковлева")).as(query).isTrue();
        }
        assertThat(finds("Ivanov", "Иванов")).isTrue();
        assertThat(finds("Семенов", "Семёнов")).isTrue();
        assertThat(finds("Bdfyjd", "Иванов")).isTrue();
    }

    @Test
    void aQueryIsAlsoReadAsTheOtherKeyboardLayoutWouldHaveTypedIt() {
        assertThat(NORMALIZER.queryReadings("Bdfyjd")).extracting(NameNormalizer.Reading::source)
                .containsExactly(NameNormalizer.Source.AS_TYPED, NameNormalizer.Source.LATIN_LAYOUT);
        assertThat(NORMALIZER.queryReadings("Bdfyjd").get(1).words()).as("Иванов typed with the Latin layout on")
                .containsExactly(Set.of("иванов"));
        assertThat(NORMALIZER.queryReadings("шмфтщм")).extracting(NameNormalizer.Reading::source)
                .containsExactly(NameNormalizer.Source.AS_TYPED, NameNormalizer.Source.CYRILLIC_LAYOUT);
        assertThat(NORMALIZER.queryReadings("шмфтщм").get(1).words()).as("ivanov typed with the Cyrillic layout on")
                .containsExactly(Set.of("иванов"));
    }

    @Test
    void differentNamesStayApart() {
        assertThat(finds("Петров", "Иванов")).isFalse();
        assertThat(finds("Ivanova", "Иванов")).as("a longer query is not a prefix").isFalse();
        assertThat(finds("Smirnov", "Смирнова")).isTrue();
        assertThat(finds("Smirnova", "Смирнов")).isFalse();
        assertThat(finds("Kozlov", "Козлова")).isTrue();
        assertThat(finds("Kozlov", "Коваленко")).isFalse();
    }

    @Test
    void keysAreCyrillicLettersOnlyAndNormalizingAKeyChangesNothing() throws IOException {
        for (String name : allNames()) {
            for (String key : NORMALIZER.indexKeys(name)) {
                assertThat(key).as(name).matches("[а-я]+");
                assertThat(NORMALIZER.indexKeys(key)).as("idempotent for %s", name).containsExactly(key);
            }
        }
    }

    @Test
    void cyrillicInputStaysCyrillicWithOneKeyPerWord() throws IOException {
        for (String name : allNames()) {
            var reading = NORMALIZER.read(name);
            assertThat(reading.words()).as(name).allSatisfy(word -> assertThat(word).hasSize(1));
            assertThat(reading.words()).hasSize(name.split("-").length);
        }
    }

    @Test
    void everyPrefixOfACyrillicNameFindsIt() throws IOException {
        for (String name : allNames()) {
            String word = name.split("-")[0];
            for (int length = 1; length <= word.length(); length++) {
                assertThat(finds(word.substring(0, length), name)).as("%s finds %s", word.substring(0, length), name).isTrue();
            }
        }
    }

    @Test
    void aNameAndItsRomanizationsMeet() throws IOException {
        // ICU's own BGN/PCGN and ISO 9 (GOST 7.79 A) transliterators, and ICAO Doc 9303 and GOST 7.79 B written
        // as ICU rules in the other direction (src/local-stack/resources/io/profilestore/demo/names/romanize-*.txt)
        var schemes = List.of(
                Transliterator.getInstance("Russian-Latin/BGN"),
                Transliterator.getInstance("Cyrillic-Latin"),
                ProfileGenerator.Romanization.ICAO.transliterator(),
                ProfileGenerator.Romanization.GOST_B.transliterator());
        var misses = new ArrayList<String>();
        for (String name : allNames()) {
            for (var scheme : schemes) {
                String romanized = scheme.transliterate(name);
                if (!finds(romanized, name)) {
                    misses.add(scheme.getID() + ": " + romanized + " -> " + name + " " + NORMALIZER.queryReadings(romanized)
                            + " vs " + NORMALIZER.indexKeys(name));
                }
            }
        }
        assertThat(misses).isEmpty();
    }

    /** Every surname (both forms), first name and patronymic of the demo data. */
    static List<String> allNames() throws IOException {
        var names = new ArrayList<String>();
        for (String row : lines("/io/profilestore/demo/names/surnames.tsv")) {
            var cells = row.split("\t");
            names.add(cells[0]);
            names.add(cells[1]);
        }
        for (String row : lines("/io/profilestore/demo/names/first-names-male.tsv")) {
            var cells = row.split("\t");
            names.addAll(List.of(cells[0], cells[2], cells[3]));
        }
        for (String row : lines("/io/profilestore/demo/names/first-names-female.tsv")) {
            names.add(row.split("\t")[0]);
        }
        // the tests that loop over these names would pass over none
        assertThat(names).as("names of the demo data").hasSizeGreaterThan(500);
        return names;
    }

    /** The data lines of a TSV resource, without its header. */
    static List<String> lines(String resource) throws IOException {
        try (InputStream in = NameNormalizerTest.class.getResourceAsStream(resource)) {
            var all = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
            return all.subList(1, all.size());
        }
    }
}
