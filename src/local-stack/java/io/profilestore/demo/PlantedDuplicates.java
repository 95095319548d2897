package io.profilestore.demo;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Generated profiles among which some people appear twice, as banks find them: the second profile, under a user of its
 * own, varies as a second record of one person does. Its name may be in another romanization (a foreign document, or
 * as German, French, ISO 9 without its diacritics or unidecode write it: any of {@link ProfileGenerator.Romanization}),
 * its phone written another way, its patronymic missing, ё written е; it keeps the person's birth date, and keeps the
 * passport, the phone or the e-mail only now and then (a new phone, a new passport since). The same for the same
 * seed; {@link Generated#twinOf()} says which profile a planted one duplicates, for measuring how many are found.
 */
public final class PlantedDuplicates {

    /** A profile's document, and the index of the profile it duplicates (-1: none). */
    public record Generated(ObjectNode data, int twinOf) {
    }

    private final ProfileGenerator people;
    private final SplittableRandom random;
    private final double share;
    private int index;
    private ObjectNode pending;
    private int pendingOf = -1;

    /** @param share the share of profiles that are followed by a duplicate of their person (0 to 1) */
    public PlantedDuplicates(long seed, double latinShare, double share) {
        this.people = new ProfileGenerator(seed, latinShare);
        this.random = new SplittableRandom(seed ^ 0x5DEECE66DL);
        this.share = share;
    }

    public Generated next() {
        Generated next;
        if (pending != null) {
            next = new Generated(pending, pendingOf);
            pending = null;
        } else {
            var data = people.next();
            if (random.nextDouble() < share) {
                pending = twin(data);
                pendingOf = index;
            }
            next = new Generated(data, -1);
        }
        index++;
        return next;
    }

    /** The same person, recorded again: a copy varied as a second record of one person is. */
    ObjectNode twin(ObjectNode person) {
        var twin = person.deepCopy();
        boolean latin = random.nextDouble() < 0.5;
        for (String field : new String[] {"surname", "firstName", "patronymic"}) {
            String name = twin.path(field).asText();
            if (latin && isCyrillic(name)) {
                var schemes = ProfileGenerator.Romanization.values();
                name = schemes[random.nextInt(schemes.length)].romanize(name);
            }
            twin.put(field, name.replace('ё', 'е').replace('Ё', 'Е'));
        }
        if (random.nextDouble() < 0.3) {
            twin.remove("patronymic");
        }
        String phone = person.path("phones").path(0).asText();
        twin.putArray("phones").add(random.nextDouble() < 0.6 ? otherFormat(phone) : people.phone());
        if (random.nextDouble() >= 0.5) {
            twin.putArray("documents").addObject().put("type", "passport").put("number", people.passport());
        }
        if (random.nextDouble() >= 0.3) {
            twin.put("email", "n" + random.nextInt(1_000_000) + "@example.org");
        }
        return twin;
    }

    /** +7 (912) 345-67-89 as people also write it: 8 912 345 67 89, 79123456789, +7 912 3456789. */
    private String otherFormat(String phone) {
        String digits = phone.replaceAll("\\D", "");
        return switch (random.nextInt(3)) {
            case 0 -> "8 " + digits.substring(1, 4) + " " + digits.substring(4, 7) + " " + digits.substring(7, 9) + " "
                    + digits.substring(9);
            case 1 -> digits;
            default -> "+7 " + digits.substring(1, 4) + " " + digits.substring(4);
        };
    }

    private static boolean isCyrillic(String name) {
        return !name.isEmpty() && Character.UnicodeScript.of(name.codePointAt(0)) == Character.UnicodeScript.CYRILLIC
                && !name.toLowerCase(Locale.ROOT).equals(name.toUpperCase(Locale.ROOT));
    }
}
