package io.profilestore.bench;

import com.ibm.icu.text.Transliterator;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What the search scenarios ask for, drawn from the dataset's profiles as operators type them: surname prefixes and
 * whole names, some of the Cyrillic ones in Latin letters (BGN's romanization, as a passport or a foreign keyboard
 * gives them), so that the transliterated readings are measured too.
 */
final class SearchTerms {

    private final Dataset dataset;
    private final Transliterator romanize = Transliterator.getInstance("Russian-Latin/BGN");

    SearchTerms(Dataset dataset) {
        this.dataset = dataset;
    }

    /** A prefix of 2 to 6 letters of a random profile's surname, half of the Cyrillic ones typed in Latin. */
    String surnamePrefix() {
        var random = ThreadLocalRandom.current();
        String surname = dataset.surnames[random.nextInt(dataset.size)].split("-")[0];
        if (random.nextBoolean() && cyrillic(surname)) {
            surname = romanize.transliterate(surname);
        }
        int length = Math.min(surname.length(), 2 + random.nextInt(5));
        return surname.substring(0, length).toLowerCase(Locale.ROOT);
    }

    /**
     * A person as an operator types them into the search box: the whole surname and the first letters of the first
     * name, in either order, a third of them in Latin letters.
     */
    String typedName() {
        var random = ThreadLocalRandom.current();
        int i = random.nextInt(dataset.size);
        String surname = dataset.surnames[i];
        String first = dataset.firstNames[i];
        first = first.substring(0, Math.min(first.length(), 1 + random.nextInt(4)));
        String typed = random.nextBoolean() ? surname + " " + first : first + " " + surname;
        if (random.nextInt(3) == 0 && cyrillic(typed)) {
            typed = romanize.transliterate(typed);
        }
        return typed.toLowerCase(Locale.ROOT);
    }

    /** A term as a query parameter's value. */
    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static boolean cyrillic(String text) {
        return text.codePoints().anyMatch(c -> Character.UnicodeScript.of(c) == Character.UnicodeScript.CYRILLIC);
    }
}
