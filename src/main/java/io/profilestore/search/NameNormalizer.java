package io.profilestore.search;

import com.ibm.icu.text.Normalizer2;
import com.ibm.icu.text.Transliterator;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Turns a name, written in Cyrillic or in any common romanization, into search keys: lowercase Cyrillic
 * letters in which every spelling of one name meets (Щербакова, Shcherbakova, Shherbakova, Ŝerbakova,
 * ЩЕРБАКОВА all become щиербакова). The same code reads stored names (for the index) and typed queries
 * (for the search), so the two cannot drift apart.
 *
 * <p>The rules are data, in {@code src/main/resources/normalizer/}: ICU transliteration rules from Latin to
 * Cyrillic and from Cyrillic to the key, the other readings of a Latin word where romanizations disagree (German,
 * French, ISO 9 without its diacritics...), and the keyboard table that reads a name typed with the wrong layout
 * switched on (Bdfyjd is Иванов).
 */
public final class NameNormalizer {

    /** How a query was read: as typed, or as typed with the other keyboard layout on. */
    public enum Source {
        AS_TYPED("as typed"),
        LATIN_LAYOUT("typed with the Latin layout on"),
        CYRILLIC_LAYOUT("typed with the Cyrillic layout on");

        private final String description;

        Source(String description) {
            this.description = description;
        }

        public String description() {
            return description;
        }
    }

    /**
     * One reading of a text: its words (the parts of a hyphenated name count as words), each with the keys it
     * may stand for. A name matches when every word is the beginning of one of the name's keys.
     *
     * @param primary each word's key as the rules read it, without the other romanizations' readings of
     *     latin-variants.txt: the likeliest, which a search ranks first
     */
    public record Reading(Source source, List<Set<String>> words, List<Set<String>> primary) {
        public Reading {
            words = List.copyOf(words);
            primary = List.copyOf(primary);
        }

        Reading as(Source other) {
            return new Reading(other, words, primary);
        }
    }

    private static final Pattern APOSTROPHES = Pattern.compile("['`´ʹʺʻʼʽˈ′″‘’\"]");
    private static final Pattern SEPARATORS = Pattern.compile("[\\s\\p{Pd}_/\\\\,.;:()]+");
    private static final Pattern LATIN = Pattern.compile("\\p{IsLatin}");
    private static final Pattern NOT_KEY = Pattern.compile("[^а-я]");
    private static final Pattern REPEATED_I = Pattern.compile("и{2,}");
    private static final Pattern CYRILLIC_TEXT = Pattern.compile("[\\p{IsCyrillic}\\s\\p{Pd}]+");

    /**
     * A rule of latin-variants.txt: in words where the pattern occurs, an extra reading with it replaced, everywhere
     * at once or, for a letter that one word may use both ways (Selesnjow: s is з, then с), at one place at a time.
     * A rule of one romanization ({@code system}) combines with the rules of no other, only with the common ones.
     */
    private record Variant(Scope scope, boolean onePlace, Pattern pattern, String replacement, String system) {
    }

    /** Which words a variant reads: stored names and queries, queries as typed, or a query's last word. */
    private enum Scope {
        NAME, QUERY, PREFIX
    }

    /** How a text is read: as a stored name, as a query typed, or as a query read with the other layout. */
    private enum Mode {
        STORED, TYPED, OTHER_LAYOUT
    }

    /** At most this many readings of one word in one romanization, however many variants apply. */
    private static final int MAX_READINGS = 16;

    private final Normalizer2 nfkc = Normalizer2.getNFKCInstance();
    private final Transliterator latin;
    private final List<Variant> variants = new ArrayList<>();
    /** The romanizations the variants name, and "" for the common ones. */
    private final Set<String> systems = new LinkedHashSet<>(List.of(""));
    /** The words a romanization may have written, where latin-variants.txt says (others are not read its way). */
    private final Map<String, Pattern> systemWords = new HashMap<>();
    private final Transliterator fold;
    private final Map<Character, Character> latinLayout = new HashMap<>();
    private final Map<Character, Character> cyrillicLayout = new HashMap<>();

