package io.profilestore.search;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * What an operator typed into the one search box ({@code q}), word by word: names in any order and either alphabet
 * (each word the beginning of a surname, first name or patronymic, in some reading), birth dates, phone and
 * document numbers (a run of number-like words is one number: {@code +7 912 345-67-89}, {@code 45 06 123456}), a
 * pid or uid, an e-mail. Every word must match; how each was read is {@link #explained()}.
 *
 * @param names the name words, each with its readings (as typed, and with the other keyboard layout)
 */
public record TypedQuery(String input, List<NameWord> names, List<LocalDate> dates, List<NumberWord> numbers,
        List<UUID> ids, List<String> emails, List<Map<String, Object>> readAs) {

    public static final int MAX_LENGTH = 200;
    public static final int MAX_WORDS = 10;

    /** A word of a name, and the readings it may stand for. */
    public record NameWord(String text, List<NameNormalizer.Reading> readings) {
        /** A Latin word read as typed is a transliteration: the index holds Cyrillic keys only. */
        public String describe(NameNormalizer.Source source) {
            if (source == NameNormalizer.Source.AS_TYPED && LATIN.matcher(text).find()) {
                return "transliterated from Latin";
            }
            return source.description();
        }
    }

    /** A number as typed, and its digits as a phone and as a document number (either may be absent). */
    public record NumberWord(String text, String phone, String document) {
    }

    /** White space of any kind (a phone pasted with no-break spaces), commas, semicolons. */
    private static final Pattern SEPARATORS = Pattern.compile("[\\s\\p{Z},;]+");
    private static final Pattern NUMBER_PART = Pattern.compile("[+(]*\\d[\\d().\\-]*");
    /** What looks like a date: read as one, or refused, never taken for a number. */
    private static final Pattern DATE_SHAPE = Pattern.compile("\\d{1,2}[./]\\d{1,2}[./]\\d+|\\d{4,}-\\d{1,2}-\\d{1,2}");
    private static final Pattern LETTER_OR_DIGIT = Pattern.compile("[\\p{L}\\p{N}]");
    private static final Pattern ID = Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+");
    private static final Pattern LATIN = Pattern.compile("\\p{IsLatin}");

    public static TypedQuery parse(String input, NameNormalizer normalizer) {
        if (input.length() > MAX_LENGTH) {
            throw new InvalidSearchException("invalid-query", "q may be at most " + MAX_LENGTH + " characters");
        }
        // commas and semicolons end a number: "45 06 123456, +7 912 345 67 89" is two
        var words = new ArrayList<String>();
        for (String piece : input.strip().split("(?<=[,;])")) {
            for (String word : SEPARATORS.split(piece)) {
                if (!word.isEmpty()) {
                    words.add(word);
                }
            }
            words.add(",");
        }
        var names = new ArrayList<NameWord>();
        var dates = new ArrayList<LocalDate>();
        var numbers = new ArrayList<NumberWord>();
        var ids = new ArrayList<UUID>();
        var emails = new ArrayList<String>();
        var readAs = new ArrayList<Map<String, Object>>();
        var number = new StringBuilder();
        int count = 0;
        for (String word : words) {
            if (DATE_SHAPE.matcher(word).matches() && Numbers.date(word).isEmpty()) {
                throw new InvalidSearchException("invalid-query",
                        "q has a date that is no date: give it as 07.03.1985 or 1985-03-07, a year from 1850 to 2150");
            }
            boolean numeric = NUMBER_PART.matcher(word).matches() && Numbers.date(word).isEmpty();
            // a run of numeric words is one number; a word starting with + starts a new one
            if (number.length() > 0 && (!numeric || word.startsWith("+"))) {
                var read = number(number.toString());
                numbers.add(read);
                readAs.add(describe(read));
                number.setLength(0);
            }
            if (word.equals(",")) {
                continue;
            }
            if (++count > MAX_WORDS) {
                throw new InvalidSearchException("invalid-query", "q may have at most " + MAX_WORDS + " words");
            }
            if (numeric) {
                number.append(number.length() > 0 ? " " : "").append(word);
            } else if (ID.matcher(word).matches()) {
                ids.add(UUID.fromString(word));
                readAs.add(ordered("input", word, "as", "pid or uid", "id", ids.get(ids.size() - 1).toString()));
            } else if (Numbers.date(word).isPresent()) {
                dates.add(Numbers.date(word).get());
                readAs.add(ordered("input", word, "as", "birthDate", "date", dates.get(dates.size() - 1).toString()));
            } else if (EMAIL.matcher(word).matches()) {
                emails.add(ProfileDocument.email(word));
                readAs.add(ordered("input", word, "as", "email", "email", emails.get(emails.size() - 1)));
            } else {
                var readings = normalizer.queryReadings(word);
                if (!readings.isEmpty()) {
                    names.add(new NameWord(word, readings));
                    readAs.add(describe(names.get(names.size() - 1)));
                } else if (LETTER_OR_DIGIT.matcher(word).find()) {
                    // every word must match: one that cannot be read is refused, never left out
                    throw new InvalidSearchException("invalid-query", "q has a word that is neither a name, a date, "
                            + "a phone or document number, an id nor an e-mail");
                }
            }
        }
        if (names.isEmpty() && dates.isEmpty() && numbers.isEmpty() && ids.isEmpty() && emails.isEmpty()) {
            throw new InvalidSearchException("invalid-query", "q has nothing to search for: no letters, date or number");
        }
        return new TypedQuery(input, List.copyOf(names), List.copyOf(dates), List.copyOf(numbers), List.copyOf(ids),
                List.copyOf(emails), List.copyOf(readAs));
    }

    private static NumberWord number(String text) {
        var phone = Numbers.phone(text).orElse(null);
        var document = Numbers.document(text).orElse(null);
        if (phone == null && document == null) {
            throw new InvalidSearchException("invalid-query", "a number in q has too few or too many digits");
        }
        return new NumberWord(text, phone, document);
    }

    private static Map<String, Object> describe(NameWord name) {
        var readings = new ArrayList<Map<String, Object>>();
        for (var reading : name.readings()) {
            readings.add(ordered("reading", name.describe(reading.source()),
                    "words", reading.words().stream().map(List::copyOf).toList()));
        }
        return ordered("input", name.text(), "as", "name", "readings", readings);
    }

    private static Map<String, Object> describe(NumberWord number) {
        var described = new LinkedHashMap<String, Object>();
        described.put("input", number.text());
        described.put("as", "phone or document");
        if (number.phone() != null) {
            described.put("phone", number.phone());
        }
        if (number.document() != null) {
            described.put("document", number.document());
        }
        return described;
    }

    /** How each word was read, in the order typed, for the answer's {@code query}: why a hit matched. */
    public Map<String, Object> explained() {
        return ordered("input", input, "words", readAs);
    }

    /**
     * A map in the order given: the answer reads in a stable order, and the search's text (which a cursor is
     * sealed to, and which another instance must make alike) does not depend on a JVM's hash salt.
     */
    private static Map<String, Object> ordered(Object... keysAndValues) {
        var map = new LinkedHashMap<String, Object>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    /** The search as typed: what a cursor is sealed to (the readings follow from it). */
    @Override
    public String toString() {
        return "TypedQuery[" + input + "]";
    }
}
