package io.profilestore.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.ibm.icu.text.Transliterator;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * Realistic profiles of Russian customers, the same for the same seed: surnames and first names as common as they
 * are in Russia (src/local-stack/resources/io/profilestore/demo/names), male and female forms, patronymics, birth dates, mobile phones,
 * passports, e-mail addresses. Some profiles carry their name in Latin letters, as a foreign document would, in
 * one of the common romanizations.
 */
public final class ProfileGenerator {

    /**
     * How a name may be written in Latin letters: the four the demo's foreign documents use, and four more that other
     * tools and people write (each rule file cites its table), which a second record of a person may carry.
     */
    public enum Romanization {
        BGN(Transliterator.getInstance("Russian-Latin/BGN")),
        ISO9(Transliterator.getInstance("Cyrillic-Latin")),
        ICAO(rules("Russian-ICAO", "names/romanize-icao.txt", "")),
        GOST_B(rules("Russian-GOST-B", "names/romanize-gost-b.txt", "")),
        GERMAN(rules("Russian-German", "names/romanize-german.txt", "")),
        FRENCH(rules("Russian-French", "names/romanize-french.txt", "")),
        /** ISO 9 as written by someone with no keys for diacritics: ž is z, â is a. */
        ISO9_PLAIN(rules("Russian-ISO9-plain", "names/romanize-iso9.txt", ":: NFD ;\n:: [:Nonspacing Mark:] Remove ;\n:: NFC ;")),
        UNIDECODE(rules("Russian-unidecode", "names/romanize-unidecode.txt", ""));

        /** The romanizations of the demo's names in Latin letters. */
        static final List<Romanization> DOCUMENTS = List.of(BGN, ISO9, ICAO, GOST_B);

        private final Transliterator transliterator;

        Romanization(Transliterator transliterator) {
            this.transliterator = transliterator;
        }

        public Transliterator transliterator() {
            return transliterator;
        }

        /** The name romanized, capitalized as names are (the rule files read lowercase letters). */
        public String romanize(String name) {
            String latin = transliterator.transliterate(name.toLowerCase(Locale.ROOT));
            return latin.isEmpty() ? latin : latin.substring(0, 1).toUpperCase(Locale.ROOT) + latin.substring(1);
        }

        private static Transliterator rules(String id, String resource, String after) {
            return Transliterator.createFromRules(id, read(resource) + "\n" + after, Transliterator.FORWARD);
        }
    }

    private record Weighted<T>(T value, long weight) {
    }

    private record Surname(String male, String female) {
    }

    private record MaleName(String name, String patronymicMale, String patronymicFemale) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final SplittableRandom random;
    private final double latinShare;
    private final Picker<Surname> surnames;
    private final Picker<MaleName> maleNames;
    private final Picker<String> femaleNames;

    /** @param latinShare the share of profiles whose names are stored in Latin letters (0 to 1) */
    public ProfileGenerator(long seed, double latinShare) {
        this.random = new SplittableRandom(seed);
        this.latinShare = latinShare;
        this.surnames = new Picker<>(table("names/surnames.tsv", c -> new Surname(c[0], c[1]), 2));
        this.maleNames = new Picker<>(table("names/first-names-male.tsv", c -> new MaleName(c[0], c[2], c[3]), 1));
        this.femaleNames = new Picker<>(table("names/first-names-female.tsv", c -> c[0], 1));
    }

    /** The next profile's {@code data} document. */
    public ObjectNode next() {
        boolean female = random.nextBoolean();
        var surname = surnames.pick(random);
        var father = maleNames.pick(random);
        String last = female ? surname.female() : surname.male();
        String first = female ? femaleNames.pick(random) : maleNames.pick(random).name();
        String middle = female ? father.patronymicFemale() : father.patronymicMale();
        if (random.nextDouble() < latinShare) {
            var scheme = Romanization.DOCUMENTS.get(random.nextInt(Romanization.DOCUMENTS.size()));
            last = scheme.romanize(last);
            first = scheme.romanize(first);
            middle = scheme.romanize(middle);
        }
        var data = JSON.createObjectNode();
        data.put("surname", last);
        data.put("firstName", first);
        data.put("patronymic", middle);
        data.put("gender", female ? "F" : "M");
        data.put("birthDate", LocalDate.of(1940, 1, 1).plusDays(random.nextInt(365 * 65)).toString());
        data.putArray("phones").add(phone());
        var passport = data.putArray("documents").addObject();
        passport.put("type", "passport");
        passport.put("number", passport());
        data.put("email", Romanization.BGN.romanize(first).toLowerCase(Locale.ROOT).replaceAll("[^a-z]", "") + "."
                + Romanization.BGN.romanize(last).toLowerCase(Locale.ROOT).replaceAll("[^a-z]", "")
                + random.nextInt(1000) + "@example.com");
        data.put("segment", List.of("retail", "premium", "private", "sme").get(random.nextInt(4)));
        return data;
    }

    /** A Russian passport's series and number: 45 07 123456. */
    String passport() {
        return String.format("%02d %02d %06d", 1 + random.nextInt(99), random.nextInt(30), random.nextInt(1_000_000));
    }

    /** A Russian mobile number, written the way people write them: +7 (912) 345-67-89. */
    String phone() {
        int operator = 900 + random.nextInt(100);
        int number = random.nextInt(10_000_000);
        String digits = String.format("%07d", number);
        return "+7 (" + operator + ") " + digits.substring(0, 3) + "-" + digits.substring(3, 5) + "-" + digits.substring(5);
    }

    /** Picks by weight: a cumulative table and a binary search. */
    private static final class Picker<T> {
        private final List<T> values = new ArrayList<>();
        private final long[] cumulative;

        Picker(List<Weighted<T>> table) {
            cumulative = new long[table.size()];
            long sum = 0;
            for (int i = 0; i < table.size(); i++) {
                sum += table.get(i).weight();
                cumulative[i] = sum;
                values.add(table.get(i).value());
            }
        }

        T pick(SplittableRandom random) {
            long target = random.nextLong(cumulative[cumulative.length - 1]);
            int index = Arrays.binarySearch(cumulative, target + 1);
            return values.get(index >= 0 ? index : -index - 1);
        }
    }

    private static <T> List<Weighted<T>> table(String resource, Function<String[], T> row, int weightColumn) {
        var table = new ArrayList<Weighted<T>>();
        var lines = read(resource).lines().toList();
        for (String line : lines.subList(1, lines.size())) {
            var cells = line.split("\t");
            table.add(new Weighted<>(row.apply(cells), Long.parseLong(cells[weightColumn])));
        }
        return table;
    }

    private static String read(String resource) {
        try (InputStream in = ProfileGenerator.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