    private NameNormalizer(String latinRules, String latinVariants, String foldRules, String layout) {
        latin = Transliterator.createFromRules("Latin-Cyrillic-Names", latinRules, Transliterator.FORWARD);
        for (String line : latinVariants.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            var cells = line.split("\t");
            if (cells[0].equals("words")) {
                systemWords.put(cells[2], Pattern.compile(cells[1]));
                continue;
            }
            var scope = Scope.valueOf(cells[0].replace("-each", "").toUpperCase(Locale.ROOT));
            String system = cells.length > 3 ? cells[3] : "";
            variants.add(new Variant(scope, cells[0].endsWith("-each"), Pattern.compile(cells[1]), cells[2], system));
            systems.add(system);
        }
        fold = Transliterator.createFromRules("Cyrillic-NameKey", foldRules, Transliterator.FORWARD);
        for (String line : layout.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            char key = line.charAt(0);
            char letter = line.charAt(line.length() - 1);
            latinLayout.put(key, letter);
            cyrillicLayout.putIfAbsent(letter, key);
        }
    }

    /** The normalizer with the project's rules. */
    public static NameNormalizer standard() {
        return Holder.STANDARD;
    }

    private static final class Holder {
        static final NameNormalizer STANDARD = new NameNormalizer(resource("latin-to-cyrillic.txt"),
                resource("latin-variants.txt"), resource("fold.txt"), resource("keyboard-layout.txt"));
    }

