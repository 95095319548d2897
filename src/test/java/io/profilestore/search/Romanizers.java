package io.profilestore.search;

import com.ibm.icu.text.Transliterator;
import io.profilestore.demo.ProfileGenerator;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * Romanizations of Russian names as other tools and people write them, made independently of NameNormalizer's
 * rules: German (Duden), French, ISO 9 with its diacritics dropped and Python's unidecode, from the rule files beside
 * the demo data's (src/local-stack/resources/io/profilestore/demo/names/romanize-*.txt, each citing its table), which
 * its second records of a person use too; BGN/PCGN (ICU's own), ICAO (the demo data's)
 * and ISO 9 with diacritics, which the normalizer already met, to show nothing regressed.
 */
public enum Romanizers {
    GERMAN("German (Duden)", ProfileGenerator.Romanization.GERMAN.transliterator()::transliterate),
    FRENCH("French", ProfileGenerator.Romanization.FRENCH.transliterator()::transliterate),
    ISO9_PLAIN("ISO 9, diacritics dropped", ProfileGenerator.Romanization.ISO9_PLAIN.transliterator()::transliterate),
    UNIDECODE("unidecode", ProfileGenerator.Romanization.UNIDECODE.transliterator()::transliterate),
    BGN("BGN/PCGN", Transliterator.getInstance("Russian-Latin/BGN")::transliterate),
    ICAO("ICAO 9303", ProfileGenerator.Romanization.ICAO.transliterator()::transliterate),
    ISO9("ISO 9", rules("iso9"));

    private final String title;
    private final UnaryOperator<String> lowercase;

    Romanizers(String title, UnaryOperator<String> lowercase) {
        this.title = title;
        this.lowercase = lowercase;
    }

    public String title() {
        return title;
    }

    /** The name in this romanization, capitalized as a name is written. */
    public String romanize(String cyrillic) {
        String latin = lowercase.apply(cyrillic.toLowerCase(Locale.ROOT));
        return latin.isEmpty() ? latin : latin.substring(0, 1).toUpperCase(Locale.ROOT) + latin.substring(1);
    }

    /**
     * The surnames of the demo data, most common first (src/local-stack/resources/io/profilestore/demo/names):
     * each row its male and its female form.
     */
    public static List<List<String>> surnames() {
        try (InputStream in = Romanizers.class.getResourceAsStream("/io/profilestore/demo/names/surnames.tsv")) {
            var lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().skip(1);
            return lines.map(line -> List.of(line.split("\t")).subList(0, 2)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The shortest beginning of what was typed with that many letters (an apostrophe in it stays, as typed). */
    public static String firstLetters(String typed, int letters) {
        int end = 0;
        for (int seen = 0; end < typed.length() && seen < letters; end++) {
            seen += Character.isLetter(typed.charAt(end)) ? 1 : 0;
        }
        return typed.substring(0, end);
    }

    private static UnaryOperator<String> rules(String name) {
        String resource = "/io/profilestore/demo/names/romanize-" + name + ".txt";
        try (InputStream in = Romanizers.class.getResourceAsStream(resource)) {
            var rules = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return Transliterator.createFromRules("Russian-" + name, rules, Transliterator.FORWARD)::transliterate;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