    private static String resource(String name) {
        try (InputStream in = NameNormalizer.class.getResourceAsStream("/normalizer/" + name)) {
            if (in == null) {
                throw new IllegalStateException("normalizer/" + name + " is missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The keys a stored name is indexed under: every key of every word, in order, without repeats; for a
     * name of several words also the words run together (РимскийКорсаков finds Римский-Корсаков).
     */
    public List<String> indexKeys(String name) {
        var words = read(name, Mode.STORED).words();
        var keys = new LinkedHashSet<String>();
        words.forEach(keys::addAll);
        if (words.size() > 1) {
            keys.add(String.join("", words.stream().map(w -> w.iterator().next()).toList()));
        }
        return List.copyOf(keys);
    }

    /** The one key a name sorts by: its words' first keys, joined by spaces. */
    public String sortKey(String name) {
        var words = read(name, Mode.STORED).words();
        return String.join(" ", words.stream().map(w -> w.iterator().next()).toList());
    }

    /**
     * The readings of a typed query: as typed, and, when the text could have been typed with the wrong layout
     * on, as it would read with the other one. Readings without a word are left out.
     */
    public List<Reading> queryReadings(String query) {
        var readings = new ArrayList<Reading>();
        String text = nfkc.normalize(query == null ? "" : query).strip();
        readings.add(read(text, Mode.TYPED));
        String latinSwapped = swapLayout(text, latinLayout);
        if (latinSwapped != null) {
            readings.add(read(latinSwapped, Mode.OTHER_LAYOUT).as(Source.LATIN_LAYOUT));
        }
        if (CYRILLIC_TEXT.matcher(text).matches()) {
            String cyrillicSwapped = swapLayout(text, cyrillicLayout);
            if (cyrillicSwapped != null) {
                readings.add(read(cyrillicSwapped, Mode.OTHER_LAYOUT).as(Source.CYRILLIC_LAYOUT));
            }
        }
        var distinct = new ArrayList<Reading>();
        for (var reading : readings) {
            if (!reading.words().isEmpty() && distinct.stream().noneMatch(r -> r.words().equals(reading.words()))) {
                distinct.add(reading);
            }
        }
        return distinct;
    }

    /** The reading of a text as typed, a stored name's. */
    public Reading read(String text) {
        return read(text, Mode.STORED);
    }

    /**
     * @param mode a query's last word may be cut short anywhere; a query as typed is read by the query rules too
     *     (the other layout's reading is one guess already)
     */
    private Reading read(String text, Mode mode) {
        String lower = nfkc.normalize(text == null ? "" : text).toLowerCase(Locale.ROOT);
        String plain = APOSTROPHES.matcher(lower).replaceAll("");
        var parts = SEPARATORS.split(plain);
        var words = new ArrayList<Set<String>>();
        var primary = new ArrayList<Set<String>>();
        for (int i = 0; i < parts.length; i++) {
            var keys = keys(parts[i], mode != Mode.STORED && i == parts.length - 1, mode == Mode.TYPED);
            if (!keys.isEmpty()) {
                words.add(keys);
                primary.add(primaryKeys(parts[i]));
            }
        }
        return new Reading(Source.AS_TYPED, words, primary);
    }

    /** The keys of one word: one, or more where romanizations disagree about a Latin spelling. */
    private Set<String> keys(String word, boolean cutShort, boolean asTyped) {
        if (word.isEmpty()) {
            return Set.of();
        }
        if (!LATIN.matcher(word).find()) {
            return primaryKeys(word);
        }
        var keys = new TreeSet<String>();
        for (String system : systems) {
            if (!systemWords.containsKey(system) || systemWords.get(system).matcher(word).matches()) {
                spellings(word, system, cutShort, asTyped).forEach(spelling -> add(keys, latin.transliterate(spelling)));
            }
        }
        return keys;
    }

    /** The key of a word as the rules read it, without the other readings of latin-variants.txt: the likeliest. */
    private Set<String> primaryKeys(String word) {
        var keys = new TreeSet<String>();
        add(keys, LATIN.matcher(word).find() ? latin.transliterate(word) : word);
        return keys;
    }

    /**
     * The spellings a word may stand for in one romanization: the word itself, and the word with the variants of
     * that romanization and the common ones applied, alone and together, in the order of the file.
     */
    private Set<String> spellings(String word, String system, boolean cutShort, boolean asTyped) {
        var spellings = new LinkedHashSet<String>(List.of(word));
        for (var variant : variants) {
            if (variant.scope() == Scope.PREFIX && !cutShort || variant.scope() == Scope.QUERY && !asTyped
                    || !variant.system().isEmpty() && !variant.system().equals(system)) {
                continue;
            }
            for (String spelling : List.copyOf(spellings)) {
                var matcher = variant.pattern().matcher(spelling);
                if (variant.onePlace()) {
                    for (int place = 0; matcher.find() && spellings.size() < MAX_READINGS; place++) {
                        spellings.add(replaceAt(variant, spelling, place));
                    }
                } else if (matcher.find() && spellings.size() < MAX_READINGS) {
                    spellings.add(matcher.replaceAll(variant.replacement()));
                }
            }
        }
        return spellings;
    }

    /** The spelling with the variant's pattern replaced at its {@code place}-th occurrence only. */
    private static String replaceAt(Variant variant, String spelling, int place) {
        var matcher = variant.pattern().matcher(spelling);
        for (int i = 0; i <= place; i++) {
            matcher.find();
        }
        var replaced = new StringBuilder();
        matcher.appendReplacement(replaced, variant.replacement());
        return matcher.appendTail(replaced).toString();
    }

    private void add(Set<String> keys, String cyrillic) {
        String key = REPEATED_I.matcher(NOT_KEY.matcher(fold.transliterate(cyrillic)).replaceAll("")).replaceAll("и");
        if (!key.isEmpty()) {
            keys.add(key);
        }
    }

    /** The text as the other keyboard layout would have typed it, or null when some character is not on it. */
    private static String swapLayout(String text, Map<Character, Character> table) {
        var swapped = new StringBuilder(text.length());
        boolean changed = false;
        for (char ch : text.toCharArray()) {
            if (Character.isWhitespace(ch) || ch == '-') {
                swapped.append(ch);
                continue;
            }
            Character other = table.get(Character.toLowerCase(ch));
            if (other == null) {
                return null;
            }
            swapped.append(other.charValue());
            changed = true;
        }
        return changed ? swapped.toString() : null;
    }
}
